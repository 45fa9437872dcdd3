package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// eval's tables keep their columns when a metric's name is longer than the
// usual ten characters (recall@1000): in the metrics, the cost and the
// --compare table, every row's name is padded to the longest name's width.
func TestEvalLongMetricNames(t *testing.T) {
	dir := t.TempDir()
	model := trainShallow(t, dir, 3)
	scores := filepath.Join(dir, "s.txt")
	if code, _, errOut := runCLI(t, "predict", "--model", model, "--data", "builtin:mq2008/test", "--out", scores); code != 0 {
		t.Fatal(errOut)
	}
	code, out, errOut := runCLI(t, "eval", "--model", model, "--data", "builtin:mq2008/test", "--metrics", "rr,recall@1000,map@5", "--compare", scores)
	if code != 0 {
		t.Fatal(errOut)
	}
	rows := 0
	for _, name := range []string{"rr", "recall@1000", "map@5", "cost/doc", "metric"} {
		for _, l := range strings.Split(out, "\n") {
			if f := strings.Fields(l); len(f) > 1 && f[0] == name {
				rows++
				if !strings.HasPrefix(l, fmt.Sprintf("  %-11s ", name)) {
					t.Errorf("row %q is not padded to the width of recall@1000:\n%s", l, out)
				}
			}
		}
	}
	if rows != 8 {
		t.Errorf("%d table rows, want 8 (3 metrics twice, the cost, the header):\n%s", rows, out)
	}
}

// eval --err-max-label sets ERR's lmax: on one query of labels 2, 0, 1
// scored so that they rank 0, 1, 2, R(1) = 1/16 and R(2) = 3/16 at lmax 4
// (RankLib's ERR, 2^lmax = 16), so ERR = 1/2·1/16 + 1/3·3/16·15/16 =
// 23/256; the default lmax, the data's largest label 2, gives R(1) = 1/4,
// R(2) = 3/4 and ERR = 1/8 + 3/16 = 5/16. The convention line says which.
func TestEvalErrMaxLabel(t *testing.T) {
	dir := t.TempDir()
	dataF, scoresF := filepath.Join(dir, "d.txt"), filepath.Join(dir, "s.txt")
	if err := os.WriteFile(dataF, []byte("2 qid:1 1:0\n0 qid:1 1:0\n1 qid:1 1:0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(scoresF, []byte("0.1\n0.9\n0.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want float64
		conv string
	}{
		{nil, 5.0 / 16, "lmax=largest label"},
		{[]string{"--err-max-label", "4"}, 23.0 / 256, "lmax=4"},
	} {
		var r struct {
			Metrics    map[string]float64
			Convention string
		}
		runJSON(t, &r, append([]string{"eval", "--scores", scoresF, "--data", dataF, "--metrics", "err", "--json"}, c.args...)...)
		if math.Abs(r.Metrics["err"]-c.want) > 1e-12 || !strings.Contains(r.Convention, c.conv) {
			t.Errorf("%v: err %v, convention %q; want %v and %q", c.args, r.Metrics["err"], r.Convention, c.want, c.conv)
		}
	}
	for _, c := range []struct{ args, want string }{
		{"--metrics ndcg --err-max-label 4", "--err-max-label applies to err@k; --metrics ndcg has none"},
		{"--metrics err --err-max-label 0", "--err-max-label: must be a finite number greater than 0, got 0"},
		{"--metrics err --err-max-label Inf", "--err-max-label: must be a finite number greater than 0"},
	} {
		args := append([]string{"eval", "--scores", scoresF, "--data", dataF}, strings.Fields(c.args)...)
		if code, _, errOut := runCLI(t, args...); code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}

// TestScoresCompressedNamed: eval --scores given a file of scores
// compressed by bzip2 or xz (real output of each, of "0.5\n0.25\n") names
// the format and the command that unpacks it, as the data, cost and model
// readers do, not "binary data (a NUL byte)".
func TestScoresCompressedNamed(t *testing.T) {
	for _, c := range []struct{ b, kind, undo string }{
		{"BZh91AY&SYB\xa3j\xa9\x00\x00\x02\xd8\x00\x00\x10\x00\x01R\x00 \x00! \x06h1HSqw$S\x85\t\x04*6\xaa\x90", "bzip2-compressed data", "bunzip2 -k"},
		{"\xfd7zXZ\x00\x00\x04\xe6\xd6\xb4F\x02\x00!\x01\x16\x00\x00\x00t/\xe5\xa3\x01\x00\x080.5\n0.25\n\x00\x00\x00\x00=G\xcep\x02\xd4\xcf\xdc\x00\x01!\tl\x18\xc5\xd5\x1f\xb6\xf3}\x01\x00\x00\x00\x00\x04YZ", "xz-compressed data", "unxz -k"},
	} {
		_, err := parseScores(strings.NewReader(c.b), "s.txt", []int64{1}, []int{0, 2})
		want := "s.txt:1: " + c.kind + ", which cronus does not read; expected scores, one per line, plain or gzip: unpack it first, e.g. " + c.undo
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v; want %q", c.kind, err, want)
		}
	}
}
