package data

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A gzip file whose content is binary from the start (a gigabyte of zeros
// compresses to 4.3 MB) is refused from its first bytes, without reading on
// (wholeLimit is not even asked), at the line of its first NUL.
func TestDecodeWholeRefusesBinaryEarly(t *testing.T) {
	defer func(f func() int64) { wholeLimit = f }(wholeLimit)
	wholeLimit = func() int64 { t.Fatal("DecodeWhole read on past the first bytes"); return 0 }
	for _, c := range []struct {
		content string
		line    int
	}{
		{strings.Repeat("\x00", 1<<20), 1},
		{"one\ntwo\nthree\nfour\nfi\x00ve\n" + strings.Repeat("x", 1<<20), 5},
		{"0.5\n" + strings.Repeat("1.5\n", 1000) + "\x00", 1002},
	} {
		_, err := DecodeWhole("z.gz", gz(t, c.content))
		var pe *ParseError
		if !errors.As(err, &pe) || pe.File != "z.gz" || pe.Line != c.line || !strings.Contains(pe.Msg, "binary data (a NUL byte)") {
			t.Errorf("content %.12q…: %v, want a binary-data error at z.gz:%d", c.content, err, c.line)
		}
	}
}

// Content that starts as a binary file some reader names itself (an
// XGBoost model in UBJSON or its old format, UTF-16 text) is read whole,
// NULs and all; and so is text of every length around the first look.
func TestDecodeWholeKeeps(t *testing.T) {
	defer func(f func() int64) { wholeLimit = f }(wholeLimit)
	wholeLimit = func() int64 { return 1 << 30 }
	var cases []string
	for _, head := range []string{"{L\x00\x00\x00\x00\x00\x00\x00\x05", "binf\x00\x00\x00\x00", "\xff\xfe#\x00 \x00"} {
		cases = append(cases, head, head+strings.Repeat("\x00\x01", sniffWhole))
	}
	for _, n := range []int{0, 1, sniffWhole - 1, sniffWhole, sniffWhole + 1, 5 * sniffWhole} {
		b := make([]byte, n)
		for i := range b {
			b[i] = "ab \n"[i*7%4]
		}
		cases = append(cases, string(b))
	}
	for _, c := range cases {
		got, err := DecodeWhole("m.gz", gz(t, c))
		if err != nil || !bytes.Equal(got, []byte(c)) {
			t.Errorf("%d bytes %.10q…: got %d bytes, %v", len(c), c, len(got), err)
		}
	}
}

// Content larger than wholeLimit (a quarter of the memory available) is
// refused, naming the file; at the limit it is read.
func TestDecodeWholeLimit(t *testing.T) {
	defer func(f func() int64) { wholeLimit = f }(wholeLimit)
	content := "{" + strings.Repeat(" ", 200_000) + "}"
	for _, c := range []struct {
		limit int64
		ok    bool
	}{{100_000, false}, {200_001, false}, {200_002, true}, {1 << 30, true}} {
		wholeLimit = func() int64 { return c.limit }
		got, err := DecodeWhole("big.json.gz", gz(t, content))
		if c.ok {
			if err != nil || string(got) != content {
				t.Errorf("limit %d: %v", c.limit, err)
			}
			continue
		}
		var pe *ParseError
		if !errors.As(err, &pe) || pe.File != "big.json.gz" || !strings.Contains(pe.Msg, "decompresses to more than") {
			t.Errorf("limit %d: %v, want the file refused as too large", c.limit, err)
		}
	}
}

// ReadWholeAs gives a gzip file refused as binary to the reader's parse,
// cut at the first look: the reader's refusal, naming the kind of file,
// replaces DecodeWhole's; a parse that takes the cut bytes leaves the
// refusal standing; text is read whole and never given to parse.
func TestReadWholeAs(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bin := write("bin.gz", gz(t, "KIND"+strings.Repeat("\x00", 3*sniffWhole)))
	var got []byte
	_, err := ReadWholeAs(bin, "a model", func(head []byte) error {
		got = head
		return errors.New("a KIND file")
	})
	if err == nil || err.Error() != "a KIND file" {
		t.Errorf("the reader's refusal: %v", err)
	}
	if len(got) != sniffWhole || !bytes.HasPrefix(got, []byte("KIND\x00")) {
		t.Errorf("parse was given %d bytes %.8q, want the first %d", len(got), got, sniffWhole)
	}
	_, err = ReadWholeAs(bin, "a model", func([]byte) error { return nil })
	var pe *ParseError
	if !errors.As(err, &pe) || !strings.Contains(pe.Msg, "binary data") {
		t.Errorf("parse took the cut bytes: %v, want the refusal", err)
	}
	text := strings.Repeat("text\n", sniffWhole)
	b, err := ReadWholeAs(write("t.gz", gz(t, text)), "a model", func([]byte) error { t.Error("parse called on text"); return nil })
	if err != nil || string(b) != text {
		t.Errorf("text: %d bytes, %v", len(b), err)
	}
}
