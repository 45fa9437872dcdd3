//go:build !amd64

package cronus

import "runtime"

// gramHaveFMA is false off amd64: Gram never takes gramDot4x3.
const gramHaveFMA = false

// gramHardwareFMA: math.FMA is an instruction on arm64 (FMADD), so Gram
// takes gramDot4x3Go there, with the sums of amd64's kernel; elsewhere
// gonum's Dgemv.
var gramHardwareFMA = runtime.GOARCH == "arm64"

// gramDot4x3 is only implemented in assembly on amd64; Gram never calls it
// here, as gramHaveFMA is false.
func gramDot4x3(a *[4]*float64, b *[3]*float64, n int, out *[12]float64) {
	panic("cronus: gramDot4x3 without AVX2 and FMA")
}

// gramHaveAVX512 is false off amd64: Gram never takes gramDot8x3.
const gramHaveAVX512 = false

// gramDot8x3 is only implemented in assembly on amd64; Gram never calls it
// here, as gramHaveAVX512 is false.
func gramDot8x3(a *[8]*float64, b *[3]*float64, n int, out *[24]float64) {
	panic("cronus: gramDot8x3 without AVX-512")
}
