package main

import (
	"fmt"
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
