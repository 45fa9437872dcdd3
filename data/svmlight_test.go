package data

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func readString(t *testing.T, s string, opt ReadOptions) (*Dataset, error) {
	t.Helper()
	return ReadBytes(context.Background(), "in.txt", []byte(s), opt)
}

func gz(t testing.TB, s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

func TestReadValid(t *testing.T) {
	in := "# a header comment\n" +
		"2 qid:7 1:0.5 3:-1.25e1 # doc-a\r\n" +
		"\n" +
		"   \t\n" +
		"0 qid:7 2:3 #  doc-b  \n" +
		"  # an indented comment line\n" +
		"-1 qid:-3 3:.5\t1:5.\n" + // tabs, unsorted indices, negative qid, no comment
		"1.5 qid:-3" // no features, no final newline
	d, err := readString(t, in, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := &Dataset{
		Cols: [][]float32{
			{0.5, 0, 5, 0},
			{0, 3, 0, 0},
			{-12.5, 0, 0.5, 0},
		},
		Labels:       []float32{2, 0, -1, 1.5},
		QueryIDs:     []int64{7, -3},
		QueryOffsets: []int{0, 2, 4},
		HasQID:       true,
	}
	if !reflect.DeepEqual(d.Cols, want.Cols) || !reflect.DeepEqual(d.Labels, want.Labels) ||
		!reflect.DeepEqual(d.QueryIDs, want.QueryIDs) || !reflect.DeepEqual(d.QueryOffsets, want.QueryOffsets) || !d.HasQID {
		t.Errorf("got cols %v labels %v qids %v offsets %v", d.Cols, d.Labels, d.QueryIDs, d.QueryOffsets)
	}
	for i, id := range []string{"doc-a", "doc-b", "", ""} {
		if got := d.DocID(i); got != id {
			t.Errorf("DocID(%d) = %q, want %q", i, got, id)
		}
	}
	if err := d.Validate(); err != nil {
		t.Error(err)
	}
}

func TestReadNoQID(t *testing.T) {
	d, err := readString(t, "+1 1:1 2:2\n-1 2:4\n", ReadOptions{MinFeatures: 4})
	if err != nil {
		t.Fatal(err)
	}
	if d.HasQID || d.NumQueries() != 1 || d.NumDocs() != 2 || d.NumFeatures() != 4 {
		t.Fatalf("got hasQID=%v queries=%d docs=%d features=%d", d.HasQID, d.NumQueries(), d.NumDocs(), d.NumFeatures())
	}
	if d.Labels[0] != 1 || d.Labels[1] != -1 || d.Cols[1][1] != 4 || d.Cols[3][0] != 0 {
		t.Errorf("got labels %v cols %v", d.Labels, d.Cols)
	}
}

func TestReadGzipSameAsPlain(t *testing.T) {
	plain := "1 qid:1 1:0.25 2:1\n0 qid:1 2:0.5\n3 qid:2 1:7 # x\n"
	a, err := readString(t, plain, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// The name says .txt: detection is by magic bytes.
	b, err := ReadBytes(context.Background(), "in.txt", gz(t, plain), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("gzip read differs from plain read")
	}
}

// TestReadGzipEndsAtChunk reads a gzip file whose text ends where a chunk
// is full: gzip returns its last bytes with io.EOF, and the first pass cut
// the text in other chunks than the second, reading the spool (a file),
// and the reader refused a valid file ("the file changed while it was
// read").
func TestReadGzipEndsAtChunk(t *testing.T) {
	for _, c := range []struct {
		text   string
		size   int
		labels []float32
	}{
		{"1 1:1\n2 1:2", 11, []float32{1, 2}},          // one chunk, full at the end
		{"1 1:1\n700\n\n000", 8, []float32{1, 700, 0}}, // the fuzzer's: the second chunk full at the end
	} {
		for name, b := range map[string][]byte{"plain": []byte(c.text), "gzip": gz(t, c.text)} {
			d, err := ReadBytes(context.Background(), "in.txt", b, ReadOptions{chunkSize: c.size})
			if err != nil {
				t.Errorf("%s %q, chunk %d: %v", name, c.text, c.size, err)
			} else if !reflect.DeepEqual(d.Labels, c.labels) || d.NumDocs() != len(c.labels) {
				t.Errorf("%s %q, chunk %d: labels %v, want %v", name, c.text, c.size, d.Labels, c.labels)
			}
		}
	}
}

// A UTF-8 byte order mark (what Windows editors write) at the start of the
// text, plain or gzip, is skipped, whatever the chunking; anywhere else it is
// part of the line.
func TestReadByteOrderMark(t *testing.T) {
	const bom = "\xef\xbb\xbf"
	plain := "2 qid:1 1:0.5 3:1 # a\r\n0 qid:1 2:0.25\n1 qid:7 1:1\n"
	want, err := readString(t, plain, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, b := range map[string][]byte{"plain": []byte(bom + plain), "gzip": gz(t, bom+plain)} {
		file := filepath.Join(dir, name+".txt")
		if err := os.WriteFile(file, b, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, size := range []int{1, 2, 3, 4, 16, 0} {
			got, err := ReadFile(context.Background(), file, ReadOptions{chunkSize: size, Workers: 2})
			if err != nil {
				t.Fatalf("%s, chunk %d: %v", name, size, err)
			}
			got.Name = want.Name
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s, chunk %d: labels %v, cols %v; without the mark: %v, %v", name, size, got.Labels, got.Cols, want.Labels, want.Cols)
			}
		}
	}
	// A first line as long as allowed stays allowed with the mark before it.
	line := "1 qid:1 1:1 # " + strings.Repeat("x", 50)
	if _, err := readString(t, bom+line+"\n", ReadOptions{maxLine: len(line), chunkSize: 4}); err != nil {
		t.Errorf("longest line after a mark: %v", err)
	}
	for _, tc := range []struct{ in, want string }{
		{bom + "1 qid:1 1:1\nx qid:1 1:1\n", `in.txt:2: label "x" is not a number; expected a finite number`},
		{"1 qid:1 1:1\n" + bom + "1 qid:1 1:1\n", `in.txt:2: label "\ufeff1" is not a number; expected a finite number`},
		{bom + bom + "1 qid:1 1:1\n", `in.txt:1: label "\ufeff1" is not a number; expected a finite number`},
		{bom, "in.txt: empty file; expected SVMlight/LETOR lines `LABEL qid:Q IDX:VAL ...`"},
	} {
		for _, size := range []int{1, 2, 0} {
			if _, err := readString(t, tc.in, ReadOptions{chunkSize: size}); err == nil || err.Error() != tc.want {
				t.Errorf("%q, chunk %d: got %v, want %s", tc.in, size, err, tc.want)
			}
		}
	}
}

// The result must not depend on how the text is cut into chunks or how many
// workers parse it.
func TestReadChunkingInvariant(t *testing.T) {
	var sb strings.Builder
	r := rand.New(rand.NewPCG(1, 2))
	for q := 0; q < 40; q++ {
		for j := 0; j < 1+r.IntN(9); j++ {
			fmt.Fprintf(&sb, "%d qid:%d", r.IntN(3), q)
			for f := 1; f <= 12; f++ {
				if r.IntN(3) > 0 {
					fmt.Fprintf(&sb, " %d:%.4g", f, r.NormFloat64())
				}
			}
			if r.IntN(2) == 0 {
				fmt.Fprintf(&sb, " # d%d-%d", q, j)
			}
			if r.IntN(5) == 0 {
				sb.WriteString("\r")
			}
			sb.WriteString("\n")
			if r.IntN(10) == 0 {
				sb.WriteString("# note\n\n")
			}
		}
	}
	in := sb.String()
	ref, err := readString(t, in, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{1, 7, 64, 333, 4096} {
		for _, workers := range []int{1, 2, 5} {
			d, err := readString(t, in, ReadOptions{chunkSize: size, Workers: workers})
			if err != nil {
				t.Fatalf("chunk %d workers %d: %v", size, workers, err)
			}
			if !reflect.DeepEqual(d, ref) {
				t.Fatalf("chunk %d workers %d: data set differs", size, workers)
			}
		}
	}
}

// TestReadFirstError reads a file of bad lines, one a chunk, on several
// workers: the error is the first line's, whichever worker fails first. A
// later chunk's failure cancelled the reading, and the chunks before it
// still waiting were skipped: the error named line 2 or 5 at random.
func TestReadFirstError(t *testing.T) {
	in := strings.Repeat("x 1:1\n", 20)
	for range 200 {
		_, err := readString(t, in, ReadOptions{chunkSize: 1, Workers: 4})
		if want := `in.txt:1: label "x" is not a number; expected a finite number`; err == nil || err.Error() != want {
			t.Fatalf("got %v, want %s", err, want)
		}
	}
}

func TestReadErrors(t *testing.T) {
	long := "1 qid:1 1:" + strings.Repeat("1", 100) + "\n"
	cases := []struct {
		name string
		in   string
		opt  ReadOptions
		want string // the whole message
	}{
		{"label abc", "1 qid:1 1:1\nabc qid:1 1:1\n", ReadOptions{}, `in.txt:2: label "abc" is not a number; expected a finite number`},
		{"label nan", "nan qid:1 1:1\n", ReadOptions{}, `in.txt:1: label "nan" is not a finite number; expected a finite number`},
		{"label inf", "\n\n-inf qid:1 1:1\n", ReadOptions{}, `in.txt:3: label "-inf" is not a finite number; expected a finite number`},
		{"label 0.5x", "0.5x qid:1 1:1\n", ReadOptions{}, `in.txt:1: label "0.5x" is not a number; expected a finite number`},
		{"label weight", "1 qid:1 1:1\n1:0.5 qid:1 1:1\n", ReadOptions{}, `in.txt:2: label "1:0.5" is LABEL:WEIGHT, an instance weight (XGBoost's libsvm form), which cronus does not read; expected a finite number`},
		{"label colon", "1:x qid:1 1:1\n", ReadOptions{}, `in.txt:1: label "1:x" is not a number; expected a finite number`},
		{"long label", `"learner":{"attributes":{"best_iteration":"99"}}}` + " qid:1 1:1\n", ReadOptions{},
			`in.txt:1: label "\"learner\":{\"attributes\":{\"best_iteration..." is not a number; expected a finite number`},
		{"long feature", "1 qid:1 " + strings.Repeat("x", 1000) + "\n", ReadOptions{},
			`in.txt:1: feature "` + strings.Repeat("x", 40) + `..." has no colon; expected IDX:VALUE`},
		{"label missing", "qid:1 1:1\n", ReadOptions{}, `in.txt:1: missing label: the line starts with "qid:1"; expected LABEL qid:Q IDX:VAL ...`},
		{"value abc", "1 qid:1 1:1\n1 qid:1 2:abc\n", ReadOptions{}, `in.txt:2: feature 2: value "abc" is not a number; expected a finite number`},
		{"value nan", "1 qid:1 1:NaN\n", ReadOptions{}, `in.txt:1: feature 1: value "NaN" is not a finite number; expected a finite number (leave a missing value out of the line: it reads as 0, or as missing in predict and eval with --absent missing)`},
		{"value NULL", "1 qid:1 1:NULL\n", ReadOptions{}, `in.txt:1: feature 1: value "NULL" is not a number; expected a finite number (leave a missing value out of the line: it reads as 0, or as missing in predict and eval with --absent missing)`},
		{"label NULL", "NULL qid:1 1:1\n", ReadOptions{}, `in.txt:1: label "NULL" is not a number; expected a finite number`},
		{"label nan", "nan qid:1 1:1\n", ReadOptions{}, `in.txt:1: label "nan" is not a finite number; expected a finite number`},
		// Notepad's "Unicode" (UTF-16 with its byte order mark) is named.
		{"utf-16le", "\xff\xfe1\x00 \x00q\x00i\x00d\x00", ReadOptions{}, `in.txt:1: UTF-16 text (its byte order mark); expected SVMlight/LETOR text in UTF-8 or ASCII: convert it, e.g. iconv -f UTF-16 -t UTF-8`},
		{"utf-16be", "\xfe\xff\x001\x00 ", ReadOptions{}, `in.txt:1: UTF-16 text (its byte order mark); expected SVMlight/LETOR text in UTF-8 or ASCII: convert it, e.g. iconv -f UTF-16 -t UTF-8`},
		// Lines ended by a bare CR were one line, whose value "0.5\r0"
		// was "not a number": the cause is named. In a comment too: a
		// LETOR file (#docid = … on every line) with bare CRs read as one
		// document, the rest of the file its comment.
		{"bare cr", "1 qid:1 1:0.5\r0 qid:1 1:0.2\r", ReadOptions{}, `in.txt:1: ` + BareCR},
		{"bare cr on line 2", "1 qid:1 1:0.5 # a\n0 qid:1\r1:0.2\n", ReadOptions{}, `in.txt:2: ` + BareCR},
		{"bare cr, letor comments", "2 qid:10 1:0.5 #docid = a\r0 qid:10 1:0.2 #docid = b\r", ReadOptions{}, `in.txt:1: ` + BareCR},
		{"bare cr, comment line", "# written by hand\r1 qid:1 1:0.5\r", ReadOptions{}, `in.txt:1: ` + BareCR},
		{"bare cr in a comment", "1 qid:1 1:0.5 # a\rb\n", ReadOptions{}, `in.txt:1: ` + BareCR},
		{"value inf", "1 qid:1 1:inf\n", ReadOptions{}, `in.txt:1: feature 1: value "inf" is not a finite number; expected a finite number`},
		{"value 0.5x", "1 qid:1 1:0.5x\n", ReadOptions{}, `in.txt:1: feature 1: value "0.5x" is not a number; expected a finite number`},
		{"label overflow", "-1.79769313486232e+308 qid:1 1:1\n", ReadOptions{}, `in.txt:1: label "-1.79769313486232e+308" is outside the float32 range; expected a number from -3.4028235e+38 to 3.4028235e+38`},
		{"value empty", "1 qid:1 1:\n", ReadOptions{}, `in.txt:1: feature 1: value is empty; expected a finite number`},
		{"value overflow", "1 qid:1 1:1e39\n", ReadOptions{}, `in.txt:1: feature 1: value "1e39" is outside the float32 range; expected a number from -3.4028235e+38 to 3.4028235e+38`},
		{"no qid", "1 qid:1 1:1\n0 1:1\n", ReadOptions{}, `in.txt:2: no qid; expected LABEL qid:Q IDX:VAL ... (the first document, line 1, has a qid)`},
		{"qid after none", "1 1:1\n0 qid:3 1:1\n", ReadOptions{}, `in.txt:2: qid on this line, but the first document (line 1) has none; expected qid on every line or on none`},
		{"qid not integer", "1 qid:1 1:1\n1 qid:x1 1:1\n", ReadOptions{}, `in.txt:2: qid "x1" is not an integer`},
		{"qid float", "1 qid:1.5 1:1\n", ReadOptions{}, `in.txt:1: qid "1.5" is not an integer`},
		// Integers, too long to hold (said "is not an integer").
		{"qid 20 digits", "1 qid:1 1:1\n1 qid:99999999999999999999 1:1\n", ReadOptions{},
			`in.txt:2: qid "99999999999999999999" has more than 18 digits; expected an integer from -999999999999999999 to 999999999999999999`},
		{"qid 19 digits negative", "1 qid:-1000000000000000000 1:1\n", ReadOptions{},
			`in.txt:1: qid "-1000000000000000000" has more than 18 digits; expected an integer from -999999999999999999 to 999999999999999999`},
		{"index 20 digits", "1 qid:1 99999999999999999999:1\n", ReadOptions{},
			`in.txt:1: feature index "99999999999999999999" has more than 18 digits; expected IDX:VALUE with IDX from 1 to 10000000`},
		{"index zero", "1 qid:1 0:1\n", ReadOptions{}, `in.txt:1: feature index 0: indices start at 1 (0-based indices are what scikit-learn's dump_svmlight_file writes unless given zero_based=False)`},
		{"index negative", "1 qid:1 -2:1\n", ReadOptions{}, `in.txt:1: feature index -2: indices start at 1`},
		{"index too big", "1 qid:1 10000001:1\n", ReadOptions{}, `in.txt:1: feature index 10000001 is above the limit of 10000000`},
		{"index not integer", "1 qid:1 a:1\n", ReadOptions{}, `in.txt:1: feature index "a" is not an integer; expected IDX:VALUE with IDX from 1`},
		{"qid after a feature", "1 1:0.5 qid:3 2:1\n", ReadOptions{}, `in.txt:1: qid after a feature; expected LABEL qid:Q IDX:VAL ..., the qid right after the label`},
		// A second qid right after the first said "qid after a feature".
		{"qid twice", "1 qid:1 qid:2 1:0.5\n", ReadOptions{}, `in.txt:1: a second qid ("qid:2"); expected one qid, right after the label`},
		{"qid twice, no features", "1 qid:1 qid:1\n", ReadOptions{}, `in.txt:1: a second qid ("qid:1"); expected one qid, right after the label`},
		{"qid twice after a feature", "1 qid:1 1:0.5 qid:2\n", ReadOptions{}, `in.txt:1: qid after a feature; expected LABEL qid:Q IDX:VAL ..., the qid right after the label`},
		{"index twice sorted", "1 qid:1 1:1 1:2\n", ReadOptions{}, `in.txt:1: feature index 1 appears twice; expected each index at most once`},
		{"index twice unsorted", "1 qid:1 3:1 1:2 3:4\n", ReadOptions{}, `in.txt:1: feature index 3 appears twice; expected each index at most once`},
		{"no colon", "1 qid:1 1:1 7\n", ReadOptions{}, `in.txt:1: feature "7" has no colon; expected IDX:VALUE`},
		{"qid comes back", "1 qid:1 1:1\n1 qid:1 1:1\n0 qid:2 1:1\n0 qid:1 1:1\n", ReadOptions{}, `in.txt:4: qid 1 comes back after qid 2 (its documents were at lines 1-2); lines of one query must be contiguous (group them, e.g. with sort -s -k2,2; cronus inspect --regroup reads the file as it is)`},
		{"qid of one line comes back", "1 qid:1 1:1\n0 qid:2 1:1\n0 qid:1 1:1\n", ReadOptions{}, `in.txt:3: qid 1 comes back after qid 2 (its documents were at line 1); lines of one query must be contiguous (group them, e.g. with sort -s -k2,2; cronus inspect --regroup reads the file as it is)`},
		{"qid comes back across comments", "# head\n1 qid:1 1:1\n\n1 qid:1 1:1\n0 qid:2 1:1\n0 qid:1 1:1\n", ReadOptions{}, `in.txt:6: qid 1 comes back after qid 2 (its documents were at lines 2-4); lines of one query must be contiguous (group them, e.g. with sort -s -k2,2; cronus inspect --regroup reads the file as it is)`},
		{"empty file", "", ReadOptions{}, "in.txt: empty file; expected SVMlight/LETOR lines `LABEL qid:Q IDX:VAL ...`"},
		{"only comments", "# nothing\n\n", ReadOptions{}, "in.txt: no documents (only blank or comment lines); expected SVMlight/LETOR lines `LABEL qid:Q IDX:VAL ...`"},
		// A cost file given as data: its lines of one number are labels.
		{"no features", "20\n# c\n10\n", ReadOptions{MinFeatures: 46},
			"in.txt: no line has a feature (IDX:VAL), only labels (a cost file's lines of one number read so); expected SVMlight/LETOR lines `LABEL qid:Q IDX:VAL ...`"},
		{"no features with qids", "1 qid:1 # a\n0 qid:2\n", ReadOptions{},
			"in.txt: no line has a feature (IDX:VAL), only labels and qids; expected SVMlight/LETOR lines `LABEL qid:Q IDX:VAL ...`"},
		// A plot (sweep --plot) given as data: "XML (a RankLib model?)".
		{"svg plot", "<?xml version=\"1.0\"?>\n<!-- cronus -->\n<svg xmlns=\"http://www.w3.org/2000/svg\">\n</svg>\n", ReadOptions{},
			"in.txt:1: an SVG image (a plot?), not SVMlight/LETOR data; expected lines `LABEL qid:Q IDX:VAL ...`"},
		{"svg plot, no declaration", "<svg width=\"10\">\n</svg>\n", ReadOptions{},
			"in.txt:1: an SVG image (a plot?), not SVMlight/LETOR data; expected lines `LABEL qid:Q IDX:VAL ...`"},
		{"png plot", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", ReadOptions{},
			"in.txt:1: a PNG image (a plot?), not SVMlight/LETOR data; expected lines `LABEL qid:Q IDX:VAL ...`"},
		{"other XML", "<?xml version=\"1.0\"?>\n<ensemble>\n", ReadOptions{},
			"in.txt:1: XML (a RankLib model?), not SVMlight/LETOR data; expected lines `LABEL qid:Q IDX:VAL ...`"},
		// A model given as data (cronus inspect m.json): the label "{".
		{"cronus model", "{\n  \"format\": \"cronus-ensemble\",\n", ReadOptions{},
			"in.txt:1: JSON (a model or cascade file?), not SVMlight/LETOR data; expected lines `LABEL qid:Q IDX:VAL ...`"},
		{"xgboost model", `{"learner":{"attributes":{}}}` + "\n", ReadOptions{},
			"in.txt:1: JSON (a model or cascade file?), not SVMlight/LETOR data; expected lines `LABEL qid:Q IDX:VAL ...`"},
		{"lightgbm model", "tree\nversion=v3\nnum_class=1\n", ReadOptions{},
			"in.txt:1: a LightGBM model (its line \"tree\"), not SVMlight/LETOR data; expected lines `LABEL qid:Q IDX:VAL ...`"},
		{"ranklib model", "## LambdaMART\n## No. of trees = 1\n<ensemble>\n\t<tree id=\"1\" weight=\"0.1\">\n", ReadOptions{},
			"in.txt:3: XML (a RankLib model?), not SVMlight/LETOR data; expected lines `LABEL qid:Q IDX:VAL ...`"},
		{"label tree with features", "tree qid:1 1:1\n", ReadOptions{}, `in.txt:1: label "tree" is not a number; expected a finite number`},
		{"binary junk", "1 qid:1 1:1\n\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", ReadOptions{}, `in.txt:4: binary data (a NUL byte); expected SVMlight/LETOR text`},
		{"binary junk no NUL", "\xff\xfe\x01\x02 junk\n", ReadOptions{}, `in.txt:1: label "\xff\xfe\x01\x02" is not a number; expected a finite number`},
		{"long line", "1 qid:1 1:1\n" + long, ReadOptions{maxLine: 64}, `in.txt:2: line longer than 64 B; expected one document per line`},
		{"long line small chunks", "1 qid:1 1:1\n" + long, ReadOptions{maxLine: 64, chunkSize: 16}, `in.txt:2: line longer than 64 B; expected one document per line`},
		{"long last line", "1 qid:1 1:1\n" + strings.TrimSuffix(long, "\n"), ReadOptions{maxLine: 64}, `in.txt:2: line longer than 64 B; expected one document per line`},
		{"too much memory", "1 qid:1 1:1\n0 qid:1 1:1 5000000:1\n", ReadOptions{MemoryLimit: 1 << 20},
			`in.txt:2: feature index 5000000: 2 documents × 5000000 features need 152.6 MiB of memory (dense float32), more than the 1.0 MiB available`},
		{"too much memory unsorted", "1 qid:1 1:1\n0 qid:1 5000000:1 1:1\n", ReadOptions{MemoryLimit: 1 << 20},
			`in.txt:2: feature index 5000000: 2 documents × 5000000 features need 152.6 MiB of memory (dense float32), more than the 1.0 MiB available`},
		// Padded to a model's 5,000,000 features: no line of the file has
		// that index (it named line 2 and "feature index 5000000").
		{"too much memory padded", "1 qid:1 1:1\n0 qid:1 1:1 3:1\n", ReadOptions{MemoryLimit: 1 << 20, MinFeatures: 5000000},
			`in.txt: 2 documents × 5000000 features (the file's 3, padded to the 5000000 expected) need 152.6 MiB of memory (dense float32), more than the 1.0 MiB available`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readString(t, tc.in, tc.opt)
			if err == nil {
				t.Fatalf("no error, want %s", tc.want)
			}
			if err.Error() != tc.want {
				t.Errorf("got  %s\nwant %s", err, tc.want)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Errorf("error is %T, want *ParseError", err)
			}
		})
	}
}

// TestReadLabelsOnly: with LabelsOnly a file without features reads as its
// labels, qids and ids; one feature on one line is enough without it.
func TestReadLabelsOnly(t *testing.T) {
	d, err := readString(t, "1 qid:1 # a\n0 qid:1\n2 qid:5 # c\n", ReadOptions{LabelsOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if d.NumFeatures() != 0 || !reflect.DeepEqual(d.Labels, []float32{1, 0, 2}) ||
		!reflect.DeepEqual(d.QueryIDs, []int64{1, 5}) || !reflect.DeepEqual(d.QueryOffsets, []int{0, 2, 3}) || d.DocID(2) != "c" {
		t.Errorf("got %d features, labels %v, qids %v, offsets %v, id %q", d.NumFeatures(), d.Labels, d.QueryIDs, d.QueryOffsets, d.DocID(2))
	}
	d, err = readString(t, "1 qid:1\n0 qid:1 3:0.5\n", ReadOptions{MinFeatures: 5})
	if err != nil {
		t.Fatal(err)
	}
	if d.FileFeatures != 3 || d.NumFeatures() != 5 || d.Cols[2][1] != 0.5 {
		t.Errorf("one feature on one line: FileFeatures %d, %d features", d.FileFeatures, d.NumFeatures())
	}
}

func TestReadRegroup(t *testing.T) {
	in := "1 qid:1 1:1\n2 qid:2 1:2\n3 qid:1 1:3 # c\n4 qid:3 1:4\n5 qid:2 1:5\n"
	d, err := readString(t, in, ReadOptions{Regroup: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{1, 2, 3}; !reflect.DeepEqual(d.QueryIDs, want) {
		t.Errorf("queries %v, want %v", d.QueryIDs, want)
	}
	if want := []int{0, 2, 4, 5}; !reflect.DeepEqual(d.QueryOffsets, want) {
		t.Errorf("offsets %v, want %v", d.QueryOffsets, want)
	}
	if want := []float32{1, 3, 2, 5, 4}; !reflect.DeepEqual(d.Labels, want) || !reflect.DeepEqual(d.Cols[0], want) {
		t.Errorf("labels %v col %v, want %v", d.Labels, d.Cols[0], want)
	}
	if d.DocID(1) != "c" || d.DocID(0) != "" {
		t.Errorf("doc ids not regrouped: %q %q", d.DocID(0), d.DocID(1))
	}
}

func TestReadTruncatedGzip(t *testing.T) {
	var sb strings.Builder
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&sb, "%d qid:%d 1:%d 2:0.%d\n", i%3, i/10, i, i)
	}
	b := gz(t, sb.String())
	_, err := ReadBytes(context.Background(), "t.gz", b[:len(b)/2], ReadOptions{})
	if err == nil || !strings.Contains(err.Error(), "gzip stream is truncated") || !strings.HasPrefix(err.Error(), "t.gz:") {
		t.Fatalf("got %v, want a truncated gzip error", err)
	}
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line < 1 || pe.Line > 2001 {
		t.Errorf("error line %+v, want a line within the file", pe)
	}
	// A stream cut inside its 8-byte trailer also counts.
	if _, err := ReadBytes(context.Background(), "t.gz", b[:len(b)-3], ReadOptions{}); err == nil {
		t.Errorf("no error for a gzip stream missing its trailer")
	}
	// Bytes after the stream that are not another member (4 bytes, which
	// gzip.Reader took for a truncated header, or 20, an invalid one) are
	// named as such, at no line; another member is read on.
	for _, junk := range []string{"junk", "junk0123456789abcdef"} {
		_, err := ReadBytes(context.Background(), "t.gz", append(bytes.Clone(b), junk...), ReadOptions{})
		if err == nil || err.Error() != "t.gz: data after the end of the gzip stream that is not gzip (trailing garbage)" {
			t.Errorf("%d bytes after the stream: got %v", len(junk), err)
		}
		if _, err := ReadWhole(writeTemp(t, append(bytes.Clone(b), junk...)), "a file"); err == nil || !strings.HasSuffix(err.Error(), ": data after the end of the gzip stream that is not gzip (trailing garbage)") {
			t.Errorf("ReadWhole, %d bytes after the stream: got %v", len(junk), err)
		}
	}
	// A corrupt stream (its checksum) is said once, data or whole file
	// (review 2026-11-29: "corrupt gzip stream: corrupt gzip stream: gzip:
	// invalid checksum").
	bad := bytes.Clone(b)
	bad[len(bad)-6] ^= 0xff
	_, err = ReadBytes(context.Background(), "t.gz", bad, ReadOptions{})
	_, whole := ReadWhole(writeTemp(t, bad), "a file")
	for _, err := range []error{err, whole} {
		if err == nil || strings.Count(err.Error(), "corrupt gzip stream") != 1 || !strings.HasSuffix(err.Error(), ": corrupt gzip stream: gzip: invalid checksum") {
			t.Errorf("corrupt checksum: got %v", err)
		}
	}
	two := append(gz(t, "1 qid:1 1:1\n"), gz(t, "0 qid:1 1:2\n")...)
	if d, err := ReadBytes(context.Background(), "t.gz", two, ReadOptions{}); err != nil || d.NumDocs() != 2 {
		t.Errorf("two gzip members: %v", err)
	}
}

// TestReadGzipZeroPadding reads gzip files padded with zero bytes to the
// end (as tar and tape blocks pad them), which gzip -d 1.12 and Python's
// gzip read without a word (exit 0); data, cost and whole files were
// refused as trailing garbage. Zeros followed by anything are trailing
// garbage, as gzip -d takes them (it does not read a member after them,
// Python's gzip does).
func TestReadGzipZeroPadding(t *testing.T) {
	zeros := string(make([]byte, 512))
	for _, c := range []struct {
		name   string
		after  string // bytes after the first member
		second bool   // a second member follows them
		ok     bool
	}{
		{"one zero", zeros[:1], false, true},
		{"a block of zeros", zeros, false, true},
		{"zeros between members", zeros[:7], true, false},
		{"zeros then garbage", zeros[:7] + "junk", false, false},
	} {
		file := func(first, second string) []byte {
			b := append(gz(t, first), c.after...)
			if c.second {
				b = append(b, gz(t, second)...)
			}
			return b
		}
		data := file("1 qid:1 1:1\n", "0 qid:1 1:2\n")
		d, err := ReadBytes(context.Background(), "t.gz", data, ReadOptions{})
		whole, werr := ReadWhole(writeTemp(t, data), "a file")
		costs, cerr := ReadCostsFile(writeTemp(t, file("1 5\n", "2 7\n")), 0)
		if !c.ok {
			for _, err := range []error{err, werr, cerr} {
				if err == nil || !strings.HasSuffix(err.Error(), ": data after the end of the gzip stream that is not gzip (trailing garbage)") {
					t.Errorf("%s: got %v, want trailing garbage", c.name, err)
				}
			}
			continue
		}
		if err != nil || d.NumDocs() != 1 {
			t.Errorf("%s: data: %v, want 1 document", c.name, err)
		}
		if werr != nil || string(whole) != "1 qid:1 1:1\n" {
			t.Errorf("%s: ReadWhole: %q, %v", c.name, whole, werr)
		}
		if cerr != nil || !reflect.DeepEqual(costs.Cost, []float64{5}) {
			t.Errorf("%s: costs: %v", c.name, cerr)
		}
	}
}

// TestReadGzipCutInHeader: a gzip file cut short within its 10-byte
// header is truncated, as gzip -t says of it ("unexpected end of file")
// and the README of every file cut short, at line 1 for data and cost
// files; it was a "corrupt gzip header: unexpected EOF". A complete
// header that is wrong stays corrupt.
func TestReadGzipCutInHeader(t *testing.T) {
	full := gz(t, "1 5\n")
	const truncated = "gzip stream is truncated (unexpected end of data)"
	for n := 2; n < 10; n++ {
		cut := full[:n]
		_, err := ReadBytes(context.Background(), "t.gz", cut, ReadOptions{})
		if err == nil || err.Error() != "t.gz:1: "+truncated {
			t.Errorf("%d bytes: data: %v", n, err)
		}
		p := writeTemp(t, cut)
		if _, err := ReadCostsFile(p, 0); err == nil || err.Error() != p+":1: "+truncated {
			t.Errorf("%d bytes: costs: %v", n, err)
		}
		if _, err := ReadWhole(p, "a file"); err == nil || err.Error() != p+": "+truncated {
			t.Errorf("%d bytes: whole file: %v", n, err)
		}
	}
	bad := []byte{0x1f, 0x8b, 0, 0, 0, 0, 0, 0, 0, 0xff, 0} // compression method 0
	if _, err := ReadBytes(context.Background(), "t.gz", bad, ReadOptions{}); err == nil || err.Error() != "t.gz: corrupt gzip header: gzip: invalid header" {
		t.Errorf("a wrong header: %v", err)
	}
}

// writeTemp writes b to a new file and returns its path.
func writeTemp(t *testing.T, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "f.gz")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadFileErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadFile(context.Background(), filepath.Join(dir, "none.txt"), ReadOptions{}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	if _, err := ReadFile(context.Background(), dir, ReadOptions{}); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("directory: %v", err)
	}
	p := filepath.Join(dir, "bad.txt")
	os.WriteFile(p, []byte("1 qid:1 1:1\n1 qid:1 0:1\n"), 0o644)
	_, err := ReadFile(context.Background(), p, ReadOptions{})
	if err == nil || !strings.HasPrefix(err.Error(), p+":2: feature index 0: indices start at 1 (") {
		t.Errorf("got %v", err)
	}
}

// scikit-learn's dump_svmlight_file (1.2.1, with query_id) writes 0-based
// indices by default: refused, naming the flag that writes 1-based ones; the
// file it writes with zero_based=False reads as it should.
func TestReadScikitLearnDump(t *testing.T) {
	const zeroBased = `2 qid:1 0:0.75 2:0.8012744652063969 3:0.5821620360643678
0 qid:1 1:0.4331269402364738 2:0.479051298140834
1 qid:2 0:0.4306280204141778 1:0.5867985714381407 2:0.7378377872921602 3:0.9562672548360985
`
	const oneBased = `2 qid:1 1:0.75 3:0.8012744652063969 4:0.5821620360643678
0 qid:1 2:0.4331269402364738 3:0.479051298140834
1 qid:2 1:0.4306280204141778 2:0.5867985714381407 3:0.7378377872921602 4:0.9562672548360985
`
	if _, err := readString(t, zeroBased, ReadOptions{}); err == nil || !strings.HasPrefix(err.Error(), "in.txt:1: feature index 0: indices start at 1") || !strings.Contains(err.Error(), "zero_based=False") {
		t.Errorf("0-based dump: %v", err)
	}
	// With comment=..., dump_svmlight_file heads the file with its
	// indexing: 0-based data is refused even when no line has a 0:.
	const header = "# Generated by dump_svmlight_file from scikit-learn 1.2.1\n# Column indices are %s-based\n#\n# MQ2008 sample\n"
	noZero := "2 qid:1 2:0.8012744652063969 3:0.5821620360643678\n"
	if _, err := readString(t, fmt.Sprintf(header, "zero")+noZero, ReadOptions{}); err == nil ||
		err.Error() != `in.txt:2: scikit-learn's dump_svmlight_file wrote this file with 0-based indices ("# Column indices are zero-based"); expected indices from 1: write it with zero_based=False` {
		t.Errorf("0-based dump with its header: %v", err)
	}
	d, err := readString(t, fmt.Sprintf(header, "one")+oneBased, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float32{{0.75, 0, 0.4306280204141778}, {0, 0.4331269402364738, 0.5867985714381407},
		{0.8012744652063969, 0.479051298140834, 0.7378377872921602}, {0.5821620360643678, 0, 0.9562672548360985}}
	if !reflect.DeepEqual(d.Cols, want) || !reflect.DeepEqual(d.Labels, []float32{2, 0, 1}) || !reflect.DeepEqual(d.QueryOffsets, []int{0, 2, 3}) {
		t.Errorf("1-based dump: cols %v labels %v offsets %v", d.Cols, d.Labels, d.QueryOffsets)
	}
}

// A real 16 MiB line: the limit itself, not only the test hook.
func TestReadLineOver16MiB(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 16 MiB")
	}
	var b bytes.Buffer
	b.WriteString("1 qid:1 1:1\n1 qid:1 1:1 # ")
	b.Write(bytes.Repeat([]byte("x"), MaxLineBytes))
	b.WriteString("\n")
	_, err := ReadBytes(context.Background(), "big.txt", b.Bytes(), ReadOptions{})
	if err == nil || err.Error() != "big.txt:2: line longer than 16.0 MiB; expected one document per line" {
		t.Fatalf("got %v", err)
	}
}

func TestReadCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := ReadBytes(ctx, "in.txt", []byte("1 qid:1 1:1\n"), ReadOptions{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

// The golden statistics of the built-in MQ2008 Fold1 files (shared/data/PROVENANCE.md).
func TestBuiltinMQ2008(t *testing.T) {
	cases := []struct {
		name             string
		docs, queries    int
		labels           map[string]int
		minQ, maxQ       int
		medQ             float64
		noRelevant       int
		firstID, firstQ0 string
	}{
		{"builtin:mq2008/train", 9630, 471, map[string]int{"0": 7820, "1": 1223, "2": 587}, 5, 121, 8, 132, "docid = GX008-86-4444840 inc = 1 prob = 0.086622", ""},
		{"builtin:mq2008/vali", 2707, 157, map[string]int{"0": 2140, "1": 400, "2": 167}, 6, 118, 8, 37, "", ""},
		{"builtin:mq2008/test", 2874, 156, map[string]int{"0": 2319, "1": 378, "2": 177}, 6, 119, 14.5, 51, "", ""},
	}
	for _, tc := range cases {
		d, err := LoadDataset(context.Background(), tc.name, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		s := Summarize(d, nil)
		if s.Docs != tc.docs || s.Queries != tc.queries || s.Features != 46 || !reflect.DeepEqual(s.Labels, tc.labels) {
			t.Errorf("%s: got %d docs, %d queries, %d features, labels %v", tc.name, s.Docs, s.Queries, s.Features, s.Labels)
		}
		if s.DocsPerQuery != (DocsPerQuery{tc.minQ, tc.medQ, tc.maxQ}) || s.ZeroQueries != tc.noRelevant {
			t.Errorf("%s: docs per query %+v, queries without relevant %d", tc.name, s.DocsPerQuery, s.ZeroQueries)
		}
		if tc.firstID != "" && d.DocID(0) != tc.firstID {
			t.Errorf("%s: first doc id %q", tc.name, d.DocID(0))
		}
		// Spot values from the first line of train.txt.
		if tc.name == "builtin:mq2008/train" && (d.Cols[0][0] != 0.007477 || d.Cols[45][0] != 0.007042 || d.QueryIDs[0] != 10002) {
			t.Errorf("first line parsed as %v %v qid %d", d.Cols[0][0], d.Cols[45][0], d.QueryIDs[0])
		}
	}
	// The validation split answers to the --valid flag's name too, and the
	// aliases stay out of the listed names.
	vali, err := LoadDataset(context.Background(), "builtin:mq2008/vali", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, alias := range []string{"builtin:mq2008/valid", "builtin:mq2008/validation"} {
		d, err := LoadDataset(context.Background(), alias, ReadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", alias, err)
		}
		if d.NumDocs() != vali.NumDocs() || !reflect.DeepEqual(d.QueryIDs, vali.QueryIDs) || !reflect.DeepEqual(d.Labels, vali.Labels) {
			t.Errorf("%s is not the validation split: %d documents against %d", alias, d.NumDocs(), vali.NumDocs())
		}
		if slices.Contains(BuiltinNames(), alias) {
			t.Errorf("BuiltinNames() lists the alias %s: %v", alias, BuiltinNames())
		}
	}
	if _, err := LoadDataset(context.Background(), "builtin:mq2008/valida", ReadOptions{}); err == nil {
		t.Error("builtin:mq2008/valida read")
	}
	if _, err := LoadDataset(context.Background(), "builtin:nope", ReadOptions{}); err == nil || !strings.Contains(err.Error(), "builtin:mq2008/train") {
		t.Errorf("unknown built-in: %v", err)
	}
}

// parseFloat32 must agree with strconv's float64, rounded to float32, on
// every decimal string: also just above the midpoint of two float32 values,
// where rounding straight to float32 would give the upper one and XGBoost,
// NumPy and scikit-learn give the even one.
func TestParseFloat32(t *testing.T) {
	cases := []string{"0", "-0", "+1", "1.", ".5", "0.000000", "1.000000", "0.007477", "123456789", "1e10", "1E-10",
		"3.4028235e38", "3.4028236e38", "1e-46", "1.4e-45", "16777217", "0.1", "9.999999e-5", "00012.5000",
		"12345678901234567890123", "0.00000000000000000000000000001234"}
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 20000; i++ {
		cases = append(cases, strconv.FormatFloat(r.NormFloat64()*math.Pow(10, float64(r.IntN(20)-10)), 'g', 1+r.IntN(12), 64))
		cases = append(cases, fmt.Sprintf("%d.%0*d", r.IntN(1000), 1+r.IntN(8), r.IntN(100000000)))
	}
	var tricky []string
	for _, c := range []float32{0.746948, 1.0000001, 3.3333333e-5, 16777218, 0.1} {
		if math.Float32bits(c)&1 == 0 {
			c = math.Nextafter32(c, 1e38) // odd: the midpoint below ties to the one below
		}
		mid := (float64(math.Nextafter32(c, -1e38)) + float64(c)) / 2
		text := strings.TrimRight(new(big.Float).SetFloat64(mid).Text('f', 200), "0")
		tricky = append(tricky, text+"00000000000000000000001")
	}
	cases = append(cases, tricky...)
	for _, s := range cases {
		got, ok := parseFloat32([]byte(s))
		want, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsInf(float64(float32(want)), 0) {
			if ok {
				t.Errorf("%q: got %v, strconv says %v", s, got, float32(want))
			}
			continue
		}
		if !ok || math.Float32bits(got) != math.Float32bits(float32(want)) {
			t.Errorf("%q: got %v (ok %v), want %v", s, got, ok, float32(want))
		}
	}
	for _, s := range tricky {
		direct, _ := strconv.ParseFloat(s, 32)
		if got, _ := parseFloat32([]byte(s)); got == float32(direct) {
			t.Errorf("%q: %v is the float32 nearest the text, not the float64's", s, got)
		}
	}
	for _, s := range []string{"", "-", ".", "e5", "1e", "1e+", "0x10", "inf", "nan", "1_0", "1.2.3", "--1", " 1"} {
		if v, ok := parseFloat32([]byte(s)); ok {
			t.Errorf("%q: accepted as %v", s, v)
		}
	}
}

// BenchmarkReadBytes reads an MSLR-shaped text (136 features on every
// line, four decimals) of 20,000 documents: the reader's hot loop.
func BenchmarkReadBytes(b *testing.B) {
	in := synthBytes(b, SynthOptions{Queries: 200, DocsPerQuery: 100, Seed: 1})
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadBytes(context.Background(), "in.txt", in, ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestReadFileCutBetweenPasses reads a file that another process empties,
// or cuts short at a chunk boundary, between the reader's two passes (a
// file rewritten in place, `cat new > d.txt`): the second pass saw fewer
// chunks than the first counted, and the reader returned the documents
// of the chunks it never read as zeros, of qid 0 and with no ids (DocID
// panicked), instead of refusing the file.
func TestReadFileCutBetweenPasses(t *testing.T) {
	// Lines of 16 bytes, a chunk of 16: one line a chunk.
	full := "1 qid:1 1:1 # a\n2 qid:1 1:2 # b\n3 qid:2 1:3 # c\n"
	for _, second := range []string{"", full[:16], full[:32]} {
		for _, workers := range []int{1, 2} {
			opens := 0
			src := source{name: "d.txt", size: int64(len(full)), open: func() (io.ReadCloser, error) {
				opens++
				if opens == 1 {
					return io.NopCloser(strings.NewReader(full)), nil
				}
				return io.NopCloser(strings.NewReader(second)), nil
			}}
			d, err := read(context.Background(), src, ReadOptions{chunkSize: 16, Workers: workers})
			if err == nil {
				t.Errorf("second pass %q, %d workers: read %d documents, labels %v; want the file refused as changed", second, workers, d.NumDocs(), d.Labels)
			} else if want := "d.txt: the file changed while it was read"; err.Error() != want {
				t.Errorf("second pass %q, %d workers: %v; want %q", second, workers, err, want)
			}
		}
	}
	// The same text on both passes reads.
	src := source{name: "d.txt", size: int64(len(full)), open: func() (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader(full)), nil
	}}
	d, err := read(context.Background(), src, ReadOptions{chunkSize: 16, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d.Labels, []float32{1, 2, 3}) || d.DocID(2) != "c" {
		t.Errorf("labels %v, last id %q; want [1 2 3], c", d.Labels, d.DocID(2))
	}
}

// A small file is read through a buffer of its size, not a megabyte cleared
// at each pass: reading three lines allocated 2 MB, which made a fuzz
// execution and a small file's reading a millisecond.
func TestReadSmallAllocatesLittle(t *testing.T) {
	in := []byte("2 qid:7 1:0.5 3:-1.25e1 # doc-a\n0 qid:7 2:3 # b\n1 qid:8 3:.5 1:5.\n")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	const runs = 20
	for i := 0; i < runs; i++ {
		if _, err := ReadBytes(context.Background(), "f.txt", in, ReadOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / runs; per > 256<<10 {
		t.Errorf("reading 3 lines allocated %d bytes a time, want under 256 KiB", per)
	}
	for _, c := range []struct {
		size int64
		want int
	}{{0, 1 << 20}, {-1, 1 << 20}, {1, 4 << 10}, {100 << 10, 100 << 10}, {1 << 20, 1 << 20}, {1 << 40, 1 << 20}} {
		if got := readBufferSize(c.size); got != c.want {
			t.Errorf("readBufferSize(%d) = %d, want %d", c.size, got, c.want)
		}
	}
}
