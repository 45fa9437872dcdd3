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
