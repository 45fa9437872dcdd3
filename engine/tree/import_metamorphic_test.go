package tree

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// Metamorphic tests of the importers: the same model written in another
// form that its library reads alike must import to the same ensemble, bit
// for bit, and the same provenance (but for the file's name).

// importAs imports src with the importer of from ("lightgbm", "xgboost",
// "ranklib"), failing the test on an error; the provenance's "file" is
// dropped.
func importAs(t *testing.T, from, name string, src []byte, opt ImportOptions) (*Ensemble, map[string]any) {
	t.Helper()
	var (
		e    *Ensemble
		prov map[string]any
		err  error
	)
	switch from {
	case "lightgbm":
		e, prov, err = ImportLightGBMWith(bytes.NewReader(src), name, opt)
	case "xgboost":
		e, prov, err = ImportXGBoostWith(bytes.NewReader(src), name, opt)
	case "ranklib":
		e, prov, err = ImportRankLib(bytes.NewReader(src), name)
	}
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	delete(prov, "file")
	return e, prov
}

// sameImport fails the test unless the two imports are the same.
func sameImport(t *testing.T, what string, e1, e2 *Ensemble, p1, p2 map[string]any) {
	t.Helper()
	if !reflect.DeepEqual(e1, e2) {
		t.Errorf("%s: the ensembles differ", what)
	}
	if !reflect.DeepEqual(p1, p2) {
		t.Errorf("%s: provenance %v, want %v", what, p2, p1)
	}
}

// TestMetamorphicXGBoostForms: XGBoost reads a model the same from its
// JSON as saved, from the same JSON pretty-printed with CRLF line endings
// and its keys in another order (JSON's whitespace and key order carry
// nothing, and the numbers are kept as their text), and from the UBJSON it
// saves of the same booster (testdata/make_xgb_ubj_fixtures.py). So the
// three import to the same ensemble and provenance. The models cover
// ranking and regression, depthwise and lossguide trees, and learned
// default directions.
func TestMetamorphicXGBoostForms(t *testing.T) {
	for _, name := range []string{"xgb-rank-ndcg", "xgb-reg-lossguide", "xgb-missing", "xgb-binary-logistic", "xgb-dart", "xgb-poisson"} {
		js, err := os.ReadFile("testdata/" + name + ".json")
		if err != nil {
			t.Fatal(err)
		}
		ub, err := os.ReadFile("testdata/" + name + ".ubj")
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(js))
		dec.UseNumber()
		var doc any
		if err := dec.Decode(&doc); err != nil {
			t.Fatal(err)
		}
		pretty, err := json.MarshalIndent(doc, "", "\t") // map keys sorted: not XGBoost's order
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Equal(pretty, js) || !bytes.Contains(pretty, []byte("\n\t")) {
			t.Fatalf("%s: the re-encoding left the text as it was", name)
		}
		pretty = bytes.ReplaceAll(pretty, []byte("\n"), []byte("\r\n"))
		e, p := importAs(t, "xgboost", name+".json", js, ImportOptions{})
		if len(e.Trees) == 0 {
			t.Fatalf("%s: no trees", name)
		}
		e2, p2 := importAs(t, "xgboost", name+".json", pretty, ImportOptions{})
		sameImport(t, name+", pretty-printed", e, e2, p, p2)
		e3, p3 := importAs(t, "xgboost", name+".ubj", ub, ImportOptions{})
		sameImport(t, name+", UBJSON", e, e3, p, p3)
	}
}

// TestMetamorphicLightGBMText: LightGBM reads its text model line by line,
// and Python's and R's readers take CRLF files (written on Windows, or
// checked out with git's autocrlf) alike; the trees end at "end of trees",
// and what follows, the feature importances and the parameters, does not
// score. So the same model with CRLF endings imports the same; without
// its feature_importances section, too; without the parameters section,
// or with nothing after "end of trees", the same ensemble, its provenance
// lacking exactly the training parameters it took from that section.
func TestMetamorphicLightGBMText(t *testing.T) {
	for _, name := range []string{"lgb-lambdarank.model.txt", "lgb-regression-dart.model.txt"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		end := strings.Index(text, "\nend of trees\n") + len("\nend of trees\n")
		imp := strings.Index(text, "\nfeature_importances:\n")
		par := strings.Index(text, "\nparameters:\n")
		if end < len("\nend of trees\n") || imp < end-1 || par < imp {
			t.Fatalf("%s: sections at %d, %d, %d", name, end, imp, par)
		}
		e, p := importAs(t, "lightgbm", name, b, ImportOptions{})
		withoutParams := map[string]any{}
		for k, v := range p {
			withoutParams[k] = v
		}
		for _, k := range lgbParams {
			delete(withoutParams, k)
		}
		if len(withoutParams) == len(p) {
			t.Fatalf("%s: no training parameters in the provenance %v", name, p)
		}
		for _, c := range []struct {
			what string
			text string
			prov map[string]any
		}{
			{"CRLF", strings.ReplaceAll(text, "\n", "\r\n"), p},
			{"no feature importances", text[:imp+1] + text[par+1:], p},
			{"no parameters", text[:par+1], withoutParams},
			{"nothing after the trees", text[:end], withoutParams},
			{"nothing after the trees, no final newline", text[:end-1], withoutParams},
			{"CRLF, nothing after the trees", strings.ReplaceAll(text[:end], "\n", "\r\n"), withoutParams},
		} {
			e2, p2 := importAs(t, "lightgbm", name, []byte(c.text), ImportOptions{})
			sameImport(t, name+", "+c.what, e, e2, c.prov, p2)
		}
	}
}

// TestMetamorphicRankLibText: RankLib's model is XML (after its "##"
// header lines), in which the blanks between tags and around a tag's
// text, and the line endings, carry nothing (RankLib trims the text of
// <feature>, <threshold> and <output>). So the same model re-indented
// (tabs to spaces), with CRLF endings, or with every line's blanks
// doubled, imports to the same ensemble and provenance.
func TestMetamorphicRankLibText(t *testing.T) {
	for _, name := range []string{"ranklib-mart.txt", "ranklib-lambdamart.txt", "ranklib-rf.txt"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		e, p := importAs(t, "ranklib", name, b, ImportOptions{})
		if len(e.Trees) == 0 {
			t.Fatalf("%s: no trees", name)
		}
		for _, c := range []struct{ what, text string }{
			{"spaces for tabs", strings.ReplaceAll(text, "\t", "    ")},
			{"CRLF", strings.ReplaceAll(text, "\n", "\r\n")},
			{"blanks doubled", strings.NewReplacer("> ", ">  ", " <", "  <", "\t", "\t\t").Replace(text)},
			{"no indentation", strings.ReplaceAll(text, "\t", "")},
		} {
			if c.text == text {
				t.Fatalf("%s, %s: the text is unchanged", name, c.what)
			}
			e2, p2 := importAs(t, "ranklib", name, []byte(c.text), ImportOptions{})
			sameImport(t, name+", "+c.what, e, e2, p, p2)
		}
	}
}
