package data

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// MaxBins is the most bins a feature can have: bin codes are uint8, 0 to 254.
const MaxBins = 255

// binSampleDocs is the most documents ComputeBins looks at. Quantiles from
// 200,000 values are as good as exact for 255 bins, and sorting more costs
// time for nothing.
const binSampleDocs = 200_000

// Bins holds the bin edges of every feature, for the histogram tree learner.
type Bins struct {
	// Upper[f] are the ascending upper bounds of feature f's bins: value v
	// gets the code of the first bin b with v <= Upper[f][b]. The last bound
	// is +Inf, so every value has a code; NaN gets the last bin. Each
	// feature has 1 to MaxBins bounds, none NaN.
	Upper [][]float32
}

// Binned holds the bin codes of a data set, column-major like Dataset.Cols.
type Binned struct {
	Codes   [][]uint8 // Codes[f][i] is the bin of document i's feature f
	NumBins []int     // bins of each feature, len(Bins.Upper[f])
}

// ComputeBins chooses bin edges for every feature of d; maxBins must be from
// 2 to MaxBins.
//
// A feature with at most maxBins distinct values gets one bin per value, the
// edge between neighbouring values a < b being their midpoint rounded down to
// a float32 that is >= a and < b (so "v <= edge" is exactly "v <= a"). With
// more distinct values, the edges are quantiles: bins of roughly equal
// document counts, found greedily on the sorted distinct values as LightGBM
// does, except that a value holding at least 1/maxBins of the documents (the
// zeros of a sparse feature, say) gets a bin of its own, as far as maxBins
// allows. A constant feature has a single bin. NaN values are ignored.
// d must be valid (see Dataset.Validate).
//
// The edges come from all documents or, in a larger data set, from 200,000
// evenly spaced ones (document i*n/200000 for i = 0..199999), which is
// deterministic. Features are binned in parallel by GOMAXPROCS goroutines; the
// result does not depend on their number.
func ComputeBins(d *Dataset, maxBins int) *Bins {
	b, _ := ComputeBinsContext(context.Background(), d, maxBins) // never cancelled
	return b
}

// ComputeBinsContext is ComputeBins that stops, between features, once ctx
// is done, and then returns ctx's error: on a large data set the binning
// takes seconds.
func ComputeBinsContext(ctx context.Context, d *Dataset, maxBins int) (*Bins, error) {
	if maxBins < 2 || maxBins > MaxBins {
		panic(fmt.Sprintf("data: ComputeBins: maxBins %d outside 2..%d", maxBins, MaxBins))
	}
	n := d.NumDocs()
	var sample []int
	if n > binSampleDocs {
		sample = make([]int, binSampleDocs)
		for i := range sample {
			sample[i] = int(int64(i) * int64(n) / binSampleDocs)
		}
	}
	nf := d.NumFeatures()
	b := &Bins{Upper: make([][]float32, nf)}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), nf) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var s binScratch
			for f := int(next.Add(1) - 1); f < nf && ctx.Err() == nil; f = int(next.Add(1) - 1) {
				b.Upper[f] = s.featureBounds(d.Cols[f], sample, maxBins)
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return b, nil
}

// binScratch is one goroutine's reusable memory for featureBounds.
type binScratch struct {
	vals     []float32
	tmp      []float32 // the radix sort's scratch
	distinct []float32
	counts   []int
	big      []bool
}

// featureBounds returns the bin upper bounds of one column, looking at the
// documents in sample or, when sample is nil, at all of them.
func (s *binScratch) featureBounds(col []float32, sample []int, maxBins int) []float32 {
	vals := s.vals[:0]
	if sample == nil {
		for _, v := range col {
			if v == v { // not NaN
				vals = append(vals, v)
			}
		}
	} else {
		for _, i := range sample {
			if v := col[i]; v == v {
				vals = append(vals, v)
			}
		}
	}
	s.vals = vals
	inf := float32(math.Inf(1))
	if constant(vals) {
		// One value (or none): a single bin, as below, without the sort.
		// A stray high index on one line of a data set makes every
		// feature up to it a column of zeros, and sorting 200,000 of
		// them took 12 s of a 20-tree training on MQ2008.
		return []float32{inf}
	}
	s.tmp = sortFloat32s(vals, s.tmp)

	distinct, counts := s.distinct[:0], s.counts[:0]
	for i, v := range vals {
		if i > 0 && v == vals[i-1] { // also merges -0 and +0
			counts[len(counts)-1]++
			continue
		}
		distinct = append(distinct, v)
		counts = append(counts, 1)
	}
	s.distinct, s.counts = distinct, counts

	if len(distinct) <= maxBins {
		upper := make([]float32, 0, max(len(distinct), 1))
		for i := 1; i < len(distinct); i++ {
			upper = append(upper, binEdge(distinct[i-1], distinct[i]))
		}
		return append(upper, inf)
	}
	return append(s.greedyEdges(distinct, counts, len(vals), maxBins), inf)
}

// constant reports whether every value of vals is the same (-0 and +0
// alike, as the bins take them); true for none.
func constant(vals []float32) bool {
	for _, v := range vals {
		if v != vals[0] {
			return false
		}
	}
	return true
}

// greedyEdges returns at most maxBins-1 edges that split the distinct values
// (ascending, with their counts summing to total) into bins of roughly equal
// counts. It follows LightGBM's GreedyFindBin: values holding at least
// total/maxBins documents are "big" and get a bin of their own (as far as
// maxBins allows: bins are kept in reserve for the big values still ahead);
// the other values fill the remaining bins greedily, a bin closing once it
// holds the mean count of what is left. It is not LightGBM's bin for bin:
// two edges are held back for every big value still ahead, where the last
// distinct value needs one, so a feature whose largest value is frequent
// gets one bin fewer, and a cut always goes before a big value (more bins
// than LightGBM on a few features). LightGBM's exact rule would change
// every model, and an audit did not find it better on MQ2008; the models
// and figures stay as they are.
func (s *binScratch) greedyEdges(distinct []float32, counts []int, total, maxBins int) []float32 {
	big := slices.Grow(s.big[:0], len(distinct))[:len(distinct)]
	s.big = big
	mean := float64(total) / float64(maxBins)
	restBins, restCount, bigAhead := maxBins, total, 0
	for i, c := range counts {
		big[i] = float64(c) >= mean
		if big[i] {
			restBins--
			restCount -= c
			bigAhead++
		}
	}
	if restBins > 0 {
		mean = float64(restCount) / float64(restBins)
	}
	upper := make([]float32, 0, maxBins)
	cur := 0
	for i := 0; i < len(distinct)-1; i++ {
		cur += counts[i]
		if big[i] {
			bigAhead--
		} else {
			restCount -= counts[i]
		}
		// A big value is cut off on both sides. Other bins close at the
		// mean, if that leaves an edge on each side of every big value ahead.
		forced := big[i] || big[i+1]
		if !forced && (float64(cur) < mean || len(upper)+1+2*bigAhead > maxBins-1) {
			continue
		}
		upper = append(upper, binEdge(distinct[i], distinct[i+1]))
		if len(upper) == maxBins-1 {
			break // the rest shares the last bin
		}
		if !big[i] {
			restBins--
			if restBins > 0 {
				mean = float64(restCount) / float64(restBins)
			}
		}
		cur = 0
	}
	return upper
}

// binEdge returns the edge between neighbouring distinct values a < b: their
// midpoint rounded down to a float32 e with a <= e < b.
func binEdge(a, b float32) float32 {
	m := (float64(a) + float64(b)) / 2
	if m != m { // -Inf and +Inf
		return a
	}
	e := float32(m)
	if float64(e) > m {
		e = math.Nextafter32(e, float32(math.Inf(-1)))
	}
	if e >= b { // b is +Inf, or a and b are adjacent float32s
		e = math.Nextafter32(b, float32(math.Inf(-1)))
	}
	return max(e, a)
}

// Threshold returns the raw value that the split "code <= c" of feature f
// stands for: for every value v other than NaN,
// code(v) <= c exactly when v <= Threshold(f, c).
func (b *Bins) Threshold(f int, c uint8) float32 { return b.Upper[f][c] }

// binBlock is the number of documents of one feature that a goroutine of
// Apply codes at a time, so that a data set with few features still uses
// every core.
const binBlock = 1 << 16

// Apply returns the bin codes of d, which may be the data set the bins were
// computed on or another one (validation, test) with the same features.
// It is an error for d to have a different number of features than b;
// callers pad or cut the data set first.
func (b *Bins) Apply(d *Dataset) (*Binned, error) {
	return b.ApplyContext(context.Background(), d)
}

// ApplyContext is Apply that stops, between blocks of binBlock codes, once
// ctx is done, and then returns ctx's error.
func (b *Bins) ApplyContext(ctx context.Context, d *Dataset) (*Binned, error) {
	nf, n := d.NumFeatures(), d.NumDocs()
	if nf != len(b.Upper) {
		return nil, fmt.Errorf("data: %s has %d features but the bins are for %d; pad or cut the data set to %d features",
			binDataName(d), nf, len(b.Upper), len(b.Upper))
	}
	out := &Binned{Codes: make([][]uint8, nf), NumBins: make([]int, nf)}
	for f, u := range b.Upper {
		if len(u) < 1 || len(u) > MaxBins {
			return nil, fmt.Errorf("data: feature %d has %d bins, expected 1 to %d", f+1, len(u), MaxBins)
		}
		if len(d.Cols[f]) != n {
			return nil, fmt.Errorf("data: %s: feature %d has %d values for %d documents", binDataName(d), f+1, len(d.Cols[f]), n)
		}
		out.NumBins[f] = len(u)
	}
	codes := make([]uint8, nf*n)
	for f := range out.Codes {
		out.Codes[f] = codes[f*n : (f+1)*n : (f+1)*n]
	}
	blocks := (n + binBlock - 1) / binBlock
	tasks := nf * blocks
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), tasks) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var tab binTable
			for t := int(next.Add(1) - 1); t < tasks && ctx.Err() == nil; t = int(next.Add(1) - 1) {
				f, lo := t/blocks, t%blocks*binBlock
				hi := min(lo+binBlock, n)
				u := b.Upper[f]
				tab.reset(u[:len(u)-1])
				tab.codes(out.Codes[f][lo:hi], d.Cols[f][lo:hi])
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

func binDataName(d *Dataset) string {
	if d.Name == "" {
		return "the data set"
	}
	return d.Name
}

// binTable is the search table of one feature's edges (its upper bounds
// but the last). Floats compare as integers after binKey, which lets the
// search choose a side with arithmetic rather than a branch: a branch taken
// at random is mispredicted half the time, and the Go compiler does not turn
// a float comparison in a loop into a conditional move. The table is small
// enough to rebuild for every block of documents.
type binTable struct {
	keys [MaxBins + 1]int32 // binKey of each edge, then math.MaxInt32 up to p
	p    int                // the least power of two > number of edges
	last uint8              // number of edges: the code of NaN
}

// reset fills t for ascending edges (at most MaxBins-1, no NaN).
func (t *binTable) reset(edges []float32) {
	t.p = 1
	for t.p <= len(edges) {
		t.p <<= 1
	}
	for i := range t.p {
		t.keys[i] = math.MaxInt32
		if i < len(edges) {
			e := edges[i]
			if e == 0 {
				e = 0 // an edge of -0 gets the key of 0
			}
			t.keys[i] = binKey(e)
		}
	}
	t.last = uint8(len(edges))
}

// binKey maps a float32 to an int32 of the same order: a value's bits, with
// those of a negative value flipped but for the sign. NaN aside, a < b
// exactly when binKey(a) < binKey(b), except that -0 gets a key just below
// that of 0; reset gives no edge the key of -0, so "v <= edge" is still
// "binKey(v) <= binKey(edge)".
func binKey(v float32) int32 {
	b := int32(math.Float32bits(v))
	return b ^ int32(uint32(b>>31)>>1)
}

// codes writes into dst the code of every value in src: the number of edges
// below the value, which for ascending edges is the index of the first edge
// >= v, or the number of edges (the last bin) when there is none or v is NaN.
//
// Each search takes log2(p) steps of base += half when keys[base+half-1] < v,
// the comparison done as a sign mask. Four values are searched side by side,
// as their steps do not depend on each other and the processor overlaps them.
func (t *binTable) codes(dst []uint8, src []float32) {
	dst = dst[:len(src)]
	keys, p := &t.keys, int64(t.p)
	i := 0
	for ; i+4 <= len(src); i += 4 {
		s := (*[4]float32)(src[i : i+4])
		k0, k1, k2, k3 := int64(binKey(s[0])), int64(binKey(s[1])), int64(binKey(s[2])), int64(binKey(s[3]))
		var b0, b1, b2, b3 int64
		for half := p >> 1; half > 0; half >>= 1 {
			b0 += half & ((int64(keys[uint8(b0+half-1)]) - k0) >> 63)
			b1 += half & ((int64(keys[uint8(b1+half-1)]) - k1) >> 63)
			b2 += half & ((int64(keys[uint8(b2+half-1)]) - k2) >> 63)
			b3 += half & ((int64(keys[uint8(b3+half-1)]) - k3) >> 63)
		}
		d := (*[4]uint8)(dst[i : i+4])
		d[0], d[1], d[2], d[3] = uint8(b0), uint8(b1), uint8(b2), uint8(b3)
		if s[0] != s[0] || s[1] != s[1] || s[2] != s[2] || s[3] != s[3] {
			for j, v := range s {
				if v != v {
					d[j] = t.last
				}
			}
		}
	}
	for ; i < len(src); i++ {
		v := src[i]
		k := int64(binKey(v))
		var b int64
		for half := p >> 1; half > 0; half >>= 1 {
			b += half & ((int64(keys[uint8(b+half-1)]) - k) >> 63)
		}
		dst[i] = uint8(b)
		if v != v {
			dst[i] = t.last
		}
	}
}
