package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/cronus-ltr/cronus/data"
)

// Two queries: 7 with three documents, 9 with two.
var (
	scoreQIDs    = []int64{7, 9}
	scoreOffsets = []int{0, 3, 5}
)

// TestParseScores reads scores one per line and in RankLib's -score
// output (qid, index within the query, score), and refuses lines that do
// not fit the data.
func TestParseScores(t *testing.T) {
	want := []float64{0.5, -1, 2e3, 0, 1.25}
	for _, text := range []string{
		"0.5\n-1\n2e3\n0\n1.25\n",
		"\ufeff0.5\r\n-1\r\n2e3\r\n0\r\n1.25\r\n",
		"7\t0\t0.5\n7\t1\t-1\n7\t2\t2e3\n9\t0\t0\n9\t1\t1.25\n", // RankLib -score
		"7 0 0.5\n7 1 -1\n7 2 2e3\n9 0 0\n9 1 1.25",
		"0.5\n-1\n2e3\n0\n1.25\n\n \r\n\t\n", // blank lines at the end: the end of the file
	} {
		got, err := parseScores(strings.NewReader(text), "s.txt", scoreQIDs, scoreOffsets)
		if err != nil || len(got) != len(want) {
			t.Fatalf("%q: %v, %v", text, got, err)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%q: score %d = %g, want %g", text, i, got[i], want[i])
			}
		}
	}
	for _, c := range []struct{ text, err string }{
		{"0.5\n-1\n2\n0\n", "s.txt: 4 scores for 5 documents"},
		{"0.5\n-1\n2\n0\n1\n3\n", "s.txt:6: more scores than the 5 documents of the data"},
		{"0.5\n\n-1\n2\n0\n1\n", "s.txt:2: blank line"},
		{"0.5\n-1\n2\n0\n\n\n", "s.txt: 4 scores for 5 documents"},
		{"0.5\nx\n", `s.txt:2: score "x" is not a number`},
		{"0.5\nNaN\n", `s.txt:2: score "NaN" is not a finite number`},
		{"0.5\n-1e400\n", `s.txt:2: score "-1e400" is outside the float64 range; expected a finite number`}, // was "is not a number"
		{"0.5 1\n", "s.txt:1: 2 fields; expected one score per line, or RankLib's qid, index and score"},
		{"0.5\r-1\r2e3\r0\r1.25\r", "s.txt:1: " + data.BareCR}, // was "5 fields; expected one score per line …"
		{"0.5\n7 1 -1\n", "s.txt:2: 3 fields; the file's first line has one score, and so must every line"},
		{"7\t0\t0.5\n-1\n", "s.txt:2: 1 field; the file's first line has qid, index and score"},
		{"7\t0\t0.5\n7\t2\t1\n", `s.txt:2: "7" "2": expected query 7, index 1 (the data's document 2)`},
		{"7\t0\t0.5\n7\t1\t1\n7\t2\t1\n7\t3\t1\n", `s.txt:4: "7" "3": expected query 9, index 0 (the data's document 4)`},
		{"q7\t0\t0.5\n", `s.txt:1: "q7" "0": expected query 7, index 0`},
		// A data file given as scores: the errors said only that the
		// fields, or RankLib's qid and index, were wrong.
		{"2 qid:7 1:0.5 3:1 # d1\n", "s.txt:1: 6 fields; expected one score per line, or RankLib's qid, index and score (this is a line of SVMlight data, 'LABEL qid:Q IDX:VAL … # comment', not scores: a data file given for the scores?)"},
		{"2 qid:7 1:0.5\n", `s.txt:1: "2" "qid:7": expected query 7, index 0 (the data's document 1) (this is a line of SVMlight data`},
		{"2 1:0.5 3:1\n", `s.txt:1: "2" "1:0.5": expected query 7, index 0 (the data's document 1) (this is a line of SVMlight data`},
		{"# the header\n2 qid:7 1:0.5\n", `s.txt:1: "#" "the": expected query 7, index 0 (the data's document 1) (a comment line, as data files have`},
		{"0.5\n2 qid:7 1:0.5\n", "s.txt:2: 3 fields; the file's first line has one score, and so must every line (this is a line of SVMlight data"},
		{"#\n", `s.txt:1: score "#" is not a number; expected one score per line (a comment line`},
		// Not text: were "2 fields" and "score "\xff\xfe0\x00.\x005\x00" is not a number".
		{"\x93NUMPY\x01\x00v\x00{'descr': '<f8'}\n", "s.txt:1: binary data (a NUL byte)"},
		{"0.5\n-1\n\x002\n", "s.txt:3: binary data (a NUL byte)"},
		{"\xff\xfe0\x00.\x005\x00\n\x00", "s.txt:1: UTF-16 text (its byte order mark)"},
		{"\xfe\xff\x000\x00.\x005\n", "s.txt:1: UTF-16 text (its byte order mark)"},
	} {
		_, err := parseScores(strings.NewReader(c.text), "s.txt", scoreQIDs, scoreOffsets)
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.err)
		}
	}
}

// scoresErrorAt finds the line an error of parseScores names.
var scoresErrorAt = regexp.MustCompile(`^s\.txt:([0-9]+):`)

// FuzzParseScores: a scores file gives an error naming the file (and a
// line of it), or one finite score per document, each the last field of
// its line.
func FuzzParseScores(f *testing.F) {
	for _, s := range []string{"0.5\n-1\n2e3\n0\n1.25\n", "7\t0\t0.5\n7\t1\t-1\n7\t2\t2e3\n9\t0\t0\n9\t1\t1.25\n",
		"1\n2\n3\n4\n", "\ufeff1\n2\n3\n4\n5", "7 0 1\n7 1 1\n7 2 1\n9 0 1\n9 1 inf\n", "1\r\n2\r\n\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := parseScores(strings.NewReader(s), "s.txt", scoreQIDs, scoreOffsets)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "s.txt") {
				t.Fatalf("%q: error %q does not name the file", s, err)
			}
			if m := scoresErrorAt.FindStringSubmatch(err.Error()); m != nil {
				if n, _ := strconv.Atoi(m[1]); n < 1 || n > strings.Count(s, "\n")+1 {
					t.Fatalf("%q: error %q names a line the file does not have", s, err)
				}
			}
			return
		}
		// Blank lines at the end are the end of the file.
		lines := strings.Split(strings.TrimRightFunc(strings.TrimPrefix(s, "\ufeff"), unicode.IsSpace), "\n")
		if len(got) != 5 || len(lines) != 5 {
			t.Fatalf("%q: %d scores from %d lines", s, len(got), len(lines))
		}
		for i, v := range got {
			f := strings.Fields(lines[i])
			w, err := strconv.ParseFloat(f[len(f)-1], 64)
			if math.IsNaN(v) || math.IsInf(v, 0) || err != nil || w != v {
				t.Fatalf("%q: score %d is %g, its line %q", s, i, v, lines[i])
			}
		}
	})
}

// eval --scores of RankLib's -score output gives the figures of the same
// scores one per line.
func TestEvalRankLibScores(t *testing.T) {
	dir := t.TempDir()
	model, plain, ranklib := filepath.Join(dir, "m.json"), filepath.Join(dir, "s.txt"), filepath.Join(dir, "r.txt")
	const test = "builtin:mq2008/test"
	if code, _, errOut := runCLI(t, "train", "--train", "builtin:mq2008/train", "--trees", "5", "--out", model); code != 0 {
		t.Fatalf("train: %q", errOut)
	}
	if code, _, errOut := runCLI(t, "predict", "--model", model, "--data", test, "--out", plain); code != 0 {
		t.Fatalf("predict: %q", errOut)
	}
	d, err := data.LoadDataset(context.Background(), test, data.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i, s := range strings.Fields(readFile(t, plain)) {
		q := sort.SearchInts(d.QueryOffsets, i+1) - 1
		fmt.Fprintf(&b, "%d\t%d\t%s\n", d.QueryIDs[q], i-d.QueryOffsets[q], s)
	}
	os.WriteFile(ranklib, []byte(b.String()), 0o644)
	_, want, _ := runCLI(t, "eval", "--scores", plain, "--data", test, "--json")
	code, got, errOut := runCLI(t, "eval", "--scores", ranklib, "--data", test, "--json")
	if code != 0 || got != want {
		t.Errorf("RankLib scores: exit %d %q\n%s\nwant\n%s", code, errOut, got, want)
	}
}
