package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLastPrefix: eval and predict --cascade C --last-prefix n rank the
// documents that reach the last stage by the base ensemble's first n
// trees: a document that leaves earlier leaves as in the cascade itself
// (same stage, score and costs, byte for byte); one that reaches the last
// stage scores as `predict --model --trees n` (up to the float32 rounding
// of the tree outputs a cascade has) and pays for every tree of the
// earlier stages and of the prefix once (the union, from the file's stage
// lists; each tree costs 1). With --stages k the cut's last stage is the
// one replaced. eval's report matches predict's reach and cost. Out of
// range, with --model, or negative, it is refused.
func TestLastPrefix(t *testing.T) {
	dir := t.TempDir()
	model, c := fourStageCascade(t, dir)
	test := "builtin:mq2008/test"
	var file struct {
		Stages []struct{ Trees []int }
	}
	b, err := os.ReadFile(c)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	lines := func(path string) []string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	}
	type report struct {
		Metrics map[string]float64
		Cost    struct{ Total, Features, Trees float64 }
		Reached []float64
	}
	for _, tc := range []struct{ stages, n int }{{0, 1}, {0, 7}, {0, 30}, {2, 12}} {
		K := len(file.Stages)
		args := []string{}
		if tc.stages > 0 {
			K = tc.stages
			args = append(args, "--stages", strconv.Itoa(tc.stages))
		}
		ownExits := filepath.Join(dir, "own.tsv")
		runJSON(t, &struct{}{}, append([]string{"predict", "--cascade", c, "--data", test, "--out", filepath.Join(dir, "k0.txt"), "--exits", ownExits, "--json"}, args...)...)
		exits := filepath.Join(dir, "exits.tsv")
		var pr, ev report
		runJSON(t, &pr, append([]string{"predict", "--cascade", c, "--data", test, "--last-prefix", strconv.Itoa(tc.n), "--out", filepath.Join(dir, "k.txt"), "--exits", exits, "--json"}, args...)...)
		runJSON(t, &ev, append([]string{"eval", "--cascade", c, "--data", test, "--last-prefix", strconv.Itoa(tc.n), "--json"}, args...)...)
		if ev.Cost != pr.Cost || len(ev.Reached) != K || len(pr.Reached) != K {
			t.Errorf("%+v: eval cost %+v reached %v, predict %+v %v", tc, ev.Cost, ev.Reached, pr.Cost, pr.Reached)
		}
		prefix := filepath.Join(dir, "prefix.txt")
		if code, _, errOut := runCLI(t, "predict", "--model", model, "--trees", strconv.Itoa(tc.n), "--data", test, "--out", prefix); code != 0 {
			t.Fatal(errOut)
		}
		want := lines(prefix)
		union := map[int]bool{}
		for k := 0; k < K-1; k++ {
			for _, tr := range file.Stages[k].Trees {
				union[tr] = true
			}
		}
		for tr := range tc.n {
			union[tr] = true
		}
		own, got := tsvRows(t, ownExits), tsvRows(t, exits)
		if len(got) != len(own) || len(got) != len(want) {
			t.Fatalf("%+v: %d exit lines, %d of the cascade itself, %d prefix scores", tc, len(got), len(own), len(want))
		}
		last := 0
		for i, row := range got {
			if row[2] != strconv.Itoa(K) {
				if strings.Join(row, "\t") != strings.Join(own[i], "\t") {
					t.Fatalf("%+v: document %d left at stage %s: %v, the cascade itself %v", tc, i, row[2], row, own[i])
				}
				continue
			}
			last++
			s, _ := strconv.ParseFloat(row[3], 64)
			p, _ := strconv.ParseFloat(want[i], 64)
			if math.Abs(s-p) > 1e-5*(1+math.Abs(p)) {
				t.Fatalf("%+v: document %d at the last stage scores %v, the %d-tree prefix %v", tc, i, s, tc.n, p)
			}
			if row[5] != strconv.Itoa(len(union)) {
				t.Fatalf("%+v: document %d at the last stage paid %s for trees, want the %d of the earlier stages and the prefix", tc, i, row[5], len(union))
			}
		}
		if last == 0 {
			t.Errorf("%+v: no document reached the last stage", tc)
		}
	}
	for _, bad := range []struct {
		args []string
		want string
	}{
		{[]string{"eval", "--cascade", c, "--data", test, "--last-prefix", "31"}, "--last-prefix 31: " + c + ": the cascade's ensemble has 30 trees; the prefix must have from 1 to 30 (got 31)"},
		{[]string{"eval", "--model", model, "--data", test, "--last-prefix", "3"}, "--last-prefix applies to --cascade only"},
		{[]string{"predict", "--model", model, "--data", test, "--last-prefix", "3"}, "--last-prefix applies to --cascade only"},
		{[]string{"predict", "--cascade", c, "--data", test, "--last-prefix", "-1"}, "--last-prefix"},
	} {
		code, _, errOut := runCLI(t, bad.args...)
		if code != 2 || !strings.Contains(errOut, bad.want) || strings.Contains(errOut, "goroutine") {
			t.Errorf("%v: exit %d, %q; want 2 and %q", bad.args, code, errOut, bad.want)
		}
	}
}

// TestNegativeStagesRefused: predict and export took --stages -1 as all
// the stages, without a word (the range was given to the flag parser for
// its messages only); eval refused it. All three refuse it now.
func TestNegativeStagesRefused(t *testing.T) {
	dir := t.TempDir()
	_, c := fourStageCascade(t, dir)
	for _, args := range [][]string{
		{"predict", "--cascade", c, "--data", "builtin:mq2008/test", "--stages", "-1"},
		{"eval", "--cascade", c, "--data", "builtin:mq2008/test", "--stages", "-1"},
		{"export", "--cascade", c, "--to", "c", "--stages", "-1", "--out", filepath.Join(dir, "x.c")},
	} {
		code, out, errOut := runCLI(t, args...)
		if code != 2 || out != "" || !strings.Contains(errOut, "--stages: must be at least 0, got -1") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.c")); !os.IsNotExist(err) {
		t.Errorf("export --stages -1 left x.c: %v", err)
	}
}

// tsvRows is the TSV file at path split into rows of fields, its header
// line left out.
func tsvRows(t *testing.T, path string) [][]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")[1:] {
		rows = append(rows, strings.Split(l, "\t"))
	}
	return rows
}
