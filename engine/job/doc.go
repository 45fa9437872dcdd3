// Package job runs long work — training an ensemble, optimising a cascade, a
// λ sweep — in a goroutine that reports through a channel of immutable
// snapshots. The terminal UI renders the events as they come; the command
// line calls Wait, or prints a progress line from the same events.
//
// A worker is a function of a context and a Reporter:
//
//	j := job.Start(ctx, func(ctx context.Context, r *job.Reporter[Snap]) (Result, error) {
//		r.Phase("training", float64(nTrees))
//		for t := range nTrees {
//			grow(t)
//			if !r.Report(float64(t+1), func() Snap { return Snap{Loss: slices.Clone(loss)} }) {
//				return Result{}, ctx.Err()
//			}
//		}
//		return result, nil
//	})
//	for ev := range j.Events() { … }
//
// # The contract
//
// Snapshots are immutable. The snap function passed to Report and Boundary
// must return a copy: clone every slice and map the worker goes on writing.
// The consumer must not write a snapshot either; the same one can travel in
// several events. Breaking this is a data race, not a cosmetic glitch.
//
// Events are coalesced. Every event gets Seq 1, 2, 3, … in send order (with
// a gap only where cancellation superseded an event, see below). A Report
// within 1/rate of the previous event sent (WithMaxRate; 20 a second by
// default) is dropped, and its snap function is not called. What is never
// dropped:
//
//   - the first Report after Phase, sent as a Boundary event with a fresh
//     snapshot (Phase itself sends nothing);
//   - every Boundary call;
//   - the Final event (Final set, Boundary not), last on the stream,
//     carrying Result or Err and the last snapshot taken. The channel closes
//     after it.
//
// A dropped Report is not sent later: there is no timer, because a timer
// would have to call snap on another goroutine while the worker writes its
// state. So the newest state reaches the consumer with the next event sent,
// at most 1/rate late while the worker keeps reporting; a worker about to go
// quiet for long (a slow step without reports, or returning) calls Boundary
// first if the consumer must see the state before it.
//
// Sends block while the consumer has not taken the previous event (the
// channel holds one), so a slow consumer slows the worker instead of piling
// up events; every send also selects on the job's context.
//
// Cancellation. Cancel (or cancelling the context given to Start) makes
// Report and Boundary return false at once, and run is expected to return
// soon after — within one step of its loop. The Final event's Err is then
// context.Canceled (errors.Is), unless run returned another error. A
// consumer that keeps reading after cancelling gets the Final event, though
// an event still waiting in the channel at that moment may be superseded by
// it. A consumer that cancels and walks away leaks nothing: the job's
// goroutine leaves the Final event in the channel's slot and ends. A
// consumer that walks away without cancelling keeps the worker blocked on
// its next send for as long as the context lives.
//
// Failures of run never crash the process: a panic becomes a *PanicError
// (the panic value and the innermost frames of the stack) in the Final
// event's Err, and a call to runtime.Goexit becomes an error there too.
//
// Progress carries the phase, Done and Total in the worker's own units,
// Elapsed since Start, PhaseElapsed since the current phase began, and an
// ETA for the current phase: the time left at the rate Done has grown
// since Phase was called, 0 while Total or Done is 0.
package job
