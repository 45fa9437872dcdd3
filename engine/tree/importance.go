package tree

// FeatureStats is what an ensemble's splits on one feature add up to: the
// feature importances of XGBoost's Booster.get_score and LightGBM's
// feature_importance.
type FeatureStats struct {
	Feature int     // 0-based
	Splits  int     // splits on the feature: XGBoost's "weight", LightGBM's "split"
	Trees   int     // trees with at least one split on it
	Gain    float64 // the sum of its splits' gains: XGBoost's "total_gain", LightGBM's "gain" (0 unless HasGain)
	Cover   float64 // the sum of its splits' covers: XGBoost's "total_cover" (0 unless HasCover)
}

// Importance returns the FeatureStats of each of e's NumFeatures features,
// in feature order, over the trees listed (distinct indices into e.Trees),
// or over all when trees is nil. Gains and covers are summed in float64,
// tree by tree.
func (e *Ensemble) Importance(trees []int) []FeatureStats {
	if trees == nil {
		trees = make([]int, len(e.Trees))
		for i := range trees {
			trees[i] = i
		}
	}
	st := make([]FeatureStats, e.NumFeatures)
	for f := range st {
		st[f].Feature = f
	}
	gain, cover := e.HasGain(), e.HasCover()
	lastTree := make([]int, e.NumFeatures)
	for f := range lastTree {
		lastTree[f] = -1
	}
	for _, i := range trees {
		t := &e.Trees[i]
		for n, nd := range t.Nodes {
			s := &st[nd.Feature]
			s.Splits++
			if lastTree[nd.Feature] != i {
				lastTree[nd.Feature] = i
				s.Trees++
			}
			if gain {
				s.Gain += float64(t.Gain[n])
			}
			if cover {
				s.Cover += float64(t.Cover[n])
			}
		}
	}
	return st
}
