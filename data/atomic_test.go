package data

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func writeString(s string) func(w *bufio.Writer) error {
	return func(w *bufio.Writer) error {
		_, err := w.WriteString(s)
		return err
	}
}

func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A failed write leaves the old file and no temporary file.
	if err := WriteAtomic(path, func(w *bufio.Writer) error {
		w.WriteString("half")
		return errors.New("boom")
	}); err == nil {
		t.Fatal("the write's error was lost")
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("after a failed write the file holds %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left behind: %v", ents)
	}
	if err := WriteAtomic(path, writeString("new")); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	// The replaced file's permissions stay (TestWriteAtomicMode).
	if b, _ := os.ReadFile(path); err != nil || string(b) != "new" || st.Mode().Perm() != 0o600 {
		t.Errorf("file %q, mode %v, err %v", b, st.Mode(), err)
	}

	// Through a symbolic link: the target is replaced, the link stays.
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	if err := WriteAtomic(link, writeString("via link")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", st.Mode(), err)
	}
	if b, _ := os.ReadFile(path); string(b) != "via link" {
		t.Errorf("the link's target holds %q", b)
	}

	// Through a link to a file that does not exist yet, in another
	// directory, relative to the link, through a second link: the file is
	// written there and the links stay (the first link was replaced by a
	// file).
	os.Mkdir(filepath.Join(dir, "other"), 0o755)
	dangling, second := filepath.Join(dir, "dangling.txt"), filepath.Join(dir, "other", "second.txt")
	if err := os.Symlink(filepath.Join("other", "second.txt"), dangling); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("new.txt", second); err != nil {
		t.Fatal(err)
	}
	if got, want := LinkTarget(dangling), filepath.Join(dir, "other", "new.txt"); got != want {
		t.Errorf("LinkTarget of a dangling link: %s, want %s", got, want)
	}
	if err := WriteAtomic(dangling, writeString("via dangling")); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{dangling, second} {
		if st, err := os.Lstat(l); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s was replaced: %v %v", l, st.Mode(), err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "other", "new.txt")); string(b) != "via dangling" {
		t.Errorf("the dangling link's target holds %q", b)
	}
	// Links that go round are written as the path itself would be: refused
	// by the system, not followed for ever.
	loop := filepath.Join(dir, "loop")
	os.Symlink(loop, loop)
	if got := LinkTarget(loop); got != loop {
		t.Errorf("LinkTarget of a link to itself: %s", got)
	}

	// A directory is refused by name.
	if err := WriteAtomic(dir, writeString("x")); err == nil {
		t.Error("wrote onto a directory")
	}
}

// WriteAtomicAll writes all its files or none: when one fails, those
// written before it are not renamed into place either, and no temporary
// file stays.
func TestWriteAtomicAll(t *testing.T) {
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.svg"), filepath.Join(dir, "sub")
	os.WriteFile(a, []byte("old a"), 0o644)
	os.Mkdir(c, 0o755)
	fail := func(w *bufio.Writer) error {
		w.WriteString("half")
		return errors.New("boom")
	}
	for name, outs := range map[string][]Output{
		"second write fails":  {{a, writeString("new a")}, {b, fail}},
		"first write fails":   {{b, fail}, {a, writeString("new a")}},
		"a path is directory": {{a, writeString("new a")}, {b, writeString("new b")}, {c, writeString("new c")}},
	} {
		if err := WriteAtomicAll(outs); err == nil {
			t.Errorf("%s: no error", name)
		}
		if got, _ := os.ReadFile(a); string(got) != "old a" {
			t.Errorf("%s: a.csv holds %q", name, got)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 2 {
			t.Errorf("%s: left %v, want a.csv and sub only", name, ents)
		}
	}
	if err := WriteAtomicAll([]Output{{a, writeString("new a")}, {b, writeString("new b")}}); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{a: "new a", b: "new b"} {
		if got, _ := os.ReadFile(path); string(got) != want {
			t.Errorf("%s holds %q, want %q", path, got, want)
		}
	}
}

// An output named .gz is gzip-compressed, whatever writes it (a model
// written as m.json.gz was plain text under that name), the same bytes
// every time, and reads back through Open; an error inside leaves nothing.
func TestWriteAtomicGzip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.json.gz")
	text := strings.Repeat("{\"trees\": [1, 2, 3]}\n", 5000)
	if err := WriteAtomic(path, writeString(text)); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b || len(b) > len(text)/10 {
		t.Fatalf("%d bytes, starting % x, for %d of text: not gzip (err %v)", len(b), b[:min(len(b), 2)], len(text), err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if back, err := io.ReadAll(zr); err != nil || string(back) != text {
		t.Errorf("read back %d bytes (err %v), wrote %d", len(back), err, len(text))
	}
	if err := WriteAtomic(path+"2.gz", writeString(text)); err != nil {
		t.Fatal(err)
	}
	if b2, _ := os.ReadFile(path + "2.gz"); !bytes.Equal(b, b2) {
		t.Error("two writes of the same text differ: the header holds a time or a name")
	}
	bad := filepath.Join(dir, "bad.gz")
	if err := WriteAtomic(bad, func(w *bufio.Writer) error { w.WriteString(text); return errors.New("boom") }); err == nil {
		t.Fatal("the error was lost")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("after a failed write the directory holds %d files", len(ents))
	}
}

// A big output reached the file in one Write (a model is encoded whole,
// 123 MB for 2,000 trees 9 deep), which ran to its end after an
// interrupt: gzip-compressing it took 3 s. The write now looks at ctx
// every megabyte, and under gzip stops the compression: the Write that
// follows the cancel fails with ctx's error, the call returns it at once,
// and nothing is left in the directory.
func TestWriteAtomicCancelledMidWrite(t *testing.T) {
	big := make([]byte, 64<<20)
	for i := range big { // compresses about as a model does, not to nothing
		big[i] = "0123456789.,[]e-"[(i*7+i>>9)%16]
	}
	for _, name := range []string{"m.json", "m.json.gz"} {
		dir := t.TempDir()
		ctx, cancel := context.WithCancel(context.Background())
		var afterCancel error
		start := time.Now()
		err := WriteAtomicAllContext(ctx, []Output{{filepath.Join(dir, name), func(w *bufio.Writer) error {
			if _, err := w.Write(big[:1<<20]); err != nil {
				return err
			}
			cancel()
			_, afterCancel = w.Write(big)
			return afterCancel
		}}})
		elapsed := time.Since(start)
		cancel()
		if !errors.Is(err, context.Canceled) || !errors.Is(afterCancel, context.Canceled) {
			t.Errorf("%s: returned %v, the write after the cancel %v; want context.Canceled for both", name, err, afterCancel)
		}
		if elapsed > 2*time.Second { // about a millisecond; the whole write takes 0.1 s, under gzip 0.5 s
			t.Errorf("%s: returned %v after the start", name, elapsed)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Errorf("%s: the directory holds %v, want nothing", name, ents)
		}
	}
}
