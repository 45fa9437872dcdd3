package data

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

func TestReadCosts(t *testing.T) {
	tests := []struct {
		name        string
		in          string
		numFeatures int
		cost        []float64
		names       []string // nil: all ""
		defaulted   []int
	}{
		{"positional", "20\n10\n1\n", 3, []float64{20, 10, 1}, nil, nil},
		{"positional size from file", "20\n10\n1\n", 0, []float64{20, 10, 1}, nil, nil},
		{"positional comments and blanks",
			"# costs of the body features\n20 # tf\n\n  10\t\n\t# nothing\n1#idf\n", 0,
			[]float64{20, 10, 1}, nil, nil},
		{"positional CRLF", "5\r\n6\r\n\r\n# c\r\n7\r\n", 0, []float64{5, 6, 7}, nil, nil},
		{"positional no final newline", "5\n6", 0, []float64{5, 6}, nil, nil},
		{"positional byte order mark", "\xef\xbb\xbf5\n6\n", 0, []float64{5, 6}, nil, nil},
		{"positional numbers", "0\n-0\n0.5\n1e2\n+3\n.25\n7.\n", 0, []float64{0, 0, 0.5, 100, 3, 0.25, 7}, nil, nil},
		{"positional short file defaults the rest", "20\n10\n1\n", 5, []float64{20, 10, 1, 1, 1}, nil, []int{3, 4}},
		{"indexed with names",
			"1 20 body tf\n3\t0.5\t page rank  # from the crawl\n", 4,
			[]float64{20, 1, 0.5, 1}, []string{"body tf", "", "page rank", ""}, []int{1, 3}},
		{"indexed out of order", "3 1\n1 2\n2 3\n", 0, []float64{2, 3, 1}, nil, nil},
		{"indexed size from largest index", "# i c\n4 5\n2 7\n", 0, []float64{1, 7, 1, 5}, nil, []int{0, 2}},
		{"indexed CRLF and name with tabs", "1 2 a\tb \r\n2 3\r\n", 2, []float64{2, 3}, []string{"a\tb", ""}, nil},
		{"indexed leading zeros and plus", "01 4\n+2 5\n", 2, []float64{4, 5}, nil, nil},
		{"indexed zero cost", "1 0 free\n", 1, []float64{0}, []string{"free"}, nil},
		{"indexed comment eats name", "1 9 #name\n", 1, []float64{9}, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ReadCosts(strings.NewReader(tc.in), "c.txt", tc.numFeatures)
			if err != nil {
				t.Fatalf("ReadCosts: %v", err)
			}
			if !reflect.DeepEqual(c.Cost, tc.cost) {
				t.Errorf("Cost = %v, want %v", c.Cost, tc.cost)
			}
			names := tc.names
			if names == nil {
				names = make([]string, len(tc.cost))
			}
			if !reflect.DeepEqual(c.Name, names) {
				t.Errorf("Name = %q, want %q", c.Name, names)
			}
			if !reflect.DeepEqual(c.Defaulted, tc.defaulted) {
				t.Errorf("Defaulted = %v, want %v", c.Defaulted, tc.defaulted)
			}
		})
	}
}

func TestReadCostsNegativeZero(t *testing.T) {
	// -0 is a valid cost, stored as +0 so that it joins the group of 0.
	c, err := ReadCosts(strings.NewReader("0\n-0\n"), "c.txt", 0)
	if err != nil {
		t.Fatal(err)
	}
	if math.Signbit(c.Cost[1]) {
		t.Errorf("cost of -0 has its sign bit set")
	}
}

func TestReadCostsErrors(t *testing.T) {
	long := strings.Repeat("#", maxCostLine+1)
	tests := []struct {
		name        string
		in          string
		numFeatures int
		want        string
	}{
		{"cost not a number", "10\nabc\n", 0,
			`c.txt:2: cost "abc" is not a number, expected a number >= 0 such as 10 or 0.5`},
		{"cost hexadecimal", "0x10\n", 0,
			`c.txt:1: cost "0x10" is not a number, expected a number >= 0 such as 10 or 0.5`},
		{"cost with underscore", "1_000\n", 0,
			`c.txt:1: cost "1_000" is not a number, expected a number >= 0 such as 10 or 0.5`},
		{"long token shortened", "1\n" + strings.Repeat("a", 100) + "\n", 0,
			`c.txt:2: cost "` + strings.Repeat("a", 40) + `..." is not a number, expected a number >= 0 such as 10 or 0.5`},
		// Lines ended by a bare CR: the cause is named.
		{"bare cr", "1\r2\r", 0, `c.txt:1: ` + BareCR},
		{"bare cr, indexed", "1 10 bm25\r2 20 lmir\r", 0, `c.txt:1: ` + BareCR},
		// Not text: the number's characters were quoted between NULs.
		{"UTF-16", "\xff\xfe1\x00\n\x00", 0,
			`c.txt:1: UTF-16 text (its byte order mark); expected a cost file in UTF-8 or ASCII: convert it, e.g. iconv -f UTF-16 -t UTF-8`},
		{"binary", "1\n2\n\x93NUMPY\x01\x00v\n", 0,
			`c.txt:3: binary data (a NUL byte); expected a cost file, text`},
		// A model or cascade given for the costs, named as data files
		// name them: its first line was read as a cost or an index.
		{"JSON model", "{\"format\": \"cronus-ensemble\", \"version\": 1}\n", 0,
			`c.txt:1: JSON (a model or cascade file?), not a cost file; expected one cost per line or lines 'INDEX COST [NAME]'`},
		{"JSON model, indented", "\ufeff# c\n\n{\n  \"format\": \"cronus-cascade\",\n", 0,
			`c.txt:3: JSON (a model or cascade file?), not a cost file; expected one cost per line or lines 'INDEX COST [NAME]'`},
		{"LightGBM model", "tree\r\nversion=v4\n", 0,
			`c.txt:1: a LightGBM model (its line "tree"), not a cost file; expected one cost per line or lines 'INDEX COST [NAME]'`},
		{"RankLib model", "## LambdaMART\n<ensemble>\n", 0,
			`c.txt:2: XML (a RankLib model?), not a cost file; expected one cost per line or lines 'INDEX COST [NAME]'`},
		// A plot given for the costs, named as data files name it: an
		// SVG's XML declaration was "XML (a RankLib model?)", a PNG's
		// signature a cost that is not a number.
		{"SVG plot", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\">\n</svg>\n", 0,
			`c.txt:1: an SVG image (a plot?), not a cost file; expected one cost per line or lines 'INDEX COST [NAME]'`},
		{"SVG plot, no declaration", "<svg width=\"10\">\n</svg>\n", 0,
			`c.txt:1: an SVG image (a plot?), not a cost file; expected one cost per line or lines 'INDEX COST [NAME]'`},
		{"PNG plot", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", 0,
			`c.txt:1: a PNG image (a plot?), not a cost file; expected one cost per line or lines 'INDEX COST [NAME]'`},
		{"cost NaN", "1\n\n# c\nNaN\n", 0,
			`c.txt:4: cost "NaN" is not finite, expected a finite number >= 0`},
		{"cost +Inf", "1 +Inf\n", 0,
			`c.txt:1: cost "+Inf" is not finite, expected a finite number >= 0`},
		{"cost -infinity", "-infinity\n", 0,
			`c.txt:1: cost "-infinity" is not finite, expected a finite number >= 0`},
		{"cost overflows", "1\n1e999\n", 0,
			`c.txt:2: cost "1e999" is out of range, expected a finite number >= 0`},
		// Costs are summed per document and averaged: 1e308 made the
		// averages infinite, and cascade and eval panicked on them.
		{"cost too large", "1\n1e16\n", 0,
			`c.txt:2: cost "1e16" is too large, expected a number from 0 to 1e+15`},
		{"cost too large indexed", "1 5\n2 1e308 name\n", 0,
			`c.txt:2: cost "1e308" is too large, expected a number from 0 to 1e+15`},
		{"cost negative", "1\n2\n-0.5\n", 0,
			`c.txt:3: cost "-0.5" is negative, expected a number >= 0`},
		{"cost negative indexed", "1 2\n2 -3 name\n", 0,
			`c.txt:2: cost "-3" is negative, expected a number >= 0`},
		{"index zero", "# c\n0 5\n", 0,
			`c.txt:2: index "0" is not a positive integer: feature indices start at 1`},
		{"index negative", "1 5\n-2 5\n", 0,
			`c.txt:2: index "-2" is not a positive integer, expected a feature index from 1`},
		{"index fraction", "1.5 5\n", 0,
			`c.txt:1: index "1.5" is not a positive integer, expected a feature index from 1`},
		{"index word", "1 5\n\nbm25 5\n", 0,
			`c.txt:3: index "bm25" is not a positive integer, expected a feature index from 1`},
		{"index huge with data", "99999999999999999999999 1\n", 3,
			`c.txt:1: index 99999999999999999999999 out of range: the data has 3 features, and a cost file may describe at most 1048576`},
		{"index over the limit with data", "1 5\n1048577 1\n", 3,
			`c.txt:2: index 1048577 out of range: the data has 3 features, and a cost file may describe at most 1048576`},
		// With more features than maxCostFeatures the data's count is
		// the bound: the message said "at most 1048576" of an index
		// 2000001, when 1500000 was accepted.
		{"index over the data's features past the limit", "1500000 5\n2000001 1\n", 2000000,
			`c.txt:2: index 2000001 out of range: the data has 2000000 features`},
		{"index huge without data", "1 1\n99999999999999999999999 1\n", 0,
			`c.txt:2: index 99999999999999999999999 out of range: at most 1048576 features are supported without the data set`},
		{"index over the limit without data", "1048577 1\n", 0,
			`c.txt:1: index 1048577 out of range: at most 1048576 features are supported without the data set`},
		{"index twice", "1 5\n2 5\n# c\n01 6\n", 0,
			`c.txt:4: feature 1 given twice: first on line 1, expected each index once`},
		{"extra field positional", "5\n6\n\n7 8\n", 0,
			`c.txt:4: extra field "8" after the cost: expected one number per line, the form set by line 1 (a file cannot mix it with lines 'INDEX COST [NAME]')`},
		{"extra field positional after comment", "# c\r\n5\r\n6 name\r\n", 0,
			`c.txt:3: extra field "name" after the cost: expected one number per line, the form set by line 2 (a file cannot mix it with lines 'INDEX COST [NAME]')`},
		{"missing cost indexed", "\n1 5\n2\n", 0,
			`c.txt:3: missing cost after "2": expected 'INDEX COST [NAME]', the form set by line 2 (a file cannot mix it with one cost per line)`},
		{"line too long", "1\n" + long + "\n2\n", 0,
			`c.txt:2: line longer than 1048576 bytes, expected a short line per feature`},
		{"line too long without newline", "1\n2\n" + long, 0,
			`c.txt:3: line longer than 1048576 bytes, expected a short line per feature`},
		{"line too long with CRLF", "1\r\n" + long + "\r\n", 0,
			`c.txt:2: line longer than 1048576 bytes, expected a short line per feature`},
		{"empty file", "", 0,
			`c.txt: no costs in the file, expected one cost per line or lines 'INDEX COST [NAME]'`},
		{"only comments and blanks", "# costs\r\n\n   \t\n#\n", 10,
			`c.txt: no costs in the file, expected one cost per line or lines 'INDEX COST [NAME]'`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ReadCosts(strings.NewReader(tc.in), "c.txt", tc.numFeatures)
			if err == nil {
				t.Fatalf("ReadCosts = %v, want error %q", c.Cost, tc.want)
			}
			if err.Error() != tc.want {
				t.Errorf("error\n got %.300s\nwant %s", err, tc.want)
			}
			var pe *ParseError
			if !errors.As(err, &pe) || pe.File != "c.txt" {
				t.Errorf("error %T is not a *ParseError for c.txt", err)
			}
		})
	}
}

func TestReadCostsLongestLine(t *testing.T) {
	// A line of exactly maxCostLine bytes is allowed, with either ending.
	line := "1 2 " + strings.Repeat("x", maxCostLine-4)
	for _, end := range []string{"\n", "\r\n", ""} {
		c, err := ReadCosts(strings.NewReader("2 3\n"+line+end), "c.txt", 0)
		if err != nil {
			t.Fatalf("ending %q: %.200v", end, err)
		}
		if len(c.Name[0]) != maxCostLine-4 {
			t.Errorf("ending %q: name of %d bytes, want %d", end, len(c.Name[0]), maxCostLine-4)
		}
	}
}

func TestReadCostsReadError(t *testing.T) {
	r := io.MultiReader(strings.NewReader("1\n2\n3"), iotest.ErrReader(errors.New("disk on fire")))
	_, err := ReadCosts(r, "c.txt", 0)
	want := "c.txt:3: cannot read the line: disk on fire"
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
	}
}

func TestReadCostsFileReal(t *testing.T) {
	tests := []struct {
		file        string
		numFeatures int
		groups      map[float64]int // cost -> number of features
		sum         float64
	}{
		{"testdata/mq2008.feature_cost.txt", 46, map[float64]int{1: 11, 10: 12, 20: 6, 50: 9, 100: 8}, 1501},
		{"testdata/mslr-web10k.feature_cost.txt", 136, map[float64]int{1: 16, 10: 46, 20: 40, 50: 24, 100: 10}, 3476},
	}
	for _, tc := range tests {
		for _, nf := range []int{tc.numFeatures, 0} {
			c, err := ReadCostsFile(tc.file, nf)
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Cost) != tc.numFeatures || len(c.Defaulted) != 0 || c.Warning() != "" {
				t.Errorf("%s (numFeatures %d): %d costs, defaulted %v, warning %q; want %d, none",
					tc.file, nf, len(c.Cost), c.Defaulted, c.Warning(), tc.numFeatures)
			}
			sum := 0.0
			for _, v := range c.Cost {
				sum += v
			}
			if sum != tc.sum {
				t.Errorf("%s: sum of costs %g, want %g", tc.file, sum, tc.sum)
			}
			got := map[float64]int{}
			prev := -1.0
			for _, g := range c.Groups() {
				if g.Cost <= prev {
					t.Errorf("%s: group costs not ascending: %g after %g", tc.file, g.Cost, prev)
				}
				prev = g.Cost
				got[g.Cost] = len(g.Features)
				for i, f := range g.Features {
					if c.Cost[f] != g.Cost || i > 0 && f <= g.Features[i-1] {
						t.Errorf("%s: group %g holds feature %d of cost %g (or out of order)", tc.file, g.Cost, f+1, c.Cost[f])
					}
				}
			}
			if !reflect.DeepEqual(got, tc.groups) {
				t.Errorf("%s: groups %v, want %v", tc.file, got, tc.groups)
			}
		}
	}

	// MQ2008 per PROVENANCE.md: features 16-20 (DL) cost 1, 21 (BM25 body) 100.
	c, err := ReadCostsFile("testdata/mq2008.feature_cost.txt", 50)
	if err != nil {
		t.Fatal(err)
	}
	if c.Cost[15] != 1 || c.Cost[19] != 1 || c.Cost[20] != 100 {
		t.Errorf("MQ2008 costs of features 16, 20, 21 = %g, %g, %g; want 1, 1, 100", c.Cost[15], c.Cost[19], c.Cost[20])
	}
	want := "testdata/mq2008.feature_cost.txt: no cost for features 47-50 (4 features); they cost 1"
	if c.Warning() != want {
		t.Errorf("Warning() = %q, want %q", c.Warning(), want)
	}
	// A sparse file that leaves feature 46 out of every line has 45
	// features; the cost file's 46th cost is not used, and said so.
	c, err = ReadCostsFile("testdata/mq2008.feature_cost.txt", 45)
	if err != nil {
		t.Fatalf("45 features: %v", err)
	}
	if len(c.Cost) != 45 || c.Cost[20] != 100 || c.Warning() != "" {
		t.Errorf("45 features: %d costs, feature 21 %g, warning %q; want 45, 100, none", len(c.Cost), c.Cost[20], c.Warning())
	}
	want = "testdata/mq2008.feature_cost.txt: the cost of feature 46 is not used: the data has features up to 45"
	if got := c.UnusedWarning(); got != want {
		t.Errorf("45 features: UnusedWarning() = %q, want %q", got, want)
	}
}

// TestCostsBeyondData: costs past the data's features are checked, then
// left out and counted, in either form, and the warning names them.
func TestCostsBeyondData(t *testing.T) {
	tests := []struct {
		name, in   string
		features   int
		want       []float64
		defaulted  []int
		unusedWarn string
	}{
		{"positional", "# c\n1\n\n2\n3\n7\n", 2, []float64{1, 2}, nil,
			"c.txt: the costs of features 3-4 (2 features) are not used: the data has features up to 2"},
		{"indexed", "1 5\n4 1\n", 3, []float64{5, 1, 1}, []int{1, 2},
			"c.txt: the cost of feature 4 is not used: the data has features up to 3"},
		{"indexed gaps", "9 2\n2 3\n6 1\n", 3, []float64{1, 3, 1}, []int{0, 2},
			"c.txt: the costs of features up to 9 (2 features) are not used: the data has features up to 3"},
		{"none beyond", "1 5\n3 1\n", 3, []float64{5, 1, 1}, []int{1}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ReadCosts(strings.NewReader(tc.in), "c.txt", tc.features)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(c.Cost, tc.want) || !slices.Equal(c.Defaulted, tc.defaulted) {
				t.Errorf("costs %v, defaulted %v; want %v, %v", c.Cost, c.Defaulted, tc.want, tc.defaulted)
			}
			if got := c.UnusedWarning(); got != tc.unusedWarn {
				t.Errorf("UnusedWarning() = %q, want %q", got, tc.unusedWarn)
			}
		})
	}
	// A value past the data's features is still checked.
	if _, err := ReadCosts(strings.NewReader("1\n2\nx\n"), "c.txt", 2); err == nil || err.Error() != `c.txt:3: cost "x" is not a number, expected a number >= 0 such as 10 or 0.5` {
		t.Errorf("bad cost beyond the data: %v", err)
	}
}

func TestReadCostsFileGzip(t *testing.T) {
	plain, err := os.ReadFile("testdata/mslr-web10k.feature_cost.txt")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(plain)
	zw.Close()
	dir := t.TempDir()
	path := filepath.Join(dir, "costs.txt") // the name does not say gzip
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := ReadCostsFile(path, 136)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := ReadCostsFile("testdata/mslr-web10k.feature_cost.txt", 136)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.Cost, ref.Cost) {
		t.Errorf("gzip costs differ from plain costs")
	}
	// A byte order mark inside the compressed text is skipped too.
	var withBOM bytes.Buffer
	zw = gzip.NewWriter(&withBOM)
	zw.Write(append([]byte("\xef\xbb\xbf"), plain...))
	zw.Close()
	bom := filepath.Join(dir, "bom.gz")
	os.WriteFile(bom, withBOM.Bytes(), 0o644)
	if c, err := ReadCostsFile(bom, 136); err != nil || !reflect.DeepEqual(c.Cost, ref.Cost) {
		t.Errorf("gzip costs with a byte order mark: error %v, or costs differ from plain costs", err)
	}

	bad := filepath.Join(dir, "bad.gz")
	os.WriteFile(bad, []byte{0x1f, 0x8b, 0, 0, 0, 0, 0, 0, 0, 0xff, 0}, 0o644)
	if _, err := ReadCostsFile(bad, 0); err == nil || !strings.HasPrefix(err.Error(), bad+": corrupt gzip header") {
		t.Errorf("corrupt gzip: error = %v", err)
	}
	truncated := filepath.Join(dir, "truncated.gz")
	os.WriteFile(truncated, buf.Bytes()[:buf.Len()-6], 0o644)
	if _, err := ReadCostsFile(truncated, 0); err == nil || err.Error() != truncated+":137: gzip stream is truncated (unexpected end of data)" {
		t.Errorf("truncated gzip: error = %v", err)
	}
	// Bytes after the stream that are not another member: gzip -d warns
	// "trailing garbage ignored"; we refuse the file, saying so, 4 bytes
	// or 20 (gzip's header is 10).
	for _, junk := range []string{"junk", "junk0123456789abcdef"} {
		trailing := filepath.Join(dir, "trailing.gz")
		os.WriteFile(trailing, append(bytes.Clone(buf.Bytes()), junk...), 0o644)
		if _, err := ReadCostsFile(trailing, 0); err == nil || err.Error() != trailing+": data after the end of the gzip stream that is not gzip (trailing garbage)" {
			t.Errorf("%d bytes after the gzip stream: error = %v", len(junk), err)
		}
	}
	if _, err := ReadCostsFile(filepath.Join(dir, "missing.txt"), 0); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: error = %v, want not exist", err)
	}
}

func TestCostsGroups(t *testing.T) {
	c := &Costs{Cost: []float64{5, 1, 5, 0, 1, 0.5}}
	want := []CostGroup{
		{Cost: 0, Features: []int{3}},
		{Cost: 0.5, Features: []int{5}},
		{Cost: 1, Features: []int{1, 4}},
		{Cost: 5, Features: []int{0, 2}},
	}
	if got := c.Groups(); !reflect.DeepEqual(got, want) {
		t.Errorf("Groups() = %v, want %v", got, want)
	}
	if got := (&Costs{}).Groups(); len(got) != 0 {
		t.Errorf("Groups() of no features = %v, want none", got)
	}
}

func TestUniformCosts(t *testing.T) {
	c := UniformCosts(3)
	if !reflect.DeepEqual(c.Cost, []float64{1, 1, 1}) || len(c.Name) != 3 || len(c.Defaulted) != 0 || c.Warning() != "" {
		t.Errorf("UniformCosts(3) = %+v, warning %q", c, c.Warning())
	}
	if g := c.Groups(); len(g) != 1 || g[0].Cost != 1 || !reflect.DeepEqual(g[0].Features, []int{0, 1, 2}) {
		t.Errorf("UniformCosts(3).Groups() = %v", g)
	}
}

func TestCostsWarning(t *testing.T) {
	many := make([]int, 0, 40)
	for f := 0; f < 40; f += 3 {
		many = append(many, f)
	}
	tests := []struct {
		file      string
		defaulted []int
		want      string
	}{
		{"c.txt", nil, ""},
		{"c.txt", []int{6}, "c.txt: no cost for feature 7 (1 feature); it costs 1"},
		{"c.txt", []int{46, 47, 48, 49}, "c.txt: no cost for features 47-50 (4 features); they cost 1"},
		{"c.txt", []int{0, 1, 2, 5, 7, 8}, "c.txt: no cost for features 1-3, 6, 8-9 (6 features); they cost 1"},
		{"c.txt", many, "c.txt: no cost for features 1, 4, 7, 10, 13, 16, 19, 22, 25, 28, ... (14 features); they cost 1"},
		{"", []int{0, 1}, "no cost for features 1-2 (2 features); they cost 1"},
	}
	for _, tc := range tests {
		c := &Costs{Defaulted: tc.defaulted, file: tc.file}
		if got := c.Warning(); got != tc.want {
			t.Errorf("Warning() of %v\n got %q\nwant %q", tc.defaulted, got, tc.want)
		}
	}
	// ReadCosts fills in the file name.
	c, err := ReadCosts(strings.NewReader("2 5\n"), "costs.txt", 3)
	if err != nil {
		t.Fatal(err)
	}
	if want := "costs.txt: no cost for features 1, 3 (2 features); they cost 1"; c.Warning() != want {
		t.Errorf("Warning() = %q, want %q", c.Warning(), want)
	}
}

// A built-in data set given as costs (a slip of --costs for --train) is
// read as a path's gzip file is, decompressed: its message showed the
// gzip bytes as the cost. It says the line is one of data.
func TestLoadCostsBuiltinGzip(t *testing.T) {
	_, err := LoadCosts("builtin:mq2008/train", 46)
	const want = `builtin:mq2008/train:1: index "0" is not a positive integer: feature indices start at 1 (this is a line of SVMlight data, 'LABEL qid:Q INDEX:VALUE …': a cost file has 'INDEX COST [NAME]' or one cost per line)`
	if err == nil || err.Error() != want {
		t.Errorf("error %.200q, want %q", err, want)
	}
	c, err := LoadCosts("builtin:mq2008/costs", 46)
	if err != nil || len(c.Cost) != 46 {
		t.Fatalf("builtin costs: %v", err)
	}
}

// TestCostsDataLineHint: a line of SVMlight data in a cost file is named
// as such, whatever its label; a cost line whose name has a colon is not.
func TestCostsDataLineHint(t *testing.T) {
	const hint = "(this is a line of SVMlight data"
	for _, tc := range []struct {
		text string
		hint bool
	}{
		{"2 qid:10 1:0.5 2:0.25\n", true},
		{"1 3:0.5 4:1\n", true},
		{"1 1\n2 x:y\n", false},
		{"1 nan name:with:colons\n", false},
	} {
		_, err := ReadCosts(strings.NewReader(tc.text), "c.txt", 4)
		if err == nil {
			t.Fatalf("%q: no error", tc.text)
		}
		if strings.Contains(err.Error(), hint) != tc.hint {
			t.Errorf("%q: %v (hint wanted: %v)", tc.text, err, tc.hint)
		}
	}
}

// The MSLR-WEB10K costs that gen gives its features are a built-in name,
// so its data has a cost file where no source tree is at hand (a binary
// from go install): the same costs as gen's, in the same order.
func TestLoadCostsBuiltinMSLR(t *testing.T) {
	c, err := LoadCosts("builtin:mslr-web10k/costs", 136)
	if err != nil {
		t.Fatal(err)
	}
	if w := c.Warning(); w != "" {
		t.Errorf("warning %q", w)
	}
	gen := MSLRCosts()
	if len(c.Cost) != len(gen) {
		t.Fatalf("%d costs, gen's %d", len(c.Cost), len(gen))
	}
	groups := map[float64]int{}
	for f, v := range c.Cost {
		if v != gen[f] {
			t.Errorf("feature %d costs %v, gen's %v", f+1, v, gen[f])
		}
		groups[v]++
	}
	// The file's five groups, as README's Built-in data section counts them.
	want := map[float64]int{1: 16, 10: 46, 20: 40, 50: 24, 100: 10}
	if !reflect.DeepEqual(groups, want) {
		t.Errorf("cost groups %v, want %v", groups, want)
	}
	if !slices.Contains(BuiltinNames(), "builtin:mslr-web10k/costs") {
		t.Errorf("BuiltinNames() = %v", BuiltinNames())
	}
}

// The bounds themselves are accepted: a cost of exactly MaxCost, and
// without the data set an index of exactly maxCostFeatures (one past
// either is refused, TestReadCostsErrors).
func TestReadCostsAtBounds(t *testing.T) {
	c, err := ReadCosts(strings.NewReader("1 1e15\n"), "c.txt", 1)
	if err != nil || c.Cost[0] != MaxCost {
		t.Errorf("cost 1e15: %v, %v; want it accepted", c, err)
	}
	c, err = ReadCosts(strings.NewReader("1048576 2\n"), "c.txt", 0)
	if err != nil || len(c.Cost) != maxCostFeatures || c.Cost[maxCostFeatures-1] != 2 {
		t.Errorf("index 1048576 without the data set: %v; want it accepted, of 1048576 costs", err)
	}
}
