package boost

import (
	"math"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// haveLambdaAsm reports whether the CPU (and the OS) support AVX, which
// lambdaPairs4 needs; without it query runs its Go loop alone. A variable,
// so that tests can compare the two.
var haveLambdaAsm = cpu.X86.HasAVX

// lambdaConsts are lambdaPairs4's operands that do not change along the
// partners of one document i, each broadcast to the four lanes.
type lambdaConsts struct {
	s, gain, e, l, disc     [4]float64 // document i's score, gain, exponential, label, discount
	inv, negSigma, sigma2   [4]float64 // 1/maxDCG, −σ, σ·σ
	abs, sign               [4]uint64  // all bits but the sign; the sign bit
	hundredth, one, negZero [4]float64
}

var negZero = math.Copysign(0, -1)

// setQuery fills the operands of c that hold for a whole query (inv, σ)
// and the constants.
func (c *lambdaConsts) setQuery(inv, sigma float64) {
	for k := range 4 {
		c.inv[k], c.negSigma[k], c.sigma2[k] = inv, -sigma, sigma*sigma
		c.abs[k], c.sign[k] = 1<<63-1, 1<<63
		c.hundredth[k], c.one[k], c.negZero[k] = 0.01, 1, negZero
	}
}

// setDoc fills the operands of c that are document i's.
func (c *lambdaConsts) setDoc(s, gain, e, l, disc float64) {
	for k := range 4 {
		c.s[k], c.gain[k], c.e[k], c.l[k], c.disc[k] = s, gain, e, l, disc
	}
}

// lambdaPairs4 is the pair loop of lambdaRank.query with per-document
// exponentials for one document i (its operands in c) and its partners
// j, whose score, gain, exponential, label (as float64) and discount are
// s[k], gain[k], e[k], l[k], disc[k] and whose sums are lam[k], hes[k],
// k < n, n a multiple of 4; sums holds i's λ sum, its hessian sum and the
// query's Σλ, which it updates. The same sums bit for bit as the Go loop.
// AVX: call it only when haveLambdaAsm.
//
//go:noescape
func lambdaPairs4(c *lambdaConsts, s, gain, e, l, disc, lam, hes *float64, n int, norm bool, sums *[3]float64)

// lambdaPairs4's offsets (the c… constants of lambda_amd64.s): the fields
// are 32 bytes apart in this order (these fail to compile otherwise).
var (
	_ = [1]struct{}{}[unsafe.Offsetof(lambdaConsts{}.l)-96]
	_ = [1]struct{}{}[unsafe.Offsetof(lambdaConsts{}.inv)-160]
	_ = [1]struct{}{}[unsafe.Offsetof(lambdaConsts{}.abs)-256]
	_ = [1]struct{}{}[unsafe.Offsetof(lambdaConsts{}.negZero)-384]
)
