package data

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Limits of the reader.
const (
	MaxFeatureIndex = 10_000_000 // largest feature index a file may use
	MaxLineBytes    = 16 << 20   // longest line a file may have
	defaultChunk    = 4 << 20    // bytes of whole lines handed to one parse worker
)

// ReadOptions tune the SVMlight/LETOR reader. The zero value is the default.
type ReadOptions struct {
	// Regroup accepts a file whose query comes back after another query and
	// moves its documents together (keeping file order within each query and
	// the order of first appearance between queries). Without it that is an
	// error naming both lines.
	Regroup bool
	// MinFeatures pads the data set with all-zero columns up to this many
	// features (a validation file whose last features are all absent still
	// lines up with its training file).
	MinFeatures int
	// AbsentMissing reads a feature a line leaves out (and the padding of
	// MinFeatures) as NaN, a missing value, instead of 0, so that trees send
	// it where they learned to send missing values (an imported XGBoost
	// model's default_left): XGBoost's reading of a sparse file. It is for
	// scoring; the tree learner bins NaN with the largest values.
	AbsentMissing bool
	// LabelsOnly accepts a file in which no line has a feature: labels,
	// qids and document ids only, all a scorer of precomputed scores
	// (eval --scores) needs. Without it such a file is refused: given as
	// data, it is most likely another kind of file (a cost file's lines of
	// one number read as labels alone).
	LabelsOnly bool
	// MemoryLimit is the most memory the data set may need, in bytes;
	// 0 means the memory available on this machine.
	MemoryLimit int64
	// Workers is the number of parsing goroutines; 0 means GOMAXPROCS.
	Workers int
	// Progress, when set, is called from the reading goroutine after each
	// chunk with the pass (1: counting lines, 2: parsing) and the bytes of
	// input consumed so far in that pass out of total (0 when unknown):
	// for gzip input, compressed bytes, but in pass 2 the spooled text's
	// bytes out of its size when the spool holds it.
	Progress func(pass int, done, total int64)

	chunkSize int    // for tests: bytes per chunk (defaultChunk when 0)
	maxLine   int    // for tests: longest line (MaxLineBytes when 0)
	spool     *spool // the first pass keeps a gzip file's text here, for the second
}

// ParseError is an error in an input file, located by line.
type ParseError struct {
	File string
	Line int // 1-based; 0 when the error concerns the whole file
	Msg  string
}

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// LineRange names lines a to b of a file in a message: "lines 3-7", or
// "line 3" when a == b.
func LineRange(a, b int) string {
	if a == b {
		return fmt.Sprintf("line %d", a)
	}
	return fmt.Sprintf("lines %d-%d", a, b)
}

// source opens the input afresh for each pass; size is its length in bytes
// (compressed, for gzip) or 0 when unknown.
type source struct {
	name  string
	open  func() (io.ReadCloser, error)
	size  int64
	plain bool // text, never decompressed (a spool's)
}

// ReadFile reads an SVMlight/LETOR file, plain or gzip-compressed (detected
// by its magic bytes, not its name).
//
// The format is one document per line, `LABEL qid:Q IDX:VAL ... # comment`:
// LABEL any finite number; qid an integer, present on every line or on none
// (without qids the file is one query); feature indices from 1 to
// MaxFeatureIndex, each at most once per line, absent features 0; the
// comment, trimmed, is kept as the document id. Blank lines and lines whose
// first non-blank character is '#' are skipped; LF or CRLF; a UTF-8 byte
// order mark at the start of the text is skipped. Lines of one query must be
// contiguous unless opt.Regroup is set. Some line must have a feature unless
// opt.LabelsOnly is set. A file without qids beside a file of query sizes
// (path.query, LightGBM's, or path.group, XGBoost's) takes its queries
// from it (querySidecar).
//
// Every error in the input is a *ParseError naming the file and line.
func ReadFile(ctx context.Context, path string, opt ReadOptions) (*Dataset, error) {
	const what = "an SVMlight/LETOR file"
	st, err := os.Stat(path)
	if err != nil {
		return nil, &OpenError{Path: path, What: what, Err: err}
	}
	if st.IsDir() {
		return nil, &OpenError{Path: path, What: what, Err: syscall.EISDIR}
	}
	if !st.Mode().IsRegular() {
		// A pipe (/dev/stdin, <(…)) can be read once, and the reader makes
		// two passes: hold its text in memory. It read as one query of
		// all-zero labels before.
		b, err := readPipe(ctx, path, what)
		if err != nil {
			return nil, err
		}
		d, err := ReadBytes(ctx, path, b, opt)
		if d != nil {
			d.Name = filepath.Base(path)
		}
		return d, err
	}
	src := source{name: path, size: st.Size(), open: func() (io.ReadCloser, error) {
		f, err := OpenFile(path, what)
		if err != nil {
			return nil, err
		}
		return &countingReader{r: f, c: f}, nil
	}}
	d, err := read(ctx, src, opt)
	if err != nil {
		return nil, err
	}
	if !d.HasQID {
		if err := querySidecar(d, path); err != nil {
			return nil, err
		}
	}
	d.Name = filepath.Base(path)
	return d, nil
}

// ReadPipe reads the whole of path, a pipe, FIFO or device (what names the
// kind of file, for messages), as the data reader reads one: it stops when
// ctx is done, whether the open waits for a writer or the read for its
// text. The contents are returned as read (gzip still compressed).
func ReadPipe(ctx context.Context, path, what string) ([]byte, error) {
	return readPipe(ctx, path, what)
}

// readPipe reads the whole text of a pipe, or stops when ctx is done: a
// writer that neither writes nor closes its end would otherwise keep an
// interrupted command waiting. The deadline interrupts the read of a pipe
// (which Go's poller holds); a file it cannot interrupt is read to its end.
func readPipe(ctx context.Context, path, what string) ([]byte, error) {
	f, err := openPipe(ctx, path, what)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	stop := context.AfterFunc(ctx, func() { f.SetReadDeadline(time.Now()) })
	defer stop()
	b, err := io.ReadAll(f)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return b, err
}

// openPipe opens path, or gives up when ctx is done: opening a FIFO waits
// for its writer, which may never come, and the open cannot be interrupted.
// When ctx wins, the open goes on in the background and its file, should a
// writer come, is closed at once.
func openPipe(ctx context.Context, path, what string) (*os.File, error) {
	return openContext(ctx, func() (*os.File, error) { return OpenFile(path, what) })
}

// openContext is open, given up when ctx is done, as openPipe's (a FIFO
// opened to write waits for its reader as one opened to read waits for
// its writer).
func openContext(ctx context.Context, open func() (*os.File, error)) (*os.File, error) {
	type opened struct {
		f   *os.File
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		f, err := open()
		ch <- opened{f, err}
	}()
	select {
	case o := <-ch:
		return o.f, o.err
	case <-ctx.Done():
		go func() {
			if o := <-ch; o.f != nil {
				o.f.Close()
			}
		}()
		return nil, ctx.Err()
	}
}

// ReadBytes reads an SVMlight/LETOR data set held in memory (plain or gzip);
// name is used in messages. See ReadFile for the format.
func ReadBytes(ctx context.Context, name string, b []byte, opt ReadOptions) (*Dataset, error) {
	src := source{name: name, size: int64(len(b)), open: func() (io.ReadCloser, error) {
		return &countingReader{r: bytes.NewReader(b)}, nil // counted for Progress, as a file is
	}}
	d, err := read(ctx, src, opt)
	if d != nil {
		d.Name = name
	}
	return d, err
}

// openText opens src and, when it starts with the gzip magic bytes (and is
// not plain), wraps it in a decompressor. consumed reports the raw bytes
// read so far.
func openText(src source) (r io.Reader, closeFn func() error, consumed func() int64, err error) {
	rc, err := src.open()
	if err != nil {
		return nil, nil, nil, err
	}
	consumed = func() int64 { return 0 }
	if c, ok := rc.(*countingReader); ok {
		consumed = c.count
	}
	if src.plain {
		return bufio.NewReaderSize(rc, readBufferSize(src.size)), rc.Close, consumed, nil
	}
	r, err = gunzipIfGzip(bufio.NewReaderSize(rc, readBufferSize(src.size)), src.name, 1)
	if err != nil {
		rc.Close()
		return nil, nil, nil, err
	}
	return r, rc.Close, consumed, nil
}

// readBufferSize is the size of the buffer openText reads src through: 1 MiB,
// or less for a source known to be smaller (a small file read once per pass
// need not clear a megabyte each time). Any size reads the same bytes.
func readBufferSize(size int64) int {
	const most, least = 1 << 20, 4 << 10
	switch {
	case size <= 0 || size >= most:
		return most
	case size < least:
		return least
	}
	return int(size)
}

// chunk is a run of whole lines handed to a worker.
type chunk struct {
	seq   int
	buf   []byte
	line0 int // physical line number of the first line (1-based)
}

// fill reads into buf until it is full or the input ends. An io.EOF
// that comes with the bytes filling buf is left to the next fill (the
// reader gives it again), as a file reports it: gzip gives its last bytes
// with io.EOF, and the first pass, decompressing, cut other chunks than
// the second, reading the spooled text.
func fill(r io.Reader, buf []byte) (n int, eof bool, err error) {
	for n < len(buf) {
		m, err := r.Read(buf[n:])
		n += m
		if err == io.EOF {
			return n, n < len(buf), nil
		}
		if err != nil {
			return n, false, err
		}
	}
	return n, false, nil
}

// chunker cuts the text of src into chunks of whole lines and sends them to
// out, closing it at the end. Buffers come back through free. A worker
// checks the length of every line; the chunker only refuses to grow a
// buffer past the longest allowed line.
func chunker(ctx context.Context, src source, opt *ReadOptions, pass int, out chan<- chunk, free chan []byte) error {
	defer close(out)
	r, closeFn, consumed, err := openText(src)
	if err != nil {
		return err
	}
	defer closeFn()
	_, gz := r.(*gunzip)
	if gz && opt.spool != nil {
		r = opt.spool.tee(r)
	}
	var carry []byte
	line, seq := 1, 0
	atStart := true // a byte order mark at the start is still to be looked for
	for {
		var buf []byte
		select {
		case buf = <-free:
		default:
			buf = make([]byte, 0, opt.chunkSize)
		}
		buf = append(buf[:0], carry...)
		// The fill target depends only on the text (never on the capacity of
		// a recycled buffer), so both passes cut the same chunks.
		limit := opt.chunkSize
		for limit <= len(buf) {
			limit *= 2
		}
		eof := false
		for {
			if cap(buf) < limit {
				nb := make([]byte, len(buf), limit)
				copy(nb, buf)
				buf = nb
			}
			old := len(buf)
			n, atEOF, rerr := fill(r, buf[old:limit])
			buf = buf[:old+n]
			if rerr != nil {
				at := line + bytes.Count(buf, nl)
				if gz {
					if errors.Is(rerr, errGzipTrailing) {
						at = 0 // after the text: no line of it is at fault
					}
					return &ParseError{File: src.name, Line: at, Msg: gzipError(rerr).Error()}
				}
				return fmt.Errorf("%s: %w", src.name, rerr)
			}
			// Drop a UTF-8 byte order mark at the start of the text (after
			// decompression), once enough has been read to tell.
			if atStart && (len(buf) >= len(utf8BOM) || atEOF || !bytes.HasPrefix(utf8BOM, buf)) {
				atStart = false
				if bytes.HasPrefix(buf, utf8BOM) {
					buf = buf[:copy(buf, buf[len(utf8BOM):])]
					old = max(old-len(utf8BOM), 0)
				}
			}
			if atEOF {
				eof = true
				break
			}
			if bytes.IndexByte(buf[old:], '\n') >= 0 {
				break
			}
			if len(buf) > opt.maxLine+1 { // +1: a trailing \r is not part of the line
				return &ParseError{File: src.name, Line: line + bytes.Count(buf, nl), Msg: fmt.Sprintf("line longer than %s; expected one document per line", byteSize(int64(opt.maxLine)))}
			}
			limit *= 2
		}
		cut := len(buf)
		if !eof {
			cut = bytes.LastIndexByte(buf, '\n') + 1
		}
		carry = append(carry[:0], buf[cut:]...)
		buf = buf[:cut]
		if len(buf) > 0 {
			lines := bytes.Count(buf, nl)
			if buf[len(buf)-1] != '\n' {
				lines++
			}
			select {
			case out <- chunk{seq: seq, buf: buf, line0: line}:
			case <-ctx.Done():
				return ctx.Err()
			}
			seq++
			line += lines
		}
		if opt.Progress != nil {
			opt.Progress(pass, consumed(), src.size)
		}
		if eof {
			return nil
		}
	}
}

var (
	nl      = []byte{'\n'}
	utf8BOM = []byte("\xef\xbb\xbf")
	utf16LE = []byte("\xff\xfe")
	utf16BE = []byte("\xfe\xff")
)

// pipeline feeds the chunks of src to opt.Workers goroutines calling work,
// and returns the error of the earliest chunk that failed (so the message
// does not depend on scheduling), else the chunker's error.
func pipeline(parent context.Context, src source, opt *ReadOptions, pass int, work func(c chunk) error) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	chunks := make(chan chunk, opt.Workers)
	free := make(chan []byte, opt.Workers+2)
	var (
		mu     sync.Mutex
		errSeq = math.MaxInt
		first  error
		wg     sync.WaitGroup
	)
	for w := 0; w < opt.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range chunks {
				mu.Lock()
				skip := c.seq > errSeq
				mu.Unlock()
				// A chunk before the one that failed is parsed still (ctx
				// is done then): its error, if any, is the one to report.
				if !skip && parent.Err() == nil {
					if err := work(c); err != nil {
						mu.Lock()
						if c.seq < errSeq {
							errSeq, first = c.seq, err
						}
						mu.Unlock()
						cancel() // stop reading: later chunks cannot hold an earlier error
					}
				}
				select {
				case free <- c.buf:
				default:
				}
			}
		}()
	}
	cerr := chunker(ctx, src, opt, pass, chunks, free)
	wg.Wait()
	switch {
	case first != nil:
		return first
	case parent.Err() != nil:
		return parent.Err()
	}
	return cerr
}

// BareCR is the error on a carriage return inside a line: lines ended by
// "\r" alone (classic Mac OS) are one line to the readers.
const BareCR = `a carriage return inside the line: are its lines ended by "\r" alone (classic Mac OS)? expected lines ending in "\n" or "\r\n": convert it, e.g. tr '\r' '\n'`

// lineIter walks the lines of a chunk.
type lineIter struct {
	buf  []byte
	pos  int
	line int // physical number of the line last returned
}

// next returns the next line without its "\n" or "\r\n".
func (it *lineIter) next() ([]byte, bool) {
	if it.pos >= len(it.buf) {
		return nil, false
	}
	rest := it.buf[it.pos:]
	i := bytes.IndexByte(rest, '\n')
	if i < 0 {
		i = len(rest)
		it.pos = len(it.buf)
	} else {
		it.pos += i + 1
	}
	it.line++
	l := rest[:i]
	if len(l) > 0 && l[len(l)-1] == '\r' {
		l = l[:len(l)-1]
	}
	return l, true
}

// content strips leading blanks and reports whether the line holds a
// document (not blank, not a comment line).
func content(l []byte) ([]byte, bool) {
	i := 0
	for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
		i++
	}
	l = l[i:]
	return l, len(l) > 0 && l[0] != '#'
}

// pass1 is what the first pass learns about a chunk.
type pass1 struct {
	docs        int
	firstDoc    int // line of the chunk's first document, 0 if none
	firstHasQID bool
	maxIdx      int // largest last index on a line (exact for sorted lines)
	maxIdxLine  int
}

func scanChunk(c chunk, name string, maxLine int) (pass1, error) {
	var r pass1
	if k := ImageKind(c.buf); k != "" && c.line0 == 1 {
		return r, &ParseError{File: name, Line: 1, Msg: k + " (a plot?), not SVMlight/LETOR data; expected lines `LABEL qid:Q IDX:VAL ...`"}
	}
	if m := CompressedMessage(c.buf, "SVMlight/LETOR text"); m != "" && c.line0 == 1 {
		return r, &ParseError{File: name, Line: 1, Msg: m}
	}
	if i := bytes.IndexByte(c.buf, 0); i >= 0 {
		if c.line0 == 1 && IsUTF16(c.buf) {
			return r, &ParseError{File: name, Line: 1, Msg: UTF16Message("SVMlight/LETOR text")}
		}
		return r, &ParseError{File: name, Line: c.line0 + bytes.Count(c.buf[:i], nl), Msg: "binary data (a NUL byte); expected SVMlight/LETOR text"}
	}
	it := lineIter{buf: c.buf, line: c.line0 - 1}
	for {
		l, ok := it.next()
		if !ok {
			return r, nil
		}
		if len(l) > maxLine {
			return r, &ParseError{File: name, Line: it.line, Msg: fmt.Sprintf("line longer than %s; expected one document per line", byteSize(int64(maxLine)))}
		}
		if bytes.IndexByte(l, '\r') >= 0 {
			// Read as part of a value ("0.5\r0" is not a number), which
			// named the line but not the cause; and in a comment, which
			// LETOR's lines end with (#docid = …), it hid the rest of a
			// file whose lines all end in "\r": one document, read
			// without a word.
			return r, &ParseError{File: name, Line: it.line, Msg: BareCR}
		}
		l, isDoc := content(l)
		if !isDoc {
			continue
		}
		r.docs++
		if h := bytes.IndexByte(l, '#'); h >= 0 {
			l = l[:h]
		}
		if r.firstDoc == 0 {
			r.firstDoc = it.line
			f := fields(l, 2)
			r.firstHasQID = len(f) == 2 && bytes.HasPrefix(f[1], []byte("qid:"))
		}
		if idx := lastIndex(l); idx > r.maxIdx {
			r.maxIdx, r.maxIdxLine = idx, it.line
		}
	}
}

// fields returns up to n blank-separated fields of l.
func fields(l []byte, n int) [][]byte {
	var out [][]byte
	for len(out) < n {
		i := 0
		for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
			i++
		}
		l = l[i:]
		if len(l) == 0 {
			break
		}
		j := 0
		for j < len(l) && l[j] != ' ' && l[j] != '\t' {
			j++
		}
		out = append(out, l[:j])
		l = l[j:]
	}
	return out
}

// lastIndex returns the feature index of the last IDX:VAL token of l, or 0.
func lastIndex(l []byte) int {
	end := len(l)
	for end > 0 && (l[end-1] == ' ' || l[end-1] == '\t') {
		end--
	}
	start := end
	for start > 0 && l[start-1] != ' ' && l[start-1] != '\t' {
		start--
	}
	tok := l[start:end]
	c := bytes.IndexByte(tok, ':')
	if c <= 0 {
		return 0
	}
	idx, ok := parseInt64(tok[:c])
	if !ok || idx < 1 || idx > MaxFeatureIndex {
		return 0
	}
	return int(idx)
}

// lineWidth is the widest line of some lines: its highest feature index
// (width) and line number, and the highest index of the other lines
// (next). A line alone far wider than the rest (a stray index) makes every
// feature up to it a dense column.
type lineWidth struct{ width, line, next int }

// add merges the lines of o into w. Of lines equally wide, the first is
// the widest, and next is that width: the result is the same whatever the
// chunks and their order.
func (w *lineWidth) add(o lineWidth) {
	switch {
	case o.width > w.width:
		w.next = max(w.width, o.next)
		w.width, w.line = o.width, o.line
	case o.width == w.width && o.width > 0:
		w.next = o.width
		w.line = min(w.line, o.line)
	default:
		w.next = max(w.next, o.width)
	}
}

// reader is the state shared by the workers of the second pass.
type reader struct {
	name    string
	opt     *ReadOptions
	maxIdx  int       // the highest feature index in the file (under mu in pass 2)
	widest  lineWidth // the widest line and the next widths (under mu)
	givenBy []int64   // IDX:VAL pairs read of each feature (index-1; under mu)
	hasQID  bool
	firstQ  int // line of the first document, for messages about qid
	n       int
	limit   int64
	mu      sync.Mutex
	cols    [][]float32
	labels  []float32
	qids    []int64
	lineOf  []uint32
	docIDs  [][]byte   // per chunk: the ids of its documents, concatenated
	docEnds [][]uint32 // per chunk: end offsets into docIDs[seq]
	doc0    []int      // per chunk: index of its first document
}

// need is the memory a data set of n documents and d features takes.
// Per document: the features, label, qid, line number, id offset and about
// 16 bytes of id; per feature: a slice header.
func need(n, d int) int64 { return int64(n)*(int64(d)*4+40) + int64(d)*24 }

// fillAbsent sets the values of new columns to what an absent feature
// reads as: NaN under ReadOptions.AbsentMissing, else 0 (as they are).
func (rd *reader) fillAbsent(vals []float32) {
	if rd.opt.AbsentMissing {
		nan := float32(math.NaN())
		for i := range vals {
			vals[i] = nan
		}
	}
}

// grow makes sure there are at least d columns, refusing when they would not
// fit in memory.
func (rd *reader) grow(d, line int) ([][]float32, error) {
	rd.mu.Lock()
	defer rd.mu.Unlock()
	if d <= len(rd.cols) {
		return rd.cols, nil
	}
	if err := rd.checkMemory(d, line); err != nil {
		return nil, err
	}
	cols := make([][]float32, d)
	copy(cols, rd.cols)
	block := make([]float32, rd.n*(d-len(rd.cols)))
	rd.fillAbsent(block)
	for f := len(rd.cols); f < d; f++ {
		cols[f], block = block[:rd.n:rd.n], block[rd.n:]
	}
	rd.cols = cols
	return cols, nil
}

func (rd *reader) checkMemory(d, line int) error {
	if b := need(rd.n, d); rd.limit > 0 && b > rd.limit {
		return &ParseError{File: rd.name, Line: line, Msg: fmt.Sprintf(
			"feature index %d: %d documents × %d features need %s of memory (dense float32), more than the %s available",
			d, rd.n, d, byteSize(b), byteSize(rd.limit))}
	}
	return nil
}

func read(ctx context.Context, src source, opt ReadOptions) (*Dataset, error) {
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if opt.chunkSize <= 0 {
		opt.chunkSize = defaultChunk
		// A source smaller than a chunk is cut in chunks of its size and
		// a byte (64 KiB at least), so that a small file's reading does
		// not make and clear 4 MiB buffers at each pass. Both passes share
		// opt, so they cut the same chunks; for gzip, src.size is the
		// compressed size and the text takes a few chunks. How the text is
		// cut changes no result.
		if src.size > 0 && src.size < defaultChunk {
			opt.chunkSize = max(int(src.size)+1, 64<<10)
		}
	}
	if opt.maxLine <= 0 {
		opt.maxLine = MaxLineBytes
	}
	// Pass 1: count the documents of every chunk, so that pass 2 can write
	// straight into column-major arrays of the right size. A gzip file's
	// text is spooled for pass 2 as it is decompressed.
	opt.spool = newSpool()
	defer opt.spool.close()
	var (
		mu    sync.Mutex
		scans []pass1
	)
	err := pipeline(ctx, src, &opt, 1, func(c chunk) error {
		r, err := scanChunk(c, src.name, opt.maxLine)
		mu.Lock()
		for len(scans) <= c.seq {
			scans = append(scans, pass1{})
		}
		scans[c.seq] = r
		mu.Unlock()
		return err
	})
	if err != nil {
		return nil, err
	}
	rd := &reader{name: src.name, opt: &opt, limit: opt.MemoryLimit}
	if rd.limit == 0 {
		rd.limit = availableMemory()
	}
	rd.doc0 = make([]int, len(scans)+1)
	maxIdx, maxLine := 0, 0
	for i, s := range scans {
		rd.doc0[i+1] = rd.doc0[i] + s.docs
		if s.firstDoc > 0 && rd.firstQ == 0 {
			rd.firstQ, rd.hasQID = s.firstDoc, s.firstHasQID
		}
		if s.maxIdx > maxIdx {
			maxIdx, maxLine = s.maxIdx, s.maxIdxLine
		}
	}
	rd.n = rd.doc0[len(scans)]
	if rd.n == 0 {
		if len(scans) == 0 {
			return nil, &ParseError{File: src.name, Msg: "empty file; expected SVMlight/LETOR lines `LABEL qid:Q IDX:VAL ...`"}
		}
		return nil, &ParseError{File: src.name, Msg: "no documents (only blank or comment lines); expected SVMlight/LETOR lines `LABEL qid:Q IDX:VAL ...`"}
	}
	rd.maxIdx = maxIdx
	d := max(maxIdx, opt.MinFeatures)
	if d > maxIdx {
		// The width is MinFeatures (a model's features), not an index of
		// the file: no line is at fault.
		if b := need(rd.n, d); rd.limit > 0 && b > rd.limit {
			return nil, &ParseError{File: src.name, Msg: fmt.Sprintf(
				"%d documents × %d features (the file's %d, padded to the %d expected) need %s of memory (dense float32), more than the %s available",
				rd.n, d, maxIdx, d, byteSize(b), byteSize(rd.limit))}
		}
	}
	if err := rd.checkMemory(d, maxLine); err != nil {
		return nil, err
	}
	rd.labels = make([]float32, rd.n)
	rd.lineOf = make([]uint32, rd.n)
	if rd.hasQID {
		rd.qids = make([]int64, rd.n)
	}
	rd.docIDs = make([][]byte, len(scans))
	rd.docEnds = make([][]uint32, len(scans))
	if _, err := rd.grow(d, maxLine); err != nil {
		return nil, err
	}

	// Pass 2: parse every line into place, from the spool when it holds
	// the text.
	if s, ok := opt.spool.source(src.name); ok {
		src = s
	}
	opt.spool = nil
	var parsed atomic.Int64 // chunks parsed in pass 2
	err = pipeline(ctx, src, &opt, 2, func(c chunk) error {
		if c.seq >= len(scans) {
			return fmt.Errorf("%s: the file changed while it was read", src.name)
		}
		parsed.Add(1)
		return rd.parseChunk(c)
	})
	if err != nil {
		return nil, err
	}
	if parsed.Load() != int64(len(scans)) {
		// The text ended at a chunk boundary before the first pass's did
		// (the file cut short, or emptied, between the passes): the
		// documents of the chunks not read would be zeros, with no ids.
		return nil, fmt.Errorf("%s: the file changed while it was read", src.name)
	}
	if rd.maxIdx == 0 && !opt.LabelsOnly {
		msg := "no line has a feature (IDX:VAL), only labels"
		if rd.hasQID {
			msg += " and qids"
		} else {
			msg += " (a cost file's lines of one number read so)"
		}
		return nil, &ParseError{File: src.name, Msg: msg + "; expected SVMlight/LETOR lines `LABEL qid:Q IDX:VAL ...`"}
	}
	return rd.assemble()
}

func (rd *reader) errorf(line int, format string, a ...any) error {
	return &ParseError{File: rd.name, Line: line, Msg: fmt.Sprintf(format, a...)}
}

var qidPrefix = []byte("qid:")

// sklearnZeroBased is the comment line that scikit-learn's
// dump_svmlight_file writes at the top of a file with 0-based indices
// (when given a comment).
var sklearnZeroBased = []byte("# Column indices are zero-based")

func (rd *reader) parseChunk(c chunk) error {
	rd.mu.Lock()
	cols := rd.cols
	rd.mu.Unlock()
	doc := rd.doc0[c.seq]
	end := rd.doc0[c.seq+1]
	var ids []byte
	ends := make([]uint32, 0, end-doc)
	var seen []int                      // indices of an unsorted line, for the duplicate check
	givenBy := make([]int64, len(cols)) // the chunk's pairs of each feature (index-1)
	top := 0                            // the highest index in the chunk (pass 1 saw each line's last)
	var widest lineWidth
	it := lineIter{buf: c.buf, line: c.line0 - 1}
	for {
		l, ok := it.next()
		if !ok {
			break
		}
		l, isDoc := content(l)
		if !isDoc {
			if bytes.HasPrefix(l, sklearnZeroBased) {
				// Its indices are 0-based even where no line has a 0:
				// read as 1-based, every feature would be one off.
				return rd.errorf(it.line, "scikit-learn's dump_svmlight_file wrote this file with 0-based indices (%q); expected indices from 1: write it with zero_based=False", sklearnZeroBased)
			}
			continue
		}
		if doc >= end {
			return fmt.Errorf("%s: the file changed while it was read", rd.name)
		}
		line := it.line
		if h := bytes.IndexByte(l, '#'); h >= 0 {
			ids = append(ids, bytes.TrimSpace(l[h+1:])...)
			l = l[:h]
		}
		ends = append(ends, uint32(len(ids)))

		tok, rest := nextField(l)
		if bytes.HasPrefix(tok, qidPrefix) {
			return rd.errorf(line, "missing label: the line starts with %s; expected LABEL qid:Q IDX:VAL ...", quoteToken(string(tok)))
		}
		label, ok := parseFloat32(tok)
		if !ok {
			if lab, w, weighted := bytes.Cut(tok, []byte(":")); weighted {
				if _, ok1 := parseFloat64(lab); ok1 {
					if _, ok2 := parseFloat64(w); ok2 {
						return rd.errorf(line, "label %s is LABEL:WEIGHT, an instance weight (XGBoost's libsvm form), which cronus does not read; expected a finite number", quoteToken(string(tok)))
					}
				}
			}
			if m := modelText(tok, rest); m != "" {
				return rd.errorf(line, "%s, not SVMlight/LETOR data; expected lines `LABEL qid:Q IDX:VAL ...`", m)
			}
			return rd.errorf(line, "label %s", describe(tok, false))
		}
		rd.labels[doc] = label
		rd.lineOf[doc] = uint32(line)

		tok, rest2 := nextField(rest)
		if bytes.HasPrefix(tok, qidPrefix) {
			if !rd.hasQID {
				return rd.errorf(line, "qid on this line, but the first document (line %d) has none; expected qid on every line or on none", rd.firstQ)
			}
			q, ok := parseInt64(tok[4:])
			switch {
			case !ok && isInteger(tok[4:]):
				return rd.errorf(line, "qid %s has more than 18 digits; expected an integer from -%d to %d", quoteToken(string(tok[4:])), int64(maxInt18), int64(maxInt18))
			case !ok:
				return rd.errorf(line, "qid %s is not an integer", quoteToken(string(tok[4:])))
			}
			rd.qids[doc] = q
			rest = rest2
		} else if rd.hasQID {
			return rd.errorf(line, "no qid; expected LABEL qid:Q IDX:VAL ... (the first document, line %d, has a qid)", rd.firstQ)
		}

		prev, sorted := 0, true
		lineTop := 0
		seen = seen[:0]
		for {
			tok, rest = nextField(rest)
			if tok == nil {
				break
			}
			colon := bytes.IndexByte(tok, ':')
			if colon < 0 {
				return rd.errorf(line, "feature %s has no colon; expected IDX:VALUE", quoteToken(string(tok)))
			}
			idx64, ok := parseInt64(tok[:colon])
			switch {
			case !ok && isInteger(tok[:colon]):
				return rd.errorf(line, "feature index %s has more than 18 digits; expected IDX:VALUE with IDX from 1 to %d", quoteToken(string(tok[:colon])), MaxFeatureIndex)
			case !ok && string(tok[:colon]) == "qid" && prev == 0:
				// Right after the line's qid: no feature came before it.
				return rd.errorf(line, "a second qid (%s); expected one qid, right after the label", quoteToken(string(tok)))
			case !ok && string(tok[:colon]) == "qid":
				return rd.errorf(line, "qid after a feature; expected LABEL qid:Q IDX:VAL ..., the qid right after the label")
			case !ok:
				return rd.errorf(line, "feature index %s is not an integer; expected IDX:VALUE with IDX from 1", quoteToken(string(tok[:colon])))
			case idx64 == 0:
				return rd.errorf(line, "feature index 0: indices start at 1 (0-based indices are what scikit-learn's dump_svmlight_file writes unless given zero_based=False)")
			case idx64 < 0:
				return rd.errorf(line, "feature index %d: indices start at 1", idx64)
			case idx64 > MaxFeatureIndex:
				return rd.errorf(line, "feature index %d is above the limit of %d", idx64, MaxFeatureIndex)
			}
			idx := int(idx64)
			v, ok := parseFloat32(tok[colon+1:])
			if !ok {
				return rd.errorf(line, "feature %d: value %s", idx, describe(tok[colon+1:], true))
			}
			if idx <= prev {
				sorted = false
			}
			prev = idx
			if idx > len(givenBy) {
				givenBy = append(givenBy, make([]int64, idx-len(givenBy))...)
			}
			givenBy[idx-1]++
			top = max(top, idx)
			lineTop = max(lineTop, idx)
			seen = append(seen, idx)
			if idx > len(cols) {
				var err error
				if cols, err = rd.grow(idx, line); err != nil {
					return err
				}
			}
			cols[idx-1][doc] = v
		}
		if !sorted {
			sort.Ints(seen)
			for i := 1; i < len(seen); i++ {
				if seen[i] == seen[i-1] {
					return rd.errorf(line, "feature index %d appears twice; expected each index at most once", seen[i])
				}
			}
		}
		widest.add(lineWidth{lineTop, line, 0})
		doc++
	}
	if doc != end {
		return fmt.Errorf("%s: the file changed while it was read", rd.name)
	}
	rd.docIDs[c.seq], rd.docEnds[c.seq] = ids, ends
	rd.mu.Lock()
	if len(givenBy) > len(rd.givenBy) {
		rd.givenBy = append(rd.givenBy, make([]int64, len(givenBy)-len(rd.givenBy))...)
	}
	for f, g := range givenBy {
		rd.givenBy[f] += g
	}
	rd.maxIdx = max(rd.maxIdx, top)
	rd.widest.add(widest)
	rd.mu.Unlock()
	return nil
}

// nextField splits off the first blank-separated field of l; tok is nil when
// none is left.
func nextField(l []byte) (tok, rest []byte) {
	i := 0
	for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
		i++
	}
	if i == len(l) {
		return nil, nil
	}
	j := i
	for j < len(l) && l[j] != ' ' && l[j] != '\t' {
		j++
	}
	return l[i:j], l[j:]
}

// modelText names the model file whose line starts with tok, followed by
// rest, where a label was expected: a model given as data (cronus inspect
// m.json, or --model and --data swapped) read as "label "{" is not a
// number". "" when the line is none of them.
func modelText(tok, rest []byte) string {
	switch {
	case len(tok) == 0:
	case tok[0] == '{' || tok[0] == '[':
		return "JSON (a model or cascade file?)"
	case string(tok) == "<svg" || bytes.HasPrefix(tok, []byte("<svg>")):
		return "an SVG image (a plot?)"
	case tok[0] == '<':
		return "XML (a RankLib model?)"
	case string(tok) == "tree" && len(bytes.TrimSpace(rest)) == 0:
		return "a LightGBM model (its line \"tree\")"
	}
	return ""
}

// describe says why a token is no number the reader takes (naming the
// common non-finite spellings) and what was expected. A feature value
// (value) of NaN, as LightGBM and scikit-learn read a missing value, is
// told how a missing value is written.
func describe(tok []byte, value bool) string {
	const finite = "; expected a finite number"
	if len(tok) == 0 {
		return "is empty" + finite
	}
	q := quoteToken(string(tok))
	switch s := string(bytes.ToLower(bytes.TrimLeft(tok, "+-"))); s {
	case "nan", "null":
		what := " is not a finite number"
		if s == "null" {
			what = " is not a number" // LETOR 4.0's aggregated sets write NULL for a missing value
		}
		if value {
			return q + what + finite + " (leave a missing value out of the line: it reads as 0, or as missing in predict and eval with --absent missing)"
		}
		return q + what + finite
	case "inf", "infinity":
		return q + " is not a finite number" + finite
	}
	if f, ok := parseFloat64(tok); ok && math.Abs(f) > math.MaxFloat32 {
		return q + fmt.Sprintf(" is outside the float32 range; expected a number from %g to %g", -float32(math.MaxFloat32), float32(math.MaxFloat32))
	}
	return q + " is not a number" + finite
}

// assemble builds the Dataset: query offsets (checking that queries are
// contiguous, or regrouping them) and the document ids.
func (rd *reader) assemble() (*Dataset, error) {
	var given int64 // IDX:VAL pairs read
	for _, g := range rd.givenBy {
		given += g
	}
	d := &Dataset{Cols: rd.cols, Labels: rd.labels, HasQID: rd.hasQID, FileFeatures: rd.maxIdx,
		Absent: int64(rd.n)*int64(rd.maxIdx) - given, Given: rd.givenBy, AbsentMissing: rd.opt.AbsentMissing,
		widest: rd.widest}
	for len(d.Cols) < rd.opt.MinFeatures {
		c := make([]float32, rd.n)
		rd.fillAbsent(c)
		d.Cols = append(d.Cols, c)
	}
	total := 0
	for _, b := range rd.docIDs {
		total += len(b)
	}
	d.docIDBuf = make([]byte, 0, total)
	// The offsets of the whole file's ids are ints: a chunk's (4 MiB of
	// text, more only to hold a line of up to MaxLineBytes) fit in
	// uint32, the file's may not (LETOR's comments run about 50 bytes a
	// document, so past some 86 million documents).
	d.docIDEnd = make([]int, 0, rd.n)
	for i, b := range rd.docIDs {
		base := len(d.docIDBuf)
		d.docIDBuf = append(d.docIDBuf, b...)
		for _, e := range rd.docEnds[i] {
			d.docIDEnd = append(d.docIDEnd, base+int(e))
		}
	}
	if !rd.hasQID {
		d.QueryIDs = []int64{0}
		d.QueryOffsets = []int{0, rd.n}
		return d, nil
	}
	// runStart[k] is the first document of the k-th run of equal qids.
	firstRun := map[int64]int{} // qid -> index of its first run
	var runQ []int64
	var runStart []int
	for i, q := range rd.qids {
		if i > 0 && q == rd.qids[i-1] {
			continue
		}
		if r, dup := firstRun[q]; dup {
			if !rd.opt.Regroup {
				endRun := runStart[r+1] - 1
				return nil, rd.errorf(int(rd.lineOf[i]),
					"qid %d comes back after qid %d (its documents were at %s); lines of one query must be contiguous (group them, e.g. with sort -s -k2,2; cronus inspect --regroup reads the file as it is)",
					q, rd.qids[i-1], LineRange(int(rd.lineOf[runStart[r]]), int(rd.lineOf[endRun])))
			}
		} else {
			firstRun[q] = len(runQ)
		}
		runQ = append(runQ, q)
		runStart = append(runStart, i)
	}
	runStart = append(runStart, rd.n)
	if len(runQ) == len(firstRun) {
		d.QueryIDs = runQ
		d.QueryOffsets = runStart
		return d, nil
	}
	// Regroup: queries in order of first appearance, runs in file order.
	order := make([]int, len(runQ))
	for r := range order {
		order[r] = r
	}
	sort.SliceStable(order, func(a, b int) bool { return firstRun[runQ[order[a]]] < firstRun[runQ[order[b]]] })
	perm := make([]int, 0, rd.n)
	for k, r := range order {
		if k == 0 || runQ[r] != runQ[order[k-1]] {
			d.QueryIDs = append(d.QueryIDs, runQ[r])
			d.QueryOffsets = append(d.QueryOffsets, len(perm))
		}
		for i := runStart[r]; i < runStart[r+1]; i++ {
			perm = append(perm, i)
		}
	}
	d.QueryOffsets = append(d.QueryOffsets, rd.n)
	tmp := make([]float32, rd.n)
	permute := func(x []float32) {
		for k, i := range perm {
			tmp[k] = x[i]
		}
		copy(x, tmp)
	}
	for _, c := range d.Cols {
		permute(c)
	}
	permute(d.Labels)
	ids := make([]string, rd.n)
	for k, i := range perm {
		ids[k] = d.DocID(i)
	}
	d.SetDocIDs(ids)
	return d, nil
}
