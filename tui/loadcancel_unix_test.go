//go:build unix

package tui

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestNewerLoadCancelsPending: a load from the load screen that replaces
// one still under way ends it. The replaced load read on to the end and
// its data were then dropped (on the 200,000-document synthetic set, a
// session on the built-in data went from 70 MB to 0.5 GB resident, and a
// core spent seconds on it), and one of a FIFO nobody writes to waited
// for ever: the FIFO stands for any read that takes long.
func TestNewerLoadCancelsPending(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	fifo := filepath.Join(t.TempDir(), "train.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	m := ready(t)
	m, first := m.reload([numFields]string{fifo, "", "", "", ""})
	m, second := m.reload([numFields]string{mq2008.Train, mq2008.Valid, mq2008.Test, mq2008.Costs, ""})
	done := make(chan pendingLoadMsg, 1)
	go func() { done <- first().(pendingLoadMsg) }()
	select {
	case msg := <-done:
		if !errors.Is(msg.err, context.Canceled) {
			t.Errorf("the replaced load ended with %v, not cancelled", msg.err)
		}
		if m2, _ := update(t, m, msg); m2.gen != m.gen || m2.errLine {
			t.Errorf("the replaced load's end was taken: generation %d (was %d), status %q", m2.gen, m.gen, m2.status)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the replaced load still reads 5 s after a newer load started")
	}
	// The open left in the background still waits for a writer (so this
	// open does not block); it then closes its file.
	if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
		w.Close()
	}
	gen := m.gen
	if m, _ = update(t, m, second()); m.gen <= gen || m.phase != phaseTraining {
		t.Errorf("the newer load: generation %d (was %d), phase %d, status %q", m.gen, gen, m.phase, m.status)
	}
}
