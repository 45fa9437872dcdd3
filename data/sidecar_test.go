package data

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// A file without qids beside a query-size file (LightGBM's rank.train.query,
// XGBoost's mq2008.train.group) takes its queries from it, numbered from 1,
// as those tools read it: the result is the same data set as the file with
// the qids written on its lines.
func TestReadFileQuerySidecar(t *testing.T) {
	const noQID = "1 1:0.5 2:1\n0 1:0.25\n# a comment line\n2 2:3 # d3\n\n0 1:1\n1 1:2 2:2\n"
	const withQIDs = "1 qid:1 1:0.5 2:1\n0 qid:1 1:0.25\n# a comment line\n2 qid:2 2:3 # d3\n\n0 qid:3 1:1\n1 qid:3 1:2 2:2\n"
	want, err := readString(t, withQIDs, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		ext   string
		sizes string
		gzip  bool
		crlf  bool
		gzSz  bool // the size file gzipped, as every file cronus reads may be
	}{
		{".query", "2\n1\n2\n", false, false, false},
		{".group", "2\r\n1\r\n2\r\n", false, true, false},
		{".query", "\ufeff2\n1\n 2 \n\n", true, false, false}, // a BOM, spaces, a blank line at the end
		{".group", "2\n\n1\n2", false, false, false},          // a blank line between, no newline at the end
		{".query", "2\n1\n2\n", false, false, true},
		{".group", "\ufeff2\r\n1\r\n2", true, false, true},
	} {
		t.Run(fmt.Sprintf("%s gzip=%v crlf=%v gzipped sizes=%v", tc.ext, tc.gzip, tc.crlf, tc.gzSz), func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "rank train")
			text := []byte(noQID)
			if tc.crlf {
				text = []byte(strings.ReplaceAll(noQID, "\n", "\r\n"))
			}
			if tc.gzip {
				text = gz(t, noQID)
			}
			os.WriteFile(p, text, 0o644)
			sizes := []byte(tc.sizes)
			if tc.gzSz {
				sizes = gz(t, tc.sizes)
			}
			os.WriteFile(p+tc.ext, sizes, 0o644)
			d, err := ReadFile(context.Background(), p, ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !d.HasQID || d.QueryFile != p+tc.ext || !reflect.DeepEqual(d.QueryIDs, want.QueryIDs) || !reflect.DeepEqual(d.QueryOffsets, want.QueryOffsets) ||
				!reflect.DeepEqual(d.Cols, want.Cols) || !reflect.DeepEqual(d.Labels, want.Labels) || d.DocID(2) != "d3" {
				t.Errorf("qids %v offsets %v (want %v %v), query file %q, labels %v", d.QueryIDs, d.QueryOffsets, want.QueryIDs, want.QueryOffsets, d.QueryFile, d.Labels)
			}
		})
	}

	// Bad size files: the error names the size file, and the line when
	// one line is at fault.
	full := gz(t, "2\n1\n2\n")
	truncGz := string(full[:len(full)-4])
	for _, tc := range []struct{ sizes, want string }{
		{"2\n1\n3\n", ":3: the query sizes come to more than the 5 documents of"},
		{"2\n1\n", ": the query sizes come to 3 documents, and"},
		{"2\nx\n3\n", `:2: query size "x" is not a whole number of at least 1`},
		{"2\n0\n3\n", `:2: query size "0" is not`},
		{"2\n-1\n", `:2: query size "-1" is not`},
		{"2.0\n3\n", `:1: query size "2.0" is not`},
		{"2 3\n", `:1: query size "2 3" is not`},
		{"2\r1\r2\r", ":1: " + BareCR}, // was `query size "2\r1\r2" is not …`
		{"99999999999999999999\n", `:1: query size "99999999999999999999" is not`},
		{"9223372036854775807\n", ":1: the query sizes come to more than"},
		{"", ": the query sizes come to 0 documents, and"},
		{strings.Repeat("1", 300) + "\n", ":1: line longer than 256 bytes"},
		// Not a size file at all, named from its first bytes (they were
		// `query size "\xff\xfe2\x00" is not …` and the like); a gzip one
		// cut short as the data reader names it.
		{"\xff\xfe2\x00\n\x001\x00\n\x00", ":1: UTF-16 text (its byte order mark); expected a file of query sizes"},
		{"sizes.txt" + strings.Repeat("\x00", 248) + "ustar\x0000" + strings.Repeat("\x00", 250), ":1: a tar archive, which cronus does not read; expected a file of query sizes"},
		{"2\n1\n\x002\n", ":3: binary data (a NUL byte); expected a file of query sizes"},
		{"\x89PNG\r\n\x1a\n\x00\x00", ":1: a PNG image; expected a file of query sizes"},
		{truncGz, ":4: gzip stream is truncated"}, // the trailer cut: every line read, whatever the compressor
		{string(gz(t, "2\n1\n3\n")), ":3: the query sizes come to more than"},
	} {
		dir := t.TempDir()
		p := filepath.Join(dir, "train.txt")
		os.WriteFile(p, []byte(noQID), 0o644)
		os.WriteFile(p+".query", []byte(tc.sizes), 0o644)
		_, err := ReadFile(context.Background(), p, ReadOptions{})
		var pe *ParseError
		if !errors.As(err, &pe) || pe.File != p+".query" || !strings.Contains(err.Error(), p+".query"+tc.want) {
			t.Errorf("sizes %q: got %v, want an error with %q", tc.sizes, err, p+".query"+tc.want)
		}
	}

	// With qids on the lines, a size file beside is not read; without
	// either, a file without qids is one query; with both size files,
	// .query is read.
	dir := t.TempDir()
	withQID := filepath.Join(dir, "with.txt")
	os.WriteFile(withQID, []byte("1 qid:4 1:1\n0 qid:5 1:2\n"), 0o644)
	os.WriteFile(withQID+".group", []byte("junk\n"), 0o644)
	if d, err := ReadFile(context.Background(), withQID, ReadOptions{}); err != nil || !reflect.DeepEqual(d.QueryIDs, []int64{4, 5}) || d.QueryFile != "" {
		t.Errorf("qids and a .group file: %v", err)
	}
	alone := filepath.Join(dir, "alone.txt")
	os.WriteFile(alone, []byte(noQID), 0o644)
	os.Mkdir(alone+".query", 0o755) // not a file
	if d, err := ReadFile(context.Background(), alone, ReadOptions{}); err != nil || d.NumQueries() != 1 || d.HasQID {
		t.Errorf("no qids, no size file: %v", err)
	}
	both := filepath.Join(dir, "both.txt")
	os.WriteFile(both, []byte(noQID), 0o644)
	os.WriteFile(both+".query", []byte("5\n"), 0o644)
	os.WriteFile(both+".group", []byte("4\n1\n"), 0o644)
	if d, err := ReadFile(context.Background(), both, ReadOptions{}); err != nil || d.NumQueries() != 1 || d.QueryFile != both+".query" {
		t.Errorf(".query and .group: %v", err)
	}
}

// FuzzQuerySizes: readQuerySizes never panics, and what it accepts are
// offsets from 0 to the documents, rising strictly.
func FuzzQuerySizes(f *testing.F) {
	for _, s := range []string{"2\n1\n2\n", "\ufeff5", "1\r\n\r\n4\n", "0\n", "x", "", "9223372036854775807\n1\n"} {
		f.Add([]byte(s), 5)
	}
	f.Fuzz(func(t *testing.T, b []byte, docs int) {
		if docs < 0 || docs > 1<<20 {
			return
		}
		off, err := readQuerySizes(strings.NewReader(string(b)), "s.query", docs, "d.txt")
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.File != "s.query" {
				t.Fatalf("error %v is not a ParseError naming the file", err)
			}
			return
		}
		if len(off) < 1 || off[0] != 0 || off[len(off)-1] != docs {
			t.Fatalf("offsets %v for %d documents", off, docs)
		}
		for i := 1; i < len(off); i++ {
			if off[i] <= off[i-1] {
				t.Fatalf("offsets %v do not rise", off)
			}
		}
	})
}
