package main

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestBenchCascadeLastPrefixes: bench/cascade.sh passes LAST_PREFIXES on
// to the sweep as --last-prefixes, so that each Cronus cascade of the
// curve has a last-stage prefix row for exactly those n on each split, and
// refuses LAST_PREFIXES without VARIANTS before it trains anything. The
// run is MQ2008 Fold1 with a 10-tree base ensemble.
func TestBenchCascadeLastPrefixes(t *testing.T) {
	if testing.Short() {
		t.Skip("trains three base ensembles and sweeps twice")
	}
	bash := benchSweepBash(t)
	bench := filepath.Join(t.TempDir(), "bench")
	out, err := runBenchScript(bash, "cascade.sh", []string{"BENCH_DIR=" + bench, "VARIANTS=", "LAST_PREFIXES=3,7"}, "mq2008", "10")
	if code := exitCode(err); code != 2 || !strings.Contains(out, "bench/cascade.sh: LAST_PREFIXES sets the prefix lengths of VARIANTS' last-prefix and cut-prefix: set VARIANTS too") {
		t.Errorf("LAST_PREFIXES without VARIANTS: exit %d, want 2 and the reason:\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(bench, "cascade-mq2008")); err == nil {
		t.Errorf("LAST_PREFIXES without VARIANTS: the run's directory was made before the refusal")
	}

	out, err = runBenchScript(bash, "cascade.sh", []string{"BENCH_DIR=" + bench, "VARIANTS=last-prefix", "LAST_PREFIXES=3,7", "UNCAPPED=none"}, "mq2008", "10")
	if err != nil {
		t.Fatalf("bench/cascade.sh: %v\n%s", err, out)
	}
	rows := readCSVFile(t, filepath.Join(bench, "cascade-mq2008", "curve.csv"))
	// per split and cascade λ: the n of its last-prefix rows
	prefixes := map[string][]string{}
	cascades := 0
	for _, r := range rows[1:] {
		if r[0] != "cronus" {
			continue
		}
		lam, variant, ok := strings.Cut(r[2], "#")
		if !ok {
			cascades++
			continue
		}
		if !strings.HasPrefix(variant, "p") {
			t.Errorf("a variant VARIANTS=last-prefix does not ask for: %v", r)
			continue
		}
		prefixes[r[1]+" "+lam] = append(prefixes[r[1]+" "+lam], variant[1:])
	}
	if cascades < 4 {
		t.Fatalf("%d cascade rows in the curve, want at least 4 (the grid has 8 λ, on valid and test):\n%v", cascades, rows)
	}
	// (a cascade whose stages before the last keep no tree has none)
	for k, ns := range prefixes {
		sort.Strings(ns)
		if strings.Join(ns, ",") != "3,7" {
			t.Errorf("%s: last-stage prefixes %v, want 3 and 7 (LAST_PREFIXES)", k, ns)
		}
	}
	if len(prefixes) == 0 {
		t.Errorf("no cascade of the curve has last-stage prefixes:\n%v", rows)
	}
}
