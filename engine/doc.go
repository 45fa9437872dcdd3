// Package engine is the root of the algorithms: tree ensembles (tree),
// boosting (boost), ranking metrics (metric), the Cronus cascade optimiser
// (cronus), baselines (baseline) and long work as event streams (job). No
// package under engine imports the user interface.
package engine
