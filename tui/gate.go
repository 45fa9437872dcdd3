package tui

import (
	"context"
	"sync"
)

// gate holds the optimisation worker between steps while the user has
// paused it. The UI goroutine flips it; the worker waits in pass. Each
// run has its own (renewed at a restart).
type gate struct {
	mu      sync.Mutex
	paused  bool
	steps   int           // steps let through while paused ('n'), not yet taken
	granted int           // steps ever granted (the worker may take one at once)
	wake    chan struct{} // closed (and replaced) whenever the gate changes
	// held: a quit waits for a write; a run not yet started (a restart
	// waiting for the run it cancels) does not start (waitHeld), its
	// Algorithm 2 not being held by pass. holding counts those waiting.
	held    bool
	holding int
}

func newGate() *gate { return &gate{wake: make(chan struct{})} }

// changed wakes the waiting worker; g.mu must be held.
func (g *gate) changed() {
	close(g.wake)
	g.wake = make(chan struct{})
}

// renewed is a gate for the next run: paused as g is, with no steps
// granted. A step granted to the old run while it was in the middle of a
// stage is not at the gate yet; on a shared gate the next run took it.
func (g *gate) renewed() *gate {
	next := newGate()
	g.mu.Lock()
	next.paused, next.held = g.paused, g.held
	g.mu.Unlock()
	return next
}

// setPaused pauses or resumes; resuming releases a waiting worker.
func (g *gate) setPaused(p bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.paused, g.steps = p, 0
	g.changed()
}

// setHeld holds a run's start while a quit waits for a write, or lets it
// start.
func (g *gate) setHeld(h bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.held = h
	g.changed()
}

// waitHeld waits while the gate is held (setHeld) or until ctx ends.
func (g *gate) waitHeld(ctx context.Context) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for g.held && ctx.Err() == nil {
		wake := g.wake
		g.holding++
		g.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
		}
		g.mu.Lock()
		g.holding--
	}
}

// holdingRuns is the number of runs waitHeld holds.
func (g *gate) holdingRuns() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.holding
}

// step lets exactly one more step through while paused.
func (g *gate) step() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.paused {
		g.steps++
		g.granted++
		g.changed()
	}
}

// grantedSteps is the number of steps ever granted.
func (g *gate) grantedSteps() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.granted
}

// grantedPending is the number of steps granted and not yet taken.
func (g *gate) grantedPending() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.steps
}

// pass waits while paused, until a step is granted, the gate is opened or
// ctx ends (then it returns false, so cancellation works while paused). A
// cancelled worker takes no step: the steps said to the user are the
// ones the live run takes.
func (g *gate) pass(ctx context.Context) bool {
	for {
		if ctx.Err() != nil {
			return false
		}
		g.mu.Lock()
		if !g.paused {
			g.mu.Unlock()
			return true
		}
		if g.steps > 0 {
			g.steps--
			g.mu.Unlock()
			return true
		}
		wake := g.wake
		g.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return false
		}
	}
}

func (g *gate) isPaused() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.paused
}

// gated returns report held by g: after each reported step the worker
// waits in g.pass. While paused every step is sent with force (not
// rate-limited), so the screen shows the step the worker stopped at.
func gated[S any](ctx context.Context, g *gate, report, force func(float64, func() S) bool) func(float64, func() S) bool {
	return func(done float64, snap func() S) bool {
		send := report
		if g.isPaused() {
			send = force
		}
		return send(done, snap) && g.pass(ctx)
	}
}
