package metric

import (
	"math"
	"testing"
)

// TestBinaryRelevanceMatchesScoring checks BinaryRelevance (which eval's
// messages about --relevant rest on) against what each metric computes, as
// README states it: with --relevant 2, a query whose labels are 1, 1, 0 has
// no relevant document for P@k, MAP, RR, recall and RBP (0, or NaN left
// out under ExcludeNoRelevant), while NDCG and ERR count label 1 as
// relevant and score it above 0.
func TestBinaryRelevanceMatchesScoring(t *testing.T) {
	labels := []float32{1, 0, 1}
	scores := []float64{3, 2, 1}
	offsets := []int{0, 3}
	for _, name := range []string{"ndcg@3", "err@3", "p@3", "map", "rr", "recall@3", "rbp@0.8"} {
		s, err := Parse(name)
		if err != nil {
			t.Fatal(err)
		}
		keep := PerQuery(s, scores, labels, offsets, Options{RelevantLabel: 2}, nil)[0]
		excl := PerQuery(s, scores, labels, offsets, Options{RelevantLabel: 2, ExcludeNoRelevant: true}, nil)[0]
		if s.BinaryRelevance() {
			if keep != 0 || !math.IsNaN(excl) {
				t.Errorf("%s (binary relevance): %v, %v excluding, want 0 and NaN: no label reaches 2", name, keep, excl)
			}
		} else if !(keep > 0) || excl != keep {
			t.Errorf("%s (graded): %v, %v excluding, want the same value above 0: labels 1 are relevant", name, keep, excl)
		}
	}
	// The graded ones are NDCG and ERR only.
	for _, s := range []Spec{{Name: NDCG}, {Name: ERR}} {
		if s.BinaryRelevance() {
			t.Errorf("%s: binary relevance", s.Name)
		}
	}
}
