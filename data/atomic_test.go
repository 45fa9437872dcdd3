package data

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"testing"
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
	if b, _ := os.ReadFile(path); err != nil || string(b) != "new" || st.Mode().Perm() != 0o644 {
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
