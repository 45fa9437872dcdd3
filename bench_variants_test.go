package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchCutPrefixesVariants: bench/cut-prefixes.sh --variants lists the
// cuts k = 2 … K−1 of a cascade, each with the k-th stage each prefix of
// LAST_PREFIXES no longer than the ensemble: not k = 1 (the prefix
// baseline itself), nor a k whose earlier stages keep no tree (the same),
// nor k = K (bench/last-prefix.sh's), nor a prefix longer than the
// ensemble. Stray arguments are refused.
func TestBenchCutPrefixesVariants(t *testing.T) {
	bash := benchBash(t)
	dir := t.TempDir()
	// Five stages, the first empty, the third too; an ensemble of 40
	// trees: only the stages' tree lists and the trees' count are read.
	c := filepath.Join(dir, "c.json")
	trees := strings.TrimSuffix(strings.Repeat("{},", 40), ",")
	stages := `[{"trees":[]},{"trees":[2,7]},{},{"trees":[1]},{"trees":[3]}]`
	if err := os.WriteFile(c, []byte(`{"stages":`+stages+`,"ensemble":{"trees":[`+trees+`]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, error) {
		return runBenchScript(bash, "cut-prefixes.sh", []string{"BENCH_DIR=" + filepath.Join(dir, "bench"), "LAST_PREFIXES=10,30,50"}, args...)
	}
	out, err := run("--variants", c)
	if err != nil {
		t.Fatalf("cut-prefixes.sh --variants: %v\n%s", err, out)
	}
	want := "3p10 --stages 3 --last-prefix 10\n3p30 --stages 3 --last-prefix 30\n" +
		"4p10 --stages 4 --last-prefix 10\n4p30 --stages 4 --last-prefix 30\n"
	if out != want {
		t.Errorf("cut-prefixes.sh --variants: got\n%s\nwant\n%s", out, want)
	}
	// Three stages, each keeping a tree: the cut at 2 alone.
	full := filepath.Join(dir, "full.json")
	if err := os.WriteFile(full, []byte(`{"stages":[{"trees":[1]},{"trees":[2]},{"trees":[3]}],"ensemble":{"trees":[`+trees+`]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := run("--variants", full); err != nil || out != "2p10 --stages 2 --last-prefix 10\n2p30 --stages 2 --last-prefix 30\n" {
		t.Errorf("cut-prefixes.sh --variants on three full stages: err %v, got\n%s", err, out)
	}
	if out, err := run("--variants", filepath.Join(dir, "missing.json")); err == nil || out != "" && strings.Contains(out, "--stages") {
		t.Errorf("cut-prefixes.sh --variants on a missing file: err %v, output %q; want a failure and no variants", err, out)
	}
	for _, args := range [][]string{{"--variants"}, {"extra"}, {"--variants", c, "extra"}} {
		if out, err := run(args...); err == nil || !strings.Contains(out, "usage: bash bench/cut-prefixes.sh") {
			t.Errorf("cut-prefixes.sh %v: err %v, output %q; want the usage and a failure", args, err, out)
		}
	}
}
