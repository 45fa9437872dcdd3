package cronus

import (
	"context"
	"runtime"
	"slices"
	"testing"
)

// Features no tree uses cost the optimiser nothing. A sparse data set
// whose highest feature index is 1,000,000 (a few lines name it) gives a
// cost vector of a million entries, and every evaluation of eq (8) and
// every stage problem allocated and scanned one float64 per feature: 8 MB
// a call, thousands of calls a cascade, which beside the data's dense
// matrices (they set the garbage collector's goal) filled gigabytes:
// `cronus cascade` on 1,000 documents with such an index passed 3 GB
// resident, the workbench 12 GB. Padding MQ2008's 46 costs with a million
// unused features must give the same cascade, bit for bit, allocating
// about what the 46 features do.
func TestUnusedFeaturesCostNothing(t *testing.T) {
	base := smallProblem(t)
	wide := *base
	wide.FeatCost = append(slices.Clone(base.FeatCost), make([]float64, 1_000_000)...)
	for f := len(base.FeatCost); f < len(wide.FeatCost); f++ {
		wide.FeatCost[f] = 1
	}
	noEval := func(context.Context, *Cascade) (Eval, Eval, error) { return Eval{}, Eval{}, nil }
	par := DefaultParams()
	par.K, par.Lambda = 4, 0.01
	run := func(pr *Problem) (*Outcome, uint64) {
		sc := ComputeScales(pr, 0)
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		out, err := Optimize(context.Background(), pr, sc, par, Options{MaxCycles: 1}, noEval, nil)
		runtime.ReadMemStats(&m1)
		if err != nil {
			t.Fatal(err)
		}
		return out, m1.TotalAlloc - m0.TotalAlloc
	}
	narrowOut, narrowBytes := run(base)
	wideOut, wideBytes := run(&wide)
	for k := range narrowOut.Final.Stages {
		n, w := narrowOut.Final.Stages[k], wideOut.Final.Stages[k]
		if !slices.Equal(n.Beta, w.Beta) || n.Theta != w.Theta {
			t.Fatalf("stage %d differs with a million unused features:\n%v θ %v\n%v θ %v", k, n.Beta, n.Theta, w.Beta, w.Theta)
		}
	}
	if narrowOut.Final.Terms != wideOut.Final.Terms {
		t.Errorf("eq (8): %+v with 46 features, %+v with a million more unused", narrowOut.Final.Terms, wideOut.Final.Terms)
	}
	// The unused features may cost a few passes over their costs (the
	// cost groups), not one per evaluation.
	if extra := int64(wideBytes) - int64(narrowBytes); extra > 64<<20 {
		t.Errorf("a million unused features allocated %d MB more (%d MB against %d MB)", extra>>20, wideBytes>>20, narrowBytes>>20)
	}
}
