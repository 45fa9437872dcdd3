package data

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// binTestData builds a one-query data set from columns.
func binTestData(cols ...[]float32) *Dataset {
	n := 0
	if len(cols) > 0 {
		n = len(cols[0])
	}
	return &Dataset{Cols: cols, Labels: make([]float32, n), QueryIDs: []int64{1}, QueryOffsets: []int{0, n}, HasQID: true}
}

var inf32 = float32(math.Inf(1))

// linearCode is the definition of a bin code, for checking Apply: the first
// bin whose upper bound is >= v, or the last bin.
func linearCode(upper []float32, v float32) int {
	for b, u := range upper {
		if v <= u {
			return b
		}
	}
	return len(upper) - 1
}

// checkBinned checks Apply's codes against linearCode and the threshold
// property for every value and every split.
func checkBinned(t *testing.T, b *Bins, d *Dataset, bd *Binned) {
	t.Helper()
	for f, col := range d.Cols {
		u := b.Upper[f]
		if bd.NumBins[f] != len(u) {
			t.Fatalf("feature %d: NumBins %d, want %d", f+1, bd.NumBins[f], len(u))
		}
		for i, v := range col {
			code := bd.Codes[f][i]
			if int(code) != linearCode(u, v) {
				t.Fatalf("feature %d: value %g has code %d, want %d (bounds %v)", f+1, v, code, linearCode(u, v), u)
			}
			if v != v {
				continue
			}
			for c := range len(u) {
				if (int(code) <= c) != (v <= b.Threshold(f, uint8(c))) {
					t.Fatalf("feature %d: value %g, code %d, split %d at %g disagree", f+1, v, code, c, b.Threshold(f, uint8(c)))
				}
			}
		}
	}
}

func TestComputeBinsHandMade(t *testing.T) {
	tests := []struct {
		name    string
		col     []float32
		maxBins int
		upper   []float32
		codes   []uint8
	}{
		{"one bin per distinct value", []float32{3, 1, 2, 2, 5}, 4,
			[]float32{1.5, 2.5, 4, inf32}, []uint8{2, 0, 1, 1, 3}},
		{"distinct values equal to maxBins", []float32{0, 1, 2}, 3,
			[]float32{0.5, 1.5, inf32}, []uint8{0, 1, 2}},
		{"negative values", []float32{-1, -5, -3, -5}, 255,
			[]float32{-4, -2, inf32}, []uint8{2, 0, 1, 0}},
		{"constant feature", []float32{7, 7, 7}, 16, []float32{inf32}, []uint8{0, 0, 0}},
		{"all zeros", []float32{0, 0}, 2, []float32{inf32}, []uint8{0, 0}},
		{"no documents", []float32{}, 16, []float32{inf32}, []uint8{}},
		{"maxBins 2, equal counts", []float32{4, 3, 2, 1}, 2, []float32{2.5, inf32}, []uint8{1, 1, 0, 0}},
		{"maxBins 2, a big value", []float32{5, 1, 2, 1, 1, 1, 3, 4}, 2, []float32{1.5, inf32}, []uint8{1, 0, 1, 0, 0, 0, 1, 1}},
		{"maxBins 3, zeros in the middle", []float32{0, -2, 0, 0, 1, 0, 0, -1, 0, 2, 0, 0}, 3,
			[]float32{-0.5, 0.5, inf32}, []uint8{1, 0, 1, 1, 2, 1, 1, 0, 1, 2, 1, 1}},
		{"equal counts in three bins", []float32{10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 11}, 3,
			[]float32{3.5, 7.5, inf32}, []uint8{2, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0, 2}},
		{"infinities", []float32{float32(math.Inf(-1)), 0, inf32}, 8,
			[]float32{float32(math.Inf(-1)), math.MaxFloat32, inf32}, []uint8{0, 1, 2}},
		{"NaN is ignored, then coded last", []float32{1, float32(math.NaN()), 2}, 8,
			[]float32{1.5, inf32}, []uint8{0, 1, 1}},
		{"negative zero equals zero", []float32{float32(math.Copysign(0, -1)), 0, 1}, 8,
			[]float32{0.5, inf32}, []uint8{0, 0, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := binTestData(tc.col)
			b := ComputeBins(d, tc.maxBins)
			if !reflect.DeepEqual(b.Upper[0], tc.upper) {
				t.Errorf("Upper = %v, want %v", b.Upper[0], tc.upper)
			}
			bd, err := b.Apply(d)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(bd.Codes[0], tc.codes) {
				t.Errorf("codes = %v, want %v", bd.Codes[0], tc.codes)
			}
		})
	}
}

func TestBinEdge(t *testing.T) {
	one := float32(1)
	tests := []struct {
		a, b, want float32
	}{
		{1, 2, 1.5},
		{-2, -1, -1.5},
		{-1, 1, 0},
		{one, math.Nextafter32(one, 2), one}, // no float32 between: round down to a
		{0, math.SmallestNonzeroFloat32, 0},
		{math.MaxFloat32, inf32, math.MaxFloat32},
		{1, inf32, math.MaxFloat32},
		{float32(math.Inf(-1)), 1, float32(math.Inf(-1))},
		{float32(math.Inf(-1)), inf32, float32(math.Inf(-1))},
	}
	for _, tc := range tests {
		if got := binEdge(tc.a, tc.b); got != tc.want {
			t.Errorf("binEdge(%g, %g) = %g, want %g", tc.a, tc.b, got, tc.want)
		}
	}
	// On random neighbours the edge is the midpoint rounded down.
	r := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		a := float32(r.NormFloat64() * math.Pow(10, float64(r.IntN(20)-10)))
		b := a + float32(r.ExpFloat64()*math.Pow(10, float64(r.IntN(20)-10)))
		if !(a < b) {
			continue
		}
		e := binEdge(a, b)
		m := (float64(a) + float64(b)) / 2
		if !(a <= e && e < b && float64(e) <= m && float64(math.Nextafter32(e, inf32)) > m) {
			t.Fatalf("binEdge(%g, %g) = %g: not the midpoint %g rounded down", a, b, e, m)
		}
	}
}

// A value held by exactly total/maxBins documents is big and gets a bin of
// its own: 12 documents, 3 bins, the mean 4, and the value 3 has 4; the
// rest share the other two bins, 1 and 2 below it, 4 to 9 above.
func TestComputeBinsBigValueAtMean(t *testing.T) {
	inf := float32(math.Inf(1))
	d := binTestData([]float32{1, 2, 3, 3, 3, 3, 4, 5, 6, 7, 8, 9})
	if got, want := ComputeBins(d, 3).Upper[0], []float32{2.5, 3.5, inf}; !reflect.DeepEqual(got, want) {
		t.Errorf("Upper = %v, want %v", got, want)
	}
}

func TestComputeBinsBigValueOwnBin(t *testing.T) {
	// 90% zeros between negative and positive values: the zeros get a bin
	// of their own and the others share the remaining bins evenly.
	r := rand.New(rand.NewPCG(3, 4))
	col := make([]float32, 10000)
	for i := range 1000 {
		v := float32(r.Float64() + 0.001)
		if i%2 == 0 {
			v = -v
		}
		col[r.IntN(len(col))] = v
	}
	d := binTestData(col)
	for _, maxBins := range []int{3, 4, 16, 255} {
		b := ComputeBins(d, maxBins)
		u := b.Upper[0]
		if len(u) > maxBins {
			t.Errorf("maxBins %d: %d bins", maxBins, len(u))
		}
		z := linearCode(u, 0)
		if u[z] < 0 || z > 0 && u[z-1] >= 0 {
			t.Fatalf("maxBins %d: zero is not at a bin edge: bin %d of %v", maxBins, z, u)
		}
		for _, v := range col {
			if v != 0 && linearCode(u, v) == z {
				t.Errorf("maxBins %d: %g shares the bin of zero: %v", maxBins, v, u)
				break
			}
		}
		bd, err := b.Apply(d)
		if err != nil {
			t.Fatal(err)
		}
		checkBinned(t, b, d, bd)
	}
}

func TestComputeBinsQuantiles(t *testing.T) {
	// 10000 distinct values into 10 bins: exactly 1000 in each.
	col := make([]float32, 10000)
	for i := range col {
		col[i] = float32(len(col) - i)
	}
	b := ComputeBins(binTestData(col), 10)
	want := []float32{1000.5, 2000.5, 3000.5, 4000.5, 5000.5, 6000.5, 7000.5, 8000.5, 9000.5, inf32}
	if !reflect.DeepEqual(b.Upper[0], want) {
		t.Errorf("Upper = %v, want %v", b.Upper[0], want)
	}

	// Random continuous values into 255 bins: every bin is used and none
	// holds more than twice its share.
	r := rand.New(rand.NewPCG(5, 6))
	col = make([]float32, 100000)
	for i := range col {
		col[i] = float32(r.NormFloat64())
	}
	d := binTestData(col)
	b = ComputeBins(d, 255)
	bd, err := b.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	if bd.NumBins[0] != 255 {
		t.Errorf("%d bins, want 255", bd.NumBins[0])
	}
	counts := make([]int, bd.NumBins[0])
	for _, c := range bd.Codes[0] {
		counts[c]++
	}
	share := len(col) / 255
	for c, n := range counts {
		if n == 0 || n > 2*share {
			t.Errorf("bin %d holds %d values, want about %d", c, n, share)
		}
	}
}

// binRandomData makes columns of several shapes: continuous, few distinct
// values, mostly zeros, negative integers, and values with NaNs.
func binRandomData(r *rand.Rand, n int) *Dataset {
	cols := make([][]float32, 6)
	for f := range cols {
		cols[f] = make([]float32, n)
	}
	for i := range n {
		cols[0][i] = float32(r.NormFloat64() * 100)
		cols[1][i] = float32(r.IntN(5)) / 4
		if r.IntN(10) == 0 {
			cols[2][i] = float32(r.ExpFloat64())
		}
		cols[3][i] = -float32(r.IntN(1000))
		cols[4][i] = float32(math.Round(r.NormFloat64()*1000) / 1000)
		if r.IntN(50) == 0 {
			cols[4][i] = float32(math.NaN())
		}
		cols[5][i] = 3
	}
	return binTestData(cols...)
}

func TestBinsThresholdProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	train := binRandomData(r, 5000)
	other := binRandomData(r, 3000) // another sample, with values the training set lacks
	for i := range other.Cols[0][:100] {
		other.Cols[0][i] *= 10 // beyond the training range
	}
	for _, maxBins := range []int{2, 3, 16, 255} {
		b := ComputeBins(train, maxBins)
		for f, u := range b.Upper {
			if len(u) > maxBins || u[len(u)-1] != inf32 {
				t.Errorf("maxBins %d, feature %d: bounds %v", maxBins, f+1, u)
			}
		}
		for _, d := range []*Dataset{train, other} {
			bd, err := b.Apply(d)
			if err != nil {
				t.Fatal(err)
			}
			checkBinned(t, b, d, bd)
		}
	}
}

func TestComputeBinsGOMAXPROCS(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	d := binRandomData(r, 150000)
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	b1 := ComputeBins(d, 255)
	bd1, err := b1.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, procs := range []int{2, 5} {
		runtime.GOMAXPROCS(procs)
		b := ComputeBins(d, 255)
		if !reflect.DeepEqual(b, b1) {
			t.Errorf("GOMAXPROCS %d: bins differ from GOMAXPROCS 1", procs)
		}
		bd, err := b.Apply(d)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(bd, bd1) {
			t.Errorf("GOMAXPROCS %d: codes differ from GOMAXPROCS 1", procs)
		}
	}
}

func TestComputeBinsSample(t *testing.T) {
	// A large data set is binned on documents i*n/200000: the same edges as
	// binning a data set made of exactly those documents.
	r := rand.New(rand.NewPCG(11, 12))
	n := 300001
	big := binRandomData(r, n)
	small := make([][]float32, len(big.Cols))
	for f, col := range big.Cols {
		small[f] = make([]float32, binSampleDocs)
		for i := range small[f] {
			small[f][i] = col[int64(i)*int64(n)/binSampleDocs]
		}
	}
	if got, want := ComputeBins(big, 64), ComputeBins(binTestData(small...), 64); !reflect.DeepEqual(got, want) {
		t.Errorf("bins of the large data set differ from the bins of its sample")
	}
}

func TestBinTableAllLengths(t *testing.T) {
	// The search against the definition, for every number of edges and for
	// lengths that leave a remainder after the blocks of four.
	r := rand.New(rand.NewPCG(13, 14))
	src := make([]float32, 1003)
	for i := range src {
		src[i] = float32(r.IntN(600)) - 50
	}
	src[0] = float32(math.NaN())
	src[5] = float32(math.NaN())
	src[1002] = float32(math.NaN())
	src[1] = float32(math.Inf(-1))
	src[2] = inf32
	dst := make([]uint8, len(src))
	var tab binTable
	for nb := 1; nb <= MaxBins; nb++ {
		upper := make([]float32, nb)
		for i := range upper[:nb-1] {
			upper[i] = float32(2 * i)
		}
		upper[nb-1] = inf32
		tab.reset(upper[:nb-1])
		for _, n := range []int{len(src), 3, 0} {
			tab.codes(dst[:n], src[:n])
			for i, v := range src[:n] {
				if int(dst[i]) != linearCode(upper, v) {
					t.Fatalf("%d bins: value %g has code %d, want %d", nb, v, dst[i], linearCode(upper, v))
				}
			}
		}
	}
}

func TestBinTableSignedZeros(t *testing.T) {
	negZero := float32(math.Copysign(0, -1))
	tiny := float32(math.SmallestNonzeroFloat32)
	src := []float32{negZero, 0, -tiny, tiny, -1, 1, float32(math.Inf(-1)), inf32, float32(math.NaN()), float32(-math.NaN())}
	for _, upper := range [][]float32{
		{negZero, inf32},
		{0, inf32},
		{-tiny, negZero, tiny, inf32},
		{-1, -tiny, 0, tiny, 1, inf32},
		{float32(math.Inf(-1)), math.MaxFloat32, inf32},
	} {
		var tab binTable
		tab.reset(upper[:len(upper)-1])
		dst := make([]uint8, len(src))
		tab.codes(dst, src)
		for i, v := range src {
			if int(dst[i]) != linearCode(upper, v) {
				t.Errorf("bounds %v: value %g has code %d, want %d", upper, v, dst[i], linearCode(upper, v))
			}
		}
	}
}

func TestBinsApplyErrors(t *testing.T) {
	d := binTestData([]float32{1, 2}, []float32{3, 4})
	d.Name = "vali.txt"
	b := ComputeBins(d, 8)
	tests := []struct {
		name string
		bins *Bins
		data *Dataset
		want string
	}{
		{"more features", &Bins{Upper: b.Upper[:1]}, d,
			"data: vali.txt has 2 features but the bins are for 1; pad or cut the data set to 1 features"},
		{"fewer features", &Bins{Upper: append(b.Upper, []float32{inf32})}, d,
			"data: vali.txt has 2 features but the bins are for 3; pad or cut the data set to 3 features"},
		{"no bins", &Bins{Upper: [][]float32{{inf32}, {}}}, d,
			"data: feature 2 has 0 bins, expected 1 to 255"},
		{"ragged column", b, binTestData([]float32{1, 2}, []float32{3}),
			"data: the data set: feature 2 has 1 values for 2 documents"},
	}
	for _, tc := range tests {
		bd, err := tc.bins.Apply(tc.data)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: Apply = %v, %v; want error %q", tc.name, bd, err, tc.want)
		}
	}
}

func TestComputeBinsMaxBinsRange(t *testing.T) {
	for _, maxBins := range []int{0, 1, 256} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), "maxBins") {
					t.Errorf("maxBins %d: recovered %v, want a panic about maxBins", maxBins, r)
				}
			}()
			ComputeBins(binTestData([]float32{1}), maxBins)
		}()
	}
}

// binBenchData is an MSLR-shaped 200,000 x 136 data set: sparse, count-like,
// continuous and few-valued features.
func binBenchData() *Dataset {
	const n, nf = 200_000, 136
	r := rand.New(rand.NewPCG(2024, 136))
	cols := make([][]float32, nf)
	for f := range cols {
		col := make([]float32, n)
		for i := range col {
			switch f % 4 {
			case 0:
				if r.IntN(10) < 3 {
					col[i] = float32(r.ExpFloat64() * 10)
				}
			case 1:
				col[i] = float32(r.IntN(30))
			case 2:
				col[i] = float32(r.NormFloat64())
			default:
				col[i] = float32(r.IntN(4))
			}
		}
		cols[f] = col
	}
	return binTestData(cols...)
}

func BenchmarkApply(b *testing.B) {
	d := binBenchData()
	bins := ComputeBins(d, MaxBins)
	b.ResetTimer()
	for b.Loop() {
		if _, err := bins.Apply(d); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(d.NumDocs()*d.NumFeatures()), "ns/value")
}

func BenchmarkComputeBins(b *testing.B) {
	d := binBenchData()
	b.ResetTimer()
	for b.Loop() {
		ComputeBins(d, MaxBins)
	}
}

// The binning stops once its context is done (it took seconds on a large
// data set, and an interrupt waited for it).
func TestBinningCancelled(t *testing.T) {
	d := binRandomData(rand.New(rand.NewPCG(1, 2)), 1000)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if b, err := ComputeBinsContext(ctx, d, 255); !errors.Is(err, context.Canceled) || b != nil {
		t.Errorf("ComputeBinsContext: %v, %v; want nil, context.Canceled", b, err)
	}
	if bd, err := ComputeBins(d, 255).ApplyContext(ctx, d); !errors.Is(err, context.Canceled) || bd != nil {
		t.Errorf("ApplyContext: %v, %v; want nil, context.Canceled", bd, err)
	}
}
