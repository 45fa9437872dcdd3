package data

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
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
// mark dropped.
func DecodeWhole(path string, b []byte) ([]byte, error) {
	br := bufio.NewReader(bytes.NewReader(b))
	zr, err := gunzipIfGzip(br, path, 0)
	if err != nil {
		return nil, err
	}
	if zr == io.Reader(br) {
		return bytes.TrimPrefix(b, utf8BOM), nil
	}
	text, err := io.ReadAll(zr)
	if err != nil {
		return nil, &ParseError{File: path, Msg: gzipError(err).Error()}
	}
	return bytes.TrimPrefix(text, utf8BOM), nil
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
