package data

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// sortFloat32s against slices.Sort on values drawn from several worlds
// (wide range, few distinct values, all equal, ±0, ±Inf, subnormals), at
// lengths on both sides of the insertion-sort cut-off.
func TestSortFloat32s(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	special := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
		math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, math.MaxFloat32, -math.MaxFloat32, 1, -1}
	gens := map[string]func() float32{
		"normal":   func() float32 { return float32(r.NormFloat64() * 1e3) },
		"few":      func() float32 { return float32(r.IntN(5)) - 2 },
		"same":     func() float32 { return 0.25 },
		"special":  func() float32 { return special[r.IntN(len(special))] },
		"mixed":    func() float32 { return float32(r.ExpFloat64()) * float32(1-2*r.IntN(2)) },
		"positive": func() float32 { return r.Float32() },
	}
	var tmp []float32
	for name, gen := range gens {
		for _, n := range []int{0, 1, 7, 255, 256, 257, 1000, 70_000} {
			vals := make([]float32, n)
			for i := range vals {
				vals[i] = gen()
			}
			want := slices.Clone(vals)
			slices.Sort(want)
			bitsBefore := sortedBits(vals)
			tmp = sortFloat32s(vals, tmp)
			for i := range vals {
				if vals[i] != want[i] {
					t.Fatalf("%s, n=%d: at %d got %g, want %g", name, n, i, vals[i], want[i])
				}
			}
			if !slices.Equal(sortedBits(vals), bitsBefore) {
				t.Fatalf("%s, n=%d: the values changed, not just their order", name, n)
			}
		}
	}
}

func sortedBits(vals []float32) []uint32 {
	b := make([]uint32, len(vals))
	for i, v := range vals {
		b[i] = math.Float32bits(v)
	}
	slices.Sort(b)
	return b
}

// FuzzSortFloat32s: any bytes, read as float32s (NaNs dropped, as
// ComputeBins drops them), sort as slices.Sort sorts them.
func FuzzSortFloat32s(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0x80, 0, 0, 0, 0, 0, 0, 0x80, 0x3f})
	f.Add(make([]byte, 4*300))
	f.Fuzz(func(t *testing.T, b []byte) {
		var vals []float32
		for i := 0; i+4 <= len(b); i += 4 {
			v := math.Float32frombits(uint32(b[i]) | uint32(b[i+1])<<8 | uint32(b[i+2])<<16 | uint32(b[i+3])<<24)
			if v == v {
				vals = append(vals, v)
			}
		}
		want := slices.Clone(vals)
		slices.Sort(want)
		sortFloat32s(vals, nil)
		for i := range vals {
			if vals[i] != want[i] {
				t.Fatalf("at %d: %g, want %g", i, vals[i], want[i])
			}
		}
	})
}
