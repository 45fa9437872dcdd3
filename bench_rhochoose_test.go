package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// rhoChooseRun runs bench/rhochoose.py with args and gives its combined
// output.
func rhoChooseRun(t *testing.T, py string, args ...string) (string, error) {
	t.Helper()
	b, err := exec.Command(py, append([]string{filepath.Join("bench", "rhochoose.py")}, args...)...).CombinedOutput()
	return string(b), err
}

// TestBenchRhoChoose: bench/rhochoose.py picks, per λ, the fixed-ρ sweep
// each rule names, on hand-made sweeps whose choices are worked out below,
// and writes that sweep's rows.
func TestBenchRhoChoose(t *testing.T) {
	py := needPython(t)
	dir := t.TempDir()
	rhos := []string{"0.01", "0.1"}
	lams := []string{"0.1", "0.2", "0.3"}
	// Validation NDCG@10 of four queries, per ρ, method and λ.
	//   cronus-init at λ 0.1: 0.01 has mean 0.55, 0.1 0.5; the differences
	//     (0.1, 0, 0, 0.1) have mean 0.05 and SE 0.0289: more than one SE,
	//     so both rules keep 0.01.
	//   cronus-init at λ 0.2: 0.01 0.55, 0.1 0.525; the differences
	//     (0.2, −0.1, 0, 0) have mean 0.025 and SE 0.0629: within one SE,
	//     so 1se takes the larger ρ, 0.1; best keeps 0.01.
	//   single-stage at λ 0.1: 0.1 is best (0.55 against 0.5), both rules.
	//   single-stage at λ 0.2: 0.01 is best (0.55 against 0.5); the
	//     differences (0.1, 0.1, 0, 0), mean 0.05, SE 0.0289: 0.01 for both.
	//   At λ 0.3 every query scores 0.4 at both ρ, for both: best keeps the
	//     first, 0.01; 1se takes 0.1 (a difference of 0).
	pq := map[string][]string{
		"0.01 cronus-init 0.1":  {"0.9", "0.6", "0.5", "0.2"},
		"0.1 cronus-init 0.1":   {"0.8", "0.6", "0.5", "0.1"},
		"0.01 cronus-init 0.2":  {"0.9", "0.6", "0.5", "0.2"},
		"0.1 cronus-init 0.2":   {"0.7", "0.7", "0.5", "0.2"},
		"0.01 single-stage 0.1": {"0.5", "0.5", "0.5", "0.5"},
		"0.1 single-stage 0.1":  {"0.6", "0.6", "0.5", "0.5"},
		"0.01 single-stage 0.2": {"0.6", "0.6", "0.5", "0.5"},
		"0.1 single-stage 0.2":  {"0.5", "0.5", "0.5", "0.5"},
	}
	// The optimised cascades' validation NDCG@10 and cost: at λ 0.1 ρ 0.1
	// scores best, at λ 0.2 ρ 0.01; at λ 0.3 they tie and ρ 0.1 is the
	// cheaper; over the grid ρ 0.1 (0.4867 against 0.4833).
	opt := map[string][2]string{
		"0.01 0.1": {"0.50", "30"}, "0.1 0.1": {"0.53", "40"},
		"0.01 0.2": {"0.47", "20"}, "0.1 0.2": {"0.45", "15"},
		"0.01 0.3": {"0.48", "25"}, "0.1 0.3": {"0.48", "20"},
	}
	// The initialised cascades' validation rows carry their queries' means:
	// over the grid ρ 0.01 is ahead (0.5 against 0.475), so grid-init
	// keeps it where grid takes 0.1.
	initValid := map[string]string{"0.01 0.1": "0.55", "0.1 0.1": "0.5", "0.01 0.2": "0.55", "0.1 0.2": "0.525"}
	const head = "method,split,lambda,cost,feature_cost,tree_cost,p@5,ndcg@10,err@3\n"
	const qhead = "method\tsplit\tlambda\tqid\tp@5\tndcg@10\terr@3\n"
	// row is the curve row of ρ's sweep; its err@3 names ρ, so that the
	// output shows which sweep each row came from.
	row := func(rho, method, split, lam string) string {
		cost, ndcg := "10", "0.4"
		if method == "cronus" && split == "valid" {
			ndcg, cost = opt[rho+" "+lam][0], opt[rho+" "+lam][1]
		}
		if v, ok := initValid[rho+" "+lam]; ok && method == "cronus-init" && split == "valid" {
			ndcg = v
		}
		return fmt.Sprintf("%s,%s,%s,%s,%s,1,0.3,%s,%s\n", method, split, lam, cost, cost, ndcg, rho)
	}
	qrows := func(rho, method, split, lam string) string {
		var b strings.Builder
		for i := 0; i < 4; i++ {
			v := "0.4"
			if vs, ok := pq[rho+" "+method+" "+lam]; ok && split == "valid" {
				v = vs[i]
			}
			fmt.Fprintf(&b, "%s\t%s\t%s\t%d\t0.3\t%s\t%s\n", method, split, lam, i+1, v, rho)
		}
		return b.String()
	}
	prefix := "prefix,valid,1,5,4,1,0.3,0.3,0.2\nprefix,test,1,5,4,1,0.3,0.3,0.2\n"
	qprefix := "prefix\tvalid\t1\t1\t0.3\t0.3\t0.2\nprefix\ttest\t1\t1\t0.3\t0.3\t0.2\n"
	// curve gives a sweep's files, with pick(method, λ) the ρ of each
	// ρ-dependent point: a fixed-ρ sweep with pick ρ, an expected output
	// with the rule's choices.
	curve := func(pick func(method, lam string) string) (csv, tsv string) {
		csv, tsv = head, qhead
		for _, lam := range lams {
			for _, m := range []string{"single-stage", "cronus-init", "cronus"} {
				for _, s := range []string{"valid", "test"} {
					csv += row(pick(m, lam), m, s, lam)
					tsv += qrows(pick(m, lam), m, s, lam)
				}
			}
		}
		return csv + prefix, tsv + qprefix
	}
	write := func(path, body string) {
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var in []string
	for _, r := range rhos {
		csv, tsv := curve(func(string, string) string { return r })
		p := filepath.Join(dir, "rho"+r+".csv")
		write(p, csv)
		write(filepath.Join(dir, "rho"+r+".queries.tsv"), tsv)
		in = append(in, p)
	}
	// The choices each rule makes, per λ: the cascade's, the single stage's.
	want := map[string]map[string][2]string{
		"best":       {"0.1": {"0.01", "0.1"}, "0.2": {"0.01", "0.01"}, "0.3": {"0.01", "0.01"}},
		"1se":        {"0.1": {"0.01", "0.1"}, "0.2": {"0.1", "0.01"}, "0.3": {"0.1", "0.1"}},
		"optimised":  {"0.1": {"0.1", "0.1"}, "0.2": {"0.01", "0.01"}, "0.3": {"0.1", "0.01"}},
		"grid":       {"0.1": {"0.1", "0.1"}, "0.2": {"0.1", "0.01"}, "0.3": {"0.1", "0.01"}},
		"grid-init":  {"0.1": {"0.01", "0.1"}, "0.2": {"0.01", "0.01"}, "0.3": {"0.01", "0.01"}},
		"fixed:0.01": {"0.1": {"0.01", "0.1"}, "0.2": {"0.01", "0.01"}, "0.3": {"0.01", "0.01"}},
	}
	for rule, choice := range want {
		out := filepath.Join(dir, strings.ReplaceAll(rule, ":", "-")+".csv")
		text, err := rhoChooseRun(t, py, append([]string{rule, out}, in...)...)
		if err != nil {
			t.Fatalf("%s: %v\n%s", rule, err, text)
		}
		wantCSV, wantTSV := curve(func(m, lam string) string {
			if m == "single-stage" {
				return choice[lam][1]
			}
			return choice[lam][0]
		})
		if b, err := os.ReadFile(out); err != nil || string(b) != wantCSV {
			t.Errorf("%s: curve %v\n%s\nwant\n%s", rule, err, b, wantCSV)
		}
		if b, err := os.ReadFile(strings.TrimSuffix(out, ".csv") + ".queries.tsv"); err != nil || string(b) != wantTSV {
			t.Errorf("%s: per-query file %v\n%s\nwant\n%s", rule, err, b, wantTSV)
		}
		for _, lam := range lams {
			line := fmt.Sprintf("  λ %-22s %-8s %s\n", lam, choice[lam][0], choice[lam][1])
			if !strings.Contains(text, line) {
				t.Errorf("%s: no %q in its output\n%s", rule, line, text)
			}
		}
	}

	// Sweeps that are not one set-up's, and bad arguments, are refused.
	other := filepath.Join(dir, "x", "rho0.5.csv")
	if err := os.MkdirAll(filepath.Dir(other), 0o755); err != nil {
		t.Fatal(err)
	}
	csv, tsv := curve(func(string, string) string { return "0.5" })
	write(other, strings.Replace(csv, "prefix,test,1,5,4,1,0.3,0.3,0.2", "prefix,test,1,5,4,1,0.3,0.31,0.2", 1))
	write(strings.TrimSuffix(other, ".csv")+".queries.tsv", tsv)
	renamed := filepath.Join(dir, "y", "sweep.csv")
	if err := os.MkdirAll(filepath.Dir(renamed), 0o755); err != nil {
		t.Fatal(err)
	}
	write(renamed, csv)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"best", filepath.Join(dir, "o.csv"), in[0], other}, "rho0.5.csv: its prefix and early-exit rows differ from"},
		{[]string{"best", filepath.Join(dir, "o.csv"), in[0], renamed}, "sweep.csv: not named rhoR.csv"},
		{[]string{"fixed:0.5", filepath.Join(dir, "o.csv"), in[0], in[1]}, "fixed:0.5: no rho0.5.csv among the sweeps (0.01 0.1)"},
		{[]string{"median", filepath.Join(dir, "o.csv"), in[0], in[1]}, "rule 'median': want best, 1se, optimised, grid, grid-init or fixed:R"},
		{[]string{"best", filepath.Join(dir, "o.tsv"), in[0], in[1]}, "the output must end in .csv"},
	} {
		out, err := rhoChooseRun(t, py, c.args...)
		if err == nil || !strings.Contains(out, c.want) {
			t.Errorf("%v: err %v, output\n%s\nwant %q", c.args, err, out, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "o.csv")); err == nil {
		t.Error("a refused run wrote o.csv")
	}

	// bench/fixed-rho.sh refuses arguments, unknown rules and a grid of
	// one ρ, and stops before building anything when
	// bench/cascade-folds.sh has not made the folds.
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	sh := func(env []string, args ...string) (string, error) {
		return runBenchScript(bash, "fixed-rho.sh", append([]string{"BENCH_DIR=" + filepath.Join(dir, "bench")}, env...), args...)
	}
	for _, c := range []struct {
		env  []string
		args []string
		want string
	}{
		{nil, []string{"extra"}, "usage: bash bench/fixed-rho.sh"},
		{[]string{"RULES=best median"}, nil, "RULES: unknown rule 'median'"},
		{[]string{"RHOS=0.05"}, nil, "RHOS needs at least two values"},
		{nil, nil, "cascade-mq2008-fold1/model.json: run bench/cascade-folds.sh with this BENCH_DIR first"},
	} {
		if out, err := sh(c.env, c.args...); err == nil || !strings.Contains(out, c.want) {
			t.Errorf("fixed-rho.sh %v %v: err %v, output %q; want %q", c.env, c.args, err, out, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "bench", "fixed-rho")); err == nil {
		t.Error("fixed-rho.sh without folds made its output directory")
	}
}

// TestBenchRhoChooseSweeps: from sweeps that each fix one ρ,
// bench/rhochoose.py's best and 1se give, byte for byte, the curves and
// per-query files of `cronus sweep` choosing ρ from them by --rho-rule
// best and 1se (which pick differently here).
func TestBenchRhoChooseSweeps(t *testing.T) {
	py := needPython(t)
	dir := t.TempDir()
	model := trainShallow(t, dir, 30)
	common := []string{"sweep", "--model", model, "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali",
		"--test", "builtin:mq2008/test", "--costs", "builtin:mq2008/costs", "--stages", "3", "--cycles", "1",
		"--lambdas", "0.005:0.3:4", "--every-prefix"}
	grid := []string{"0.001", "0.02", "0.1"}
	var in []string
	for _, r := range grid {
		p := filepath.Join(dir, "rho"+r+".csv")
		mustRun(t, append(common, "--rhos", r, "--out", p, "--per-query", filepath.Join(dir, "rho"+r+".queries.tsv"))...)
		in = append(in, p)
	}
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	curves := map[string]string{}
	for _, rule := range []string{"best", "1se"} {
		real := filepath.Join(dir, "real-"+rule+".csv")
		mustRun(t, append(common, "--rhos", strings.Join(grid, ","), "--rho-rule", rule, "--out", real, "--per-query", filepath.Join(dir, "real-"+rule+".queries.tsv"))...)
		off := filepath.Join(dir, "off-"+rule+".csv")
		if out, err := rhoChooseRun(t, py, append([]string{rule, off}, in...)...); err != nil {
			t.Fatalf("%s: %v\n%s", rule, err, out)
		}
		for _, ext := range []string{".csv", ".queries.tsv"} {
			got, want := read(strings.TrimSuffix(off, ".csv")+ext), read(strings.TrimSuffix(real, ".csv")+ext)
			if got != want {
				t.Errorf("%s: rhochoose.py's %s differs from the sweep's:\n%s\nwant\n%s", rule, ext, got, want)
			}
		}
		curves[rule] = read(real)
	}
	if curves["best"] == curves["1se"] {
		t.Error("best and 1se chose alike: the comparison does not tell 1se's arithmetic from best's")
	}
}
