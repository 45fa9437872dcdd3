package cronus

import (
	"context"
	"slices"
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
