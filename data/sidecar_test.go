package data

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// A file without qids beside a query-size file (LightGBM's rank.train.query,
// XGBoost's mq2008.train.group) is refused, saying how to put the qids on the
// lines, rather than read silently as one query. The command the message
// gives, run, makes a file that reads with those queries.
func TestReadFileQuerySidecar(t *testing.T) {
	const noQID = "1 1:0.5 2:1\n0 1:0.25\n# a comment line\n2 2:3 # d3\n\n0 1:1\n1 1:2 2:2\n"
	sizes := []int{2, 1, 2}
	for _, tc := range []struct {
		ext  string
		gzip bool
		crlf bool
	}{{".query", false, false}, {".group", false, true}, {".query", true, false}} {
		ext := tc.ext
		t.Run(fmt.Sprintf("%s gzip=%v crlf=%v", ext, tc.gzip, tc.crlf), func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "rank train") // a space: the command must quote it
			text := []byte(noQID)
			if tc.crlf {
				text = []byte(strings.ReplaceAll(noQID, "\n", "\r\n"))
			}
			if tc.gzip {
				text = gz(t, noQID)
			}
			os.WriteFile(p, text, 0o644)
			os.WriteFile(p+ext, []byte("2\n1\n2\n"), 0o644)
			_, err := ReadFile(context.Background(), p, ReadOptions{})
			var pe *ParseError
			if !errors.As(err, &pe) || pe.File != p || !strings.Contains(err.Error(), p+ext+" beside it") {
				t.Fatalf("got %v, want an error naming %s", err, p+ext)
			}
			_, cmd, ok := strings.Cut(err.Error(), "e.g. ")
			if !ok {
				t.Fatalf("no command in %q", err)
			}
			if _, err := exec.LookPath("awk"); err != nil {
				t.Skip("no awk to run the command with")
			}
			if out, err := exec.Command("sh", "-c", "cd "+shellQuote(dir)+" && "+cmd).CombinedOutput(); err != nil {
				t.Fatalf("%s: %v %s", cmd, err, out)
			}
			d, err := ReadFile(context.Background(), p+".qid", ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want, err := readString(t, noQID, ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(d.QueryIDs, []int64{1, 2, 3}) || !reflect.DeepEqual(d.QueryOffsets, []int{0, sizes[0], sizes[0] + sizes[1], 5}) ||
				!reflect.DeepEqual(d.Cols, want.Cols) || !reflect.DeepEqual(d.Labels, want.Labels) || d.DocID(2) != "d3" {
				t.Errorf("after %s: qids %v offsets %v labels %v cols %v", cmd, d.QueryIDs, d.QueryOffsets, d.Labels, d.Cols)
			}
		})
	}
	// With qids on the lines, a size file beside is not needed and not read;
	// without one, a file without qids is one query.
	dir := t.TempDir()
	withQID := filepath.Join(dir, "with.txt")
	os.WriteFile(withQID, []byte("1 qid:4 1:1\n0 qid:5 1:2\n"), 0o644)
	os.WriteFile(withQID+".group", []byte("junk\n"), 0o644)
	if d, err := ReadFile(context.Background(), withQID, ReadOptions{}); err != nil || !reflect.DeepEqual(d.QueryIDs, []int64{4, 5}) {
		t.Errorf("qids and a .group file: %v", err)
	}
	alone := filepath.Join(dir, "alone.txt")
	os.WriteFile(alone, []byte(noQID), 0o644)
	os.Mkdir(alone+".query", 0o755) // not a file
	if d, err := ReadFile(context.Background(), alone, ReadOptions{}); err != nil || d.NumQueries() != 1 {
		t.Errorf("no qids, no size file: %v", err)
	}
}
