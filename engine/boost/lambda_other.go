//go:build !amd64

package boost

// haveLambdaAsm is false where there is no assembly pair loop.
var haveLambdaAsm = false

type lambdaConsts struct{}

func (c *lambdaConsts) setQuery(inv, sigma float64)        {}
func (c *lambdaConsts) setDoc(s, gain, e, l, disc float64) {}

func lambdaPairs4(c *lambdaConsts, s, gain, e, l, disc, lam, hes *float64, n int, norm bool, sums *[3]float64) {
	panic("boost: no assembly pair loop on this architecture")
}
