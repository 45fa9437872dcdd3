package data

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Metamorphic tests of the SVMlight/LETOR reader: each transforms the text
// of a file in a way the format (README, "File formats") says does not
// change what it holds, or changes it in a known way, and compares the two
// readings.

// mmDoc is one document of a generated file.
type mmDoc struct {
	label float64
	qid   int
	idx   []int     // ascending feature indices
	val   []float64 // their values
	id    string    // document id ("" for none)
}

// mmDocs makes a file's worth of documents: 30 queries of 1 to 8
// documents, features 1 to 15 each given with probability 2/3 (feature 15
// on the first document always, so that every reading has 15 columns),
// values of various magnitudes and signs, some documents with ids.
func mmDocs(seed uint64) []mmDoc {
	r := rand.New(rand.NewPCG(seed, 77))
	var docs []mmDoc
	for q := 0; q < 30; q++ {
		qid := 100 + 3*q
		for j := 0; j < 1+r.IntN(8); j++ {
			d := mmDoc{label: float64(r.IntN(5)), qid: qid}
			for f := 1; f <= 15; f++ {
				if r.IntN(3) > 0 || (len(docs) == 0 && f == 15) {
					v := r.NormFloat64() * math.Pow(10, float64(r.IntN(9)-4))
					if r.IntN(6) == 0 {
						v = float64(r.IntN(20)) // small integers, as LETOR's counts
					}
					d.idx = append(d.idx, f)
					d.val = append(d.val, v)
				}
			}
			if r.IntN(2) == 0 {
				d.id = fmt.Sprintf("docid = GX%03d-%02d inc = 1", q, j)
			}
			docs = append(docs, d)
		}
	}
	return docs
}

// mmStyle says how to write documents; the zero value is the plainest form:
// single spaces, LF, %g numbers, ascending indices, "label qid:Q i:v # id".
type mmStyle struct {
	sep     func(r *rand.Rand) string            // between tokens
	num     func(r *rand.Rand, v float64) string // a value or a label
	eol     string                               // line ending ("\n" when empty)
	perm    bool                                 // features in random order
	noFinal bool                                 // no line ending after the last line
}

func (s mmStyle) write(docs []mmDoc, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 5))
	sep := func() string {
		if s.sep == nil {
			return " "
		}
		return s.sep(r)
	}
	num := func(v float64) string {
		if s.num == nil {
			return strconv.FormatFloat(v, 'g', -1, 64)
		}
		return s.num(r, v)
	}
	eol := s.eol
	if eol == "" {
		eol = "\n"
	}
	var b strings.Builder
	for i, d := range docs {
		b.WriteString(num(d.label) + sep() + "qid:" + strconv.Itoa(d.qid))
		order := make([]int, len(d.idx))
		for k := range order {
			order[k] = k
		}
		if s.perm {
			r.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		}
		for _, k := range order {
			b.WriteString(sep() + strconv.Itoa(d.idx[k]) + ":" + num(d.val[k]))
		}
		if d.id != "" {
			b.WriteString(sep() + "#" + sep() + d.id)
		}
		if i < len(docs)-1 || !s.noFinal {
			b.WriteString(eol)
		}
	}
	return b.String()
}

// mmRead reads text, failing the test on an error.
func mmRead(t *testing.T, what, text string, opt ReadOptions) *Dataset {
	t.Helper()
	d, err := ReadBytes(context.Background(), "in.txt", []byte(text), opt)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return d
}

// mmSame fails the test unless a and b are the same data set (sameDataset:
// every field, the values bit for bit).
func mmSame(t *testing.T, what string, a, b *Dataset) {
	t.Helper()
	if !sameDataset(a, b) {
		t.Errorf("%s: the data set differs", what)
	}
}

// TestMetamorphicWhitespace: tokens are separated by blanks (spaces or
// tabs, any number), lines end in LF or CRLF, and the last line may lack
// its line ending (README: "LF or CRLF"; ReadFile's comment: blank-separated
// fields). So writing the same documents with tabs, runs of blanks, blanks
// at the start and end of lines and around the comment (whose id is
// trimmed), CRLF endings, or without the final newline, reads as the same
// data set, bit for bit.
func TestMetamorphicWhitespace(t *testing.T) {
	docs := mmDocs(1)
	blanks := func(r *rand.Rand) string {
		s := ""
		for range 1 + r.IntN(4) {
			s += []string{" ", "\t"}[r.IntN(2)]
		}
		return s
	}
	ref := mmRead(t, "plain", mmStyle{}.write(docs, 1), ReadOptions{})
	if ref.NumDocs() != len(docs) || ref.NumFeatures() != 15 {
		t.Fatalf("read %d documents of %d features, wrote %d of 15", ref.NumDocs(), ref.NumFeatures(), len(docs))
	}
	leading := strings.ReplaceAll("\n"+mmStyle{}.write(docs, 1), "\n", "\n \t ")[1:] // and " \t " after the last
	for _, c := range []struct {
		what string
		text string
	}{
		{"tabs", mmStyle{sep: func(*rand.Rand) string { return "\t" }}.write(docs, 1)},
		{"runs of blanks", mmStyle{sep: blanks}.write(docs, 1)},
		{"CRLF", mmStyle{eol: "\r\n"}.write(docs, 1)},
		{"trailing blanks", mmStyle{eol: " \t\n"}.write(docs, 1)},
		{"trailing blanks, CRLF", mmStyle{eol: "\t \r\n"}.write(docs, 1)},
		{"leading blanks", leading},
		{"no final newline", mmStyle{noFinal: true}.write(docs, 1)},
		{"CRLF, no final newline", mmStyle{eol: "\r\n", noFinal: true}.write(docs, 1)},
		{"all of them", mmStyle{sep: blanks, eol: "\t\r\n", noFinal: true}.write(docs, 1)},
	} {
		for _, chunk := range []int{0, 13} {
			mmSame(t, fmt.Sprintf("%s, chunk %d", c.what, chunk), ref, mmRead(t, c.what, c.text, ReadOptions{chunkSize: chunk}))
		}
	}
}

// TestMetamorphicComments: blank lines and lines whose first non-blank
// character is '#' are skipped, and the comment after '#' on a document's
// line is its id, trimmed (README). So inserting comment lines and blank
// lines anywhere (before the first document, inside and between queries,
// after the last) reads as the same data set; and appending "# X" to
// documents without an id changes exactly their ids, to X trimmed.
func TestMetamorphicComments(t *testing.T) {
	docs := mmDocs(2)
	text := mmStyle{}.write(docs, 2)
	ref := mmRead(t, "plain", text, ReadOptions{})

	r := rand.New(rand.NewPCG(2, 3))
	fillers := []string{"", "# a comment", "#", "   ", "\t# indented comment 1:5 qid:9", "#1 qid:1 1:1", "## docid = x", "\r"}
	var b strings.Builder
	lines := strings.SplitAfter(text, "\n")
	for _, l := range lines {
		for r.IntN(3) == 0 {
			b.WriteString(fillers[r.IntN(len(fillers))] + "\n")
		}
		b.WriteString(l)
	}
	b.WriteString("# the end, without a newline")
	mmSame(t, "comment and blank lines", ref, mmRead(t, "comment and blank lines", b.String(), ReadOptions{}))
	mmSame(t, "comment and blank lines, chunk 9", ref, mmRead(t, "comment and blank lines", b.String(), ReadOptions{chunkSize: 9}))

	// Ids on the documents that had none: only the ids change.
	withIDs := append([]mmDoc(nil), docs...)
	ids := make([]string, len(docs))
	for i := range withIDs {
		if withIDs[i].id == "" {
			withIDs[i].id = fmt.Sprintf("new %d\t ", i) // trailing blanks: trimmed
		}
		ids[i] = strings.TrimRight(withIDs[i].id, " \t")
	}
	got := mmRead(t, "ids added", mmStyle{}.write(withIDs, 2), ReadOptions{})
	for i := range ids {
		if got.DocID(i) != ids[i] {
			t.Fatalf("document %d: id %q, want %q", i, got.DocID(i), ids[i])
		}
	}
	want := *ref
	want.SetDocIDs(ids)
	mmSame(t, "ids added", &want, got)
}

// TestMetamorphicExplicitZero: an absent feature is 0 (README), so writing
// "f:0" for some of the features a line leaves out (up to the file's
// highest index) gives the same values; what changes is exactly the count
// of values given: Absent falls, and Given rises, by the zeros written.
// Under --absent missing (AbsentMissing) the left-out values are NaN, and
// exactly those written as 0 become 0.
func TestMetamorphicExplicitZero(t *testing.T) {
	docs := mmDocs(3)
	r := rand.New(rand.NewPCG(3, 4))
	zeroed := make([]mmDoc, len(docs))
	added := make([]int64, 15) // zeros written, per feature
	var where [][2]int         // (document, feature) of each zero
	for i, d := range docs {
		zd := mmDoc{label: d.label, qid: d.qid, id: d.id}
		k := 0
		for f := 1; f <= 15; f++ {
			if k < len(d.idx) && d.idx[k] == f {
				zd.idx, zd.val = append(zd.idx, f), append(zd.val, d.val[k])
				k++
			} else if r.IntN(2) == 0 {
				zd.idx, zd.val = append(zd.idx, f), append(zd.val, 0)
				added[f-1]++
				where = append(where, [2]int{i, f})
			}
		}
		zeroed[i] = zd
	}
	if len(where) == 0 {
		t.Fatal("no zero written")
	}
	for _, missing := range []bool{false, true} {
		opt := ReadOptions{AbsentMissing: missing}
		ref := mmRead(t, "sparse", mmStyle{}.write(docs, 3), opt)
		got := mmRead(t, "zeros written", mmStyle{}.write(zeroed, 3), opt)
		if missing {
			for _, w := range where {
				if v := ref.Cols[w[1]-1][w[0]]; v == v {
					t.Fatalf("missing: document %d feature %d left out reads %v, want NaN", w[0], w[1], v)
				}
				ref.Cols[w[1]-1][w[0]] = 0
			}
		}
		want := *ref
		want.Given = append([]int64(nil), ref.Given...)
		for f, n := range added {
			want.Given[f] += n
			want.Absent -= n
		}
		// The widest line's figures (for StrayWarning) count the zeros'
		// indices too; no warning either way.
		want.widest = got.widest
		if ref.StrayWarning() != "" || got.StrayWarning() != "" {
			t.Errorf("stray warnings %q, %q", ref.StrayWarning(), got.StrayWarning())
		}
		mmSame(t, fmt.Sprintf("missing %v", missing), &want, got)
	}
}

// TestMetamorphicFeatureOrder: indices may come in any order on a line
// (README: "each at most once per line, in any order"), so shuffling each
// line's IDX:VAL pairs reads as the same data set.
func TestMetamorphicFeatureOrder(t *testing.T) {
	docs := mmDocs(4)
	ref := mmRead(t, "sorted", mmStyle{}.write(docs, 4), ReadOptions{})
	for seed := uint64(0); seed < 4; seed++ {
		text := mmStyle{perm: true}.write(docs, seed)
		if text == (mmStyle{}).write(docs, 4) {
			t.Fatal("shuffling left every line as it was")
		}
		mmSame(t, fmt.Sprintf("shuffle %d", seed), ref, mmRead(t, "shuffled", text, ReadOptions{}))
		mmSame(t, fmt.Sprintf("shuffle %d, chunk 30", seed), ref, mmRead(t, "shuffled", text, ReadOptions{chunkSize: 30, Workers: 3}))
	}
}

// TestMetamorphicNumberSpellings: labels and values are read as the
// float64 nearest the decimal, rounded to float32 (README), so spellings of
// one decimal value (a sign, leading zeros, trailing zeros, a moved decimal
// point with its exponent, e or E) read as the same float32; so do qids
// written with leading zeros or a '+' (a qid is read as a number).
func TestMetamorphicNumberSpellings(t *testing.T) {
	docs := mmDocs(5)
	ref := mmRead(t, "shortest", mmStyle{}.write(docs, 5), ReadOptions{})
	// respell writes v's shortest decimal digits d1d2…dn and exponent in
	// one of several forms, all of the same decimal value.
	respell := func(r *rand.Rand, v float64) string {
		s := strconv.FormatFloat(math.Abs(v), 'e', -1, 64) // d.ddde±x
		mant, exps, _ := strings.Cut(s, "e")
		exp, _ := strconv.Atoi(exps)
		digits := strings.Replace(mant, ".", "", 1)
		exp -= len(digits) - 1 // v = digits × 10^exp
		sign := ""
		if v < 0 {
			sign = "-"
		} else if r.IntN(2) == 0 {
			sign = "+"
		}
		switch r.IntN(5) {
		case 0: // integer digits, exponent
			return sign + digits + "e" + strconv.Itoa(exp)
		case 1: // leading and trailing zeros, E
			return sign + "000" + digits + "000E" + strconv.Itoa(exp-3)
		case 2: // 0.digits, exponent
			return sign + "0." + digits + "e" + strconv.Itoa(exp+len(digits))
		case 3: // .digits with many trailing zeros
			return sign + "." + digits + strings.Repeat("0", 30) + fmt.Sprintf("e%+d", exp+len(digits))
		default: // plain decimal, no exponent
			if exp >= 0 {
				return sign + digits + strings.Repeat("0", exp) + ".000"
			}
			if n := len(digits) + exp; n > 0 {
				return sign + digits[:n] + "." + digits[n:] + "0"
			}
			return sign + "0." + strings.Repeat("0", -exp-len(digits)) + digits
		}
	}
	respellQID := func(r *rand.Rand, text string) string {
		return regexpQID(text, func(q string) string {
			return []string{"+", "0", "00", "+00"}[r.IntN(4)] + q
		})
	}
	for seed := uint64(0); seed < 4; seed++ {
		text := mmStyle{num: respell}.write(docs, seed)
		text = respellQID(rand.New(rand.NewPCG(seed, 9)), text)
		mmSame(t, fmt.Sprintf("spelling %d", seed), ref, mmRead(t, "respelled", text, ReadOptions{}))
	}
	// One value spelled many ways, and values past 19 significant digits
	// (which the reader gives to strconv) against strconv's float64.
	for _, group := range [][]string{
		{"1", "1.0", "1e0", "+1", "1.000000000000000001", "01", "1.", "10e-1", ".1e1", "100E-2", "0.0000000001e10"},
		{"0.1", ".1", "1e-1", "0.10000000000000000000000001", "+0.1000", "1000000000000000000000e-22"},
		{"-2.5", "-25e-1", "-2.50", "-0.25E1", "-2.4999999999999999999999999999999"},
		{"0", "0.0", "-0", "0e10", "000", ".0"},
		{"3.4028234663852886e38", "340282346638528859811704183484516925440", "3.40282346638528860e+38"},
		{"1.401298464324817e-45", "0.000000000000000000000000000000000000000000001401298464324817"},
	} {
		for _, s := range group {
			want, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatal(err)
			}
			d := mmRead(t, s, "1 qid:1 1:"+group[0]+" 2:"+s+"\n", ReadOptions{})
			if a, b := d.Cols[0][0], d.Cols[1][0]; a != b || math.Float32bits(b) != math.Float32bits(float32(want)) && want != 0 {
				t.Errorf("%q reads %v, %q %v; want %v", s, b, group[0], a, float32(want))
			}
		}
	}
}

// regexpQID replaces the number of each "qid:N" in text by f(N).
func regexpQID(text string, f func(string) string) string {
	var b strings.Builder
	for {
		i := strings.Index(text, "qid:")
		if i < 0 {
			return b.String() + text
		}
		b.WriteString(text[:i+4])
		text = text[i+4:]
		j := strings.IndexAny(text, " \t\n")
		b.WriteString(f(text[:j]))
		text = text[j:]
	}
}

// TestMetamorphicSplitAtQuery: a query's documents are contiguous lines,
// and nothing on a line depends on the lines before it, so cutting a file
// between two queries and reading each part gives the whole's queries, in
// order, with their documents, labels, values and ids: the parts'
// columns, padded to the whole's width (MinFeatures), are the whole's cut
// at the same document, and their Given counts add up to the whole's.
func TestMetamorphicSplitAtQuery(t *testing.T) {
	docs := mmDocs(6)
	whole := mmRead(t, "whole", mmStyle{}.write(docs, 6), ReadOptions{})
	for cut := 1; cut < len(docs); cut++ {
		if docs[cut].qid == docs[cut-1].qid {
			continue
		}
		// Chunk sizes that put chunk boundaries at other places in each part.
		opt := ReadOptions{MinFeatures: whole.NumFeatures(), chunkSize: 1 + cut%37}
		a := mmRead(t, "first part", mmStyle{}.write(docs[:cut], 6), opt)
		b := mmRead(t, "second part", mmStyle{}.write(docs[cut:], 6), opt)
		if a.NumFeatures() != whole.NumFeatures() || b.NumFeatures() != whole.NumFeatures() {
			t.Fatalf("cut %d: %d and %d features, the whole %d", cut, a.NumFeatures(), b.NumFeatures(), whole.NumFeatures())
		}
		var got Dataset
		got.Name, got.HasQID = whole.Name, true
		got.Labels = append(append([]float32(nil), a.Labels...), b.Labels...)
		got.QueryIDs = append(append([]int64(nil), a.QueryIDs...), b.QueryIDs...)
		got.QueryOffsets = append([]int(nil), a.QueryOffsets...)
		for _, o := range b.QueryOffsets[1:] {
			got.QueryOffsets = append(got.QueryOffsets, cut+o)
		}
		for f := range whole.Cols {
			got.Cols = append(got.Cols, append(append([]float32(nil), a.Cols[f]...), b.Cols[f]...))
		}
		ids := make([]string, 0, len(docs))
		for i := 0; i < a.NumDocs(); i++ {
			ids = append(ids, a.DocID(i))
		}
		for i := 0; i < b.NumDocs(); i++ {
			ids = append(ids, b.DocID(i))
		}
		got.SetDocIDs(ids)
		for f := range whole.Given {
			var n int64
			if f < len(a.Given) {
				n += a.Given[f]
			}
			if f < len(b.Given) {
				n += b.Given[f]
			}
			if n != whole.Given[f] {
				t.Errorf("cut %d: feature %d given %d times in the parts, %d in the whole", cut, f+1, n, whole.Given[f])
			}
		}
		// Compare what the parts hold, not how each file was summed up.
		want := Dataset{Name: whole.Name, HasQID: true, Labels: whole.Labels, QueryIDs: whole.QueryIDs,
			QueryOffsets: whole.QueryOffsets, Cols: whole.Cols}
		ids = ids[:0]
		for i := 0; i < whole.NumDocs(); i++ {
			ids = append(ids, whole.DocID(i))
		}
		want.SetDocIDs(ids)
		mmSame(t, fmt.Sprintf("cut %d", cut), &want, &got)
	}
}

// TestMetamorphicGzip: data files are plain text or gzip (README), and a
// gzip file may hold several members, as `cat a.gz b.gz > c.gz` makes
// (gzip -d reads them as one text; so must the reader). So the text,
// gzipped whole or as two or three members cut at any byte (inside a line,
// a CRLF, a number, the byte order mark), read from memory or from a file
// (whose text the reader spools for its second pass), reads as the plain
// text does.
func TestMetamorphicGzip(t *testing.T) {
	text := "\xef\xbb\xbf" + mmStyle{eol: "\r\n"}.write(mmDocs(7)[:40], 7)
	ref := mmRead(t, "plain", text, ReadOptions{})
	members := func(cuts ...int) []byte {
		var b bytes.Buffer
		prev := 0
		for _, c := range append(cuts, len(text)) {
			w, _ := gzip.NewWriterLevel(&b, gzip.BestSpeed)
			w.Write([]byte(text[prev:c]))
			w.Close()
			prev = c
		}
		return b.Bytes()
	}
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(7, 8))
	cases := [][]int{nil, {1}, {2}, {3}, {len(text) / 2}, {len(text) - 1}, {0}, {len(text)}}
	if i := strings.Index(text, "\r\n"); i > 0 {
		cases = append(cases, []int{i + 1})
	}
	for range 12 {
		a, b := r.IntN(len(text)), r.IntN(len(text))
		cases = append(cases, []int{min(a, b), max(a, b)})
	}
	for n, cuts := range cases {
		z := members(cuts...)
		what := fmt.Sprintf("members cut at %v", cuts)
		for _, chunk := range []int{0, 17} {
			mmSame(t, what+fmt.Sprintf(", chunk %d", chunk), ref, mmRead(t, what, string(z), ReadOptions{chunkSize: chunk}))
		}
		path := filepath.Join(dir, fmt.Sprintf("d%d.txt.gz", n))
		if err := os.WriteFile(path, z, 0o644); err != nil {
			t.Fatal(err)
		}
		d, err := ReadFile(context.Background(), path, ReadOptions{chunkSize: 23})
		if err != nil {
			t.Fatalf("%s, from a file: %v", what, err)
		}
		d.Name = ref.Name
		mmSame(t, what+", from a file", ref, d)
	}
}
