package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestBenchSeeds: bench/seeds.sh with POOL_ONLY=1 averages the runs
// already in BENCH_DIR/seed-S: its last part is bench/front.py's output on
// every seed's five fold curves, in seed then fold order, each pooled with
// its uncapped sweep where there is one (here one fold of the second
// seed has one, and it changes the figures). Repeated, empty or malformed
// seeds, a stray argument and a missing curve are refused, the last
// naming the file. (The runs themselves are bench/cascade-folds.sh's with
// BASE_SEED, which the Measured section's seed figures came from.)
func TestBenchSeeds(t *testing.T) {
	bash := benchBash(t)
	dir := t.TempDir()
	bench := filepath.Join(dir, "bench")
	run := func(env []string, args ...string) (string, error) {
		return runBenchScript(bash, "seeds.sh", append([]string{"BENCH_DIR=" + bench, "POOL_ONLY=1"}, env...), args...)
	}
	for _, c := range []struct {
		env  []string
		args []string
		msg  string
	}{
		{[]string{"SEEDS=1 1"}, nil, "(seed 1 given twice)"},
		{[]string{"SEEDS="}, nil, "(SEEDS is empty)"},
		{[]string{"SEEDS=1 x"}, nil, "(each of SEEDS must be a whole number of at least 0, not 'x')"},
		{[]string{"SEEDS=1"}, []string{"500", "extra"}, "usage: SEEDS=\"1 2 3\" bash bench/seeds.sh [TREES]"},
	} {
		out, err := run(c.env, c.args...)
		if code := exitCode(err); code != 2 || !strings.Contains(out, c.msg) {
			t.Errorf("%v %v: exit %d, %q; want 2 and %q", c.env, c.args, code, out, c.msg)
		}
	}
	if out, err := run([]string{"SEEDS=7"}); exitCode(err) != 1 || !strings.Contains(out, "bench/seeds.sh: no "+filepath.Join(bench, "seed-7", "cascade-mq2008-fold1", "curve.csv")+": run it without POOL_ONLY first") {
		t.Errorf("no runs: err %v, %q", err, out)
	}

	// One small sweep's curve as every fold's of seeds 3 and 5, and an
	// uncapped sweep beside seed 5's third fold.
	model := trainShallow(t, dir, 10)
	sweep := func(out string, args ...string) {
		t.Helper()
		args = append([]string{"sweep", "--model", model, "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali", "--test", "builtin:mq2008/test",
			"--costs", "builtin:mq2008/costs", "--rule", "top-m", "--top-m", "5", "--stages", "3", "--cycles", "1", "--every-prefix", "--out", out}, args...)
		if code, _, errOut := runCLI(t, args...); code != 0 {
			t.Fatal(errOut)
		}
	}
	curve, uncapped := filepath.Join(dir, "curve.csv"), filepath.Join(dir, "uncapped.csv")
	sweep(curve, "--lambdas", "0.02:0.2:2")
	sweep(uncapped, "--lambdas", "0.6:0.9:2", "--stage-cap", "0")
	var want, without []string // front.py's arguments, with and without the uncapped sweep
	for _, s := range []string{"3", "5"} {
		for f := 1; f <= 5; f++ {
			d := filepath.Join(bench, "seed-"+s, "cascade-mq2008-fold"+strconv.Itoa(f))
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
			c := filepath.Join(d, "curve.csv")
			if err := os.WriteFile(c, []byte(readFile(t, curve)), 0o644); err != nil {
				t.Fatal(err)
			}
			without = append(without, c)
			if s == "5" && f == 3 {
				u := filepath.Join(d, "curve-uncapped.csv")
				if err := os.WriteFile(u, []byte(readFile(t, uncapped)), 0o644); err != nil {
					t.Fatal(err)
				}
				c += "+" + u
			}
			want = append(want, c)
		}
	}
	out, err := run([]string{"SEEDS=3 5"})
	if err != nil {
		t.Fatalf("seeds.sh: %v\n%s", err, out)
	}
	head := "== the 10 curves of seeds 3 5 averaged\n"
	i := strings.Index(out, head)
	if i < 0 || strings.Contains(out, "== seed") {
		t.Fatalf("seeds.sh with POOL_ONLY ran a seed or did not say what it averaged:\n%s", out)
	}
	front := func(curves []string) string {
		b, err := exec.Command("/usr/bin/python3", append([]string{filepath.Join("bench", "front.py")}, curves...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("front.py: %v\n%s", err, b)
		}
		return string(b)
	}
	got, exp := out[i+len(head):], front(want)
	if got != exp {
		t.Errorf("seeds.sh's average:\n%s\nfront.py on the ten curves:\n%s", got, exp)
	}
	if exp == front(without) {
		t.Error("the uncapped sweep changes nothing: the test cannot tell whether seeds.sh pools it")
	}
	if !strings.Contains(got, "mean over 10 curves") {
		t.Errorf("not the mean over the ten curves:\n%s", got)
	}
}

// exitCode is the exit status of a command that ended with err (0 for
// nil, −1 when it did not run or exit).
func exitCode(err error) int {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	return -1
}
