// Package data holds ranking data sets and their feature costs: the Dataset
// (dense, column-major float32 features with query offsets, labels and
// document ids), the SVMlight/LETOR reader (plain or gzip), cost files and
// cost groups, quantile binning for the tree learner, the synthetic
// MSLR-shaped generator, and the built-in MQ2008 data set.
//
// Feature indices are 1-based in files and in messages, and 0-based in code:
// feature i of a file is column i-1 of a Dataset.
package data
