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
