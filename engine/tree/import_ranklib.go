package tree

import (
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
)

// rlTreeRankers are the RankLib rankers whose models are tree ensembles, by
// the upper-cased name their first line gives (RankerFactory matches it so).
var rlTreeRankers = map[string]string{
	"LAMBDAMART":     "LambdaMART",
	"MART":           "MART",
	"RANDOM FORESTS": "Random Forests",
}

// rlOtherRankers are RankLib's other rankers, which are refused by name.
var rlOtherRankers = map[string]string{
	"RANKNET":           "RankNet",
	"RANKBOOST":         "RankBoost",
	"ADARANK":           "AdaRank",
	"COORDINATE ASCENT": "Coordinate Ascent",
	"LAMBDARANK":        "LambdaRank",
	"LISTNET":           "ListNet",
	"LINEAR REGRESSION": "Linear Regression",
}

// rlMaxDepth bounds how deeply <split>s may nest: far beyond any tree
// RankLib grows (its default is 10 leaves), and shallow enough that the
// recursive reader (split) stays well within the stack.
const rlMaxDepth = 10000

// ImportRankLib reads a RankLib tree-ensemble model (the text file
// `java -jar RankLib.jar -save m.txt` writes, the model format of the Solr
// and Elasticsearch LTR plugins) and returns the ensemble with its
// provenance (ranker, number of trees and bags, the "## key = value" header
// lines) for Model.Params. name is used in error messages.
//
// The first line names the ranker, as RankerFactory reads it: "## LambdaMART"
// and "## MART" hold one <ensemble>, "## Random Forests" one per bag, whose
// scores RankLib averages. Other rankers (RankNet, Coordinate Ascent, ...)
// are refused by name. Lines whose first non-blank character is '#' are
// comments, as for RankLib's ModelLineProducer.
//
// RankLib's feature ids are the data file's indices, as cronus's are. A
// RankLib model does not say how many features its data had: the ensemble's
// count is the highest feature a split uses, or the header's "No. of
// features = N" (cronus's ExportRankLib writes it; it may not be below that
// feature). A split sends a document left when its value <= <threshold> (Split.eval),
// both float32; <split>s are read in order, the first under a split being
// the left branch (RankLib ignores pos=, which is refused here when it says
// otherwise). A tree scores weight × <output> of its leaf (Ensemble.eval),
// each parsed as a Java float, so each leaf becomes that exact product (over
// the number of bags for a forest). RankLib sums the trees in float32 and
// cronus in float64, so scores agree to float32 rounding, not bit for bit.
// RankLib reads a feature a line leaves out, and a NaN, as 0: a split sends
// NaN where it sends 0, so that --absent missing changes nothing.
func ImportRankLib(r io.Reader, name string) (*Ensemble, map[string]any, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	p := &rlParser{name: name}
	return p.parse(string(data))
}

// rlToken is an XML tag or the text between tags.
type rlToken struct {
	kind  rlKind
	name  string            // tag name
	attrs map[string]string // of an open tag
	text  string            // trimmed, of a text token
	line  int
}

type rlKind int

const (
	rlEOF rlKind = iota
	rlOpen
	rlClose
	rlText
)

func (t rlToken) String() string {
	switch t.kind {
	case rlOpen:
		return "<" + t.name + ">"
	case rlClose:
		return "</" + t.name + ">"
	case rlText:
		return fmt.Sprintf("text %q", short(t.text))
	}
	return "the end of the file"
}

type rlParser struct {
	name string
	src  string
	pos  int
	line int

	e        *Ensemble
	bagTrees []int    // trees per <ensemble>
	bagLines [2][]int // the lines each <ensemble> opens and closes on
	weight   string   // of the tree being read, as written
}

// rlError is a fault in the file at a line.
type rlError struct {
	line int
	msg  string
}

func (e *rlError) Error() string { return fmt.Sprintf("%d: %s", e.line, e.msg) }

func (p *rlParser) errorf(line int, format string, args ...any) error {
	return &rlError{line, fmt.Sprintf(format, args...)}
}

func (p *rlParser) parse(src string) (*Ensemble, map[string]any, error) {
	e, prov, err := p.parseModel(src)
	if err != nil {
		var le *rlError
		if errors.As(err, &le) {
			return nil, nil, fmt.Errorf("%s:%w", p.name, err)
		}
		return nil, nil, fmt.Errorf("%s: %w", p.name, err)
	}
	return e, prov, nil
}

func (p *rlParser) parseModel(src string) (*Ensemble, map[string]any, error) {
	// Lines end as Java's readLine, which RankLib reads with, ends them:
	// LF, CRLF or a lone CR (a model saved with CR line endings was
	// refused as an unknown ranker "LambdaMART\r## No. of trees …").
	src = strings.ReplaceAll(strings.ReplaceAll(src, "\r\n", "\n"), "\r", "\n")
	lines := strings.Split(src, "\n")
	first := strings.TrimSpace(lines[0])
	if !strings.HasPrefix(first, "##") {
		return nil, nil, p.errorf(1, "not a RankLib model: the first line names the ranker, as \"## LambdaMART\" (got %q)", short(first))
	}
	ranker := strings.TrimSpace(strings.TrimPrefix(first, "##"))
	key := strings.ToUpper(ranker)
	if other, ok := rlOtherRankers[key]; ok {
		return nil, nil, p.errorf(1, "a RankLib %s model is not a tree ensemble: cronus imports LambdaMART, MART and Random Forests models", other)
	}
	named := ranker
	ranker, ok := rlTreeRankers[key]
	if !ok {
		return nil, nil, p.errorf(1, "unknown RankLib ranker %q (want LambdaMART, MART or Random Forests)", short(named))
	}
	forest := ranker == "Random Forests"

	// Comment lines go, as ModelLineProducer drops them; blanking them keeps
	// the line numbers. "## key = value" lines are the header.
	header := map[string]any{}
	bags, bagsLine := 0, 0          // the header's "## No. of bags = N", and its line
	features, featuresLine := "", 0 // the "## No. of features = N" cronus's export writes, and its line
	for i, l := range lines {
		t := strings.TrimLeft(l, " \t\r\v\f")
		if !strings.HasPrefix(t, "#") {
			continue
		}
		if k, v, ok := strings.Cut(strings.TrimPrefix(t, "##"), "="); ok && i > 0 {
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			header[k] = v
			if n, err := strconv.Atoi(v); err == nil && n > 0 && k == "No. of bags" && bagsLine == 0 {
				bags, bagsLine = n, i+1
			}
			if k == "No. of features" && featuresLine == 0 {
				features, featuresLine = v, i+1
			}
		}
		lines[i] = ""
	}
	p.src = strings.Join(lines, "\n")
	p.line = 1

	p.e = &Ensemble{Objective: ranker}
	for {
		t, err := p.next()
		if err != nil {
			return nil, nil, err
		}
		if t.kind == rlEOF {
			break
		}
		if t.kind != rlOpen || t.name != "ensemble" {
			return nil, nil, p.errorf(t.line, "expected <ensemble>, got %v", t)
		}
		if len(p.bagTrees) == 1 && !forest {
			return nil, nil, p.errorf(t.line, "a second <ensemble>: only a Random Forests model holds several (one per bag)")
		}
		if err := p.ensemble(t); err != nil {
			return nil, nil, err
		}
	}
	if len(p.bagTrees) == 0 {
		return nil, nil, p.errorf(max(1, strings.Count(p.src, "\n")), "no <ensemble> in the file")
	}
	// RFRanker writes one <ensemble> per bag, as many as its header's
	// "No. of bags" says: fewer is a file cut after a bag (RankLib would
	// average the bags left, silently), more two files run together.
	if got := len(p.bagTrees); forest && bagsLine > 0 && got != bags {
		if got < bags {
			ens := fmt.Sprintf("%d <ensemble>s", got)
			if got == 1 {
				ens = "one <ensemble>"
			}
			return nil, nil, p.errorf(p.bagLines[1][got-1], "the file ends after %s, and its header says \"No. of bags = %d\" (line %d): is it truncated? (RankLib writes one <ensemble> per bag)", ens, bags, bagsLine)
		}
		return nil, nil, p.errorf(p.bagLines[0][bags], "more <ensemble>s than the header's \"No. of bags = %d\" (line %d): RankLib writes one <ensemble> per bag (two models run together?)", bags, bagsLine)
	}
	if featuresLine > 0 {
		// The count cronus's export wrote: at least the highest feature a
		// split uses, which is all a RankLib model says otherwise.
		n, err := strconv.Atoi(features)
		switch {
		case err != nil || n < 1 || n > maxFeatures:
			return nil, nil, p.errorf(featuresLine, "\"No. of features = %s\": want a whole number from 1 to %d", short(features), maxFeatures)
		case n < p.e.NumFeatures:
			return nil, nil, p.errorf(featuresLine, "\"No. of features = %d\", but a split uses feature %d", n, p.e.NumFeatures)
		}
		p.e.NumFeatures = n
	}
	if forest && len(p.bagTrees) > 1 {
		// RFRanker.eval averages the bags' scores.
		n := float64(len(p.bagTrees))
		for _, t := range p.e.Trees {
			for j := range t.Leaves {
				t.Leaves[j] /= n
			}
		}
	}
	prov := map[string]any{
		"source": "ranklib",
		"file":   filepath.Base(p.name),
		"ranker": ranker,
		"trees":  len(p.e.Trees),
	}
	if forest {
		prov["bags"] = len(p.bagTrees)
	}
	if len(header) > 0 {
		prov["header"] = header
	}
	return p.e, prov, nil
}

// ensemble reads the trees of an <ensemble> whose open tag is open.
func (p *rlParser) ensemble(open rlToken) error {
	n := 0
	for {
		t, err := p.next()
		if err != nil {
			return err
		}
		switch {
		case t.kind == rlClose && t.name == "ensemble":
			if n == 0 {
				return p.errorf(open.line, "<ensemble> holds no <tree>: the model would score every document 0")
			}
			p.bagTrees = append(p.bagTrees, n)
			p.bagLines[0] = append(p.bagLines[0], open.line)
			p.bagLines[1] = append(p.bagLines[1], t.line)
			return nil
		case t.kind == rlOpen && t.name == "tree":
			if err := p.tree(t); err != nil {
				return err
			}
			n++
		default:
			return p.errorf(t.line, "expected <tree> or </ensemble> (<ensemble> opened on line %d), got %v", open.line, t)
		}
	}
}

// tree reads a <tree> whose open tag is open.
func (p *rlParser) tree(open rlToken) error {
	ws, ok := open.attrs["weight"]
	if !ok {
		return p.errorf(open.line, "<tree> without a weight attribute")
	}
	w, err := javaFloat(ws)
	if err != nil || math.IsNaN(float64(w)) || math.IsInf(float64(w), 0) {
		return p.errorf(open.line, "<tree> weight %q is not a finite number", short(ws))
	}
	t, err := p.next()
	if err != nil {
		return err
	}
	if t.kind != rlOpen || t.name != "split" {
		return p.errorf(t.line, "expected the <split> that is the tree's root, got %v", t)
	}
	var tr Tree
	p.weight = ws
	if _, err := p.split(t, &tr, float64(w), "", 1); err != nil {
		return err
	}
	if t, err = p.next(); err != nil {
		return err
	}
	if t.kind != rlClose || t.name != "tree" {
		return p.errorf(t.line, "expected </tree> (<tree> opened on line %d), got %v", open.line, t)
	}
	if err := tr.Validate(p.e.NumFeatures); err != nil {
		// What the reader builds always validates; this guards the reader.
		return p.errorf(open.line, "tree %d: %v", len(p.e.Trees), err)
	}
	p.e.Trees = append(p.e.Trees, tr)
	return nil
}

// split reads a <split> whose open tag is open into tr: a leaf (<output>)
// or a split (<feature>, <threshold>, the left and the right <split>), and
// returns its child index in tr. pos is the branch it must be ("left",
// "right", or "" for the root).
func (p *rlParser) split(open rlToken, tr *Tree, weight float64, pos string, depth int) (int32, error) {
	if depth > rlMaxDepth {
		return 0, p.errorf(open.line, "<split>s nested more than %d deep", rlMaxDepth)
	}
	if got, ok := open.attrs["pos"]; ok && pos != "" && got != pos {
		return 0, p.errorf(open.line, "<split pos=%q> where the %s branch is: RankLib takes the first <split> under a split as the left branch and the second as the right, whatever pos says", short(got), pos)
	}
	t, err := p.next()
	if err != nil {
		return 0, err
	}
	var idx int32
	switch {
	case t.kind == rlOpen && t.name == "output":
		s, err := p.value(t)
		if err != nil {
			return 0, err
		}
		out, err := javaFloat(s)
		if err != nil {
			return 0, p.errorf(t.line, "<output> %q is not a number", short(s))
		}
		v := float64(out) * weight
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, p.errorf(t.line, "<output> %s times the tree's weight %s is not finite", short(s), short(p.weight))
		}
		idx = Leaf(len(tr.Leaves))
		tr.Leaves = append(tr.Leaves, v)
	case t.kind == rlOpen && t.name == "feature":
		s, err := p.value(t)
		if err != nil {
			return 0, err
		}
		f, err := strconv.Atoi(s)
		switch {
		case err != nil && !errors.Is(err, strconv.ErrRange):
			return 0, p.errorf(t.line, "<feature> %q is not an integer", short(s))
		case err == nil && f < 1 || strings.HasPrefix(s, "-"):
			return 0, p.errorf(t.line, "<feature> %s: RankLib numbers features from 1", short(s))
		case err != nil || f > maxFeatures:
			return 0, p.errorf(t.line, "<feature> %s: cronus reads data with feature indices up to %d", short(s), maxFeatures)
		}
		th, err := p.next()
		if err != nil {
			return 0, err
		}
		if th.kind != rlOpen || th.name != "threshold" {
			return 0, p.errorf(th.line, "expected <threshold> after <feature>, got %v", th)
		}
		s, err = p.value(th)
		if err != nil {
			return 0, err
		}
		thr, err := javaFloat(s)
		if err != nil {
			return 0, p.errorf(th.line, "<threshold> %q is not a number", short(s))
		}
		nd := Node{Feature: int32(f - 1), Threshold: thr, DefaultLeft: 0 <= thr}
		switch {
		case math.IsNaN(float64(thr)):
			return 0, p.errorf(th.line, "<threshold> NaN sends every value right, which cronus cannot represent")
		case math.IsInf(float64(thr), 1):
			nd.Threshold = math.MaxFloat32 // x <= +Inf for every finite x
		case math.IsInf(float64(thr), -1):
			return 0, p.errorf(th.line, "<threshold> -Infinity sends every value right, which cronus cannot represent")
		}
		idx = int32(len(tr.Nodes))
		tr.Nodes = append(tr.Nodes, nd)
		p.e.NumFeatures = max(p.e.NumFeatures, f)
		for _, branch := range []string{"left", "right"} {
			c, err := p.next()
			if err != nil {
				return 0, err
			}
			if c.kind != rlOpen || c.name != "split" {
				return 0, p.errorf(c.line, "expected the %s <split> of the split on feature %d (line %d), got %v", branch, f, t.line, c)
			}
			child, err := p.split(c, tr, weight, branch, depth+1)
			if err != nil {
				return 0, err
			}
			if branch == "left" {
				tr.Nodes[idx].Left = child
			} else {
				tr.Nodes[idx].Right = child
			}
		}
	case t.kind == rlClose && t.name == "split":
		return 0, p.errorf(open.line, "<split> with neither <feature> nor <output>: a tree with no output")
	default:
		return 0, p.errorf(t.line, "<split> (line %d) must start with <feature> (a split) or <output> (a leaf), got %v", open.line, t)
	}
	t, err = p.next()
	if err != nil {
		return 0, err
	}
	if t.kind != rlClose || t.name != "split" {
		return 0, p.errorf(t.line, "expected </split> (<split> opened on line %d), got %v", open.line, t)
	}
	return idx, nil
}

// value reads the text of an element whose open tag is open, and its
// closing tag.
func (p *rlParser) value(open rlToken) (string, error) {
	t, err := p.next()
	if err != nil {
		return "", err
	}
	if t.kind != rlText {
		return "", p.errorf(t.line, "<%s> without a value, got %v", open.name, t)
	}
	c, err := p.next()
	if err != nil {
		return "", err
	}
	if c.kind != rlClose || c.name != open.name {
		return "", p.errorf(c.line, "expected </%s> (opened on line %d), got %v", open.name, open.line, c)
	}
	return t.text, nil
}

// javaFloat parses s as Java's Float.parseFloat does: surrounding
// whitespace and a type suffix (f, F, d, D) allowed, rounded once to
// float32, too large a magnitude giving an infinity.
func javaFloat(s string) (float32, error) {
	s = strings.TrimSpace(s)
	if n := len(s); n > 1 && strings.ContainsRune("fFdD", rune(s[n-1])) && (s[n-2] == '.' || s[n-2] >= '0' && s[n-2] <= '9') {
		s = s[:n-1]
	}
	switch s {
	case "NaN", "Infinity", "+Infinity", "-Infinity":
	default:
		// Java spells these only as above; Go also takes inf, nan, ...
		if l := strings.ToLower(strings.TrimLeft(s, "+-")); strings.HasPrefix(l, "inf") || strings.HasPrefix(l, "nan") || strings.Contains(s, "_") {
			return 0, strconv.ErrSyntax
		}
	}
	v, err := strconv.ParseFloat(s, 32)
	if err != nil && !(errors.Is(err, strconv.ErrRange) && math.IsInf(v, 0)) {
		return 0, err
	}
	return float32(v), nil
}

// next returns the next token, skipping the empty text tokens that lex
// returns for comments and declarations.
func (p *rlParser) next() (rlToken, error) {
	for {
		t, err := p.lex()
		if err != nil || t.kind != rlText || t.text != "" {
			return t, err
		}
	}
}

// lex reads one token from p.src at p.pos: a tag, a comment or declaration
// (returned as empty text), or the text up to the next '<'.
func (p *rlParser) lex() (rlToken, error) {
	for p.pos < len(p.src) && isSpace(p.src[p.pos]) {
		if p.src[p.pos] == '\n' {
			p.line++
		}
		p.pos++
	}
	if p.pos == len(p.src) {
		return rlToken{kind: rlEOF, line: p.line}, nil
	}
	start := p.line
	if p.src[p.pos] != '<' {
		end := strings.IndexByte(p.src[p.pos:], '<')
		if end < 0 {
			end = len(p.src) - p.pos
		}
		text := p.src[p.pos : p.pos+end]
		p.advance(end)
		return rlToken{kind: rlText, text: strings.TrimSpace(text), line: start}, nil
	}
	rest := p.src[p.pos:]
	for _, skip := range []struct{ open, close string }{{"<!--", "-->"}, {"<?", "?>"}} {
		if strings.HasPrefix(rest, skip.open) {
			end := strings.Index(rest[len(skip.open):], skip.close)
			if end < 0 {
				return rlToken{}, p.errorf(start, "%s without %s", skip.open, skip.close)
			}
			p.advance(len(skip.open) + end + len(skip.close))
			return rlToken{kind: rlText, line: start}, nil
		}
	}
	end := strings.IndexByte(rest, '>')
	if end < 0 {
		return rlToken{}, p.errorf(start, "a tag without its closing '>' (truncated?)")
	}
	tag := rest[1:end]
	p.advance(end + 1)
	if strings.HasPrefix(tag, "/") {
		name := strings.TrimRight(tag[1:], " \t\r\n")
		if !isName(name) {
			return rlToken{}, p.errorf(start, "malformed closing tag <%s>", short(tag))
		}
		return rlToken{kind: rlClose, name: name, line: start}, nil
	}
	if strings.HasSuffix(tag, "/") {
		return rlToken{}, p.errorf(start, "empty element <%s>: RankLib reads no value from it", short(tag))
	}
	i := 0
	for i < len(tag) && !isSpace(tag[i]) {
		i++
	}
	name := tag[:i]
	if !isName(name) {
		return rlToken{}, p.errorf(start, "malformed tag <%s>", short(tag))
	}
	attrs := map[string]string{}
	for s := strings.TrimLeft(tag[i:], " \t\r\n"); s != ""; s = strings.TrimLeft(s, " \t\r\n") {
		eq := strings.IndexByte(s, '=')
		if eq < 0 {
			return rlToken{}, p.errorf(start, "malformed attribute in <%s>", short(tag))
		}
		k := strings.TrimSpace(s[:eq])
		v := strings.TrimLeft(s[eq+1:], " \t\r\n")
		if !isName(k) || v == "" || (v[0] != '"' && v[0] != '\'') {
			return rlToken{}, p.errorf(start, "malformed attribute in <%s>", short(tag))
		}
		q := strings.IndexByte(v[1:], v[0])
		if q < 0 {
			return rlToken{}, p.errorf(start, "unterminated attribute value in <%s>", short(tag))
		}
		if _, dup := attrs[k]; dup {
			return rlToken{}, p.errorf(start, "attribute %s given twice in <%s>", k, short(tag))
		}
		attrs[k] = v[1 : 1+q]
		s = v[2+q:]
		if s != "" && !isSpace(s[0]) {
			return rlToken{}, p.errorf(start, "malformed attribute in <%s>", short(tag))
		}
	}
	return rlToken{kind: rlOpen, name: name, attrs: attrs, line: start}, nil
}

// advance moves n bytes on, counting lines.
func (p *rlParser) advance(n int) {
	p.line += strings.Count(p.src[p.pos:p.pos+n], "\n")
	p.pos += n
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// isName reports whether s is a plain XML name (the tags RankLib writes).
func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || i > 0 && (c >= '0' && c <= '9' || c == '-' || c == '.' || c == ':')) {
			return false
		}
	}
	return true
}
