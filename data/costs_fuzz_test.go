package data

import (
	"bufio"
	"bytes"
	"errors"
	"math"
	"reflect"
	"slices"
	"strconv"
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
		checkCostsRef(t, in, nf, c)
		n := 0
		for _, g := range c.Groups() {
			n += len(g.Features)
		}
		if n != len(c.Cost) {
			t.Fatalf("groups hold %d features of %d", n, len(c.Cost))
		}
	})
}

// checkCostsRef checks costs c, read without error from in, against a
// plain reading of the format: the data lines (comments cut, blanks
// trimmed), one cost each or 'INDEX COST [NAME]', each feature's cost and
// name as its line gives them, 1 for the features no line gives, and the
// lines for features past nf counted in Beyond.
func checkCostsRef(t *testing.T, in string, nf int, c *Costs) {
	t.Helper()
	type entry struct {
		cost float64
		name string
	}
	given := map[int]entry{} // 0-based feature
	n, indexed := 0, false
	for i, l := range strings.Split(strings.TrimPrefix(in, "\xef\xbb\xbf"), "\n") {
		l = strings.TrimSuffix(l, "\r")
		l, _, _ = strings.Cut(l, "#")
		f := strings.FieldsFunc(l, func(r rune) bool { return r == ' ' || r == '\t' })
		if len(f) == 0 {
			continue
		}
		if n == 0 && len(given) == 0 {
			indexed = len(f) > 1
		}
		if !indexed {
			v, err := strconv.ParseFloat(f[0], 64)
			if err != nil || len(f) != 1 {
				t.Fatalf("line %d %q: a cost file of one cost per line accepted", i+1, l)
			}
			given[n] = entry{v, ""}
			n++
			continue
		}
		idx, err1 := strconv.Atoi(f[0])
		v, err2 := strconv.ParseFloat(f[1], 64)
		if err1 != nil || err2 != nil || idx < 1 {
			t.Fatalf("line %d %q: 'INDEX COST' accepted", i+1, l)
		}
		_, after, _ := strings.Cut(strings.TrimLeft(l, " \t"), f[0])
		_, after, _ = strings.Cut(strings.TrimLeft(after, " \t"), f[1])
		given[idx-1] = entry{v, strings.Trim(after, " \t")}
		n = max(n, idx)
	}
	want := nf
	if nf == 0 {
		want = n
	}
	if len(c.Cost) != want {
		t.Fatalf("%d costs, want %d", len(c.Cost), want)
	}
	beyond, beyondMax := 0, 0
	for f, e := range given {
		if f >= want {
			beyond++
			beyondMax = max(beyondMax, f+1)
		} else if c.Cost[f] != e.cost || c.Name[f] != e.name {
			t.Fatalf("feature %d: cost %g name %q, want %g %q", f+1, c.Cost[f], c.Name[f], e.cost, e.name)
		}
	}
	if c.Beyond != beyond || c.BeyondMax != beyondMax {
		t.Fatalf("Beyond %d, BeyondMax %d, want %d %d", c.Beyond, c.BeyondMax, beyond, beyondMax)
	}
	var defaulted []int
	for f := range want {
		if _, ok := given[f]; !ok {
			defaulted = append(defaulted, f)
			if c.Cost[f] != 1 || c.Name[f] != "" {
				t.Fatalf("feature %d, given no cost: %g %q", f+1, c.Cost[f], c.Name[f])
			}
		}
	}
	if !slices.Equal(c.Defaulted, defaulted) {
		t.Fatalf("Defaulted %v, want %v", c.Defaulted, defaulted)
	}
}
