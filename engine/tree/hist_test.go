package tree

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// histCase is random input for one group's histogram: nDocs rows of 4 codes
// (drawn from few values, so that neighbouring documents often hit the same
// bin, as in the store-to-load chains of real data), their gradient pairs
// (hessians of 1 when unit), and a sorted scattered subset idx with the
// pairs of its documents in order (gho).
func histCase(r *rand.Rand, nDocs int, unit bool) (rows []uint8, gh []GradPair, idx []int32, gho []GradPair) {
	rows = make([]uint8, 4*nDocs)
	spread := 1 + r.IntN(256)
	for i := range rows {
		rows[i] = uint8(r.IntN(spread))
	}
	gh = make([]GradPair, nDocs)
	for i := range gh {
		gh[i] = GradPair{G: float32(r.NormFloat64()), H: 1}
		if !unit {
			gh[i].H = r.Float32() * 2
		}
	}
	for i := range nDocs {
		if r.IntN(3) == 0 {
			idx = append(idx, int32(i))
			gho = append(gho, gh[i])
		}
	}
	return rows, gh, idx, gho
}

// The assembly kernels give the Go kernels' histograms bit for bit, on
// every document in order and on a scattered subset, with and without
// counts, for lengths around the prefetch distance and the unrolling.
func TestHistKernelsMatchGo(t *testing.T) {
	if !haveHistAsm {
		t.Skip("no assembly histogram kernels on this machine")
	}
	r := rand.New(rand.NewPCG(4, 4))
	for _, n := range []int{0, 1, 2, 7, 8, 9, 31, 32, 33, 40, 97, 100, 1000, 5003} {
		for _, unit := range []bool{true, false} {
			rows, gh, idx, gho := histCase(r, n, unit)
			for _, all := range []bool{true, false} {
				ids, pairs := idx, gho
				if all {
					ids, pairs = nil, gh
				}
				want := make([]hbin, 4*256)
				got := make([]hbin, 4*256)
				// Start from a non-zero histogram: the kernels add to it.
				for i := range want {
					want[i] = hbin{G: float64(i), H: 0.5, N: int64(i % 3)}
				}
				copy(got, want)
				buildGroup4Go(want, rows, ids, pairs, all, unit)
				buildGroup4(got, rows, ids, pairs, all, unit)
				if !reflect.DeepEqual(got, want) {
					for i := range got {
						if got[i] != want[i] {
							t.Fatalf("n=%d unit=%v all=%v: bin %d is %+v, the Go kernel's %+v", n, unit, all, i, got[i], want[i])
						}
					}
				}
			}
		}
	}
}

// buildScattered gives the same histograms with the assembly kernel (codes
// read in place from the wide rows, a chunk at a time) as with the Go
// gather, for wide rows of 1, 2 and 17 groups and leaves around the chunk
// sizes.
func TestScatteredMatchesGo(t *testing.T) {
	if !haveHistAsm {
		t.Skip("no assembly histogram kernels on this machine")
	}
	defer func() { haveHistAsm = true }()
	r := rand.New(rand.NewPCG(6, 6))
	for _, width := range []int{4, 8, 68} {
		for _, n := range []int{1, 33, 511, 512, 513, 1025, 3000} {
			for _, unit := range []bool{true, false} {
				rows, gh, _, _ := histCase(r, n*width/4, unit)
				gh = gh[:n]
				idx := make([]int32, 0, n)
				for i := range n {
					if r.IntN(2) == 0 || len(idx) == 0 {
						idx = append(idx, int32(i))
					}
				}
				gho := make([]GradPair, len(idx))
				for j, i := range idx {
					gho[j] = gh[i]
				}
				want := make([]hbin, width*256)
				got := make([]hbin, width*256)
				buf := make([]uint32, width/4*chunkDocs)
				haveHistAsm = false
				buildScattered(want, rows, width, idx, gho, buf, unit, nil)
				haveHistAsm = true
				buildScattered(got, rows, width, idx, gho, buf, unit, nil)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("width %d, %d documents, unit=%v: the histograms differ", width, len(idx), unit)
				}
			}
		}
	}
}

// Trees grown with the assembly kernels are the Go kernels' trees, with
// hessians of 1 and varied ones, on all documents and on a row subset (whose
// small leaves take buildScattered).
func TestGrowSameWithoutAsm(t *testing.T) {
	if !haveHistAsm {
		t.Skip("no assembly histogram kernels on this machine")
	}
	defer func() { haveHistAsm = true }()
	r := rand.New(rand.NewPCG(5, 5))
	n := 40000
	cols := make([][]float32, 11)
	for f := range cols {
		cols[f] = make([]float32, n)
		for i := range cols[f] {
			cols[f][i] = float32(r.IntN(3 + 50*f))
		}
	}
	var rows []int32
	for i := 0; i < n; i += 3 {
		rows = append(rows, int32(i))
	}
	d := dataset(cols)
	for _, unit := range []bool{true, false} {
		gh := make([]GradPair, n)
		for i := range gh {
			gh[i] = GradPair{G: cols[2][i] - cols[7][i]/3 + float32(r.NormFloat64()*20), H: 1}
			if !unit {
				gh[i].H = 0.1 + r.Float32()
			}
		}
		for _, rs := range [][]int32{nil, rows} {
			p := GrowParams{MaxLeaves: 63, MinDocs: 5, MinHess: 1e-3, Lambda: 1}
			a := grower(t, d, p, 2).Grow(gh, rs, nil, nil)
			haveHistAsm = false
			b := grower(t, d, p, 2).Grow(gh, rs, nil, nil)
			haveHistAsm = true
			if !reflect.DeepEqual(a, b) {
				t.Errorf("unit=%v rows=%v: the tree differs from the Go kernels'", unit, rs != nil)
			}
			if len(a.Leaves) < 40 {
				t.Errorf("unit=%v: only %d leaves, too few to test much", unit, len(a.Leaves))
			}
		}
	}
}

// BenchmarkHist4 runs one group's histogram kernel over 200,000 documents
// (codes drawn from all 256 values), in order (seq) and over every third
// document (idx), with hessians of 1 (unit) and not, in Go and, where the
// CPU has AVX, in assembly.
func BenchmarkHist4(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 200000
	rows := make([]uint8, 4*n)
	for i := range rows {
		rows[i] = uint8(r.IntN(256))
	}
	for _, unit := range []bool{true, false} {
		gh := make([]GradPair, n)
		for i := range gh {
			gh[i] = GradPair{G: r.Float32(), H: 1}
			if !unit {
				gh[i].H = r.Float32()
			}
		}
		var idx []int32
		var gho []GradPair
		for i := 0; i < n; i += 3 {
			idx, gho = append(idx, int32(i)), append(gho, gh[i])
		}
		h := make([]hbin, 4*256)
		for _, all := range []bool{true, false} {
			for _, asm := range []bool{false, true} {
				if asm && !haveHistAsm {
					continue
				}
				name := map[bool]string{true: "unit", false: "varied"}[unit] + "/" +
					map[bool]string{true: "seq", false: "idx"}[all] + "/" + map[bool]string{true: "asm", false: "go"}[asm]
				ids, pairs := idx, gho
				if all {
					ids, pairs = nil, gh
				}
				b.Run(name, func(b *testing.B) {
					for b.Loop() {
						if asm {
							buildGroup4(h, rows, ids, pairs, all, unit)
						} else {
							buildGroup4Go(h, rows, ids, pairs, all, unit)
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(pairs)), "ns/doc")
				})
			}
		}
	}
}
