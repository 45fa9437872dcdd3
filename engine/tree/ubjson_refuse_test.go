package tree

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// toUBJSON writes JSON text as UBJSON (draft 12, as XGBoost does: keys
// with int32 lengths, numbers as int64 or float64), keys in their order.
func toUBJSON(t *testing.T, text string) []byte {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var out bytes.Buffer
	str := func(s string) {
		out.WriteByte('l')
		binary.Write(&out, binary.BigEndian, int32(len(s)))
		out.WriteString(s)
	}
	var value func(tok json.Token)
	value = func(tok json.Token) {
		switch v := tok.(type) {
		case json.Delim:
			out.WriteByte(byte(v))
			inObject := v == '{'
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					t.Fatal(err)
				}
				if inObject {
					str(k.(string))
					if k, err = dec.Token(); err != nil {
						t.Fatal(err)
					}
				}
				value(k)
			}
			end, err := dec.Token()
			if err != nil {
				t.Fatal(err)
			}
			out.WriteByte(byte(end.(json.Delim)))
		case string:
			out.WriteByte('S')
			str(v)
		case json.Number:
			if i, err := v.Int64(); err == nil {
				out.WriteByte('L')
				binary.Write(&out, binary.BigEndian, i)
			} else {
				f, err := v.Float64()
				if err != nil {
					t.Fatal(err)
				}
				out.WriteByte('D')
				binary.Write(&out, binary.BigEndian, math.Float64bits(f))
			}
		case bool:
			out.WriteByte(map[bool]byte{true: 'T', false: 'F'}[v])
		case nil:
			out.WriteByte('Z')
		}
	}
	tok, err := dec.Token()
	if err != nil {
		t.Fatal(err)
	}
	value(tok)
	return out.Bytes()
}

// TestImportUBJSONRefusals checks a UBJSON model's errors: one in the
// model is named by its place in the document, with no line and column
// (those of the converted text are nowhere in the file); a UBJSON file cut
// short is said to be no UBJSON document.
func TestImportUBJSONRefusals(t *testing.T) {
	good := strings.NewReplacer("DL", "0").Replace(xgbTiny)
	b := toUBJSON(t, good)
	e, _, err := ImportXGBoost(bytes.NewReader(b), "m.ubj")
	if err != nil {
		t.Fatalf("the UBJSON of a good model: %v", err)
	}
	// The tiny model's tree: f0 < 0.5 goes to leaf 1, else leaf 2, base 0.5.
	if got := rawScore(e, []float32{0.25, 0}); got != 1.5 {
		t.Errorf("f0 0.25 scores %v, want 1.5", got)
	}
	if got := rawScore(e, []float32{0.75, 0}); got != 2.5 {
		t.Errorf("f0 0.75 scores %v, want 2.5", got)
	}
	for _, c := range []struct {
		what string
		src  []byte
		want string
	}{
		{"wrong type", toUBJSON(t, strings.Replace(good, `"split_conditions":[0.5,`, `"split_conditions":["a",`, 1)),
			`m.ubj: learner.gradient_booster.model.trees[0].split_conditions[0]: expected a number, got the string "a"`},
		{"vector leaves", toUBJSON(t, strings.Replace(good, `"num_nodes":"3","size_leaf_vector":"0"`, `"num_nodes":"3","size_leaf_vector":"2"`, 1)),
			"m.ubj: tree 0: vector leaves (size_leaf_vector 2) are not supported"},
		{"multiclass", toUBJSON(t, strings.Replace(good, `"num_class":"0"`, `"num_class":"4"`, 1)),
			"m.ubj: multiclass models are not supported (num_class=4)"},
		{"truncated", b[:len(b)/2], "m.ubj: not a UBJSON document: "},
	} {
		e, _, err := ImportXGBoost(bytes.NewReader(c.src), "m.ubj")
		if err == nil || e != nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q...", c.what, err, c.want)
		}
	}
}
