package cronus

import (
	"context"
	"math"
	"slices"
	"sync"
	"testing"
)

// TestBaseGramKept: λ_max's stage problem and the first stage of an
// initialisation (p = 1) share one Gram product at the weights ω, equal bit
// for bit to Gram's, while a later stage (p < 1 somewhere) gets its own;
// a copy of the Problem with other outputs gets the product of its own.
func TestBaseGramKept(t *testing.T) {
	pr := smallProblem(t)
	g, r := Gram(nil, nil, pr.Train, pr.Omega, pr.Y, 1)
	ones := make([]float64, pr.Train.N)
	for i := range ones {
		ones[i] = 1
	}
	sp1, _ := pr.stage(nil, 1, 0, 0, nil, 2, nil)
	sp2, _ := pr.stage(ones, 1, 0, 0, nil, 2, nil)
	if !slices.Equal(sp1.G, g) || !slices.Equal(sp1.r, r) || !slices.Equal(sp2.G, g) || !slices.Equal(sp2.r, r) {
		t.Fatal("the stage problems at p = 1 differ from Gram at the weights ω")
	}
	if &sp1.G[0] != &sp2.G[0] {
		t.Error("the stage problem at p = 1 computed its Gram product again")
	}

	half := slices.Clone(ones)
	half[0] = 0.5
	w := slices.Clone(pr.Omega)
	w[0] *= 0.5
	gh, rh := Gram(nil, nil, pr.Train, w, pr.Y, 1)
	sp3, _ := pr.stage(half, 1, 0, 0, nil, 2, nil)
	if !slices.Equal(sp3.G, gh) || !slices.Equal(sp3.r, rh) {
		t.Error("the stage problem at p < 1 is not Gram at the weights ω·p")
	}

	cpr := *pr
	cpr.Train = NewOutputsMode(smallE, smallTr, OutputsCompact)
	cpr.Y = slices.Clone(pr.Y)
	cpr.Y[0] = -cpr.Y[0]
	gc, rc := Gram(nil, nil, cpr.Train, cpr.Omega, cpr.Y, 1)
	sp4, _ := cpr.stage(nil, 1, 0, 0, nil, 2, nil)
	if !slices.Equal(sp4.G, gc) || !slices.Equal(sp4.r, rc) {
		t.Error("a copy of the Problem with other targets got the original's Gram product")
	}
}

// BenchmarkChooseRho is what cascade and sweep do before optimising, on the
// built-in MQ2008 with 500 depth-2 trees (BenchmarkCancel's set-up): λ_max
// and the initialisations for the six ρ of the default --rhos, at one λ;
// "sweep" adds the single stage's six. Each run starts from a fresh copy of
// the problem, as a command does.
func BenchmarkChooseRho(b *testing.B) {
	fx, err := cancelBench()
	if err != nil {
		b.Fatal(err)
	}
	rhos := []float64{0.0002, 0.001, 0.005, 0.02, 0.05, 0.1}
	for _, name := range []string{"cascade", "sweep"} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				pr := *fx.pr
				pr.base = &baseGram{}
				sc := ComputeScales(&pr, 0)
				par := DefaultParams()
				par.Lambda = 0.0469
				ks := []int{10}
				if name == "sweep" {
					ks = append(ks, 1)
				}
				for _, k := range ks {
					par.K = k
					for _, rho := range rhos {
						par.Rho1, par.RhoK = rho, rho
						if _, err := Initialize(context.Background(), &pr, sc, par); err != nil {
							b.Fatal(err)
						}
					}
				}
			}
		})
	}
}

// TestGramBuffersReused: a stage product away from ω and the block buffer
// of every product are taken from the Problem's gramBuffers and given back
// after the stage: a second initialisation makes none anew, and its
// cascade is the same bit for bit as one on a Problem that keeps no
// buffers, even when the buffers held NaNs. Two initialisations at once on
// one Problem (the workbench chooses ρ while a run goes on) give what they
// give one after the other (and the race detector sees the sharing).
func TestGramBuffersReused(t *testing.T) {
	pr := *smallProblem(t)
	pr.base, pr.bufs = &baseGram{}, &gramBuffers{}
	sc := ComputeScales(&pr, 2)
	par := DefaultParams()
	par.Lambda, par.Workers = 0.05, 2
	init := func(pr *Problem, rho float64) *State {
		t.Helper()
		p := par
		p.Rho1, p.RhoK = rho, rho
		st, err := Initialize(context.Background(), pr, sc, p)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	same := func(what string, a, b *State) {
		t.Helper()
		if len(a.Stages) != len(b.Stages) {
			t.Fatalf("%s: %d stages against %d", what, len(a.Stages), len(b.Stages))
		}
		for k := range a.Stages {
			if !slices.Equal(a.Stages[k].Beta, b.Stages[k].Beta) || a.Stages[k].Theta != b.Stages[k].Theta {
				t.Errorf("%s: stage %d differs", what, k+1)
			}
		}
		if a.Terms != b.Terms {
			t.Errorf("%s: objective %+v against %+v", what, a.Terms, b.Terms)
		}
	}
	bare := pr
	bare.bufs = nil
	want := [2]*State{init(&bare, 0.02), init(&bare, 0.005)}

	same("first", init(&pr, 0.02), want[0])
	prod, block := pr.bufs.product, pr.bufs.block
	n := pr.Train.NumTrees() + 1
	if len(prod) != n*n+n || block == nil {
		t.Fatalf("kept a product buffer of %d entries (want %d) and a block buffer of %d", len(prod), n*n+n, len(block))
	}
	for _, s := range [][]float64{prod, block[:cap(block)]} {
		for i := range s {
			s[i] = math.NaN()
		}
	}
	same("second", init(&pr, 0.005), want[1])
	if &pr.bufs.product[0] != &prod[0] || &pr.bufs.block[0] != &block[0] {
		t.Error("the second initialisation made its buffers anew")
	}

	var got [2]*State
	var wg sync.WaitGroup
	for i, rho := range []float64{0.02, 0.005} {
		wg.Go(func() {
			p := par
			p.Rho1, p.RhoK = rho, rho
			got[i], _ = Initialize(context.Background(), &pr, sc, p)
		})
	}
	wg.Wait()
	for i := range got {
		if got[i] == nil {
			t.Fatalf("initialisation %d failed", i)
		}
		same("at once", got[i], want[i])
	}
}
