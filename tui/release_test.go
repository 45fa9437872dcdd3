package tui

import (
	"testing"

	tea "github.com/cronus-ltr/cronus/internal/tea"
)

// TestFinishedRunReleasesMemory: once a run has finished, the workbench
// hands the garbage of its steps back to the system. The optimiser
// allocates about 80 MB a second on 400,000 documents × 300 trees, so the
// heap stood at twice its live size (GOGC) when the run ended, and an idle
// workbench then allocated too little for another collection: it held
// 1.86 GB resident for 0.84 GB live until it was closed. Not while the run
// goes on (each snapshot would cost a collection), once at its end.
func TestFinishedRunReleasesMemory(t *testing.T) {
	calls := 0
	old := freeMemory
	freeMemory = func() { calls++ }
	t.Cleanup(func() { freeMemory = old })
	m := ready(t)
	var cmd tea.Cmd = waitOpt(m.gen, m.run.job.Events())
	for m.running {
		m, cmd = update(t, m, cmd())
		if m.running && calls != 0 {
			t.Fatalf("memory released %d times during the run", calls)
		}
	}
	if cmd == nil {
		t.Fatal("the finished run's event returned no command: nothing releases its memory")
	}
	cmd()
	if calls != 1 {
		t.Errorf("the finished run's command released memory %d times, want 1", calls)
	}
}
