package job_test

import (
	"context"
	"fmt"
	"slices"

	"github.com/cronus-ltr/cronus/engine/job"
)

// A worker with two phases and a consumer loop. Ordinary events come at most
// 20 times a second, so how many arrive depends on the machine; the
// boundaries and the Final event always do.
func Example() {
	type snapshot struct {
		Loss []float64 // the loss after every step so far
	}

	j := job.Start(context.Background(), func(ctx context.Context, r *job.Reporter[snapshot]) (float64, error) {
		var loss []float64 // the worker's state, which it goes on writing
		// Called only for the events actually sent; it copies, so the
		// consumer never sees loss change under it.
		snap := func() snapshot { return snapshot{Loss: slices.Clone(loss)} }

		r.Phase("initialising", 1)
		loss = append(loss, 1)
		if !r.Report(1, snap) { // the first Report of a phase is a boundary
			return 0, ctx.Err()
		}

		const stages, steps = 3, 100
		r.Phase("optimising", stages*steps)
		for stage := range stages {
			for step := range steps {
				loss = append(loss, loss[len(loss)-1]*0.99)
				if !r.Report(float64(stage*steps+step+1), snap) {
					return 0, ctx.Err()
				}
			}
			if !r.Boundary(float64((stage+1)*steps), snap) { // the end of a stage
				return 0, ctx.Err()
			}
		}
		return loss[len(loss)-1], nil
	})

	for ev := range j.Events() {
		p := ev.Progress
		switch {
		case ev.Final:
			fmt.Printf("done: loss %.4f, err %v\n", ev.Result, ev.Err)
		case ev.Boundary:
			fmt.Printf("%s %g/%g: loss %.4f\n", p.Phase, p.Done, p.Total, ev.Snapshot.Loss[len(ev.Snapshot.Loss)-1])
		default:
			// Redraw a progress bar from p.Done, p.Total and p.ETA.
		}
	}
	// Output:
	// initialising 1/1: loss 1.0000
	// optimising 1/300: loss 0.9900
	// optimising 100/300: loss 0.3660
	// optimising 200/300: loss 0.1340
	// optimising 300/300: loss 0.0490
	// done: loss 0.0490, err <nil>
}
