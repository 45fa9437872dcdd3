package data

import (
	"math"
	"strconv"
	"strings"
	"unsafe"
)

// pow10f64 holds the powers of ten that float64 represents exactly.
var pow10f64 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseFloat32 parses a decimal number (optional sign, digits, optional
// fraction, optional exponent) into the float64 nearest to it, rounded to
// float32: the value XGBoost's libsvm reader, NumPy and scikit-learn give
// the same text. (Rounding the decimal straight to float32 differs for the
// rare texts within about 1e-16 of the midpoint of two float32 values, and
// a document could then take the other branch at a split there.) ok is false
// when s is not such a number or is outside the float32 range.
//
// It is the reader's hot path: the common LETOR token ("0.123456") is
// handled without strconv. When the decimal mantissa fits in 53 bits and the
// power of ten is at most 22 in magnitude, both operands are exact float64
// values and one float64 multiply or divide rounds correctly (Clinger's fast
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
	var f float64
	if digits < 19 && mant < 1<<53 && exp >= -22 && exp <= 22 {
		f = float64(mant)
		if exp < 0 {
			f /= pow10f64[-exp]
		} else {
			f *= pow10f64[exp]
		}
		if neg {
			f = -f
		}
	} else {
		// strconv does not keep the string, so a zero-copy view is safe.
		var err error
		f, err = strconv.ParseFloat(unsafe.String(unsafe.SliceData(s), len(s)), 64)
		if err != nil {
			return 0, false
		}
	}
	v = float32(f)
	if math.IsInf(float64(v), 0) {
		return 0, false
	}
	return v, true
}

// parseInt64 parses an optionally signed decimal integer of at most 18
// digits (maxInt18).
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

// maxInt18 is the largest integer parseInt64 reads: 18 digits.
const maxInt18 = 999_999_999_999_999_999

// isInteger reports whether s is an optional sign and one or more digits,
// however many: for messages, to tell a number parseInt64 cannot hold
// from one that is not an integer at all.
func isInteger(s []byte) bool {
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(s) > 0
}

// DecimalSyntax reports whether s, a number strconv takes (ParseFloat, or
// ParseInt with base 0, as the flag package reads integers), is written
// in plain decimal notation: without Go's digit separators ("1_000") or
// base prefixes ("0x1p-2", "0b101", "0o17"). Data files refuse those, and
// a user who types "0_05" for a λ does not mean 5.
func DecimalSyntax(s string) bool {
	if strings.ContainsRune(s, '_') {
		return false
	}
	t := strings.TrimLeft(s, "+-")
	return !(len(t) >= 2 && t[0] == '0' && strings.ContainsRune("xXbBoO", rune(t[1])))
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
