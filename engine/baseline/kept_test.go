package baseline

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/metric"
)

// KeptPrefixCounts on threeStumps' data (NDCG@10 by tree count 0.77, 1,
// 0.80: TestPrefixHandWorked) keeps 1 (the first) and 2 (the best), and 3
// only when it is a step or better than 1 and 2 on another split. On the
// same documents with labels d0 1, d2 2 (the rest 0) the rankings by tree
// count, d1 d2 d0 d3, d0 d1 d2 d3 and d0 d2 d1 d3, have DCG 3/log2(3) +
// 1/2 = 2.39, 1 + 3/2 = 2.5 and 1 + 3/log2(3) = 2.89: every count rises.
func TestKeptPrefixCounts(t *testing.T) {
	e, d := threeStumps(t)
	d2 := handData(t, d.Cols, []float32{1, 0, 2, 0}, 4)
	key := mustSpecs(t, "ndcg@10")[0]
	ctx := context.Background()
	cost := []float64{1, 10}
	for _, c := range []struct {
		name  string
		ds    []*data.Dataset
		steps []int
		want  []int
	}{
		{"one split", []*data.Dataset{d}, nil, []int{1, 2}},
		{"one split, step 3", []*data.Dataset{d}, []int{3}, []int{1, 2, 3}},
		{"a nil split is skipped", []*data.Dataset{nil, d}, nil, []int{1, 2}},
		{"two splits", []*data.Dataset{d, d2}, nil, []int{1, 2, 3}},
	} {
		got, err := KeptPrefixCounts(ctx, e, c.ds, cost, 1, c.steps, key, metric.Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: kept %v, want %v", c.name, got, c.want)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := KeptPrefixCounts(cctx, e, []*data.Dataset{d}, cost, 1, nil, key, metric.Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err %v, want context.Canceled", err)
	}
}
