package boost

import (
	"math"
	"testing"

	"github.com/cronus-ltr/cronus/engine/tree"
)

// FuzzLambdaPairs: on any query, the assembly pair loop gives the Go
// loop's sums bit for bit. Each document takes 2 bytes: its label (the
// byte mod grades) and its score (a signed byte over 4, so ties are
// common; 0x80 stands for a negative zero); σ, the truncation level and
// norm come from their own arguments.
func FuzzLambdaPairs(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 1, 5, 0, 0, 4, 0x80, 2, 9, 3, 3, 0, 1}, uint8(5), uint8(30), uint8(10), true)
	f.Add(make([]byte, 80), uint8(2), uint8(3), uint8(4), false)
	f.Add([]byte("a query of forty-odd documents whose labels and scores are letters"), uint8(200), uint8(255), uint8(30), true)
	f.Fuzz(func(t *testing.T, raw []byte, grades, trunc, sigma uint8, norm bool) {
		if !haveLambdaAsm {
			t.Skip("no assembly pair loop on this machine")
		}
		n := len(raw) / 2
		if n < 2 {
			return
		}
		labels := make([]float32, n)
		scores := make([]float64, n)
		for i := range n {
			labels[i] = float32(int(raw[2*i]) % (2 + int(grades)))
			scores[i] = float64(int8(raw[2*i+1])) / 4
			if raw[2*i+1] == 0x80 {
				scores[i] = math.Copysign(0, -1)
			}
		}
		o := &lambdaRank{truncation: 1 + int(trunc), sigma: 0.1 + float64(sigma)/16, norm: norm, workers: 1}
		o.update(labels, []int{0, n}, o.truncation)
		if o.invIDCG[0] == 0 {
			return
		}
		defer func() { haveLambdaAsm = true }()
		run := func(asm bool) ([]float64, []float64, []tree.GradPair) {
			haveLambdaAsm = asm
			var sc lambdaScratch
			gh := make([]tree.GradPair, n)
			o.query(gh, scores, labels, o.gains, append([]int32(nil), o.ranks...), o.invIDCG[0], &sc)
			return sc.lam, sc.hes, gh
		}
		lamA, hesA, ghA := run(true)
		lamG, hesG, ghG := run(false)
		for k := range n {
			if math.Float64bits(lamA[k]) != math.Float64bits(lamG[k]) || math.Float64bits(hesA[k]) != math.Float64bits(hesG[k]) ||
				math.Float32bits(ghA[k].G) != math.Float32bits(ghG[k].G) || math.Float32bits(ghA[k].H) != math.Float32bits(ghG[k].H) {
				t.Fatalf("rank %d: asm (%v, %v), Go (%v, %v)", k, lamA[k], hesA[k], lamG[k], hesG[k])
			}
		}
	})
}
