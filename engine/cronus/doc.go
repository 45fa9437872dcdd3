// Package cronus re-weights and re-orders the trees of an ensemble into a
// cascade of early-exit stages that trades ranking quality against the cost
// of feature extraction and tree evaluation (Chen, Xu, Weinberger et al.,
// "Classifier Cascade for Minimizing Feature Evaluation Cost", 2012).
//
// The tree outputs of every document form the matrix H (documents × trees);
// a stage k is a weight vector β^k over the trees plus an intercept and an
// exit threshold θ^k. A document leaves the cascade at the first stage whose
// score h(x)ᵀβ^k is below θ^k. Features are paid once per document, the first
// time any evaluated tree needs them; a tree is evaluated at most once per
// document, whatever the number of stages that use it.
//
// The soft exit indicator is I(x) = 1/(1+exp(−(s(x)−θ)/σ)) with σ the scale
// the user sets (the paper's steepness γ = 1/σ), made relative to each
// stage's score spread (see Params.Sigma).
package cronus
