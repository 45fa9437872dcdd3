//go:build !amd64

package cronus

// gramHaveFMA is false off amd64: Gram always takes gonum's Dgemv.
const gramHaveFMA = false

// gramDot4x3 is only implemented in assembly on amd64; Gram never calls it
// here, as gramHaveFMA is false.
func gramDot4x3(a *[4]*float64, b *[3]*float64, n int, out *[12]float64) {
	panic("cronus: gramDot4x3 without AVX2 and FMA")
}
