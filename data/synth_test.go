package data

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestSynthMSLRCosts(t *testing.T) {
	c := MSLRCosts()
	if len(c) != 136 {
		t.Fatalf("len(MSLRCosts()) = %d, want 136", len(c))
	}
	// Counts and sum from shared/data/PROVENANCE.md.
	want := map[float64]int{1: 16, 10: 46, 20: 40, 50: 24, 100: 10}
	got := map[float64]int{}
	sum := 0.0
	for _, v := range c {
		got[v]++
		sum += v
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("features per cost = %v, want %v", got, want)
	}
	if sum != 3476 {
		t.Errorf("sum of costs = %v, want 3476", sum)
	}
	if c[0] != 50 || c[10] != 1 || c[100] != 100 || c[135] != 1 {
		t.Errorf("costs of features 1, 11, 101, 136 = %v %v %v %v, want 50 1 100 1", c[0], c[10], c[100], c[135])
	}
	c[0] = -1
	if MSLRCosts()[0] != 50 {
		t.Error("MSLRCosts returned a shared slice")
	}
}

func TestSynthValidate(t *testing.T) {
	ok := SynthOptions{Queries: 1, DocsPerQuery: 1}
	tests := []struct {
		name string
		edit func(*SynthOptions)
		want string // substring of the error; "" = valid
	}{
		{"minimal", func(o *SynthOptions) {}, ""},
		{"costs set features", func(o *SynthOptions) { o.Costs = []float64{1, 0, 5} }, ""},
		{"explicit features", func(o *SynthOptions) { o.Features = 7 }, ""},
		{"zero queries", func(o *SynthOptions) { o.Queries = 0 }, "--queries must be at least 1"},
		{"negative queries", func(o *SynthOptions) { o.Queries = -3 }, "--queries must be at least 1"},
		{"zero docs", func(o *SynthOptions) { o.DocsPerQuery = 0 }, "--docs-per-query must be at least 1"},
		{"huge docs", func(o *SynthOptions) { o.DocsPerQuery = 1 << 30 }, "--docs-per-query must be at most"},
		{"negative features", func(o *SynthOptions) { o.Features = -1 }, "--features must be at least 1"},
		{"huge features", func(o *SynthOptions) { o.Features = 1 << 30 }, "--features must be at most"},
		{"largest flags each", func(o *SynthOptions) { o.DocsPerQuery = MaxSynthDocsPerQuery }, ""},
		{"query too large", func(o *SynthOptions) { o.DocsPerQuery = MaxSynthDocsPerQuery; o.Features = MaxSynthFeatures },
			"--docs-per-query 100000 with 99999 features: the largest query (150000 documents) would hold 14999850000 values in memory, more than 33554432"},
		// 224 documents a query: up to 336; 336 × 99864 = 33554304 ≤ 2²⁵ < 336 × 99865.
		{"query just fits", func(o *SynthOptions) { o.DocsPerQuery = 224; o.Features = 99864 }, ""},
		{"query just too large", func(o *SynthOptions) { o.DocsPerQuery = 224; o.Features = 99865 }, "the largest query (336 documents) would hold 33554640 values"},
		{"cost length", func(o *SynthOptions) { o.Features = 136; o.Costs = []float64{1, 2} }, "--costs gives 2 costs but --features is 136"},
		{"empty costs", func(o *SynthOptions) { o.Costs = []float64{} }, "--costs: no costs"},
		{"negative cost", func(o *SynthOptions) { o.Costs = []float64{1, -2} }, "--costs: feature 2 has cost -2"},
		{"NaN cost", func(o *SynthOptions) { o.Costs = []float64{math.NaN()} }, "--costs: feature 1 has cost NaN"},
		{"Inf cost", func(o *SynthOptions) { o.Costs = []float64{1, 1, math.Inf(1)} }, "--costs: feature 3 has cost +Inf"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := ok
			tc.edit(&o)
			err := o.Validate()
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("Validate() = %v, want nil", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("Validate() = %v, want an error containing %q", err, tc.want)
			}
			if tc.want != "" {
				// WriteSynthetic refuses the same options before writing.
				var buf bytes.Buffer
				if _, err := WriteSynthetic(context.Background(), &buf, o); err == nil || buf.Len() != 0 {
					t.Errorf("WriteSynthetic = %v with %d bytes, want the Validate error and no output", err, buf.Len())
				}
			}
		})
	}
}

func TestSynthAppendFixed4(t *testing.T) {
	tests := []struct {
		v    float64
		want string
	}{
		{0, "0"},
		{1, "1"},
		{12.5, "12.5"},
		{0.1234, "0.1234"},
		{0.12345678, "0.1235"},
		{-0.07, "-0.07"},
		{0.00004, "0"},
		{-0.00004, "0"},
		{0.00005, "0.0001"},
		{9.99996, "10"},
		{9999.9999, "9999.9999"},
		{9999.99996, "10000"},
		{10000.5, "10000.5"},
		{1234567.0001, "1234567.0001"},
		{-30.25, "-30.25"},
		{2e9, "1000000000"},
		{math.Inf(-1), "-1000000000"},
		{math.NaN(), "0"},
	}
	for _, tc := range tests {
		if got := string(appendFixed4(nil, tc.v)); got != tc.want {
			t.Errorf("appendFixed4(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
	// Against strconv on the same four-decimal value: the shortest decimal of
	// k/1e4 is the decimal we mean to write.
	for i := range 20000 {
		v := math.Sin(float64(i)) * math.Pow(10, float64(i%13-4))
		k := math.Round(v * 1e4)
		want := strconv.FormatFloat(k/1e4, 'f', -1, 64)
		if k == 0 {
			want = "0"
		}
		got := string(appendFixed4(nil, v))
		if got != want {
			t.Fatalf("appendFixed4(%v) = %q, want %q", v, got, want)
		}
		p, err := strconv.ParseFloat(got, 64)
		if err != nil || math.Abs(p-v) > 0.5e-4+1e-12*math.Abs(v) {
			t.Fatalf("appendFixed4(%v) = %q parses to %v, %v", v, got, p, err)
		}
	}
}

// synthDoc is one parsed line of a synthetic file.
type synthDoc struct {
	label int
	qid   int
	docID string
	x     []float64
}

// parseSynth is an independent, straightforward LETOR line parser.
func parseSynth(t *testing.T, text string, features int) []synthDoc {
	t.Helper()
	if !strings.HasSuffix(text, "\n") {
		t.Fatal("output does not end in a newline")
	}
	if strings.Contains(text, "\r") {
		t.Fatal("output contains CR")
	}
	var docs []synthDoc
	for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		body, comment, ok := strings.Cut(line, "#")
		if !ok {
			t.Fatalf("line %d: no comment: %q", i+1, line)
		}
		fields := strings.Fields(body)
		if len(fields) != 2+features {
			t.Fatalf("line %d: %d fields, want %d", i+1, len(fields), 2+features)
		}
		var d synthDoc
		var err error
		if d.label, err = strconv.Atoi(fields[0]); err != nil {
			t.Fatalf("line %d: label: %v", i+1, err)
		}
		qid, ok := strings.CutPrefix(fields[1], "qid:")
		if !ok {
			t.Fatalf("line %d: %q is not qid:Q", i+1, fields[1])
		}
		if d.qid, err = strconv.Atoi(qid); err != nil {
			t.Fatalf("line %d: qid: %v", i+1, err)
		}
		for f, fv := range fields[2:] {
			idx, val, ok := strings.Cut(fv, ":")
			if !ok || idx != strconv.Itoa(f+1) {
				t.Fatalf("line %d: field %q, want feature %d", i+1, fv, f+1)
			}
			v, err := strconv.ParseFloat(val, 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("line %d: feature %d: %q: %v", i+1, f+1, val, err)
			}
			d.x = append(d.x, v)
		}
		id, ok := strings.CutPrefix(comment, "docid = ")
		if !ok {
			t.Fatalf("line %d: comment %q", i+1, comment)
		}
		d.docID = id
		docs = append(docs, d)
	}
	return docs
}

func synthBytes(t testing.TB, o SynthOptions) []byte {
	t.Helper()
	var buf bytes.Buffer
	n, err := WriteSynthetic(context.Background(), &buf, o)
	if err != nil {
		t.Fatal(err)
	}
	if got := bytes.Count(buf.Bytes(), []byte("\n")); got != n {
		t.Fatalf("WriteSynthetic reported %d docs, wrote %d lines", n, got)
	}
	return buf.Bytes()
}

func TestSynthDefaults(t *testing.T) {
	mslr := MSLRCosts()
	tests := []struct {
		name     string
		o        SynthOptions
		features int
		cost     func(f int) float64
	}{
		{"none", SynthOptions{}, 136, func(f int) float64 { return mslr[f] }},
		{"136", SynthOptions{Features: 136}, 136, func(f int) float64 { return mslr[f] }},
		{"cycled", SynthOptions{Features: 300}, 300, func(f int) float64 { return mslr[f%136] }},
		{"fewer", SynthOptions{Features: 20}, 20, func(f int) float64 { return mslr[f] }},
		{"own", SynthOptions{Costs: []float64{3, 1, 2}}, 3, func(f int) float64 { return float64([]int{3, 1, 2}[f]) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.o.costs()
			if tc.o.features() != tc.features || len(c) != tc.features {
				t.Fatalf("features() = %d with %d costs, want %d", tc.o.features(), len(c), tc.features)
			}
			for f := range c {
				if c[f] != tc.cost(f) {
					t.Fatalf("cost of feature %d = %v, want %v", f+1, c[f], tc.cost(f))
				}
			}
		})
	}
}

// TestSynthWideLine checks the largest feature count: every index is written.
func TestSynthWideLine(t *testing.T) {
	o := SynthOptions{Queries: 1, DocsPerQuery: 1, Features: 99_999, Seed: 3}
	docs := parseSynth(t, string(synthBytes(t, o)), o.Features)
	if len(docs) != 1 || len(docs[0].x) != 99_999 {
		t.Fatalf("got %d docs", len(docs))
	}
	o.Features++
	if err := o.Validate(); err == nil {
		t.Error("Validate accepts 100000 features")
	}
}

func TestSynthReproducible(t *testing.T) {
	base := SynthOptions{Queries: 30, DocsPerQuery: 20, Seed: 7}
	a := synthBytes(t, base)
	b := synthBytes(t, base)
	if !bytes.Equal(a, b) {
		t.Fatal("the same options gave different bytes")
	}
	other := base
	other.Seed = 8
	if bytes.Equal(a, synthBytes(t, other)) {
		t.Fatal("seeds 7 and 8 gave the same bytes")
	}
	// A run is not changed by what happened before it in the process.
	_ = synthBytes(t, SynthOptions{Queries: 3, DocsPerQuery: 5, Seed: 7, Features: 9})
	if !bytes.Equal(a, synthBytes(t, base)) {
		t.Fatal("a third run with the same options gave different bytes")
	}
}

func TestSynthShape(t *testing.T) {
	tests := []struct {
		name string
		o    SynthOptions
	}{
		{"mslr", SynthOptions{Queries: 200, DocsPerQuery: 50, Seed: 1}},
		{"mslr other seed", SynthOptions{Queries: 200, DocsPerQuery: 50, Seed: 99}},
		{"cycled costs", SynthOptions{Queries: 100, DocsPerQuery: 60, Features: 200, Seed: 2}},
		{"own costs", SynthOptions{Queries: 300, DocsPerQuery: 31, Costs: []float64{1, 5, 5, 20, 0, 150, 10000}, Seed: 3}},
		{"one feature", SynthOptions{Queries: 500, DocsPerQuery: 20, Features: 1, Seed: 4}},
		{"one doc per query", SynthOptions{Queries: 2000, DocsPerQuery: 1, Features: 3, Seed: 5}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.o
			d := o.features()
			docs := parseSynth(t, string(synthBytes(t, o)), d)
			lo, hi := max(1, o.DocsPerQuery/2), o.DocsPerQuery+o.DocsPerQuery/2

			// qids 1..Queries, contiguous and in order; docids syn-Q-J.
			qid, size := 0, 0
			var sizes []int
			labels := make([]int, 5)
			for i, doc := range docs {
				switch doc.qid {
				case qid:
					size++
				case qid + 1:
					if qid > 0 {
						sizes = append(sizes, size)
					}
					qid, size = doc.qid, 1
				default:
					t.Fatalf("doc %d: qid %d after qid %d", i, doc.qid, qid)
				}
				if want := fmt.Sprintf("syn-%d-%d", qid, size); doc.docID != want {
					t.Fatalf("doc %d: docid %q, want %q", i, doc.docID, want)
				}
				if doc.label < 0 || doc.label > 4 {
					t.Fatalf("doc %d: label %d", i, doc.label)
				}
				labels[doc.label]++
			}
			sizes = append(sizes, size)
			if qid != o.Queries || len(sizes) != o.Queries {
				t.Fatalf("%d queries ending at qid %d, want %d", len(sizes), qid, o.Queries)
			}
			for q, n := range sizes {
				if n < lo || n > hi {
					t.Errorf("query %d has %d docs, want %d..%d", q+1, n, lo, hi)
				}
			}
			mean := float64(len(docs)) / float64(o.Queries)
			if math.Abs(mean-float64(o.DocsPerQuery)) > 0.1*float64(o.DocsPerQuery) {
				t.Errorf("mean docs per query %.2f, want %d ± 10%%", mean, o.DocsPerQuery)
			}
			if o.DocsPerQuery >= 4 {
				// Sizes really vary over the range.
				smin, smax := hi, lo
				for _, n := range sizes {
					smin, smax = min(smin, n), max(smax, n)
				}
				if smin > lo+(hi-lo)/4 || smax < hi-(hi-lo)/4 {
					t.Errorf("docs per query span %d..%d, want most of %d..%d", smin, smax, lo, hi)
				}
			}

			zero := float64(labels[0]) / float64(len(docs))
			if zero < 0.4 || zero > 0.6 {
				t.Errorf("fraction of label 0 = %.3f, want 0.4..0.6 (labels %v)", zero, labels)
			}
			for l := 1; l <= 4; l++ {
				if labels[l] == 0 {
					t.Errorf("no document has label %d (labels %v)", l, labels)
				}
				if labels[l] > labels[l-1] {
					t.Errorf("label %d is more common than label %d (labels %v)", l, l-1, labels)
				}
			}
		})
	}
}

// TestSynthVariety checks that the MSLR-shaped set has the feature shapes the
// binning and tree code are tested against.
func TestSynthVariety(t *testing.T) {
	o := SynthOptions{Queries: 100, DocsPerQuery: 30, Seed: 11}
	docs := parseSynth(t, string(synthBytes(t, o)), 136)
	var unit, count, sparse, binary, negative int
	for f := range 136 {
		isUnit, isInt, isBinary := true, true, true
		zeros, neg := 0, 0
		distinct := map[float64]bool{}
		for _, doc := range docs {
			v := doc.x[f]
			distinct[v] = true
			isUnit = isUnit && v >= 0 && v <= 1
			isInt = isInt && v >= 0 && v == math.Trunc(v)
			isBinary = isBinary && (v == 0 || v == 1)
			if v == 0 {
				zeros++
			}
			if v < 0 {
				neg++
			}
		}
		if len(distinct) < 2 {
			t.Errorf("feature %d is constant", f+1)
		}
		switch {
		case isBinary:
			binary++
		case isInt:
			count++
		case isUnit && !isInt:
			unit++
		}
		if zeros > len(docs)/2 && !isBinary {
			sparse++
		}
		if neg > 0 {
			negative++
		}
	}
	t.Logf("unit %d, count %d, sparse %d, binary %d, with negatives %d", unit, count, sparse, binary, negative)
	if unit < 20 || count < 15 || sparse < 15 || binary < 3 || negative < 10 {
		t.Errorf("too little variety: unit %d, count %d, sparse %d, binary %d, with negatives %d",
			unit, count, sparse, binary, negative)
	}
}

func pearson(x, y []float64) float64 {
	n := float64(len(x))
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= n
	my /= n
	var sxy, sxx, syy float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
		syy += (y[i] - my) * (y[i] - my)
	}
	return sxy / math.Sqrt(sxx*syy)
}

// meanStandardised returns per document the mean of the z-scored features fs,
// so that a feature with a large scale does not drown the others.
func meanStandardised(docs []synthDoc, fs []int) []float64 {
	out := make([]float64, len(docs))
	for _, f := range fs {
		var m, s float64
		for _, d := range docs {
			m += d.x[f]
		}
		m /= float64(len(docs))
		for _, d := range docs {
			s += (d.x[f] - m) * (d.x[f] - m)
		}
		s = math.Sqrt(s / float64(len(docs)))
		for i, d := range docs {
			out[i] += (d.x[f] - m) / s / float64(len(fs))
		}
	}
	return out
}

func TestSynthInformative(t *testing.T) {
	costs := MSLRCosts()
	byCost := map[float64][]int{}
	for f, c := range costs {
		byCost[c] = append(byCost[c], f)
	}
	for _, seed := range []uint64{1, 2, 3} {
		o := SynthOptions{Queries: 100, DocsPerQuery: 40, Seed: seed}
		docs := parseSynth(t, string(synthBytes(t, o)), 136)
		y := make([]float64, len(docs))
		for i, d := range docs {
			y[i] = float64(d.label)
		}
		r := map[float64]float64{}
		for c, fs := range byCost {
			r[c] = pearson(y, meanStandardised(docs, fs))
		}
		t.Logf("seed %d, %d docs: corr(label, mean of features) by cost: 1 %.3f, 10 %.3f, 20 %.3f, 50 %.3f, 100 %.3f",
			seed, len(docs), r[1], r[10], r[20], r[50], r[100])
		if r[100] < 0.5 || r[100] < r[1]+0.3 {
			t.Errorf("seed %d: corr with cost-100 features %.3f, with cost-1 features %.3f: want the expensive ones clearly stronger",
				seed, r[100], r[1])
		}
		if r[1] < 0 || r[1] > 0.4 {
			t.Errorf("seed %d: corr with cost-1 features %.3f, want weak but not negative", seed, r[1])
		}
	}
}

// TestSynthConstantMemory checks that writing allocates the same whatever the
// number of queries: nothing is kept per query or per document.
func TestSynthConstantMemory(t *testing.T) {
	allocs := func(queries int) float64 {
		o := SynthOptions{Queries: queries, DocsPerQuery: 40, Seed: 1}
		return testing.AllocsPerRun(3, func() {
			if _, err := WriteSynthetic(context.Background(), io.Discard, o); err != nil {
				t.Fatal(err)
			}
		})
	}
	small, large := allocs(5), allocs(200)
	if large != small {
		t.Errorf("allocations: %v for 5 queries, %v for 500 queries; want the same", small, large)
	}
}

func TestSynthFile(t *testing.T) {
	dir := t.TempDir()
	o := SynthOptions{Queries: 40, DocsPerQuery: 25, Seed: 5}
	want := synthBytes(t, o)
	ndocs := bytes.Count(want, []byte("\n"))

	for _, name := range []string{"syn.txt", "syn.txt.gz"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name)
			var progress []int
			o := o
			o.Progress = func(n int) { progress = append(progress, n) }
			n, err := WriteSyntheticFile(context.Background(), path, o)
			if err != nil {
				t.Fatal(err)
			}
			if n != ndocs || len(progress) == 0 || progress[len(progress)-1] != ndocs {
				t.Errorf("docs %d, progress %v; want %d docs reported last", n, progress, ndocs)
			}
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got := raw
			if strings.HasSuffix(name, ".gz") {
				if len(raw) < 2 || raw[0] != 0x1f || raw[1] != 0x8b {
					t.Fatal("no gzip magic bytes")
				}
				zr, err := gzip.NewReader(bytes.NewReader(raw))
				if err != nil {
					t.Fatal(err)
				}
				if got, err = io.ReadAll(zr); err != nil {
					t.Fatal(err)
				}
				if err := zr.Close(); err != nil {
					t.Fatal(err)
				}
				if len(raw) >= len(want) {
					t.Errorf("gzip file %d bytes, not smaller than the text (%d)", len(raw), len(want))
				}
			}
			if !bytes.Equal(got, want) {
				t.Error("file content differs from WriteSynthetic's bytes")
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			// 0666 less the umask, as the shell's `>` makes a file.
			ref := filepath.Join(t.TempDir(), "ref")
			if err := os.WriteFile(ref, nil, 0o666); err != nil {
				t.Fatal(err)
			}
			if want, _ := os.Stat(ref); fi.Mode().Perm() != want.Mode().Perm() {
				t.Errorf("mode %v, want %v", fi.Mode().Perm(), want.Mode().Perm())
			}
		})
	}
	// Overwriting an existing file replaces it.
	path := filepath.Join(dir, "syn.txt")
	o.Queries = 2
	if _, err := WriteSyntheticFile(context.Background(), path, o); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, synthBytes(t, o)) {
		t.Error("rewritten file does not hold the new data set")
	}
	assertDir(t, dir, "syn.txt", "syn.txt.gz")
}

// assertDir fails unless dir holds exactly the named files.
func assertDir(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, ",") != strings.Join(names, ",") {
		t.Errorf("directory holds %q, want %q", got, names)
	}
}

func TestSynthCancel(t *testing.T) {
	tests := []struct {
		name        string
		file        string
		cancelAfter int // documents; 0 = cancelled before the call
	}{
		{"before", "syn.txt", 0},
		{"before gz", "syn.txt.gz", 0},
		{"during", "syn.txt", 1},
		{"during gz", "syn.txt.gz", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			o := SynthOptions{Queries: 5000, DocsPerQuery: 40, Features: 10, Seed: 1}
			if tc.cancelAfter == 0 {
				cancel()
			} else {
				o.Progress = func(int) { cancel() } // after the first ~65536 documents
			}
			n, err := WriteSyntheticFile(ctx, filepath.Join(dir, tc.file), o)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want context.Canceled", err)
			}
			if tc.cancelAfter > 0 && (n < 65536 || n >= 65536+100) {
				t.Errorf("stopped after %d docs, want within a query of 65536", n)
			}
			assertDir(t, dir)
		})
	}

	// WriteSynthetic itself stops at a query boundary.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var buf bytes.Buffer
	if n, err := WriteSynthetic(ctx, &buf, SynthOptions{Queries: 3, DocsPerQuery: 3}); n != 0 || !errors.Is(err, context.Canceled) {
		t.Errorf("WriteSynthetic on a cancelled ctx = %d, %v; want 0, context.Canceled", n, err)
	}
}

type failingWriter struct{ after int }

var errDiskFull = errors.New("disk full")

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.after < len(p) {
		return 0, errDiskFull
	}
	w.after -= len(p)
	return len(p), nil
}

func TestSynthWriteError(t *testing.T) {
	dir := t.TempDir()
	o := SynthOptions{Queries: 10, DocsPerQuery: 10, Seed: 1}
	for _, path := range []string{
		filepath.Join(dir, "missing", "syn.txt"),
		filepath.Join(dir, "missing", "syn.txt.gz"),
		filepath.Join(dir, "is-a-dir"),
	} {
		if err := os.Mkdir(filepath.Join(dir, "is-a-dir"), 0o755); err != nil && !os.IsExist(err) {
			t.Fatal(err)
		}
		_, err := WriteSyntheticFile(context.Background(), path, o)
		if err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("WriteSyntheticFile(%s) = %v, want an error naming the path", path, err)
		}
	}
	assertDir(t, dir, "is-a-dir")
	if entries, _ := os.ReadDir(filepath.Join(dir, "is-a-dir")); len(entries) != 0 {
		t.Errorf("is-a-dir holds %d entries, want none", len(entries))
	}

	// A writer that fails part way: the error comes back.
	o.Queries = 2000
	if _, err := WriteSynthetic(context.Background(), &failingWriter{after: 3 << 20}, o); !errors.Is(err, errDiskFull) {
		t.Errorf("WriteSynthetic to a failing writer = %v, want %v", err, errDiskFull)
	}
}

func BenchmarkWriteSynthetic(b *testing.B) {
	o := SynthOptions{Queries: 200, DocsPerQuery: 100, Seed: 1} // 20,000 docs × 136 features
	n, err := WriteSynthetic(context.Background(), io.Discard, o)
	if err != nil {
		b.Fatal(err)
	}
	size := len(synthBytes(b, o))
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := WriteSynthetic(context.Background(), io.Discard, o); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n), "docs/op")
}

// Another seed is another sample of the same world: the features' recipes
// depend on World only, so train, validation and test sets made with
// different seeds share them.
func TestSynthWorldSharedAcrossSeeds(t *testing.T) {
	costs := MSLRCosts()
	a := synthRecipes(costs, SynthOptions{Seed: 1}.WorldSeed())
	b := synthRecipes(costs, SynthOptions{Seed: 7}.WorldSeed())
	c := synthRecipes(costs, SynthOptions{Seed: 1, World: 2}.WorldSeed())
	if !reflect.DeepEqual(a, b) {
		t.Error("the recipes change with the seed")
	}
	if reflect.DeepEqual(a, c) {
		t.Error("the recipes do not change with the world")
	}
}
