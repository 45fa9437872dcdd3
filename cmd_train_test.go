package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// train --log-every N prints a line every N trees and at the last, on
// standard error, whatever it is: the training and validation metric at
// that tree. The validation figure at tree t is the one eval gives for the
// model's first t trees.
func TestTrainLogEvery(t *testing.T) {
	model := filepath.Join(t.TempDir(), "m.json")
	const valid = "builtin:mq2008/vali"
	code, _, errOut := runCLI(t, "train", "--train", "builtin:mq2008/train", "--valid", valid, "--trees", "25",
		"--log-every", "10", "--out", model)
	if code != 0 {
		t.Fatalf("train: exit %d %q", code, errOut)
	}
	line := regexp.MustCompile(`^\[(\d+)/25\] train ndcg@10 (\d\.\d{4})  valid ndcg@10 (\d\.\d{4})  \(best (\d\.\d{4}) at (\d+)\)$`)
	lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
	var trees []string
	for _, l := range lines {
		m := line.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("log line %q does not read as [t/25] train ndcg@10 x  valid ndcg@10 y  (best z at b)", l)
		}
		trees = append(trees, m[1])
		_, out, _ := runCLI(t, "eval", "--model", model, "--trees", m[1], "--data", valid, "--metrics", "ndcg@10", "--json")
		var r struct{ Metrics map[string]float64 }
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%.4f", r.Metrics["ndcg@10"]); got != m[3] {
			t.Errorf("tree %s: logged valid %s, eval --trees %s gives %s", m[1], m[3], m[1], got)
		}
	}
	if strings.Join(trees, ",") != "10,20,25" {
		t.Errorf("logged at trees %v, want 10, 20 and 25", trees)
	}
	// Off by default; a negative value is refused.
	if _, _, errOut := runCLI(t, "train", "--train", "builtin:mq2008/train", "--trees", "3", "--out", model); errOut != "" {
		t.Errorf("without --log-every: %q", errOut)
	}
	if code, _, errOut := runCLI(t, "train", "--train", "builtin:mq2008/train", "--log-every", "-1", "--out", model); code != 2 || !strings.Contains(errOut, "--log-every: must be at least 0") {
		t.Errorf("--log-every -1: exit %d %q", code, errOut)
	}
}
