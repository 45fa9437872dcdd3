package data

import (
	"context"
	"errors"
	"math"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// refParse is a slow, independent reading of the format with the same rules
// as the reader (see ReadFile), written for clarity, not speed. It returns
// nil when the input must be refused. With regroup, the documents of a
// query that comes back join its first ones (ReadOptions.Regroup).
func refParse(in string, maxLine int, limit int64, regroup bool) *Dataset {
	in = strings.TrimPrefix(in, "\xef\xbb\xbf")
	if in == "" || strings.IndexByte(in, 0) >= 0 {
		return nil
	}
	num := regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$`)
	integer := regexp.MustCompile(`^[+-]?[0-9]{1,18}$`)
	parseNum := func(s string) (float32, bool) {
		if !num.MatchString(s) {
			return 0, false
		}
		f, err := strconv.ParseFloat(s, 64)
		return float32(f), err == nil && !math.IsInf(float64(float32(f)), 0)
	}
	type row struct {
		label float32
		qid   int64
		feats map[int]float32
		id    string
		line  int
	}
	var rows []row
	hasQID := false
	maxIdx := 0
	lines := strings.Split(in, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		l = strings.TrimSuffix(l, "\r")
		if len(l) > maxLine {
			return nil
		}
		if strings.IndexByte(l, '\r') >= 0 {
			return nil // a bare CR, even in a comment: lines ended by "\r" alone (BareCR)
		}
		l = strings.TrimLeft(l, " \t")
		if strings.HasPrefix(l, "# Column indices are zero-based") { // scikit-learn's 0-based dump
			return nil
		}
		if l == "" || l[0] == '#' {
			continue
		}
		r := row{line: i + 1, feats: map[int]float32{}}
		if h := strings.IndexByte(l, '#'); h >= 0 {
			r.id = strings.TrimSpace(l[h+1:])
			l = l[:h]
		}
		f := strings.FieldsFunc(l, func(c rune) bool { return c == ' ' || c == '\t' })
		var ok bool
		if r.label, ok = parseNum(f[0]); !ok {
			return nil
		}
		f = f[1:]
		lineHasQID := len(f) > 0 && strings.HasPrefix(f[0], "qid:")
		if len(rows) == 0 {
			hasQID = lineHasQID
		}
		if lineHasQID != hasQID {
			return nil
		}
		if lineHasQID {
			if !integer.MatchString(f[0][4:]) {
				return nil
			}
			r.qid, _ = strconv.ParseInt(f[0][4:], 10, 64)
			f = f[1:]
		}
		for _, tok := range f {
			idxs, vals, found := strings.Cut(tok, ":")
			if !found || !integer.MatchString(idxs) {
				return nil
			}
			idx, _ := strconv.Atoi(idxs)
			v, ok := parseNum(vals)
			if idx < 1 || idx > MaxFeatureIndex || !ok {
				return nil
			}
			if _, dup := r.feats[idx]; dup {
				return nil
			}
			r.feats[idx] = v
			maxIdx = max(maxIdx, idx)
		}
		rows = append(rows, r)
	}
	if len(rows) == 0 || maxIdx == 0 || need(len(rows), maxIdx) > limit {
		return nil
	}
	if regroup {
		first := map[int64]int{} // qid -> its first document
		for i, r := range rows {
			if _, ok := first[r.qid]; !ok {
				first[r.qid] = i
			}
		}
		sort.SliceStable(rows, func(a, b int) bool { return first[rows[a].qid] < first[rows[b].qid] })
	}
	d := &Dataset{HasQID: hasQID, Cols: make([][]float32, maxIdx)}
	for f := range d.Cols {
		d.Cols[f] = make([]float32, len(rows))
	}
	ids := make([]string, len(rows))
	seen := map[int64]bool{}
	for i, r := range rows {
		d.Labels = append(d.Labels, r.label)
		for f, v := range r.feats {
			d.Cols[f-1][i] = v
		}
		ids[i] = r.id
		if i == 0 || r.qid != rows[i-1].qid {
			if seen[r.qid] {
				return nil
			}
			seen[r.qid] = true
			d.QueryIDs = append(d.QueryIDs, r.qid)
			d.QueryOffsets = append(d.QueryOffsets, i)
		}
	}
	d.QueryOffsets = append(d.QueryOffsets, len(rows))
	d.SetDocIDs(ids)
	return d
}

func FuzzReadBytes(f *testing.F) {
	for _, s := range []string{
		"2 qid:7 1:0.5 3:-1.25e1 # doc-a\r\n0 qid:7 2:3 # b\n-1 qid:8 3:.5\t1:5.\n",
		"+1 1:1 2:2\n-1 2:4\n",
		"# c\n\n1 qid:1 1:1\n1 qid:2 1:1\n1 qid:1 1:1\n",
		"1 qid:1 1:1 1:2\n", "1 qid:1 0:1\n", "nan qid:1 1:1\n", "1 qid:1 1:1e39\n",
		"1 qid:1 9999999:1\n", "1 qid:x 1:1\n", "1 qid:1 1\n", "\x00\x01", "",
		"1 qid:1 2:1 1:1 # unsorted\n", "1 qid:1 1:0.123456789 2:1e-7 3:00012.5\n",
		"1 qid:1 1:1\n" + strings.Repeat("x", 70) + "\n",
		"\xef\xbb\xbf1 qid:1 1:1\n0 qid:1 2:1\n", "\xef\xbb\xbf", "1 qid:1 1:1\n\xef\xbb\xbf1 qid:1 1:1\n",
		"1 qid:1 -2:1\n", "1 qid:1 1:nan 2:1\n", "-1.8e308 qid:1 1:1\n", "1 qid:1 1:3.5e38\n",
		"2 qid:1 0:0.75 2:0.8012744652063969\n0 qid:1 1:0.4331269402364738\n", // scikit-learn's 0-based dump
		"# Column indices are zero-based\n2 qid:1 2:0.8\n", "# Column indices are one-based\n2 qid:1 2:0.8\n", "1:0.5 qid:1 1:1\n",
		"1 qid:1 qid:2 1:1\n", "1 qid:1 1:1 qid:2\n",
	} {
		f.Add([]byte(s), uint8(3))
		f.Add(gz(f, s), uint8(40))
	}
	// The memory limit is low so that an input with a feature index in the
	// millions is refused at once, not held as millions of columns: a
	// single such input took 0.5-4 s and stalled the fuzzer.
	const maxLine, limit = 64, 4 << 20
	f.Fuzz(func(t *testing.T, in []byte, chunk uint8) {
		opt := ReadOptions{maxLine: maxLine, chunkSize: 1 + int(chunk), MemoryLimit: limit}
		d, err := ReadBytes(context.Background(), "f.txt", in, opt)
		if len(in) >= 2 && in[0] == 0x1f && in[1] == 0x8b {
			// Compressed input: only check that the reader fails cleanly.
			var pe *ParseError
			if err != nil && !errors.As(err, &pe) {
				t.Fatalf("gzip input: error %T %v is not a ParseError", err, err)
			}
			return
		}
		// The same bytes gzipped read the same, through the decompressor and
		// the spool that holds a gzip file's text for the second pass, and
		// with one worker where the first reading had GOMAXPROCS.
		optz := opt
		optz.Workers = 1
		dz, errz := ReadBytes(context.Background(), "f.txt", gz(t, string(in)), optz)
		if (err == nil) != (errz == nil) || err != nil && err.Error() != errz.Error() {
			t.Fatalf("plain: %v; gzipped: %v", err, errz)
		}
		if err == nil && !sameDataset(d, dz) {
			t.Fatalf("the gzipped file reads otherwise")
		}
		// With Regroup, a query may come back.
		optg := opt
		optg.Regroup = true
		g, gerr := ReadBytes(context.Background(), "f.txt", in, optg)
		if wantG := refParse(string(in), maxLine, limit, true); (gerr == nil) != (wantG != nil) {
			t.Fatalf("Regroup: %v; the reference accepts: %v", gerr, wantG != nil)
		} else if gerr == nil {
			checkRef(t, g, wantG)
		}
		want := refParse(string(in), maxLine, limit, false)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.File != "f.txt" || pe.Line < 0 || pe.Line > strings.Count(string(in), "\n")+1 {
				t.Fatalf("error %v does not name the file and a line of it", err)
			}
			if want != nil {
				t.Fatalf("reader refused what the reference accepts: %v", err)
			}
			return
		}
		if want == nil {
			t.Fatalf("reader accepted what the reference refuses")
		}
		if err := d.Validate(); err != nil {
			t.Fatal(err)
		}
		checkRef(t, d, want)
		// Read with AbsentMissing, the same values but NaN for the Absent
		// ones left out (which read as 0 above).
		opt.AbsentMissing = true
		m, err := ReadBytes(context.Background(), "f.txt", in, opt)
		if err != nil {
			t.Fatalf("AbsentMissing: %v", err)
		}
		var nans int64
		for c := range d.Cols {
			var col int64 // the NaN values of the column: LeftOutOf it
			for i, v := range m.Cols[c] {
				if v != v && d.Cols[c][i] == 0 {
					nans++
					col++
				} else if math.Float32bits(v) != math.Float32bits(d.Cols[c][i]) {
					t.Fatalf("AbsentMissing: feature %d doc %d: %v, want %v", c+1, i, v, d.Cols[c][i])
				}
			}
			if d.LeftOutOf(c) != col || m.LeftOutOf(c) != col {
				t.Fatalf("feature %d: %d NaN values, LeftOutOf %d and %d", c+1, col, d.LeftOutOf(c), m.LeftOutOf(c))
			}
		}
		if nans != d.Absent || m.Absent != d.Absent {
			t.Fatalf("AbsentMissing: %d NaN values, Absent %d and %d", nans, m.Absent, d.Absent)
		}
	})
}

// sameDataset reports whether a and b hold the same data set, the values
// bit for bit.
func sameDataset(a, b *Dataset) bool {
	// The columns are compared bit for bit below, not by reflect.DeepEqual:
	// with a sparse index in the millions its visited-map made a single
	// input take seconds, and stalled the fuzzer.
	ac, bc := *a, *b
	ac.Cols, bc.Cols = nil, nil
	if !reflect.DeepEqual(ac, bc) || len(a.Cols) != len(b.Cols) {
		return false
	}
	for c := range a.Cols {
		if len(a.Cols[c]) != len(b.Cols[c]) {
			return false
		}
		for i := range a.Cols[c] {
			if math.Float32bits(a.Cols[c][i]) != math.Float32bits(b.Cols[c][i]) {
				return false
			}
		}
	}
	return true
}

// checkRef checks d, read without error, against refParse's reading want.
func checkRef(t *testing.T, d, want *Dataset) {
	t.Helper()
	if !reflect.DeepEqual(d.Labels, want.Labels) || !reflect.DeepEqual(d.QueryIDs, want.QueryIDs) ||
		!reflect.DeepEqual(d.QueryOffsets, want.QueryOffsets) || d.HasQID != want.HasQID || len(d.Cols) != len(want.Cols) {
		t.Fatalf("got labels %v qids %v offsets %v, want %v %v %v", d.Labels, d.QueryIDs, d.QueryOffsets, want.Labels, want.QueryIDs, want.QueryOffsets)
	}
	for c := range d.Cols {
		for i := range d.Cols[c] {
			if math.Float32bits(d.Cols[c][i]) != math.Float32bits(want.Cols[c][i]) {
				t.Fatalf("feature %d doc %d: %v, want %v", c+1, i, d.Cols[c][i], want.Cols[c][i])
			}
		}
	}
	for i := 0; i < d.NumDocs(); i++ {
		if d.DocID(i) != want.DocID(i) {
			t.Fatalf("doc %d id %q, want %q", i, d.DocID(i), want.DocID(i))
		}
	}
}
