package boost

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cronus-ltr/cronus/engine/tree"
)

// The assembly pair loop gives the Go loop's sums bit for bit: each
// document's λ and hessian sums (float64, before the query's scaling) and
// the gradient pairs, on random queries of every length around the blocks
// of 4, with labels from 2 to 1,101 grades (many ties), tied scores, σ of
// 0.5 to 3, truncation levels from 1 to past the length, and norm on and
// off.
func TestLambdaAsmMatchesGo(t *testing.T) {
	if !haveLambdaAsm {
		t.Skip("no assembly pair loop on this machine")
	}
	defer func() { haveLambdaAsm = true }()
	r := rand.New(rand.NewPCG(9, 9))
	cases := 0
	for n := 2; n <= 70; n++ {
		for rep := range 6 {
			grades := []int{2, 3, 5, 1101}[rep%4]
			labels := make([]float32, n)
			scores := make([]float64, n)
			for i := range n {
				labels[i] = float32(r.IntN(grades))
				scores[i] = math.Round(r.NormFloat64()*4) / 4 // ties
				if rep%3 == 0 {
					scores[i] = r.NormFloat64() * 10
				}
			}
			o := &lambdaRank{truncation: []int{1, 3, 10, 30, 1000}[r.IntN(5)], sigma: []float64{0.5, 1, 1.7, 3}[r.IntN(4)],
				norm: rep%2 == 0, workers: 1}
			offsets := []int{0, n}
			o.update(labels, offsets, o.truncation)
			run := func(asm bool) ([]float64, []float64, []tree.GradPair) {
				haveLambdaAsm = asm
				var sc lambdaScratch
				gh := make([]tree.GradPair, n)
				ranks := append([]int32(nil), o.ranks...)
				o.query(gh, scores, labels, o.gains, ranks, o.invIDCG[0], &sc)
				return sc.lam, sc.hes, gh
			}
			lamA, hesA, ghA := run(true)
			lamG, hesG, ghG := run(false)
			if o.invIDCG[0] == 0 {
				continue
			}
			cases++
			for k := range n {
				if math.Float64bits(lamA[k]) != math.Float64bits(lamG[k]) || math.Float64bits(hesA[k]) != math.Float64bits(hesG[k]) {
					t.Fatalf("n=%d rep=%d σ=%g trunc=%d norm=%v: rank %d: asm (%v, %v), Go (%v, %v)",
						n, rep, o.sigma, o.truncation, o.norm, k, lamA[k], hesA[k], lamG[k], hesG[k])
				}
				if math.Float32bits(ghA[k].G) != math.Float32bits(ghG[k].G) || math.Float32bits(ghA[k].H) != math.Float32bits(ghG[k].H) {
					t.Fatalf("n=%d rep=%d: doc %d: gradient pair %+v, Go %+v", n, rep, k, ghA[k], ghG[k])
				}
			}
		}
	}
	if cases < 300 {
		t.Errorf("only %d queries with relevant documents compared", cases)
	}
}
