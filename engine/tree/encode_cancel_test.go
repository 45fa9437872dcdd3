package tree

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cronus-ltr/cronus/internal/cancelctx"
)

// manyTrees is tinyEnsemble's trees repeated to n.
func manyTrees(n int) *Ensemble {
	e := tinyEnsemble()
	tiny := e.Trees
	e.Trees = nil
	for len(e.Trees) < n {
		e.Trees = append(e.Trees, tiny[len(e.Trees)%len(tiny)])
	}
	return e
}

// Encoding a model file, an XGBoost model or C source of 2,000 trees 9
// deep took one to two seconds, which an interrupt waited for. The
// encoders look at the context between trees: cancelled at any point,
// they return its error alone (not "m.json: context canceled", which a
// command would print as a failure) and no bytes; once the context is
// looked at more often than the encoding needs, they give the bytes they
// give without one.
func TestEncodersCancelledMidway(t *testing.T) {
	const trees = 40
	e := manyTrees(trees)
	m := NewModel(e, "cronus", nil)
	encoders := map[string]func(ctx context.Context) ([]byte, error){
		"model": func(ctx context.Context) ([]byte, error) { return EncodeModelContext(ctx, m, "") },
		"model output": func(ctx context.Context) ([]byte, error) {
			o, err := ModelOutputContext(ctx, "m.json", m)
			if err != nil {
				return nil, err
			}
			return []byte(o.Path), nil
		},
		"xgboost": func(ctx context.Context) ([]byte, error) { return ExportXGBoostContext(ctx, e, ExportOptions{}) },
		"c":       func(ctx context.Context) ([]byte, error) { return ExportCContext(ctx, e, CExportOptions{}) },
	}
	wants := map[string][]byte{"model output": []byte("m.json")}
	var err error
	if wants["model"], err = EncodeModel(m, ""); err != nil {
		t.Fatal(err)
	}
	if wants["xgboost"], err = ExportXGBoost(e, ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	if wants["c"], err = ExportC(e, CExportOptions{}); err != nil {
		t.Fatal(err)
	}
	for name, enc := range encoders {
		for n := 0; ; n++ {
			ctx := cancelctx.New(n)
			b, err := enc(ctx)
			if ctx.Looked <= n { // not cancelled: the whole output
				if err != nil || string(b) != string(wants[name]) {
					t.Errorf("%s: %v, or not the bytes without a context", name, err)
				}
				if n < trees {
					t.Errorf("%s: looked at the context %d times, want once a tree (%d) at least", name, ctx.Looked, trees)
				}
				break
			}
			if err != context.Canceled || b != nil {
				t.Errorf("%s cancelled at its check %d: %d bytes, error %v; want none and context.Canceled itself", name, n, len(b), err)
				break
			}
		}
	}
	// A bad model is still a bad model, named by its file.
	bad := NewModel(manyTrees(2), "cronus", nil)
	bad.Format = ""
	if _, err := ModelOutputContext(context.Background(), "m.json", bad); err == nil || errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "m.json: ") {
		t.Errorf("a model of no format: %v", err)
	}
}
