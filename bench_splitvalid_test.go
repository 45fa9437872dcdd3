package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchSplitValid: bench/splitvalid.py (bench/split-valid.sh) merges a
// curve whose validation rows are another sweep's test rows, per-query
// file too, and measures what choosing on a validation half adds: per
// method, the mean of (the half that chose − the other half) over both
// halves, in which the halves' own difference cancels.
func TestBenchSplitValid(t *testing.T) {
	py := needPython(t)
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	run := func(args ...string) (string, error) {
		b, err := exec.Command(py, append([]string{filepath.Join("bench", "splitvalid.py")}, args...)...).CombinedOutput()
		return string(b), err
	}
	const head = "method,split,lambda,cost,feature_cost,tree_cost,p@5,ndcg@10,err@3\n"
	// curve: valid rows on the half that chose (ndcg vp, vc), test rows
	// on the other half or the test set (tp, tc); p the prefix, c Cronus.
	curve := func(vp, vc, tp, tc string) string {
		return head +
			"prefix,valid,1,10,9,1,0.5," + vp + ",0.3\n" +
			"cronus,valid,0.01,20,18,2,0.5," + vc + ",0.3\n" +
			"prefix,test,1,10,9,1,0.4," + tp + ",0.2\n" +
			"cronus,test,0.01,21,19,2,0.4," + tc + ",0.2\n"
	}
	fold := filepath.Join(dir, "fold1")
	// Half A is easier by 0.1 for the prefix, which chooses nothing.
	// Cronus chose on A: 0.70 on A, 0.62 on B (+0.08); chose on B: 0.66
	// on B, 0.64 on A (+0.02). Its bias: (0.08 + 0.02) / 2 = +0.05; the
	// prefix's: (0.1 − 0.1) / 2 = 0.
	write("fold1/selA-onB.csv", curve("0.6", "0.7", "0.5", "0.62"))
	write("fold1/selA-ontest.csv", curve("0.6", "0.7", "0.45", "0.47"))
	write("fold1/selB-onA.csv", curve("0.5", "0.66", "0.6", "0.64"))
	write("fold1/selB-ontest.csv", curve("0.5", "0.66", "0.45", "0.48"))
	out, err := run("bias", fold)
	if err != nil {
		t.Fatalf("bias: %v\n%s", err, out)
	}
	for _, want := range []string{"cronus        +0.0500 over 2 points", "prefix        +0.0000 over 2 points"} {
		if !strings.Contains(out, want) {
			t.Errorf("bias: no %q in\n%s", want, out)
		}
	}

	// merge: OTHER's test rows become the validation rows, TEST's test
	// rows stay; the per-query files (X.queries.tsv beside X.csv) likewise.
	qhead := "method\tsplit\tlambda\tqid\tp@5\tndcg@10\terr@3\n"
	write("fold1/selA-onB.queries.tsv", qhead+"prefix\tvalid\t1\t1\t0.5\t0.6\t0.3\nprefix\ttest\t1\t2\t0.5\t0.5\t0.3\n")
	write("fold1/selA-ontest.queries.tsv", qhead+"prefix\tvalid\t1\t1\t0.5\t0.6\t0.3\nprefix\ttest\t1\t9\t0.4\t0.45\t0.2\n")
	merged := filepath.Join(fold, "other.csv")
	if out, err := run("merge", filepath.Join(fold, "selA-onB.csv"), filepath.Join(fold, "selA-ontest.csv"), merged); err != nil {
		t.Fatalf("merge: %v\n%s", err, out)
	}
	wantCSV := head +
		"prefix,valid,1,10,9,1,0.4,0.5,0.2\n" +
		"cronus,valid,0.01,21,19,2,0.4,0.62,0.2\n" +
		"prefix,test,1,10,9,1,0.4,0.45,0.2\n" +
		"cronus,test,0.01,21,19,2,0.4,0.47,0.2\n"
	if b, err := os.ReadFile(merged); err != nil || string(b) != wantCSV {
		t.Errorf("merged curve: %v\n%s\nwant\n%s", err, b, wantCSV)
	}
	wantTSV := qhead + "prefix\tvalid\t1\t2\t0.5\t0.5\t0.3\nprefix\ttest\t1\t9\t0.4\t0.45\t0.2\n"
	if b, err := os.ReadFile(filepath.Join(fold, "other.queries.tsv")); err != nil || string(b) != wantTSV {
		t.Errorf("merged per-query file: %v\n%s\nwant\n%s", err, b, wantTSV)
	}

	// Two sweeps choosing on one half must have the same points.
	write("fold2/selA-onB.csv", curve("0.6", "0.7", "0.5", "0.62"))
	write("fold2/selA-ontest.csv", head+"prefix,valid,1,10,9,1,0.5,0.6,0.3\n")
	write("fold2/selB-onA.csv", curve("0.5", "0.66", "0.6", "0.64"))
	write("fold2/selB-ontest.csv", curve("0.5", "0.66", "0.45", "0.48"))
	if out, err := run("bias", filepath.Join(dir, "fold2")); err == nil || !strings.Contains(out, "fold2: the two sweeps choosing on A have different points") {
		t.Errorf("bias on unlike sweeps: err %v, output\n%s", err, out)
	}
	bad := write("bad.csv", "a,b,c\n")
	if out, err := run("merge", bad, merged, filepath.Join(dir, "x.csv")); err == nil || !strings.Contains(out, "bad.csv: not a curve") {
		t.Errorf("merge of a non-curve: err %v, output\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.csv")); err == nil {
		t.Error("merge of a non-curve wrote its output")
	}
	if out, err := run("merge", bad); err == nil || !strings.Contains(out, "usage: splitvalid.py") {
		t.Errorf("merge with one file: err %v, output\n%s", err, out)
	}

	// bench/split-valid.sh refuses arguments, and stops before building
	// anything when bench/cascade-folds.sh has not made the folds.
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	sh := func(args ...string) (string, error) {
		return runBenchScript(bash, "split-valid.sh", []string{"BENCH_DIR=" + filepath.Join(dir, "bench")}, args...)
	}
	if out, err := sh("extra"); err == nil || !strings.Contains(out, "usage: bash bench/split-valid.sh") {
		t.Errorf("split-valid.sh extra: err %v, output %q; want the usage and a failure", err, out)
	}
	if out, err := sh(); err == nil || !strings.Contains(out, "cascade-mq2008-fold1/model.json: run bench/cascade-folds.sh with this BENCH_DIR first") {
		t.Errorf("split-valid.sh without folds: err %v, output %q", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "bench", "split-valid")); err == nil {
		t.Error("split-valid.sh without folds made its output directory")
	}
}
