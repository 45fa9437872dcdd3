package data

import (
	"math"
	"testing"
)

// TestConstant: a data set is constant when no feature has two values
// other than NaN, which binning puts in the bin of the largest values
// (checked here against the bins themselves: one bin, no split).
func TestConstant(t *testing.T) {
	nan := float32(math.NaN())
	for _, c := range []struct {
		name string
		cols [][]float32
		want bool
	}{
		{"no features", nil, true},
		{"no documents", [][]float32{{}}, true},
		{"one value", [][]float32{{2, 2, 2}, {0, 0, float32(math.Copysign(0, -1))}}, true},
		{"one value and NaN", [][]float32{{nan, 3, nan, 3}}, true},
		{"NaN only", [][]float32{{nan, nan}}, true},
		{"second feature varies", [][]float32{{1, 1, 1}, {1, 1, 2}}, false},
		{"after a NaN", [][]float32{{nan, 1, 2}}, false},
	} {
		d := binTestData(c.cols...)
		if got := d.Constant(); got != c.want {
			t.Errorf("%s: Constant() = %v, want %v", c.name, got, c.want)
		}
		if len(c.cols) == 0 || len(c.cols[0]) == 0 {
			continue
		}
		// Independently: a feature can be split on only if it has two bins
		// holding documents.
		b := ComputeBins(d, 255)
		bd, err := b.Apply(d)
		if err != nil {
			t.Fatal(err)
		}
		splittable := false
		for f := range c.cols {
			codes := bd.Codes[f]
			for _, v := range codes {
				if v != codes[0] {
					splittable = true
				}
			}
		}
		if splittable == c.want {
			t.Errorf("%s: the bins say splittable %v, Constant() %v", c.name, splittable, c.want)
		}
	}
}
