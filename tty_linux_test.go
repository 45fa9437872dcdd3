package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal pair: the master, which the test reads,
// and the slave, a terminal for a child process.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skip("no pseudo-terminals here:", err)
	}
	fd := int(m.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		t.Skip("cannot unlock the pseudo-terminal:", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		m.Close()
		t.Skip("no pseudo-terminal number:", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Skip("cannot open the pseudo-terminal:", err)
	}
	t.Cleanup(func() { m.Close(); s.Close() })
	return m, s
}

// A command run on a terminal that answers no query (a pty that ssh -tt,
// expect or a pre-commit runner relays) starts at once and writes nothing
// but its output: Bubble Tea v1's package init asked the terminal for its
// background colour (OSC 11, then a cursor report) in every process, the
// workbench's or not, wrote the query into the output and waited for
// termenv's 5 s timeout before main ran. `cronus version` took 5 s there.
func TestNoTerminalQueryAtStart(t *testing.T) {
	if os.Getenv("CRONUS_TEST_TTY_CHILD") != "" { // the child, on the pty
		code, out, errOut := runCLI(t, "version")
		fmt.Printf("exit %d\n%s%s", code, out, errOut)
		return
	}
	master, slave := openPTY(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestNoTerminalQueryAtStart$")
	cmd.Env = append(os.Environ(), "CRONUS_TEST_TTY_CHILD=1", "TERM=xterm-256color")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	// Its own session, the pty its controlling terminal and it in the
	// foreground: a shell's command line, where termenv asks.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Skip("cannot start a process on the pty:", err)
	}
	slave.Close()
	var out bytes.Buffer
	done := make(chan struct{})
	go func() { io.Copy(&out, master); close(done) }() // ends with EIO once the child is gone
	err := cmd.Wait()
	elapsed := time.Since(start)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
	}
	if err != nil {
		t.Fatalf("child: %v\n%q", err, out.String())
	}
	if s := out.String(); strings.Contains(s, "\x1b]11;?") || strings.Contains(s, "\x1b[6n") {
		t.Errorf("the process asked the terminal for its colours (%.1f s): %q", elapsed.Seconds(), s)
	} else if !strings.Contains(s, "exit 0") {
		t.Errorf("no version printed: %q", s)
	}
}

// Encoding and writing a big model or export (4,000 trees 9 deep: 1.3 to
// 3 s) showed nothing on the terminal, where reading one shows how long
// it has been. writeShowing shows "writing FILES (Ns)" from a second on,
// clears it when the write ends and returns the write's error; a short
// write shows nothing. The long write lasts until its line is shown (at
// most a minute), not a fixed 1.5 s: on a loaded machine the ticker could
// first fire after that, and the test failed with nothing shown.
func TestWriteShowing(t *testing.T) {
	errWrite := fmt.Errorf("the write's own error")
	const line = "\r\x1b[Kwriting m.c, m.h ("
	for _, long := range []bool{false, true} {
		master, slave := openPTY(t)
		var out syncBuffer
		done := make(chan struct{})
		go func() { io.Copy(&out, master); close(done) }() // ends with EIO once the slave is closed
		start := time.Now()
		err := writeShowing(slave, []string{"m.c", "m.h"}, func() error {
			for deadline := time.Now().Add(time.Minute); long && !strings.Contains(out.String(), line) && time.Now().Before(deadline); {
				time.Sleep(10 * time.Millisecond)
			}
			return errWrite
		})
		took := time.Since(start)
		slave.Close()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatal("the terminal's output did not end")
		}
		if err != errWrite {
			t.Errorf("long %v: returned %v", long, err)
		}
		s := out.String()
		switch {
		case !long && s != "" && took < time.Second:
			t.Errorf("a write of no time showed %q", s)
		case long && (!strings.Contains(s, line) || !strings.HasSuffix(s, "\r\x1b[K")):
			t.Errorf("a write of %v showed %q; want \"writing m.c, m.h (Ns)\", then the line cleared", took, s)
		case long:
			// The seconds shown: at least 1, at most the write's.
			var n int
			if _, err := fmt.Sscanf(s[strings.Index(s, line)+len(line):], "%ds)", &n); err != nil || n < 1 || float64(n) > took.Seconds()+0.5 {
				t.Errorf("a write of %v showed %q (%v); want its seconds, from 1", took, s, err)
			}
		}
	}
}
