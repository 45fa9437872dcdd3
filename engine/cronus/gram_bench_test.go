package cronus

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// gramBenchOutputs returns n documents × T trees of random tree outputs, with
// weights and ±1 targets, from a fixed seed.
func gramBenchOutputs(n, T int) (*Outputs, []float64, []float64) {
	rng := rand.New(rand.NewPCG(2012, 14))
	o := &Outputs{N: n, H: make([][]float32, T)}
	block := make([]float32, n*T)
	for t := range o.H {
		col := block[t*n : (t+1)*n : (t+1)*n]
		for i := range col {
			col[i] = float32(rng.NormFloat64())
		}
		o.H[t] = col
	}
	w := make([]float64, n)
	y := make([]float64, n)
	for i := range w {
		y[i], w[i] = -1, 1
		if rng.IntN(4) == 0 {
			y[i], w[i] = 1, 3.5
		}
	}
	return o, w, y
}

// BenchmarkGram reports GFLOP/s counting the triangle of G as N·(T+1)²
// flops (a multiply and an add for each of the (T+1)²/2 products).
func BenchmarkGram(b *testing.B) {
	const n, T = 200_000, 1000
	o, w, y := gramBenchOutputs(n, T)
	g := make([]float64, (T+1)*(T+1))
	r := make([]float64, T+1)
	for _, workers := range []int{1} {
		b.Run(fmt.Sprintf("N=%d/T=%d/workers=%d", n, T, workers), func(b *testing.B) {
			for b.Loop() {
				Gram(g, r, o, w, y, workers)
			}
			flops := float64(n) * float64(T+1) * float64(T+1)
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

func BenchmarkGramShape(b *testing.B) {
	for _, sh := range [][2]int{{30000, 1000}} {
		n, T := sh[0], sh[1]
		o, w, y := gramBenchOutputs(n, T)
		for _, workers := range []int{1} {
			b.Run(fmt.Sprintf("N=%d/T=%d/w=%d", n, T, workers), func(b *testing.B) {
				for b.Loop() {
					Gram(nil, nil, o, w, y, workers)
				}
				b.ReportMetric(float64(n)*float64(T+1)*float64(T+1)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
