package data

import "bytes"

// ImageKind names the image b starts with, "a PNG image" or "an SVG
// image" (a plot, as sweep --plot writes), or "" when it is none: given as
// data, a model or a cascade, an SVG was called "XML (a RankLib model?)"
// or "a JSON object" expected, and a PNG "binary data (a NUL byte)" (or,
// to import --from xgboost, "XGBoost's binary format?").
func ImageKind(b []byte) string {
	if bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) {
		return "a PNG image"
	}
	if isSVG(b) {
		return "an SVG image"
	}
	return ""
}

// isSVG reports whether b's first element, after an XML declaration,
// comments and a doctype, is <svg.
func isSVG(b []byte) bool {
	b = bytes.TrimPrefix(b, utf8BOM)
	for {
		b = bytes.TrimLeft(b, " \t\r\n")
		end := ""
		switch {
		case bytes.HasPrefix(b, []byte("<?")):
			end = "?>"
		case bytes.HasPrefix(b, []byte("<!--")):
			end = "-->"
		case bytes.HasPrefix(b, []byte("<!")):
			end = ">"
		}
		if end == "" {
			break
		}
		i := bytes.Index(b, []byte(end))
		if i < 0 {
			return false
		}
		b = b[i+len(end):]
	}
	rest, ok := bytes.CutPrefix(b, []byte("<svg"))
	return ok && (len(rest) == 0 || bytes.IndexByte([]byte(" \t\r\n>/"), rest[0]) >= 0)
}

// IsUTF16 reports whether b starts with a UTF-16 byte order mark (Windows
// PowerShell's > and Out-File, Notepad's "Unicode"): text whose every
// ASCII character is two bytes, a NUL among them.
func IsUTF16(b []byte) bool {
	return bytes.HasPrefix(b, utf16LE) || bytes.HasPrefix(b, utf16BE)
}

// UTF16Message is the refusal of UTF-16 text where expected ("a cost
// file", "SVMlight/LETOR text") was wanted in UTF-8 or ASCII, with the way
// to convert it: the data, cost, score, model and import readers say it
// alike.
func UTF16Message(expected string) string {
	return "UTF-16 text (its byte order mark); expected " + expected + " in UTF-8 or ASCII: convert it, e.g. iconv -f UTF-16 -t UTF-8"
}

// compressors are the formats told by their first bytes that cronus does
// not decompress, with the command that does: LETOR 4.0 comes as RAR,
// MSLR as zip, Yahoo's set as bzip2, and users recompress with xz or zstd.
var compressors = []struct {
	magic, offset    string // magic bytes at byte offset len(offset)
	kind, decompress string
}{
	{magic: "BZh", kind: "bzip2-compressed data", decompress: "bunzip2 -k"},
	{magic: "\xfd7zXZ\x00", kind: "xz-compressed data", decompress: "unxz -k"},
	{magic: "\x28\xb5\x2f\xfd", kind: "zstd-compressed data", decompress: "unzstd"},
	{magic: "\x04\x22\x4d\x18", kind: "lz4-compressed data", decompress: "unlz4"},
	{magic: "PK\x03\x04", kind: "a zip archive", decompress: "unzip"},
	{magic: "7z\xbc\xaf\x27\x1c", kind: "a 7-Zip archive", decompress: "7z x"},
	{magic: "Rar!\x1a\x07", kind: "a RAR archive", decompress: "unrar x"},
	{magic: "ustar", offset: string(make([]byte, 257)), kind: "a tar archive", decompress: "tar xf"},
}

// CompressedMessage names the compressed file or archive b starts with
// (after gzip's decompression, for a tar) and the command that unpacks it,
// for a reader that expected (a cost file, SVMlight/LETOR text) and reads
// only plain text or gzip: "" when b is none of them. Such a file was
// "binary data (a NUL byte)", or a label or cost its first bytes are not.
func CompressedMessage(b []byte, expected string) string {
	for _, c := range compressors {
		at := len(c.offset)
		if len(b) >= at+len(c.magic) && string(b[at:at+len(c.magic)]) == c.magic && (c.magic != "BZh" || isBzip2(b)) {
			return c.kind + ", which cronus does not read; expected " + expected + ", plain or gzip: unpack it first, e.g. " + c.decompress
		}
	}
	return ""
}

// isBzip2 reports whether b, starting "BZh", goes on as bzip2 does: a
// block size from 1 to 9, then a block's magic (π's digits) or the end of
// stream's (√π's). "BZh" alone is three letters of text.
func isBzip2(b []byte) bool {
	if len(b) < 10 || b[3] < '1' || b[3] > '9' {
		return false
	}
	m := string(b[4:10])
	return m == "\x31\x41\x59\x26\x53\x59" || m == "\x17\x72\x45\x38\x50\x90"
}
