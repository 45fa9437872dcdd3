package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cronus-ltr/cronus/data"
)

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	interactive = func() bool { return false }
	var o, e bytes.Buffer
	code = run(context.Background(), args, &o, &e)
	if strings.Contains(e.String(), "goroutine ") || strings.Contains(e.String(), "panic") {
		t.Fatalf("stack trace on stderr:\n%s", e.String())
	}
	return code, o.String(), e.String()
}

// mustRun runs a command that must exit 0 and returns its standard
// output.
func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	code, stdout, errOut := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errOut)
	}
	return stdout
}

func TestCLIUsage(t *testing.T) {
	cases := []struct {
		args     []string
		code     int
		out, err string
	}{
		{nil, 0, "Usage:", ""},
		{[]string{"help"}, 0, "inspect", ""},
		{[]string{"help"}, 0, "cronus --version ", ""}, // the usage did not name help or --version
		{[]string{"help", "gen"}, 0, "Usage: cronus gen", ""},
		{[]string{"help", "help"}, 0, "inspect", ""}, // overflowed the stack
		{[]string{"help", "--help"}, 0, "inspect", ""},
		// A flag as the command is the help of what it would run: the
		// workbench's for its flags (which took --help as their value:
		// help --model ran the workbench on a model "--help"), version's
		// for --version.
		{[]string{"help", "--model"}, 0, "Usage: cronus tui", ""},
		{[]string{"--help", "--trees"}, 0, "Usage: cronus tui", ""},
		{[]string{"-h", "--threads"}, 0, "Usage: cronus tui", ""},
		{[]string{"help", "--version"}, 0, "Usage: cronus version", ""},
		{[]string{"help", "train", "predict"}, 2, "", `cronus help: expected one COMMAND; got ["train" "predict"]`},
		{[]string{"inspect", "--help"}, 0, "--costs", ""},
		{[]string{"gen", "-h"}, 0, "--docs-per-query", ""},
		{[]string{"frobnicate"}, 2, "", `unknown command "frobnicate"`},
		{[]string{"inspect"}, 2, "", "expected one FILE: data"},
		{[]string{"inspect", "a", "b"}, 2, "", "expected one FILE: data"},
		// What it got is said: after "--" a flag is a second FILE.
		{[]string{"inspect", "m.json", "--", "--json"}, 2, "", `a model or a cascade; got 2, ["m.json" "--json"]`},
		{[]string{"inspect"}, 2, "", "a model or a cascade; got none"},
		{[]string{"inspect", "--nope", "builtin:mq2008/test"}, 2, "", "cronus inspect: unknown flag --nope\n"},
		// A misspelt flag or command is answered with the nearest names:
		// the flag package said "flag provided but not defined: -ouput".
		{[]string{"train", "--ouput", "m.json"}, 2, "", "cronus train: unknown flag --ouput (did you mean --out?)\n"},
		{[]string{"eval", "--metric", "ndcg@10"}, 2, "", "unknown flag --metric (did you mean --metrics?)\n"},
		{[]string{"cascade", "--lamda", "0.1"}, 2, "", "unknown flag --lamda (did you mean --lambda?)\n"},
		{[]string{"sweep", "--rho", "0.1"}, 2, "", "unknown flag --rho (did you mean --rho1, --rhoK or --rhos?)\n"},
		{[]string{"trian"}, 2, "", `unknown command "trian" (did you mean train?)` + "\n"},
		{[]string{"predict", "--out"}, 2, "", "cronus predict: --out needs a value\n"},
		// Flags without a command are the workbench's (go run . --model
		// m.json); they were an unknown command "--trees".
		{[]string{"--trees", "7"}, 2, "", "cronus tui: --trees needs --model"},
		{[]string{"gen", "--queries", "5"}, 2, "", "--out FILE is required"},
		{[]string{"gen", "--queries", "0", "--out", "x.txt"}, 2, "", "--queries: must be at least 1, got 0"},
		{[]string{"gen", "--features", "0", "--out", "x.txt"}, 2, "", "--features: must be in [1, 99999], got 0"}, // wrote 136, said 0
		{[]string{"gen", "--queries", "x", "--out", "x.txt"}, 2, "", `--queries: must be an integer, got "x"`},
		// A flag given twice is refused, in any spelling, before any work.
		{[]string{"gen", "--queries", "5", "--out", "/no-such-dir/x.txt", "-queries=6"}, 2, "", "flag --queries given twice"},
		{[]string{"eval", "--metrics", "ndcg@10", "--data", "d", "--scores", "s", "--metrics", "p@5"}, 2, "", "flag --metrics given twice"},
		{[]string{"inspect", "--json", "builtin:mq2008/test", "--json"}, 2, "", "flag --json given twice"},
		// A value that looks like a flag is a value, and "--" ends the flags.
		{[]string{"gen", "--out", "--queries", "--queries", "0"}, 2, "", "--queries: must be at least 1, got 0"},
		{[]string{"inspect", "--json", "--", "--json"}, 1, "", "--json"},
	}
	for _, c := range cases {
		code, out, errOut := runCLI(t, c.args...)
		if code != c.code || !strings.Contains(out, c.out) || !strings.Contains(errOut, c.err) {
			t.Errorf("cronus %v: exit %d, stdout %q, stderr %q; want exit %d with %q / %q", c.args, code, out, errOut, c.code, c.out, c.err)
		}
	}
	// --help prints the text once; a bad flag prints a line on stderr and
	// nothing on stdout.
	for _, name := range []string{"train", "cascade", "gen"} {
		if _, out, _ := runCLI(t, name, "--help"); strings.Count(out, "Usage:") != 1 {
			t.Errorf("cronus %s --help printed %d usage texts", name, strings.Count(out, "Usage:"))
		}
	}
	// Every numeric flag's help names its type and default, as Go's flag
	// package prints them: the decimal-only wrapper of the numeric flags
	// (f2225e7) made the help call its String on a zero value, which
	// panicked ("panic calling String method on zero main.decimalValue"),
	// and printed "-cycles value" with no default.
	for _, c := range []struct{ name, want string }{
		{"cascade", "  --cycles int\n    \tcycles of the cyclic optimisation (0 = initialisation only) (default 10)\n"},
		{"train", "  --col-sample float\n    \tfraction of features per tree (default 1)\n"},
		// The binary metrics, RR and recall among them (their help
		// named P@k, MAP and RBP alone).
		{"eval", "  --relevant r\n    \tP@k, MAP, RR, recall, RBP: a document is relevant when its label >= r"},
		{"eval", "(NDCG, ERR: no label > 0; P@k, MAP, RR, recall, RBP: none >= --relevant)"},
	} {
		_, out, errOut := runCLI(t, c.name, "--help")
		if strings.Contains(out+errOut, "panic") || !strings.Contains(out, c.want) {
			t.Errorf("cronus %s --help: stdout %q, stderr %q; want %q", c.name, out, errOut, c.want)
		}
	}
	for _, name := range []string{"train", "cascade", "gen"} {
		if code, out, errOut := runCLI(t, name, "--nope"); code != 2 || out != "" || strings.Count(errOut, "\n") != 2 {
			t.Errorf("cronus %s --nope: exit %d, stdout %q, stderr %q", name, code, out, errOut)
		}
	}
}

// TestFlagValueErrors: a value the flag package cannot parse is refused
// with what the flag takes, not its bare "parse error".
func TestFlagValueErrors(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"gen", "--seed", "-1", "--out", "x.txt"}, `--seed: must be a non-negative integer, got "-1"`},
		{[]string{"gen", "--world=-1", "--out", "x.txt"}, `--world: must be a non-negative integer, got "-1"`},
		{[]string{"train", "--train", "t.txt", "--seed", "+1"}, `--seed: must be a non-negative integer, without a sign, got "+1"`},
		{[]string{"gen", "--seed", "18446744073709551616", "--out", "x.txt"}, `--seed: must be a non-negative integer up to 18446744073709551615, got "18446744073709551616"`},
		{[]string{"gen", "--queries", "x", "--out", "x.txt"}, `--queries: must be an integer, got "x"`},
		{[]string{"train", "--trees", "1e9", "--out", "m.json"}, `--trees: must be an integer, got "1e9"`},
		// A number too large for the flag's type is refused with the
		// flag's range (it was the type's: "an integer from
		// -9223372036854775808 to 9223372036854775807", "a number of
		// magnitude at most 1.7976931348623157e+308").
		{[]string{"train", "--trees", "99999999999999999999", "--out", "m.json"}, fmt.Sprintf(`--trees: must be an integer from 1 to %d, got "99999999999999999999"`, math.MaxInt)},
		{[]string{"train", "--trees", "-99999999999999999999", "--out", "m.json"}, `--trees: must be at least 1, got "-99999999999999999999"`},
		{[]string{"train", "--max-bins", "99999999999999999999", "--out", "m.json"}, `--max-bins: must be in [2, 255], got "99999999999999999999"`},
		{[]string{"train", "--learning-rate", "1e999", "--out", "m.json"}, `--learning-rate: must be in (0, 1], got "1e999"`},
		{[]string{"train", "--log-every", "99999999999999999999", "--out", "m.json"}, fmt.Sprintf(`--log-every: must be an integer from 0 to %d, got "99999999999999999999"`, math.MaxInt)},
		{[]string{"gen", "--features", "99999999999999999999", "--out", "x.txt"}, `--features: must be in [1, 99999], got "99999999999999999999"`},
		{[]string{"cascade", "--stages", "99999999999999999999"}, fmt.Sprintf(`--stages: must be an integer from 1 to %d, got "99999999999999999999"`, math.MaxInt)},
		{[]string{"cascade", "--lambda", "1e999"}, `--lambda: must be in [0, 100], got "1e999"`},
		{[]string{"cascade", "--epsilon", "-1e999"}, `--epsilon: must be in (0, 1), got "-1e999"`},
		{[]string{"sweep", "--refine", "99999999999999999999"}, `--refine: must be in [0, 1000], got "99999999999999999999"`},
		{[]string{"eval", "--tree-cost", "1e999"}, `--tree-cost: must be in [0, 1e+15], got "1e999"`},
		// A duration without its unit, and one with it but too long (it
		// was told it lacked its unit).
		{[]string{"cascade", "--progress-every", "5"}, `--progress-every: must be a duration with its unit, such as 30s, 1m or 1h30m, got "5"`},
		{[]string{"cascade", "--progress-every", "99999999999h"}, `--progress-every: must be a duration of magnitude at most 2562047h47m16.854775807s, got "99999999999h"`},
		{[]string{"cascade", "--progress-every", "1h99999999999m"}, `--progress-every: must be a duration of magnitude at most 2562047h47m16.854775807s, got "1h99999999999m"`},
		{[]string{"export", "--stage", "99999999999999999999"}, fmt.Sprintf(`--stage: must be an integer from 1 to %d, got "99999999999999999999"`, math.MaxInt)},
		// No range: the type's.
		{[]string{"gen", "--seed", "99999999999999999999", "--out", "x.txt"}, `--seed: must be a non-negative integer up to 18446744073709551615, got "99999999999999999999"`},
		{[]string{"train", "--l2", "much", "--out", "m.json"}, `--l2: must be a number, got "much"`},
		{[]string{"train", "--l2", "1e999", "--out", "m.json"}, `--l2: must be a finite number at least 0, got "1e999"`},
		{[]string{"inspect", "--json=maybe", "builtin:mq2008/test"}, `--json: must be true or false, got "maybe"`},
		{[]string{"gen", "--seed", "\x01", "--out", "x.txt"}, `--seed: must be a non-negative integer, got "\x01"`},
		// This package's own flag values, which the flag package reported
		// in its words ("invalid value \"-1\" for flag -threads: …").
		{[]string{"inspect", "--threads", "-1", "builtin:mq2008/test"}, `--threads: must be a whole number of threads from 1 to 1024, or 0 for one per core, got "-1"`},
		{[]string{"train", "--threads=two", "--out", "m.json"}, `--threads: must be a whole number of threads from 1 to 1024, or 0 for one per core, got "two"`},
		{[]string{"predict", "--trees", "-1", "--data", "d"}, `--trees: must be a number of trees >= 0, or all, got "-1"`},
		{[]string{"eval", "--absent", "nan", "--data", "d"}, `--absent: must be zero or missing, got "nan"`},
		// Words from a list: the flag, the list, the value.
		{[]string{"train", "--objective", "ranknet", "--out", "m.json"}, `--objective: must be regression, binary or lambdarank, got "ranknet"`},
		{[]string{"cascade", "--rule", "best"}, `--rule: must be global or top-m, got "best"`},
		{[]string{"import", "--from", "catboost", "m.txt"}, `--from: must be lightgbm, xgboost or ranklib, got "catboost"`},
		// train watches one metric; a list was refused for its cut-off "10,map".
		{[]string{"train", "--train", "t", "--out", "m.json", "--metric", "ndcg@10,map"}, `--metric: one metric (the one early stopping and the progress lines watch; eval --metrics takes a list), got "ndcg@10,map"`},
		// An empty file name was taken as no flag at all: predict --out ""
		// printed the scores on the terminal, train --valid "" trained
		// without validation.
		{[]string{"predict", "--model", "m.json", "--data", "d", "--out", ""}, `--out: the file name is empty`},
		{[]string{"train", "--train", "t", "--valid=", "--out", "m.json"}, `--valid: the file name is empty`},
		{[]string{"eval", "--data", "d", "--scores", "s", "--per-query", "", "--", "x"}, `--per-query: the file name is empty`},
		// So was an empty FILE argument, which said ": no such file".
		{[]string{"inspect", ""}, `the file name is empty; expected one FILE: data (a path or a built-in name such as builtin:mq2008/train), a model or a cascade`},
		{[]string{"import", "--from", "xgboost", "--out", "m.json", ""}, `the file name is empty; expected one input model FILE`},
		{[]string{"eval", "--data", "d", "--scores", "s", "--metrics", "ndcg@99999999999999999999"}, fmt.Sprintf(`--metrics: metric "ndcg@99999999999999999999": cut-off "99999999999999999999" is too large (at most %d)`, math.MaxInt)},
	}
	for _, c := range cases {
		code, out, errOut := runCLI(t, c.args...)
		first, _, _ := strings.Cut(errOut, "\n")
		if code != 2 || out != "" || first != "cronus "+c.args[0]+": "+c.want {
			t.Errorf("cronus %q: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out, errOut, c.want)
		}
	}
}

// TestFlagRangeErrors: a number out of the range the engine takes for the
// parameter a flag sets is refused in terms of the flag, before any file
// is read (it said "K must be at least 1 (got 0)" for --stages 0), and
// the values at the edges of the ranges pass the checks.
func TestFlagRangeErrors(t *testing.T) {
	train := []string{"train", "--train", "none.txt", "--out", filepath.Join(t.TempDir(), "m.json")}
	cascade := []string{"cascade", "--model", "none.json", "--train", "t", "--valid", "v", "--costs", "c", "--out", filepath.Join(t.TempDir(), "c.json")}
	sweep := append([]string{"sweep"}, cascade[1:]...)
	eval := []string{"eval", "--model", "none.json", "--data", "none.data"}
	gen := []string{"gen", "--out", filepath.Join(t.TempDir(), "none.d", "g.txt")}
	with := func(cmd []string, flags ...string) []string { return append(slices.Clip(cmd), flags...) }
	bad := []struct {
		args []string
		want string
	}{
		{with(train, "--trees", "0"), "--trees: must be at least 1, got 0"},
		{with(train, "--leaves", "1"), "--leaves: must be at least 2, got 1"},
		{with(train, "--learning-rate", "0"), "--learning-rate: must be in (0, 1], got 0"},
		{with(train, "--learning-rate", "1.5"), "--learning-rate: must be in (0, 1], got 1.5"},
		{with(train, "--max-depth", "-1"), "--max-depth: must be at least 0, got -1"},
		{with(train, "--min-docs", "0"), "--min-docs: must be at least 1, got 0"},
		{with(train, "--min-hessian", "-0.5"), "--min-hessian: must be a finite number at least 0, got -0.5"},
		{with(train, "--l2", "NaN"), "--l2: must be a finite number at least 0, got NaN"},
		// Go's own syntax, which the flag package takes: λ 5, 16 trees.
		{with(cascade, "--lambda", "0_05"), `--lambda: must be written in decimal, without '_' or a 0x, 0b or 0o prefix, got "0_05"`},
		{with(train, "--trees", "0x10"), `--trees: must be written in decimal, without '_' or a 0x, 0b or 0o prefix, got "0x10"`},
		// A leading 0 is no octal prefix (Go's base 0 read 010 as 8): 08
		// is 8, and passes to the range check.
		{with(train, "--max-depth", "-08"), "--max-depth: must be at least 0, got -8"},
		{with(cascade, "--rhos", "0.01,0_5"), `--rhos: each value must be a number, got "0_5"`},
		// +Inf used to pass, train for nothing and fail writing the model
		// (`m.json: json: unsupported value: +Inf`): JSON has no infinity.
		{with(train, "--l2", "Inf"), "--l2: must be a finite number at least 0, got +Inf"},
		{with(train, "--min-hessian", "Inf"), "--min-hessian: must be a finite number at least 0, got +Inf"},
		{with(train, "--min-gain", "Inf"), "--min-gain: must be a finite number at least 0, got +Inf"},
		{with(train, "--sigma", "Inf"), "--sigma: must be a finite number greater than 0, got +Inf"},
		{with(cascade, "--delta", "Inf"), "--delta: must be a finite number at least 1, got +Inf"},
		{with(sweep, "--delta", "Inf"), "--delta: must be a finite number at least 1, got +Inf"},
		{with(train, "--row-sample", "0"), "--row-sample: must be in (0, 1], got 0"},
		{with(train, "--col-sample", "1.01"), "--col-sample: must be in (0, 1], got 1.01"},
		{with(train, "--max-bins", "1"), "--max-bins: must be in [2, 255], got 1"},
		{with(train, "--max-bins", "256"), "--max-bins: must be in [2, 255], got 256"},
		{with(train, "--early-stop", "-1"), "--early-stop: must be at least 0, got -1"},
		{with(train, "--truncation", "0"), "--truncation: must be at least 1, got 0"},
		{with(train, "--sigma", "0"), "--sigma: must be a finite number greater than 0, got 0"},
		{with(train, "--pair-sample", "-2"), "--pair-sample: must be in [0, 1000], got -2"},
		{with(train, "--pair-sample", "2000000000"), "--pair-sample: must be in [0, 1000], got 2000000000"},
		{with(cascade, "--stages", "0"), "--stages: must be at least 1, got 0"},
		{with(sweep, "--stages", "-3"), "--stages: must be at least 1, got -3"},
		{with(cascade, "--lambda", "1e308"), "--lambda: must be in [0, 100], got 1e+308"},
		{with(cascade, "--lambda", "-0.1"), "--lambda: must be in [0, 100], got -0.1"},
		{with(cascade, "--epsilon", "1"), "--epsilon: must be in (0, 1), got 1"},
		{with(cascade, "--sigma", "10.5"), "--sigma: must be in (0, 10], got 10.5"},
		{with(sweep, "--sigma", "0"), "--sigma: must be in (0, 10], got 0"},
		{with(cascade, "--delta", "0.9"), "--delta: must be a finite number at least 1, got 0.9"},
		{with(cascade, "--stage-cap", "1.5"), "--stage-cap: must be in [0, 1], got 1.5"},
		{with(cascade, "--rho1", "-1"), "--rho1: must be in [0, 100], got -1"},
		{with(sweep, "--rhoK", "101"), "--rhoK: must be in [0, 100], got 101"},
		{with(cascade, "--relevant", "Inf"), "--relevant: must be a finite number, got +Inf"},
		{with(cascade, "--pos-weight", "-1"), "--pos-weight: must be in (0, 1000000], got -1"},
		{with(cascade, "--neg-multiply", "1e200"), "--neg-multiply: must be in (0, 1000000], got 1e+200"}, // with --neg-weight 1e200, a NaN cascade
		{with(sweep, "--neg-weight", "NaN"), "--neg-weight: must be in (0, 1000000], got NaN"},
		{with(cascade, "--neg-multiply", "0"), "--neg-multiply: must be in (0, 1000000], got 0"},
		{with(cascade, "--neg-multiply", "Inf"), "--neg-multiply: must be in (0, 1000000], got +Inf"},
		{with(cascade, "--cycles", "-1"), "--cycles: must be at least 0, got -1"},
		{with(sweep, "--top-m", "0"), "--top-m: must be at least 1, got 0"},
		{with(cascade, "--tree-cost", "-1"), "--tree-cost: must be in [0, 1e+15], got -1"},
		{with(sweep, "--tree-cost", "NaN"), "--tree-cost: must be in [0, 1e+15], got NaN"},
		{with(sweep, "--exit-every", "0"), "--exit-every: must be at least 1, got 0"},
		{with(eval, "--relevant", "0"), "--relevant: must be a finite number greater than 0, got 0"},
		{with(eval, "--relevant", "Inf"), "--relevant: must be a finite number greater than 0, got +Inf"},
		{with(eval, "--tree-cost", "1e16"), "--tree-cost: must be in [0, 1e+15], got 1e+16"},
		{with(eval, "--compare", "s.txt", "--compare-rounds", "0"), "--compare-rounds: must be in [1, 1000000], got 0"},
		{with(eval, "--compare-rounds", "100"), "--compare-rounds applies to --compare only"},
		{with(gen, "--queries", "0"), "--queries: must be at least 1, got 0"},
		{with(gen, "--docs-per-query", "0"), "--docs-per-query: must be in [1, 100000], got 0"},
		{with(gen, "--docs-per-query", "100001"), "--docs-per-query: must be in [1, 100000], got 100001"},
		{with(gen, "--features", "-1"), "--features: must be in [1, 99999], got -1"},
		{with(gen, "--features", "100000"), "--features: must be in [1, 99999], got 100000"},
		// The list flags name the value of the list that is wrong (they
		// quoted the whole list, in words of their own: `--rhos
		// "0.01,500": expected a comma-separated list of …`).
		{with(sweep, "--rhos", "0.01,500"), `--rhos: each value must be in [0, 100] (fractions of ρ_max), got "500"`},
		{with(cascade, "--rhos", "0.01, x ,0.1"), `--rhos: each value must be a number, got "x"`},
		{with(cascade, "--rhos", "0.01,"), `--rhos: each value must be a number, got ""`},
		{with(cascade, "--rhos", "1e400"), `--rhos: each value must be in [0, 100] (fractions of ρ_max), got "1e400"`},
		{with(sweep, "--exit-margins", "0,-1,inf"), `--exit-margins: each value must be at least 0 (inf: the full ensemble), got "-1"`},
		{with(sweep, "--exit-margins", "0,NaN"), `--exit-margins: each value must be at least 0 (inf: the full ensemble), got "NaN"`},
		{with(sweep, "--exit-margins", "1e400"), `--exit-margins: each value must be a number of magnitude at most 1.7976931348623157e+308 (inf: the full ensemble), got "1e400"`},
		{with(sweep, "--lambdas", "0.1:1"), `--lambdas: must be FROM:TO:N, e.g. 0.001:0.5:8, got "0.1:1"`},
		{with(sweep, "--lambdas", "x:1:3"), `--lambdas: FROM must be a number, got "x"`},
		{with(sweep, "--lambdas", "0:1:3"), `--lambdas: FROM must be in (0, 100] (fractions of λ_max), got "0"`},
		{with(sweep, "--lambdas", "1:0.1:3"), `--lambdas: TO must be in [1, 100] (from FROM; fractions of λ_max), got "0.1"`},
		{with(sweep, "--lambdas", "0.1:150:3"), `--lambdas: TO must be in [0.1, 100] (from FROM; fractions of λ_max), got "150"`},
		{with(sweep, "--lambdas", "5e-324:1:3"), `--lambdas: FROM must be at least TO/1.7976931348623157e+308, got "5e-324"`},
		{with(sweep, "--lambdas", "0.1:1:1001"), `--lambdas: N must be a whole number in [1, 1000], got "1001"`},
		{with(sweep, "--lambdas", "0.1:1:2.5"), `--lambdas: N must be a whole number in [1, 1000], got "2.5"`},
	}
	for _, c := range bad {
		code, out, errOut := runCLI(t, c.args...)
		first, _, _ := strings.Cut(errOut, "\n")
		if code != 2 || out != "" || first != "cronus "+c.args[0]+": "+c.want {
			t.Errorf("cronus %q: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out, errOut, c.want)
		}
	}
	// The edges the engine takes pass the checks and fail on the missing
	// training data or model.
	for _, args := range [][]string{
		with(train, "--trees", "1", "--leaves", "2", "--learning-rate", "1", "--max-depth", "0", "--min-docs", "1",
			"--min-hessian", "0", "--l2", "0", "--row-sample", "1", "--col-sample", "1e-9", "--max-bins", "2", "--early-stop", "0",
			"--truncation", "1", "--sigma", "1e-9"),
		with(train, "--max-bins", "255", "--l2", "1e300", "--min-hessian", "1e300", "--min-gain", "1e300", "--sigma", "1e300"),
		with(train, "--pair-sample", "0"),
		with(cascade, "--stages", "2", "--lambda", "0", "--epsilon", "1e-9", "--sigma", "10", "--delta", "1", "--stage-cap", "0",
			"--rho1", "0", "--rhoK", "100", "--relevant", "-5", "--pos-weight", "1e-300", "--neg-weight", "1e6", "--neg-multiply", "1e-9"),
		with(cascade, "--lambda", "100", "--epsilon", "0.999", "--sigma", "1e-9", "--stage-cap", "1", "--delta", "1e300"),
		with(sweep, "--rho1", "100", "--rhoK", "0", "--relevant", "-1e300"),
		with(cascade, "--cycles", "0", "--top-m", "1", "--tree-cost", "0"),
		with(sweep, "--tree-cost", "1e15", "--exit-every", "1"),
		with(eval, "--relevant", "1e-9", "--tree-cost", "1e15"),
		with(gen, "--queries", "1", "--docs-per-query", "1", "--features", "1"),
		with(gen, "--docs-per-query", "100000", "--features", "99999"),
		with(sweep, "--rhos", " 0 , 100 ", "--exit-margins", "0, inf", "--lambdas", "1e-300:100:1000"),
	} {
		if code, _, errOut := runCLI(t, args...); code != 1 || !strings.Contains(errOut, "none.") {
			t.Errorf("cronus %q: exit %d, stderr %q; want exit 1 on the missing file", args, code, errOut)
		}
	}
}

// helpFlag is one flag of a command's --help text.
type helpFlag struct{ name, placeholder, usage string }

// helpFlags reads the flags of "cronus name --help": a line "  --name
// PLACEHOLDER" and its usage on the next line.
func helpFlags(t *testing.T, name string) []helpFlag {
	t.Helper()
	code, out, errOut := runCLI(t, name, "--help")
	if code != 0 {
		t.Fatalf("cronus %s --help: exit %d, %s", name, code, errOut)
	}
	var fl []helpFlag
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "  --") || i+1 == len(lines) {
			continue
		}
		n, ph, _ := strings.Cut(strings.TrimPrefix(l, "  --"), " ")
		fl = append(fl, helpFlag{n, ph, strings.TrimSpace(lines[i+1])})
	}
	if len(fl) == 0 {
		t.Fatalf("cronus %s --help lists no flags:\n%s", name, out)
	}
	return fl
}

// TestHelpPlaceholders: a flag's placeholder names what it takes; it is
// not the default value, which would read as one ("-absent zero").
func TestHelpPlaceholders(t *testing.T) {
	for _, c := range commands {
		for _, f := range helpFlags(t, c.name) {
			if f.placeholder == "" {
				continue
			}
			for _, def := range []string{f.placeholder + " (the default)", "(default " + f.placeholder + ")", `(default "` + f.placeholder + `")`} {
				if strings.Contains(f.usage, def) {
					t.Errorf("cronus %s --help: -%s %s: the placeholder is the default value (%q)", c.name, f.name, f.placeholder, f.usage)
				}
			}
		}
	}
}

// TestSynopsisNamesEveryFlag: the synopsis of a command with few flags
// names each of them, as README's does (import's left out --zero-based and
// --by-name, eval's five of its flags); train, cascade and sweep give the
// main ones, and --threads, which every command takes, is in the help
// alone.
func TestSynopsisNamesEveryFlag(t *testing.T) {
	for _, c := range commands {
		if c.name == "train" || c.name == "cascade" || c.name == "sweep" {
			continue
		}
		for _, f := range helpFlags(t, c.name) {
			if f.name != "threads" && !regexp.MustCompile(`--`+f.name+`\b`).MatchString(c.args) {
				t.Errorf("cronus %s: the synopsis %q does not name --%s", c.name, c.args, f.name)
			}
		}
	}
}

// TestSynopsisOptionalFlags: a flag that has a default is optional, so a
// command's synopsis shows it only inside brackets.
func TestSynopsisOptionalFlags(t *testing.T) {
	for _, c := range commands {
		// The flags the synopsis gives outside any [...], and of those
		// the ones outside any (... | ...) of alternatives: each of them
		// is required alone.
		required, alone := map[string]bool{}, map[string]bool{}
		depth, alt := 0, 0
		for _, w := range strings.Fields(c.args) {
			for strings.HasPrefix(w, "[") || strings.HasPrefix(w, "(") {
				if w[0] == '[' {
					depth++
				} else {
					alt++
				}
				w = w[1:]
			}
			if depth == 0 && strings.HasPrefix(w, "--") {
				name := strings.TrimRight(strings.TrimPrefix(w, "--"), "])|")
				required[name] = true
				alone[name] = alt == 0
			}
			depth -= strings.Count(w, "]")
			alt -= strings.Count(w, ")")
		}
		for _, f := range helpFlags(t, c.name) {
			if required[f.name] && strings.Contains(f.usage, "(default ") {
				t.Errorf("cronus %s: the synopsis shows --%s as required, but it has a default: %s", c.name, f.name, f.usage)
			}
			// And the help says so, as train's --train and --out do
			// (cascade's --model, gen's --out and import's --from did not).
			if alone[f.name] && !strings.Contains(f.usage, "required") {
				t.Errorf("cronus %s: the synopsis shows --%s as required, but its help does not say so: %s", c.name, f.name, f.usage)
			}
		}
	}
}

func TestInspectJSON(t *testing.T) {
	code, out, errOut := runCLI(t, "inspect", "builtin:mq2008/train", "--json", "--costs", "builtin:mq2008/costs")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var s struct {
		Queries, Docs, Features int
		Labels                  map[string]int
		DocsPerQuery            struct {
			Min    int
			Median float64
			Max    int
		} `json:"docs_per_query"`
		CostGroups []struct {
			Cost     float64
			Features int
		} `json:"cost_groups"`
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if s.Queries != 471 || s.Docs != 9630 || s.Features != 46 || s.Labels["0"] != 7820 || s.Labels["1"] != 1223 || s.Labels["2"] != 587 {
		t.Errorf("got %+v", s)
	}
	if s.DocsPerQuery.Min != 5 || s.DocsPerQuery.Median != 8 || s.DocsPerQuery.Max != 121 {
		t.Errorf("docs per query %+v", s.DocsPerQuery)
	}
	want := map[float64]int{1: 11, 10: 12, 20: 6, 50: 9, 100: 8}
	if len(s.CostGroups) != len(want) {
		t.Fatalf("cost groups %+v", s.CostGroups)
	}
	for _, g := range s.CostGroups {
		if want[g.Cost] != g.Features {
			t.Errorf("cost %g: %d features, want %d", g.Cost, g.Features, want[g.Cost])
		}
	}
}

func TestInspectBadFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "bad.txt")
	os.WriteFile(p, []byte("1 qid:1 1:0.5\n0 qid:1 1:abc\n"), 0o644)
	code, _, errOut := runCLI(t, "inspect", p)
	if code != 1 || !strings.Contains(errOut, p+`:2: feature 1: value "abc" is not a number`) {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	costs := filepath.Join(t.TempDir(), "costs.txt")
	os.WriteFile(costs, []byte("1\n-2\n"), 0o644)
	code, _, errOut = runCLI(t, "inspect", "builtin:mq2008/test", "--costs", costs)
	if code != 1 || !strings.Contains(errOut, costs+":2:") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

func TestGenReproducibleAndReadable(t *testing.T) {
	dir := t.TempDir()
	var files [][]byte
	for i, name := range []string{"a.txt", "b.txt"} {
		p := filepath.Join(dir, name)
		code, out, errOut := runCLI(t, "gen", "--queries", "30", "--docs-per-query", "20", "--seed", "7", "--out", p)
		if code != 0 {
			t.Fatalf("gen %d: exit %d %s", i, code, errOut)
		}
		if !strings.Contains(out, "wrote "+p) {
			t.Errorf("gen said %q", out)
		}
		b, _ := os.ReadFile(p)
		files = append(files, b)
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Fatal("same seed, different bytes")
	}
	code, out, errOut := runCLI(t, "inspect", "--json", filepath.Join(dir, "a.txt"))
	if code != 0 {
		t.Fatalf("inspect: %s", errOut)
	}
	var s struct{ Queries, Features int }
	json.Unmarshal([]byte(out), &s)
	if s.Queries != 30 || s.Features != 136 {
		t.Errorf("inspect of gen output: %+v", s)
	}
	// No temporary files are left next to the output.
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("directory holds %d entries, want 2", len(entries))
	}
}

// TestGenWorldZero: --world 0 is taken as 1, and --json reports the world
// used (it reported 0), whose data are --world 1's, byte for byte.
func TestGenWorldZero(t *testing.T) {
	dir := t.TempDir()
	var files [][]byte
	for _, w := range []string{"0", "1"} {
		p := filepath.Join(dir, "w"+w+".txt")
		code, out, errOut := runCLI(t, "gen", "--queries", "5", "--docs-per-query", "8", "--world", w, "--out", p, "--json")
		if code != 0 {
			t.Fatalf("gen --world %s: exit %d %s", w, code, errOut)
		}
		var r struct{ World *uint64 }
		if err := json.Unmarshal([]byte(out), &r); err != nil || r.World == nil || *r.World != 1 {
			t.Errorf("gen --world %s --json: world %v in %s (%v); want 1", w, r.World, out, err)
		}
		if !strings.HasPrefix(out, "{\n  \"") { // indented as every command's JSON; it was one line
			t.Errorf("gen --json is not indented: %q", out)
		}
		b, _ := os.ReadFile(p)
		files = append(files, b)
	}
	if len(files[0]) == 0 || !bytes.Equal(files[0], files[1]) {
		t.Error("--world 0 and --world 1 gave different data")
	}
}

// TestGenBytesOfDevice: gen --json's bytes is the size of the file
// written, and a device such as /dev/null, or a pipe, has none (it said 0,
// for what makes a file of a kilobyte), nor does the text report give one
// ("0.0 MB").
func TestGenBytesOfDevice(t *testing.T) {
	args := []string{"gen", "--queries", "3", "--docs-per-query", "4", "--features", "5"}
	file := filepath.Join(t.TempDir(), "g.txt")
	code, out, errOut := runCLI(t, append(args, "--out", file, "--json")...)
	var r struct{ Bytes *int64 }
	st, statErr := os.Stat(file)
	if err := json.Unmarshal([]byte(out), &r); code != 0 || err != nil || statErr != nil || r.Bytes == nil || *r.Bytes != st.Size() {
		t.Fatalf("gen --out FILE --json: exit %d, %s %s; want the file's size", code, out, errOut)
	}
	code, out, errOut = runCLI(t, append(args, "--out", os.DevNull, "--json")...)
	if code != 0 || !strings.Contains(out, `"bytes": null`) {
		t.Errorf("gen --out %s --json: exit %d, %s %s; want bytes null", os.DevNull, code, out, errOut)
	}
	code, out, errOut = runCLI(t, append(args, "--out", os.DevNull)...)
	if code != 0 || strings.Contains(out, "MB") {
		t.Errorf("gen --out %s: exit %d, %q %s; want no size", os.DevNull, code, out, errOut)
	}
}

// --threads sets the goroutines a command spreads its work over, for that
// command only, and the results do not depend on it: a model trained and
// a cascade optimised and a sweep's curve on 1 and on 3 threads are the
// same bytes.
func TestThreadsFlag(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	dir := t.TempDir()
	files := map[int][3]string{}
	for _, n := range []int{1, 3} {
		model, casc := filepath.Join(dir, fmt.Sprintf("m%d.json", n)), filepath.Join(dir, fmt.Sprintf("c%d.json", n))
		var tr struct{ Threads int }
		runJSON(t, &tr, "train", "--train", "builtin:mq2008/train", "--objective", "lambdarank", "--trees", "8", "--leaves", "7",
			"--col-sample", "0.5", "--row-sample", "0.8", "--threads", strconv.Itoa(n), "--out", model, "--json")
		if tr.Threads != n {
			t.Errorf("train --threads %d reported %d threads", n, tr.Threads)
		}
		if got := runtime.GOMAXPROCS(0); got != before {
			t.Fatalf("after train --threads %d GOMAXPROCS is %d, was %d", n, got, before)
		}
		var cr struct{ Threads int }
		runJSON(t, &cr, "cascade", "--model", model, "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali",
			"--costs", "builtin:mq2008/costs", "--stages", "3", "--cycles", "2", "--lambda", "0.05", "--threads", strconv.Itoa(n), "--out", casc, "--json")
		if cr.Threads != n {
			t.Errorf("cascade --threads %d reported %d threads", n, cr.Threads)
		}
		curve := filepath.Join(dir, fmt.Sprintf("s%d.csv", n))
		var sw struct{ Threads int }
		runJSON(t, &sw, "sweep", "--model", model, "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali",
			"--costs", "builtin:mq2008/costs", "--stages", "3", "--cycles", "1", "--lambdas", "0.02:0.2:2", "--threads", strconv.Itoa(n), "--out", curve, "--json")
		if sw.Threads != n {
			t.Errorf("sweep --threads %d reported %d threads", n, sw.Threads)
		}
		files[n] = [3]string{model, casc, curve}
	}
	for i := range 3 {
		a, err1 := os.ReadFile(files[1][i])
		b, err2 := os.ReadFile(files[3][i])
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		// The cascade file names its model, which differs by name only.
		a = bytes.ReplaceAll(a, []byte("m1.json"), []byte("m3.json"))
		if !bytes.Equal(a, b) {
			t.Errorf("%s and %s differ", files[1][i], files[3][i])
		}
	}
	for _, c := range commands {
		if _, out, _ := runCLI(t, c.name, "--help"); !strings.Contains(out, "-threads N") {
			t.Errorf("cronus %s --help does not list --threads", c.name)
		}
	}
	for _, v := range []string{"-1", "1025", "two"} {
		if code, _, errOut := runCLI(t, "inspect", "--threads", v, "builtin:mq2008/test"); code != 2 || !strings.Contains(errOut, "--threads: must be a whole number of threads from 1 to 1024") {
			t.Errorf("--threads %s: exit %d %q", v, code, errOut)
		}
	}
}

// cancelOn is a stderr that cancels the command's context when it is sent
// a line containing mark: an interrupt at a known point of the work.
type cancelOn struct {
	bytes.Buffer
	mark   string
	cancel context.CancelFunc
}

func (w *cancelOn) Write(p []byte) (int, error) {
	if strings.Contains(string(p), w.mark) {
		w.cancel()
	}
	return w.Buffer.Write(p)
}

// An interrupt after the data are read, while predict and eval score them
// (which does not watch for it), ended with exit 0, the report and every
// output file written; it is an interrupt like any other: exit 130 and no
// output. The interrupt comes with a warning each prints after reading the
// data and before scoring: the XGBoost model's on a sparse file, and for a
// cascade the cost file's, which is read just before the cascade scores.
func TestInterruptWhileScoring(t *testing.T) {
	dir := t.TempDir()
	model, sparse := importSparse(t, dir)
	const absentWarning = "--absent missing reads them as XGBoost does"
	casc := filepath.Join(dir, "c.json")
	if code, _, errOut := runCLI(t, "cascade", "--model", trainShallow(t, t.TempDir(), 10), "--train", "builtin:mq2008/train",
		"--valid", "builtin:mq2008/vali", "--costs", "builtin:mq2008/costs", "--stages", "2", "--cycles", "0", "--out", casc); code != 0 {
		t.Fatalf("cascade: %s", errOut)
	}
	costs := filepath.Join(dir, "costs.txt")
	os.WriteFile(costs, []byte("1\n2\n"), 0o644) // features 3-46 get 1, with a warning
	const costWarning = "no cost for features 3-46"
	out := func(name string) string { return filepath.Join(dir, "out", name) }
	os.Mkdir(filepath.Join(dir, "out"), 0o755)
	cases := []struct {
		mark string
		args []string
	}{
		{absentWarning, []string{"predict", "--model", model, "--data", sparse, "--out", out("p.txt")}},
		{absentWarning, []string{"predict", "--model", model, "--data", sparse, "--json"}},
		{absentWarning, []string{"eval", "--model", model, "--data", sparse, "--run", out("run.txt"), "--per-query", out("q.tsv")}},
		{costWarning, []string{"predict", "--cascade", casc, "--costs", costs, "--data", "builtin:mq2008/test", "--out", out("p.txt"), "--exits", out("e.tsv")}},
		{costWarning, []string{"eval", "--cascade", casc, "--costs", costs, "--data", "builtin:mq2008/test", "--run", out("run.txt"), "--json"}},
	}
	for _, c := range cases {
		ctx, cancel := context.WithCancel(context.Background())
		var stdout bytes.Buffer
		stderr := &cancelOn{mark: c.mark, cancel: cancel}
		code := run(ctx, c.args, &stdout, stderr)
		cancel()
		if !strings.Contains(stderr.String(), c.mark) {
			t.Fatalf("%v: no %q to interrupt at: %s", c.args, c.mark, stderr.String())
		}
		if code != 130 || !strings.HasSuffix(stderr.String(), "interrupted\n") || stdout.Len() > 0 {
			t.Errorf("%v interrupted while scoring: exit %d, stdout %.60q, stderr %q; want 130, nothing on stdout", c.args, code, stdout.String(), stderr.String())
		}
		left, _ := os.ReadDir(filepath.Join(dir, "out"))
		for _, e := range left {
			t.Errorf("%v interrupted while scoring left %s", c.args, e.Name())
			os.Remove(out(e.Name()))
		}
	}
}

// inspect counts a cost group's features in words: "1 feature", not
// "1 features".
func TestInspectGroupCount(t *testing.T) {
	dir := t.TempDir()
	d := filepath.Join(dir, "d.txt")
	costs := filepath.Join(dir, "c.txt")
	os.WriteFile(d, []byte("1 qid:1 1:0.5 2:1 3:2\n0 qid:1 1:0.1 2:3 3:1\n"), 0o644)
	os.WriteFile(costs, []byte("1 1\n2 5\n3 5\n"), 0o644)
	code, out, errOut := runCLI(t, "inspect", d, "--costs", costs)
	if code != 0 || !strings.Contains(out, "cost 1        1 feature\n") || !strings.Contains(out, "cost 5        2 features\n") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// cancelFrom is a context that cancels itself the first time code of the
// package whose import path ends in pkg asks whether it is done: an
// interrupt that arrives just as that package's work starts.
type cancelFrom struct {
	context.Context
	pkg    string
	cancel context.CancelFunc
}

func (c cancelFrom) Err() error {
	c.check()
	return c.Context.Err()
}

func (c cancelFrom) Done() <-chan struct{} {
	c.check()
	return c.Context.Done()
}

func (c cancelFrom) check() {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	for {
		f, more := frames.Next()
		if strings.Contains(f.Function, c.pkg+".") {
			c.cancel()
			return
		}
		if !more {
			return
		}
	}
}

// An interrupt while sweep scored its baselines (the GBRT prefixes and
// early exit on validation and test data; 14 s of a 25 s sweep on 2,000
// synthetic queries each) was not seen: the sweep went on, wrote the curve
// and the plot and exited 0. It is an interrupt like any other now: exit
// 130 and no output.
// cancelAt is a context that cancels itself the n-th time the function fn
// (its full name, as "github.com/cronus-ltr/cronus.runCascade") itself asks whether it is done: an
// interrupt that arrives just before that check, in work that does not
// watch for one.
type cancelAt struct {
	context.Context
	fn     string
	n      *int
	cancel context.CancelFunc
}

func (c cancelAt) Err() error {
	pcs := make([]uintptr, 1)
	if runtime.Callers(2, pcs) == 1 {
		if f, _ := runtime.CallersFrames(pcs).Next(); f.Function == c.fn {
			if *c.n--; *c.n == 0 {
				c.cancel()
			}
		}
	}
	return c.Context.Err()
}

// An interrupt while cascade scores the cascade it found on validation and
// test (after the optimisation, about a second on 200,000 documents) was
// not seen: cascade wrote the cascade, its trace and its curve and exited
// 0. It now exits 130 and writes none of them; and sweep, interrupted
// between its baselines and its files, writes neither curve nor plot.
func TestInterruptedBeforeWriting(t *testing.T) {
	dir := t.TempDir()
	model := trainShallow(t, dir, 10)
	out := filepath.Join(dir, "out")
	os.Mkdir(out, 0o755)
	in := []string{"--model", model, "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali",
		"--test", "builtin:mq2008/test", "--costs", "builtin:mq2008/costs", "--stages", "2", "--cycles", "1", "--rhos", "0.001"}
	for _, c := range []struct {
		fn   string
		n    int
		args []string
	}{
		{"github.com/cronus-ltr/cronus.runCascade", 1, []string{"cascade", "--out", filepath.Join(out, "c.json"), "--trace", filepath.Join(out, "c.trace"), "--curve", filepath.Join(out, "c.csv")}},
		{"github.com/cronus-ltr/cronus.runCascade", 1, []string{"cascade", "--out", filepath.Join(out, "c.json"), "--json"}},
		// One λ: runSweep asks once before it, once before writing.
		{"github.com/cronus-ltr/cronus.runSweep", 2, []string{"sweep", "--lambdas", "0.1:0.1:1", "--out", filepath.Join(out, "curve.csv"), "--plot", filepath.Join(out, "curve.svg")}},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		n := c.n
		var stdout, stderr bytes.Buffer
		code := run(cancelAt{ctx, c.fn, &n, cancel}, append(c.args, in...), &stdout, &stderr)
		cancel()
		if code != 130 || !strings.HasSuffix(stderr.String(), "interrupted\n") || stdout.Len() > 0 {
			t.Errorf("%v interrupted before writing: exit %d, stdout %.60q, stderr %q; want 130, nothing on stdout", c.args[:2], code, stdout.String(), stderr.String())
		}
		left, _ := os.ReadDir(out)
		for _, e := range left {
			t.Errorf("%v interrupted before writing left %s", c.args[:2], e.Name())
			os.Remove(filepath.Join(out, e.Name()))
		}
	}
}

func TestSweepInterruptedInBaselines(t *testing.T) {
	dir := t.TempDir()
	model := trainShallow(t, dir, 20)
	out := filepath.Join(dir, "out")
	os.Mkdir(out, 0o755)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr bytes.Buffer
	args := []string{"sweep", "--model", model, "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali",
		"--test", "builtin:mq2008/test", "--costs", "builtin:mq2008/costs", "--stages", "2", "--cycles", "0", "--rhos", "0.001",
		"--lambdas", "0.1:0.1:1", "--out", filepath.Join(out, "curve.csv"), "--plot", filepath.Join(out, "curve.svg")}
	code := run(cancelFrom{ctx, "/engine/baseline", cancel}, args, &stdout, &stderr)
	if code != 130 || !strings.HasSuffix(stderr.String(), "cronus sweep: interrupted\n") || stdout.Len() > 0 {
		t.Errorf("interrupted in the baselines: exit %d, stdout %.60q, stderr %q; want 130, nothing on stdout", code, stdout.String(), stderr.String())
	}
	left, _ := os.ReadDir(out)
	for _, e := range left {
		t.Errorf("interrupted in the baselines, sweep left %s", e.Name())
	}
	if ctx.Err() == nil {
		t.Error("the baselines never asked whether the sweep was interrupted")
	}
}

// TestInspectEdgeCases: a label -0 is the label 0; total_cost is given when
// every feature is free; a cost file with costs past a sparse file's last
// feature is read, its extra costs not used, with a warning.
func TestInspectEdgeCases(t *testing.T) {
	dir := t.TempDir()
	d := filepath.Join(dir, "d.txt")
	os.WriteFile(d, []byte("-0 qid:1 1:1 2:1\n-0.0 qid:1 1:2\n0 qid:2 1:1\n1 qid:2 1:3\n"), 0o644)
	free := filepath.Join(dir, "free.txt")
	os.WriteFile(free, []byte("0\n0\n"), 0o644)
	code, out, errOut := runCLI(t, "inspect", d, "--costs", free, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var s map[string]any
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if labels, _ := s["labels"].(map[string]any); len(labels) != 2 || labels["0"] != 3.0 || labels["1"] != 1.0 {
		t.Errorf("labels %v, want {0: 3, 1: 1}", s["labels"])
	}
	if tc, ok := s["total_cost"]; !ok || tc != 0.0 {
		t.Errorf("total_cost %v (present %v), want 0", tc, ok)
	}

	// MQ2008's test set without feature 46, with MQ2008's 46 costs.
	b := builtinTestText(t)
	test45 := filepath.Join(dir, "test45.txt")
	os.WriteFile(test45, regexp.MustCompile(` 46:\S+`).ReplaceAll(b, nil), 0o644)
	costs, err := data.LoadCosts("builtin:mq2008/costs", 46)
	if err != nil {
		t.Fatal(err)
	}
	total := 0.0
	for _, c := range costs.Cost[:45] {
		total += c
	}
	code, out, errOut = runCLI(t, "inspect", test45, "--costs", "builtin:mq2008/costs", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	s = nil
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if s["features"] != 45.0 || s["total_cost"] != total {
		t.Errorf("features %v, total_cost %v; want 45, %g", s["features"], s["total_cost"], total)
	}
	if want := "warning: builtin:mq2008/costs: the cost of feature 46 is not used: the data has features up to 45\n"; errOut != want {
		t.Errorf("stderr %q, want %q", errOut, want)
	}
}

// builtinTestText returns the text of the built-in MQ2008 test set.
func builtinTestText(t *testing.T) []byte {
	t.Helper()
	return builtinText(t, "test")
}

// builtinText returns the text of the built-in MQ2008 set split (train,
// vali or test).
func builtinText(t *testing.T, split string) []byte {
	t.Helper()
	f, err := os.Open("data/builtin/mq2008/" + split + ".txt.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// An interrupt while import reads or converts a model (seconds for a
// 100 MB RankLib model) was not looked at: import wrote the model and
// exited 0. Reading a model for eval or predict did not look either. Both
// now end at once (exit 130) and write nothing.
func TestInterruptedWhileLoadingModel(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out := filepath.Join(dir, "m.json")
	for _, args := range [][]string{
		{"import", "--from", "ranklib", "engine/tree/testdata/ranklib-lambdamart.txt", "--out", out},
		{"import", "--from", "lightgbm", "engine/tree/testdata/lgb-lambdarank.model.txt", "--out", out},
		{"eval", "--model", "engine/tree/testdata/xgb-dart.json", "--data", "builtin:mq2008/test"},
		{"predict", "--model", "engine/tree/testdata/xgb-dart.json", "--data", "builtin:mq2008/test", "--out", out},
	} {
		var stdout, stderr bytes.Buffer
		code := run(ctx, args, &stdout, &stderr)
		if code != 130 || !strings.HasSuffix(stderr.String(), "interrupted\n") || stdout.Len() > 0 {
			t.Errorf("%v interrupted: exit %d, stdout %.60q, stderr %q; want 130", args[:2], code, stdout.String(), stderr.String())
		}
		if left, _ := os.ReadDir(dir); len(left) > 0 {
			t.Errorf("%v interrupted left %s", args[:2], left[0].Name())
		}
	}
}

// TestLeadingZeroIsDecimal: an integer flag with a leading 0 is decimal,
// as in data files: Go's flag package reads 010 as octal 8 (review
// 2026-11-29: --trees 010 trained 8 trees, --seed 010 was seed 8).
func TestLeadingZeroIsDecimal(t *testing.T) {
	out := filepath.Join(t.TempDir(), "m.json")
	code, stdout, errOut := runCLI(t, "train", "--train", "builtin:mq2008/vali", "--trees", "010", "--leaves", "4", "--out", out)
	if code != 0 || !strings.Contains(stdout, "10 trees") {
		t.Errorf("--trees 010: exit %d, %q %q; want 10 trees", code, stdout, errOut)
	}
}

// TestNegativeZeroIsZero: a number flag or list value given as -0 (or as
// a value that rounds to zero, "-1e-400") is 0. It passed the range checks
// as -0 and went on as such: cascade --lambda -0 --rho1 -0 wrote "lambda":
// -0 and "lambda_abs": -0 in the cascade file and its --json, "-0" in the
// --curve's lambda column, and inspect said "λ -0 × λ_max (-0)"; sweep
// --exit-margins -0 wrote an early-exit row of margin -0 and --rhos -0
// rho1 and rhoK -0.
func TestNegativeZeroIsZero(t *testing.T) {
	for _, s := range []string{"-0", "-0.0", "-1e-400"} {
		fs := newFlags("cascade", io.Discard)
		cf := addCascadeFlags(fs)
		fs.Float64Var(&cf.par.Lambda, "lambda", cf.par.Lambda, "λ")
		if err := parseNoArgs(fs, []string{"--lambda", s, "--rho1", s, "--tree-cost", s}); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		for name, v := range map[string]float64{"--lambda": cf.par.Lambda, "--rho1": cf.par.Rho1, "--tree-cost": cf.treeCost} {
			if v != 0 || math.Signbit(v) {
				t.Errorf("%s %s: got %v (sign bit %v), want 0", name, s, v, math.Signbit(v))
			}
		}
		rhos, err := parseRhos(s)
		if err != nil || len(rhos) != 1 || math.Signbit(rhos[0]) {
			t.Errorf("--rhos %s: %v, %v; want [0]", s, rhos, err)
		}
		margins, err := parseMargins(s + ",1")
		if err != nil || len(margins) != 2 || math.Signbit(margins[0]) || formatMargins(margins) != "0,1" {
			t.Errorf("--exit-margins %s,1: %v (%q), %v; want [0 1]", s, margins, formatMargins(margins), err)
		}
	}
}

// failingWriter fails every write, as standard output on a full disk.
type failingWriter struct{}

func (failingWriter) Write(p []byte) (int, error) {
	return 0, errors.New("write /dev/stdout: no space left on device")
}

// A command whose report could not be written on standard output (`cronus
// eval … > figures.txt` on a full disk, or > /dev/full) exited 0 when the
// report was text: eval's and inspect's figures, their whole result, were
// lost without a word (with --json the error was caught). It fails with
// the write's error.
func TestStdoutWriteErrorFails(t *testing.T) {
	model := filepath.Join(t.TempDir(), "m.json")
	if code, _, errOut := runCLI(t, "import", "--from", "lightgbm", "engine/tree/testdata/lgb-lambdarank.model.txt", "--out", model); code != 0 {
		t.Fatal(errOut)
	}
	for _, args := range [][]string{
		{"inspect", "builtin:mq2008/test"},
		{"inspect", "--json", "builtin:mq2008/test"},
		{"eval", "--model", model, "--data", "builtin:mq2008/test"},
		{"help"},
		{"help", "eval"},
		{"version"},
	} {
		var e bytes.Buffer
		code := run(context.Background(), args, failingWriter{}, &e)
		want := fmt.Sprintf("cronus %s: write /dev/stdout: no space left on device\n", args[0])
		if code != 1 || e.String() != want {
			t.Errorf("cronus %v with stdout failing: exit %d, stderr %q; want exit 1 and %q", args, code, e.String(), want)
		}
	}
	// An error of its own is the command's message, not the write's.
	var e bytes.Buffer
	if code := run(context.Background(), []string{"inspect", "no-such-file.txt"}, failingWriter{}, &e); code != 1 || e.String() != "cronus inspect: no-such-file.txt: no such file\n" {
		t.Errorf("inspect of a missing file with stdout failing: exit %d, stderr %q", code, e.String())
	}
}

// Continuous labels (a regression target) made inspect's labels line list
// every document's; it lists the 6 lowest and 6 highest, and counts the
// rest.
func TestInspectManyLabels(t *testing.T) {
	var b strings.Builder
	for i := range 30 {
		fmt.Fprintf(&b, "%d qid:%d 1:%d\n", 100+i, i/5, i)
	}
	path := filepath.Join(t.TempDir(), "d.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "inspect", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := "  labels       100: 1 (3.3%) 101: 1 (3.3%) 102: 1 (3.3%) 103: 1 (3.3%) 104: 1 (3.3%) 105: 1 (3.3%) … 18 more … " +
		"124: 1 (3.3%) 125: 1 (3.3%) 126: 1 (3.3%) 127: 1 (3.3%) 128: 1 (3.3%) 129: 1 (3.3%) (30 distinct labels; --json lists them all)\n"
	if !strings.Contains(out, want) {
		t.Errorf("got\n%s\nwant the line\n%s", out, want)
	}
	code, out, _ = runCLI(t, "inspect", path, "--json")
	var s struct{ Labels map[string]int }
	if err := json.Unmarshal([]byte(out), &s); code != 0 || err != nil || len(s.Labels) != 30 {
		t.Errorf("--json: exit %d, %v, %d labels; want all 30", code, err, len(s.Labels))
	}
}

// An interrupt leaves no goroutine behind (DESIGN.md: cancelling stops
// the work and leaks none): train stopped in the boosting or the tree
// growing, cascade in the optimiser, sweep in the baselines and in the
// optimiser, predict and eval in the cascade's scorer each exit 130, and
// the goroutines they started (histogram workers, the job's, the
// scorer's) have ended (within a minute: a second was too short on a
// loaded machine for a goroutine still ending; the poll stops as soon as
// the count is down, so only a goroutine left running waits it out).
func TestInterruptLeavesNoGoroutines(t *testing.T) {
	dir := t.TempDir()
	model := trainShallow(t, dir, 30)
	casc := filepath.Join(dir, "c.json")
	data := []string{"--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali", "--test", "builtin:mq2008/test", "--costs", "builtin:mq2008/costs"}
	if code, _, errOut := runCLI(t, append([]string{"cascade", "--model", model, "--stages", "3", "--cycles", "0", "--out", casc}, data...)...); code != 0 {
		t.Fatal(errOut)
	}
	out := filepath.Join(dir, "out")
	for _, c := range []struct {
		pkg  string
		args []string
	}{
		// The training job's context is its own, derived from run's: the
		// first tree's log line interrupts it.
		{"log", []string{"train", "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali", "--trees", "20", "--log-every", "1", "--out", out}},
		{"log", []string{"train", "--train", "builtin:mq2008/train", "--objective", "regression", "--trees", "20", "--log-every", "1", "--out", out}},
		{"/engine/cronus", append([]string{"cascade", "--model", model, "--stages", "3", "--out", out}, data...)},
		{"/engine/baseline", append([]string{"sweep", "--model", model, "--stages", "3", "--cycles", "1", "--lambdas", "0.05:0.1:2", "--out", out}, data...)},
		{"/engine/cronus", append([]string{"sweep", "--model", model, "--stages", "3", "--cycles", "1", "--lambdas", "0.05:0.1:2", "--out", out}, data...)},
		{"/engine/cronus", []string{"predict", "--cascade", casc, "--data", "builtin:mq2008/test", "--out", out}},
		{"/engine/cronus", []string{"eval", "--cascade", casc, "--data", "builtin:mq2008/test", "--costs", "builtin:mq2008/costs"}},
	} {
		before := runtime.NumGoroutine()
		ctx, cancel := context.WithCancel(context.Background())
		var stdout bytes.Buffer
		stderr := cancelOnWrite{cancel: func() {}}
		var runCtx context.Context = cancelFrom{ctx, c.pkg, cancel}
		if c.pkg == "log" {
			runCtx, stderr.cancel = ctx, cancel
		}
		code := run(runCtx, c.args, &stdout, &stderr)
		cancel()
		if code != 130 {
			t.Errorf("%v stopped in %s: exit %d, %q; want 130", c.args[:2], c.pkg, code, stderr.String())
		}
		deadline := time.Now().Add(time.Minute)
		for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > before {
			buf := make([]byte, 1<<16)
			t.Errorf("%v stopped in %s: %d goroutines a minute after, %d before:\n%s", c.args[:2], c.pkg, n, before, buf[:runtime.Stack(buf, true)])
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v stopped in %s wrote %s", c.args[:2], c.pkg, out)
			os.Remove(out)
		}
	}
}

// cancelOnWrite is a standard error that cancels on its first write.
type cancelOnWrite struct {
	bytes.Buffer
	cancel context.CancelFunc
}

func (w *cancelOnWrite) Write(p []byte) (int, error) {
	w.cancel()
	return w.Buffer.Write(p)
}
