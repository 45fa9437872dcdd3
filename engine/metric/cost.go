package metric

// Cost is the average cost of scoring one document, split into the part
// paid for extracting features and the part paid for evaluating trees.
type Cost struct {
	Total    float64 `json:"total"`
	Features float64 `json:"features"`
	Trees    float64 `json:"trees"`
}

// EnsembleCost is the cost per document of a model that evaluates every one
// of trees trees (each costing treeCost) on every document, and so extracts
// every feature any tree uses, each paid once: used lists those features
// (0-based, no duplicates) and costs gives the cost of each feature.
func EnsembleCost(used []int, costs []float64, trees int, treeCost float64) Cost {
	c := Cost{Trees: float64(trees) * treeCost}
	for _, f := range used {
		c.Features += costs[f]
	}
	c.Total = c.Features + c.Trees
	return c
}
