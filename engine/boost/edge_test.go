package boost

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/metric"
)

// constantData is two queries of four documents, labels 0..3 in each,
// whose nf features are all the same value (none can be split on).
func constantData(nf int) *data.Dataset {
	d := &data.Dataset{HasQID: true, QueryIDs: []int64{1, 2}, QueryOffsets: []int{0, 4, 8}}
	d.Labels = []float32{0, 1, 2, 3, 3, 2, 1, 0}
	for range nf {
		c := make([]float32, 8)
		for i := range c {
			c[i] = 0.5
		}
		d.Cols = append(d.Cols, c)
	}
	return d
}

// TestTrainNothingToSplit trains on data no feature of which can be split
// on (all constant, or no features at all): training must still succeed,
// every tree a single leaf, and squared error then predicts the labels'
// mean, 1.5, for every document.
func TestTrainNothingToSplit(t *testing.T) {
	for _, nf := range []int{3, 0} {
		d := constantData(nf)
		p := DefaultParams(Regression)
		p.Trees, p.Grow.MinDocs, p.Grow.Lambda = 5, 1, 0
		r, err := Train(context.Background(), d, d, p, nil)
		if err != nil {
			t.Fatalf("%d constant features: %v", nf, err)
		}
		for k, tr := range r.Ensemble.Trees {
			if len(tr.Nodes) != 0 {
				t.Errorf("%d constant features: tree %d has %d splits", nf, k, len(tr.Nodes))
			}
		}
		got := r.Ensemble.Predict(nil, d.Cols, d.NumDocs(), -1)
		for i, s := range got {
			if math.Abs(s-1.5) > 1e-12 {
				t.Errorf("%d constant features: document %d scores %v, want 1.5", nf, i, s)
			}
		}
	}
}

// TestTrainValidNarrowerThanTrain early-stops a binary model on a
// validation set that lacks the training set's last two features (a sparse
// file whose lines never name them): they read as 0 there, as they do when
// the kept ensemble predicts the set padded with zero columns, so the
// history's best validation metric is the kept ensemble's.
func TestTrainValidNarrowerThanTrain(t *testing.T) {
	train, valid := synth(t, 40, 11), synth(t, 20, 12)
	narrow := *valid
	narrow.Cols = valid.Cols[:3]
	p := DefaultParams(Binary)
	p.Trees, p.EarlyStop, p.Grow.MinDocs = 300, 5, 2
	r, err := Train(context.Background(), train, &narrow, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := r.History
	if h.StoppedAt == 0 || h.StoppedAt != h.BestTrees+5 || len(r.Ensemble.Trees) != h.BestTrees {
		t.Fatalf("stopped at %d, best %d, kept %d trees", h.StoppedAt, h.BestTrees, len(r.Ensemble.Trees))
	}
	uses4or5 := false
	for _, f := range r.Ensemble.Features(-1) {
		uses4or5 = uses4or5 || f >= 3
	}
	if !uses4or5 {
		t.Fatal("the kept trees never split on features 4 and 5: the test checks nothing")
	}
	cols := append(narrow.Cols[:3:3], make([]float32, narrow.NumDocs()), make([]float32, narrow.NumDocs()))
	got := r.Ensemble.Predict(nil, cols, narrow.NumDocs(), -1)
	v := metric.Mean(p.Metric, got, narrow.Labels, narrow.QueryOffsets, metric.Options{})
	if math.Abs(v-h.BestValid) > 1e-9 {
		t.Errorf("kept ensemble's validation %s %v, history's best %v", p.Metric, v, h.BestValid)
	}
	best := math.Inf(-1)
	for _, x := range h.Valid {
		best = max(best, x)
	}
	if best != h.BestValid {
		t.Errorf("history's best %v, largest validation value %v", h.BestValid, best)
	}
}

// TestTrainSampledScoresMatchPrediction trains with rows and columns both
// sampled: the documents outside a tree's sample are scored through their
// bins, and the training metric the history ends with must be the final
// ensemble's on its own predictions, for every objective; with a sample so
// small that no document is drawn, each tree is fit on one document and
// so is a single leaf.
func TestTrainSampledScoresMatchPrediction(t *testing.T) {
	train := synth(t, 30, 13)
	for _, obj := range []string{Regression, Binary, LambdaRank} {
		for _, rs := range []float64{0.5, 1e-9} {
			p := DefaultParams(obj)
			p.Trees, p.Grow.MinDocs, p.RowSample, p.ColSample = 15, 1, rs, 0.5
			p.Metric = metric.Spec{Name: metric.NDCG, K: 20}
			r, err := Train(context.Background(), train, nil, p, nil)
			if err != nil {
				t.Fatalf("%s, row sample %g: %v", obj, rs, err)
			}
			h := r.History
			got := r.Ensemble.Predict(nil, train.Cols, train.NumDocs(), -1)
			if v := metric.Mean(p.Metric, got, train.Labels, train.QueryOffsets, metric.Options{}); math.Abs(v-h.Train[len(h.Train)-1]) > 1e-9 {
				t.Errorf("%s, row sample %g: predicted training %s %v, history says %v", obj, rs, p.Metric, v, h.Train[len(h.Train)-1])
			}
			if rs < 1e-6 {
				for k, tr := range r.Ensemble.Trees {
					if len(tr.Nodes) != 0 {
						t.Errorf("%s, row sample %g: tree %d, fit on one document, has %d splits", obj, rs, k, len(tr.Nodes))
					}
				}
			}
		}
	}
}

// TestTrainReportStops checks that a report returning false stops training
// with context.Canceled and no result, whether at tree 0 (after the
// set-up) or later, with the context itself never cancelled.
func TestTrainReportStops(t *testing.T) {
	train := synth(t, 10, 14)
	for _, stopAt := range []float64{0, 2} {
		var seen []float64
		r, err := Train(context.Background(), train, nil, DefaultParams(Regression), func(done float64, _ func() Snapshot) bool {
			seen = append(seen, done)
			return done < stopAt
		})
		if !errors.Is(err, context.Canceled) || r != nil || seen[len(seen)-1] != stopAt || len(seen) != int(stopAt)+1 {
			t.Errorf("stop at %v: result %v, error %v after reports %v", stopAt, r != nil, err, seen)
		}
	}
}

// TestParamsValidateRanges checks the parameter ranges the other tests
// leave out, each refused with a message naming the parameter.
func TestParamsValidateRanges(t *testing.T) {
	for _, c := range []struct {
		mod  func(*Params)
		want string
	}{
		{func(p *Params) { p.ColSample = 0 }, "column sample must be in (0, 1] (got 0)"},
		{func(p *Params) { p.ColSample = math.NaN() }, "column sample must be in (0, 1] (got NaN)"},
		{func(p *Params) { p.EarlyStop = -1 }, "early stopping rounds must be >= 0 (got -1)"},
		{func(p *Params) { p.Objective, p.Truncation = LambdaRank, 0 }, "lambdarank truncation must be at least 1 (got 0)"},
	} {
		p := DefaultParams(Regression)
		c.mod(&p)
		if err := p.Validate(); err == nil || err.Error() != c.want {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
	// Truncation matters to lambdarank alone.
	p := DefaultParams(Regression)
	p.Truncation = 0
	if err := p.Validate(); err != nil {
		t.Errorf("regression with truncation 0: %v", err)
	}
}
