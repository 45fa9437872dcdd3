package cronus

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"
)

// gramBenchData is the benchmark's input, built once per process: 200,000
// documents × 1,000 trees of standard normal outputs (800 MB of float32), 1 in
// 4 documents relevant (y = +1, w = 3.5), the others y = −1, w = 1.
var gramBenchData = sync.OnceValues(func() (*Outputs, [2][]float64) {
	const n, T = 200_000, 1000
	rng := rand.New(rand.NewPCG(2012, 14))
	h := make([][]float32, T)
	block := make([]float32, n*T)
	for t := range h {
		col := block[t*n : (t+1)*n : (t+1)*n]
		for i := range col {
			col[i] = float32(rng.NormFloat64())
		}
		h[t] = col
	}
	o := OutputsFromColumns(n, h)
	w := make([]float64, n)
	y := make([]float64, n)
	for i := range w {
		y[i], w[i] = -1, 1
		if rng.IntN(4) == 0 {
			y[i], w[i] = 1, 3.5
		}
	}
	return o, [2][]float64{w, y}
})

// gramBenchCompact is compact outputs of the benchmark's size, built once
// per process: every tree has 32 leaves of standard normal values, and each
// document falls in a uniformly random one (200 MB of codes).
var gramBenchCompact = sync.OnceValue(func() *Outputs {
	o, _ := gramBenchData()
	n, T := o.N, o.NumTrees()
	rng := rand.New(rand.NewPCG(2012, 16))
	c := &Outputs{N: n, dense: make([][]float32, T), code: make([][]uint8, T), vals: make([][256]float32, T)}
	block := make([]uint8, n*T)
	for t := range T {
		for l := range 32 {
			c.vals[t][l] = float32(rng.NormFloat64())
		}
		code := block[t*n : (t+1)*n : (t+1)*n]
		for i := range code {
			code[i] = uint8(rng.IntN(32))
		}
		c.code[t] = code
	}
	return c
})

// BenchmarkGram reports GFLOP/s counting N·(T+1)² flops: a multiply and an
// add for each of the (T+1)²/2 entries of the triangle, as for BLAS dsyrk.
// The time includes the conversion of H to float64 and r. The mode=compact
// runs read compact outputs (gramBenchCompact) of the same size; the dense
// ones keep their names, which bench/gram.sh selects.
func BenchmarkGram(b *testing.B) {
	o, wy := gramBenchData()
	n, T := o.N, o.NumTrees()
	g := make([]float64, (T+1)*(T+1))
	r := make([]float64, T+1)
	run := func(name string, o func() *Outputs, workers int) {
		b.Run(name, func(b *testing.B) {
			o := o()
			for b.Loop() {
				Gram(g, r, o, wy[0], wy[1], workers)
			}
			flops := float64(n) * float64(T+1) * float64(T+1)
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
	for _, workers := range slices.Compact([]int{1, runtime.GOMAXPROCS(0)}) {
		run(fmt.Sprintf("N=%d/T=%d/workers=%d", n, T, workers), func() *Outputs { return o }, workers)
		run(fmt.Sprintf("N=%d/T=%d/mode=compact/workers=%d", n, T, workers), gramBenchCompact, workers)
	}
}

// BenchmarkGramDot4x3 is the AVX2/FMA kernel alone on one sub-block in L1,
// and gramDot4x3Go (math.FMA), its stand-in where the CPU has FMA without
// AVX2: GFLOP/s counts a multiply and an add per document per product.
func BenchmarkGramDot4x3(b *testing.B) {
	x := make([]float64, 7*gramSub)
	for i := range x {
		x[i] = float64(i%7) - 3
	}
	p := func(c int) *float64 { return &x[c*gramSub] }
	a := [4]*float64{p(0), p(1), p(2), p(3)}
	c := [3]*float64{p(4), p(5), p(6)}
	var out [12]float64
	for _, k := range []struct {
		name string
		dot  func(*[4]*float64, *[3]*float64, int, *[12]float64)
	}{{"asm", gramDot4x3}, {"go", gramDot4x3Go}} {
		b.Run(k.name, func(b *testing.B) {
			if k.name == "asm" && !gramHaveFMA {
				b.Skip("the CPU lacks AVX2 or FMA")
			}
			for b.Loop() {
				k.dot(&a, &c, gramSub, &out)
			}
			b.ReportMetric(2*12*gramSub*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// BenchmarkGramDot8x3 is the AVX-512 kernel alone on one sub-block in L1
// (24 products per call, against BenchmarkGramDot4x3's 12).
func BenchmarkGramDot8x3(b *testing.B) {
	if !gramHaveAVX512 {
		b.Skip("the CPU lacks AVX-512")
	}
	x := make([]float64, 11*gramSub)
	for i := range x {
		x[i] = float64(i%7) - 3
	}
	p := func(c int) *float64 { return &x[c*gramSub] }
	a := [8]*float64{p(0), p(1), p(2), p(3), p(4), p(5), p(6), p(7)}
	c := [3]*float64{p(8), p(9), p(10)}
	var out [24]float64
	for b.Loop() {
		gramDot8x3(&a, &c, gramSub, &out)
	}
	b.ReportMetric(2*24*gramSub*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}
