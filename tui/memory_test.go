package tui

import (
	"runtime"
	"strings"
	"testing"
	"time"
	"weak"

	tea "github.com/cronus-ltr/cronus/internal/tea"
)

// TestOldProblemReleased: once a retrain of the base ensemble, or a load of
// other data, has started, nothing keeps the old cascade problem (the trees'
// outputs on every training document, most of a session's memory): the
// runs shown and the last finished run's best held it until the new run
// had finished, so a retrain built its problem beside the old one (1.6 GB
// at the peak on the 200,000-document synthetic set, 0.7 GB at the
// start). After the retrain, s and k still wait for the new ensemble's
// first cascade, and s then saves it.
func TestOldProblemReleased(t *testing.T) {
	retrain := func(t *testing.T, m Model) (Model, tea.Cmd) {
		m.panel, m.sel = true, parTrees
		m, _ = update(t, m, key("enter"))
		m, _ = update(t, m, key("25"))
		m, _ = update(t, m, key("enter"))
		m, cmd := update(t, m, debounceMsg{edit: m.edits})
		if m.phase != phaseTraining {
			t.Fatalf("trees edit: phase %d", m.phase)
		}
		return m, cmd
	}
	var restart tea.Cmd // the r of the case that retrains while it runs
	for _, c := range []struct {
		name  string
		start func(*testing.T, Model) Model // from a run under way
		drop  func(*testing.T, Model) (Model, tea.Cmd)
	}{
		{"retrain after a finished run", endRun, retrain},
		{"retrain while a run is under way", func(_ *testing.T, m Model) Model { return m }, retrain},
		{"retrain while a restart starts", func(t *testing.T, m Model) Model {
			m, restart = update(t, endRun(t, m), key("r"))
			return m
		}, func(t *testing.T, m Model) (Model, tea.Cmd) {
			// Bubble Tea runs the restart on a goroutine of its own: it
			// starts a run on the old problem, which its message, of an
			// older generation once the retrain has started, cancels.
			started := make(chan tea.Msg, 1)
			go func(cmd tea.Cmd) { started <- cmd() }(restart)
			restart = nil // as Bubble Tea drops a command it ran
			m, cmd := retrain(t, m)
			m, _ = update(t, m, <-started)
			return m, cmd
		}},
		{"load of other data", endRun, func(t *testing.T, m Model) (Model, tea.Cmd) {
			return m.resetFlow([numFields]string{mq2008.Train, mq2008.Valid, mq2008.Test, mq2008.Costs}), nil
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := c.start(t, ready(t))
			if m.w.pr == nil || m.snapRun.w == nil {
				t.Fatal("no problem, or no run shown, before the retrain")
			}
			old := weak.Make(m.w.pr)
			m, cmd := c.drop(t, m)
			// A cancelled run lets go of it within one step (the minute
			// is for a loaded machine: the poll ends once it is let go).
			for deadline := time.Now().Add(time.Minute); old.Value() != nil && time.Now().Before(deadline); {
				runtime.GC()
				time.Sleep(10 * time.Millisecond)
			}
			if old.Value() != nil {
				t.Fatal("the old cascade problem is still reachable")
			}
			runtime.KeepAlive(m) // the model is what must not hold it
			if cmd == nil {
				return // a load: TestLoad* drive it
			}
			for _, k := range []string{"s", "k"} {
				if mm, cmd := update(t, m, key(k)); cmd != nil || !strings.Contains(mm.status, newEnsembleWait) {
					t.Errorf("%s while retraining: command %v, status %q", k, cmd != nil, mm.status)
				}
			}
			m = drive(t, m, cmd, func(m Model, msg tea.Msg) bool {
				_, ok := msg.(optMsg)
				return ok && m.snap.BestCascade != nil
			})
			if s, ok := m.savable(); !ok || len(s.run.w.e.Trees) != 25 || s.run.w.pr == nil {
				t.Errorf("after the retrain: savable %v", ok)
			}
		})
	}
}

// TestRebuiltProblemReleased: once a threshold, ω⁺ or targets edit has
// built the new cascade problem, nothing keeps the old one: the kept
// cascades (which such an edit keeps), the run shown and the last
// finished run's best held it, so each edit with a cascade kept added a
// problem to the session's memory for good (on the 150,000-document
// synthetic set 0.67 GB resident, then 1.01, 1.37 and 1.72 GB after three
// threshold edits, a cascade kept before each). The kept cascade is still
// saved as it was.
func TestRebuiltProblemReleased(t *testing.T) {
	t.Chdir(t.TempDir())
	m := endRun(t, ready(t))
	m, _ = update(t, m, key("k"))
	if len(m.kept) != 1 {
		t.Fatalf("k: status %q", m.status)
	}
	old := weak.Make(m.w.pr)
	m = typeParam(t, m, parRelevant, "2") // up to the new run's first event
	if m.w.tg.Relevant != 2 || m.w.pr == nil {
		t.Fatalf("threshold 2: problem built %v, status %q", m.w.pr != nil, m.status)
	}
	for deadline := time.Now().Add(time.Minute); old.Value() != nil && time.Now().Before(deadline); {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if old.Value() != nil {
		t.Fatal("the old cascade problem is still reachable")
	}
	runtime.KeepAlive(m)
	m.compare = true
	m, save := update(t, m, key("s"))
	if save == nil {
		t.Fatalf("s in the compare view: status %q", m.status)
	}
	if msg := save().(savedMsg); msg.err != nil || len(msg.files) != 1 {
		t.Errorf("saving the kept cascade: %v", msg.err)
	}
}
