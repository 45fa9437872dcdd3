package data

import (
	"context"
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
	}
}
