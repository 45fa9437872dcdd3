package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestStreamUnderTwoNames: one pipe given as two inputs under two names
// (a FIFO and a link to it) is refused before any read, naming both, exit
// 2: the first read would take all its text. Two different pipes are two
// inputs, and are read. Only the same name given twice was tested.
func TestStreamUnderTwoNames(t *testing.T) {
	dir := t.TempDir()
	fifo, link := filepath.Join(dir, "f"), filepath.Join(dir, "l")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "m.json")
	code, _, errOut := runCLI(t, "train", "--train", fifo, "--valid", link, "--trees", "2", "--out", out)
	if code != 2 || !strings.Contains(errOut, fifo+" and "+link+" are the same input") {
		t.Errorf("train --train FIFO --valid LINK-TO-IT: exit %d, stderr %q; want exit 2 naming both", code, errOut)
	}
	if _, err := os.Lstat(out); err == nil {
		t.Error("a refused train wrote its model")
	}

	// Two FIFOs, each fed once: a model is trained.
	text := builtinTestText(t)
	f2 := filepath.Join(dir, "f2")
	if err := syscall.Mkfifo(f2, 0o600); err != nil {
		t.Fatal(err)
	}
	feed := func(p string) chan error {
		done := make(chan error, 1)
		go func() {
			w, err := os.OpenFile(p, os.O_WRONLY, 0)
			if err == nil {
				_, err = w.Write(text)
				w.Close()
			}
			done <- err
		}()
		return done
	}
	d1, d2 := feed(fifo), feed(f2)
	if code, _, errOut := runCLI(t, "train", "--train", fifo, "--valid", f2, "--trees", "2", "--out", out); code != 0 {
		t.Fatalf("train on two FIFOs: exit %d: %s", code, errOut)
	}
	for _, d := range []chan error{d1, d2} {
		if err := <-d; err != nil {
			t.Error(err)
		}
	}
	if _, err := os.Stat(out); err != nil {
		t.Error(err)
	}
}
