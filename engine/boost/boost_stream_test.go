package boost

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/metric"
)

// TestTrainStream checks every snapshot of whole training runs: the tree
// count goes up one tree at a time, the fraction done rises to 1, the
// metrics reported at each tree count are those of the final ensemble's
// first trees scored afresh (tree.Ensemble.Predict, metric.Mean), and the
// best validation iteration is the first argmax of the reported
// validation metrics.
func TestTrainStream(t *testing.T) {
	ctx := context.Background()
	mqTrain, err := data.LoadDataset(ctx, "builtin:mq2008/train", data.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mqValid, err := data.LoadDataset(ctx, "builtin:mq2008/vali", data.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	type set struct {
		name         string
		train, valid *data.Dataset
	}
	sets := []set{{"synth", synth(t, 40, 11), synth(t, 20, 12)}, {"mq2008", mqTrain, mqValid}}
	for _, s := range sets {
		for _, obj := range []string{Regression, LambdaRank} {
			for _, sample := range []float64{1, 0.7} {
				p := DefaultParams(obj)
				p.Trees, p.Grow.MaxLeaves, p.Grow.MinDocs, p.RowSample = 12, 6, 5, sample
				t.Run(fmt.Sprintf("%s/%s/rows=%g", s.name, obj, sample), func(t *testing.T) {
					testTrainStream(t, s.train, s.valid, p)
				})
			}
		}
		p := DefaultParams(LambdaRank)
		p.Trees, p.Grow.MaxLeaves, p.Grow.MinDocs = 6, 6, 5
		r, err := Train(ctx, s.train, nil, p, nil)
		if err != nil {
			t.Fatal(err)
		}
		p.Init, p.Trees = r.Ensemble, 8
		t.Run(s.name+"/init", func(t *testing.T) { testTrainStream(t, s.train, s.valid, p) })
	}
}

func testTrainStream(t *testing.T, train, valid *data.Dataset, p Params) {
	init0 := 0
	if p.Init != nil {
		init0 = len(p.Init.Trees)
	}
	var snaps []Snapshot
	var dones []float64
	res, err := Train(context.Background(), train, valid, p, func(done float64, snap func() Snapshot) bool {
		snaps = append(snaps, snap())
		dones = append(dones, done)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(snaps) != p.Trees+1 {
		t.Fatalf("%d snapshots for %d trees", len(snaps), p.Trees)
	}
	e := res.Ensemble
	if len(e.Trees) != init0+p.Trees {
		t.Fatalf("%d trees, want %d", len(e.Trees), init0+p.Trees)
	}
	mean := func(d *data.Dataset, k int) float64 {
		return metric.Mean(p.Metric, e.Predict(nil, d.Cols, d.NumDocs(), k), d.Labels, d.QueryOffsets, metric.Options{})
	}
	trainAt, validAt := map[int]float64{}, map[int]float64{}
	for i, s := range append(snaps, res.History) {
		what := fmt.Sprintf("snapshot %d (%d trees)", i, s.Trees)
		final := i == len(snaps)
		if !final {
			frac := dones[i] / float64(p.Trees)
			if !(frac >= 0 && frac <= 1) || i > 0 && dones[i] <= dones[i-1] || i == len(snaps)-1 && frac != 1 {
				t.Errorf("%s: done %v of %d", what, dones[i], p.Trees)
			}
			if s.Trees != init0+i {
				t.Errorf("%s: %d trees, want %d", what, s.Trees, init0+i)
			}
		} else if s.Trees != init0+p.Trees {
			t.Errorf("history: %d trees", s.Trees)
		}
		if s.Total != init0+p.Trees || s.Metric != p.Metric.String() {
			t.Errorf("%s: total %d, metric %q", what, s.Total, s.Metric)
		}
		if len(s.Train) != len(s.At) || len(s.Valid) != len(s.At) {
			t.Fatalf("%s: %d tree counts, %d train and %d valid values", what, len(s.At), len(s.Train), len(s.Valid))
		}
		bestV, bestAt := math.Inf(-1), 0
		for j, k := range s.At {
			if j > 0 && k <= s.At[j-1] || k > s.Trees || k < init0 {
				t.Errorf("%s: tree counts %v", what, s.At)
			}
			for _, m := range []struct {
				name   string
				got    float64
				d      *data.Dataset
				cached map[int]float64
			}{{"train", s.Train[j], train, trainAt}, {"valid", s.Valid[j], valid, validAt}} {
				want, ok := m.cached[k]
				if !ok {
					want = mean(m.d, k)
					m.cached[k] = want
				}
				if math.Abs(m.got-want) > 1e-12 {
					t.Errorf("%s: %s %s at %d trees %v; the first %d trees score %v", what, m.name, s.Metric, k, m.got, k, want)
				}
			}
			if s.Valid[j] > bestV { // the first of equals
				bestV, bestAt = s.Valid[j], k
			}
		}
		if len(s.At) > 0 && (s.BestValid != bestV || s.BestTrees != bestAt) {
			t.Errorf("%s: best %v at %d trees; the reported values peak first at %d with %v", what, s.BestValid, s.BestTrees, bestAt, bestV)
		}
	}
	if want := init0 + p.Trees; res.History.At[len(res.History.At)-1] != want {
		t.Errorf("the history ends at %d trees, want %d", res.History.At[len(res.History.At)-1], want)
	}
}
