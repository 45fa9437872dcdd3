package data

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits of the cost file reader.
const (
	// maxCostLine is the longest line of a cost file, without its line ending.
	maxCostLine = 1 << 20
	// maxCostFeatures bounds the size of a cost file read without a known
	// feature count, so that one stray index cannot make the reader allocate
	// gigabytes. With the data set's feature count the bound is the larger
	// of that count and this.
	maxCostFeatures = 1 << 20
)

// MaxCost is the largest feature or tree cost Cronus accepts (cost files,
// --tree-cost, cascade files). Costs are summed per document and averaged
// over documents; bounded so, the costs of every feature and of millions of
// trees summed over billions of documents stay far inside float64's range
// (costs of 1e308 summed to +Inf, and the means to NaN).
const MaxCost = 1e15

// ValidCost reports whether c is a cost Cronus accepts: from 0 to MaxCost.
func ValidCost(c float64) bool { return c >= 0 && c <= MaxCost }

// Costs holds the extraction cost of every feature (0-based index).
type Costs struct {
	Cost      []float64 // one per feature
	Name      []string  // one per feature; "" when the file gave none
	Defaulted []int     // features the file gave no cost for, ascending; they cost 1
	// Beyond counts the features past the data set's that the file gave a
	// cost for (BeyondMax the largest, 1-based): no document has them,
	// so their costs are not kept.
	Beyond, BeyondMax int

	file     string // where the costs came from, for the warnings
	features int    // the data set's feature count given to ReadCosts
}

// CostGroup is a set of features with the same cost.
type CostGroup struct {
	Cost     float64
	Features []int // 0-based, ascending
}

// UniformCosts returns costs of 1 for each of numFeatures features, the cost
// model used when no cost file is given. Nothing is listed as defaulted: the
// caller chose uniform costs, so there is nothing to warn about.
func UniformCosts(numFeatures int) *Costs {
	if numFeatures < 0 {
		panic(fmt.Sprintf("data: UniformCosts: negative feature count %d", numFeatures))
	}
	c := &Costs{Cost: make([]float64, numFeatures), Name: make([]string, numFeatures)}
	for i := range c.Cost {
		c.Cost[i] = 1
	}
	return c
}

// Groups returns the distinct costs in ascending order, each with its
// features in ascending order.
func (c *Costs) Groups() []CostGroup {
	order := make([]int, len(c.Cost))
	for i := range order {
		order[i] = i
	}
	// Stable, so features stay ascending within a cost.
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case c.Cost[a] < c.Cost[b]:
			return -1
		case c.Cost[a] > c.Cost[b]:
			return 1
		}
		return 0
	})
	var groups []CostGroup
	for _, f := range order {
		if n := len(groups); n == 0 || groups[n-1].Cost != c.Cost[f] {
			groups = append(groups, CostGroup{Cost: c.Cost[f]})
		}
		g := &groups[len(groups)-1]
		g.Features = append(g.Features, f)
	}
	return groups
}

// Warning returns a one-line warning naming the features that the cost file
// did not mention, such as
//
//	costs.txt: no cost for features 47-50 (4 features); they cost 1
//
// or "" when there are none. Runs of consecutive features are written a-b;
// after ten runs the list is cut short with "...".
func (c *Costs) Warning() string {
	if c == nil || len(c.Defaulted) == 0 {
		return ""
	}
	const maxRuns = 10
	var list strings.Builder
	runs := 0
	for i := 0; i < len(c.Defaulted); {
		j := i
		for j+1 < len(c.Defaulted) && c.Defaulted[j+1] == c.Defaulted[j]+1 {
			j++
		}
		if runs == maxRuns {
			list.WriteString(", ...")
			break
		}
		if runs > 0 {
			list.WriteString(", ")
		}
		if j == i {
			fmt.Fprintf(&list, "%d", c.Defaulted[i]+1)
		} else {
			fmt.Fprintf(&list, "%d-%d", c.Defaulted[i]+1, c.Defaulted[j]+1)
		}
		runs++
		i = j + 1
	}
	prefix := ""
	if c.file != "" {
		prefix = c.file + ": "
	}
	if n := len(c.Defaulted); n > 1 {
		return fmt.Sprintf("%sno cost for features %s (%d features); they cost 1", prefix, list.String(), n)
	}
	return fmt.Sprintf("%sno cost for feature %s (1 feature); it costs 1", prefix, list.String())
}

// UnusedWarning returns a one-line warning when the file gave costs for
// features past the data set's, such as
//
//	costs.txt: the costs of features 46-136 (91 features) are not used: the data has features up to 45
//
// or "" when it gave none. A sparse file that leaves its last features out
// of every line (scikit-learn's dump_svmlight_file leaves out zeros) has
// fewer features than its cost file; the costs of those features, which no
// document has and no tree trained on the data uses, are never paid.
func (c *Costs) UnusedWarning() string { return c.UnusedWarningFor("the data") }

// UnusedWarningFor is UnusedWarning for costs read for the features of
// something other than a data set, which whose names: with "the cascade's
// model", "… are not used: the cascade's model has features up to 44".
func (c *Costs) UnusedWarningFor(whose string) string {
	if c == nil || c.Beyond == 0 {
		return ""
	}
	prefix := ""
	if c.file != "" {
		prefix = c.file + ": "
	}
	which := fmt.Sprintf("the cost of feature %d is", c.BeyondMax)
	if c.Beyond > 1 {
		span := "features"
		if c.BeyondMax-c.features == c.Beyond {
			span = fmt.Sprintf("features %d-%d", c.features+1, c.BeyondMax)
		} else {
			span = fmt.Sprintf("features up to %d", c.BeyondMax)
		}
		which = fmt.Sprintf("the costs of %s (%d features) are", span, c.Beyond)
	}
	return fmt.Sprintf("%s%s not used: %s has features up to %d", prefix, which, whose, c.features)
}

// ReadCostsFile reads a cost file, plain text or gzip-compressed (detected by
// its magic bytes, not its name). See ReadCosts for the format and for
// numFeatures.
func ReadCostsFile(path string, numFeatures int) (*Costs, error) {
	f, err := OpenFile(path, "a cost file")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := gunzipIfGzip(bufio.NewReader(f), path, 1)
	if err != nil {
		return nil, err
	}
	return ReadCosts(r, path, numFeatures)
}

// ReadCosts reads feature costs; name is used in messages.
//
// A '#' starts a comment that runs to the end of the line; blank lines are
// skipped; lines end in LF or CRLF; a UTF-8 byte order mark at the start is
// ignored. The first data line decides the form of the whole file:
//
//   - one cost per line: the k-th data line is the cost of feature k;
//   - lines `INDEX COST [NAME]`: INDEX from 1, fields separated by spaces or
//     tabs, NAME the rest of the line (trimmed; it may hold spaces).
//
// A cost is a finite decimal number >= 0 (10, 0.5, 1e3). With numFeatures > 0
// (the data set's feature count) the result has exactly numFeatures costs,
// a feature the file does not mention costs 1 and is listed in Defaulted, and
// the costs of features beyond numFeatures (up to 1<<20) are checked, then
// dropped and counted in Beyond (see UnusedWarning). With numFeatures == 0
// the result is as long as the largest index (or the number of lines), at
// most 1<<20.
//
// Every error in the input is a *ParseError naming the file and line.
func ReadCosts(r io.Reader, name string, numFeatures int) (*Costs, error) {
	if numFeatures < 0 {
		panic(fmt.Sprintf("data: ReadCosts: negative feature count %d", numFeatures))
	}
	p := costParser{file: name, numFeatures: numFeatures, seen: map[int]int{}}
	_, gz := r.(*gunzip)
	lr := costLineReader{file: name, br: bufio.NewReaderSize(r, 64<<10), gzip: gz}
	for {
		line, err := lr.next()
		if err == io.EOF {
			return p.result()
		}
		if err != nil {
			return nil, err
		}
		if lr.line == 1 {
			// A plot given for the costs (as data files name it): an
			// SVG's "<?xml" line was "XML (a RankLib model?)", a PNG's
			// signature "cost \"\x89PNG\" is not a number". Its first line
			// and what the reader holds after it, read no further.
			head := append(append([]byte(nil), lr.raw...), lr.buffered()...)
			if k := ImageKind(head); k != "" {
				return nil, &ParseError{File: name, Line: 1, Msg: k + " (a plot?), not a cost file; expected one cost per line or lines 'INDEX COST [NAME]'"}
			}
			if m := CompressedMessage(head, "a cost file"); m != "" {
				return nil, &ParseError{File: name, Line: 1, Msg: m}
			}
			line = bytes.TrimPrefix(line, utf8BOM)
		}
		if i := bytes.IndexByte(line, 0); i >= 0 {
			// Not text: UTF-16 (Notepad's "Unicode", PowerShell's >),
			// whose every ASCII character is two bytes, or a binary file.
			msg := "binary data (a NUL byte); expected a cost file, text"
			if lr.line == 1 && IsUTF16(line) {
				msg = UTF16Message("a cost file")
			}
			return nil, &ParseError{File: name, Line: lr.line, Msg: msg}
		}
		if bytes.IndexByte(line, '\r') >= 0 {
			// Lines ended by a bare CR: one line, whose costs after the
			// first were "not a number", or went into the first's name.
			return nil, &ParseError{File: name, Line: lr.line, Msg: BareCR}
		}
		if msg := p.parse(lr.line, line); msg != "" {
			return nil, &ParseError{File: name, Line: lr.line, Msg: msg}
		}
	}
}

// costLineReader splits input into physical lines without their line
// endings, refusing lines longer than maxCostLine.
type costLineReader struct {
	file string
	br   *bufio.Reader
	gzip bool // br reads a *gunzip, whose errors say what is wrong
	buf  []byte
	line int    // 1-based number of the line last returned
	raw  []byte // the line last returned with its line ending, valid as it is
}

// buffered is what the reader holds after the line last returned, without
// reading more.
func (lr *costLineReader) buffered() []byte {
	b, _ := lr.br.Peek(lr.br.Buffered())
	return b
}

// next returns the next line, valid until the following call, or io.EOF at
// the end of the input. Other errors are *ParseErrors.
func (lr *costLineReader) next() ([]byte, error) {
	lr.buf = lr.buf[:0]
	for {
		chunk, err := lr.br.ReadSlice('\n')
		// +2 leaves room for a CRLF ending.
		if len(lr.buf)+len(chunk) > maxCostLine+2 {
			return nil, lr.tooLong(lr.line + 1)
		}
		if err == bufio.ErrBufferFull {
			lr.buf = append(lr.buf, chunk...)
			continue
		}
		if err != nil && err != io.EOF {
			switch {
			case lr.gzip && errors.Is(err, errGzipTrailing): // after the text: no line of it
				return nil, &ParseError{File: lr.file, Msg: err.Error()}
			case lr.gzip:
				return nil, &ParseError{File: lr.file, Line: lr.line + 1, Msg: err.Error()}
			}
			return nil, &ParseError{File: lr.file, Line: lr.line + 1, Msg: fmt.Sprintf("cannot read the line: %v", err)}
		}
		line := chunk // the common case: the whole line is in the reader's buffer
		if len(lr.buf) > 0 {
			lr.buf = append(lr.buf, chunk...)
			line = lr.buf
		}
		if err == io.EOF && len(line) == 0 {
			return nil, io.EOF
		}
		lr.line++
		lr.raw = line
		line = bytes.TrimSuffix(line, []byte{'\n'})
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if len(line) > maxCostLine {
			return nil, lr.tooLong(lr.line)
		}
		return line, nil
	}
}

func (lr *costLineReader) tooLong(line int) error {
	return &ParseError{File: lr.file, Line: line, Msg: fmt.Sprintf("line longer than %d bytes, expected a short line per feature", maxCostLine)}
}

// Cost file forms.
const (
	costFormUnset = iota
	costFormPositional
	costFormIndexed
)

// costParser accumulates the data lines of a cost file.
type costParser struct {
	file        string
	numFeatures int
	form        int
	formLine    int // the first data line, which set the form

	cost  []float64   // positional form: one per data line
	index []costEntry // indexed form: in file order
	seen  map[int]int // indexed form: 0-based feature -> line
	max   int         // indexed form: largest 1-based index
}

type costEntry struct {
	feature int // 0-based
	cost    float64
	name    string
}

// parse takes one physical line and returns what is wrong with it, or "";
// of a line of SVMlight data (a data file given for the costs), it says so.
func (p *costParser) parse(lineNo int, line []byte) string {
	msg := p.parseLine(lineNo, line)
	if msg == "" {
		return ""
	}
	// A model or cascade given for the costs (as data files name them):
	// its first line read as a cost, 'index "{\"format\":" is not a
	// positive integer'.
	if tok, rest := nextField(line); lineNo == p.formLine {
		if m := modelText(tok, rest); m != "" {
			return fmt.Sprintf("%s, not a cost file; expected one cost per line or lines 'INDEX COST [NAME]'", m)
		}
	}
	if looksLikeData(line) {
		msg += " (this is a line of SVMlight data, 'LABEL qid:Q INDEX:VALUE …': a cost file has 'INDEX COST [NAME]' or one cost per line)"
	}
	return msg
}

// looksLikeData reports whether line reads as a line of SVMlight data: a
// second field qid:Q or INDEX:VALUE.
func looksLikeData(line []byte) bool {
	_, rest := nextCostField(trimCostBlank(string(line)))
	second, _ := nextCostField(rest)
	if strings.HasPrefix(second, "qid:") {
		return true
	}
	i := strings.IndexByte(second, ':')
	return i > 0 && strings.Trim(second[:i], "0123456789") == ""
}

// parseLine is parse without the hint.
func (p *costParser) parseLine(lineNo int, line []byte) string {
	if i := bytes.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	s := trimCostBlank(string(line))
	if s == "" {
		return ""
	}
	first, rest := nextCostField(s)
	second, rest := nextCostField(rest)
	if p.form == costFormUnset {
		p.form, p.formLine = costFormPositional, lineNo
		if second != "" {
			p.form = costFormIndexed
		}
	}
	if p.form == costFormPositional {
		if second != "" {
			return fmt.Sprintf("extra field %s after the cost: expected one number per line, the form set by line %d (a file cannot mix it with lines 'INDEX COST [NAME]')", quoteToken(second), p.formLine)
		}
		k := len(p.cost) + 1
		if msg := p.checkRange(strconv.Itoa(k)); msg != "" {
			return msg + " (line k of a one-cost-per-line file is the cost of feature k)"
		}
		c, msg := parseCostValue(first)
		if msg != "" {
			return msg
		}
		p.cost = append(p.cost, c)
		return ""
	}
	if second == "" {
		return fmt.Sprintf("missing cost after %s: expected 'INDEX COST [NAME]', the form set by line %d (a file cannot mix it with one cost per line)", quoteToken(first), p.formLine)
	}
	idx, msg := p.parseIndex(first)
	if msg != "" {
		return msg
	}
	if prev, ok := p.seen[idx-1]; ok {
		return fmt.Sprintf("feature %d given twice: first on line %d, expected each index once", idx, prev)
	}
	c, msg := parseCostValue(second)
	if msg != "" {
		return msg
	}
	p.seen[idx-1] = lineNo
	p.index = append(p.index, costEntry{feature: idx - 1, cost: c, name: trimCostBlank(rest)})
	p.max = max(p.max, idx)
	return ""
}

// parseIndex parses a 1-based feature index.
func (p *costParser) parseIndex(tok string) (int, string) {
	digits := strings.TrimPrefix(tok, "+")
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return 0, fmt.Sprintf("index %s is not a positive integer, expected a feature index from 1", quoteToken(tok))
	}
	if strings.TrimLeft(digits, "0") == "" {
		return 0, fmt.Sprintf("index %s is not a positive integer: feature indices start at 1", quoteToken(tok))
	}
	if msg := p.checkRange(digits); msg != "" {
		return 0, msg
	}
	idx, _ := strconv.Atoi(digits) // checkRange bounded it
	return idx, ""
}

// checkRange reports whether the positive decimal index k (possibly too big
// for an int) is beyond the features the costs may describe.
func (p *costParser) checkRange(k string) string {
	k = strings.TrimLeft(k, "0")
	n, err := strconv.Atoi(k)
	if err == nil && n <= max(p.numFeatures, maxCostFeatures) {
		return ""
	}
	if p.numFeatures > maxCostFeatures {
		// The data's count is the bound (not maxCostFeatures, which it passes).
		return fmt.Sprintf("index %s out of range: the data has %d features", shortToken(k), p.numFeatures)
	}
	if p.numFeatures > 0 {
		return fmt.Sprintf("index %s out of range: the data has %d features, and a cost file may describe at most %d", shortToken(k), p.numFeatures, maxCostFeatures)
	}
	return fmt.Sprintf("index %s out of range: at most %d features are supported without the data set", shortToken(k), maxCostFeatures)
}

// parseCostValue parses a cost: a decimal number from 0 to MaxCost.
func parseCostValue(tok string) (float64, string) {
	if !isCostDecimal(tok) {
		switch strings.ToLower(strings.TrimLeft(tok, "+-")) {
		case "nan", "inf", "infinity":
			return 0, fmt.Sprintf("cost %s is not finite, expected a finite number >= 0", quoteToken(tok))
		}
		return 0, fmt.Sprintf("cost %s is not a number, expected a number >= 0 such as 10 or 0.5", quoteToken(tok))
	}
	c, err := strconv.ParseFloat(tok, 64)
	if err != nil || math.IsInf(c, 0) {
		return 0, fmt.Sprintf("cost %s is out of range, expected a finite number >= 0", quoteToken(tok))
	}
	if c < 0 {
		return 0, fmt.Sprintf("cost %s is negative, expected a number >= 0", quoteToken(tok))
	}
	if c > MaxCost {
		return 0, fmt.Sprintf("cost %s is too large, expected a number from 0 to %g", quoteToken(tok), MaxCost)
	}
	return c + 0, "" // +0 turns -0 into 0
}

// isCostDecimal reports whether s is a decimal number: an optional sign,
// digits with an optional fraction, and an optional exponent. It rules out
// what strconv also accepts but no cost file should hold (hexadecimal,
// underscores, "Inf", "NaN").
func isCostDecimal(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		}
		if i == start {
			return false
		}
	}
	return i == len(s)
}

// result builds the Costs from the lines parsed.
func (p *costParser) result() (*Costs, error) {
	if p.form == costFormUnset {
		return nil, &ParseError{File: p.file, Msg: "no costs in the file, expected one cost per line or lines 'INDEX COST [NAME]'"}
	}
	n := p.numFeatures
	if n == 0 {
		n = max(len(p.cost), p.max)
	}
	c := &Costs{Cost: make([]float64, n), Name: make([]string, n), file: p.file, features: n}
	given := make([]bool, n)
	beyond := func(f int) bool {
		if f < n {
			return false
		}
		c.Beyond++
		c.BeyondMax = max(c.BeyondMax, f+1)
		return true
	}
	for f, v := range p.cost {
		if !beyond(f) {
			c.Cost[f], given[f] = v, true
		}
	}
	for _, e := range p.index {
		if !beyond(e.feature) {
			c.Cost[e.feature], c.Name[e.feature], given[e.feature] = e.cost, e.name, true
		}
	}
	for f := range given {
		if !given[f] {
			c.Cost[f] = 1
			c.Defaulted = append(c.Defaulted, f)
		}
	}
	return c, nil
}

// nextCostField splits off the first field of s, separated by spaces or tabs.
func nextCostField(s string) (field, rest string) {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	j := i
	for j < len(s) && s[j] != ' ' && s[j] != '\t' {
		j++
	}
	return s[i:j], s[j:]
}

func trimCostBlank(s string) string { return strings.Trim(s, " \t") }

// quoteToken quotes a token for a message, shortened so that a
// megabyte-long token does not make a megabyte-long message.
func quoteToken(tok string) string { return strconv.Quote(shortToken(tok)) }

func shortToken(tok string) string {
	const maxLen = 40
	if len(tok) <= maxLen {
		return tok
	}
	cut := maxLen
	for cut > 0 && !utf8.RuneStart(tok[cut]) {
		cut--
	}
	return tok[:cut] + "..."
}
