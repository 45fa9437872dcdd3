package cronus

import "golang.org/x/sys/cpu"

// gramHaveFMA reports whether the CPU (and the OS, for the YMM registers)
// supports AVX2 and FMA, which gramDot4x3 needs.
var gramHaveFMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// gramHardwareFMA reports whether math.FMA is an instruction here (else
// Go computes it in software, many times slower).
var gramHardwareFMA = cpu.X86.HasFMA

// gramDot4x3 sets out[4j+i] = Σ_{q<n} a[i][q]·b[j][q] for the columns a[0…3]
// and b[0…2], which must each have n readable entries; n must be a multiple
// of 4. Each sum is taken in 4 lanes (lane l adds the documents q ≡ l mod 4
// in order, one fused multiply-add each), then (l0+l1)+(l2+l3). AVX2 and
// FMA: call it only when gramHaveFMA.
//
//go:noescape
func gramDot4x3(a *[4]*float64, b *[3]*float64, n int, out *[12]float64)

// gramHaveAVX512 reports whether the CPU (and the OS, for the ZMM
// registers) supports AVX-512 F and VL, which gramDot8x3 needs besides AVX2
// and FMA (VL for its moves from Y16…Y27, EVEX.256 encodings).
var gramHaveAVX512 = gramHaveFMA && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL

// gramDot8x3 is gramDot4x3 on the columns a[0…7] at once: out[0…11] are
// gramDot4x3's of a[0…3] and out[12…23] those of a[4…7], bit for bit (the
// same lanes and sums, two to a ZMM register). AVX-512: call it only when
// gramHaveAVX512.
//
//go:noescape
func gramDot8x3(a *[8]*float64, b *[3]*float64, n int, out *[24]float64)
