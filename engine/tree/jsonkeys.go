package tree

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// CheckKeys returns a posError at the first object key of the JSON
// document data that encoding/json would take without a word but a
// case-sensitive reader (XGBoost's, Python's) would not, or that is
// almost certainly a slip of a hand edit:
//
//   - a key that differs only in case from a field of the struct the
//     object decodes into ("Sigma", "THETA"), which encoding/json matches
//     to the field anyway;
//   - a key given twice in one object ({"sigma": 1, "sigma": 3}), of which
//     encoding/json keeps the last.
//
// v is (a pointer to) the value data is decoded into: its type says which
// objects are structs, at any depth. Keys of no field are let be, as
// encoding/json lets them be; objects decoded into maps or interfaces
// ("params") and into types with their own UnmarshalJSON are checked for
// repeated keys only. data must be valid JSON (decode it first); the walk
// is one pass over the bytes, allocating nothing but for keys with
// escapes, so that a model of hundreds of megabytes is not read twice
// over.
func CheckKeys(data []byte, v any) error {
	var t reflect.Type
	if v != nil {
		t = reflect.TypeOf(v)
	}
	return checkKeys(data, t)
}

// keyFrame is an open object or array of the walk of checkKeys.
type keyFrame struct {
	object  bool
	wantKey bool         // object: the next string is a key
	strct   bool         // an object decoded into a struct
	fields  []jsonField  // its fields
	t       reflect.Type // what the values decode into (nil: not checked)
	keys    []keySeen    // object: the keys so far
	seen    map[string]int
	key     []byte // object: the current key, decoded
	index   int    // array: the index of the current element
}

// keySeen is a key of an object and the offset of its opening quote.
type keySeen struct {
	name []byte
	off  int
}

// manyKeys is the number of keys from which an object's keys are looked
// up in a map rather than compared one by one.
const manyKeys = 32

func checkKeys(data []byte, root reflect.Type) error {
	var stack []keyFrame
	// child is the type the next value decodes into.
	child := keyType(root)
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch c {
		case ' ', '\t', '\n', '\r', ':':
		case '{', '[':
			n := len(stack)
			if n < cap(stack) {
				stack = stack[:n+1]
			} else {
				stack = append(stack, keyFrame{})
			}
			f := &stack[n]
			f.object, f.wantKey, f.index = c == '{', c == '{', 0
			f.keys, f.seen, f.key, f.strct, f.fields, f.t = f.keys[:0], nil, nil, false, nil, nil
			if child != nil {
				switch child.Kind() {
				case reflect.Struct:
					if f.object {
						f.strct, f.fields, f.t = true, jsonFields(child), child
					}
				case reflect.Map:
					if f.object {
						f.t = keyType(child.Elem())
					}
				case reflect.Slice, reflect.Array:
					if !f.object {
						f.t = keyType(child.Elem())
					}
				}
			}
			child = nil
			if !f.object {
				child = f.t
			}
		case '}', ']':
			if len(stack) > 0 { // not so in valid JSON
				stack = stack[:len(stack)-1]
			}
		case ',':
			if n := len(stack); n > 0 {
				f := &stack[n-1]
				if f.object {
					f.wantKey = true
				} else {
					f.index++
					child = f.t
				}
			}
		case '"':
			end := stringEnd(data, i)
			if end < 0 {
				return nil // not so in valid JSON
			}
			if n := len(stack); n > 0 && stack[n-1].wantKey {
				f := &stack[n-1]
				f.wantKey = false
				key := data[i+1 : end]
				if bytes.IndexByte(key, '\\') >= 0 || !utf8.Valid(key) {
					// As encoding/json reads it: escapes decoded,
					// bytes not UTF-8 each U+FFFD.
					var s string
					if json.Unmarshal(data[i:end+1], &s) == nil {
						key = []byte(s)
					}
				}
				if err := f.addKey(key, i, data, stack); err != nil {
					return err
				}
				child = f.childType(key)
			}
			i = end
		default: // a number, true, false or null
			for i+1 < len(data) && !endsScalar[data[i+1]] {
				i++
			}
		}
	}
	return nil
}

// endsScalar marks the bytes that end a number, true, false or null.
var endsScalar = [256]bool{' ': true, '\t': true, '\n': true, '\r': true, ',': true, ']': true, '}': true}

// stringEnd returns the offset of the quote that closes the string
// whose opening quote is at data[i] (-1 when there is none).
func stringEnd(data []byte, i int) int {
	for j := i + 1; ; {
		k := bytes.IndexByte(data[j:], '"')
		if k < 0 {
			return -1
		}
		j += k
		backslashes := 0
		for p := j - 1; p > i && data[p] == '\\'; p-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			return j
		}
		j++
	}
}

// addKey records key, at offset off of data, in the object f (the top of
// stack), or returns the error of a key given twice or of one that
// differs only in case from a field of f's struct.
func (f *keyFrame) addKey(key []byte, off int, data []byte, stack []keyFrame) error {
	f.key = key
	first := -1
	if f.seen != nil {
		if o, ok := f.seen[string(key)]; ok {
			first = o
		}
	} else {
		for _, k := range f.keys {
			if bytes.Equal(k.name, key) {
				first = k.off
				break
			}
		}
	}
	if first >= 0 {
		line, _ := lineCol(data, int64(first)+1)
		return keyError(data, off, stack, fmt.Sprintf("key %s given twice (first on line %d): a JSON reader keeps one of the two, so the file is refused", strconv.Quote(string(key)), line))
	}
	if f.seen != nil {
		f.seen[string(key)] = off
	} else if f.keys = append(f.keys, keySeen{key, off}); len(f.keys) >= manyKeys {
		f.seen = make(map[string]int, 2*manyKeys)
		for _, k := range f.keys {
			f.seen[string(k.name)] = k.off
		}
	}
	if f.field(key) != nil {
		return nil
	}
	for _, field := range f.fields {
		if strings.EqualFold(field.name, string(key)) {
			return keyError(data, off, stack, fmt.Sprintf("key %s where %s is meant: keys are case-sensitive (as XGBoost's and Python's readers take them)", strconv.Quote(string(key)), strconv.Quote(field.name)))
		}
	}
	return nil
}

// field returns the field of f's struct named key exactly; nil for none
// (or when f's object is not decoded into a struct).
func (f *keyFrame) field(key []byte) *jsonField {
	for i := range f.fields {
		if f.fields[i].name == string(key) {
			return &f.fields[i]
		}
	}
	return nil
}

// childType is the type the value of key, the current key of the object
// f, decodes into; nil when it is not checked.
func (f *keyFrame) childType(key []byte) reflect.Type {
	if f.t == nil {
		return nil
	}
	if !f.strct {
		return f.t // a map's element type
	}
	if field := f.field(key); field != nil {
		return field.typ
	}
	return nil
}

// keyError is a posError at the key at offset off of data, naming the
// object it is in by its path (stack, the open containers, the key's
// object last).
func keyError(data []byte, off int, stack []keyFrame, msg string) error {
	var b strings.Builder
	for _, f := range stack[:len(stack)-1] {
		if f.object {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.Write(f.key)
		} else {
			fmt.Fprintf(&b, "[%d]", f.index)
		}
	}
	if b.Len() > 0 {
		msg = b.String() + ": " + msg
	}
	line, col := lineCol(data, int64(off)+1)
	return &posError{line, col, msg}
}

// keyType is t without its pointers, or nil when the keys of what
// decodes into it are not checked against fields: an interface, or a
// type with its own UnmarshalJSON (which sees the raw bytes).
func keyType(t reflect.Type) reflect.Type {
	if t == nil {
		return nil
	}
	unmarshaler := reflect.TypeFor[json.Unmarshaler]()
	for {
		if t.Implements(unmarshaler) || reflect.PointerTo(t).Implements(unmarshaler) {
			return nil
		}
		if t.Kind() != reflect.Pointer {
			break
		}
		t = t.Elem()
	}
	if t.Kind() == reflect.Interface {
		return nil
	}
	return t
}

// jsonField is a field of a struct as encoding/json names it, and the
// type its value decodes into as keyType gives it.
type jsonField struct {
	name string
	typ  reflect.Type
}

var jsonFieldsCache sync.Map // reflect.Type → []jsonField

// jsonFields returns the fields of the struct t that encoding/json
// decodes, by their JSON names (embedded structs' fields included).
func jsonFields(t reflect.Type) []jsonField {
	if v, ok := jsonFieldsCache.Load(t); ok {
		return v.([]jsonField)
	}
	var fields []jsonField
	for _, sf := range reflect.VisibleFields(t) {
		if len(sf.Index) > 1 && !embeddedPath(t, sf.Index) {
			continue
		}
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if sf.Anonymous && name == "" {
			ft := sf.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				continue // its fields are listed as visible fields
			}
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		fields = append(fields, jsonField{name, keyType(sf.Type)})
	}
	jsonFieldsCache.Store(t, fields)
	return fields
}

// embeddedPath reports whether the field at index of t is reached through
// untagged embedded structs only, as encoding/json promotes fields.
func embeddedPath(t reflect.Type, index []int) bool {
	for _, i := range index[:len(index)-1] {
		sf := t.Field(i)
		if !sf.Anonymous || sf.Tag.Get("json") != "" {
			return false
		}
		t = sf.Type
		if t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
	}
	return true
}
