package cronus

import (
	"bufio"
	"bytes"
	"context"
	"testing"

	"github.com/cronus-ltr/cronus/engine/tree"
	"github.com/cronus-ltr/cronus/internal/cancelctx"
)

// A cascade file embeds its model's trees, and its C source has a
// function per tree and per stage: over a big model either took seconds
// to encode, which an interrupt waited for. Cancelled at any point of the
// encoding, FileOutputContext and ExportCContext return the context's
// error alone (not "c.json: context canceled"); once the context is
// looked at more often than the encoding needs, they give the bytes they
// always gave.
func TestEncodersCancelledMidway(t *testing.T) {
	f := fileHandFile()
	e, c, err := f.Cascade()
	if err != nil {
		t.Fatal(err)
	}
	feat, trees := f.FeatureCost, f.TreeCost
	out, err := FileOutput("c.json", f)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	w := bufio.NewWriter(&want)
	if err := out.Write(w); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	wantC, err := ExportC(e, c, feat, trees, tree.CExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	encoders := map[string]func(ctx context.Context) ([]byte, error){
		"cascade file": func(ctx context.Context) ([]byte, error) {
			o, err := FileOutputContext(ctx, "c.json", f)
			if err != nil {
				return nil, err
			}
			var b bytes.Buffer
			w := bufio.NewWriter(&b)
			o.Write(w)
			w.Flush()
			return b.Bytes(), nil
		},
		"c": func(ctx context.Context) ([]byte, error) {
			return ExportCContext(ctx, e, c, feat, trees, tree.CExportOptions{})
		},
	}
	wants := map[string][]byte{"cascade file": want.Bytes(), "c": wantC}
	for name, enc := range encoders {
		for n := 0; ; n++ {
			ctx := cancelctx.New(n)
			b, err := enc(ctx)
			if ctx.Looked <= n { // not cancelled: the whole file
				if err != nil || !bytes.Equal(b, wants[name]) {
					t.Errorf("%s: %v, or not the bytes without a context", name, err)
				}
				if n < 3 {
					t.Errorf("%s: looked at the context %d times, want one a tree (3) at least", name, ctx.Looked)
				}
				break
			}
			if err != context.Canceled || b != nil {
				t.Errorf("%s cancelled at its check %d: %d bytes, error %v; want none and context.Canceled itself", name, n, len(b), err)
			}
		}
	}
}
