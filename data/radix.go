package data

import (
	"math"
	"slices"
)

// sortFloat32s sorts vals (no NaN) ascending, using tmp (grown as needed,
// returned for reuse) as scratch. It is an LSD radix sort over the bits of
// the values, turned into unsigned keys that order as the floats do, four
// passes of 8 bits: several times faster than a comparison sort on the
// 200,000-value columns ComputeBins sorts. -0 and +0, which ComputeBins
// treats as one value, come in either order below 256 values (slices.Sort);
// the radix passes put -0 first.
func sortFloat32s(vals, tmp []float32) []float32 {
	n := len(vals)
	if n < 256 {
		slices.Sort(vals)
		return tmp
	}
	if cap(tmp) < n {
		tmp = make([]float32, n)
	}
	tmp = tmp[:n]
	var counts [4][256]int
	for _, v := range vals {
		k := floatKey(v)
		counts[0][k&0xff]++
		counts[1][k>>8&0xff]++
		counts[2][k>>16&0xff]++
		counts[3][k>>24]++
	}
	src, dst := vals, tmp
	for pass := range 4 {
		c := &counts[pass]
		if c[floatKey(src[0])>>(8*pass)&0xff] == n {
			continue // every key has the same byte here
		}
		at := 0
		for b := range c {
			at, c[b] = at+c[b], at
		}
		shift := 8 * pass
		for _, v := range src {
			b := floatKey(v) >> shift & 0xff
			dst[c[b]] = v
			c[b]++
		}
		src, dst = dst, src
	}
	if &src[0] != &vals[0] {
		copy(vals, src)
	}
	return tmp
}

// floatKey maps a float32 to a uint32 that orders as the float does:
// negative values have every bit flipped, others only the sign bit.
func floatKey(v float32) uint32 {
	u := math.Float32bits(v)
	if u>>31 != 0 {
		return ^u
	}
	return u | 1<<31
}
