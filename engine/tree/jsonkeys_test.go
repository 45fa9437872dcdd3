package tree

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// Keys of no field load as before (encoding/json lets them be), at the top
// and in a tree; so do keys of params that differ only in case (a map's
// keys are its own).
func TestCheckKeysUnknownKeysKept(t *testing.T) {
	src := strings.Replace(tinyModelJSON, `"source": "cronus",`, `"source": "cronus", "comment": {"by": "hand", "By": 1},`, 1)
	src = strings.Replace(src, `"leaf_value":[0.25]`, `"leaf_value":[0.25],"note":"x"`, 1)
	src = strings.Replace(src, `"seed": 7,`, `"seed": 7, "Seed": 8,`, 1)
	m, err := ParseModel("m.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if m.BaseScore != 0.5 || len(m.Trees) != 2 {
		t.Errorf("read %+v", m)
	}
}

// refDuplicate finds, with encoding/json's tokenizer, whether some object
// of the JSON document data has a key twice.
func refDuplicate(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		object, wantKey bool
		keys            map[string]bool
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				if n := len(stack); n > 0 && stack[n-1].object {
					stack[n-1].wantKey = true
				}
				stack = append(stack, &frame{object: d == '{', wantKey: d == '{', keys: map[string]bool{}})
			default:
				stack = stack[:len(stack)-1]
			}
			continue
		}
		if n := len(stack); n > 0 && stack[n-1].object {
			f := stack[n-1]
			if f.wantKey {
				k := tok.(string)
				if f.keys[k] {
					return true
				}
				f.keys[k] = true
			}
			f.wantKey = !f.wantKey
		}
	}
}

// CheckKeys finds a repeated key where the tokenizer does, in any valid
// JSON (decoded into an interface: no fields to match case against), and
// neither panics nor loops on any bytes at all.
func FuzzCheckKeys(f *testing.F) {
	f.Add([]byte(tinyModelJSON))
	f.Add([]byte(`{"a":1,"b":{"a":[{"x":1,"x":2}]}}`))
	f.Add([]byte(`{"a\"b":1,"a\u0022b":2}`))
	f.Add([]byte(`[{"k":"}","k2":"{\\"},{"k":1}]`))
	f.Add([]byte(`{"a":{},"a":[]}`))
	f.Add([]byte(`}]{"`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var v any
		err := CheckKeys(data, &v)
		if json.Unmarshal(data, &v) != nil {
			return // only valid JSON is checked
		}
		var pe *posError
		if err != nil && !errors.As(err, &pe) {
			t.Fatalf("error without a position: %v", err)
		}
		if got, want := err != nil, refDuplicate(data); got != want {
			t.Fatalf("CheckKeys: %v, the tokenizer finds a key twice: %v", err, want)
		}
		if err := CheckKeys(data, (*Model)(nil)); err != nil && !errors.As(err, &pe) {
			t.Fatalf("as a model: error without a position: %v", err)
		}
	})
}
