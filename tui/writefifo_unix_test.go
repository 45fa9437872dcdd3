//go:build unix

package tui

import (
	"os"
	"syscall"
	"testing"
	"time"

	tea "github.com/cronus-ltr/cronus/internal/tea"
)

// TestQuitNowGivesUpBlockedWrite: a save or an export whose file waits
// for ever (a FIFO nobody reads at ./cronus-cascade.json or
// ./cronus-curves.csv) does not hold the process once the user quits at
// once (q, then q again): the write gives up, as the commands' writes do
// when interrupted. It waited in Run for the write to end: the screen
// went blank, the process stayed, and one ctrl+c did not end it.
func TestQuitNowGivesUpBlockedWrite(t *testing.T) {
	for _, c := range []struct{ key, path string }{{"s", savePath}, {"e", curvesCSV}} {
		t.Run(c.key, func(t *testing.T) {
			t.Chdir(t.TempDir())
			if err := syscall.Mkfifo(c.path, 0o600); err != nil {
				t.Fatal(err)
			}
			m := ready(t)
			defer m.cancel()
			m, write := update(t, m, key(c.key))
			if write == nil {
				t.Fatalf("%s returned no command: %q", c.key, m.status)
			}
			done := make(chan tea.Msg, 1)
			go func() { done <- write() }()
			// Quit once the write has begun (and, for the export, has
			// measured its baselines: it opens its files after them).
			for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
				m.writes.mu.Lock()
				n := m.writes.n
				m.writes.mu.Unlock()
				if n > 0 || time.Now().After(deadline) {
					break
				}
			}
			if c.key == "e" {
				time.Sleep(500 * time.Millisecond)
			}
			m, _ = update(t, m, key("q"))
			if !m.quitting {
				t.Fatalf("q during the write: status %q", m.status)
			}
			if _, cmd := update(t, m, key("q")); cmd == nil || cmd() != tea.Quit() {
				t.Fatalf("a second q: command %v, want quit", cmd)
			}
			closed := make(chan struct{})
			go func() { m.writes.close(); close(closed) }() // as Run does once Bubble Tea has quit
			select {
			case <-closed:
			case <-time.After(5 * time.Second):
				// Let the write end, so that the test's goroutines do.
				if r, err := os.OpenFile(c.path, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
					defer r.Close()
				}
				t.Fatal("the workbench still waits for the write 5 s after the second q")
			}
			<-done
		})
	}
}
