//go:build unix

package data

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Renaming onto /dev/null replaced the device with a regular file (when run
// as root); a path that is not a regular file is written to directly. A
// named pipe stands in for the device here, so that a failure harms
// nothing.
func TestWriteAtomicNotRegular(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(fifo) // blocks until the writer opens it
		if err != nil {
			got <- err.Error()
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- string(b)
	}()
	if err := WriteAtomic(fifo, writeString("through the pipe")); err != nil {
		t.Fatal(err)
	}
	st, err := os.Lstat(fifo)
	if err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the pipe was replaced by %v (%v)", st.Mode(), err)
	}
	if s := <-got; s != "through the pipe" {
		t.Errorf("the reader got %q", s)
	}
}
