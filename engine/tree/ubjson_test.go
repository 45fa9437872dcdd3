package tree

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestImportUBJSON: a model XGBoost 1.7.4 saved as UBJSON
// (testdata/make_xgb_ubj_fixtures.py) imports to the same ensemble, bit
// for bit, as the JSON it was loaded from, with the same provenance; the
// JSON imports are checked against XGBoost's predictions elsewhere
// (TestImportFixtures). A categorical split is refused in either form.
func TestImportUBJSON(t *testing.T) {
	for _, c := range []struct {
		name   string
		libsvm bool
	}{{"xgb-binary-logistic", false}, {"xgb-dart", false}, {"xgb-poisson", false}, {"xgb-libsvm", true}} {
		opt := ImportOptions{LibSVMIndices: c.libsvm}
		read := func(ext string) (*Ensemble, map[string]any) {
			f, err := os.Open("testdata/" + c.name + ext)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			e, prov, err := ImportXGBoostWith(f, c.name+ext, opt)
			if err != nil {
				t.Fatalf("%s%s: %v", c.name, ext, err)
			}
			delete(prov, "file")
			return e, prov
		}
		je, jp := read(".json")
		ue, up := read(".ubj")
		if !reflect.DeepEqual(je, ue) {
			t.Errorf("%s: the UBJSON model imports differently from the JSON", c.name)
		}
		if !reflect.DeepEqual(jp, up) {
			t.Errorf("%s: provenance %v from UBJSON, %v from JSON", c.name, up, jp)
		}
	}
	b, err := os.ReadFile("testdata/xgb-categorical.ubj")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := ImportXGBoost(bytes.NewReader(b), "c.ubj"); err == nil || !strings.Contains(err.Error(), "c.ubj: tree 0: node 0: categorical splits (on f0) are not supported") {
		t.Errorf("categorical UBJSON: %v", err)
	}
}

// TestUBJSONToJSON: hand-made UBJSON, each form the draft-12 grammar has
// (counted, typed and open containers, no-ops, every scalar type), against
// the JSON text it stands for; and malformed input refused at its byte.
func TestUBJSONToJSON(t *testing.T) {
	for _, c := range []struct {
		in, want string
	}{
		{"{}", "{}"},
		{"{U\x01aU\x05}", `{"a":5}`},
		{"{i\x01aSi\x02hi}", `{"a":"hi"}`},
		{"{U\x01a[i\x01I\x01\x00l\xff\xff\xff\xfeL\x00\x00\x00\x00\x00\x00\x00\x07]}", `{"a":[1,256,-2,7]}`},
		{"{U\x01a[$d#U\x02\x3f\x80\x00\x00\xc0\x20\x00\x00}", `{"a":[1,-2.5]}`},
		{"{U\x01a[$U#i\x03\x00\x01\xff}", `{"a":[0,1,255]}`},
		{"{U\x01a[#U\x02Zi\x03]", ""}, // an array with a count has no ']': the '}' is then missing
		{"{U\x01a[#U\x02ZTU\x01bF}", `{"a":[null,true],"b":false}`},
		{"{#U\x02U\x01aCxU\x01bD\x3f\xb9\x99\x99\x99\x99\x99\x9a", `{"a":"x","b":0.1}`},
		{"{$S#U\x01U\x01aU\x02ok", `{"a":"ok"}`},
		{"{U\x01aNNHU\x05-1e-3}", `{"a":-1e-3}`},
		{"{U\x01a[d\x7f\xc0\x00\x00d\x7f\x80\x00\x00d\xff\x80\x00\x00]}", `{"a":[NaN,Infinity,-Infinity]}`},
		{"{U\x01a[[][{}]]}", `{"a":[[],[{}]]}`},
		{"{U\x02\"\\SU\x02\n\xff}", "{\"\\\"\\\\\":\"\\n\uFFFD\"}"},
		// each byte that is not UTF-8 is one U+FFFD; a U+FFFD is kept
		{"{U\x01aSU\x06\xff\xfe\xef\xbf\xbdx}", "{\"a\":\"\uFFFD\uFFFD\uFFFDx\"}"},
	} {
		got, err := ubjsonToJSON([]byte(c.in))
		if c.want == "" {
			if err == nil {
				t.Errorf("%q: %s, want an error", c.in, got)
			}
			continue
		}
		if err != nil || string(got) != c.want {
			t.Errorf("%q: %s, %v; want %s", c.in, got, err, c.want)
		}
	}
	deep := strings.Repeat("[", maxUBJSONDepth+1)
	for _, c := range []struct{ in, want string }{
		{"{U\x01a", "byte 4: unexpected end of file (truncated?)"},
		{"{U\x05a", "byte 1: length 5 is negative or past the end of the file"},
		{"{U\x01aX}", "byte 4: unknown type marker 'X'"},
		{"{U\x01a\x00}", "byte 4: unknown type marker 0x00"},
		{"{i\xffa}", "byte 1: length -1 is negative or past the end of the file"},
		{"{U\x01a[#L\x7f\xff\xff\xff\xff\xff\xff\xffZ]}", "byte 6: length 9223372036854775807 is negative or past the end of the file"},
		{"{U\x01a[$X#U\x01}", "byte 6: unknown element type 'X'"},
		{"{U\x01a[$iU\x01}", "byte 7: a typed container ('$') needs a count ('#')"},
		{"{U\x01aSd}", "byte 5: expected an integer type (i, U, I, l or L), got 'd'"},
		{"{U\x01aHU\x03abc}", `byte 4: high-precision number "abc" is not a number`},
		{"{}}", "byte 2: data after the end of the document"},
		{"{U\x01a" + deep, "containers nested more than 200 deep"},
		// Cut off where a marker was due: the end, not a 0x00 that is
		// not in the file.
		{"{U\x01aS", "byte 5: unexpected end of file (truncated?)"},
		{"{U\x01a[$", "byte 6: unexpected end of file (truncated?)"},
		{"{U\x01a[$d", "byte 7: unexpected end of file (truncated?)"},
		{"{U\x01a[$d#", "byte 8: unexpected end of file (truncated?)"},
		{"{U\x01a[#", "byte 6: unexpected end of file (truncated?)"},
		{"{U\x01aZ", "byte 5: unexpected end of file (truncated?)"},
	} {
		_, err := ubjsonToJSON([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
	}
}

// TestUBJSONToJSONBareElements: typed containers of nulls or booleans take
// no bytes per element, so nested counts of them could make text many
// times the file's size (a 1 MB file, 200 counts of a million nulls, ran
// out of memory); as many such elements as the file has bytes are
// converted, more are refused.
func TestUBJSONToJSONBareElements(t *testing.T) {
	inner := "$Z#I\x03\xe8" // 1,000 nulls in 6 bytes
	pad := "U\x01bS" + "I\x07\xd0" + strings.Repeat("x", 2000)
	for _, c := range []struct {
		n     int // inner containers
		nulls int // want this many nulls, or an error when 0
	}{{1, 1000}, {2, 2000}, {100, 0}} {
		in := "{U\x01a[$[#U" + string(rune(c.n)) + strings.Repeat(inner, c.n) + pad + "}"
		out, err := ubjsonToJSON([]byte(in))
		if c.nulls == 0 {
			want := fmt.Sprintf("1000 elements of type 'Z', which take no bytes, are more than the file's %d bytes allow", len(in))
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%d × 1,000 nulls in %d bytes: %d bytes of text, error %v; want %q", c.n, len(in), len(out), err, want)
			}
			continue
		}
		if err != nil || strings.Count(string(out), "null") != c.nulls {
			t.Errorf("%d × 1,000 nulls: %d nulls, error %v; want %d", c.n, strings.Count(string(out), "null"), err, c.nulls)
		}
	}
}

// FuzzUBJSONToJSON: whatever the bytes, the conversion either refuses them
// or writes JSON text that encoding/json reads once XGBoost's bare NaN and
// Infinity are quoted, as the importer quotes them.
func FuzzUBJSONToJSON(f *testing.F) {
	for _, name := range []string{"xgb-libsvm.ubj", "xgb-categorical.ubj"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("{#U\x02U\x01aCxU\x01bD\x3f\xb9\x99\x99\x99\x99\x99\x9a"))
	f.Add([]byte("{U\x01a[$d#U\x02\x7f\xc0\x00\x00\xc0\x20\x00\x00}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := ubjsonToJSON(data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "byte ") {
				t.Fatalf("error does not name a byte: %v", err)
			}
			return
		}
		// At most 9 bytes of text per byte (a typed array of 'C' 0x00:
		// "\u0000",) and 6 per element without bytes ("false,").
		if len(out) > 15*len(data)+2 {
			t.Fatalf("%d bytes of text from %d bytes", len(out), len(data))
		}
		quoted, _ := quoteNonFinite(out)
		if !json.Valid(quoted) {
			t.Fatalf("not JSON: %q", out)
		}
	})
}

// BenchmarkUBJSONToJSON converts XGBoost 1.7.4's UBJSON of the DART
// fixture (20 trees, typed arrays of integers and floats).
func BenchmarkUBJSONToJSON(b *testing.B) {
	data, err := os.ReadFile("testdata/xgb-dart.ubj")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ubjsonToJSON(data); err != nil {
			b.Fatal(err)
		}
	}
}
