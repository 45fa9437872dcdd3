package data

import (
	"bufio"
	"bytes"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

// FuzzReadCosts checks that no input makes ReadCosts panic, that every error
// names the file and a line of it, that the text gzipped reads the same,
// and that every success describes exactly the features asked for with
// finite, non-negative costs.
func FuzzReadCosts(f *testing.F) {
	seeds := []struct {
		in          string
		numFeatures uint8
	}{
		{"20\n10\n1\n", 3},
		{"20\n10\n1\n", 0},
		{"20\n10\n1\n", 5},
		{"# header\n20 # tf\n\n\t10\r\n1", 0},
		{"1 20 body tf\n3\t0.5\tpage rank # c\n", 4},
		{"3 1\n1 2\n2 3\n", 0},
		{"\xef\xbb\xbf1 2\r\n", 1},
		{"1e2\n0\n-0\n.5\n", 0},
		{"", 0},
		{"# only a comment\n\n", 2},
		{"abc\n", 0},
		{"NaN\n", 0},
		{"1 +Inf\n", 0},
		{"1e999\n", 0},
		{"-1\n", 0},
		{"0 5\n", 0},
		{"1.5 5\n", 0},
		{"4 1\n", 3},
		{"1048577 1\n", 0},
		{"99999999999999999999 1\n", 0},
		{"1 5\n1 6\n", 0},
		{"5\n6 7\n", 0},
		{"1 5\n2\n", 0},
		{"1\n2\n3\n", 2},
		{"0x10\n1_0\n", 0},
		{"\x00\xff\n#\x00\n", 0},
	}
	for _, s := range seeds {
		f.Add(s.in, s.numFeatures)
	}
	f.Fuzz(func(t *testing.T, in string, numFeatures uint8) {
		nf := int(numFeatures)
		c, err := ReadCosts(strings.NewReader(in), "fuzz.txt", nf)
		// The same text gzipped reads the same (ReadCostsFile's path).
		zr, zerr := gunzipIfGzip(bufio.NewReader(bytes.NewReader(gz(t, in))), "fuzz.txt", 1)
		if zerr != nil {
			t.Fatal(zerr)
		}
		cz, errz := ReadCosts(zr, "fuzz.txt", nf)
		if (err == nil) != (errz == nil) || err != nil && err.Error() != errz.Error() || !reflect.DeepEqual(c, cz) {
			t.Fatalf("plain: %+v, %v; gzipped: %+v, %v", c, err, cz, errz)
		}
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.File != "fuzz.txt" || !strings.HasPrefix(err.Error(), "fuzz.txt:") {
				t.Fatalf("error %q (%T) does not name the file", err, err)
			}
			if pe.Line < 0 || pe.Line > strings.Count(in, "\n")+1 {
				t.Fatalf("error %q names a line the input does not have", err)
			}
			return
		}
		if nf > 0 && len(c.Cost) != nf {
			t.Fatalf("%d costs for %d features", len(c.Cost), nf)
		}
		if len(c.Cost) == 0 || len(c.Name) != len(c.Cost) {
			t.Fatalf("%d costs, %d names", len(c.Cost), len(c.Name))
		}
		for i, v := range c.Cost {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				t.Fatalf("cost of feature %d is %g", i+1, v)
			}
		}
		prev := -1
		for _, f := range c.Defaulted {
			if f <= prev || f >= len(c.Cost) || c.Cost[f] != 1 {
				t.Fatalf("bad defaulted list %v", c.Defaulted)
			}
			prev = f
		}
		n := 0
		for _, g := range c.Groups() {
			n += len(g.Features)
		}
		if n != len(c.Cost) {
			t.Fatalf("groups hold %d features of %d", n, len(c.Cost))
		}
	})
}
