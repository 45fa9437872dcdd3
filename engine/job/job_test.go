package job

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeClock is a clock that moves only when told to.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// collect reads the whole stream and checks what every stream must hold:
// Seq strictly increasing from 1, exactly one Final event and it comes last.
// It returns once the channel is closed.
func collect[S, R any](t *testing.T, j *Job[S, R]) []Event[S, R] {
	t.Helper()
	var evs []Event[S, R]
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-j.Events():
			if !ok {
				checkStream(t, evs)
				return evs
			}
			evs = append(evs, ev)
		case <-timeout:
			t.Fatalf("the stream did not close within 10s; %d events so far", len(evs))
		}
	}
}

func checkStream[S, R any](t *testing.T, evs []Event[S, R]) {
	t.Helper()
	if len(evs) == 0 {
		t.Fatal("the stream closed without a Final event")
	}
	for i, ev := range evs {
		if i > 0 && ev.Seq <= evs[i-1].Seq {
			t.Errorf("event %d: Seq %d after %d", i, ev.Seq, evs[i-1].Seq)
		}
		if ev.Final != (i == len(evs)-1) {
			t.Errorf("event %d of %d: Final = %v", i, len(evs), ev.Final)
		}
	}
	if evs[0].Seq != 1 {
		t.Errorf("first Seq = %d, want 1", evs[0].Seq)
	}
}

// waitGoroutines polls until at most want goroutines run. The minute is
// only there to fail a goroutine that never ends: a second was too short
// for one that was still ending on a loaded machine, and the poll stops as
// soon as the count is down.
func waitGoroutines(t *testing.T, want int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		n := runtime.NumGoroutine()
		if n <= want {
			return
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			buf = buf[:runtime.Stack(buf, true)]
			t.Fatalf("%d goroutines after a minute, want at most %d:\n%s", n, want, buf)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestCoalescing(t *testing.T) {
	// Every case's worker advances the fake clock itself, so which Reports
	// are sent does not depend on scheduling.
	tests := []struct {
		name           string
		opts           []Option
		work           func(r *Reporter[int], clk *fakeClock, snap func() int)
		wantEvents     int // not counting the Final event
		wantBoundaries int
	}{
		{
			name: "10000 reports in one instant",
			work: func(r *Reporter[int], _ *fakeClock, snap func() int) {
				for i := range 10000 {
					r.Report(float64(i+1), snap)
				}
			},
			wantEvents: 1,
		},
		{
			name: "10000 reports in one instant after Phase",
			work: func(r *Reporter[int], _ *fakeClock, snap func() int) {
				r.Phase("training", 10000)
				for i := range 10000 {
					r.Report(float64(i+1), snap)
				}
			},
			wantEvents: 1, wantBoundaries: 1,
		},
		{
			name: "reports 60ms apart are all sent",
			work: func(r *Reporter[int], clk *fakeClock, snap func() int) {
				for i := range 100 {
					r.Report(float64(i+1), snap)
					clk.Advance(60 * time.Millisecond)
				}
			},
			wantEvents: 100,
		},
		{
			name: "reports exactly 1/rate apart are all sent",
			work: func(r *Reporter[int], clk *fakeClock, snap func() int) {
				for i := range 100 {
					r.Report(float64(i+1), snap)
					clk.Advance(50 * time.Millisecond)
				}
			},
			wantEvents: 100,
		},
		{
			// Sent at 0, 50, 100, ... ms: one in five.
			name: "reports 10ms apart",
			work: func(r *Reporter[int], clk *fakeClock, snap func() int) {
				for i := range 100 {
					r.Report(float64(i+1), snap)
					clk.Advance(10 * time.Millisecond)
				}
			},
			wantEvents: 20,
		},
		{
			name: "2 a second",
			opts: []Option{WithMaxRate(2)},
			work: func(r *Reporter[int], clk *fakeClock, snap func() int) {
				for i := range 20 { // 0, 100, ..., 1900 ms: sent at 0, 500, 1000, 1500
					r.Report(float64(i+1), snap)
					clk.Advance(100 * time.Millisecond)
				}
			},
			wantEvents: 4,
		},
		{
			// 1/rate is 10²¹ ns, past time.Duration's range: the gap
			// was float64's conversion to int64, on amd64 the most
			// negative one, so every Report was sent.
			name: "one in 30,000 years",
			opts: []Option{WithMaxRate(1e-12)},
			work: func(r *Reporter[int], clk *fakeClock, snap func() int) {
				for i := range 100 {
					r.Report(float64(i+1), snap)
					clk.Advance(time.Hour)
				}
			},
			wantEvents: 1,
		},
		{
			name: "no limit",
			opts: []Option{WithMaxRate(math.Inf(1))},
			work: func(r *Reporter[int], _ *fakeClock, snap func() int) {
				for i := range 1000 {
					r.Report(float64(i+1), snap)
				}
			},
			wantEvents: 1000,
		},
		{
			// Per phase: the first Report (a boundary) and the Boundary call.
			name: "boundaries are never coalesced",
			work: func(r *Reporter[int], _ *fakeClock, snap func() int) {
				for _, phase := range []string{"a", "b", "c"} {
					r.Phase(phase, 1000)
					for i := range 1000 {
						r.Report(float64(i+1), snap)
					}
					r.Boundary(1000, snap)
				}
			},
			wantEvents: 6, wantBoundaries: 6,
		},
		{
			// A Boundary resets the interval like any event sent.
			name: "a report right after a boundary is dropped",
			work: func(r *Reporter[int], clk *fakeClock, snap func() int) {
				r.Report(1, snap)
				clk.Advance(40 * time.Millisecond)
				r.Boundary(2, snap)
				clk.Advance(40 * time.Millisecond)
				r.Report(3, snap) // 40ms after the boundary
				clk.Advance(10 * time.Millisecond)
				r.Report(4, snap) // 50ms after it
			},
			wantEvents: 3, wantBoundaries: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := newFakeClock()
			snaps := 0 // only the worker goroutine touches it until the stream closes
			snap := func() int { snaps++; return snaps }
			opts := append([]Option{WithClock(clk.Now)}, tt.opts...)
			j := Start(context.Background(), func(ctx context.Context, r *Reporter[int]) (string, error) {
				tt.work(r, clk, snap)
				return "done", nil
			}, opts...)
			evs := collect(t, j)
			final := evs[len(evs)-1]
			evs = evs[:len(evs)-1]

			if len(evs) != tt.wantEvents {
				t.Errorf("%d events before the Final one, want %d", len(evs), tt.wantEvents)
			}
			if snaps != len(evs) {
				t.Errorf("snap called %d times for %d events", snaps, len(evs))
			}
			boundaries := 0
			for i, ev := range evs {
				if ev.Boundary {
					boundaries++
				}
				// snap is called once per event, at send time.
				if ev.Snapshot != i+1 {
					t.Errorf("event %d: snapshot %d, want %d", i, ev.Snapshot, i+1)
				}
			}
			if boundaries != tt.wantBoundaries {
				t.Errorf("%d boundary events, want %d", boundaries, tt.wantBoundaries)
			}
			if final.Result != "done" || final.Err != nil {
				t.Errorf("Final: Result %q, Err %v", final.Result, final.Err)
			}
			if final.Snapshot != snaps {
				t.Errorf("Final carries snapshot %d, want the last taken, %d", final.Snapshot, snaps)
			}
		})
	}
}

func TestBoundaries(t *testing.T) {
	type mark struct {
		phase    string
		done     float64
		boundary bool
		final    bool
	}
	clk := newFakeClock()
	j := Start(context.Background(), func(ctx context.Context, r *Reporter[[]float64]) (int, error) {
		var loss []float64
		snap := func() []float64 { return slices.Clone(loss) }
		r.Phase("initialising", 3)
		for i := range 3 {
			loss = append(loss, float64(i))
			r.Report(float64(i+1), snap) // only the first is sent: the clock stands still
		}
		r.Boundary(3, snap)
		r.Phase("optimising", 0)
		r.Report(0, nil) // a boundary carrying the previous snapshot again
		for k := range 2 {
			loss = append(loss, float64(10+k))
			r.Boundary(float64(k+1), snap) // the end of stage k
		}
		loss = append(loss, 99) // never reported: the Final event carries the last snapshot taken
		return 42, nil
	}, WithClock(clk.Now))
	evs := collect(t, j)

	want := []mark{
		{"initialising", 1, true, false},
		{"initialising", 3, true, false},
		{"optimising", 0, true, false},
		{"optimising", 1, true, false},
		{"optimising", 2, true, false},
		{"optimising", 2, false, true},
	}
	var got []mark
	for _, ev := range evs {
		got = append(got, mark{ev.Progress.Phase, ev.Progress.Done, ev.Boundary, ev.Final})
	}
	if !slices.Equal(got, want) {
		t.Errorf("events:\n got %v\nwant %v", got, want)
	}
	for i, ev := range evs {
		if ev.Seq != i+1 {
			t.Errorf("event %d: Seq %d, want %d", i, ev.Seq, i+1)
		}
	}
	wantSnaps := [][]float64{{0}, {0, 1, 2}, {0, 1, 2}, {0, 1, 2, 10}, {0, 1, 2, 10, 11}, {0, 1, 2, 10, 11}}
	for i, ev := range evs {
		if !slices.Equal(ev.Snapshot, wantSnaps[i]) {
			t.Errorf("event %d: snapshot %v, want %v", i, ev.Snapshot, wantSnaps[i])
		}
	}
	if final := evs[len(evs)-1]; final.Result != 42 || final.Err != nil {
		t.Errorf("Final: Result %d, Err %v", final.Result, final.Err)
	}
	if _, ok := <-j.Events(); ok {
		t.Error("Events delivered a value after closing")
	}
}

func TestProgress(t *testing.T) {
	tests := []struct {
		name        string
		from, total float64
		before      time.Duration // from Start to Phase
		inPhase     time.Duration // from Phase to Report
		done        float64
		wantElapsed time.Duration
		wantETA     time.Duration
	}{
		{"a quarter in 1s", 0, 100, 0, time.Second, 25, time.Second, 3 * time.Second},
		{"rate from the phase start", 0, 10, 5 * time.Second, 2 * time.Second, 5, 7 * time.Second, 2 * time.Second},
		{"unknown total", 0, 0, 0, time.Second, 25, time.Second, 0},
		{"nothing done yet", 0, 100, 0, time.Second, 0, time.Second, 0},
		{"all done", 0, 100, 0, time.Second, 100, time.Second, 0},
		{"no time has passed", 0, 100, time.Second, 0, 50, time.Second, 0},
		{"from 9 of 20: rate of the units after", 9, 20, 0, time.Second, 10, time.Second, 10 * time.Second},
		{"from 9 of 20, none after yet", 9, 20, 0, time.Second, 9, time.Second, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := newFakeClock()
			j := Start(context.Background(), func(ctx context.Context, r *Reporter[struct{}]) (struct{}, error) {
				clk.Advance(tt.before)
				r.PhaseFrom("training", tt.from, tt.total)
				clk.Advance(tt.inPhase)
				r.Report(tt.done, nil)
				clk.Advance(time.Minute)
				return struct{}{}, nil
			}, WithClock(clk.Now))
			evs := collect(t, j)
			if len(evs) != 2 {
				t.Fatalf("%d events, want 2", len(evs))
			}
			// PhaseElapsed: the phase's own time, without the time before
			// it (5s in "rate from the phase start").
			want := Progress{Phase: "training", Done: tt.done, Total: tt.total, Elapsed: tt.wantElapsed, ETA: tt.wantETA, PhaseElapsed: tt.inPhase}
			if got := evs[0].Progress; got != want {
				t.Errorf("Progress = %+v, want %+v", got, want)
			}
			want.Elapsed += time.Minute
			want.PhaseElapsed += time.Minute
			want.ETA = 0
			if got := evs[1].Progress; got != want {
				t.Errorf("Final Progress = %+v, want %+v", got, want)
			}
		})
	}
}

func TestErr(t *testing.T) {
	errX := errors.New("x went wrong")
	expired, cancelExpired := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancelExpired()
	tests := []struct {
		name       string
		parent     context.Context
		run        func(ctx context.Context, cancel context.CancelFunc) (int, error)
		wantResult int
		wantErr    error
	}{
		{"result", nil, func(context.Context, context.CancelFunc) (int, error) { return 7, nil }, 7, nil},
		{"error", nil, func(context.Context, context.CancelFunc) (int, error) { return 1, errX }, 1, errX},
		{"cancelled, returns nil", nil, func(_ context.Context, cancel context.CancelFunc) (int, error) {
			cancel()
			return 3, nil
		}, 3, context.Canceled},
		{"cancelled, returns ctx.Err", nil, func(ctx context.Context, cancel context.CancelFunc) (int, error) {
			cancel()
			return 3, ctx.Err()
		}, 3, context.Canceled},
		{"cancelled, returns another error", nil, func(_ context.Context, cancel context.CancelFunc) (int, error) {
			cancel()
			return 0, errX
		}, 0, errX},
		{"parent deadline passed", expired, func(context.Context, context.CancelFunc) (int, error) { return 5, nil }, 5, context.DeadlineExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parent := tt.parent
			if parent == nil {
				parent = context.Background()
			}
			ctx, cancel := context.WithCancel(parent)
			defer cancel()
			j := Start(ctx, func(ctx context.Context, r *Reporter[int]) (int, error) {
				return tt.run(ctx, cancel)
			})
			evs := collect(t, j)
			final := evs[len(evs)-1]
			if final.Result != tt.wantResult || !errors.Is(final.Err, tt.wantErr) || (tt.wantErr == nil) != (final.Err == nil) {
				t.Errorf("Final: Result %d, Err %v; want %d, %v", final.Result, final.Err, tt.wantResult, tt.wantErr)
			}
			res, err := j.Wait() // after the stream has been read
			if res != final.Result || err != final.Err {
				t.Errorf("Wait after the stream: %d, %v; want %d, %v", res, err, final.Result, final.Err)
			}
		})
	}
}

func TestWait(t *testing.T) {
	errX := errors.New("x went wrong")
	j := Start(context.Background(), func(ctx context.Context, r *Reporter[[]int]) ([]int, error) {
		r.Phase("training", 1000)
		for i := range 1000 {
			if !r.Report(float64(i+1), func() []int { return []int{i} }) {
				return nil, ctx.Err()
			}
		}
		return []int{1, 2, 3}, errX
	}, WithMaxRate(math.Inf(1)))
	res, err := j.Wait()
	if !slices.Equal(res, []int{1, 2, 3}) || err != errX {
		t.Errorf("Wait() = %v, %v; want [1 2 3], %v", res, err, errX)
	}
	res, err = j.Wait()
	if !slices.Equal(res, []int{1, 2, 3}) || err != errX {
		t.Errorf("second Wait() = %v, %v", res, err)
	}
}

func TestCancel(t *testing.T) {
	// The consumer cancels after a few events; from then on no Report may
	// succeed, so the loop stops in the iteration that sees the cancel.
	for _, rate := range []float64{DefaultMaxRate, math.Inf(1)} {
		t.Run(fmt.Sprint("rate ", rate), func(t *testing.T) {
			var cancelled atomic.Bool
			var afterCancel atomic.Int64 // Reports that succeeded although Cancel had returned before they began
			j := Start(context.Background(), func(ctx context.Context, r *Reporter[int]) (int, error) {
				for i := 0; ; i++ {
					seen := cancelled.Load()
					if !r.Report(float64(i), func() int { return i }) {
						return i, nil // not ctx.Err(): the job supplies context.Canceled
					}
					if seen {
						afterCancel.Add(1)
					}
				}
			}, WithMaxRate(rate))
			var final Event[int, int]
			n := 0
			for ev := range j.Events() {
				n++
				if n == 3 {
					j.Cancel()
					cancelled.Store(true)
				}
				final = ev
			}
			if !final.Final || !errors.Is(final.Err, context.Canceled) {
				t.Errorf("last event: Final %v, Err %v; want a Final event with context.Canceled", final.Final, final.Err)
			}
			if k := afterCancel.Load(); k != 0 {
				t.Errorf("%d Reports succeeded after Cancel", k)
			}
			if _, err := j.Wait(); !errors.Is(err, context.Canceled) {
				t.Errorf("Wait: %v, want context.Canceled", err)
			}
		})
	}
}

func TestNoLeakWhenAbandoned(t *testing.T) {
	// The worker reports without a limit, so it is blocked on a send
	// whenever the consumer is not reading.
	worker := func(ctx context.Context, r *Reporter[[]byte]) (int, error) {
		buf := make([]byte, 1<<10)
		for i := 0; ; i++ {
			buf[i%len(buf)]++
			if !r.Report(float64(i), func() []byte { return slices.Clone(buf) }) {
				return i, ctx.Err()
			}
		}
	}
	tests := []struct {
		name   string
		read   int  // events read before walking away
		viaJob bool // cancel with Job.Cancel rather than the parent context
	}{
		{"never read, cancel ctx", 0, false},
		{"read some, cancel ctx", 5, false},
		{"read some, Job.Cancel", 5, true},
		{"read many, cancel ctx", 500, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			baseline := runtime.NumGoroutine()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			j := Start(ctx, worker, WithMaxRate(math.Inf(1)))
			for range tt.read {
				<-j.Events()
			}
			if tt.viaJob {
				j.Cancel()
			} else {
				cancel()
			}
			waitGoroutines(t, baseline)
		})
	}
}

func TestPanic(t *testing.T) {
	errSentinel := errors.New("sentinel")
	tests := []struct {
		name     string
		run      func(r *Reporter[int])
		wantText []string
		wantIs   error
	}{
		{
			name:     "string",
			run:      func(*Reporter[int]) { panic("boom 42") },
			wantText: []string{"panic: boom 42", "engine/job.TestPanic"},
		},
		{
			name:     "error value",
			run:      func(*Reporter[int]) { panic(fmt.Errorf("wrapped: %w", errSentinel)) },
			wantText: []string{"wrapped: sentinel"},
			wantIs:   errSentinel,
		},
		{
			name: "nil map write",
			run: func(*Reporter[int]) {
				var m map[string]int
				m["x"] = 1
			},
			wantText: []string{"assignment to entry in nil map", "engine/job.TestPanic"},
		},
		{
			name:     "in snap",
			run:      func(r *Reporter[int]) { r.Report(1, func() int { panic("snap failed") }) },
			wantText: []string{"panic: snap failed", "Reporter[...]).Report"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := Start(context.Background(), func(ctx context.Context, r *Reporter[int]) (int, error) {
				tt.run(r)
				return 1, nil
			})
			evs := collect(t, j)
			err := evs[len(evs)-1].Err
			var pe *PanicError
			if !errors.As(err, &pe) {
				t.Fatalf("Err = %v (%T), want a *PanicError", err, err)
			}
			for _, s := range tt.wantText {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("Err does not mention %q:\n%v", s, err)
				}
			}
			if strings.Contains(pe.Stack, "runtime.") || strings.Contains(pe.Stack, "runJob") {
				t.Errorf("the stack should hold only the worker's frames:\n%s", pe.Stack)
			}
			if lines := strings.Count(pe.Stack, "\n") + 1; lines > 2*maxPanicFrames {
				t.Errorf("stack of %d lines, want at most %d", lines, 2*maxPanicFrames)
			}
			if tt.wantIs != nil && !errors.Is(err, tt.wantIs) {
				t.Errorf("errors.Is(Err, %v) = false", tt.wantIs)
			}
		})
	}
}

func TestGoexit(t *testing.T) {
	j := Start(context.Background(), func(ctx context.Context, r *Reporter[int]) (int, error) {
		runtime.Goexit()
		return 1, nil
	})
	if _, err := j.Wait(); !errors.Is(err, errGoexit) {
		t.Errorf("Wait: %v, want %v", err, errGoexit)
	}
}

func TestConsumerOnAnotherGoroutine(t *testing.T) {
	// The worker keeps writing its buffer; every snapshot must be a copy
	// that is internally consistent (all elements equal). The race detector
	// checks the hand-over.
	const steps = 2000
	j := Start(context.Background(), func(ctx context.Context, r *Reporter[[]int]) (int, error) {
		state := make([]int, 256)
		snap := func() []int { return slices.Clone(state) }
		for _, phase := range []string{"training", "optimising"} {
			r.Phase(phase, steps)
			for i := range steps {
				for k := range state {
					state[k]++
				}
				if !r.Report(float64(i+1), snap) {
					return 0, ctx.Err()
				}
			}
			if !r.Boundary(steps, snap) {
				return 0, ctx.Err()
			}
		}
		return state[0], nil
	}, WithMaxRate(1000))

	type outcome struct {
		n      int
		result int
		err    error
		bad    string
	}
	out := make(chan outcome)
	go func() {
		var o outcome
		last := -1
		for ev := range j.Events() {
			o.n++
			s := ev.Snapshot
			if len(s) != 256 || slices.Min(s) != slices.Max(s) {
				o.bad = fmt.Sprintf("event %d: torn snapshot", ev.Seq)
			} else if s[0] < last {
				o.bad = fmt.Sprintf("event %d: snapshot went back from %d to %d", ev.Seq, last, s[0])
			} else {
				last = s[0]
			}
			if ev.Final {
				o.result, o.err = ev.Result, ev.Err
			}
		}
		out <- o
	}()
	o := <-out
	if o.bad != "" {
		t.Error(o.bad)
	}
	if o.result != 2*steps || o.err != nil {
		t.Errorf("Final: %d, %v; want %d, nil", o.result, o.err, 2*steps)
	}
	if o.n < 5 { // at least the four boundaries and the Final event
		t.Errorf("%d events, want at least 5", o.n)
	}
}

func TestOptionsPanic(t *testing.T) {
	tests := []struct {
		name string
		f    func()
	}{
		{"zero rate", func() { WithMaxRate(0) }},
		{"negative rate", func() { WithMaxRate(-1) }},
		{"NaN rate", func() { WithMaxRate(math.NaN()) }},
		{"nil clock", func() { WithClock(nil) }},
		{"nil run", func() { Start[int, int](context.Background(), nil) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			tt.f()
		})
	}
}

// PhaseAtFirst starts its phase from the units the first report says are
// done, so that the time left is the rate of the units after it: a worker
// whose first report (done 1, cronus.Optimize's initialisation) was timed
// in the phase before. Counted as done in no time, it made the estimates
// of the optimisation's first cycle up to half what they were.
func TestPhaseAtFirstETA(t *testing.T) {
	var now time.Time
	clock := func() time.Time { return now }
	j := Start(t.Context(), func(ctx context.Context, r *Reporter[int]) (int, error) {
		r.Phase("initialising", 10)
		now = now.Add(5 * time.Second) // Algorithm 2
		r.Boundary(10, nil)
		report := r.PhaseAtFirst("optimising", 21, r.Report)
		report(1, nil) // the initialisation, scored
		for done := 2.0; done <= 3; done++ {
			now = now.Add(time.Second) // a step
			report(done, nil)
		}
		return 0, nil
	}, WithClock(clock), WithMaxRate(1e9))
	etas := map[float64]time.Duration{}
	for ev := range j.Events() {
		if !ev.Final && ev.Progress.Phase == "optimising" {
			etas[ev.Progress.Done] = ev.Progress.ETA
		}
	}
	// 2 steps in 2 s; 18 of the 21 units left.
	if got, want := etas[3], 18*time.Second; got != want {
		t.Errorf("ETA after 2 steps of 20 at 1 s each %v, want %v (all ETAs by units done: %v)", got, want, etas)
	}
}

// A Done or Total that is NaN (0/0 in a worker's units) leaves the time
// left unknown, 0: the estimate was NaN converted to a Duration, on amd64
// the most negative one, and the ETA read −292 years.
func TestETAOfNaN(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct{ from, done, total float64 }{
		{0, nan, 100}, {0, 50, nan}, {nan, 50, 100}, {0, nan, nan},
	} {
		clk := newFakeClock()
		j := Start(context.Background(), func(ctx context.Context, r *Reporter[struct{}]) (struct{}, error) {
			r.PhaseFrom("training", c.from, c.total)
			clk.Advance(time.Second)
			r.Report(c.done, nil)
			return struct{}{}, nil
		}, WithClock(clk.Now))
		for _, ev := range collect(t, j) {
			if ev.Progress.ETA != 0 {
				t.Errorf("from %v, done %v of %v: ETA %v, want 0 (unknown)", c.from, c.done, c.total, ev.Progress.ETA)
			}
		}
	}
}

// A Report blocked on a full slot when the job is cancelled returns false:
// the event was not sent. snap runs after Report's own ctx check and just
// before the send, so cancelling there leaves the send's select only the
// done context to take (nobody reads until run has returned).
func TestReportFalseWhenCancelledDuringSend(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	returned := make(chan struct{})
	j := Start(ctx, func(ctx context.Context, r *Reporter[int]) (bool, error) {
		defer close(returned)
		if !r.Report(1, func() int { return 1 }) { // fills the one slot
			t.Error("the first Report failed")
		}
		return r.Report(2, func() int { cancel(); return 2 }), nil
	}, WithMaxRate(math.Inf(1)))
	<-returned // the slot stays full while run reports
	ok, err := j.Wait()
	if ok {
		t.Error("Report returned true although the job was cancelled while it waited to send")
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Err %v, want context.Canceled", err)
	}
}

// Boundary after cancellation returns false at once, without calling snap
// ("snap and the result are as for Report").
func TestBoundaryAfterCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type out struct {
		ok    bool
		snaps int
	}
	j := Start(ctx, func(ctx context.Context, r *Reporter[int]) (out, error) {
		cancel()
		var o out
		o.ok = r.Boundary(1, func() int { o.snaps++; return 1 })
		return o, nil
	})
	o, _ := j.Wait()
	if o.ok || o.snaps != 0 {
		t.Errorf("Boundary after Cancel: returned %v, snap called %d times; want false, 0", o.ok, o.snaps)
	}
}

// Once the stream is over the job releases its context: the context run
// was given is done, so a goroutine run left waiting on it ends and the
// parent does not keep the child registered.
func TestContextReleasedAfterJob(t *testing.T) {
	parent, cancel := context.WithCancel(context.Background())
	defer cancel()
	var inner context.Context
	j := Start(parent, func(ctx context.Context, r *Reporter[int]) (int, error) {
		inner = ctx
		return 1, nil
	})
	if _, err := j.Wait(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-inner.Done():
	case <-time.After(10 * time.Second):
		t.Error("the context given to run is still live 10s after the job ended")
	}
	if parent.Err() != nil {
		t.Error("the parent context was cancelled")
	}
}

// A panic deep in recursion keeps exactly maxPanicFrames (8) frames: two
// lines each, "function" and "\tfile:line".
func TestPanicStackCapped(t *testing.T) {
	var deep func(n int) int
	deep = func(n int) int {
		if n == 0 {
			panic("deep")
		}
		return deep(n-1) + 1
	}
	j := Start(context.Background(), func(ctx context.Context, r *Reporter[int]) (int, error) {
		return deep(30), nil
	})
	_, err := j.Wait()
	var pe *PanicError
	if !errors.As(err, &pe) {
		t.Fatalf("Err %v, want a *PanicError", err)
	}
	if lines := strings.Count(pe.Stack, "\n") + 1; lines != 16 {
		t.Errorf("stack of %d lines, want 16 (8 frames):\n%s", lines, pe.Stack)
	}
}

// An ETA past time.Duration's range saturates at its maximum instead of
// wrapping round to a negative duration.
func TestETASaturates(t *testing.T) {
	// 1 unit of 10^12 in an hour: 3.6·10^24 ns left, far past 9.2·10^18.
	clk := newFakeClock()
	j := Start(context.Background(), func(ctx context.Context, r *Reporter[struct{}]) (struct{}, error) {
		r.Phase("training", 1e12)
		clk.Advance(time.Hour)
		r.Report(1, nil)
		return struct{}{}, nil
	}, WithClock(clk.Now))
	evs := collect(t, j)
	if got := evs[0].Progress.ETA; got != time.Duration(math.MaxInt64) {
		t.Errorf("ETA %v (%d ns), want the largest Duration", got, int64(got))
	}
	// Exactly 2^63 ns left (2^62 ns for 1 unit, 2 to go): one past the
	// largest Duration, which float64 cannot tell from MaxInt64.
	if got := eta(1, 3, 1<<62); got != time.Duration(math.MaxInt64) {
		t.Errorf("eta(1, 3, 2^62 ns) = %d ns, want %d", int64(got), int64(math.MaxInt64))
	}
}

// Done restarts with a new phase: a Final event right after Phase shows 0
// of the new phase's total, not the last phase's count.
func TestFinalDoneAfterPhase(t *testing.T) {
	j := Start(context.Background(), func(ctx context.Context, r *Reporter[int]) (int, error) {
		r.Phase("a", 5)
		r.Report(5, nil)
		r.Phase("b", 10)
		return 0, nil
	}, WithClock(newFakeClock().Now))
	evs := collect(t, j)
	final := evs[len(evs)-1].Progress
	if final.Phase != "b" || final.Done != 0 || final.Total != 10 {
		t.Errorf("Final progress %s %g/%g, want b 0/10", final.Phase, final.Done, final.Total)
	}
}

// The first Report is sent whatever the clock reads: no event has been sent
// yet, so none was less than 1/rate ago (here the clock stands at the zero
// time, which the zero lastSent equals).
func TestFirstReportSentAtZeroTime(t *testing.T) {
	j := Start(context.Background(), func(ctx context.Context, r *Reporter[int]) (int, error) {
		r.Report(1, func() int { return 7 })
		return 0, nil
	}, WithClock(func() time.Time { return time.Time{} }))
	evs := collect(t, j)
	if len(evs) != 2 || evs[0].Snapshot != 7 || evs[0].Progress.Done != 1 {
		t.Errorf("%d events (first %+v), want the Report's event and the Final one", len(evs), evs[0])
	}
}
