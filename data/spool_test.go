package data

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// spoolText is a data set of n lines, with a byte order mark (which both
// passes must skip alike) and CRLF ends.
func spoolText(n int) string {
	var b strings.Builder
	b.WriteString("\xef\xbb\xbf")
	for i := range n {
		fmt.Fprintf(&b, "%d qid:%d 1:%d.25 3:%d # d%d\r\n", i%3, i/7, i, i%11, i)
	}
	return b.String()
}

// readCounting reads b as read does from a file, counting the opens of the
// source and recording the second pass's progress total.
func readCounting(t *testing.T, b []byte, opt ReadOptions) (d *Dataset, opens int, total2 int64, err error) {
	t.Helper()
	src := source{name: "in.txt", size: int64(len(b)), open: func() (io.ReadCloser, error) {
		opens++
		return io.NopCloser(bytes.NewReader(b)), nil
	}}
	opt.chunkSize = 256 // many chunks
	opt.Progress = func(pass int, done, total int64) {
		if pass == 2 {
			total2 = total
		}
	}
	d, err = read(context.Background(), src, opt)
	return d, opens, total2, err
}

// The second pass over a gzip file reads the text the first spooled (one
// open of the file, and pass 2's progress counts the text's bytes), with
// the data the plain text gives; the spool's file was removed as soon as
// it was made. A plain file is read twice, as before.
func TestReadGzipSpooled(t *testing.T) {
	dir := t.TempDir()
	defer func(d string) { spoolDir = d }(spoolDir)
	spoolDir = dir
	text := spoolText(500)
	want, opens, _, err := readCounting(t, []byte(text), ReadOptions{})
	if err != nil || opens != 2 {
		t.Fatalf("plain: %v, %d opens, want 2", err, opens)
	}
	var seen []string // the spool directory's files during the second pass
	opt := ReadOptions{Progress: func(pass int, done, total int64) {
		if pass == 2 {
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				seen = append(seen, e.Name())
			}
		}
	}}
	src := gz(t, text)
	got, opens, total2, err := readCounting(t, src, opt)
	if err != nil || opens != 1 || total2 != int64(len(text)) {
		t.Fatalf("gzip: %v, %d opens (want 1), pass 2 of %d bytes (want %d)", err, opens, total2, len(text))
	}
	if !reflect.DeepEqual(got, want) {
		t.Error("gzip read through the spool differs from the plain read")
	}
	if len(seen) > 0 {
		t.Errorf("the spool's file stayed in its directory: %v", seen)
	}
}

// When the spool cannot be made (its directory is missing) or would pass
// its limit, the second pass decompresses the file again, with the same
// data.
func TestReadGzipSpoolFallsBack(t *testing.T) {
	defer func(d string) { spoolDir = d }(spoolDir)
	text := spoolText(300)
	want, _, _, err := readCounting(t, []byte(text), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	spoolDir = filepath.Join(t.TempDir(), "missing")
	got, opens, _, err := readCounting(t, gz(t, text), ReadOptions{})
	if err != nil || opens != 2 || !reflect.DeepEqual(got, want) {
		t.Errorf("no spool directory: %v, %d opens (want 2), same data %v", err, opens, reflect.DeepEqual(got, want))
	}

	dir := t.TempDir()
	spoolDir = dir
	s := newSpool()
	s.limit = 100
	r := s.tee(strings.NewReader(text))
	if b, err := io.ReadAll(r); err != nil || string(b) != text {
		t.Fatalf("the tee changed the text: %v", err)
	}
	if _, ok := s.source("in.txt"); ok || !s.failed || s.f != nil {
		t.Errorf("a spool past its limit of 100 bytes holds the text (failed %v)", s.failed)
	}
	if ents, _ := os.ReadDir(dir); len(ents) > 0 {
		t.Errorf("a spool that gave up left %d files", len(ents))
	}
}

// An error in the first pass (a bad line) or an interrupt ends the read
// with nothing left in the spool's directory.
func TestReadGzipSpoolLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	defer func(d string) { spoolDir = d }(spoolDir)
	spoolDir = dir
	bad := spoolText(200) + "x qid:1 1:1\n"
	if _, _, _, err := readCounting(t, gz(t, bad), ReadOptions{}); err == nil || !strings.HasPrefix(err.Error(), "in.txt:201: ") {
		t.Errorf("a bad line 201: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	b := gz(t, spoolText(2000))
	src := source{name: "in.txt", size: int64(len(b)), open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }}
	_, err := read(ctx, src, ReadOptions{chunkSize: 256, Progress: func(pass int, done, total int64) {
		if pass == 2 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("interrupted in pass 2: %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) > 0 {
		t.Errorf("%d files left in the spool's directory", len(ents))
	}
}

// A data set read from memory (ReadBytes: a pipe's text, the built-in
// sets) reports the bytes each pass has consumed, as a file does: it
// reported 0 of the whole at every chunk, and a progress line stayed at
// 0% to the end of each pass.
func TestReadBytesProgress(t *testing.T) {
	text := []byte(spoolText(500))
	last := map[int]int64{}
	opt := ReadOptions{chunkSize: 256, Progress: func(pass int, done, total int64) {
		if total != int64(len(text)) {
			t.Errorf("pass %d: total %d, want %d", pass, total, len(text))
		}
		last[pass] = done
	}}
	if _, err := ReadBytes(context.Background(), "in.txt", text, opt); err != nil {
		t.Fatal(err)
	}
	for pass := 1; pass <= 2; pass++ {
		if last[pass] != int64(len(text)) {
			t.Errorf("pass %d: %d bytes consumed at its end, want %d", pass, last[pass], len(text))
		}
	}
}
