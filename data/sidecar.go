package data

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// querySidecar gives d, read from path without qids, the queries of a
// file of query sizes beside it, path.query (LightGBM's rank.train.query)
// or path.group (XGBoost's mq2008.train.group), as those tools take them:
// one positive whole number a line, the number of documents of each
// query in turn, summing to the documents of path. Query k (from 1)
// gets qid k, as LightGBM and XGBoost number them. d is left as it is
// (one query) when neither file is there; path.query is taken when both
// are. Errors name the size file and its line.
func querySidecar(d *Dataset, path string) error {
	for _, ext := range []string{".query", ".group"} {
		sizes := path + ext
		st, err := os.Stat(sizes)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		f, err := OpenFile(sizes, "a file of query sizes")
		if err != nil {
			return err
		}
		defer f.Close()
		offsets, err := readQuerySizes(f, sizes, d.NumDocs(), path)
		if err != nil {
			return err
		}
		d.QueryOffsets = offsets
		d.QueryIDs = make([]int64, len(offsets)-1)
		for q := range d.QueryIDs {
			d.QueryIDs[q] = int64(q + 1)
		}
		d.HasQID = true
		d.QueryFile = sizes
		return nil
	}
	return nil
}

// maxSizeLine bounds a line of a size file: a whole number of documents
// needs at most 19 digits, and a line much longer is not a size file.
const maxSizeLine = 256

// readQuerySizes reads a file of query sizes (name, for messages) for
// data (dataName) of docs documents and returns the query offsets, from 0
// to docs. Blank lines are skipped, as are a UTF-8 byte order mark at
// the start and white space around a number (LF or CRLF). The file may be
// gzip-compressed, as every file cronus reads.
func readQuerySizes(r io.Reader, name string, docs int, dataName string) ([]int, error) {
	raw := bufio.NewReader(r)
	zr, err := gunzipIfGzip(raw, name, 1)
	if err != nil {
		return nil, err
	}
	br := raw
	if zr != io.Reader(raw) {
		br = bufio.NewReader(zr)
	}
	// What is not a size file at all is named from its first bytes, as
	// the data and cost readers name it: it was "query size "\xff\xfe2\x00"
	// is not a whole number" (UTF-16), or a line too long.
	head, _ := br.Peek(512)
	const what = "a file of query sizes"
	compressed, image, nul := CompressedMessage(head, what), ImageKind(head), bytes.IndexByte(head, 0)
	switch {
	case IsUTF16(head):
		return nil, &ParseError{File: name, Line: 1, Msg: UTF16Message(what)}
	case compressed != "":
		return nil, &ParseError{File: name, Line: 1, Msg: compressed}
	case image != "":
		return nil, &ParseError{File: name, Line: 1, Msg: image + "; expected " + what + ", one whole number a line"}
	case nul >= 0:
		return nil, &ParseError{File: name, Line: 1 + bytes.Count(head[:nul], []byte{'\n'}), Msg: "binary data (a NUL byte); expected " + what + ", one whole number a line"}
	}
	offsets := []int{0}
	sum := 0
	for line := 1; ; line++ {
		b, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) || len(b) > maxSizeLine {
			return nil, &ParseError{File: name, Line: line, Msg: fmt.Sprintf("line longer than %d bytes; a file of query sizes holds one whole number a line", maxSizeLine)}
		}
		if err != nil && !errors.Is(err, io.EOF) {
			if br != raw {
				err = gzipError(err)
			}
			return nil, &ParseError{File: name, Line: line, Msg: err.Error()}
		}
		if line == 1 {
			b = bytes.TrimPrefix(b, []byte("\ufeff"))
		}
		if s := strings.TrimSpace(string(b)); s != "" {
			if strings.IndexByte(s, '\r') >= 0 {
				return nil, &ParseError{File: name, Line: line, Msg: BareCR}
			}
			n, perr := strconv.ParseUint(s, 10, 63)
			switch {
			case perr != nil || n == 0:
				return nil, &ParseError{File: name, Line: line, Msg: fmt.Sprintf("query size %s is not a whole number of at least 1 (a file of query sizes, as LightGBM and XGBoost read beside %s, holds the number of documents of each query, one a line)", quoteToken(s), dataName)}
			case n > uint64(docs-sum):
				return nil, &ParseError{File: name, Line: line, Msg: fmt.Sprintf("the query sizes come to more than the %d documents of %s", docs, dataName)}
			}
			sum += int(n)
			offsets = append(offsets, sum)
		}
		if err != nil { // io.EOF
			break
		}
	}
	if sum != docs {
		return nil, &ParseError{File: name, Msg: fmt.Sprintf("the query sizes come to %d documents, and %s has %d", sum, dataName, docs)}
	}
	return offsets, nil
}
