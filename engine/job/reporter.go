package job

import (
	"context"
	"time"
)

// Reporter is the worker's side of a job: run calls Phase, Report and
// Boundary to hand over progress and snapshots. A Reporter belongs to the
// goroutine running run; it is not safe for concurrent use and must not be
// used after run returns.
type Reporter[S any] struct {
	ctx    context.Context
	send   func(seq int, p Progress, snap S, boundary bool) bool // blocks until taken or ctx is done
	now    func() time.Time
	minGap time.Duration

	start      time.Time
	phase      string
	total      float64
	done       float64
	from       float64 // units of the phase done before it began (PhaseFrom)
	phaseStart time.Time

	pendingBoundary bool      // Phase was called and no event has been sent since
	seq             int       // Seq of the last event sent
	sentAny         bool      // whether lastSent is set
	lastSent        time.Time // when the last event was sent or attempted
	last            S         // the last snapshot taken: for the Final event and nil snap functions
}

// Phase starts a phase called name with total units of work (0 when
// unknown). It sends nothing itself: the next Report after it is sent as a
// Boundary event, whatever the rate limit, so the boundary carries a fresh
// snapshot of the new phase. Done restarts from the next Report, and the ETA
// is measured from the moment Phase is called.
func (r *Reporter[S]) Phase(name string, total float64) {
	r.PhaseFrom(name, 0, total)
}

// PhaseAtFirst returns report with the phase name of total units started,
// at its first call, from the units that call says are done (PhaseFrom):
// for a worker whose first report is of work timed in the phase before
// (cronus.Optimize reports its initialisation as done 1). Counted as done
// in no time, that unit made the first estimates of the phase up to half
// the time left (200,000 documents: "about 9s left" with 23 s to go).
func (r *Reporter[S]) PhaseAtFirst(name string, total float64, report func(float64, func() S) bool) func(float64, func() S) bool {
	started := false
	return func(done float64, snap func() S) bool {
		if !started {
			started = true
			r.PhaseFrom(name, done, total)
		}
		return report(done, snap)
	}
}

// PhaseFrom is Phase for a phase whose first from units of total are done
// already, or take no time worth counting (a warm start's kept stages):
// Done goes on in the same units, and the ETA is measured from the rate of
// the units after from since the call. From Phase, the kept stages (ten
// in 0.4 s) made the new ones (0.45 s each) look as fast: "about 0.4s
// left" with 4 s to go.
func (r *Reporter[S]) PhaseFrom(name string, from, total float64) {
	r.phase, r.total, r.done, r.from = name, total, 0, from
	r.phaseStart = r.now()
	r.pendingBoundary = true
}

// Report records done units of work in the current phase and sends an event
// unless one was sent less than 1/rate ago (see WithMaxRate); the first
// Report after Phase is always sent, as a Boundary event.
//
// snap is called only when the event will be sent, so a worker may report
// after every step and pay for a copy only ~20 times a second. snap must
// return a copy that the worker never writes again (see Event). A nil snap
// sends the previous snapshot again.
//
// A dropped Report is gone: nothing sends it later, so the consumer sees
// that state only through the next event sent (the next Report, Boundary or
// the Final event). Call Boundary before a long step without reports if the
// consumer must see the state before it.
//
// Report returns false once ctx is done, without calling snap; run should
// then return. It blocks while the consumer has not taken the previous
// event, so a slow consumer slows the worker rather than piling up events.
func (r *Reporter[S]) Report(done float64, snap func() S) bool {
	if r.ctx.Err() != nil {
		return false
	}
	r.done = done
	now := r.now()
	if !r.pendingBoundary && r.sentAny && now.Sub(r.lastSent) < r.minGap {
		return true
	}
	return r.emit(now, snap, r.pendingBoundary)
}

// Boundary records done units of work and sends a Boundary event whatever
// the rate limit: use it at the end of a stage or an outer iteration. snap
// and the result are as for Report.
func (r *Reporter[S]) Boundary(done float64, snap func() S) bool {
	if r.ctx.Err() != nil {
		return false
	}
	r.done = done
	return r.emit(r.now(), snap, true)
}

func (r *Reporter[S]) emit(now time.Time, snap func() S, boundary bool) bool {
	if snap != nil {
		r.last = snap()
	}
	r.pendingBoundary = false
	r.sentAny, r.lastSent = true, now
	if !r.send(r.seq+1, r.progress(now), r.last, boundary) {
		return false
	}
	r.seq++
	return true
}

// progress is where the job stands at now.
func (r *Reporter[S]) progress(now time.Time) Progress {
	return Progress{
		Phase:   r.phase,
		Done:    r.done,
		Total:   r.total,
		Elapsed: now.Sub(r.start),
		ETA:     eta(r.done-r.from, r.total-r.from, now.Sub(r.phaseStart)),

		PhaseElapsed: now.Sub(r.phaseStart),
	}
}
