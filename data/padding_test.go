package data

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestPaddingWarning(t *testing.T) {
	text := []byte("1 qid:1 1:0.5 2:1\n0 qid:1 1:0.25\n")
	for _, c := range []struct {
		min  int
		want string
	}{
		{0, ""},
		{2, ""},
		{5, "d.txt has features up to 2, and 5 are expected; features 3-5 read as 0 for every document"},
		{3, "d.txt has features up to 2, and 3 are expected; feature 3 reads as 0 for every document"}, // said "features 3-3 read"
	} {
		d, err := ReadBytes(context.Background(), "d.txt", text, ReadOptions{MinFeatures: c.min})
		if err != nil {
			t.Fatal(err)
		}
		if got := d.PaddingWarning(); got != c.want {
			t.Errorf("MinFeatures %d: %q, want %q", c.min, got, c.want)
		}
	}
	// A data set not read from a file has nothing to warn about.
	if w := (&Dataset{Cols: make([][]float32, 3)}).PaddingWarning(); w != "" {
		t.Errorf("built in memory: %q", w)
	}
}

// TestFileFeaturesAndAbsent checks FileFeatures when a line's last index is
// not its largest, and the count of values the lines leave out (padding
// aside).
func TestFileFeaturesAndAbsent(t *testing.T) {
	text := []byte("1 qid:1 1:0.5 3:1 2:0.25\n0 qid:1 2:0.5\n0 qid:2 1:0 2:0\n")
	for _, min := range []int{0, 3, 5} {
		d, err := ReadBytes(context.Background(), "d.txt", text, ReadOptions{MinFeatures: min, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		if d.FileFeatures != 3 || d.Absent != 3 {
			t.Errorf("MinFeatures %d: FileFeatures %d, Absent %d; want 3 and 3", min, d.FileFeatures, d.Absent)
		}
		if w := d.PaddingWarning(); (w != "") != (min > 3) {
			t.Errorf("MinFeatures %d: warning %q", min, w)
		}
		// Each feature's: feature 1 left out by one line, 2 by none, 3 by
		// two, and the padding by all three; none past the columns.
		want := []int64{1, 0, 2, 3, 3, 0}[:max(min, 3)+1]
		want[len(want)-1] = 0
		for f, w := range want {
			if got := d.LeftOutOf(f); got != w {
				t.Errorf("MinFeatures %d: LeftOutOf(%d) %d, want %d", min, f, got, w)
			}
		}
	}
}

// TestAbsentMissing reads left-out features as NaN under AbsentMissing, and
// as 0 without it; values given, zeros included, are read as they are,
// whatever the chunking, the number of workers and the regrouping.
func TestAbsentMissing(t *testing.T) {
	text := []byte("1 qid:1 1:0.5 3:1 2:0.25\n0 qid:2 2:0.5\n2 qid:1 1:0 3:0 # back to query 1\n")
	nan := float32(math.NaN())
	// Documents in the regrouped order: lines 1, 3, 2; features 1-4 (4 is padding).
	want := [][]float32{{0.5, 0, nan}, {0.25, nan, 0.5}, {1, 0, nan}, {nan, nan, nan}}
	same := func(a, b float32) bool { return a == b || (a != a && b != b) }
	for _, chunk := range []int{0, 8, 24} {
		for _, workers := range []int{1, 3} {
			for _, missing := range []bool{false, true} {
				opt := ReadOptions{MinFeatures: 4, Workers: workers, Regroup: true, AbsentMissing: missing, chunkSize: chunk}
				d, err := ReadBytes(context.Background(), "d.txt", text, opt)
				if err != nil {
					t.Fatal(err)
				}
				for f, col := range want {
					for i, w := range col {
						if w != w && !missing {
							w = 0
						}
						if got := d.Cols[f][i]; !same(got, w) {
							t.Errorf("chunk %d, workers %d, missing %v: feature %d of document %d is %v, want %v",
								chunk, workers, missing, f+1, i, got, w)
						}
					}
				}
				if missing != strings.Contains(d.PaddingWarning(), "reads as missing") {
					t.Errorf("missing %v: warning %q", missing, d.PaddingWarning())
				}
			}
		}
	}
}

// TestUnusedWarning: a file with more features than its scorer expects
// says which of them are not used (XGBoost and LightGBM refuse such a file;
// Cronus reads it, and says so).
func TestUnusedWarning(t *testing.T) {
	text := []byte("1 qid:1 1:0.5 4:1\n0 qid:1 1:0.25\n")
	d, err := ReadBytes(context.Background(), "d.txt", text, ReadOptions{MinFeatures: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		expected int
		want     string
	}{
		{0, ""}, // nothing expected: no scorer
		{4, ""},
		{6, ""}, // padded, the other warning
		{2, "d.txt has features up to 4, and 2 are expected; features 3-4 are not used"},
		{3, "d.txt has features up to 4, and 3 are expected; feature 4 is not used"},
	} {
		if got := d.UnusedWarning(c.expected); got != c.want {
			t.Errorf("expected %d: %q, want %q", c.expected, got, c.want)
		}
	}
	if w := (&Dataset{Cols: make([][]float32, 3)}).UnusedWarning(1); w != "" {
		t.Errorf("built in memory: %q", w)
	}
}

// One line far wider than every other (a stray index) is named, whatever
// the chunks the file is read in; lines of like widths, or narrow files,
// are not.
func TestStrayWarning(t *testing.T) {
	lines := func(widths ...int) string {
		var b strings.Builder
		for i, w := range widths {
			// Unsorted, so that the last index is not the widest.
			fmt.Fprintf(&b, "%d qid:%d %d:1 1:0.5\n", i%2, i/3+1, w)
		}
		return b.String()
	}
	cases := []struct {
		in   string
		want string
	}{
		{lines(3, 5, 5000, 2, 4), "in.txt:3: feature index 5000, where no other line goes past 5: 4995 columns of features are held for this line alone (data is dense), which slows reading, training and scoring; is the index a mistake?"},
		{lines(5000, 3, 5, 2), "in.txt:1: feature index 5000, where no other line goes past 5: 4995 columns of features are held for this line alone (data is dense), which slows reading, training and scoring; is the index a mistake?"},
		{lines(3, 5000, 5, 5000), ""}, // two lines that wide
		{lines(3, 900, 5), ""},        // narrow
		{lines(300, 1200, 5), ""},     // not 4 times the next
		{lines(3000), ""},             // one document
	}
	for _, c := range cases {
		for _, chunk := range []int{0, 9, 40} {
			d, err := ReadBytes(context.Background(), "in.txt", []byte(c.in), ReadOptions{chunkSize: chunk, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			d.Name = "in.txt"
			if got := d.StrayWarning(); got != c.want {
				t.Errorf("%q in chunks of %d: %q, want %q", c.in, chunk, got, c.want)
			}
		}
	}
}

// A file scored beside training data with qids is warned of when it has
// none (all its documents one query), not when it has them, when the
// training data has none either, or when it holds one document.
func TestQIDWarning(t *testing.T) {
	read := func(name, text string) *Dataset {
		d, err := ReadBytes(context.Background(), name, []byte(text), ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		d.Name = name
		return d
	}
	withQID := read("q.txt", "1 qid:1 1:0.5\n0 qid:2 1:0.25\n")
	noQID := read("n.txt", "1 1:0.5\n0 1:0.25\n2 1:0.75\n")
	one := read("one.txt", "1 1:0.5\n")
	for _, c := range []struct {
		d, train *Dataset
		want     string
	}{
		{noQID, withQID, "n.txt has no qid, where q.txt has: its metrics rank all its 3 documents as one query"},
		{withQID, withQID, ""},
		{noQID, noQID, ""},
		{withQID, noQID, ""},
		{one, withQID, ""},
	} {
		if got := c.d.QIDWarning(c.train); got != c.want {
			t.Errorf("%s beside %s: %q, want %q", c.d.Name, c.train.Name, got, c.want)
		}
	}
}
