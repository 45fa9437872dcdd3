package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// import --from xgboost reads XGBoost's UBJSON (testdata: XGBoost 1.7.4's
// UBJSON of the binary:logistic fixture) into the model file that its JSON
// gives, but for the file name the provenance records.
func TestImportUBJSONCommand(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	for _, ext := range []string{"json", "ubj"} {
		if code, _, errOut := runCLI(t, "import", "--from", "xgboost", "engine/tree/testdata/xgb-binary-logistic."+ext, "--out", p(ext+".json")); code != 0 {
			t.Fatal(errOut)
		}
	}
	a, err := os.ReadFile(p("json.json"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p("ubj.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Replace(string(b), "xgb-binary-logistic.ubj", "xgb-binary-logistic.json", 1) != string(a) {
		t.Error("the UBJSON model imports to another model file than its JSON")
	}
}

// A LightGBM model trained with a custom objective has no objective line:
// import, inspect and train --init-model said "(, 46 features)",
// "(objective )" and `trained for ""`.
func TestImportNoObjective(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile("engine/tree/testdata/lgb-lambdarank.model.txt")
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "custom.txt")
	if err := os.WriteFile(src, []byte(strings.Replace(string(b), "objective=lambdarank\n", "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	m := filepath.Join(dir, "m.json")
	code, out, errOut := runCLI(t, "import", "--from", "lightgbm", src, "--out", m)
	if code != 0 || !strings.Contains(out, "(no objective recorded (a custom one?), 46 features)") {
		t.Errorf("import: exit %d, %q %s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, "inspect", m)
	if code != 0 || !strings.Contains(out, "from lightgbm (no objective recorded (a custom one?)), 46 features") {
		t.Errorf("inspect: exit %d, %q %s", code, out, errOut)
	}
	code, _, errOut = runCLI(t, "train", "--train", "builtin:mq2008/vali", "--objective", "regression", "--trees", "1", "--init-model", m, "--out", filepath.Join(dir, "r.json"))
	if code == 0 || !strings.Contains(errOut, "a regression model cannot go on from one that records no objective (a custom one?)") {
		t.Errorf("train --init-model: exit %d, %s", code, errOut)
	}
}
