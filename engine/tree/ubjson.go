package tree

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"
)

// isUBJSON tells whether b looks like a UBJSON document whose top level is
// an object, as XGBoost writes a model under a name not ending in .json
// (.ubj; by default from XGBoost 2.1 on): '{' then a key's length marker,
// or the '$' or '#' of an optimised object. JSON text never has these
// after '{'.
func isUBJSON(b []byte) bool {
	return len(b) >= 2 && b[0] == '{' && bytes.IndexByte([]byte("iUIlL$#}"), b[1]) >= 0 &&
		// "{}" is JSON as well: UBJSON's empty object is that too, and
		// reads the same either way.
		!(b[1] == '}' && len(bytes.TrimSpace(b)) == 2)
}

// maxUBJSONDepth bounds the nesting of containers: an XGBoost model nests
// five deep, and a crafted file of nested '[' would otherwise recurse until
// the stack ran out.
const maxUBJSONDepth = 200

// ubjsonToJSON converts a UBJSON document (ubjson.org, draft 12, as
// XGBoost's writer and reader have it: big-endian numbers, optimised
// containers with '$' type and '#' count) into JSON text that ImportXGBoost
// reads as it reads XGBoost's JSON: floats in the shortest form that reads
// back to the same float32 or float64, NaN, Infinity and -Infinity bare,
// as XGBoost's JSON writer has them, strings escaped. The error names the
// byte offset of what is wrong.
func ubjsonToJSON(data []byte) ([]byte, error) {
	d := ubjDecoder{data: data, out: make([]byte, 0, len(data)+len(data)/2), bare: len(data)}
	if err := d.value(d.next(), 0); err != nil {
		return nil, err
	}
	if d.pos != len(data) {
		return nil, fmt.Errorf("byte %d: data after the end of the document", d.pos)
	}
	return d.out, nil
}

type ubjDecoder struct {
	data []byte
	pos  int
	out  []byte
	// bare is how many more elements of typed containers of nulls or
	// booleans, which take no bytes of their own, the document may hold:
	// as many as it has bytes, so that the text stays a few times the
	// file's size (nested counts of them would multiply).
	bare int
}

// next returns the next marker, skipping no-ops ('N'), and advances past
// it; 0 at the end of the data.
func (d *ubjDecoder) next() byte {
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		d.pos++
		if c != 'N' {
			return c
		}
	}
	d.pos = len(d.data) + 1 // past the end: an error names the end
	return 0
}

func (d *ubjDecoder) errorf(at int, format string, a ...any) error {
	if at > len(d.data) {
		return fmt.Errorf("byte %d: unexpected end of file (truncated?)", len(d.data))
	}
	return fmt.Errorf("byte %d: %s", at, fmt.Sprintf(format, a...))
}

// take returns the next n bytes.
func (d *ubjDecoder) take(n int) ([]byte, error) {
	if n < 0 || n > len(d.data)-d.pos {
		return nil, d.errorf(len(d.data)+1, "")
	}
	b := d.data[d.pos : d.pos+n]
	d.pos += n
	return b, nil
}

// integer reads an integer of type marker m.
func (d *ubjDecoder) integer(m byte) (int64, error) {
	at := d.pos - 1
	var size int
	switch m {
	case 'i', 'U':
		size = 1
	case 'I':
		size = 2
	case 'l':
		size = 4
	case 'L':
		size = 8
	default:
		if d.pos > len(d.data) { // next found the end
			return 0, d.errorf(d.pos, "")
		}
		return 0, d.errorf(at, "expected an integer type (i, U, I, l or L), got %s", marker(m))
	}
	b, err := d.take(size)
	if err != nil {
		return 0, err
	}
	switch m {
	case 'i':
		return int64(int8(b[0])), nil
	case 'U':
		return int64(b[0]), nil
	case 'I':
		return int64(int16(binary.BigEndian.Uint16(b))), nil
	case 'l':
		return int64(int32(binary.BigEndian.Uint32(b))), nil
	}
	return int64(binary.BigEndian.Uint64(b)), nil
}

// length reads a non-negative length or count (an integer with its marker).
func (d *ubjDecoder) length() (int, error) {
	at := d.pos
	n, err := d.integer(d.next())
	if err != nil {
		return 0, err
	}
	// Each element takes a byte at least (a typed count of nulls is the
	// one exception, which XGBoost never writes): a count past the bytes
	// left is a corrupt file, not an allocation to try.
	if n < 0 || n > int64(len(d.data)-d.pos) {
		return 0, d.errorf(at, "length %d is negative or past the end of the file", n)
	}
	return int(n), nil
}

// counted reads a length, then that many bytes.
func (d *ubjDecoder) counted() ([]byte, error) {
	n, err := d.length()
	if err != nil {
		return nil, err
	}
	return d.take(n)
}

// str writes a string (its length, then its bytes) as JSON.
func (d *ubjDecoder) str() error {
	b, err := d.counted()
	if err != nil {
		return err
	}
	d.out = appendJSONString(d.out, b)
	return nil
}

// appendJSONString appends b quoted as a JSON string, each byte of it that
// is not UTF-8 as U+FFFD. encoding/json does that replacement itself, but
// Go 1.26's writes it \ufffd and Go 1.27's as the character: the same
// string in other bytes. Replacing first gives one text on both.
func appendJSONString(dst, b []byte) []byte {
	if !utf8.Valid(b) {
		v := make([]byte, 0, len(b)+8)
		for len(b) > 0 {
			r, n := utf8.DecodeRune(b)
			if r == utf8.RuneError && n == 1 {
				v = utf8.AppendRune(v, utf8.RuneError)
			} else {
				v = append(v, b[:n]...)
			}
			b = b[n:]
		}
		b = v
	}
	q, _ := json.Marshal(string(b)) // a valid string: no error
	return append(dst, q...)
}

// value writes the value of marker m (already read).
func (d *ubjDecoder) value(m byte, depth int) error {
	at := d.pos - 1
	switch m {
	case 'Z':
		d.out = append(d.out, "null"...)
	case 'T':
		d.out = append(d.out, "true"...)
	case 'F':
		d.out = append(d.out, "false"...)
	case 'i', 'U', 'I', 'l', 'L':
		n, err := d.integer(m)
		if err != nil {
			return err
		}
		d.out = strconv.AppendInt(d.out, n, 10)
	case 'd':
		b, err := d.take(4)
		if err != nil {
			return err
		}
		d.float(float64(math.Float32frombits(binary.BigEndian.Uint32(b))), 32)
	case 'D':
		b, err := d.take(8)
		if err != nil {
			return err
		}
		d.float(math.Float64frombits(binary.BigEndian.Uint64(b)), 64)
	case 'H':
		b, err := d.counted()
		if err != nil {
			return err
		}
		if !json.Valid(b) || len(b) == 0 || b[0] == '"' || b[0] == '[' || b[0] == '{' || b[0] == 't' || b[0] == 'f' || b[0] == 'n' {
			return d.errorf(at, "high-precision number %q is not a number", b)
		}
		d.out = append(d.out, b...)
	case 'C':
		b, err := d.take(1)
		if err != nil {
			return err
		}
		d.out = appendJSONString(d.out, b)
	case 'S':
		return d.str()
	case '[', '{':
		if depth >= maxUBJSONDepth {
			return d.errorf(at, "containers nested more than %d deep", maxUBJSONDepth)
		}
		return d.container(m, depth+1)
	default:
		if m == 0 && d.pos > len(d.data) { // next found the end
			return d.errorf(d.pos, "")
		}
		return d.errorf(at, "unknown type marker %s", marker(m))
	}
	return nil
}

// float writes v (a float32 when bits is 32) as XGBoost's JSON writer
// would: shortest form, non-finite values as bare tokens.
func (d *ubjDecoder) float(v float64, bits int) {
	switch {
	case math.IsNaN(v):
		d.out = append(d.out, "NaN"...)
	case math.IsInf(v, 1):
		d.out = append(d.out, "Infinity"...)
	case math.IsInf(v, -1):
		d.out = append(d.out, "-Infinity"...)
	default:
		d.out = strconv.AppendFloat(d.out, v, 'g', -1, bits)
	}
}

// container writes an array ('[') or object ('{'), whose opening marker
// is read: optionally '$' and the elements' type, then '#' and a count
// (required after '$'), else elements up to the closing marker.
func (d *ubjDecoder) container(open byte, depth int) error {
	closing := byte(']')
	if open == '{' {
		closing = '}'
	}
	d.out = append(d.out, open)
	var typ byte
	count := -1
	m := d.next()
	if m == '$' {
		at := d.pos
		typ = d.next()
		if d.pos > len(d.data) { // next found the end
			return d.errorf(d.pos, "")
		}
		if bytes.IndexByte([]byte("ZTFiUIlLdDHCS[{"), typ) < 0 {
			return d.errorf(at, "unknown element type %s", marker(typ))
		}
		if d.next() != '#' {
			if d.pos > len(d.data) {
				return d.errorf(d.pos, "")
			}
			return d.errorf(d.pos-1, "a typed container ('$') needs a count ('#')")
		}
		m = '#'
	}
	if m == '#' {
		at := d.pos
		n, err := d.length()
		if err != nil {
			return err
		}
		count = n
		if typ == 'Z' || typ == 'T' || typ == 'F' {
			if n > d.bare {
				return d.errorf(at, "%d elements of type %s, which take no bytes, are more than the file's %d bytes allow", n, marker(typ), len(d.data))
			}
			d.bare -= n
		}
	}
	for i := 0; count < 0 || i < count; i++ {
		if count < 0 {
			if i > 0 {
				m = d.next()
			}
			if m == closing {
				break
			}
		}
		if i > 0 {
			d.out = append(d.out, ',')
		}
		if open == '{' {
			// A key: a string without its 'S' marker, whose length
			// marker is m when the container has no count.
			if count >= 0 {
				d.next() // past any no-op markers
			}
			d.pos-- // length reads the marker again
			if err := d.str(); err != nil {
				return err
			}
			d.out = append(d.out, ':')
			if typ == 0 {
				m = d.next()
			} else {
				m = typ
			}
		} else if count >= 0 {
			if typ == 0 {
				m = d.next()
			} else {
				m = typ
			}
		}
		if err := d.value(m, depth); err != nil {
			return err
		}
		if count < 0 && d.pos > len(d.data) {
			return d.errorf(d.pos, "")
		}
	}
	d.out = append(d.out, closing)
	return nil
}

// marker describes a type marker for an error message.
func marker(m byte) string {
	if m >= ' ' && m < 0x7f {
		return fmt.Sprintf("'%c'", m)
	}
	return fmt.Sprintf("0x%02x", m)
}
