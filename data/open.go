package data

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"syscall"
)

// OpenError is a file that cannot be opened or read, said plainly and
// naming it ("m.json: no such file", "runs: is a directory, expected a
// model file") rather than in the system's words ("open m.json: no such
// file or directory"). It wraps the system's error, so that
// errors.Is(err, fs.ErrNotExist) still holds.
type OpenError struct {
	Path string
	What string // what the file should be ("a model file"); "" if unknown
	Err  error
}

func (e *OpenError) Error() string {
	switch {
	case errors.Is(e.Err, fs.ErrNotExist) && e.Path == "-":
		// "-" is standard output for the output flags; an input reads a file.
		return "-: no such file (for standard input give /dev/stdin)"
	case errors.Is(e.Err, fs.ErrNotExist) && IsBuiltin(e.Path) && e.What != "":
		// Where data and cost flags take built-in names, others do not.
		return e.Path + ": no such file (the built-in names are data and cost files; this wants " + e.What + ")"
	case errors.Is(e.Err, fs.ErrNotExist):
		return e.Path + ": no such file"
	case errors.Is(e.Err, syscall.EISDIR):
		if e.What == "" {
			return e.Path + ": is a directory, expected a file"
		}
		return e.Path + ": is a directory, expected " + e.What
	case errors.Is(e.Err, syscall.ENOTDIR):
		return e.Path + ": no such file (a part of the path is not a directory)"
	case errors.Is(e.Err, fs.ErrPermission):
		return e.Path + ": cannot be read (permission denied)"
	}
	// The reason without Go's "open PATH: " prefix.
	msg := e.Err.Error()
	var pe *fs.PathError
	if errors.As(e.Err, &pe) {
		msg = pe.Err.Error()
	}
	return e.Path + ": cannot be read: " + msg
}

func (e *OpenError) Unwrap() error { return e.Err }

// OpenFile opens path for reading, a file of the kind what names ("a model
// file", for messages). A missing file, a directory or a file that cannot
// be opened is a *OpenError.
func OpenFile(path, what string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &OpenError{Path: path, What: what, Err: err}
	}
	// A directory opens, and only its first read fails.
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, &OpenError{Path: path, What: what, Err: syscall.EISDIR}
	}
	return f, nil
}

// ReadWhole reads the whole of path, as os.ReadFile does, with the errors
// of OpenFile. A file that starts with the gzip magic bytes is decompressed,
// as the data and cost readers do (by content, not name); a broken gzip
// stream is a *ParseError naming the file. A UTF-8 byte order mark at the
// start (of the decompressed text) is dropped, as the data readers drop it:
// an editor may write one into a JSON or text model, and encoding/json and
// the importers would refuse the file as not a JSON object or not a model.
func ReadWhole(path, what string) ([]byte, error) {
	f, err := OpenFile(path, what)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, &OpenError{Path: path, What: what, Err: err}
	}
	return DecodeWhole(path, b)
}

// DecodeWhole is ReadWhole of the contents b, already read from path
// (named in errors): decompressed when it is gzip, a UTF-8 byte order
// mark dropped. A small gzip file can hold a great deal (a 4.3 MB file a
// gigabyte of zeros), so before it goes on decompressing, DecodeWhole
// looks at the first sniffWhole bytes: binary data (a NUL byte) is refused
// there, unless the content starts as one of the binary files a reader
// names itself (an XGBoost model in UBJSON, with '{', or in its old
// format, "binf"; UTF-16 text); and the whole must come to at most a
// quarter of the memory available (wholeLimit), as its reader needs a few
// times its size again.
func DecodeWhole(path string, b []byte) ([]byte, error) {
	br := bufio.NewReader(bytes.NewReader(b))
	zr, err := gunzipIfGzip(br, path, 0)
	if err != nil {
		return nil, err
	}
	if zr == io.Reader(br) {
		return bytes.TrimPrefix(b, utf8BOM), nil
	}
	text := make([]byte, 0, sniffWhole)
	text, err = readUpTo(zr, text, sniffWhole)
	if err != nil {
		return nil, &ParseError{File: path, Msg: gzipError(err).Error()}
	}
	if i := bytes.IndexByte(text, 0); i >= 0 && !namedBinary(text) {
		return nil, &binaryHead{head: text, err: &ParseError{File: path, Line: 1 + bytes.Count(text[:i], []byte{'\n'}),
			Msg: "binary data (a NUL byte) once decompressed, where text was expected"}}
	}
	if len(text) < sniffWhole {
		return bytes.TrimPrefix(text, utf8BOM), nil
	}
	limit := wholeLimit()
	text, err = readUpTo(zr, text, limit+1)
	if err != nil {
		return nil, &ParseError{File: path, Msg: gzipError(err).Error()}
	}
	if int64(len(text)) > limit {
		return nil, &ParseError{File: path, Msg: fmt.Sprintf("decompresses to more than %s, a quarter of the memory available: too large to read whole", SizeString(limit))}
	}
	return bytes.TrimPrefix(text, utf8BOM), nil
}

// binaryHead is DecodeWhole's refusal of a gzip file whose first
// sniffWhole bytes, decompressed, hold a NUL byte: the error, and those
// bytes (ReadWholeAs).
type binaryHead struct {
	err  *ParseError
	head []byte
}

func (e *binaryHead) Error() string { return e.err.Error() }
func (e *binaryHead) Unwrap() error { return e.err }

// ReadWholeAs is ReadWhole for a reader whose parse names the kinds of
// file it refuses (an archive, an image, another library's model, numpy's
// binary format), in their own words. A gzip file that DecodeWhole refuses
// as binary from its first bytes is given to parse first, cut there; when
// parse refuses it, its error is returned instead of DecodeWhole's. When
// parse takes the cut bytes, DecodeWhole's refusal stands: they never
// stand for the file.
func ReadWholeAs(path, what string, parse func([]byte) error) ([]byte, error) {
	b, err := ReadWhole(path, what)
	return b, inOwnWords(err, parse)
}

// DecodeWholeAs is DecodeWhole with parse as for ReadWholeAs.
func DecodeWholeAs(path string, b []byte, parse func([]byte) error) ([]byte, error) {
	text, err := DecodeWhole(path, b)
	return text, inOwnWords(err, parse)
}

// inOwnWords is parse's error on the bytes of a binaryHead err, when it
// has one; err otherwise.
func inOwnWords(err error, parse func([]byte) error) error {
	var bh *binaryHead
	if errors.As(err, &bh) {
		if perr := parse(bh.head); perr != nil {
			return perr
		}
	}
	return err
}

// sniffWhole is how much of a gzip file's content DecodeWhole reads
// before it decides whether to read the rest.
const sniffWhole = 64 << 10

// wholeLimit is the most DecodeWhole decompresses: a quarter of the
// memory available, unlimited when that is not known (a variable for the
// tests).
var wholeLimit = func() int64 {
	if avail := availableMemory(); avail > 0 {
		return avail / 4
	}
	return math.MaxInt64 - 1
}

// namedBinary reports whether the content starting with head is binary
// data that a reader of whole files names itself: an XGBoost model in
// UBJSON ('{') or its old binary format ("binf"), or UTF-16 text.
func namedBinary(head []byte) bool {
	return bytes.HasPrefix(head, []byte("{")) || bytes.HasPrefix(head, []byte("binf")) || IsUTF16(head)
}

// readUpTo appends what r gives to b until b holds limit bytes or r ends
// (io.EOF, not an error).
func readUpTo(r io.Reader, b []byte, limit int64) ([]byte, error) {
	for int64(len(b)) < limit {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // room to grow, as io.ReadAll makes it
		}
		room := b[len(b):cap(b)]
		if int64(len(room)) > limit-int64(len(b)) {
			room = room[:limit-int64(len(b))]
		}
		n, err := r.Read(room)
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
	return b, nil
}

// isGzipMagic reports whether b starts with gzip's magic bytes.
func isGzipMagic(b []byte) bool { return len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b }

// gunzipIfGzip returns br itself, or a gzip reader over it when the input
// starts with gzip's magic bytes (a *gunzip). A file cut short within its
// header is truncated, as one cut later is, at line (1 for a reader of
// lines, which names the line it stopped in; 0 for a file read whole).
func gunzipIfGzip(br *bufio.Reader, name string, line int) (io.Reader, error) {
	if magic, _ := br.Peek(2); !isGzipMagic(magic) {
		return br, nil
	}
	zr, err := gzip.NewReader(br)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, &ParseError{File: name, Line: line, Msg: errGzipTruncated.Error()}
	}
	if err != nil {
		return nil, &ParseError{File: name, Msg: fmt.Sprintf("corrupt gzip header: %v", err)}
	}
	zr.Multistream(false)
	return &gunzip{br: br, zr: zr}, nil
}

// gunzip reads a gzip file of one or more members, as gzip -d does, and
// tells its faults apart: a stream that ends early (errGzipTruncated),
// bytes after the last member that are not another one nor zeros to the
// end (errGzipTrailing; gzip -d ignores them with a warning, we refuse the
// file), and corrupt data.
type gunzip struct {
	br *bufio.Reader
	zr *gzip.Reader
}

var (
	errGzipTruncated = errors.New("gzip stream is truncated (unexpected end of data)")
	errGzipTrailing  = errors.New("data after the end of the gzip stream that is not gzip (trailing garbage)")
)

func (g *gunzip) Read(p []byte) (int, error) {
	n, err := g.zr.Read(p)
	switch {
	case err == io.EOF: // the end of a member: another, or the end of the file?
		// Zero bytes to the end of the file are padding (of tar and tape
		// blocks), which gzip -d skips without a word; followed by
		// anything, they are trailing garbage to it (and the rest is not
		// read), so they are to us.
		padded := false
		for {
			b, perr := g.br.Peek(1)
			if perr == io.EOF {
				return n, io.EOF
			}
			if perr != nil || b[0] != 0 {
				break
			}
			g.br.Discard(1)
			padded = true
		}
		if magic, _ := g.br.Peek(2); padded || !isGzipMagic(magic) {
			return n, errGzipTrailing
		}
		if rerr := g.zr.Reset(g.br); rerr != nil {
			return n, gzipError(rerr)
		}
		g.zr.Multistream(false)
		return n, nil
	case err != nil:
		return n, gzipError(err)
	}
	return n, nil
}

// gzipError names a fault of a gzip stream in the words of errGzipTruncated
// and "corrupt gzip stream: …".
func gzipError(err error) error {
	var corrupt gzipCorrupt
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errGzipTruncated
	case errors.Is(err, errGzipTrailing), errors.Is(err, errGzipTruncated), errors.As(err, &corrupt):
		return err // said already: a reader's error goes through here again in its caller
	}
	return gzipCorrupt{err}
}

// gzipCorrupt is a corrupt gzip stream's error, said once.
type gzipCorrupt struct{ err error }

func (e gzipCorrupt) Error() string { return "corrupt gzip stream: " + e.err.Error() }
func (e gzipCorrupt) Unwrap() error { return e.err }
