package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchLibCascadeArgs: bench/lib.sh's cascade_args adds the bench's
// exit rule and relevance threshold unless CASCADE_ARGS gives them, then
// CASCADE_ARGS's words; need_folds names the first fold file missing.
func TestBenchLibCascadeArgs(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	run := func(cascadeArgs, script string) (string, error) {
		cmd := exec.Command(bash, "-c", "set -euo pipefail; . bench/lib.sh; "+script)
		cmd.Env = append(os.Environ(), "BENCH_DIR="+dir, "CASCADE_ARGS="+cascadeArgs)
		b, err := cmd.CombinedOutput()
		return string(b), err
	}
	// In a function, into a local array, as bench/split-valid.sh calls it.
	const show = `f() { local a=(--model m.json); cascade_args a "$@"; echo "${a[*]}"; }; `
	for _, c := range []struct{ cascadeArgs, rel, want string }{
		{"", "", "--model m.json --rule top-m --top-m 5 --relevant 1"},
		{"", "2", "--model m.json --rule top-m --top-m 5 --relevant 2"},
		{"--graded --top-m 3", "", "--model m.json --rule top-m --relevant 1 --graded --top-m 3"},
		{"--rule global", "", "--model m.json --relevant 1 --rule global"},
		{"--relevant 2 --rho-rule 1se", "", "--model m.json --rule top-m --top-m 5 --relevant 2 --rho-rule 1se"},
	} {
		out, err := run(c.cascadeArgs, show+"f "+c.rel)
		if err != nil || strings.TrimSpace(out) != c.want {
			t.Errorf("CASCADE_ARGS=%q cascade_args a %s: err %v, %q; want %q", c.cascadeArgs, c.rel, err, out, c.want)
		}
	}
	fold := filepath.Join(dir, "cascade-mq2008-fold1")
	if err := os.MkdirAll(fold, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(fold, "model.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := run("", "need_folds bench/x.sh; echo passed")
	want := "bench/x.sh: no " + filepath.Join(fold, "f1-train.txt") + ": run bench/cascade-folds.sh with this BENCH_DIR first"
	if err == nil || !strings.Contains(out, want) || strings.Contains(out, "passed") {
		t.Errorf("need_folds without f1-train.txt: err %v, output %q; want %q and a stop", err, out, want)
	}
}
