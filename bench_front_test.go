package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// curveHead is the header of cronus sweep --out's CSV.
const curveHead = "method,split,lambda,cost,feature_cost,tree_cost,p@5,ndcg@10,err@3\n"

// needPython is python3's path for the tests of the bench's Python
// scripts; without it the test is skipped.
func needPython(t *testing.T) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	return py
}

// benchBash is bash, for a test that runs a bench script (the scripts use
// Debian's /usr/bin/python3); it skips the test without either.
func benchBash(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3, which the bench scripts use")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	return bash
}

// benchSweepBash is benchBash for a script that builds cronus with go and
// times its sweeps with /usr/bin/time: the test is skipped without them.
func benchSweepBash(t *testing.T) string {
	t.Helper()
	bash := benchBash(t)
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go, which the script builds cronus with")
	}
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		t.Skip("no /usr/bin/time, which the script times its sweeps with")
	}
	return bash
}

// runBenchScript runs bench/SCRIPT with args under bash, in an
// environment of this process's variables and then env's, and returns its
// output and error output together.
func runBenchScript(bash, script string, env []string, args ...string) (string, error) {
	cmd := exec.Command(bash, append([]string{filepath.Join("bench", script)}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// benchFront gives the tests of bench/front.py a curve writer (a file of
// body in a temporary directory, its path returned) and the script's runner
// (its combined output); without python3 the test is skipped.
func benchFront(t *testing.T) (write func(name, body string) string, run func(args ...string) (string, error)) {
	t.Helper()
	py := needPython(t)
	dir := t.TempDir()
	write = func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	run = func(args ...string) (string, error) {
		out, err := exec.Command(py, append([]string{filepath.Join("bench", "front.py")}, args...)...).CombinedOutput()
		return string(out), err
	}
	return write, run
}

// wantLines reports each of wants that front.py's output (what names the
// run) does not contain.
func wantLines(t *testing.T, what, out string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("%s: output\n%s\nwant %q", what, out, want)
		}
	}
}

// TestBenchFrontRefusesCascadeCurve: bench/front.py, which the Measured
// front rows quote, counts Cronus against the baselines of a sweep curve.
// cascade --curve's file has cronus rows and one baseline row, the full
// ensemble's prefix; front.py took it for a sweep curve and reported
// "cronus front on or above the baseline front" against nothing but the
// full ensemble. It must refuse it, as it refuses a curve without
// baselines, and still read a sweep curve.
func TestBenchFrontRefusesCascadeCurve(t *testing.T) {
	write, front := benchFront(t)
	cascade := curveHead +
		"cronus-init,valid,0.1,90,88,2,0.3,0.54,0.28\n" +
		"cronus,valid,0.1,90,88,2,0.3,0.54,0.28\n" +
		"prefix,valid,50,1240,1190,50,0.3,0.53,0.27\n"
	sweep := cascade +
		"prefix,valid,1,53,52,1,0.3,0.55,0.27\n" +
		"early-exit,valid,0,700,690,10,0.3,0.52,0.27\n" +
		"early-exit,valid,+Inf,1240,1190,50,0.3,0.53,0.27\n"
	run := func(name, body string) (string, error) { return front(write(name, body)) }
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
	write, front := benchFront(t)
	body := curveHead +
		"cronus,valid,0.1,90,88,2,0.3,0.54,0.28\n" +
		"prefix,valid,1,53,52,1,0.3,0.55,0.27\n" +
		"early-exit,valid,+Inf,1240,1190,50,0.3,0.53,0.27\n"
	p := write("sweep.csv", body)
	out, err := front(p)
	if err != nil || strings.Count(out, "cronus front on or above the baseline front") != 0 || !strings.Contains(out, "test, "+p+": no rows") {
		t.Errorf("front.py on a curve without test rows: err %v, output\n%s\nwant test reported as having no rows, and no verdict for it", err, out)
	}
}

// TestBenchFrontPools: A.csv+B.csv is one curve pooled from two sweeps of
// the same model and data (bench/cascade.sh's λ grid and its uncapped
// sweep near λ_max). B's Cronus points count, under λ@2, so a cheap
// cascade of B's closes the gap the single stage leaves below A's
// cheapest; B's copy of a baseline point A has is not counted twice, and
// one B has alone is counted, nor is a cascade of B's that A has (at
// another λ). A name with a + that exists is a file.
func TestBenchFrontPools(t *testing.T) {
	write, front := benchFront(t)
	a := curveHead +
		"cronus,test,0.5,120,110,10,0.9,0.77,0.6\n" +
		"single-stage,test,0.97,22,20,2,0.8,0.52,0.4\n" +
		"prefix,test,1,150,149,1,0.7,0.70,0.3\n" +
		"early-exit,test,+Inf,3000,2700,300,0.99,0.96,0.7\n" +
		"prefix,test,300,3000,2700,300,0.99,0.96,0.7\n" +
		"cronus,test,0.1,1000,950,50,0.99,0.97,0.7\n"
	b := curveHead +
		"cronus,test,0.97,22,20,2,0.8,0.53,0.4\n" +
		"cronus,test,0.6,120,110,10,0.9,0.77,0.6\n" + // A's λ 0.5 cascade again: not another point
		"single-stage,test,0.97,22,20,2,0.8,0.52,0.4\n" +
		"single-stage,test,0.6,300,280,20,0.9,0.80,0.6\n" +
		"early-exit,test,+Inf,3000,2700,300,0.99,0.96,0.7\n"
	pa, pb := write("a.csv", a), write("b.csv", b)
	run := func(arg string) string {
		out, err := front(arg)
		if err != nil {
			t.Fatalf("front.py %s: %v\n%s", arg, err, out)
		}
		return out
	}
	out := run(pa)
	if !strings.Contains(out, "1 of the 4 baseline points lie above cronus's front") {
		t.Errorf("front.py on A alone: output\n%s\nwant the single stage at 22 above cronus's front", out)
	}
	out = run(pa + "+" + pb)
	// B's single stage at 300 (0.80) lies above cronus's best at no
	// higher cost (0.77 at 120): it counts, and A's 22-cost single stage,
	// which B repeats, is not doubled; B's cronus at 22 covers it, and its
	// copy of A's λ 0.5 cascade is not a fourth point.
	wantLines(t, "front.py on A+B", out,
		"λ 0.97@2    cost    22.0 ndcg@10 0.5300",
		"1 of the 5 baseline points lie above cronus's front",
		"single-stage 0.6@2: cost 300.0 ndcg@10 0.8000 against cronus 0.7700",
		"cronus on or above the front at 3 of 3 points",
	)
	// A file whose name has a + in it is read as one curve.
	plus := write("a+b.csv", a)
	if out := run(plus); !strings.Contains(out, "1 of the 4 baseline points lie above cronus's front") {
		t.Errorf("front.py on a file named a+b.csv: output\n%s\nwant it read as A", out)
	}
}

// TestBenchFrontFirstStages: bench/stage-prefixes.sh pools each sweep with
// the first k stages of its cascades, λ written λ#k. front.py must read
// and show them (it parsed λ as a number), count them as Cronus points,
// and count a cut that repeats the whole cascade once.
func TestBenchFrontFirstStages(t *testing.T) {
	write, front := benchFront(t)
	sweep := curveHead +
		"cronus,test,0.5,120,110,10,0.9,0.77,0.6\n" +
		"single-stage,test,0.5,40,38,2,0.8,0.60,0.4\n" +
		"prefix,test,1,150,149,1,0.7,0.70,0.3\n" +
		"early-exit,test,+Inf,150,149,1,0.7,0.70,0.3\n"
	cuts := curveHead +
		"cronus,test,0.5#1,30,29,1,0.8,0.62,0.4\n" + // above the single stage at 40
		"cronus,test,0.5#2,120,110,10,0.9,0.77,0.6\n" // the whole cascade again: one point
	out, err := front(write("curve.csv", sweep) + "+" + write("curve-stages.csv", cuts))
	if err != nil {
		t.Fatalf("front.py: %v\n%s", err, out)
	}
	wantLines(t, "front.py", out,
		"λ 0.5#1@2   cost    30.0 ndcg@10 0.6200",
		"cronus on or above the front at 2 of 2 points",
		"cronus front on or above the baseline front",
	)
	if strings.Contains(out, "0.5#2") {
		t.Errorf("front.py: output\n%s\nshows the cut that repeats the whole cascade", out)
	}
}

// TestBenchBases: bench/bases.py's counts on two hand-made five-fold runs,
// worked out by hand. A's Cronus points (10, 0.40) and (30, 0.50), its
// baselines a single stage (20, 0.45) and a prefix (40, 0.48); B's Cronus
// points (10, 0.42) and (30, 0.46), its baseline a prefix (15, 0.44).
func TestBenchBases(t *testing.T) {
	py := needPython(t)
	run := func(rows string) string {
		d := t.TempDir()
		for f := 1; f <= 5; f++ {
			fd := filepath.Join(d, "cascade-mq2008-fold"+string(rune('0'+f)))
			if err := os.MkdirAll(fd, 0o755); err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			b.WriteString(curveHead)
			for _, split := range []string{"valid", "test"} {
				b.WriteString(strings.ReplaceAll(rows, "SPLIT", split))
			}
			if err := os.WriteFile(filepath.Join(fd, "curve.csv"), []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	a := run("cronus,SPLIT,0.5,10,9,1,0,0.40,0\ncronus,SPLIT,0.1,30,29,1,0,0.50,0\nsingle-stage,SPLIT,0.5,20,19,1,0,0.45,0\nprefix,SPLIT,3,40,37,3,0,0.48,0\n")
	b := run("cronus,SPLIT,0.5,10,9,1,0,0.42,0\ncronus,SPLIT,0.1,30,29,1,0,0.46,0\nprefix,SPLIT,2,15,13,2,0,0.44,0\n")
	out, err := exec.Command(py, filepath.Join("bench", "bases.py"), a, b).CombinedOutput()
	if err != nil {
		t.Fatalf("bases.py: %v\n%s", err, out)
	}
	for _, want := range []string{
		"A's Cronus front against B's: on or above at 2 of 5 costs, behind at 3, by at most 0.0200",
		"A's Cronus front against B's baseline front: on or above at 2 of 4 costs, behind at 2, by at most 0.0400",
		"A's baseline front against B's: on or above at 3 of 4 costs, behind at 0 (A has no point that cheap at 1)",
		"best: A Cronus 0.5000, A baseline 0.4800, B Cronus 0.4600, B baseline 0.4400",
	} {
		if n := strings.Count(string(out), want); n != 2 {
			t.Errorf("%q %d times in bases.py's output, want 2 (valid and test):\n%s", want, n, out)
		}
	}
	if out, err := exec.Command(py, filepath.Join("bench", "bases.py"), a, t.TempDir()).CombinedOutput(); err == nil || !strings.Contains(string(out), "no curve.csv") {
		t.Errorf("bases.py on a directory without curves: err %v, output\n%s", err, out)
	}
}

// TestBenchFrontTwins: a Cronus point equal to a baseline point on one
// curve, split, cost and NDCG@10 alike (a cut whose earlier stages send
// nothing away, in front of a prefix), is counted as Cronus's but named;
// DISTINCT=1 leaves it out, here on both folds, which turns the verdict.
// A Cronus point equal to a baseline on neither curve is no twin.
func TestBenchFrontTwins(t *testing.T) {
	write, front := benchFront(t)
	fold := func(name, twin string) string {
		return write(name, curveHead+
			"cronus,test,0.5,120,110,10,0.9,0.77,0.6\n"+
			"cronus,test,0.5#2p10,"+twin+",0.8,0.70,0.4\n"+
			"prefix,test,10,50,40,10,0.8,0.70,0.4\n"+
			"single-stage,test,0.5,60,58,2,0.8,0.69,0.4\n"+
			"early-exit,test,+Inf,150,149,1,0.7,0.70,0.3\n")
	}
	// Fold a: the cut is the 10-tree prefix itself; fold b: it costs less.
	a, b := fold("a.csv", "50,40,10"), fold("b.csv", "48,38,10")
	out, err := front(a, b)
	if err != nil {
		t.Fatalf("front.py: %v\n%s", err, out)
	}
	wantLines(t, "front.py", out,
		"1 cronus points equal a baseline point on some curve (a cascade that is, on that data, the baseline): counted; DISTINCT=1 leaves them out",
		"λ 0.5#2p10  cost    49.0 ndcg@10 0.7000",
		"cronus front on or above the baseline front",
	)
	t.Setenv("DISTINCT", "1")
	out, err = front(a, b)
	if err != nil {
		t.Fatalf("front.py with DISTINCT=1: %v\n%s", err, out)
	}
	wantLines(t, "front.py with DISTINCT=1", out,
		"left out (DISTINCT=1)",
		"2 of the 3 baseline points lie above cronus's front",
	)
	if strings.Contains(out, "0.5#2p10") {
		t.Errorf("front.py with DISTINCT=1: output\n%s\nshows the twin", out)
	}
	// On b alone the cut is no twin.
	t.Setenv("DISTINCT", "")
	if out, err := front(b); err != nil || strings.Contains(out, "equal a baseline point") {
		t.Errorf("front.py on b alone: err %v, output\n%s\nwant no twins", err, out)
	}
}

// TestBenchFrontBudgetChoices: by budget, every budget past Cronus's
// dearest point picks the same two points, so the count of budgets is
// mostly that one comparison repeated (on MQ2008, 1,300 of 2,077 budgets
// were one pair). front.py also counts each distinct choice once. Here
// Cronus's one point (valid 0.50 at 10) is picked from budget 10 up; the
// baseline's pick is prefix 1, 2, 3 and 4 in turn, then early exit from 50
// up, whose test figure (0.49) beats Cronus's (0.48) at the budgets 50, 60,
// 70 and 80 (the dearer prefixes are worse on validation). At budget 5
// there is no Cronus point: a loss. So 4 of 9 budgets, 4 of 6 choices.
func TestBenchFrontBudgetChoices(t *testing.T) {
	write, front := benchFront(t)
	body := curveHead
	for _, split := range []string{"valid", "test"} {
		c := "0.50"
		if split == "test" {
			c = "0.48"
		}
		body += "cronus," + split + ",0.1,10,9,1,0.5," + c + ",0.3\n" +
			"prefix," + split + ",1,5,4,1,0.5,0.40,0.3\n" +
			"prefix," + split + ",2,20,18,2,0.5,0.45,0.3\n" +
			"prefix," + split + ",3,30,27,3,0.5,0.46,0.3\n" +
			"prefix," + split + ",4,40,36,4,0.5,0.47,0.3\n" +
			"early-exit," + split + ",0,50,45,5,0.5,0.49,0.3\n" +
			"prefix," + split + ",6,60,54,6,0.5,0.30,0.3\n" +
			"prefix," + split + ",7,70,63,7,0.5,0.30,0.3\n" +
			"prefix," + split + ",8,80,72,8,0.5,0.30,0.3\n"
	}
	out, err := front(write("c.csv", body))
	if err != nil {
		t.Fatalf("front.py: %v\n%s", err, out)
	}
	want := "cronus on or above the baseline at 4 of 9 budgets (every point's validation cost); at 4 of the 6 distinct choices (pairs of points) they make"
	wantLines(t, "front.py", out, want)
}
