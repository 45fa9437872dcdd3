package cronus

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// ProblemBytes is the formula its comment gives: at 3,879 documents the
// peak RSS measured was 232 MiB at 2,500 trees and 627 MiB at 5,000, once
// the stage products and block buffers were reused (447 and 1,168 MiB
// before).
func TestProblemBytes(t *testing.T) {
	defer func(a func() int64) { availableMemory = a }(availableMemory)
	availableMemory = func() int64 { return 0 }
	mib := func(b int64) float64 { return float64(b) / (1 << 20) }
	for _, tc := range []struct {
		T, n   int
		lo, hi float64 // MiB
	}{
		{2500, 3879, 210, 220}, {5000, 3879, 664, 674}, {20000, 3879, 8350, 8450},
	} {
		if got := mib(ProblemBytes(tc.T, tc.n)); got < tc.lo || got > tc.hi {
			t.Errorf("ProblemBytes(%d, %d) = %.0f MiB, want %g-%g", tc.T, tc.n, got, tc.lo, tc.hi)
		}
	}
	// Exactly: 5/4·(16·(T+1)² + 4nT + 8·⌈m/512⌉·(min(n,512)+8)·(T+2)).
	if got, want := ProblemBytes(10, 100), int64(5*(16*11*11+4*100*10+8*1*108*12)/4); got != want {
		t.Errorf("ProblemBytes(10, 100) = %d, want %d", got, want)
	}
	if got := ProblemBytes(0, 100); got != 0 {
		t.Errorf("ProblemBytes(0, 100) = %d, want 0", got)
	}
}

// NewProblem refuses, before building anything, a problem whose Gram
// products would not fit in the memory available, naming the numbers; it
// builds one that fits, and any when the memory cannot be told.
func TestNewProblemRefusesWhatCannotFit(t *testing.T) {
	defer func(a func() int64) { availableMemory = a }(availableMemory)
	rng := rand.New(rand.NewPCG(3, 4))
	const n, F = 1000, 5
	leaves := make([]int, 40)
	for i := range leaves {
		leaves[i] = 4
	}
	e := outRandomEnsemble(rng, F, leaves...)
	d := outRandomData(rng, n, F)
	for i := range d.Labels {
		d.Labels[i] = float32(i % 2)
	}
	cost := []float64{1, 2, 3, 4, 5}
	need := ProblemBytes(len(e.Trees), n)
	for _, avail := range []int64{0, need, need - 1, 1 << 20} {
		availableMemory = func() int64 { return avail }
		pr, err := NewProblem(e, d, cost, 1, DefaultTargets())
		fits := avail == 0 || avail >= need
		if fits {
			if err != nil || pr == nil {
				t.Errorf("%d bytes available (%d needed): %v", avail, need, err)
			}
			continue
		}
		var me *MemoryError
		if !errors.As(err, &me) || pr != nil {
			t.Fatalf("%d bytes available (%d needed): got %v, want a *MemoryError", avail, need, err)
		}
		if me.Trees != 40 || me.Docs != n || me.Need != need || me.Avail != avail {
			t.Errorf("%d bytes available: %+v", avail, *me)
		}
		for _, s := range []string{"of 40 trees on 1,000 training documents needs about", "41×41", "available: use a model with fewer trees"} {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%q does not say %q", err, s)
			}
		}
	}
	// Without the documents (the commands check before reading the data).
	availableMemory = func() int64 { return 7 << 30 }
	err := CheckProblemMemory(20000, 0)
	want := "the cascade problem of 20,000 trees needs about 7.5 GiB of memory (two Gram products HᵀΩH of 20,001×20,001 float64, which grow with the square of the trees), more than the 7.0 GiB available: use a model with fewer trees"
	if err == nil || err.Error() != want {
		t.Errorf("CheckProblemMemory(20000, 0) = %v,\nwant %s", err, want)
	}
	if err := CheckProblemMemory(2500, 0); err != nil {
		t.Errorf("CheckProblemMemory(2500, 0) with 7 GiB: %v", err)
	}
}
