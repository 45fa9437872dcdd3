package cronus

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// The blocking of Gram. The documents are taken gramDocs at a time: that block
// of every column is converted once to float64, scaled by √w, into a buffer
// cut into sub-blocks of gramSub documents, within which the columns are
// gramSub+gramPad apart (the pad keeps the rows of one kernel call off the
// same cache sets, and leaves room to pad a ragged sub-block with zeros to a
// multiple of 4 documents). A task is one tile of gramTileRows×gramTileCols
// products over one block; within it the kernel walks a slab of a few
// columns a (which stays in L1) along the columns b of the tile (gramTileCols
// of them, 520 KiB, which stay in L2), one sub-block at a time.
//
// The kernels, chosen once at start-up (gramFMA, gramAsm):
//
//   - gramDot4x3 (gram_amd64.s), when the CPU has AVX2 and FMA: the 12 dot
//     products of 4 columns a with 3 columns b over a sub-block, in 12 YMM
//     accumulators of 4 lanes each (7 loads for 12 fused multiply-adds per 4
//     documents), reduced as (l0+l1)+(l2+l3) at the end. It runs at about
//     twice the speed of Dgemv here.
//   - gramDot4x3Go, the same lanes in Go with math.FMA, when the CPU has
//     fused multiply-adds but not the assembly kernel (FMA without AVX2,
//     arm64, GODEBUG=cpu.avx2=off): the same sums bit for bit as
//     gramDot4x3, so that a cascade does not change with AVX2 (it did: on
//     MQ2008, 200 trees, other trees survived and the cost moved from 384
//     to 390 per document).
//   - gonum's Dgemv on CPUs without fused multiply-adds (gramRows columns a
//     against one column b), a 4×4 register-blocked SSE2 loop: about 2.5
//     times the speed of the best register-blocked Go loop (no SIMD) on the
//     machines this was measured on; math.FMA in software would be many
//     times slower. There results differ anyway, as Go's math.Exp does.
//
// With any kernel G is the same bit for bit whatever the worker count (the
// tiles are fixed, and each entry adds up its blocks in order); but Dgemv
// rounds differently from the lanes (4 lanes and fused multiply-adds against
// Dgemv's order), so its G differs in the last bits (within about 1e-12 of
// Σ_i |w_i H_a(i) H_b(i)|, as the tests check).
const (
	gramDocs     = 2048
	gramSub      = 512
	gramPad      = 8
	gramRows     = 8
	gramTileRows = 32
	gramTileCols = 128
)

// Gram computes G = HᵀWH over the T tree columns plus the intercept column
// (index T), i.e. G[a][b] = Σ_i w_i H_a(i) H_b(i), and r = HᵀWy (r[a] =
// Σ_i w_i H_a(i) y_i), in float64: G row-major (T+1)×(T+1) into g and r
// (T+1 entries), each allocated when nil and overwritten otherwise. These are
// the two sides of Chen et al. (2012) eq 14, β = (HᵀΩH + Λ)⁻¹ HᵀΩy, with
// W = diag(w) = Ω. w and y have N entries; w must be non-negative. Gram uses
// up to workers goroutines (<= 0: GOMAXPROCS).
//
// G is exactly symmetric, and G and r are the same bit for bit whatever
// workers is: the documents are cut into fixed blocks and every entry adds up
// its blocks in document order.
func Gram(g, r []float64, o *Outputs, w, y []float64, workers int) ([]float64, []float64) {
	g, r, _ = gramStoppable(g, r, o, w, y, workers, nil, nil)
	return g, r
}

// gramStoppable is Gram that calls stop (when not nil) before each block of
// documents, with the number of documents done, and within a block after
// each tile of products the caller's goroutine computes, with the block's
// share of tiles done counted as documents (only when that rises), and
// gives up, returning ok false, when it says to: a Gram product of the
// built-in data's 500 trees takes tens of milliseconds, one block a fifth
// of that, but a block's work grows with the square of the trees. stop
// runs on the caller's goroutine. The block buffer is taken from bufs and
// given back to it (nil: a new one, dropped at the end).
func gramStoppable(g, r []float64, o *Outputs, w, y []float64, workers int, bufs *gramBuffers, stop func(done int) bool) (_, _ []float64, ok bool) {
	cols := make([]int, o.NumTrees()+1)
	for c := range cols {
		cols[c] = c
	}
	return gram("Gram", g, r, o, w, y, cols, workers, bufs, stop)
}

// GramSubset is Gram restricted to the columns cols (the active trees, and
// the intercept iff T is in cols): G[a][b] = Σ_i w_i H_cols[a](i) H_cols[b](i)
// is len(cols)×len(cols), row-major, and r has len(cols) entries. cols must be
// sorted, without repeats, with entries in [0, T]. An entry may differ from
// the one Gram gives for the same pair of columns in the last bits.
func GramSubset(g, r []float64, o *Outputs, w, y []float64, cols []int, workers int) ([]float64, []float64) {
	T := o.NumTrees()
	for j, c := range cols {
		if c < 0 || c > T {
			panic(fmt.Sprintf("cronus: GramSubset: column %d out of range [0, %d]", c, T))
		}
		if j > 0 && c <= cols[j-1] {
			panic(fmt.Sprintf("cronus: GramSubset: columns not sorted and distinct: %d after %d", c, cols[j-1]))
		}
	}
	g, r, _ = gram("GramSubset", g, r, o, w, y, cols, workers, nil, nil)
	return g, r
}

// gramTask is a tile of products: the columns a in [a0, a1) (a0 a multiple
// of gramRows) with the columns b in [b0, b1), b >= a's row group. Column k,
// one past the last column of G, is √w·y, whose products go to r.
type gramTask struct{ a0, a1, b0, b1 int }

// gramFMA selects the 4-lane fused multiply-add kernel (gramTileFMA) when
// the CPU has fused multiply-adds, gonum's Dgemv otherwise; gramAsm, within
// it, gramDot4x3 (AVX2 and FMA) over gramDot4x3Go. The tests set them to
// run every kernel.
var (
	gramFMA  = gramHaveFMA || gramHardwareFMA
	gramAsm  = gramHaveFMA
	gramWide = gramHaveAVX512 // within gramAsm: gramDot8x3 for 8 columns a at a time
)

func gram(fn string, g, r []float64, o *Outputs, w, y []float64, cols []int, workers int, bufs *gramBuffers, stop func(done int) bool) (_, _ []float64, ok bool) {
	N, T, k := o.N, o.NumTrees(), len(cols)
	if len(w) != N || len(y) != N {
		panic(fmt.Sprintf("cronus: %s: %d weights and %d targets for %d documents", fn, len(w), len(y), N))
	}
	g = gramZeroed(g, k*k, fn, "g")
	r = gramZeroed(r, k, fn, "r")
	if k == 0 || N == 0 {
		return g, r, true
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}

	sw := make([]float64, N)
	for i, wi := range w {
		if !(wi >= 0) {
			panic(fmt.Sprintf("cronus: %s: weight %d is %g; weights must be non-negative", fn, i, wi))
		}
		sw[i] = math.Sqrt(wi)
	}

	// The tiles of the upper triangle and of r, those that cross the
	// diagonal (half empty) last, so that the last tasks to finish are short.
	var tasks []gramTask
	for _, diag := range []bool{false, true} {
		for a0 := 0; a0 < k; a0 += gramTileRows {
			a1 := min(a0+gramTileRows, k)
			for b0 := a0 / gramTileCols * gramTileCols; b0 <= k; b0 += gramTileCols {
				if (b0 < a1) == diag {
					tasks = append(tasks, gramTask{a0, a1, b0, min(b0+gramTileCols, k+1)})
				}
			}
		}
	}

	// x holds one block: document i of sub-block j of column c is at
	// x[(j*(k+1)+c)*ld+i]. Taken from bufs, it holds an earlier product's
	// numbers, but every entry a kernel reads is written first (the
	// documents of the block, and the zeros up to a multiple of 4): G is
	// the same bit for bit. gramParallelStoppable returns once no worker
	// touches x any more, also when it gives up, so x can go back.
	ld := min(gramSub, N) + gramPad
	x := bufs.takeBlock((min(gramDocs, N) + gramSub - 1) / gramSub * (k + 1) * ld)
	defer bufs.giveBlock(x)
	for s := 0; s < N; s += gramDocs {
		if stop != nil && stop(s) {
			return g, r, false
		}
		n := min(gramDocs, N-s)
		gramParallel(k+1, workers, func(c int) {
			for j := 0; j*gramSub < n; j++ {
				lo, hi := s+j*gramSub, s+min((j+1)*gramSub, n)
				dst := x[(j*(k+1)+c)*ld:][:hi-lo]
				switch {
				case c == k:
					gramScale(dst, sw[lo:hi], y[lo:hi])
				case cols[c] == T:
					copy(dst, sw[lo:hi])
				default:
					o.scaleInto(dst, sw[lo:hi], cols[c], lo)
				}
				// Zeros up to a multiple of 4 documents, for gramDot4x3.
				clear(x[(j*(k+1)+c)*ld+hi-lo:][:gramRound4(hi-lo)-(hi-lo)])
			}
		})
		// Within the block, the caller's goroutine asks stop again after
		// each tile it computes, with the block's share of tiles done as
		// documents: a block's products grow with the square of the trees
		// (on 4,000 documents × 20,000 trees one took 40 s, and an
		// interrupt waited for it).
		var mid func(done int) bool
		if stop != nil {
			last := s
			mid = func(tiles int) bool {
				d := s + int(int64(n)*int64(tiles)/int64(len(tasks)))
				if d <= last || d >= s+n {
					return false
				}
				last = d
				return stop(d)
			}
		}
		if !gramParallelStoppable(len(tasks), workers, func(t int) {
			gramTile(g, r, x, ld, n, k, tasks[t])
		}, mid) {
			return g, r, false
		}
	}

	// The tiles wrote g[b][a] for a <= b (and for a few a > b near the
	// diagonal): the lower triangle holds every product; copy it up, a
	// square of 64×64 at a time.
	const sq = 64
	for a0 := 0; a0 < k; a0 += sq {
		for b0 := a0; b0 < k; b0 += sq {
			for a := a0; a < min(a0+sq, k); a++ {
				for b := max(b0, a+1); b < min(b0+sq, k); b++ {
					g[a*k+b] = g[b*k+a]
				}
			}
		}
	}
	return g, r, true
}

// gramBuffers keeps the big buffers of a Problem's Gram products for the
// next product: one stage product's G and r ((T+1)²+(T+1) float64), which
// every stage of Algorithm 2 but the first (at the weights ω, kept apart:
// baseGram) needs anew, and one block buffer of Gram (about 16.6 KB per
// tree). Made anew for each product and dropped after it, they were most
// of the garbage of an optimisation on many trees, and Go's garbage
// collector let the heap grow to about twice the live set before it took
// them back: at 2,500 trees on 3,879 documents the peak RSS was 447 MiB (232 MiB with them reused).
// It is shared by the copies of a Problem and safe for concurrent use (the
// workbench chooses ρ while a run goes on): a buffer is held by one
// product at a time, and the others make their own; it keeps one free
// buffer of each kind, the largest given back. Its methods accept a nil
// *gramBuffers, which keeps nothing.
type gramBuffers struct {
	mu      sync.Mutex
	product []float64 // a stage product's G and r, free
	block   []float64 // a block buffer of Gram, free
}

// take returns the free buffer *free cut to n entries and removes it, or
// a new one of n zeros when there is none or it is too short.
func (b *gramBuffers) take(free *[]float64, n int) []float64 {
	if b != nil {
		b.mu.Lock()
		defer b.mu.Unlock()
		if s := *free; cap(s) >= n {
			*free = nil
			return s[:n]
		}
	}
	return make([]float64, n)
}

// give makes s the free buffer *free, unless that is at least as large.
func (b *gramBuffers) give(free *[]float64, s []float64) {
	if b == nil || s == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if cap(s) > cap(*free) {
		*free = s
	}
}

// takeBlock returns a block buffer of n entries (its contents are
// arbitrary), which giveBlock gives back.
func (b *gramBuffers) takeBlock(n int) []float64 {
	if b == nil {
		return make([]float64, n)
	}
	return b.take(&b.block, n)
}

func (b *gramBuffers) giveBlock(s []float64) {
	if b != nil {
		b.give(&b.block, s)
	}
}

// takeProduct returns a buffer for a Gram product of k columns: G (k×k)
// and r (k entries), cut from one buffer of arbitrary contents (gram
// clears them), which giveProduct gives back.
func (b *gramBuffers) takeProduct(k int) (buf, g, r []float64) {
	if b == nil {
		buf = make([]float64, k*k+k)
	} else {
		buf = b.take(&b.product, k*k+k)
	}
	return buf, buf[: k*k : k*k], buf[k*k:]
}

func (b *gramBuffers) giveProduct(buf []float64) {
	if b != nil {
		b.give(&b.product, buf)
	}
}

// gramTile adds one block of n documents of x to the products of tile t:
// g[b*k+a] += Σ_i x_a(i)·x_b(i), or r[a] for b = k. Only this tile writes
// these entries, one block after the other, so their sums do not depend on
// which worker runs which tile.
func gramTile(g, r, x []float64, ld, n, k int, t gramTask) {
	if gramFMA {
		gramTileFMA(g, r, x, ld, n, k, t)
		return
	}
	var impl gonum.Implementation
	for j := 0; j*gramSub < n; j++ {
		nn := min(gramSub, n-j*gramSub)
		sub := x[j*(k+1)*ld:]
		for a0 := t.a0; a0 < t.a1; a0 += gramRows {
			m := min(gramRows, t.a1-a0)
			slab := sub[a0*ld:]
			for b := max(t.b0, a0); b < t.b1; b++ {
				dst := r[a0 : a0+m]
				if b < k {
					dst = g[b*k+a0 : b*k+a0+m]
				}
				// dst += slab·x_b
				impl.Dgemv(blas.NoTrans, m, nn, 1, slab, ld, sub[b*ld:b*ld+nn], 1, 1, dst, 1)
			}
		}
	}
}

// gramTileFMA is gramTile on the kernel gramDot4x3: 4 columns a at a time
// with 3 columns b at a time, over whole sub-blocks (padded with zeros to a
// multiple of 4 documents). At the ragged ends of a tile the missing columns
// are stand-ins (repeats of the last one) whose products are dropped; every
// product is computed the same way whatever its neighbours in the call.
//
// With AVX-512 (gramWide), 8 columns a go at a time where a tile has them,
// through gramDot8x3, which computes each product as gramDot4x3 does: G
// is the same bit for bit.
func gramTileFMA(g, r, x []float64, ld, n, k int, t gramTask) {
	var out [12]float64
	var out8 [24]float64
	for j := 0; j*gramSub < n; j++ {
		nn := gramRound4(min(gramSub, n-j*gramSub))
		sub := x[j*(k+1)*ld:]
		col := func(c int) *float64 { return &sub[c*ld : c*ld+nn][0] }
		// add adds the products out[4jb+i] of the columns a0+i (i < m)
		// with b0+jb (jb < nb) to G, or to r for the column k.
		add := func(out []float64, a0, m, b0, nb int) {
			for jb := range nb {
				b := b0 + jb
				dst := r[a0 : a0+m]
				if b < k {
					dst = g[b*k+a0 : b*k+a0+m]
				}
				for i := range dst {
					dst[i] += out[4*jb+i]
				}
			}
		}
		// triplets calls f for the columns b from b0 to b1, 3 at a time,
		// the last ones repeated at a ragged end.
		triplets := func(b0, b1 int, f func(pb *[3]*float64, b0, nb int)) {
			for ; b0 < b1; b0 += 3 {
				nb := min(3, b1-b0)
				var pb [3]*float64
				for i := range pb {
					pb[i] = col(b0 + min(i, nb-1))
				}
				f(&pb, b0, nb)
			}
		}
		for a0 := t.a0; a0 < t.a1; {
			if gramAsm && gramWide && t.a1-a0 >= 8 {
				var pa [8]*float64
				for i := range pa {
					pa[i] = col(a0 + i)
				}
				// The columns b below the second four a's take the
				// first four alone, as their own group would.
				lo, mid := max(t.b0, a0), max(t.b0, a0+4)
				triplets(lo, min(mid, t.b1), func(pb *[3]*float64, b0, nb int) {
					gramDot4x3((*[4]*float64)(pa[:4]), pb, nn, &out)
					add(out[:], a0, 4, b0, nb)
				})
				triplets(mid, t.b1, func(pb *[3]*float64, b0, nb int) {
					gramDot8x3(&pa, pb, nn, &out8)
					add(out8[:12], a0, 4, b0, nb)
					add(out8[12:], a0+4, 4, b0, nb)
				})
				a0 += 8
				continue
			}
			m := min(4, t.a1-a0)
			var pa [4]*float64
			for i := range pa {
				pa[i] = col(a0 + min(i, m-1))
			}
			triplets(max(t.b0, a0), t.b1, func(pb *[3]*float64, b0, nb int) {
				if gramAsm {
					gramDot4x3(&pa, pb, nn, &out)
				} else {
					gramDot4x3Go(&pa, pb, nn, &out)
				}
				add(out[:], a0, m, b0, nb)
			})
			a0 += 4
		}
	}
}

// gramDot4x3Go is gramDot4x3 in Go, operation for operation: the sums of
// a[i]·b[j] in 4 lanes (lane l adds the documents q ≡ l mod 4 in order, one
// math.FMA each, the single rounding of VFMADD231PD), then (l0+l1)+(l2+l3).
// It is fast only where math.FMA is an instruction (gramHardwareFMA).
func gramDot4x3Go(a *[4]*float64, b *[3]*float64, n int, out *[12]float64) {
	if n == 0 {
		*out = [12]float64{}
		return
	}
	b0, b1, b2 := unsafe.Slice(b[0], n), unsafe.Slice(b[1], n), unsafe.Slice(b[2], n)
	for i := range 4 {
		x := unsafe.Slice(a[i], n)
		var s00, s01, s02, s03, s10, s11, s12, s13, s20, s21, s22, s23 float64
		for q := 0; q+3 < n; q += 4 {
			x, c0, c1, c2 := (*[4]float64)(x[q:]), (*[4]float64)(b0[q:]), (*[4]float64)(b1[q:]), (*[4]float64)(b2[q:])
			s00 = math.FMA(x[0], c0[0], s00)
			s01 = math.FMA(x[1], c0[1], s01)
			s02 = math.FMA(x[2], c0[2], s02)
			s03 = math.FMA(x[3], c0[3], s03)
			s10 = math.FMA(x[0], c1[0], s10)
			s11 = math.FMA(x[1], c1[1], s11)
			s12 = math.FMA(x[2], c1[2], s12)
			s13 = math.FMA(x[3], c1[3], s13)
			s20 = math.FMA(x[0], c2[0], s20)
			s21 = math.FMA(x[1], c2[1], s21)
			s22 = math.FMA(x[2], c2[2], s22)
			s23 = math.FMA(x[3], c2[3], s23)
		}
		out[i] = (s00 + s01) + (s02 + s03)
		out[4+i] = (s10 + s11) + (s12 + s13)
		out[8+i] = (s20 + s21) + (s22 + s23)
	}
}

// gramRound4 rounds n up to a multiple of 4.
func gramRound4(n int) int { return (n + 3) &^ 3 }

// gramScale sets dst[i] = s[i]·v[i].
func gramScale(dst, s, v []float64) {
	s = s[:len(dst)]
	v = v[:len(dst)]
	for i := range dst {
		dst[i] = s[i] * v[i]
	}
}

// gramZeroed returns dst cleared, or a new slice of n zeros when dst is nil.
func gramZeroed(dst []float64, n int, fn, name string) []float64 {
	if dst == nil {
		return make([]float64, n)
	}
	if len(dst) != n {
		panic(fmt.Sprintf("cronus: %s: len(%s) = %d, want %d", fn, name, len(dst), n))
	}
	clear(dst)
	return dst
}

// gramParallel calls do(0), …, do(n-1) on up to workers goroutines, each
// taking the next index when it is done with one.
func gramParallel(n, workers int, do func(i int)) {
	gramParallelStoppable(n, workers, do, nil)
}

// gramParallelStoppable is gramParallel that, when stop is not nil, calls
// it on the caller's goroutine after each index that goroutine has done,
// with the number of indices done so far, and gives up, returning false,
// when it says to: no goroutine takes another index, and those running
// finish theirs before it returns.
func gramParallelStoppable(n, workers int, do func(i int), stop func(done int) bool) bool {
	workers = min(workers, n)
	var next, done atomic.Int64
	var abort atomic.Bool
	run := func(caller bool) {
		for !abort.Load() {
			i := int(next.Add(1) - 1)
			if i >= n {
				return
			}
			do(i)
			d := done.Add(1)
			if caller && stop != nil && stop(int(d)) {
				abort.Store(true)
			}
		}
	}
	if workers <= 1 {
		run(true)
		return !abort.Load()
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(func() { run(false) })
	}
	run(true)
	wg.Wait()
	return !abort.Load()
}
