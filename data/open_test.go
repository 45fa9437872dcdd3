package data

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestOpenErrors: a file that cannot be read is named, with the reason in
// plain words (it read "stat none.txt: no such file or directory", and for
// a directory "read adir: is a directory" or, from a cost file,
// "adir:1: cannot read the line: read adir: is a directory").
func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.txt")
	os.WriteFile(file, []byte("1\n"), 0o644)
	none := filepath.Join(dir, "none.txt")
	under := filepath.Join(file, "x")
	read := map[string]func(string) error{
		"OpenFile": func(p string) error {
			f, err := OpenFile(p, "a model file")
			if err == nil {
				f.Close()
			}
			return err
		},
		"ReadWhole":     func(p string) error { _, err := ReadWhole(p, "a model file"); return err },
		"ReadFile":      func(p string) error { _, err := ReadFile(context.Background(), p, ReadOptions{}); return err },
		"ReadCostsFile": func(p string) error { _, err := ReadCostsFile(p, 0); return err },
	}
	what := map[string]string{"OpenFile": "a model file", "ReadWhole": "a model file", "ReadFile": "an SVMlight/LETOR file", "ReadCostsFile": "a cost file"}
	for name, f := range read {
		cases := []struct {
			path, want string
			notExist   bool
		}{
			{none, none + ": no such file", true},
			{dir, dir + ": is a directory, expected " + what[name], false},
			{under, under + ": no such file (a part of the path is not a directory)", false},
			// "-" is standard output for the output flags, not an input.
			{"-", "-: no such file (for standard input give /dev/stdin)", true},
		}
		if what[name] == "a model file" {
			// A built-in name where a file of another kind is read (a
			// model, a cascade, scores): it said only "no such file".
			cases = append(cases, struct {
				path, want string
				notExist   bool
			}{"builtin:mq2008/test", "builtin:mq2008/test: no such file (the built-in names are data and cost files; this wants a model file)", true})
		}
		for _, c := range cases {
			err := f(c.path)
			if err == nil || err.Error() != c.want {
				t.Errorf("%s(%s): got %v, want %s", name, c.path, err, c.want)
			}
			if errors.Is(err, os.ErrNotExist) != c.notExist {
				t.Errorf("%s(%s): errors.Is(err, os.ErrNotExist) = %v", name, c.path, !c.notExist)
			}
		}
	}
	if b, err := ReadWhole(file, "a model file"); err != nil || string(b) != "1\n" {
		t.Errorf("ReadWhole of a file: %q, %v", b, err)
	}
}

// ReadWhole drops a UTF-8 byte order mark at the start, of a plain file
// and of a gzip-compressed one's text, and nothing else.
func TestReadWholeBOM(t *testing.T) {
	dir := t.TempDir()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("\xef\xbb\xbf{}\n"))
	zw.Close()
	for name, c := range map[string]struct{ in, want string }{
		"bom.json":    {"\xef\xbb\xbf{}\n", "{}\n"},
		"bom2.json":   {"\xef\xbb\xbf\xef\xbb\xbf{}", "\xef\xbb\xbf{}"},
		"inner.json":  {"{\"a\": \"\xef\xbb\xbf\"}", "{\"a\": \"\xef\xbb\xbf\"}"},
		"bom.json.gz": {gz.String(), "{}\n"},
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(c.in), 0o644); err != nil {
			t.Fatal(err)
		}
		if b, err := ReadWhole(p, "a model file"); err != nil || string(b) != c.want {
			t.Errorf("%s: %q, %v; want %q", name, b, err, c.want)
		}
	}
}
