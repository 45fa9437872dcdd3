package tui

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// stepper runs a worker that reports steps through the gate and counts
// them; it returns the count and a function telling whether the worker
// has ended.
func stepper(ctx context.Context, g *gate) (*atomic.Int64, chan struct{}) {
	var n atomic.Int64
	done := make(chan struct{})
	report := func(float64, func() int) bool { n.Add(1); return true }
	r := gated(ctx, g, report, report)
	go func() {
		defer close(done)
		for i := 0; i < 1000 && r(float64(i), nil); i++ {
		}
	}()
	return &n, done
}

// settle waits until n has reached at least least (at most 10 s: the
// worker's goroutine may not have started yet on a loaded machine), then
// until it stops changing, and returns it; a count above least is a worker
// that went further than it should.
func settle(n *atomic.Int64, least int64) int64 {
	for deadline := time.Now().Add(10 * time.Second); n.Load() < least && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	last := n.Load()
	for {
		time.Sleep(20 * time.Millisecond)
		if v := n.Load(); v == last {
			return v
		} else {
			last = v
		}
	}
}

func TestGatePauseStepResume(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	g := newGate()
	g.setPaused(true)
	n, done := stepper(ctx, g)
	// Paused from the start: the first step is reported, then it waits.
	if got := settle(n, 1); got != 1 {
		t.Fatalf("paused worker reported %d steps, want 1", got)
	}
	for want := int64(2); want <= 4; want++ {
		g.step()
		if got := settle(n, want); got != want {
			t.Fatalf("after a step: %d steps, want exactly %d", got, want)
		}
	}
	g.setPaused(false)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("resumed worker did not finish")
	}
	if n.Load() != 1000 {
		t.Errorf("resumed worker reported %d steps, want 1000", n.Load())
	}
}

func TestGateCancelWhilePaused(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	g := newGate()
	g.setPaused(true)
	n, done := stepper(ctx, g)
	settle(n, 1)
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("cancelled worker still waits at the gate")
	}
	if n.Load() != 1 {
		t.Errorf("cancelled worker reported %d steps, want 1", n.Load())
	}
}

func TestGateStepIgnoredWhenRunning(t *testing.T) {
	g := newGate()
	g.step()
	g.setPaused(true)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if g.pass(ctx) {
		t.Error("a step granted before pausing let a paused worker through")
	}
}

// TestGateCancelledTakesNoStep: a worker whose run was cancelled does not
// take a step granted after the cancel, which is for the next run. Held
// at the gate when a restart cancelled it, it could wake for the step
// before it saw the cancel and take it: n pressed before the new run's
// start was lost to the old one.
func TestGateCancelledTakesNoStep(t *testing.T) {
	g := newGate()
	g.setPaused(true)
	g.step()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if g.pass(ctx) {
		t.Error("a cancelled worker passed the paused gate")
	}
	// The step there, pass takes it at once; the minute only ends the
	// wait of a gate whose step is gone. It was 50 ms, which a loaded
	// machine could spend before pass looked at the context (done, it
	// returns false before it looks for a step).
	next, stop := context.WithTimeout(context.Background(), time.Minute)
	defer stop()
	if !g.pass(next) {
		t.Error("the step granted is gone: the cancelled worker took it")
	}
}

// TestGateRenewed: the gate a restart gives the next run is paused as the
// old one was and holds none of the steps granted to it.
func TestGateRenewed(t *testing.T) {
	for _, paused := range []bool{false, true} {
		g := newGate()
		g.setPaused(paused)
		g.step()
		g.step()
		next := g.renewed()
		if next == g || next.isPaused() != paused || next.grantedPending() != 0 || next.grantedSteps() != 0 {
			t.Errorf("paused %v: renewed gate paused %v with %d steps pending, %d granted; want paused %v, none",
				paused, next.isPaused(), next.grantedPending(), next.grantedSteps(), paused)
		}
		next.step()
		if want := map[bool]int{false: 0, true: 2}[paused]; g.grantedPending() != want {
			t.Errorf("paused %v: a step on the renewed gate left the old one %d pending, want %d", paused, g.grantedPending(), want)
		}
	}
}
