package main

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cronus-ltr/cronus/engine/cronus"
)

// FuzzParseLambdas: --lambdas gives an error naming the flag and the part
// of the value that is wrong, or N positive, non-decreasing values from
// FROM to TO, at most cronus.MaxLambda.
func FuzzParseLambdas(f *testing.F) {
	for _, s := range []string{"0.002:0.5:8", "0.1:0.1:1", "1e-300:1e300:5", "1:0.1:3",
		"0:1:3", "0.1:inf:3", "0.1:100:3", "0.1:100.5:3", "nan:1:2", "0.1:1:1001", "0.1:1", "5e-324:1:2", "0.01:0.5:1", "0.01:0.01:3", "1:1.0000000000000002:3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ls, err := parseLambdas(s)
		if err != nil {
			checkFlagError(t, "--lambdas", s, err)
			return
		}
		parts := strings.Split(s, ":")
		if len(ls) < 1 || len(ls) > 1000 || len(parts) != 3 {
			t.Fatalf("%q: %d values", s, len(ls))
		}
		for i, l := range ls {
			if !(l > 0 && l <= cronus.MaxLambda) {
				t.Fatalf("%q: value %d is %v", s, i, l)
			}
			if i > 0 && l <= ls[i-1] { // rising, no λ twice
				t.Fatalf("%q: %v after %v", s, l, ls[i-1])
			}
		}
		// From FROM to TO: the grid does not stop short of TO.
		from, _ := strconv.ParseFloat(strings.TrimSpace(parts[0]), 64)
		to, _ := strconv.ParseFloat(strings.TrimSpace(parts[1]), 64)
		if ls[0] != from || math.Abs(ls[len(ls)-1]-to) > 1e-12*to {
			t.Fatalf("%q: values from %v to %v", s, ls[0], ls[len(ls)-1])
		}
	})
}

// flagErrorForm is the form of every flag error: the flag, what it takes,
// the value given (for a list, the part of it that is wrong), quoted.
var flagErrorForm = regexp.MustCompile(`^(--[a-z-]+): .+, got ("(?:[^"\\]|\\.)*")$`)

// checkFlagError checks that err, the refusal of s as flag's value, has
// the form of the other flag errors and quotes a part of s.
func checkFlagError(t *testing.T, flag, s string, err error) {
	t.Helper()
	m := flagErrorForm.FindStringSubmatch(err.Error())
	if m == nil || m[1] != flag {
		t.Fatalf("%q: error not of the form \"%s: …, got \"V\"\": %v", s, flag, err)
	}
	v, qerr := strconv.Unquote(m[2])
	if qerr != nil || !strings.Contains(s, v) {
		t.Fatalf("%q: error quotes %s, not a part of the value: %v", s, m[2], err)
	}
}

// checkList checks what a comma-separated list flag's parser gave for s:
// an error of the flag errors' form, or one value per field, each
// accepted by ok and each once. It reports whether there were values to
// check further.
func checkList(t *testing.T, flag, s string, vs []float64, err error, ok func(float64) bool) bool {
	t.Helper()
	if err != nil {
		checkFlagError(t, flag, s, err)
		return false
	}
	if len(vs) != strings.Count(s, ",")+1 {
		t.Fatalf("%q: %d values", s, len(vs))
	}
	for i, v := range vs {
		// -0 is 0 (it was written "-0" in the curve and the files)
		if !ok(v) || slices.Contains(vs[:i], v) || v == 0 && math.Signbit(v) {
			t.Fatalf("%q: value %v (of %v)", s, v, vs)
		}
	}
	return true
}

// FuzzParseRhos: --rhos gives an error naming the flag and the value of
// the list that is wrong, or one value in [0, cronus.MaxRho] per
// comma-separated field, each once ("1,2,1" ran an initialisation more).
func FuzzParseRhos(f *testing.F) {
	for _, s := range []string{"0.0002,0.001,0.005,0.02", "0", "-0", " 1 , 2 ", "-1", "100", "1e3", "inf", "nan", ",", "", "1,2,1", "0.5,5e-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rs, err := parseRhos(s)
		checkList(t, "--rhos", s, rs, err, func(r float64) bool { return r >= 0 && r <= cronus.MaxRho })
	})
}

// FuzzParseMargins: --exit-margins gives an error naming the flag and the
// value of the list that is wrong, or one value >= 0 (possibly +Inf) per
// comma-separated field, and the values written back read the same.
func FuzzParseMargins(f *testing.F) {
	for _, s := range []string{"0,0.05,0.1,0.2,0.5,1,2,inf", "0", " 1 , +Inf ", "-1", "-0", "1e400", "nan", ",", "", "0x1p-3", "0,0", "1, inf, 1.0", "2,1,0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ms, err := parseMargins(s)
		if !checkList(t, "--exit-margins", s, ms, err, func(m float64) bool { return m >= 0 }) {
			return
		}
		again, err := parseMargins(formatMargins(ms))
		if err != nil || !slices.Equal(again, ms) {
			t.Fatalf("%q: written %q, read back %v, %v", s, formatMargins(ms), again, err)
		}
	})
}

// TestParsePrefixLengths: --last-prefixes's numbers, ranges and stepped
// ranges, in any order, come out ascending; what is wrong is named.
func TestParsePrefixLengths(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"10,15,20", "10,15,20"},
		{"30, 5,10", "5,10,30"},
		{"5-9", "5,6,7,8,9"},
		{"7-7", "7"},
		{"10-20/5,3", "3,10,15,20"},
		{"10-21/5", "10,15,20"},
		{"1-3,50-100/25,4", "1,2,3,4,50,75,100"},
		{"8-8/1000", "8"},
	} {
		got, err := parsePrefixLengths(c.in)
		if err != nil || intList(got) != c.want {
			t.Errorf("%q: %v, %v; want %s", c.in, got, err, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"", `each value must be a whole number of at least 1, a range A-B or A-B/S, got ""`},
		{"0", `got "0"`},
		{"5-", `got "5-"`},
		{"-5", `got "-5"`},
		{"5-3", `a range A-B runs up, from A to B >= A, got "5-3"`},
		{"5/2", `a step /S follows a range A-B, got "5/2"`},
		{"5-9/0", `got "5-9/0"`},
		{"3,1-5", `each length must be given once (3 is twice), got "1-5"`},
		{"1-200000", `at most 100000 lengths in all, got "1-200000"`},
		{"1-5-7", `got "1-5-7"`},
		{"+5", `got "+5"`},
	} {
		_, err := parsePrefixLengths(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one saying %s", c.in, err, c.want)
		}
	}
}

// prefixItem matches one item of --last-prefixes as the fuzz test reads
// it, independently of the parser: A, A-B or A-B/S.
var prefixItem = regexp.MustCompile(`^([0-9]+)(?:-([0-9]+)(?:/([0-9]+))?)?$`)

// FuzzParsePrefixLengths: --last-prefixes gives an error of the flag
// errors' form, or ascending lengths of at least 1, none twice, exactly the
// n that some item names (n = A, or A <= n <= B with S dividing n − A).
func FuzzParsePrefixLengths(f *testing.F) {
	for _, s := range []string{"10,15,20", "5-9", "10-20/5,3", "3,1-5", "1-200000", "5-3", "5/2", "1-9223372036854775807/9223372036854775806", " 7 - 9", "08,9", "+5", " 5\t,6"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ns, err := parsePrefixLengths(s)
		if err != nil {
			checkFlagError(t, "--last-prefixes", s, err)
			return
		}
		if len(ns) == 0 || len(ns) > maxPrefixLengths {
			t.Fatalf("%q: %d lengths", s, len(ns))
		}
		type item struct{ a, b, step uint64 }
		var items []item
		for _, f := range strings.Split(s, ",") {
			m := prefixItem.FindStringSubmatch(strings.TrimSpace(f))
			if m == nil {
				t.Fatalf("%q: item %q taken", s, f)
			}
			it := item{step: 1}
			it.a, _ = strconv.ParseUint(m[1], 10, 64)
			it.b = it.a
			if m[2] != "" {
				it.b, _ = strconv.ParseUint(m[2], 10, 64)
			}
			if m[3] != "" {
				it.step, _ = strconv.ParseUint(m[3], 10, 64)
			}
			items = append(items, it)
		}
		var count uint64
		for _, it := range items {
			count += (it.b-it.a)/it.step + 1
		}
		if count != uint64(len(ns)) {
			t.Fatalf("%q: %d lengths, the items name %d", s, len(ns), count)
		}
		for i, n := range ns {
			if n < 1 || i > 0 && n <= ns[i-1] {
				t.Fatalf("%q: %d after %v", s, n, ns[:i])
			}
			named := false
			for _, it := range items {
				u := uint64(n)
				named = named || u >= it.a && u <= it.b && (u-it.a)%it.step == 0
			}
			if !named {
				t.Fatalf("%q: %d, which no item names", s, n)
			}
		}
	})
}
