// Package baseline computes the quality/cost curves that a cascade is
// measured against, and writes, reads and plots such curves.
//
// Two baselines from the Cronus paper (Chen et al. 2012, §4) are here:
//
//   - Prefix: the GBRT curve of the paper's footnote 11, "obtained by
//     plotting the precision and cost as more trees are added": the first k
//     trees of the ensemble, for a range of k.
//   - EarlyExit: "Early Exits Using Proximity Threshold" of Cambazoglu et al.
//     (2010), the best of their early-exit methods in the paper's Figure 2
//     (right): every few trees, the documents of a query that trail its
//     fifth best by a margin stop being scored.
//
// Both evaluate an ensemble as it stands, without training. Cost follows the
// project's model (DESIGN.md, "Cost model"): a document pays c_α once for
// every feature that any tree it is scored with splits on, and the tree cost
// once per tree evaluated; costs are averaged over the documents of the data
// set, with the feature part, the tree part and the total reported apart.
//
// A Point is one quality/cost point of any method, so the curves of the
// cascade optimiser and of the baselines share Pareto, WriteCSV, ReadCSV and
// Plot.
package baseline
