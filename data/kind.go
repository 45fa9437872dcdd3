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
