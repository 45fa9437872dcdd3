package tree

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"unsafe"

	"github.com/cronus-ltr/cronus/data"
	"math/rand/v2"
	"reflect"
	"testing"
)

// narrowCols is a data set of n documents whose features have few values
// (2, 3, 5, 17, 100) and many (more than narrowBins: 1,000 and 100,000),
// mixed so that some groups of 4 are narrow and some are not, and 23 of
// them (not a multiple of 4: padding), and gradient pairs that depend on a
// few of them.
func narrowCols(r *rand.Rand, n int, unit bool) ([][]float32, []GradPair) {
	values := []int{2, 3, 5, 17, 100, 2, 2, 3, 1000, 2, 5, 100000, 17, 2, 2, 2, 100, 100, 100, 100, 3, 7000, 2}
	cols := make([][]float32, len(values))
	for f, v := range values {
		cols[f] = make([]float32, n)
		for i := range cols[f] {
			cols[f][i] = float32(r.IntN(v))
		}
	}
	gh := make([]GradPair, n)
	for i := range gh {
		gh[i] = GradPair{G: cols[1][i] - cols[4][i]/30 + cols[8][i]/300 - cols[13][i] + float32(r.NormFloat64()), H: 1}
		if !unit {
			gh[i].H = 0.1 + r.Float32()
		}
	}
	return cols, gh
}

// Narrow histograms (groups of few-valued features given as many bins as
// they have, not 256) grow the trees of the full ones bit for bit: on all
// documents and on a row subset (whose small leaves take buildScattered),
// with hessians of 1 and not, on one worker and two, with the assembly
// kernels and without.
func TestNarrowGroupsSameTrees(t *testing.T) {
	defer func(a int64, asm bool) { narrowAbove, haveHistAsm = a, asm }(narrowAbove, haveHistAsm)
	r := rand.New(rand.NewPCG(7, 7))
	n := 20000
	var rows []int32
	for i := 0; i < n; i += 3 {
		rows = append(rows, int32(i))
	}
	// Column samples (--col-sample) that skip whole groups, narrow and
	// full, of 4 features and of the workers' wide ones (the second skips
	// the first wide group of 3 workers).
	subset := []int{1, 4, 8, 11, 13, 21}
	late := []int{8, 11, 13, 21}
	asms := []bool{false}
	if haveHistAsm {
		asms = append(asms, true)
	}
	for _, unit := range []bool{true, false} {
		cols, gh := narrowCols(r, n, unit)
		d := dataset(cols)
		for _, workers := range []int{1, 2, 3} {
			for _, asm := range asms {
				haveHistAsm = asm
				for _, c := range []struct {
					rows     []int32
					features []int
				}{{nil, nil}, {rows, nil}, {nil, subset}, {rows, subset}, {nil, late}, {rows, late}} {
					rs := c.rows
					p := GrowParams{MaxLeaves: 63, MinDocs: 5, MinHess: 1e-3, Lambda: 1}
					narrowAbove = 64 << 20
					full := grower(t, d, p, workers)
					narrowAbove = -1
					narrow := grower(t, d, p, workers)
					if full.total != 256*(len(full.off)-1) {
						t.Fatalf("the full histogram has %d bins for %d features", full.total, len(full.off)-1)
					}
					wide, thin := 0, 0
					for _, s := range narrow.stride {
						if s == 256 {
							wide++
						} else {
							thin++
						}
					}
					if wide == 0 || thin == 0 || narrow.total >= full.total {
						t.Fatalf("strides %v: want both narrow and full groups, and a smaller histogram (%d bins, full %d)", narrow.stride, narrow.total, full.total)
					}
					a := full.Grow(gh, rs, c.features, nil)
					b := narrow.Grow(gh, rs, c.features, nil)
					if !reflect.DeepEqual(a, b) {
						t.Errorf("unit=%v workers=%d asm=%v rows=%v features=%v: the narrow histograms grow another tree", unit, workers, asm, rs != nil, c.features)
					}
					if len(a.Leaves) < 40 {
						t.Errorf("unit=%v: only %d leaves, too few to test much", unit, len(a.Leaves))
					}
					used := map[int32]bool{}
					for _, nd := range a.Nodes {
						used[nd.Feature] = true
					}
					if !used[13] || c.features == nil && !used[1] {
						t.Errorf("unit=%v: the tree does not split on the narrow features 2 and 14 (%v)", unit, used)
					}
				}
			}
		}
	}
}

// buildGroupNarrow's bins are buildGroup4Go's first stride bins of each
// feature, bit for bit, in order and scattered, with and without counts.
func TestBuildGroupNarrowMatchesGo(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	for _, n := range []int{0, 1, 9, 100, 3001} {
		for _, stride := range []int{1, 2, 5, 128} {
			for _, unit := range []bool{true, false} {
				rows, gh, idx, gho := histCase(r, n, unit)
				for i := range rows {
					rows[i] %= uint8(stride)
				}
				for _, all := range []bool{true, false} {
					ids, pairs := idx, gho
					if all {
						ids, pairs = nil, gh
					}
					want := make([]hbin, 4*256)
					buildGroup4Go(want, rows, ids, pairs, all, unit)
					got := make([]hbin, 4*stride)
					buildGroupNarrow(got, stride, rows, 4, 0, ids, pairs, all, unit)
					for k := range 4 {
						for c := range stride {
							if got[k*stride+c] != want[k*256+c] {
								t.Fatalf("n=%d stride=%d unit=%v all=%v: feature %d bin %d is %+v, buildGroup4Go's %+v", n, stride, unit, all, k, c, got[k*stride+c], want[k*256+c])
							}
						}
					}
				}
			}
		}
	}
}

// A million features of two values each on 8 documents: a histogram of
// 256 bins a feature would be 5.7 GiB (and training kept two or more: a
// 9 MB file took 12 GB); narrow, it is 2 bins a feature, and a tree splits
// on the one feature that separates the gradients.
func TestNarrowMillionFeatures(t *testing.T) {
	if testing.Short() {
		t.Skip("lays out a million features")
	}
	const d, n = 1_000_000, 8
	codes := make([]uint8, d*n)
	b := &data.Binned{Codes: make([][]uint8, d), NumBins: make([]int, d)}
	bins := &data.Bins{Upper: make([][]float32, d)}
	two := []float32{0, float32(math.Inf(1))}
	for f := range d {
		b.Codes[f] = codes[f*n : (f+1)*n]
		b.NumBins[f] = 2
		bins.Upper[f] = two
	}
	const key = 765_432
	gh := make([]GradPair, n)
	for i := range n {
		gh[i] = GradPair{G: 1, H: 1}
		if i%2 == 0 {
			b.Codes[key][i] = 1
			gh[i].G = -1
		}
	}
	g := NewGrower(b, bins, GrowParams{MaxLeaves: 4, MinDocs: 1, Lambda: 1}, 2)
	if bytes := int64(g.total) * int64(unsafe.Sizeof(hbin{})); bytes > 64<<20 {
		t.Fatalf("a histogram takes %d MiB", bytes>>20)
	}
	tr := g.Grow(gh, nil, nil, nil)
	if len(tr.Nodes) != 1 || tr.Nodes[0].Feature != key {
		t.Fatalf("the tree splits on %+v, want feature %d alone", tr.Nodes, key)
	}
}

// A grower whose two histograms and row-major codes need more memory than
// is available is refused with a HistMemoryError that counts both and
// says what would help: fewer documents only when the codes take the
// most, --max-bins only where narrow histograms are in use. One that
// fits, or where the memory available is not known, is not.
func TestGrowerRefusesWithoutMemory(t *testing.T) {
	defer func(f func() int64, a int64) { availableMemory, narrowAbove = f, a }(availableMemory, narrowAbove)
	r := rand.New(rand.NewPCG(9, 9))
	p := GrowParams{MaxLeaves: 8, MinDocs: 5, Lambda: 1}
	for _, c := range []struct {
		docs   int
		narrow bool
		way    string
	}{
		{20000, false, "use fewer features or documents"},
		{200, false, "use fewer features"},
		{200, true, "use fewer features, or --max-bins 128"},
	} {
		cols, _ := narrowCols(r, c.docs, true)
		d := dataset(cols)
		bins := data.ComputeBins(d, 255)
		b, err := bins.Apply(d)
		if err != nil {
			t.Fatal(err)
		}
		narrowAbove = 64 << 20
		if c.narrow {
			narrowAbove = -1
		}
		// 24 features (23 and a padding one) × 256 bins × 24 bytes × 2 =
		// 294,912 bytes of histograms, less when narrow; 2 × docs × 24
		// bytes of codes.
		g, err := NewGrowerContext(context.Background(), b, bins, p, 1)
		if err != nil {
			t.Fatal(err)
		}
		hist := int64(2 * g.total * 24)
		if c.narrow != (hist < 294_912) {
			t.Fatalf("%d documents, narrow %v: histograms of %d bytes", c.docs, c.narrow, hist)
		}
		need := hist + int64(2*c.docs*24)
		for _, avail := range []int64{0, need / 2, need - 1, need, 1 << 40} {
			availableMemory = func() int64 { return avail }
			_, err := NewGrowerContext(context.Background(), b, bins, p, 1)
			var me *HistMemoryError
			fails := avail > 0 && avail < need
			if got := errors.As(err, &me); got != fails {
				t.Fatalf("%d documents, available %d of %d: error %v", c.docs, avail, need, err)
			}
			if !fails {
				continue
			}
			if me.Hist != hist || me.Codes != int64(2*c.docs*24) || me.Features != 23 || me.Docs != c.docs || me.Wide != 3 {
				t.Errorf("%d documents, available %d: %+v", c.docs, avail, *me)
			}
			msg := err.Error()
			for _, s := range []string{fmt.Sprintf("training on %d documents × 23 features", c.docs), data.SizeString(hist), c.way} {
				if !strings.Contains(msg, s) {
					t.Errorf("%q does not say %q", msg, s)
				}
			}
			if !c.narrow && strings.Contains(msg, "--max-bins") {
				t.Errorf("%q offers --max-bins, which makes no histogram smaller here", msg)
			}
			if c.docs == 200 && strings.Contains(msg, "or documents") {
				t.Errorf("%q offers fewer documents, whose codes take the least", msg)
			}
		}
	}
}
