package data

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"syscall"
	"testing"
	"time"
)

// A pipe (what /dev/stdin and <(…) are) can be read once; the reader makes
// two passes over a file, and from a pipe it read one query of all-zero
// labels. Now the pipe's text, plain or gzip, reads as the file's.
func TestReadFileFromPipe(t *testing.T) {
	text := []byte("2 qid:1 1:0.5 3:1 # a\n0 qid:1 2:0.25\n1 qid:7 1:1 2:2 3:3 # b\n0 qid:7 1:0\n4 qid:9 2:1\n")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(text)
	zw.Close()
	file := filepath.Join(t.TempDir(), "d.txt")
	if err := os.WriteFile(file, text, 0o644); err != nil {
		t.Fatal(err)
	}
	want, err := ReadFile(context.Background(), file, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	bom := append([]byte("\xef\xbb\xbf"), text...)
	for name, b := range map[string][]byte{"plain": text, "gzip": gz.Bytes(), "byte order mark": bom} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			w.Write(b)
			w.Close()
		}()
		// Opening /dev/fd/N opens the pipe again, as a shell's /dev/stdin.
		got, err := ReadFile(context.Background(), fmt.Sprintf("/dev/fd/%d", r.Fd()), ReadOptions{})
		r.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got.Name = want.Name
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s pipe: %d queries, labels %v; the file: %d queries, labels %v", name, got.NumQueries(), got.Labels, want.NumQueries(), want.Labels)
		}
	}
}

// A pipe whose writer neither writes nor closes (a slow <(…), a FIFO)
// kept an interrupted command waiting until the writer ended; the read
// now stops when ctx is cancelled.
func TestReadFileFromPipeCancelled(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	w.Write([]byte("1 qid:1 1:0.5\n"))
	readCancelled(t, fmt.Sprintf("/dev/fd/%d", r.Fd()))
}

// readCancelled reads path and cancels the read 50 ms in: ReadFile must
// return context.Canceled within 5 s.
func readCancelled(t *testing.T, path string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := ReadFile(ctx, path, ReadOptions{})
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Errorf("still reading %s 5 s after the cancellation", path)
	}
}

// Opening a FIFO waits for a writer; one that never comes kept an
// interrupted command waiting in the open itself, before any read.
func TestReadFileFromFIFOWithoutWriter(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	readCancelled(t, fifo)
	// The open left in the background is still waiting for a writer (so
	// this open does not block); it then closes its file.
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
}
