package tree

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"
)

// posError is an error at a line and column of a JSON file; its message
// starts with "LINE:COL: " so that a caller can prefix the file name.
type posError struct {
	line, col int
	msg       string
}

func (e *posError) Error() string { return fmt.Sprintf("%d:%d: %s", e.line, e.col, e.msg) }

// valueError is an error of an UnmarshalJSON method about the value raw of
// the field key. encoding/json does not say where that value was, so
// jsonError looks for it.
type valueError struct {
	key  string // the object key the value is under, as in the file
	raw  []byte
	want string // what the value should have been, as "0 or 1"
	msg  string // when set, what is wrong instead of "expected want, got raw"
}

func (e *valueError) Error() string {
	if e.msg != "" {
		return e.key + ": " + e.msg
	}
	return fmt.Sprintf("%s: expected %s, got %s", e.key, e.want, short(string(e.raw)))
}

// jsonError turns a syntax or type error of encoding/json (or a valueError)
// into a posError at the offending byte of data; other errors are returned
// unchanged. A type error names the value by its path in the document and
// says what was expected in terms of JSON, not of Go:
//
//	1:8209: learner.gradient_booster.model.trees[3].split_conditions: expected an array of numbers, got the string "abc"
func jsonError(data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	var ve *valueError
	switch {
	case errors.As(err, &se):
		msg, off := se.Error(), se.Offset
		if len(bytes.TrimSpace(data)) == 0 {
			msg = "empty file"
		} else if strings.HasPrefix(msg, "unexpected end") ||
			off >= int64(len(data)) && strings.HasPrefix(msg, "invalid character ' '") && data[len(data)-1] != ' ' {
			// At the end of input the scanner is fed a space, and says so.
			// Go 1.26 puts an unexpected end at the end of the data, Go
			// 1.27 at the start of the value it cut: the end is where the
			// file stops.
			msg, off = "unexpected end of file (truncated?)", int64(len(data))
		} else if m := extraValue(data); m != "" && strings.HasSuffix(msg, "after top-level value") {
			msg = m
		} else if tok := nonJSONNumber(data, se.Offset); tok != "" {
			msg = fmt.Sprintf("%s is not JSON (Python's json.dump writes it for float('%s')): a number here must be finite", tok,
				map[string]string{"NaN": "nan", "Infinity": "inf", "-Infinity": "-inf"}[tok])
			if tok == "-Infinity" {
				msg += " (a cascade stage's theta of −∞ is written null)"
			}
		}
		line, col := lineCol(data, off)
		return &posError{line, col, msg}
	case errors.As(err, &te):
		// encoding/json reports the offset just past the '[' or '{' of an
		// array or object, just past the end of a scalar, or for a number
		// decoded into an interface one byte further: the first value of
		// the kind te.Value names that ends there is the one.
		kind, _, _ := strings.Cut(te.Value, " ") // "number 1e999"
		v, ok := findJSON(data, func(v jsonValue) bool {
			return v.kind() == kind && (v.end >= te.Offset || kind == "number" && v.end >= te.Offset-1)
		})
		if !ok {
			line, col := lineCol(data, te.Offset)
			return &posError{line, col, fmt.Sprintf("%s: expected %s, got %s", te.Field, jsonKind(te.Type, false), te.Value)}
		}
		return v.errorf("%s", typeMismatch(te.Type, v))
	case errors.As(err, &ve):
		v, ok := findJSON(data, func(v jsonValue) bool {
			// raw is the whole value: an array or object starts with it.
			return v.under(ve.key) && bytes.HasPrefix(data[v.start:], ve.raw)
		})
		if !ok {
			return err
		}
		if ve.msg != "" {
			return v.errorf("%s", ve.msg)
		}
		return v.errorf("expected %s, got %s", ve.want, v.describe())
	}
	return err
}

// nonJSONNumber returns the NaN, Infinity or -Infinity that a syntax error
// at off (just past the offending byte) stopped on, which Python's
// json.dump and others write for non-finite floats; "" for anything else.
// encoding/json said only "invalid character 'N' looking for beginning of
// value" or "invalid character 'I' in numeric literal".
func nonJSONNumber(data []byte, off int64) string {
	p := int(off) - 1
	if p < 0 || p >= len(data) {
		return ""
	}
	for _, tok := range []string{"NaN", "Infinity"} {
		if bytes.HasPrefix(data[p:], []byte(tok)) {
			if tok == "Infinity" && p > 0 && data[p-1] == '-' {
				return "-Infinity"
			}
			return tok
		}
	}
	return ""
}

// extraValue says what a JSON file data is when it holds more than one
// JSON value, the first an object: JSON lines (a value on each line, as
// cascade --trace writes), or two objects one after the other (two files
// joined with cat). A model, cascade or XGBoost file is one object, and
// encoding/json's "invalid character '{' after top-level value" said
// neither. "" when data is not so.
func extraValue(data []byte) string {
	dec := json.NewDecoder(bytes.NewReader(data))
	var first, second json.RawMessage
	if dec.Decode(&first) != nil || len(first) == 0 || first[0] != '{' {
		return ""
	}
	end := dec.InputOffset()
	if dec.Decode(&second) != nil {
		return "" // not a JSON value: the syntax error says what
	}
	tail, rest, ok := bytes.Cut(data[end:], []byte("\n"))
	next, _, _ := bytes.Cut(rest, []byte("\n"))
	if ok && len(bytes.TrimSpace(tail)) == 0 && json.Valid(bytes.TrimSpace(next)) {
		return "a JSON value on each line (JSON lines, as cascade --trace writes?), where the file is one JSON object"
	}
	line, _ := lineCol(data, end)
	return fmt.Sprintf("a second JSON value after the object that ends on line %d (two files joined?), where the file is one JSON object", line)
}

// lineCol returns the 1-based line and column of the byte before offset off
// (encoding/json reports offsets just past the offending byte).
func lineCol(data []byte, off int64) (line, col int) {
	p := int(min(max(off-1, 0), int64(len(data))))
	before := data[:p]
	line = 1 + bytes.Count(before, []byte{'\n'})
	col = p - bytes.LastIndexByte(before, '\n')
	return line, col
}

// jsonValue is a value of a JSON document met by findJSON: a scalar, or the
// opening '[' or '{' of an array or object.
type jsonValue struct {
	data       []byte
	path       []any // object keys (string) and array indices (int) from the root
	tok        json.Token
	start, end int64 // the bytes of the token
}

// findJSON walks data in document order and returns the first value for
// which match is true. It stops, not finding, at a syntax error.
func findJSON(data []byte, match func(jsonValue) bool) (jsonValue, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	type frame struct {
		object  bool
		wantKey bool // in an object: the next string is a key
		next    int  // in an array: the index of the next element
	}
	var stack []frame
	var path []any // one entry per open container: the key or index within it
	for {
		before := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return jsonValue{}, false
		}
		d, isDelim := tok.(json.Delim)
		if isDelim && (d == ']' || d == '}') {
			stack = stack[:len(stack)-1]
			path = path[:len(stack)]
			continue
		}
		if n := len(stack); n > 0 {
			top := &stack[n-1]
			switch {
			case top.object && top.wantKey:
				path[n-1] = tok.(string)
				top.wantKey = false
				continue
			case top.object:
				top.wantKey = true
			default:
				path[n-1] = top.next
				top.next++
			}
		}
		v := jsonValue{data: data, path: path, tok: tok, start: before, end: dec.InputOffset()}
		// The token starts after the blanks and the ',' or ':' before it.
		for v.start < v.end && bytes.IndexByte([]byte(" \t\r\n,:"), data[v.start]) >= 0 {
			v.start++
		}
		if match(v) {
			v.path = append([]any(nil), path...)
			return v, true
		}
		if isDelim {
			stack = append(stack, frame{object: d == '{', wantKey: true})
			path = append(path, nil)
		}
	}
}

// under reports whether the value is the value of key or an element of it.
func (v jsonValue) under(key string) bool {
	p := v.path
	if n := len(p); n > 0 {
		if _, isIndex := p[n-1].(int); isIndex {
			p = p[:n-1]
		}
	}
	return len(p) > 0 && p[len(p)-1] == key
}

// pathString writes the path as "learner.gradient_booster.trees[3].split_conditions".
func (v jsonValue) pathString() string {
	var b strings.Builder
	for _, e := range v.path {
		switch e := e.(type) {
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(e)
		case int:
			fmt.Fprintf(&b, "[%d]", e)
		}
	}
	if b.Len() == 0 {
		return "the document"
	}
	return b.String()
}

// errorf returns a posError at the start of the value, naming its path.
func (v jsonValue) errorf(format string, args ...any) error {
	line, col := lineCol(v.data, v.start+1)
	return &posError{line, col, v.pathString() + ": " + fmt.Sprintf(format, args...)}
}

// kind is the value's JSON type as encoding/json's errors name it.
func (v jsonValue) kind() string {
	switch t := v.tok.(type) {
	case json.Delim:
		if t == '[' {
			return "array"
		}
		return "object"
	case string:
		return "string"
	case json.Number:
		return "number"
	case bool:
		return "bool"
	}
	return "null"
}

// describe says what the value is: "an array", "the string "a"",
// "the number 1.5", "true".
func (v jsonValue) describe() string {
	text := v.data[v.start:v.end]
	switch k := v.kind(); k {
	case "array", "object":
		return "an " + k
	case "string":
		return "the string " + short(string(text))
	case "number":
		return "the number " + string(text)
	}
	return string(text) // true, false or null
}

// typeMismatch says why the value cannot be the Go type t.
func typeMismatch(t reflect.Type, v jsonValue) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	num, isNum := v.tok.(json.Number)
	switch t.Kind() {
	case reflect.Float32, reflect.Float64:
		if isNum {
			limit := math.MaxFloat64
			if t.Kind() == reflect.Float32 {
				limit = math.MaxFloat32
			}
			return fmt.Sprintf("the number %s is out of range (the largest is %.2g)", num, limit)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if isNum && strings.Trim(num.String(), "-0123456789") == "" {
			return fmt.Sprintf("the integer %s is out of range", num)
		}
	}
	return fmt.Sprintf("expected %s, got %s", jsonKind(t, false), v.describe())
}

// jsonKind names the JSON values that decode into t: "a number", or with
// plural "numbers".
func jsonKind(t reflect.Type, plural bool) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	pick := func(one, many string) string {
		if plural {
			return many
		}
		return one
	}
	if t == reflect.TypeFor[xgbBool]() {
		return pick("0 or 1", "0s and 1s")
	}
	switch t.Kind() {
	case reflect.Float32, reflect.Float64:
		return pick("a number", "numbers")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return pick("an integer", "integers")
	case reflect.String:
		return pick("a string", "strings")
	case reflect.Bool:
		return pick("true or false", "booleans")
	case reflect.Slice, reflect.Array:
		return pick("an array of ", "arrays of ") + jsonKind(t.Elem(), true)
	case reflect.Struct, reflect.Map:
		return pick("an object", "objects")
	}
	return pick("a value", "values")
}

// short is a text for a message (a JSON value, a model file's field), cut
// short at a character boundary when long.
func short(s string) string {
	const maxLen = 40
	if len(s) <= maxLen {
		return s
	}
	cut := maxLen
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// CheckNulls returns a posError at the first null of data that would be
// read as 0: an element of an array, or the value of one of the keys
// numbers; nulls under a "params" object (free-form) are let be, and so
// are nulls for whole arrays (an empty array, as encoding/json writes a
// nil slice) and for other keys. encoding/json decodes null into a number
// as 0 (it leaves the number as it was), so a model with a null leaf
// value (what JSON.stringify and others write for NaN and ±Inf) would
// score as if the value were 0. Files without the bytes "null" are not
// walked.
func CheckNulls(data []byte, numbers ...string) error {
	if !bytes.Contains(data, []byte("null")) {
		return nil
	}
	v, ok := findJSON(data, func(v jsonValue) bool {
		if v.tok != nil || len(v.path) == 0 || slices.Contains(v.path, any("params")) {
			return false
		}
		switch last := v.path[len(v.path)-1].(type) {
		case int:
			return true
		case string:
			return slices.Contains(numbers, last)
		}
		return false
	})
	if !ok {
		return nil
	}
	// The elements of a model's "trees" (a cascade's "ensemble"'s) and of a
	// cascade's "stages" are objects: a null there is no NaN. A stage's own
	// "trees" are tree indices, numbers.
	if _, elem := v.path[len(v.path)-1].(int); elem {
		switch p := v.path[:len(v.path)-1]; {
		case len(p) == 1 && (p[0] == any("trees") || p[0] == any("stages")),
			len(p) == 2 && p[0] == any("ensemble") && p[1] == any("trees"):
			return v.errorf("expected an object, got null")
		}
	}
	return v.errorf("expected a number, got null (JSON writers put null for NaN and ±Inf)")
}
