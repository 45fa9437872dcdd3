package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/cronus-ltr/cronus/engine/cronus"
)

// FuzzParseLambdas: --lambdas gives an error naming the flag, or N
// positive, non-decreasing values from FROM to TO, at most cronus.MaxLambda.
func FuzzParseLambdas(f *testing.F) {
	for _, s := range []string{"0.002:0.5:8", "0.1:0.1:1", "1e-300:1e300:5", "1:0.1:3",
		"0:1:3", "0.1:inf:3", "0.1:100:3", "0.1:100.5:3", "nan:1:2", "0.1:1:1001", "0.1:1", "5e-324:1:2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ls, err := parseLambdas(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "--lambdas ") {
				t.Fatalf("error does not name the flag: %v", err)
			}
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
			if i > 0 && l < ls[i-1] {
				t.Fatalf("%q: %v after %v", s, l, ls[i-1])
			}
		}
	})
}

// checkList checks what a comma-separated list flag's parser gave for s:
// an error naming the flag, or one value per field, each accepted by ok.
// It reports whether there were values to check further.
func checkList(t *testing.T, flag, s string, vs []float64, err error, ok func(float64) bool) bool {
	t.Helper()
	if err != nil {
		if !strings.HasPrefix(err.Error(), flag+" ") {
			t.Fatalf("error does not name the flag: %v", err)
		}
		return false
	}
	if len(vs) != strings.Count(s, ",")+1 {
		t.Fatalf("%q: %d values", s, len(vs))
	}
	for _, v := range vs {
		if !ok(v) {
			t.Fatalf("%q: value %v", s, v)
		}
	}
	return true
}

// FuzzParseRhos: --rhos gives an error naming the flag, or one value in
// [0, cronus.MaxRho] per comma-separated field.
func FuzzParseRhos(f *testing.F) {
	for _, s := range []string{"0.0002,0.001,0.005,0.02", "0", " 1 , 2 ", "-1", "100", "1e3", "inf", "nan", ",", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rs, err := parseRhos(s)
		checkList(t, "--rhos", s, rs, err, func(r float64) bool { return r >= 0 && r <= cronus.MaxRho })
	})
}

// FuzzParseMargins: --exit-margins gives an error naming the flag, or one
// value >= 0 (possibly +Inf) per comma-separated field, and the values
// written back read the same.
func FuzzParseMargins(f *testing.F) {
	for _, s := range []string{"0,0.05,0.1,0.2,0.5,1,2,inf", "0", " 1 , +Inf ", "-1", "-0", "1e400", "nan", ",", "", "0x1p-3"} {
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
