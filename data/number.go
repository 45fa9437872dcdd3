package data

import (
	"math"
	"strconv"
	"unsafe"
)

// pow10f32 holds the powers of ten that float32 represents exactly.
var pow10f32 = [...]float32{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10}

// parseFloat32 parses a decimal number (optional sign, digits, optional
// fraction, optional exponent) into the correctly rounded float32.
// ok is false when s is not such a number or is outside the float32 range.
//
// It is the reader's hot path: the common LETOR token ("0.123456") is
// handled without strconv. When the decimal mantissa fits in 24 bits and the
// power of ten is at most 10 in magnitude, both operands are exact float32
// values and one float32 multiply or divide rounds correctly (Clinger's fast
// path); everything else goes to strconv.ParseFloat, which is correct for all
// inputs.
func parseFloat32(s []byte) (v float32, ok bool) {
	i := 0
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	var mant uint64
	digits := 0 // significant digits taken into mant
	exp := 0
	sawDigit := false
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		sawDigit = true
		if mant == 0 && s[i] == '0' {
			continue
		}
		if digits < 19 {
			mant = mant*10 + uint64(s[i]-'0')
			digits++
		} else {
			exp++
		}
	}
	if i < len(s) && s[i] == '.' {
		i++
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			sawDigit = true
			if mant == 0 && s[i] == '0' {
				exp--
				continue
			}
			if digits < 19 {
				mant = mant*10 + uint64(s[i]-'0')
				digits++
				exp--
			}
		}
	}
	if !sawDigit {
		return 0, false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		eneg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		if i == len(s) {
			return 0, false
		}
		e := 0
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			if e < 100000 {
				e = e*10 + int(s[i]-'0')
			}
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	if i != len(s) {
		return 0, false
	}
	if mant == 0 {
		if neg {
			return float32(math.Copysign(0, -1)), true
		}
		return 0, true
	}
	if digits < 19 && mant < 1<<24 && exp >= -10 && exp <= 10 {
		f := float32(mant)
		if exp < 0 {
			f /= pow10f32[-exp]
		} else {
			f *= pow10f32[exp]
		}
		if neg {
			f = -f
		}
		return f, true
	}
	// strconv does not keep the string, so a zero-copy view is safe.
	f, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(s), len(s)), 32)
	if err != nil || math.IsInf(f, 0) {
		return 0, false
	}
	return float32(f), true
}

// parseInt64 parses an optionally signed decimal integer.
func parseInt64(s []byte) (int64, bool) {
	i := 0
	neg := false
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		i++
	}
	if i == len(s) || len(s)-i > 18 {
		return 0, false
	}
	var n int64
	for ; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// parseFloat64 parses a decimal number for messages (not the hot path).
func parseFloat64(s []byte) (float64, bool) {
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(string(s), 64)
	return f, err == nil || math.IsInf(f, 0)
}
