package job

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"time"
)

// Progress is where a job stands.
type Progress struct {
	Phase   string        // e.g. "training", "initialising", "optimising"
	Done    float64       // work done in this phase, in the job's own units (trees, steps)
	Total   float64       // 0 when unknown
	Elapsed time.Duration // since Start
	ETA     time.Duration // estimated time left in this phase (0 when unknown); from the rate since the phase began

	// PhaseElapsed is the time since the current phase began (Phase or
	// PhaseFrom): a later phase's own time, where Elapsed counts the
	// phases before it and any pause of the run.
	PhaseElapsed time.Duration
}

// Event is one message of a job's stream.
//
// Snapshot is immutable: the worker hands over a copy that it never writes
// again, and a consumer must not write it either, because the same snapshot
// may be carried by several events (a nil snap function or the Final event
// reuses the previous one). Copy slices out in the snap function; never pass
// a buffer the worker still writes.
type Event[S any, R any] struct {
	Seq      int // 1, 2, 3, ... in send order
	Progress Progress
	Snapshot S    // immutable; see above
	Boundary bool // a phase or stage boundary: never coalesced away
	Final    bool // the last event: Result or Err is set
	Result   R
	Err      error
}

// Job is long work running in its own goroutine. Consume it with exactly one
// of: a loop over Events until it closes, or Wait.
type Job[S any, R any] struct {
	events chan Event[S, R]
	cancel context.CancelFunc

	// Written by the job goroutine before events is closed, so a reader
	// that has seen the channel close may read them.
	result R
	err    error
}

// Option configures Start.
type Option func(*config)

type config struct {
	minGap time.Duration
	now    func() time.Time
}

// DefaultMaxRate is the snapshots per second sent when WithMaxRate is not
// given: about what a terminal redraws smoothly.
const DefaultMaxRate = 20

// WithMaxRate limits the non-boundary events to perSecond: a Report within
// 1/perSecond of the previous event sent is dropped. perSecond must be
// positive; math.Inf(1) sends every Report.
func WithMaxRate(perSecond float64) Option {
	if !(perSecond > 0) {
		panic(fmt.Sprintf("job: WithMaxRate(%v): the rate must be positive", perSecond))
	}
	// A rate below about 1.1·10⁻¹⁰ a second has a gap past time.Duration's
	// range, which float64's conversion does not saturate (on amd64 it
	// gave the most negative Duration, and every Report was sent).
	gap := time.Duration(math.MaxInt64)
	if g := float64(time.Second) / perSecond; g < math.MaxInt64 {
		gap = time.Duration(g)
	}
	return func(c *config) { c.minGap = gap }
}

// WithClock replaces time.Now, for tests. The job calls now from the
// goroutine that calls Start and from the worker goroutine.
func WithClock(now func() time.Time) Option {
	if now == nil {
		panic("job: WithClock(nil)")
	}
	return func(c *config) { c.now = now }
}

// Start runs run in a new goroutine and returns at once. run must return soon
// after ctx is done; Reporter.Report and Reporter.Boundary return false from
// then on, which is the usual way a loop notices.
//
// The Final event's Err is, in order of precedence: a *PanicError if run
// panicked; the error run returned; ctx.Err() if the context was done when
// run returned (so errors.Is(Err, context.Canceled) after Cancel); nil.
// Result is whatever run returned, which may be partial when Err is set.
func Start[S any, R any](ctx context.Context, run func(ctx context.Context, r *Reporter[S]) (R, error), opts ...Option) *Job[S, R] {
	if run == nil {
		panic("job: Start with a nil run function")
	}
	c := config{minGap: time.Second / DefaultMaxRate, now: time.Now}
	for _, o := range opts {
		o(&c)
	}
	ctx, cancel := context.WithCancel(ctx)
	// One slot: the Final event always fits after cancellation (see finish),
	// and a worker can hand over an event while the consumer is still busy
	// with the previous one.
	j := &Job[S, R]{events: make(chan Event[S, R], 1), cancel: cancel}
	start := c.now()
	r := &Reporter[S]{
		ctx: ctx,
		send: func(seq int, p Progress, snap S, boundary bool) bool {
			select {
			case j.events <- Event[S, R]{Seq: seq, Progress: p, Snapshot: snap, Boundary: boundary}:
				return true
			case <-ctx.Done():
				return false
			}
		},
		now:        c.now,
		minGap:     c.minGap,
		start:      start,
		phaseStart: start,
	}
	go runJob(j, r, run)
	return j
}

// Events returns the job's stream. It closes after the Final event.
func (j *Job[S, R]) Events() <-chan Event[S, R] { return j.events }

// Cancel cancels the job's context. It does not wait for the job to end; keep
// reading Events (or call Wait) to get the Final event, or walk away: once run
// has returned, the job's goroutine ends whether or not anyone reads.
func (j *Job[S, R]) Cancel() { j.cancel() }

// Wait drains the events, blocking until the job ends, and returns the Final
// event's Result and Err. It may also be called after a loop over Events has
// seen the Final event; it must not run alongside such a loop, since both
// would take events.
func (j *Job[S, R]) Wait() (R, error) {
	for range j.events {
	}
	return j.result, j.err
}

var errGoexit = errors.New("job: run called runtime.Goexit")

func runJob[S any, R any](j *Job[S, R], r *Reporter[S], run func(context.Context, *Reporter[S]) (R, error)) {
	var (
		res      R
		err      error
		returned bool
	)
	defer func() {
		if !returned {
			// Not returned and nothing to recover: run called
			// runtime.Goexit (panic(nil) recovers a *runtime.PanicNilError).
			if v := recover(); v != nil {
				err = newPanicError(v)
			} else {
				err = errGoexit
			}
		} else if err == nil && r.ctx.Err() != nil {
			err = r.ctx.Err()
		}
		j.finish(r, res, err)
		j.cancel() // release the context once the stream is over
	}()
	res, err = run(r.ctx, r)
	returned = true
}

// finish sends the Final event and closes the stream.
func (j *Job[S, R]) finish(r *Reporter[S], res R, err error) {
	j.result, j.err = res, err
	ev := Event[S, R]{Seq: r.seq + 1, Progress: r.progress(r.now()), Snapshot: r.last, Final: true, Result: res, Err: err}
	ev.Progress.ETA = 0
	defer close(j.events)
	select {
	case j.events <- ev:
		return
	case <-r.ctx.Done():
	}
	// Cancelled, and perhaps nobody reads any more: the goroutine must
	// not wait for a reader. This goroutine is the only sender, so the
	// one slot is either free or holds an event nobody has taken yet; the
	// Final event supersedes that one. Each round one case is ready.
	for {
		select {
		case j.events <- ev:
			return
		case <-j.events:
		}
	}
}

// PanicError is the Final event's Err when run panicked.
type PanicError struct {
	Value any    // the value passed to panic
	Stack string // the innermost frames of the panicking goroutine: function, then file:line
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("job: panic: %v\n%s", e.Value, e.Stack)
}

// Unwrap returns the panic value when it is an error.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// maxPanicFrames bounds the stack in a PanicError: enough to find the line,
// short enough for a status line or a log.
const maxPanicFrames = 8

// newPanicError is called from the deferred function in runJob, so the
// stack still holds the frames between the panic and runJob.
func newPanicError(v any) *PanicError {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(3, pcs) // skip Callers, newPanicError, the deferred func
	frames := runtime.CallersFrames(pcs[:n])
	var b strings.Builder
	kept := 0
	for kept < maxPanicFrames {
		f, more := frames.Next()
		if strings.Contains(f.Function, "/engine/job.runJob[") {
			break
		}
		if f.Function != "" && !strings.HasPrefix(f.Function, "runtime.") {
			fmt.Fprintf(&b, "%s\n\t%s:%d\n", f.Function, f.File, f.Line)
			kept++
		}
		if !more {
			break
		}
	}
	return &PanicError{Value: v, Stack: strings.TrimSuffix(b.String(), "\n")}
}

// eta estimates the time left in a phase from its rate so far; 0 when it
// cannot tell, a NaN done or total among those (written as comparisons a
// NaN fails: the estimate was NaN, which a Duration cannot hold).
func eta(done, total float64, inPhase time.Duration) time.Duration {
	if !(total > 0) || !(done > 0) || !(done < total) || inPhase <= 0 {
		return 0
	}
	left := float64(inPhase) * (total - done) / done
	if left >= math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(left)
}
