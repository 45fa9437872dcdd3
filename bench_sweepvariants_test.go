package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchSweepVariants: bench/sweep-variants.sh runs each fold's sweep
// again with --variants (VARIANTS, LAST_PREFIXES passed on), checks that
// its rows without a variant are the fold's curve.csv, and runs front.py
// and paired.py on the five; a fold whose curve.csv is another sweep's
// stops it, naming the file, as do stray arguments and missing folds. The
// five folds here are one small model and the built-in data, copied.
func TestBenchSweepVariants(t *testing.T) {
	if testing.Short() {
		t.Skip("trains and sweeps five times")
	}
	bash := benchSweepBash(t)
	dir := t.TempDir()
	bench := filepath.Join(dir, "bench")
	run := func(args ...string) (string, error) {
		return runBenchScript(bash, "sweep-variants.sh", []string{"BENCH_DIR=" + bench, "LAMBDAS=0.02:0.2:2", "CASCADE_ARGS=--stages 3 --cycles 1", "VARIANTS=stages,last-prefix", "LAST_PREFIXES=5,8"}, args...)
	}
	if out, err := run("extra"); err == nil || !strings.Contains(out, "usage: bash bench/sweep-variants.sh") {
		t.Errorf("a stray argument: err %v, %q", err, out)
	}
	if out, err := run(); err == nil || !strings.Contains(out, "bench/sweep-variants.sh: no "+filepath.Join(bench, "cascade-mq2008-fold1", "model.json")+": run bench/cascade-folds.sh with this BENCH_DIR first") {
		t.Errorf("no folds: err %v, %q", err, out)
	}
	model := trainShallow(t, dir, 10)
	for f := 1; f <= 5; f++ {
		d := filepath.Join(bench, "cascade-mq2008-fold"+string(rune('0'+f)))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, split := range []string{"train", "vali", "test"} {
			p := filepath.Join(d, "f"+string(rune('0'+f))+"-"+split+".txt")
			if err := os.WriteFile(p, builtinText(t, split), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(d, "model.json"), []byte(readFile(t, model)), 0o644); err != nil {
			t.Fatal(err)
		}
		// The fold's sweep, as bench/cascade.sh runs it.
		fs := "f" + string(rune('0'+f))
		if code, _, errOut := runCLI(t, "sweep", "--model", filepath.Join(d, "model.json"), "--train", filepath.Join(d, fs+"-train.txt"),
			"--valid", filepath.Join(d, fs+"-vali.txt"), "--test", filepath.Join(d, fs+"-test.txt"), "--costs", "builtin:mq2008/costs",
			"--rule", "top-m", "--top-m", "5", "--relevant", "1", "--stages", "3", "--cycles", "1",
			"--lambdas", "0.02:0.2:2", "--refine", "0", "--every-prefix", "--out", filepath.Join(d, "curve.csv"), "--per-query", filepath.Join(d, "curve.queries.tsv")); code != 0 {
			t.Fatal(errOut)
		}
	}
	out, err := run()
	if err != nil {
		t.Fatalf("sweep-variants.sh: %v\n%s", err, out)
	}
	for f := 1; f <= 5; f++ {
		d := filepath.Join(bench, "cascade-mq2008-fold"+string(rune('0'+f)))
		curve := readFile(t, filepath.Join(d, "curve-variants.csv"))
		for _, want := range []string{"cronus,valid,0.02#1,", "cronus,test,0.02#2,", "cronus,valid,0.2#p5,", "cronus,test,0.02#p8,"} {
			if !strings.Contains(curve, want) {
				t.Errorf("fold %d: curve-variants.csv has no row starting %q", f, want)
			}
		}
		if strings.Contains(curve, "p10,") || strings.Contains(curve, "#2p5,") {
			t.Errorf("fold %d: a prefix not in LAST_PREFIXES, or a kind not in VARIANTS:\n%s", f, curve)
		}
		if _, err := os.Stat(filepath.Join(d, "curve-variants.queries.tsv")); err != nil {
			t.Errorf("fold %d: no per-query file: %v", f, err)
		}
	}
	for _, want := range []string{"fold 5: ", " rows of variants", "at every cost:", "by budget"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output has no %q:\n%s", want, out)
		}
	}
	// Fold 3's curve.csv another sweep's: the script stops, naming it.
	c3 := filepath.Join(bench, "cascade-mq2008-fold3", "curve.csv")
	b := readFile(t, c3)
	lines := strings.SplitAfter(b, "\n")
	if err := os.WriteFile(c3, []byte(strings.Join(lines[:len(lines)-2], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := run(); err == nil || !strings.Contains(out, "its rows without a variant are not "+c3+": not the same sweep") {
		t.Errorf("fold 3's curve.csv cut short: err %v, output\n%s", err, out)
	}
}
