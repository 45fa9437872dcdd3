package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestBenchHoldout: bench/holdout.py (bench/cascade.sh's HOLDOUT) splits a
// training file by whole queries, query i (from 0, in file order) to the
// cascade's part when floor((i+1)f) > floor(if), copying the lines as they
// are; it refuses a fraction outside (0, 1), a line without a qid (naming
// the file and line) and a split that leaves a part empty, and then
// leaves no file behind.
func TestBenchHoldout(t *testing.T) {
	py := needPython(t)
	dir := t.TempDir()
	// Five queries, their ids out of order, one of them of three lines
	// with odd spacing.
	queries := []string{
		"2 qid:30 1:0.5 2:1\n",
		"0 qid:10 1:0.25\n1 qid:10  2:3 # doc\n0 qid:10 1:1\n",
		"1 qid:7 1:2\n",
		"0 qid:40 2:0.125\n",
		"2 qid:5 1:9\n",
	}
	train := filepath.Join(dir, "train.txt")
	if err := os.WriteFile(train, []byte(strings.Join(queries, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(path, frac, tag string) (trees, cascade string, out string, err error) {
		trees, cascade = filepath.Join(dir, tag+"trees-"+frac+".txt"), filepath.Join(dir, tag+"cascade-"+frac+".txt")
		b, err := exec.Command(py, filepath.Join("bench", "holdout.py"), path, frac, trees, cascade).CombinedOutput()
		return trees, cascade, string(b), err
	}
	for _, c := range []struct {
		frac    string
		cascade []int // the queries of the cascade's part
	}{
		{"0.5", []int{1, 3}},
		{"0.25", []int{3}},
		{"0.75", []int{1, 2, 3}}, // floor((i+1)·0.75): 0, 1, 2, 3, 3
	} {
		trees, cascade, out, err := run(train, c.frac, "")
		if err != nil {
			t.Fatalf("holdout.py %s: %v\n%s", c.frac, err, out)
		}
		var wantT, wantC strings.Builder
		for i, q := range queries {
			if slices.Contains(c.cascade, i) {
				wantC.WriteString(q)
			} else {
				wantT.WriteString(q)
			}
		}
		if got := readFile(t, trees); got != wantT.String() {
			t.Errorf("fraction %s: the trees' part\n%s\nwant\n%s", c.frac, got, wantT.String())
		}
		if got := readFile(t, cascade); got != wantC.String() {
			t.Errorf("fraction %s: the cascade's part\n%s\nwant\n%s", c.frac, got, wantC.String())
		}
	}
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("1 qid:1 1:1\n0 1:2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, frac, want string }{
		{train, "1", "strictly between 0 and 1"},
		{train, "0", "strictly between 0 and 1"},
		{train, "half", "strictly between 0 and 1"},
		{bad, "0.5", bad + ":2: no qid"},
		{train, "0.1", "leaves one part empty"},
	} {
		trees, cascade, out, err := run(c.path, c.frac, "refused-")
		if err == nil || !strings.Contains(out, c.want) || strings.Contains(out, "Traceback") {
			t.Errorf("holdout.py %s %s: err %v, output %q; want it refused (%s)", c.path, c.frac, err, out, c.want)
		}
		for _, p := range []string{trees, cascade, trees + ".tmp", cascade + ".tmp"} {
			if _, err := os.Stat(p); err == nil {
				t.Errorf("holdout.py %s %s left %s", c.path, c.frac, p)
			}
		}
	}
}
