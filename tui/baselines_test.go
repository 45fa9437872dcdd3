package tui

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/baseline"
	"github.com/cronus-ltr/cronus/engine/metric"
)

// TestBaselinesEveryPrefix: the workbench's prefix rows are those of
// cronus sweep: every prefix scored, the 12 geometric counts and those no
// shorter prefix beats on validation or test kept, the same counts on
// both splits, so that the baseline front drawn and exported is that of
// every prefix (with the 12 counts alone it missed strong ones).
func TestBaselinesEveryPrefix(t *testing.T) {
	m := ready(t)
	w := m.w
	ctx := context.Background()
	counts := func(pts []baseline.Point) []float64 {
		var ks []float64
		for _, p := range pts {
			if p.Method == baseline.MethodPrefix {
				ks = append(ks, p.Lambda)
			}
		}
		return ks
	}
	test, err := w.baselines(ctx, w.test, "test")
	if err != nil {
		t.Fatal(err)
	}
	valid, err := w.validBaselines(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if kt, kv := counts(test), counts(valid); !reflect.DeepEqual(kt, kv) {
		t.Errorf("prefix counts on test %v, on validation %v", kt, kv)
	}
	for _, s := range []struct {
		pts   []baseline.Point
		split string
	}{{test, "test"}, {valid, "valid"}} {
		d := w.test
		if s.split == "valid" {
			d = w.valid
		}
		all, err := baseline.Prefix(ctx, w.e, d, s.split, w.costs.Cost, treeCost, baseline.AllSteps(len(w.e.Trees)), reportSpecs, metric.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := baseline.SplitPareto(prefixOnly(s.pts), s.split, "ndcg@10"), baseline.SplitPareto(all, s.split, "ndcg@10"); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the prefix front drawn %v, of every prefix %v", s.split, got, want)
		}
	}
}

func prefixOnly(pts []baseline.Point) []baseline.Point {
	var out []baseline.Point
	for _, p := range pts {
		if p.Method == baseline.MethodPrefix {
			out = append(out, p)
		}
	}
	return out
}

// TestBaselinesCountsKept: the prefix counts are found once, when the
// baselines are built, and the export's validation rows take them (each
// export scored every prefix on both splits again: seconds on large data).
func TestBaselinesCountsKept(t *testing.T) {
	m := ready(t)
	w := m.w
	if len(w.prefixKs) == 0 {
		t.Fatal("no prefix counts kept with the baselines")
	}
	want, err := baseline.KeptPrefixCounts(context.Background(), w.e, []*data.Dataset{w.valid, w.test}, w.costs.Cost, treeCost, baseline.PrefixSteps(len(w.e.Trees), 12), reportSpecs[1], metric.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(w.prefixKs, want) {
		t.Errorf("kept counts %v, want %v", w.prefixKs, want)
	}
	// With other counts kept, the export's rows are of those: it takes
	// them and does not find the counts again.
	w2 := *w
	w2.prefixKs = []int{1}
	valid, err := w2.validBaselines(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var ks []float64
	for _, p := range valid {
		if p.Method == baseline.MethodPrefix {
			ks = append(ks, p.Lambda)
		}
	}
	if !reflect.DeepEqual(ks, []float64{1}) {
		t.Errorf("the export's prefix rows are of counts %v, want the kept [1]", ks)
	}
}

// TestPreparingCountsSeconds: while the cascade problem and the baselines
// are built (6 s on the 200,000-document set, and nothing else on screen
// changed) the notes count the seconds, on a tick that runs for as long as
// the phase does, one at a time.
func TestPreparingCountsSeconds(t *testing.T) {
	m := ready(t)
	m.stopRun()
	m.ticking = false
	cmd := m.startPreparing()
	if cmd == nil || m.phase != phasePreparing || !m.ticking {
		t.Fatalf("startPreparing: command %v, phase %d, ticking %v", cmd != nil, m.phase, m.ticking)
	}
	if again := m.startPreparing(); again != nil {
		t.Error("a second start while a tick is due started another")
	}
	if note, _, _ := m.flowNote(); note != "building the cascade problem and the baselines …" {
		t.Errorf("at once: %q", note)
	}
	m.prepStart = time.Now().Add(-3 * time.Second)
	if note, short, _ := m.flowNote(); note != "building the cascade problem and the baselines … 3s" || short != "building the problem … 3s" {
		t.Errorf("after 3 s: %q, %q", note, short)
	}
	m, next := update(t, m, tickMsg{})
	if next == nil {
		t.Error("the tick stopped while the problem is being built")
	}
	m.phase = phaseReady
	if m, next = update(t, m, tickMsg{}); next != nil || m.ticking {
		t.Errorf("the tick goes on once the problem is built (ticking %v)", m.ticking)
	}
}
