package tree

import (
	"math"
	"testing"
)

// FuzzHist4: on any codes and gradient pairs, the assembly histogram
// kernels (in order, scattered, and in place from wide rows) give the Go
// kernels' sums bit for bit. Each document takes 6 bytes: 4 codes, then a
// gradient and a hessian (a byte each, scaled, with 0x80 a negative zero);
// the documents with an odd first code are the scattered subset. wide picks
// the row width (4, 8 or 12 bytes) of the in-place kernel.
func FuzzHist4(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 10, 20, 0, 1, 2, 3, 250, 5, 255, 255, 255, 255, 0x80, 0x80}, false, uint8(0))
	f.Add(make([]byte, 6*70), true, uint8(1))
	f.Add([]byte("the histogram of a fuzzed group of four features, forty-odd docs long, repeating bins"), false, uint8(2))
	f.Fuzz(func(t *testing.T, raw []byte, unit bool, wide uint8) {
		if !haveHistAsm {
			t.Skip("no assembly histogram kernels on this machine")
		}
		n := len(raw) / 6
		rows := make([]uint8, 4*n)
		gh := make([]GradPair, n)
		var idx []int32
		var gho []GradPair
		val := func(b byte) float32 {
			if b == 0x80 {
				return float32(math.Copysign(0, -1))
			}
			return float32(int8(b)) / 8
		}
		for i := range n {
			b := raw[6*i:]
			copy(rows[4*i:], b[:4])
			gh[i] = GradPair{G: val(b[4]), H: 1}
			if !unit {
				gh[i].H = val(b[5])
			}
			if b[0]%2 == 1 {
				idx, gho = append(idx, int32(i)), append(gho, gh[i])
			}
		}
		same := func(what string, a, b []hbin) {
			for i := range a {
				if math.Float64bits(a[i].G) != math.Float64bits(b[i].G) || math.Float64bits(a[i].H) != math.Float64bits(b[i].H) || a[i].N != b[i].N {
					t.Fatalf("%s: bin %d is %+v, the Go kernel's %+v", what, i, b[i], a[i])
				}
			}
		}
		for _, all := range []bool{true, false} {
			ids, pairs := idx, gho
			if all {
				ids, pairs = nil, gh
			}
			want, got := make([]hbin, 4*256), make([]hbin, 4*256)
			buildGroup4Go(want, rows, ids, pairs, all, unit)
			buildGroup4(got, rows, ids, pairs, all, unit)
			same(map[bool]string{true: "in order", false: "scattered"}[all], want, got)
		}
		// The in-place kernel on rows of width bytes: the documents' codes
		// repeated across the row's groups, shifted by the group.
		width := 4 * (1 + int(wide)%3)
		wrows := make([]uint8, width*n)
		for i := range n {
			for k := range width {
				wrows[i*width+k] = rows[4*i+k%4] + uint8(k/4)
			}
		}
		want, got := make([]hbin, width*256), make([]hbin, width*256)
		buf := make([]uint32, width/4*chunkDocs)
		defer func() { haveHistAsm = true }()
		haveHistAsm = false
		buildScattered(want, wrows, width, idx, gho, buf, unit, nil)
		haveHistAsm = true
		buildScattered(got, wrows, width, idx, gho, buf, unit, nil)
		same("in place", want, got)
		// Narrow groups: each group of 4 whose codes stay below 129 gets
		// as many bins per feature as its largest code needs; its bins are
		// the full layout's first ones, with the kernels and without.
		strides := make([]int, width/4)
		total := 0
		for q := range strides {
			most := 1
			for i := range n {
				for k := range 4 {
					most = max(most, int(wrows[i*width+4*q+k])+1)
				}
			}
			strides[q] = 256
			if most <= narrowBins {
				strides[q] = most
			}
			total += 4 * strides[q]
		}
		for _, asm := range []bool{false, true} {
			haveHistAsm = asm
			narrow := make([]hbin, total)
			buildScattered(narrow, wrows, width, idx, gho, buf, unit, strides)
			full := make([]hbin, 0, width*256)
			for q, s := range strides {
				for k := range 4 {
					full = append(full, want[(4*q+k)*256:][:s]...)
				}
			}
			same(map[bool]string{true: "narrow, assembly", false: "narrow, Go"}[asm], full, narrow)
		}
	})
}
