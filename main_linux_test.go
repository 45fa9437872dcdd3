package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"testing"
	"time"
)

// An interrupt while a data file is read from a pipe whose writer neither
// writes nor closes (a slow <(…), a FIFO) waited for the writer; it stops
// the command at once, with the exit status of an interrupt.
func TestInterruptWhileReadingPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer time.AfterFunc(100*time.Millisecond, cancel).Stop()
	type result struct {
		code   int
		stderr string
	}
	done := make(chan result, 1)
	go func() {
		var o, e bytes.Buffer
		code := run(ctx, []string{"inspect", fmt.Sprintf("/dev/fd/%d", r.Fd())}, &o, &e)
		done <- result{code, e.String()}
	}()
	select {
	case res := <-done:
		if res.code != 130 || res.stderr != "cronus inspect: interrupted\n" {
			t.Errorf("exit %d, stderr %q; want 130 and the interrupt", res.code, res.stderr)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("still reading the pipe 5 s after the interrupt")
	}
}
