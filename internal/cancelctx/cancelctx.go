// Package cancelctx gives tests a context cancelled at a point they pick.
package cancelctx

import "context"

// After is a context whose Err is nil N times and context.Canceled from
// then on: a context cancelled in the middle of a piece of work (an
// encoding), at the Nth look. Looked counts the calls of Err.
type After struct {
	context.Context
	N      int
	Looked int
}

// New returns an After of background, cancelled at the n+1th look.
func New(n int) *After { return &After{Context: context.Background(), N: n} }

func (c *After) Err() error {
	c.Looked++
	if c.N <= 0 {
		return context.Canceled
	}
	c.N--
	return nil
}
