package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cronus-ltr/cronus/internal/fdcount"
)

// badLineText is text with the value of the first feature of line n
// made "x", not a number.
func badLineText(t *testing.T, text []byte, n int) []byte {
	t.Helper()
	lines := bytes.SplitAfter(text, []byte("\n"))
	if len(lines) <= n {
		t.Fatalf("only %d lines", len(lines))
	}
	bad := bytes.Replace(lines[n-1], []byte(" 1:"), []byte(" 1:x"), 1)
	if bytes.Equal(bad, lines[n-1]) {
		t.Fatalf("line %d has no feature 1: %q", n, lines[n-1])
	}
	lines[n-1] = bad
	return bytes.Join(lines, nil)
}

// How a descriptor case's command is stopped.
const (
	runToEnd     = iota
	preCancelled // the context is done before the command starts
	onStderr     // cancelled at the command's first write to standard error
	inReader     // cancelled when the data package first asks whether it is done
	inWriter     // cancelled when an output's writer first asks
	inEngine     // cancelled when the engine (training, a cascade's optimiser or scorer) first asks
)

// Every command closes every file it opens, on every path: success, a
// data file with a bad line, a missing file, a bad cost or model file, a
// truncated gzip file, an output that cannot be written, and an interrupt
// (before the start, mid-read, mid-write, at its first progress line).
// The workbench loads data sets and models many times in one process, and
// a descriptor left open on each failed load runs the process out of them.
// A failed command leaves no temporary file beside its output, nor a
// spool (the reader's copy of a gzip file's text) in the temporary
// directory.
func TestCommandsCloseTheirFiles(t *testing.T) {
	in := t.TempDir()
	model := trainShallow(t, in, 5)
	casc := filepath.Join(in, "c.json")
	sets := []string{"--train", "builtin:mq2008/vali", "--valid", "builtin:mq2008/vali", "--costs", "builtin:mq2008/costs"}
	if code, _, errOut := runCLI(t, append([]string{"cascade", "--model", model, "--stages", "2", "--cycles", "0", "--out", casc}, sets...)...); code != 0 {
		t.Fatal(errOut)
	}
	write := func(name string, b []byte) string {
		p := filepath.Join(in, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	text := builtinTestText(t)
	good := write("good.txt", text)
	goodGz := write("good.txt.gz", gzipBytes(t, text))
	bad := write("bad.txt", badLineText(t, text, 50))
	badGz := write("bad.txt.gz", gzipBytes(t, badLineText(t, text, 50)))
	z := gzipBytes(t, text)
	truncGz := write("trunc.txt.gz", z[:len(z)/2])
	badCosts := write("costs.txt", []byte("1\n2\nthree\n"))
	truncCostsGz := write("costs.txt.gz", gzipBytes(t, bytes.Repeat([]byte("1\n"), 46))[:20])
	m, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	badModel := write("bad.json", m[:len(m)/2])
	truncModelGz := write("m.json.gz", gzipBytes(t, m)[:len(m)/8])
	c, err := os.ReadFile(casc)
	if err != nil {
		t.Fatal(err)
	}
	badCasc := write("badc.json", c[:len(c)/2])
	badImport := map[string]string{}
	for from, p := range map[string]string{"lightgbm": "engine/tree/testdata/lgb-lambdarank.model.txt",
		"xgboost": "engine/tree/testdata/xgb-dart.json", "ranklib": "engine/tree/testdata/ranklib-lambdamart.txt"} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		badImport[from] = write("bad-"+from, b[:len(b)/2])
	}
	missing := filepath.Join(in, "missing.txt")

	out := t.TempDir()
	o := func(name string) string { return filepath.Join(out, name) }
	noDir := filepath.Join(in, "no-such-dir", "out.json")
	notDir := filepath.Join(model, "out.json") // a part of the path is a file
	// Outputs that cannot be written: in a directory that does not exist,
	// under a file, in a directory that takes no file (/proc, which not
	// even root may write in; a read-only one, where root may), and a
	// device that refuses every write (written directly, not renamed).
	unwritable := []string{noDir, notDir, "/proc/out.json", "/dev/full"}
	if os.Geteuid() != 0 {
		ro := filepath.Join(in, "read-only")
		if err := os.Mkdir(ro, 0o555); err != nil {
			t.Fatal(err)
		}
		unwritable = append(unwritable, filepath.Join(ro, "out.json"))
	}
	spools := t.TempDir()
	t.Setenv("TMPDIR", spools)

	type tc struct {
		stop int
		args []string
	}
	var cases []tc
	add := func(stop int, args ...string) { cases = append(cases, tc{stop, args}) }
	stops := []int{runToEnd, preCancelled, onStderr, inReader, inWriter, inEngine}

	// train
	for _, s := range stops {
		add(s, "train", "--train", good, "--valid", goodGz, "--trees", "3", "--log-every", "1", "--out", o("m.json"))
	}
	for _, d := range []string{bad, badGz, truncGz, missing} {
		add(runToEnd, "train", "--train", d, "--trees", "3", "--out", o("m.json"))
		add(runToEnd, "train", "--train", good, "--valid", d, "--trees", "3", "--out", o("m.json"))
	}
	for _, p := range append(unwritable, o("m.json.gz")) {
		add(runToEnd, "train", "--train", goodGz, "--trees", "3", "--out", p)
	}
	// predict
	for _, s := range stops {
		add(s, "predict", "--model", model, "--data", goodGz, "--out", o("p.txt"), "--leaves", o("l.txt"), "--contribs", o("c.txt"))
		add(s, "predict", "--cascade", casc, "--data", good, "--costs", "builtin:mq2008/costs", "--out", o("p.txt"), "--exits", o("e.tsv"))
	}
	for _, d := range []string{bad, badGz, truncGz, missing} {
		add(runToEnd, "predict", "--model", model, "--data", d, "--out", o("p.txt"))
		add(runToEnd, "predict", "--cascade", casc, "--data", d, "--out", o("p.txt"))
	}
	for _, mf := range []string{badModel, truncModelGz, missing} {
		add(runToEnd, "predict", "--model", mf, "--data", good, "--out", o("p.txt"))
		add(runToEnd, "predict", "--cascade", mf, "--data", good, "--out", o("p.txt"))
	}
	add(runToEnd, "predict", "--cascade", badCasc, "--data", good, "--out", o("p.txt"))
	for _, cf := range []string{badCosts, truncCostsGz, missing} {
		add(runToEnd, "predict", "--cascade", casc, "--data", good, "--costs", cf, "--out", o("p.txt"))
	}
	for _, p := range unwritable {
		add(runToEnd, "predict", "--model", model, "--data", good, "--out", o("p.txt"), "--leaves", p)
	}
	// eval
	for _, s := range stops {
		add(s, "eval", "--model", model, "--data", goodGz, "--costs", "builtin:mq2008/costs", "--run", o("run.txt"), "--per-query", o("q.tsv"))
		add(s, "eval", "--cascade", casc, "--data", good, "--costs", "builtin:mq2008/costs", "--run", o("run.txt"))
	}
	add(runToEnd, "predict", "--model", model, "--data", good, "--out", filepath.Join(in, "scores.txt"))
	scores := filepath.Join(in, "scores.txt")
	add(runToEnd, "eval", "--scores", scores, "--data", good, "--compare", scores)
	add(runToEnd, "eval", "--scores", badCosts, "--data", good)
	add(runToEnd, "eval", "--scores", scores, "--data", good, "--compare", missing)
	for _, d := range []string{bad, badGz, truncGz, missing} {
		add(runToEnd, "eval", "--model", model, "--data", d)
		add(runToEnd, "eval", "--cascade", casc, "--data", d)
	}
	for _, cf := range []string{badCosts, truncCostsGz, missing} {
		add(runToEnd, "eval", "--model", model, "--data", good, "--costs", cf)
	}
	for _, mf := range []string{badModel, truncModelGz, missing} {
		add(runToEnd, "eval", "--model", mf, "--data", good)
	}
	for _, p := range unwritable {
		add(runToEnd, "eval", "--model", model, "--data", good, "--run", o("run.txt"), "--per-query", p)
	}
	// import
	for from, p := range map[string]string{"lightgbm": "engine/tree/testdata/lgb-lambdarank.model.txt",
		"xgboost": "engine/tree/testdata/xgb-dart.json", "ranklib": "engine/tree/testdata/ranklib-lambdamart.txt"} {
		for _, s := range stops {
			add(s, "import", "--from", from, p, "--out", o("m.json"))
		}
		for _, f := range []string{badImport[from], missing, truncGz} {
			add(runToEnd, "import", "--from", from, f, "--out", o("m.json"))
		}
		for _, q := range unwritable {
			add(runToEnd, "import", "--from", from, p, "--out", q)
		}
	}
	// export
	for _, s := range stops {
		add(s, "export", "--model", model, "--to", "xgboost", "--out", o("x.json"))
		add(s, "export", "--cascade", casc, "--to", "c", "--costs", "builtin:mq2008/costs", "--out", o("c.c"), "--header", o("c.h"))
	}
	for _, mf := range []string{badModel, truncModelGz, missing} {
		add(runToEnd, "export", "--model", mf, "--to", "c", "--out", o("c.c"))
		add(runToEnd, "export", "--cascade", mf, "--to", "c", "--out", o("c.c"))
	}
	for _, cf := range []string{badCosts, truncCostsGz, missing} {
		add(runToEnd, "export", "--cascade", casc, "--to", "c", "--costs", cf, "--out", o("c.c"))
	}
	for _, p := range unwritable {
		add(runToEnd, "export", "--model", model, "--to", "c", "--out", o("c.c"), "--header", p)
	}
	// cascade and sweep
	small := []string{"--model", model, "--stages", "3", "--cycles", "1"}
	for _, s := range stops {
		add(s, append([]string{"cascade", "--out", o("c.json"), "--trace", o("c.trace"), "--curve", o("c.csv"), "--test", goodGz}, append(small, sets...)...)...)
		add(s, append([]string{"sweep", "--lambdas", "0.1:0.2:2", "--out", o("s.csv"), "--plot", o("s.svg")}, append(small, sets...)...)...)
	}
	for _, cmd := range []string{"cascade", "sweep"} {
		args := func(flags ...string) []string {
			a := []string{cmd, "--lambdas", "0.1:0.2:2", "--out", o("s.csv"), "--stages", "3", "--cycles", "1"}
			if cmd == "cascade" {
				a = []string{cmd, "--out", o("c.json"), "--stages", "3", "--cycles", "1"}
			}
			return append(a, flags...)
		}
		for _, d := range []string{bad, badGz, truncGz, missing} {
			add(runToEnd, args("--model", model, "--train", d, "--valid", good, "--costs", "builtin:mq2008/costs")...)
			add(runToEnd, args("--model", model, "--train", good, "--valid", good, "--test", d, "--costs", "builtin:mq2008/costs")...)
		}
		for _, cf := range []string{badCosts, truncCostsGz, missing} {
			add(runToEnd, args("--model", model, "--train", good, "--valid", good, "--costs", cf)...)
		}
		for _, mf := range []string{badModel, truncModelGz, missing} {
			add(runToEnd, args("--model", mf, "--train", good, "--valid", good, "--costs", "builtin:mq2008/costs")...)
		}
	}
	for _, p := range unwritable {
		add(runToEnd, append([]string{"cascade", "--out", o("c.json"), "--curve", p}, append(small, sets...)...)...)
	}
	for _, p := range unwritable {
		if p == "/dev/full" {
			continue
		}
		add(runToEnd, append([]string{"sweep", "--lambdas", "0.1:0.2:2", "--out", o("s.csv"), "--plot", strings.TrimSuffix(p, ".json") + ".svg"}, append(small, sets...)...)...)
	}
	// inspect
	for _, s := range stops {
		add(s, "inspect", goodGz, "--costs", "builtin:mq2008/costs")
		add(s, "inspect", model, "--data", good)
		add(s, "inspect", casc)
	}
	for _, f := range []string{bad, badGz, truncGz, missing, badModel, truncModelGz, badCasc} {
		add(runToEnd, "inspect", f)
	}
	for _, cf := range []string{badCosts, truncCostsGz, missing} {
		add(runToEnd, "inspect", good, "--costs", cf)
	}
	add(runToEnd, "inspect", model, "--data", bad)
	// gen
	for _, s := range stops {
		add(s, "gen", "--queries", "30", "--out", o("g.txt.gz"))
	}
	for _, cf := range []string{badCosts, truncCostsGz, missing} {
		add(runToEnd, "gen", "--queries", "30", "--costs", cf, "--out", o("g.txt"))
	}
	for _, p := range unwritable {
		add(runToEnd, "gen", "--queries", "30", "--out", p)
	}

	// A first run of each command opens what a process opens once (the
	// runtime's, the embedded data's, a poller's descriptor).
	for _, name := range []string{"train", "predict", "eval", "import", "export", "cascade", "sweep", "inspect", "gen"} {
		for _, c := range cases {
			if c.args[0] == name && c.stop == runToEnd {
				runCLI(t, c.args...)
				break
			}
		}
	}
	clear := func(dir string) {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
	clear(out)
	clear(spools)

	// The collector is off while a command runs and its descriptors are
	// counted: a file left open and dropped is closed by its finalizer at
	// the next collection, which hid the leak as often as not, where a
	// workbench session with a large heap keeps it open for long.
	fdcount.NoCollection(t)
	leaks := 0
	for _, c := range cases {
		fdcount.Collect() // the previous case's garbage
		before := fdcount.Open(t)
		ctx, cancel := context.WithCancel(context.Background())
		var stdout bytes.Buffer
		stderr := &cancelOnWrite{cancel: func() {}}
		var runCtx context.Context = ctx
		switch c.stop {
		case preCancelled:
			cancel()
		case onStderr:
			stderr.cancel = cancel
		case inReader:
			runCtx = cancelFrom{ctx, "/data", cancel}
		case inEngine:
			runCtx = cancelFrom{ctx, "/engine/", cancel}
		case inWriter:
			n := 1
			runCtx = cancelAt{ctx, "github.com/cronus-ltr/cronus/data.ctxWriter.Write", &n, cancel}
		}
		code := run(runCtx, c.args, &stdout, stderr)
		cancel()
		what := strings.Join(c.args, " ")

		if strings.Contains(stderr.String(), "goroutine ") {
			t.Fatalf("%s: a panic:\n%s", what, stderr.String())
		}
		if c.stop == runToEnd && !strings.Contains(what, "/dev/full") && code != 0 && code != 1 {
			t.Errorf("%s: exit %d: %s", what, code, stderr.String())
		}
		if leaked := fdcount.Leaked(t, before); len(leaked) > 0 {
			t.Errorf("%s (stop %d, exit %d: %.200q) left open:\n%s", what, c.stop, code, stderr.String(), strings.Join(leaked, "\n"))
			// Each leak waits out leakedDescriptors' minute.
			if leaks++; leaks == 3 {
				t.Fatal("three cases left descriptors open; not trying the rest")
			}
		}
		for _, dir := range []string{out, spools, in, filepath.Dir(noDir)} {
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if strings.Contains(e.Name(), ".tmp") || strings.HasPrefix(e.Name(), "cronus-") {
					t.Errorf("%s (stop %d, exit %d) left %s in %s", what, c.stop, code, e.Name(), dir)
					os.Remove(filepath.Join(dir, e.Name()))
				}
			}
		}
		if code != 0 {
			entries, _ := os.ReadDir(out)
			for _, e := range entries {
				t.Errorf("%s (stop %d, exit %d) failed and wrote %s", what, c.stop, code, e.Name())
			}
		}
		clear(out)
	}
	t.Logf("%d cases", len(cases))
}
