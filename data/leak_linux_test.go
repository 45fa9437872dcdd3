package data

import (
	"bufio"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/cronus-ltr/cronus/internal/fdcount"
)

// The readers and the atomic writer close every file they open on every
// path, those that leave a file to a goroutine too: a FIFO whose open was
// given up at the cancellation (the open ends when a writer or reader
// comes, and the goroutine closes its file), and a pipe whose writer
// stalls mid-text, cancelled (the command line's tests cover the regular files; the
// workbench reads and writes through these functions many times in one
// process). The pipe ends the test itself holds are closed before the
// count.
func TestReadersAndWritersCloseTheirFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := func() string {
		p := filepath.Join(t.TempDir(), "fifo")
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Skip("no FIFO here:", err)
		}
		return p
	}
	bad := writeTemp(t, []byte(strings.Repeat("1 qid:1 1:0.5\n", 40)+"1 qid:1 1:x\n"+strings.Repeat("0 qid:2 1:0.5\n", 40)))
	badCosts := writeTemp(t, []byte("1\n2\nthree\n"))
	missing := filepath.Join(dir, "missing.txt")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name string
		run  func() error
	}{
		{"bad line", func() error { _, err := ReadFile(context.Background(), bad, ReadOptions{}); return err }},
		{"missing", func() error { _, err := ReadFile(context.Background(), missing, ReadOptions{}); return err }},
		{"directory", func() error { _, err := ReadFile(context.Background(), dir, ReadOptions{}); return err }},
		{"cancelled", func() error { _, err := ReadFile(cancelled, bad, ReadOptions{}); return err }},
		{"bad costs", func() error { _, err := ReadCostsFile(badCosts, 0); return err }},
		{"missing costs", func() error { _, err := ReadCostsFile(missing, 0); return err }},
		{"costs of a directory", func() error { _, err := ReadCostsFile(dir, 0); return err }},
		{"whole of a directory", func() error { _, err := ReadWhole(dir, "a model file"); return err }},
		{"FIFO without a writer", func() error {
			// The open waits for a writer, in a goroutine given up at the
			// cancellation; the writer that comes after gets a reader,
			// which the goroutine closes.
			p := fifo()
			_, err := ReadFile(newCancelOnWait(), p, ReadOptions{})
			if w, werr := os.OpenFile(p, os.O_WRONLY, 0); werr == nil {
				w.Close()
			}
			return err
		}},
		{"pipe stalled mid-text", func() error {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			defer w.Close()
			w.WriteString("1 qid:1 1:0.5\n")
			_, err = ReadPipe(newCancelOnWait(), "/dev/fd/"+strconv.Itoa(int(r.Fd())), "a file")
			return err
		}},
		{"FIFO output without a reader", func() error {
			p := fifo()
			err := WriteAtomicAllContext(newCancelOnWait(), []Output{{filepath.Join(dir, "out.txt"), writeString("staged")}, {p, writeString("direct")}})
			if r, rerr := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0); rerr == nil {
				r.Close()
			}
			return err
		}},
		{"output that fails", func() error {
			return WriteAtomicAll([]Output{{filepath.Join(dir, "out.txt"), writeString("staged")}, {filepath.Join(dir, "out2.txt"), func(w *bufio.Writer) error {
				w.WriteString("half")
				return errors.New("the writer failed")
			}}})
		}},
	}
	fdcount.NoCollection(t)
	for _, c := range cases {
		fdcount.Collect()
		before := fdcount.Open(t)
		if err := c.run(); err == nil {
			t.Errorf("%s: no error", c.name)
		}
		if leaked := fdcount.Leaked(t, before); len(leaked) > 0 {
			t.Errorf("%s left open:\n%s", c.name, strings.Join(leaked, "\n"))
		}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if strings.Contains(e.Name(), ".tmp") || strings.HasPrefix(e.Name(), "out") {
				t.Errorf("%s left %s", c.name, e.Name())
				os.Remove(filepath.Join(dir, e.Name()))
			}
		}
	}
}

// cancelOnWait is a context that cancels itself when code first waits on
// it (asks for Done, as openContext's wait for an open does, and a
// read's deadline): an interrupt that comes while a FIFO's open waits
// for its other end, or a pipe's read for its writer.
type cancelOnWait struct {
	context.Context
	cancel context.CancelFunc
}

func newCancelOnWait() cancelOnWait {
	ctx, cancel := context.WithCancel(context.Background())
	return cancelOnWait{ctx, cancel}
}

func (c cancelOnWait) Done() <-chan struct{} {
	c.cancel()
	return c.Context.Done()
}
