package cronus

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// gramNaive is the triple loop: G and r over the columns cols (T is the
// intercept), and the scale Σ_i |w_i x_a(i) x_b(i)| of every entry (the
// bound that rounding errors of a dot product are relative to; the last
// column of the scale is r's).
func gramNaive(o *Outputs, w, y []float64, cols []int) (g, r, scale []float64) {
	k := len(cols)
	x := make([][]float64, k+1) // the columns, and y last
	for a, c := range cols {
		x[a] = make([]float64, o.N)
		var h []float32
		if c < o.NumTrees() {
			h = o.Col(c, nil)
		}
		for i := range x[a] {
			x[a][i] = 1
			if h != nil {
				x[a][i] = float64(h[i])
			}
		}
	}
	x[k] = y
	g = make([]float64, k*k)
	r = make([]float64, k)
	scale = make([]float64, k*(k+1))
	for a := range k {
		for b := a; b <= k; b++ {
			var sum, abs float64
			for i, xa := range x[a] {
				v := w[i] * xa * x[b][i]
				sum += v
				abs += math.Abs(v)
			}
			scale[a*(k+1)+b] = abs
			if b == k {
				r[a] = sum
				continue
			}
			g[a*k+b], g[b*k+a] = sum, sum
			scale[b*(k+1)+a] = abs
		}
	}
	return g, r, scale
}

// gramRandom returns n documents × T trees of outputs with columns of
// different scales, weights (a fraction zero) and ±1 targets.
func gramRandom(seed uint64, n, T int, zeros float64) (*Outputs, []float64, []float64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	h := make([][]float32, T)
	for t := range h {
		h[t] = make([]float32, n)
		s := math.Exp(rng.NormFloat64())
		for i := range h[t] {
			h[t][i] = float32(s * rng.NormFloat64())
		}
	}
	o := OutputsFromColumns(n, h)
	w := make([]float64, n)
	y := make([]float64, n)
	for i := range w {
		y[i], w[i] = -1, rng.Float64()
		if rng.IntN(3) == 0 {
			y[i], w[i] = 1, 3.5*rng.Float64()
		}
		if rng.Float64() < zeros {
			w[i] = 0
		}
	}
	return o, w, y
}

// checkGram compares G and r with the triple loop, to 1e-9 of each entry's
// scale, and checks that G is exactly symmetric.
func checkGram(t *testing.T, o *Outputs, w, y []float64, cols []int, g, r []float64) {
	t.Helper()
	want, wantR, scale := gramNaive(o, w, y, cols)
	checkGramNear(t, want, wantR, scale, g, r, 1e-9)
}

// checkGramNear compares G and r with want and wantR, to tol times each
// entry's scale (as gramNaive returns them), and checks that G is exactly
// symmetric.
func checkGramNear(t *testing.T, want, wantR, scale, g, r []float64, tol float64) {
	t.Helper()
	k := len(wantR)
	if len(g) != k*k || len(r) != k {
		t.Fatalf("len(g), len(r) = %d, %d, want %d, %d", len(g), len(r), k*k, k)
	}
	bad := 0
	for a := range k {
		for b := range k + 1 {
			got, exp := r[a], wantR[a]
			if b < k {
				got, exp = g[a*k+b], want[a*k+b]
			}
			if math.Abs(got-exp) > tol*scale[a*(k+1)+b] && bad < 5 {
				t.Errorf("entry (%d, %d) = %.17g, want %.17g (scale %g)", a, b, got, exp, scale[a*(k+1)+b])
				bad++
			}
			if b < k && g[a*k+b] != g[b*k+a] {
				t.Fatalf("g[%d][%d] = %.17g but g[%d][%d] = %.17g", a, b, g[a*k+b], b, a, g[b*k+a])
			}
		}
	}
}

// gramKernels runs f as a subtest once per kernel of Gram: "avx512"
// (gramDot8x3 with gramDot4x3, skipped unless the CPU has AVX-512),
// "fma" (gramDot4x3 alone, skipped unless the CPU has AVX2 and FMA),
// "lanes" (gramDot4x3Go, math.FMA, in software where the CPU lacks FMA)
// and "dgemv" (gonum's), setting gramFMA, gramAsm and gramWide.
func gramKernels(t *testing.T, f func(t *testing.T)) {
	defer func(fma, asm, wide bool) { gramFMA, gramAsm, gramWide = fma, asm, wide }(gramFMA, gramAsm, gramWide)
	for _, k := range []struct {
		name           string
		fma, asm, wide bool
	}{{"avx512", true, true, true}, {"fma", true, true, false}, {"lanes", true, false, false}, {"dgemv", false, false, false}} {
		t.Run(k.name, func(t *testing.T) {
			if k.asm && !gramHaveFMA {
				t.Skip("the CPU lacks AVX2 or FMA")
			}
			if k.wide && !gramHaveAVX512 {
				t.Skip("the CPU lacks AVX-512")
			}
			gramFMA, gramAsm, gramWide = k.fma, k.asm, k.wide
			f(t)
		})
	}
}

func TestGramHandWorked(t *testing.T) {
	gramKernels(t, func(t *testing.T) {
		// Three documents, two trees and the intercept (weights with exact
		// square roots, so that every product is exact):
		//   H = [[1, 2], [3, -1], [0.5, 4]], w = (1, 4, 0.25), y = (1, -1, 1)
		// G[0][0] = 1 + 4·9 + 0.25·0.25 = 37.0625, G[0][1] = 2 − 12 + 0.5 = −9.5,
		// G[1][1] = 4 + 4 + 4 = 12, G[0][2] = 1 + 12 + 0.125 = 13.125,
		// G[1][2] = 2 − 4 + 1 = −1, G[2][2] = 5.25,
		// r = (1 − 12 + 0.125, 2 + 4 + 1, 1 − 4 + 0.25) = (−10.875, 7, −2.75).
		o := OutputsFromColumns(3, [][]float32{{1, 3, 0.5}, {2, -1, 4}})
		w := []float64{1, 4, 0.25}
		y := []float64{1, -1, 1}
		g, r := Gram(nil, nil, o, w, y, 2)
		wantG := []float64{
			37.0625, -9.5, 13.125,
			-9.5, 12, -1,
			13.125, -1, 5.25,
		}
		wantR := []float64{-10.875, 7, -2.75}
		for i := range wantG {
			if g[i] != wantG[i] {
				t.Errorf("G[%d][%d] = %g, want %g", i/3, i%3, g[i], wantG[i])
			}
		}
		for i := range wantR {
			if r[i] != wantR[i] {
				t.Errorf("r[%d] = %g, want %g", i, r[i], wantR[i])
			}
		}
	})
}

func TestGramMatchesNaive(t *testing.T) {
	gramKernels(t, func(t *testing.T) {
		for _, tc := range []struct {
			name  string
			n, T  int
			zeros float64 // fraction of zero weights
		}{
			{"one tree", 50, 1, 0},
			{"one document", 1, 5, 0},
			{"small", 37, 6, 0},
			{"zero weights", 300, 9, 0.4},
			{"all weights zero", 40, 3, 1},
			{"partial sub-block", gramSub + 3, 12, 0.1},
			{"several blocks, ragged", 2*gramDocs + gramSub + 77, 21, 0.1},
			{"several tiles", 700, gramTileCols + gramTileRows + 5, 0.1},
		} {
			t.Run(tc.name, func(t *testing.T) {
				o, w, y := gramRandom(uint64(tc.n*1000+tc.T), tc.n, tc.T, tc.zeros)
				g, r := Gram(nil, nil, o, w, y, 2)
				cols := make([]int, tc.T+1)
				for c := range cols {
					cols[c] = c
				}
				checkGram(t, o, w, y, cols, g, r)
			})
		}
	})
}

func TestGramNoDocuments(t *testing.T) {
	o := OutputsFromColumns(0, [][]float32{{}, {}, {}})
	g, r := Gram(nil, nil, o, nil, nil, 2)
	if len(g) != 16 || len(r) != 4 {
		t.Fatalf("len(g), len(r) = %d, %d, want 16, 4", len(g), len(r))
	}
	for i, v := range append(g, r...) {
		if v != 0 {
			t.Fatalf("entry %d = %g, want 0", i, v)
		}
	}
}

func TestGramWorkersBitForBit(t *testing.T) {
	gramKernels(t, func(t *testing.T) {
		// Two blocks (the second one ragged) and tiles in both directions.
		n, T := gramDocs+gramSub+301, gramTileCols+gramTileRows+9
		o, w, y := gramRandom(3, n, T, 0.1)
		g1, r1 := Gram(nil, nil, o, w, y, 1)
		for _, workers := range []int{2, 3, 0} {
			// Reused outputs, full of garbage, must be overwritten.
			g := make([]float64, len(g1))
			r := make([]float64, len(r1))
			for i := range g {
				g[i] = math.NaN()
			}
			g, r = Gram(g, r, o, w, y, workers)
			for i := range g1 {
				if math.Float64bits(g[i]) != math.Float64bits(g1[i]) {
					t.Fatalf("workers=%d: G[%d][%d] = %.17g, with 1 worker %.17g", workers, i/(T+1), i%(T+1), g[i], g1[i])
				}
			}
			for i := range r1 {
				if math.Float64bits(r[i]) != math.Float64bits(r1[i]) {
					t.Fatalf("workers=%d: r[%d] = %.17g, with 1 worker %.17g", workers, i, r[i], r1[i])
				}
			}
		}
		cols := make([]int, T+1)
		for c := range cols {
			cols[c] = c
		}
		checkGram(t, o, w, y, cols, g1, r1)
	})
}

func TestGramSubset(t *testing.T) {
	gramKernels(t, func(t *testing.T) {
		o, w, y := gramRandom(5, 1500, 40, 0.2)
		T := o.NumTrees()
		for _, cols := range [][]int{
			{0},
			{T},
			{3, T},
			{0, 1, 2, 17, 39},
			{1, 5, 9, 10, 11, 12, 13, 14, 20, 21, 22, 23, 24, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, T},
			{},
		} {
			t.Run(fmt.Sprint(cols), func(t *testing.T) {
				g, r := GramSubset(nil, nil, o, w, y, cols, 3)
				checkGram(t, o, w, y, cols, g, r)
				g1, r1 := GramSubset(nil, nil, o, w, y, cols, 1)
				for i := range g {
					if math.Float64bits(g[i]) != math.Float64bits(g1[i]) {
						t.Fatalf("G[%d] = %.17g with 3 workers, %.17g with 1", i, g[i], g1[i])
					}
				}
				for i := range r {
					if math.Float64bits(r[i]) != math.Float64bits(r1[i]) {
						t.Fatalf("r[%d] = %.17g with 3 workers, %.17g with 1", i, r[i], r1[i])
					}
				}
			})
		}
	})
}

// gramDot4x3Ref is gramDot4x3 in Go, operation for operation (math.FMA is
// the fused multiply-add of VFMADD231PD): the lanes, then (l0+l1)+(l2+l3).
func gramDot4x3Ref(a, b [][]float64, n int) (out [12]float64) {
	for j := range 3 {
		for i := range 4 {
			var lane [4]float64
			for q := range n {
				lane[q%4] = math.FMA(a[i][q], b[j][q], lane[q%4])
			}
			out[4*j+i] = (lane[0] + lane[1]) + (lane[2] + lane[3])
		}
	}
	return out
}

// gramTestColumns are seven columns of n documents, of different scales.
func gramTestColumns(rng *rand.Rand, n int) [][]float64 {
	cols := make([][]float64, 7)
	for c := range cols {
		cols[c] = make([]float64, n)
		s := math.Exp(2 * rng.NormFloat64())
		for q := range cols[c] {
			cols[c][q] = s * rng.NormFloat64()
		}
	}
	return cols
}

func TestGramDot4x3(t *testing.T) {
	if !gramHaveFMA {
		t.Skip("the CPU lacks AVX2 or FMA")
	}
	rng := rand.New(rand.NewPCG(4, 3))
	for _, n := range []int{0, 4, 8, 12, 36, 516, 2052} {
		// Seven columns of different scales, then a repeated one (as
		// gramTileFMA passes at the ends of a tile).
		cols := gramTestColumns(rng, n)
		for _, pick := range [][7]int{{0, 1, 2, 3, 4, 5, 6}, {0, 1, 1, 1, 4, 5, 5}, {6, 5, 4, 3, 2, 1, 0}} {
			a := [][]float64{cols[pick[0]], cols[pick[1]], cols[pick[2]], cols[pick[3]]}
			b := [][]float64{cols[pick[4]], cols[pick[5]], cols[pick[6]]}
			var out [12]float64
			for i := range out {
				out[i] = math.NaN() // overwritten, not added to
			}
			p := func(c []float64) *float64 {
				if n == 0 {
					return nil
				}
				return &c[0]
			}
			gramDot4x3(&[4]*float64{p(a[0]), p(a[1]), p(a[2]), p(a[3])}, &[3]*float64{p(b[0]), p(b[1]), p(b[2])}, n, &out)
			ref := gramDot4x3Ref(a, b, n)
			for j := range 3 {
				for i := range 4 {
					// The plain loop, and the scale of its rounding errors.
					var sum, abs float64
					for q := range n {
						sum += a[i][q] * b[j][q]
						abs += math.Abs(a[i][q] * b[j][q])
					}
					got := out[4*j+i]
					if math.Abs(got-sum) > 1e-12*abs {
						t.Errorf("n=%d %v: a%d·b%d = %.17g, plain loop %.17g (scale %g)", n, pick, i, j, got, sum, abs)
					}
					if math.Float64bits(got) != math.Float64bits(ref[4*j+i]) {
						t.Errorf("n=%d %v: a%d·b%d = %.17g, %.17g in Go (gramDot4x3Ref)", n, pick, i, j, got, ref[4*j+i])
					}
				}
			}
		}
	}
}

// gramDot4x3Go gives gramDot4x3's sums bit for bit (gramDot4x3Ref), on
// every CPU.
func TestGramDot4x3Go(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 3))
	for _, n := range []int{0, 4, 8, 36, 516} {
		cols := gramTestColumns(rng, n)
		p := func(c []float64) *float64 {
			if n == 0 {
				return nil
			}
			return &c[0]
		}
		a, b := cols[:4], cols[4:]
		out := [12]float64{math.NaN(), math.NaN()}
		gramDot4x3Go(&[4]*float64{p(a[0]), p(a[1]), p(a[2]), p(a[3])}, &[3]*float64{p(b[0]), p(b[1]), p(b[2])}, n, &out)
		ref := gramDot4x3Ref(a, b, n)
		for k := range out {
			if math.Float64bits(out[k]) != math.Float64bits(ref[k]) {
				t.Errorf("n=%d, product %d: %.17g, %.17g by gramDot4x3Ref", n, k, out[k], ref[k])
			}
		}
	}
}

// Gram on the Go lanes is Gram on the assembly kernel bit for bit: a
// cascade does not change with AVX2 (GODEBUG=cpu.avx2=off, or a CPU with
// FMA and no AVX2). With Dgemv in its place, other trees survived.
func TestGramLanesMatchAsm(t *testing.T) {
	if !gramHaveFMA {
		t.Skip("the CPU lacks AVX2 or FMA")
	}
	defer func(fma, asm, wide bool) { gramFMA, gramAsm, gramWide = fma, asm, wide }(gramFMA, gramAsm, gramWide)
	n, T := 2*gramDocs+gramSub+3, gramTileCols+gramTileRows+7
	o, w, y := gramRandom(12, n, T, 0.1)
	// Subsets of 16 columns (two groups of 8 a's), of 13 (8, then 4 and 1
	// a's by the AVX2 kernel within the same tile) and of 6 (a tile
	// narrower than 8): with AVX-512 the Gram's tiles all have multiples of
	// 8 columns a.
	subs := [][]int{
		{0, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 20, T / 2, T - 1, T},
		{1, 2, 4, 9, 16, 17, 30, 31, 32, 33, 40, T - 2, T},
		{2, 3, 50, 51, T - 1, T},
	}
	gramFMA, gramAsm = true, false
	g1, r1 := Gram(nil, nil, o, w, y, 2)
	var s1, sr1 [][]float64
	for _, sub := range subs {
		s, sr := GramSubset(nil, nil, o, w, y, sub, 2)
		s1, sr1 = append(s1, s), append(sr1, sr)
	}
	// The AVX2 kernel alone, and with AVX-512's 8 columns at a time
	// where the CPU has it (a cascade does not change with AVX-512).
	for _, wide := range []bool{false, true} {
		if wide && !gramHaveAVX512 {
			continue
		}
		gramAsm, gramWide = true, wide
		g0, r0 := Gram(nil, nil, o, w, y, 2)
		type pair struct {
			name string
			a, b []float64
		}
		pairs := []pair{{"G", g0, g1}, {"r", r0, r1}}
		for j, sub := range subs {
			s0, sr0 := GramSubset(nil, nil, o, w, y, sub, 2)
			pairs = append(pairs, pair{fmt.Sprintf("subset %d G", j), s0, s1[j]}, pair{fmt.Sprintf("subset %d r", j), sr0, sr1[j]})
		}
		for _, c := range pairs {
			for i := range c.a {
				if math.Float64bits(c.a[i]) != math.Float64bits(c.b[i]) {
					t.Fatalf("AVX-512 %v: %s[%d]: %.17g with the assembly kernel, %.17g with the Go lanes", wide, c.name, i, c.a[i], c.b[i])
				}
			}
		}
	}
}

func TestGramFMAOddSizes(t *testing.T) {
	if !gramHaveFMA {
		t.Skip("the CPU lacks AVX2 or FMA")
	}
	defer func(v bool) { gramFMA = v }(gramFMA)
	gramFMA = true
	// Document counts and sub-blocks that are not multiples of 4, and column
	// counts (T+1 and the tiles' ends) that are not multiples of 4 or 3.
	for _, n := range []int{1, 3, 6, 37, gramSub + 5, gramDocs + gramSub + 2} {
		for _, T := range []int{1, 2, 4, 6, 11, gramTileRows + 2, gramTileCols + 6} {
			t.Run(fmt.Sprintf("N=%d/T=%d", n, T), func(t *testing.T) {
				o, w, y := gramRandom(uint64(n*100+T), n, T, 0.1)
				cols := make([]int, T+1)
				for c := range cols {
					cols[c] = c
				}
				g, r := Gram(nil, nil, o, w, y, 2)
				want, wantR, scale := gramNaive(o, w, y, cols)
				checkGramNear(t, want, wantR, scale, g, r, 1e-12)
				// And a subset of 5 columns: tiles of 1 and 2 b's past
				// the 3s, a partial group of a's.
				sub := []int{0, T}
				if T >= 4 {
					sub = []int{0, 1, T / 2, T - 1, T}
				}
				g, r = GramSubset(nil, nil, o, w, y, sub, 2)
				want, wantR, scale = gramNaive(o, w, y, sub)
				checkGramNear(t, want, wantR, scale, g, r, 1e-12)
			})
		}
	}
}

func TestGramFMAMatchesDgemv(t *testing.T) {
	if !gramHaveFMA {
		t.Skip("the CPU lacks AVX2 or FMA")
	}
	defer func(v bool) { gramFMA = v }(gramFMA)
	n, T := 2*gramDocs+gramSub+3, gramTileCols+gramTileRows+7
	o, w, y := gramRandom(11, n, T, 0.1)
	gramFMA = false
	g0, r0 := Gram(nil, nil, o, w, y, 2)
	gramFMA = true
	g1, r1 := Gram(nil, nil, o, w, y, 2)
	cols := make([]int, T+1)
	for c := range cols {
		cols[c] = c
	}
	// The two differ in the last bits; both are within 1e-12 of the scale
	// of the entries' rounding errors of each other.
	_, _, scale := gramNaive(o, w, y, cols)
	checkGramNear(t, g0, r0, scale, g1, r1, 1e-12)
	same := 0
	for i := range g0 {
		if g0[i] == g1[i] {
			same++
		}
	}
	t.Logf("%d of %d entries of G the same bit for bit", same, len(g0))
}

func TestGramPanics(t *testing.T) {
	o, w, y := gramRandom(9, 10, 3, 0)
	neg := append([]float64(nil), w...)
	neg[4] = -1
	for _, tc := range []struct {
		name, want string
		call       func()
	}{
		{"negative weight", "weight 4 is -1", func() { Gram(nil, nil, o, neg, y, 1) }},
		{"short weights", "9 weights and 10 targets for 10 documents", func() { Gram(nil, nil, o, w[:9], y, 1) }},
		{"wrong len(g)", "len(g) = 15, want 16", func() { Gram(make([]float64, 15), nil, o, w, y, 1) }},
		{"column out of range", "column 4 out of range [0, 3]", func() { GramSubset(nil, nil, o, w, y, []int{1, 4}, 1) }},
		{"columns not sorted", "not sorted and distinct: 1 after 2", func() { GramSubset(nil, nil, o, w, y, []int{2, 1}, 1) }},
		{"repeated column", "not sorted and distinct: 2 after 2", func() { GramSubset(nil, nil, o, w, y, []int{2, 2}, 1) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				msg := fmt.Sprint(recover())
				if !strings.Contains(msg, tc.want) {
					t.Errorf("panic %q, want one containing %q", msg, tc.want)
				}
			}()
			tc.call()
		})
	}
}

func ExampleGram() {
	// Two documents, one tree: H = [[2], [3]], weights 1 and 0.25, and the
	// intercept as the second column.
	o := OutputsFromColumns(2, [][]float32{{2, 3}})
	g, r := Gram(nil, nil, o, []float64{1, 0.25}, []float64{1, -1}, 0)
	fmt.Println(g, r)
	// Output: [6.25 2.75 2.75 1.25] [1.25 0.75]
}

// gramDot8x3 gives, bit for bit, gramDot4x3's sums of a[0…3] in out[0…11]
// and of a[4…7] in out[12…23].
func TestGramDot8x3(t *testing.T) {
	if !gramHaveAVX512 {
		t.Skip("the CPU lacks AVX-512")
	}
	rng := rand.New(rand.NewPCG(8, 3))
	for _, n := range []int{0, 4, 8, 12, 36, 516, 2052} {
		cols := gramTestColumns(rng, n)
		p := func(c []float64) *float64 {
			if n == 0 {
				return nil
			}
			return &c[0]
		}
		for _, pick := range [][11]int{{0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3}, {6, 5, 4, 3, 2, 1, 0, 3, 4, 5, 5}, {0, 0, 1, 1, 2, 2, 3, 3, 6, 6, 6}} {
			var a [8]*float64
			for i := range a {
				a[i] = p(cols[pick[i]])
			}
			b := [3]*float64{p(cols[pick[8]]), p(cols[pick[9]]), p(cols[pick[10]])}
			var out [24]float64
			for i := range out {
				out[i] = math.NaN() // overwritten, not added to
			}
			gramDot8x3(&a, &b, n, &out)
			var lo, hi [12]float64
			gramDot4x3((*[4]*float64)(a[:4]), &b, n, &lo)
			gramDot4x3((*[4]*float64)(a[4:]), &b, n, &hi)
			for k := range 12 {
				if math.Float64bits(out[k]) != math.Float64bits(lo[k]) || math.Float64bits(out[12+k]) != math.Float64bits(hi[k]) {
					t.Errorf("n=%d %v: product %d: %.17g and %.17g, gramDot4x3 %.17g and %.17g", n, pick, k, out[k], out[12+k], lo[k], hi[k])
				}
			}
		}
	}
}

// gramDot8x3 moves Y16…Y27, which only EVEX.256 encodings reach: it needs
// AVX-512 VL besides F (a CPU with F alone, as Knights Landing, would fault
// with SIGILL). gramHaveAVX512 is false when either is off, as x/sys/cpu's
// GODEBUG=cpu.avx512f=off and cpu.avx512vl=off make them (run in a child
// process, since the check is made once at start-up).
func TestGramAVX512NeedsVL(t *testing.T) {
	if os.Getenv("CRONUS_GRAM_AVX512_CHILD") == "1" {
		fmt.Printf("gramHaveAVX512=%v\n", gramHaveAVX512)
		return
	}
	if !gramHaveAVX512 {
		t.Skip("the CPU lacks AVX-512")
	}
	for _, off := range []string{"cpu.avx512f=off", "cpu.avx512vl=off"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestGramAVX512NeedsVL$", "-test.v")
		cmd.Env = append(os.Environ(), "CRONUS_GRAM_AVX512_CHILD=1", "GODEBUG="+off)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("GODEBUG=%s: %v\n%s", off, err, out)
		}
		if !strings.Contains(string(out), "gramHaveAVX512=false") {
			t.Errorf("GODEBUG=%s: gramDot8x3 still taken:\n%s", off, out)
		}
	}
}

// A Gram product asks stop within a block of documents too, between tiles
// of products, and gives up there when it says to: a block's work grows
// with the square of the trees, and on 4,000 documents × 20,000 trees of
// `cronus cascade` one block took 40 s, all of which a SIGINT waited for
// (it asked only before each block of 2,048 documents). The reports rise,
// and the ones within a block stay below its end. stop runs on the
// caller's goroutine after the tiles it does itself: with 2 workers the
// other can take every tile of the block while the caller waits for a
// core (the test failed so once under load, "reports [0]"), so that case
// is tried up to 20 times, and passes when one try asks within the block.
func TestGramStopsWithinBlock(t *testing.T) {
	const n, T = 1000, 300 // one block, 10 × 3 tiles
	o, w, y := gramRandom(21, n, T, 0.1)
	for _, workers := range []int{1, 2} {
		wantG, wantR := Gram(nil, nil, o, w, y, workers)
		tries := 1
		if workers > 1 {
			tries = 20
		}
		var stopped, reported []int
		for try := 0; try < tries; try++ {
			var done []int
			_, _, ok := gramStoppable(nil, nil, o, w, y, workers, nil, func(d int) bool {
				done = append(done, d)
				return d > 0
			})
			stopped = done
			if !ok && len(done) == 2 && done[0] == 0 && done[1] > 0 && done[1] < n {
				break
			}
		}
		if len(stopped) != 2 || stopped[0] != 0 || stopped[1] <= 0 || stopped[1] >= n {
			t.Errorf("workers %d: stop asked at %v, want 0 and then once within the block, where it gives up", workers, stopped)
		}
		// Not stopped, the product is the one Gram gives, bit for bit,
		// and the reports rise within (0, n) after the block's 0.
		for try := 0; try < tries; try++ {
			var done []int
			g, r, ok := gramStoppable(nil, nil, o, w, y, workers, nil, func(d int) bool {
				done = append(done, d)
				return false
			})
			if !ok || !slices.Equal(g, wantG) || !slices.Equal(r, wantR) {
				t.Fatalf("workers %d: not stopped: ok %v, or the product differs from Gram's", workers, ok)
			}
			reported = done
			if len(done) >= 2 {
				break
			}
		}
		if len(reported) < 2 || reported[0] != 0 || !slices.IsSorted(reported) || reported[len(reported)-1] >= n || slices.Contains(reported[1:], 0) {
			t.Errorf("workers %d: reports %v, want 0 and then rising within the block", workers, reported)
		}
	}
}

// A Gram product that takes its block buffer and its G and r from a
// gramBuffers full of NaNs (an earlier product's numbers) is the one Gram
// gives bit for bit, with every kernel: every entry read is written first
// (a ragged sub-block's zeros too: 1,001 documents, one block), and G and
// r are cleared. A stop that gives up gives the block buffer back too.
func TestGramBuffersStale(t *testing.T) {
	defer func(f, a, wd bool) { gramFMA, gramAsm, gramWide = f, a, wd }(gramFMA, gramAsm, gramWide)
	const n, T = 1001, 70
	o, w, y := gramRandom(22, n, T, 0.1)
	for _, k := range []struct{ fma, asm, wide bool }{{false, false, false}, {true, false, false}, {true, gramHaveFMA, false}, {true, gramHaveFMA, gramHaveAVX512}} {
		gramFMA, gramAsm, gramWide = k.fma, k.asm, k.wide
		wantG, wantR := Gram(nil, nil, o, w, y, 2)
		bufs := &gramBuffers{}
		if _, _, ok := gramStoppable(nil, nil, o, w, y, 2, bufs, func(int) bool { return true }); ok || bufs.block == nil {
			t.Fatalf("%+v: a stopped product kept no block buffer (ok %v)", k, ok)
		}
		bufs.product = make([]float64, (T+1)*(T+1)+T+1)
		for _, s := range [][]float64{bufs.product, bufs.block} {
			for i := range s {
				s[i] = math.NaN()
			}
		}
		own, g, r := bufs.takeProduct(T + 1)
		g, r, _ = gramStoppable(g, r, o, w, y, 2, bufs, nil)
		if !slices.Equal(g, wantG) || !slices.Equal(r, wantR) {
			t.Errorf("%+v: the product in stale buffers differs from Gram's", k)
		}
		bufs.giveProduct(own)
		if len(bufs.product) != len(own) {
			t.Errorf("%+v: the product buffer was not given back", k)
		}
	}
}
