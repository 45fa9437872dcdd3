package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenCostsFile: gen --costs sets the features' costs, which shape the
// data (no test gave gen a cost file it read). README: by default feature
// k costs line k of the MSLR-WEB10K cost file, so that `head -n D` of it
// is the cost file for D < 136: given as --costs, it writes the default's
// bytes; other costs write other data. A joint limit past the flags'
// ranges is a mistake on the command line (exit 2) and writes nothing.
func TestGenCostsFile(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("data", "builtin", "mslr-web10k.feature_cost.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(src), "\n")
	headF, flatF := filepath.Join(dir, "head5.txt"), filepath.Join(dir, "flat5.txt")
	writeText(t, headF, strings.Join(lines[:5], ""))
	writeText(t, flatF, strings.Repeat("7\n", 5))
	gen := func(name string, costs ...string) []byte {
		t.Helper()
		p := filepath.Join(dir, name)
		args := append([]string{"gen", "--queries", "6", "--docs-per-query", "10", "--features", "5", "--out", p}, costs...)
		if code, _, errOut := runCLI(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	def := gen("default.txt")
	if got := gen("head.txt", "--costs", headF); !bytes.Equal(got, def) {
		t.Error("gen --costs with the first 5 lines of the MSLR cost file wrote other data than gen's default for 5 features")
	}
	if got := gen("flat.txt", "--costs", flatF); bytes.Equal(got, def) {
		t.Error("gen --costs with every feature at cost 7 wrote the default's data: the costs were not used")
	}

	big := filepath.Join(dir, "big.txt")
	code, _, errOut := runCLI(t, "gen", "--docs-per-query", "100000", "--features", "99999", "--out", big)
	if code != 2 || !strings.Contains(errOut, "--docs-per-query 100000 with 99999 features") {
		t.Errorf("gen past the joint limit: exit %d, stderr %q; want exit 2 naming both flags", code, errOut)
	}
	if _, err := os.Lstat(big); err == nil {
		t.Error("gen refused on the command line left its output")
	}
}

// TestPositionalArgumentRefused: a command without positional arguments
// refuses one (train's data given without --train, a stray word) as a
// mistake on the command line, exit 2, naming it, and writes nothing.
func TestPositionalArgumentRefused(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.json")
	for _, c := range []struct {
		args []string
		word string
	}{
		{[]string{"train", "builtin:mq2008/train", "--out", out}, "builtin:mq2008/train"},
		{[]string{"gen", "--out", out, "extra"}, "extra"},
		{[]string{"predict", "--model", out, "--data", "builtin:mq2008/test", "--out", out + ".s", "extra"}, "extra"},
	} {
		args := c.args
		code, stdout, errOut := runCLI(t, args...)
		if code != 2 || !strings.Contains(errOut, `unexpected argument "`+c.word+`"`) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 naming the argument", args, code, errOut)
		}
		if stdout != "" {
			t.Errorf("%v: stdout %q", args, stdout)
		}
		if _, err := os.Lstat(out); err == nil {
			t.Fatalf("%v wrote %s", args, out)
		}
	}
}

// TestRunRepeatedIDsInManyQueries: eval --run warns when a query ranks one
// document id twice, naming the first such query and counting the others
// (only one or two such queries were tested); the run is written, every
// document once a line, and the exit is 0.
func TestRunRepeatedIDsInManyQueries(t *testing.T) {
	dir := t.TempDir()
	dataF, scores, run := filepath.Join(dir, "d.txt"), filepath.Join(dir, "d.scores"), filepath.Join(dir, "d.run")
	writeText(t, dataF, `1 qid:1 1:0.5 #docid = a
0 qid:1 1:0.2 #docid = a
2 qid:1 1:0.1 #docid = b
1 qid:2 1:0.5 #docid = c
0 qid:2 1:0.2 #docid = c
1 qid:3 1:0.5 #docid = d
0 qid:3 1:0.2 #docid = e
0 qid:3 1:0.3 #docid = d
0 qid:4 1:0.3 #docid = f
1 qid:4 1:0.3 #docid = g
`)
	writeText(t, scores, "0.1\n0.9\n0.5\n0.3\n0.2\n0.1\n0.2\n0.3\n0.4\n0.5\n")
	code, _, errOut := runCLI(t, "eval", "--scores", scores, "--data", dataF, "--run", run)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := run + `: qid 1 has the document id "a" twice (its documents 1 and 2), and 2 more queries have a document id more than once`
	if !strings.Contains(errOut, "warning: "+want) {
		t.Errorf("stderr %q\nwant the warning %q", errOut, want)
	}
	b, err := os.ReadFile(run)
	if err != nil {
		t.Fatal(err)
	}
	wantRun := `1 Q0 a 1 0.9 cronus
1 Q0 b 2 0.5 cronus
1 Q0 a 3 0.1 cronus
2 Q0 c 1 0.3 cronus
2 Q0 c 2 0.2 cronus
3 Q0 d 1 0.3 cronus
3 Q0 e 2 0.2 cronus
3 Q0 d 3 0.1 cronus
4 Q0 g 1 0.5 cronus
4 Q0 f 2 0.4 cronus
`
	if string(b) != wantRun {
		t.Errorf("run file:\n%s\nwant:\n%s", b, wantRun)
	}
}

// TestSweepEmptyAtRho: a sweep whose λ are all below λ_max but whose ρ
// (given, the largest) empties every cascade warns that each cronus row is
// the empty cascade, and why (ρ), and still writes its curve (exit 0):
// only the λ_max 0 and λ ≥ λ_max reasons were tested. The rows say so:
// cost 0.
func TestSweepEmptyAtRho(t *testing.T) {
	dir := t.TempDir()
	model := trainShallow(t, dir, 10)
	curve := filepath.Join(dir, "s.csv")
	code, _, errOut := runCLI(t, "sweep", "--model", model, "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali",
		"--costs", "builtin:mq2008/costs", "--lambdas", "0.5:0.9:2", "--rho1", "100", "--rhoK", "100", "--stages", "3", "--cycles", "1", "--out", curve)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "warning: every cascade of the sweep is empty") || !strings.Contains(errOut, "a smaller λ or ρ keeps trees") {
		t.Errorf("stderr %q: want the warning that every cascade is empty at this ρ", errOut)
	}
	b, err := os.ReadFile(curve)
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
		f := strings.Split(line, ",")
		if f[0] != "cronus" {
			continue
		}
		rows++
		if f[3] != "0" {
			t.Errorf("cronus row %q: cost %s, want 0 (the empty cascade)", line, f[3])
		}
	}
	if rows != 2 {
		t.Errorf("%d cronus rows, want 2 (two λ on valid):\n%s", rows, b)
	}
}

// TestCompareUndefinedIsNull: eval --compare --json writes null where a
// statistic is undefined, as README says: se, t and p_t of a single query,
// and t where the differences are all the same but not 0 (se 0, p_t 0).
// With one query the randomisation test's two sign flips give |mean| ≥
// |diff| both, p 1; with four equal differences p_rand estimates the
// exact 2/16. The JSON stays valid (NaN and Inf are not JSON). Only
// defined values were tested.
func TestCompareUndefinedIsNull(t *testing.T) {
	dir := t.TempDir()
	// Four queries; "this" ranks a relevant document first in each, "that"
	// an irrelevant one: p@1 1 against 0, query by query.
	dataF := filepath.Join(dir, "d.txt")
	writeText(t, dataF, `1 qid:1 1:1
0 qid:1 1:1
2 qid:1 1:1
1 qid:2 1:1
0 qid:2 1:1
1 qid:3 1:1
0 qid:3 1:1
0 qid:3 1:1
0 qid:4 1:1
1 qid:4 1:1
`)
	this, that := filepath.Join(dir, "this.s"), filepath.Join(dir, "that.s")
	writeText(t, this, "0.9\n0.1\n0.5\n0.9\n0.1\n0.9\n0.1\n0.2\n0.1\n0.9\n")
	writeText(t, that, "0.1\n0.9\n0.5\n0.1\n0.9\n0.1\n0.9\n0.2\n0.9\n0.1\n")
	one, oneThis, oneThat := filepath.Join(dir, "one.txt"), filepath.Join(dir, "one.s"), filepath.Join(dir, "one2.s")
	writeText(t, one, "1 qid:1 1:1\n0 qid:1 1:1\n2 qid:1 1:1\n")
	writeText(t, oneThis, "0.9\n0.1\n0.5\n")
	writeText(t, oneThat, "0.1\n0.9\n0.5\n")

	type stat = map[string]any
	compare := func(data, a, b string) stat {
		t.Helper()
		code, out, errOut := runCLI(t, "eval", "--scores", a, "--data", data, "--compare", b, "--metrics", "p@1", "--json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var r struct {
			Compare struct{ Metrics map[string]stat }
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, out)
		}
		m, ok := r.Compare.Metrics["p@1"]
		if !ok {
			t.Fatalf("no compare.metrics.p@1 in %s", out)
		}
		return m
	}
	check := func(name string, got stat, want stat) {
		t.Helper()
		for k, w := range want {
			g, ok := got[k]
			if !ok {
				t.Errorf("%s: no %q in %v", name, k, got)
				continue
			}
			if wf, isNum := w.(float64); isNum {
				if gf, ok := g.(float64); !ok || math.Abs(gf-wf) > 1e-12 {
					t.Errorf("%s: %s = %v, want %v", name, k, g, w)
				}
			} else if g != w {
				t.Errorf("%s: %s = %v, want %v", name, k, g, w)
			}
		}
	}
	check("one query", compare(one, oneThis, oneThat), stat{"queries": 1.0, "this": 1.0, "that": 0.0, "diff": 1.0, "se": nil, "t": nil, "p_t": nil, "p_rand": 1.0})
	same := compare(dataF, this, that)
	check("equal differences", same, stat{"queries": 4.0, "this": 1.0, "that": 0.0, "diff": 1.0, "se": 0.0, "t": nil, "p_t": 0.0})
	if p, ok := same["p_rand"].(float64); !ok || p < 0.1 || p > 0.15 {
		t.Errorf("equal differences: p_rand %v, want about 2/16 (all four signs alike)", same["p_rand"])
	}
}

// TestTUINeedsTerminal: the workbench, asked for without a terminal (in a
// script, under cron, input from /dev/null), fails (exit 1) with a message
// that says why and what to use instead, and prints nothing on standard
// output; a mistake in its flags is still a command-line mistake (exit 2).
// No test ran the workbench's commands without a terminal.
func TestTUINeedsTerminal(t *testing.T) {
	model := trainShallow(t, t.TempDir(), 3)
	for _, args := range [][]string{{"tui"}, {"--model", model}, {"tui", "--model", model, "--trees", "2"}} {
		code, stdout, errOut := runCLI(t, args...)
		if code != 1 || !strings.Contains(errOut, "needs a terminal") || !strings.Contains(errOut, "cronus help") || stdout != "" {
			t.Errorf("%q without a terminal: exit %d, stdout %q, stderr %q; want exit 1 saying it needs a terminal", args, code, stdout, errOut)
		}
	}
}

// TestTUIStrayArgumentQuoted: a stray argument to the workbench is named
// quoted, as every other command names one: an empty one (`cronus --model
// m.json "$EXTRA"` with EXTRA unset) said "unexpected argument " and
// stopped, naming nothing, and one with a space read as two words.
func TestTUIStrayArgumentQuoted(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"tui", "stray"}, `unexpected argument "stray"`},
		{[]string{"tui", ""}, `unexpected argument ""`},
		{[]string{"--test", "", "a b"}, `unexpected argument "a b"`},
	} {
		if code, _, errOut := runCLI(t, c.args...); code != 2 || !strings.Contains(errOut, c.want+"\n") {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and %s", c.args, code, errOut, c.want)
		}
	}
}

// TestImportExtraArgumentNamed: import given more than one argument names
// them, and when --out is missing says that is where the output goes: the
// output given as an argument (import --from lightgbm m.txt m.json) was
// answered only "expected one input model FILE", though one was given.
func TestImportExtraArgumentNamed(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join("engine", "tree", "testdata", "lgb-lambdarank.model.txt")
	out := filepath.Join(dir, "m.json")
	code, _, errOut := runCLI(t, "import", "--from", "lightgbm", in, out)
	if code != 2 || !strings.Contains(errOut, fmt.Sprintf("got 2, [%q %q]", in, out)) || !strings.Contains(errOut, "the output is --out FILE") {
		t.Errorf("import IN OUT: exit %d, stderr %q; want exit 2 naming both arguments and --out", code, errOut)
	}
	if _, err := os.Lstat(out); err == nil {
		t.Error("a refused import wrote its output")
	}
	code, _, errOut = runCLI(t, "import", "--from", "lightgbm", "--out", out, in, "")
	if code != 2 || !strings.Contains(errOut, fmt.Sprintf("got 2, [%q \"\"]", in)) || strings.Contains(errOut, "the output is") {
		t.Errorf("import --out OUT IN \"\": exit %d, stderr %q; want exit 2 naming both arguments", code, errOut)
	}
	if code, _, errOut := runCLI(t, "import", "--from", "lightgbm", "--out", out); code != 2 || !strings.HasSuffix(strings.SplitN(errOut, "\n", 2)[0], "expected one input model FILE") {
		t.Errorf("import without its input: exit %d, stderr %q", code, errOut)
	}
}
