package data

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// compressedSamples are "1 qid:1 1:0.5\n" as bzip2, xz, zstd, lz4 and zip
// wrote it (their own output, not made here), and a tar header.
var compressedSamples = []struct {
	b          string
	kind, undo string
}{
	{"BZh91AY&SY\x12-\x12C\x00\x00\x03Y\x80\x00\x10@\x01b\x10\x04  \x00 \x001\x000\x1a\x07\xa8\x00\x8bTY\x9b\xc7\x8b\xb9\"\x9c(H\t\x16\x89!\x80", "bzip2-compressed data", "bunzip2"},
	{"\xfd7zXZ\x00\x00\x04\xe6\xd6\xb4F\x02\x00!\x01\x16\x00\x00\x00t/\xe5\xa3\x01\x00\r1 qid:1 1:0.5\n\x00\x00\x00\x13\x94\xeb\xd6\xd9\xe6\xc5\xc8\x00\x01&\x0e\x08\x1b\xe0\x04\x1f\xb6\xf3}\x01\x00\x00\x00\x00\x04YZ", "xz-compressed data", "unxz"},
	{"(\xb5/\xfd$\x0eq\x00\x001 qid:1 1:0.5\n\xa8i<\xab", "zstd-compressed data", "unzstd"},
	{"\x04\"M\x18d@\xa7\x0e\x00\x00\x801 qid:1 1:0.5\n\x00\x00\x00\x00\xee\xcc]O", "lz4-compressed data", "unlz4"},
	{"PK\x03\x04\n\x00\x00\x00\x00\x00\x92J\x82]#\xba\x08\x81\x0e\x00\x00\x00\x0e\x00\x00\x00\x05\x00\x1c\x00s.txtUT\t\x00\x03", "a zip archive", "unzip"},
	{"d.txt" + strings.Repeat("\x00", 252) + "ustar\x0000" + strings.Repeat("\x00", 250), "a tar archive", "tar xf"},
}

// TestReadOtherCompressorNamed gives the data and cost readers a file
// compressed with another tool than gzip, or an archive (LETOR 4.0 comes
// as RAR, MSLR as zip, Istella as a tar.gz): it is named, with the command
// that unpacks it, on line 1, where it was "binary data (a NUL byte)".
func TestReadOtherCompressorNamed(t *testing.T) {
	for _, c := range compressedSamples {
		for name, b := range map[string][]byte{"plain": []byte(c.b), "gzip": gz(t, c.b)} {
			if c.kind != "a tar archive" && name == "gzip" {
				continue // a gzip of bzip2 is not what anyone has
			}
			_, err := ReadBytes(context.Background(), "d.txt", b, ReadOptions{})
			want := "d.txt:1: " + c.kind + ", which cronus does not read; expected SVMlight/LETOR text, plain or gzip: unpack it first, e.g. " + c.undo
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("data, %s %s: %v; want %q", name, c.kind, err, want)
			}
			file := filepath.Join(t.TempDir(), "c.txt")
			if err := os.WriteFile(file, b, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err = ReadCostsFile(file, 0)
			want = file + ":1: " + c.kind + ", which cronus does not read; expected a cost file, plain or gzip: unpack it first, e.g. " + c.undo
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("costs, %s %s: %v; want %q", name, c.kind, err, want)
			}
		}
	}
	// Text that starts as bzip2's magic does is not bzip2.
	if m := CompressedMessage([]byte("BZh9 is text\n"), "x"); m != "" {
		t.Errorf("BZh9 text: %q; want none", m)
	}
}
