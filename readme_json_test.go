package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// readmeParagraph is README's paragraph (up to the next blank line) from
// the first place its text, with line breaks read as spaces, has anchor.
func readmeParagraph(t *testing.T, readme, anchor string) string {
	t.Helper()
	flat := regexp.MustCompile(`[ \n]+`)
	for _, p := range strings.Split(readme, "\n\n") {
		p = flat.ReplaceAllString(p, " ")
		if strings.Contains(p, anchor) {
			return p[strings.Index(p, anchor):]
		}
	}
	t.Fatalf("README has no paragraph with %q", anchor)
	return ""
}

// jsonKeys adds to keys every object key of v, at any depth, but not the
// keys of the objects named in opaque (metric names, labels, a model's
// training parameters, the parts of a cost), which README names as a kind,
// not one by one; their values' keys are still added (compare's per-metric
// figures).
func jsonKeys(v any, opaque map[string]bool, keys map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			keys[k] = true
			if m, ok := x.(map[string]any); ok && opaque[k] {
				for _, y := range m {
					jsonKeys(y, opaque, keys)
				}
				continue
			}
			jsonKeys(x, opaque, keys)
		}
	case []any:
		for _, x := range v {
			jsonKeys(x, opaque, keys)
		}
	}
}

// TestReadmeNamesJSONKeys: every key a command's --json report or a file it
// writes (model, cascade, trace) holds is named, in backquotes, in
// the documentation's paragraph about it (docs/commands.md,
// docs/formats.md, README.md, read in that order); import's and version's reports had none, and
// eval's compare did not say its figures are under metrics.
func TestReadmeNamesJSONKeys(t *testing.T) {
	// The reports are given in full in docs/commands.md and
	// docs/formats.md (README's detail moved there on 2026-12-04);
	// README keeps the version report.
	var readme string
	for _, f := range []string{"docs/commands.md", "docs/formats.md", "README.md"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		readme += string(b) + "\n\n"
	}
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	mq := []string{"--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali"}
	cascadeData := append([]string{"--model", p("m.json"), "--test", "builtin:mq2008/test", "--costs", "builtin:mq2008/costs"}, mq...)
	opaque := map[string]bool{"metrics": true, "labels": true, "cost": true}

	cases := []struct {
		name   string
		args   []string // the command; nil: only a file an earlier case wrote
		file   string   // a JSON (or JSON lines) file it writes, checked instead of its report
		anchor string
	}{
		{"train", append([]string{"train", "--objective", "regression", "--trees", "6", "--leaves", "4", "--max-depth", "2", "--out", p("m.json"), "--json"}, mq...), "",
			"`--json` prints `model`, `objective`"},
		{"model file", nil, p("m.json"), "**Models**:"},
		{"import", []string{"import", "--from", "lightgbm", "engine/tree/testdata/lgb-lambdarank.model.txt", "--out", p("i.json"), "--json"}, "",
			"`import` converts"},
		{"version", []string{"version", "--json"}, "", "`version` prints"},
		{"gen", []string{"gen", "--queries", "3", "--docs-per-query", "4", "--features", "5", "--out", p("g.txt"), "--json"}, "", "`gen --json` prints"},
		{"inspect", []string{"inspect", "builtin:mq2008/vali", "--costs", "builtin:mq2008/costs", "--json"}, "", "`inspect --json` prints"},
		{"predict", []string{"predict", "--model", p("m.json"), "--data", "builtin:mq2008/test", "--out", p("m.scores"),
			"--leaves", p("m.leaves"), "--contribs", p("m.contribs"), "--json"}, "",
			"`predict` writes one raw score per line"},
		{"predict scores", []string{"predict", "--model", p("m.json"), "--data", "builtin:mq2008/test", "--json"}, "",
			"`predict` writes one raw score per line"},
		{"cascade", append([]string{"cascade", "--lambda", "0.05", "--stages", "3", "--cycles", "1", "--refit", "--out", p("c.json"),
			"--trace", p("c.trace"), "--curve", p("c.csv"), "--plot", p("c.svg"), "--json"}, cascadeData...), "",
			"`cascade` turns an ensemble into"},
		{"cascade file", nil, p("c.json"), "**Cascades**:"},
		{"trace", nil, p("c.trace"), "`cascade --trace F` writes"},
		{"predict cascade", []string{"predict", "--cascade", p("c.json"), "--data", "builtin:mq2008/test", "--out", p("c.scores"), "--exits", p("c.exits"), "--json"}, "",
			"`predict` writes one raw score per line"},
		{"eval", []string{"eval", "--model", p("m.json"), "--data", "builtin:mq2008/test", "--costs", "builtin:mq2008/costs", "--compare", p("c.scores"),
			"--compare-rounds", "100", "--json"}, "", "`eval` prints the metrics"},
		{"eval cascade", []string{"eval", "--cascade", p("c.json"), "--data", "builtin:mq2008/test", "--json"}, "", "`eval` prints the metrics"},
		// export's reports, which no case read: --to xgboost's with
		// --trees k gave model_trees, and a whole cascade's --to c
		// report cascade, which README did not name.
		{"export xgboost", []string{"export", "--model", p("m.json"), "--trees", "3", "--to", "xgboost", "--out", p("x.json"), "--json"}, "",
			"`export --to xgboost` goes the other way"},
		{"export xgboost stage", []string{"export", "--cascade", p("c.json"), "--stage", "1", "--to", "xgboost", "--out", p("s1.json"), "--json"}, "",
			"`export --to xgboost` goes the other way"},
		{"export ranklib", []string{"export", "--model", p("m.json"), "--trees", "3", "--to", "ranklib", "--out", p("r.txt"), "--json"}, "",
			"`export --to ranklib` writes"},
		{"export ranklib stage", []string{"export", "--cascade", p("c.json"), "--stage", "1", "--to", "ranklib", "--out", p("s1.txt"), "--json"}, "",
			"`export --to ranklib` writes"},
		{"export c", []string{"export", "--model", p("m.json"), "--trees", "3", "--to", "c", "--out", p("m.c"), "--header", p("m.h"), "--json"}, "",
			"`--json` reports `out`, `to`, `functions`"},
		{"export c stage", []string{"export", "--cascade", p("c.json"), "--stage", "1", "--to", "c", "--out", p("s1.c"), "--json"}, "",
			"`--json` reports `out`, `to`, `functions`"},
		{"export c cascade", []string{"export", "--cascade", p("c.json"), "--to", "c", "--out", p("c.c"), "--header", p("c.h"), "--json"}, "",
			"`--json` reports `out`, `to`, `functions`"},
		{"sweep", append([]string{"sweep", "--lambdas", "0.05:0.2:2", "--stages", "3", "--cycles", "1", "--refit", "--reenter", "--refine", "1",
			"--out", p("s.csv"), "--plot", p("s.svg"), "--json"}, cascadeData...), "", "`sweep --json` prints"},
	}
	// Keys whose contents README gives by reference to another report or
	// file: cascade's paired_* are eval's compare, a cascade's ensemble a model.
	refs := map[string][]string{"cascade": {"paired_valid", "paired_test"}, "cascade file": {"ensemble"}}
	for _, c := range cases {
		var docs []string
		if c.args != nil {
			code, stdout, errOut := runCLI(t, c.args...)
			if code != 0 {
				t.Fatalf("%s: exit %d: %s", c.name, code, errOut)
			}
			docs = []string{stdout}
		}
		if c.file != "" {
			b, err := os.ReadFile(c.file)
			if err != nil {
				t.Fatal(err)
			}
			docs = strings.Split(strings.TrimSpace(string(b)), "\n") // JSON lines, or one indented document
			if strings.HasSuffix(c.file, ".json") {
				docs = []string{string(b)}
			}
		}
		op := opaque
		if c.name == "model file" || c.name == "cascade file" {
			// A model's params are its trainer's or importer's, named as a
			// kind; a cascade's ensemble is a model, checked above.
			op = map[string]bool{"params": c.name == "model file", "cost": true}
		}
		keys := map[string]bool{}
		for _, d := range docs {
			var v any
			if err := json.Unmarshal([]byte(d), &v); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if m, ok := v.(map[string]any); ok {
				for _, r := range refs[c.name] {
					if _, ok := m[r]; ok {
						delete(m, r)
						keys[r] = true
					}
				}
			}
			jsonKeys(v, op, keys)
		}
		para := readmeParagraph(t, readme, c.anchor)
		var missing []string
		for k := range keys {
			// `"format": "cronus-ensemble", "version": 1` names both.
			if !strings.Contains(para, "`"+k+"`") && !strings.Contains(para, "\""+k+"\":") {
				missing = append(missing, k)
			}
		}
		slices.Sort(missing)
		if len(missing) > 0 {
			t.Errorf("%s: README's paragraph from %q does not name %q", c.name, c.anchor, missing)
		}
	}
}
