package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
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

// A second interrupt ends the process at once. The first cancels the
// command, but a command blocked where it cannot notice (opening a model
// file that is a FIFO nobody writes to) would hang; the second interrupt
// then gets the default action. The test runs main in a child process.
func TestSecondInterruptEnds(t *testing.T) {
	if args := os.Getenv("CRONUS_TEST_MAIN"); args != "" {
		os.Args = append([]string{"cronus"}, strings.Split(args, " ")...)
		main()
		return
	}
	fifo := filepath.Join(t.TempDir(), "model.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSecondInterruptEnds$")
	cmd.Env = append(os.Environ(), "CRONUS_TEST_MAIN=eval --model "+fifo+" --data builtin:mq2008/test")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	time.Sleep(300 * time.Millisecond)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		t.Logf("the first interrupt ended it: %v", err) // also fine
		return
	case <-time.After(300 * time.Millisecond):
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGINT {
			t.Errorf("after the second interrupt: %v, want death by SIGINT", err)
		}
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		t.Fatal("still running 5 s after a second interrupt")
	}
}
