package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchFrontRefusesCascadeCurve: bench/front.py, which the Measured
// front rows quote, counts Cronus against the baselines of a sweep curve.
// cascade --curve's file has cronus rows and one baseline row, the full
// ensemble's prefix; front.py took it for a sweep curve and reported
// "cronus front on or above the baseline front" against nothing but the
// full ensemble. It must refuse it, as it refuses a curve without
// baselines, and still read a sweep curve.
func TestBenchFrontRefusesCascadeCurve(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	dir := t.TempDir()
	const head = "method,split,lambda,cost,feature_cost,tree_cost,p@5,ndcg@10,err@3\n"
	cascade := head +
		"cronus-init,valid,0.1,90,88,2,0.3,0.54,0.28\n" +
		"cronus,valid,0.1,90,88,2,0.3,0.54,0.28\n" +
		"prefix,valid,50,1240,1190,50,0.3,0.53,0.27\n"
	sweep := cascade +
		"prefix,valid,1,53,52,1,0.3,0.55,0.27\n" +
		"early-exit,valid,0,700,690,10,0.3,0.52,0.27\n" +
		"early-exit,valid,+Inf,1240,1190,50,0.3,0.53,0.27\n"
	run := func(name, body string) (string, error) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(py, filepath.Join("bench", "front.py"), p).CombinedOutput()
		return string(out), err
	}
	out, err := run("cascade.csv", cascade)
	if err == nil || !strings.Contains(out, "no early-exit rows") {
		t.Errorf("front.py on a cascade --curve file: err %v, output\n%s\nwant it refused (no early-exit rows)", err, out)
	}
	out, err = run("sweep.csv", sweep)
	if err != nil || !strings.Contains(out, "1 of the 4 baseline points lie above cronus's front") {
		t.Errorf("front.py on a sweep curve: err %v, output\n%s\nwant the prefix k=1 counted above cronus's front", err, out)
	}
}

// TestBenchFrontSplitWithoutRows: a sweep without --test has no test rows,
// and front.py said of test "cronus front on or above the baseline front",
// the goal's verdict, on no points at all. It now says the split has no
// rows.
func TestBenchFrontSplitWithoutRows(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	p := filepath.Join(t.TempDir(), "sweep.csv")
	body := "method,split,lambda,cost,feature_cost,tree_cost,p@5,ndcg@10,err@3\n" +
		"cronus,valid,0.1,90,88,2,0.3,0.54,0.28\n" +
		"prefix,valid,1,53,52,1,0.3,0.55,0.27\n" +
		"early-exit,valid,+Inf,1240,1190,50,0.3,0.53,0.27\n"
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := exec.Command(py, filepath.Join("bench", "front.py"), p).CombinedOutput()
	out := string(b)
	if err != nil || strings.Count(out, "cronus front on or above the baseline front") != 0 || !strings.Contains(out, "test, "+p+": no rows") {
		t.Errorf("front.py on a curve without test rows: err %v, output\n%s\nwant test reported as having no rows, and no verdict for it", err, out)
	}
}
