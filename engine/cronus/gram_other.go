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
