package tree

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/cronus-ltr/cronus/data"
)

// Model file format and the newest version this code reads and writes.
const (
	ModelFormat  = "cronus-ensemble"
	ModelVersion = 1
)

// CascadeFormat is the format of a cascade file, cronus.FileFormat: it is
// defined here, since that package imports this one, for the messages about
// a cascade given where a model is wanted.
const CascadeFormat = "cronus-cascade"

// Model is the on-disk form of an Ensemble: a versioned JSON document.
//
//	{
//	  "format": "cronus-ensemble",
//	  "version": 1,
//	  "objective": "lambdarank",
//	  "num_features": 46,
//	  "base_score": 0,
//	  "params": {"trees": 100, "leaves": 15, "learning_rate": 0.1, "seed": 7},
//	  "source": "cronus",
//	  "trees": [
//	    {"split_feature": [40, 25], "threshold": [0.6027590036, 0.5024395],
//	     "left_child": [1, -1], "right_child": [-3, -2], "default_left": [false, true],
//	     "leaf_value": [-0.163, 0.023, 0.101], "features": [25, 40],
//	     "split_gain": [41.7, 3.2], "cover": [1021, 388],
//	     "leaf_cover": [217, 171, 633]},
//	    ...
//	  ]
//	}
//
// The score of a document is base_score plus the sum over trees of the value
// of the leaf it reaches: a raw score, no link function. Features are numbered
// from 1 everywhere in the file, as in the data files. A tree with n splits
// has n entries in each of split_feature, threshold, left_child, right_child
// (and default_left, which may be omitted when all false) and n+1 in
// leaf_value; the root is split 0. At split i a document goes to left_child[i]
// when its value of feature split_feature[i] is <= threshold[i] (a float32),
// or when the value is missing (NaN) and default_left[i] is true; otherwise
// to right_child[i]. A child c >= 0 is split c; c < 0 is leaf -c-1 (so -1 is
// leaf 0). Every split and leaf is reached exactly once. A tree without splits
// is a single leaf. features lists, sorted, the distinct features the tree
// splits on, for tools that account feature costs without walking the tree.
// Thresholds are float32 and leaf values float64, written in the shortest
// form that reads back to the same bits. The optional split_gain and cover
// (n entries each, float32) are, for each split, its gain
// G_L²/(H_L+λ) + G_R²/(H_R+λ) − G²/(H+λ) and the hessian sum of the
// training documents that reached it (Tree.Gain, Tree.Cover), and the
// optional leaf_cover (n+1 entries, float32) that hessian sum for each
// leaf (Tree.LeafCover): for feature importance and feature contributions
// only, never for scoring. "params" holds the training
// parameters, or for an imported model where it came from; "source" is
// "cronus", "lightgbm", "xgboost" or "ranklib".
//
// Readers refuse another format name and versions newer than ModelVersion;
// unknown fields are ignored, but a key given twice in one object, or one
// that differs only in case from a field, is refused (CheckKeys).
type Model struct {
	Format      string         `json:"format"`
	Version     int            `json:"version"`
	Objective   string         `json:"objective"`
	NumFeatures int            `json:"num_features"`
	BaseScore   float64        `json:"base_score"`
	Params      map[string]any `json:"params,omitempty"`
	Source      string         `json:"source,omitempty"`
	Trees       []TreeJSON     `json:"trees"`
}

// TreeJSON is one tree of a Model; see Model for the meaning of the fields.
type TreeJSON struct {
	Split       []int32   `json:"split_feature"` // 1-based
	Threshold   []float32 `json:"threshold"`
	Left        []int32   `json:"left_child"`
	Right       []int32   `json:"right_child"`
	DefaultLeft []bool    `json:"default_left,omitempty"`
	Leaf        []float64 `json:"leaf_value"`
	Features    []int     `json:"features"` // 1-based, sorted
	Gain        []float32 `json:"split_gain,omitempty"`
	Cover       []float32 `json:"cover,omitempty"`
	LeafCover   []float32 `json:"leaf_cover,omitempty"`
}

// NewModel returns the file form of e. source names where the trees come
// from ("cronus", "lightgbm", "xgboost", "ranklib"); params is stored as given.
func NewModel(e *Ensemble, source string, params map[string]any) *Model {
	m := &Model{
		Format:      ModelFormat,
		Version:     ModelVersion,
		Objective:   e.Objective,
		NumFeatures: e.NumFeatures,
		BaseScore:   e.Base,
		Params:      params,
		Source:      source,
		Trees:       make([]TreeJSON, len(e.Trees)),
	}
	for i := range e.Trees {
		t := &e.Trees[i]
		n := len(t.Nodes)
		tj := TreeJSON{
			Split:     make([]int32, n),
			Threshold: make([]float32, n),
			Left:      make([]int32, n),
			Right:     make([]int32, n),
			Leaf:      slices.Clone(t.Leaves),
			Features:  t.Features(),
			Gain:      slices.Clone(t.Gain),
			Cover:     slices.Clone(t.Cover),
			LeafCover: slices.Clone(t.LeafCover),
		}
		anyDefaultLeft := false
		for j, nd := range t.Nodes {
			tj.Split[j] = nd.Feature + 1
			tj.Threshold[j] = nd.Threshold
			tj.Left[j] = nd.Left
			tj.Right[j] = nd.Right
			anyDefaultLeft = anyDefaultLeft || nd.DefaultLeft
		}
		if anyDefaultLeft {
			tj.DefaultLeft = make([]bool, n)
			for j, nd := range t.Nodes {
				tj.DefaultLeft[j] = nd.DefaultLeft
			}
		}
		if tj.Leaf == nil {
			tj.Leaf = []float64{}
		}
		if tj.Features == nil {
			tj.Features = []int{}
		}
		for k := range tj.Features {
			tj.Features[k]++
		}
		m.Trees[i] = tj
	}
	return m
}

// maxFeatures is the most features a model may have: no data set cronus
// reads has a feature index above it.
const maxFeatures = data.MaxFeatureIndex

// Ensemble converts m to an Ensemble, checking that it has a tree, that
// every tree's arrays agree in length and that every tree passes
// Tree.Validate.
func (m *Model) Ensemble() (*Ensemble, error) {
	return m.ensembleContext(context.Background())
}

// ensembleContext is Ensemble, given up when ctx is done: it looks at ctx
// between trees and returns its error (checking 2,000 trees 9 deep takes
// a fifth of a second).
func (m *Model) ensembleContext(ctx context.Context) (*Ensemble, error) {
	if len(m.Trees) == 0 {
		return nil, errNoTrees
	}
	if m.NumFeatures < 0 || m.NumFeatures > maxFeatures {
		return nil, fmt.Errorf("num_features is %d, want 0 to %d", m.NumFeatures, maxFeatures)
	}
	if math.IsNaN(m.BaseScore) || math.IsInf(m.BaseScore, 0) {
		return nil, fmt.Errorf("base_score %v is not finite", m.BaseScore)
	}
	e := &Ensemble{
		Trees:       make([]Tree, len(m.Trees)),
		Base:        m.BaseScore,
		NumFeatures: m.NumFeatures,
		Objective:   m.Objective,
	}
	for i := range m.Trees {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t, err := m.Trees[i].tree(m.NumFeatures)
		if err != nil {
			return nil, fmt.Errorf("tree %d: %w", i, err)
		}
		e.Trees[i] = t
	}
	if err := e.checkSum(); err != nil {
		return nil, err
	}
	return e, nil
}

// checkSum refuses an ensemble whose scores could leave the float64
// range: each leaf value is finite, but the base score and the trees'
// largest leaf values sum past it (a crafted model; its scores came out
// +Inf, which eval, predict --json and the cascade cannot take).
func (e *Ensemble) checkSum() error {
	bound := math.Abs(e.Base)
	for i, t := range e.Trees {
		big := 0.0
		for _, v := range t.Leaves {
			big = max(big, math.Abs(v))
		}
		if bound += big; math.IsInf(bound, 0) {
			return fmt.Errorf("tree %d: the base score and the largest leaf values of trees 0 to %d sum past the float64 range (%g): the scores would not be finite", i, i, math.MaxFloat64)
		}
	}
	return nil
}

// tree converts one TreeJSON, numFeatures bounding its features.
func (tj *TreeJSON) tree(numFeatures int) (Tree, error) {
	n := len(tj.Split)
	for _, a := range []struct {
		name string
		len  int
	}{{"threshold", len(tj.Threshold)}, {"left_child", len(tj.Left)}, {"right_child", len(tj.Right)}} {
		if a.len != n {
			return Tree{}, fmt.Errorf("split_feature has %d entries but %s has %d", n, a.name, a.len)
		}
	}
	if len(tj.DefaultLeft) != 0 && len(tj.DefaultLeft) != n {
		return Tree{}, fmt.Errorf("split_feature has %d entries but default_left has %d", n, len(tj.DefaultLeft))
	}
	if len(tj.Leaf) != n+1 {
		return Tree{}, fmt.Errorf("%d splits need %d leaf values, leaf_value has %d", n, n+1, len(tj.Leaf))
	}
	var t Tree
	if n > 0 {
		t.Nodes = make([]Node, n)
	}
	for j := range n {
		f := tj.Split[j]
		if f < 1 || int(f) > numFeatures {
			return Tree{}, fmt.Errorf("split %d: feature %d is outside 1..%d", j, f, numFeatures)
		}
		t.Nodes[j] = Node{
			Feature:     f - 1,
			Threshold:   tj.Threshold[j],
			Left:        tj.Left[j],
			Right:       tj.Right[j],
			DefaultLeft: len(tj.DefaultLeft) > 0 && tj.DefaultLeft[j],
		}
	}
	t.Leaves = slices.Clone(tj.Leaf)
	for _, a := range []struct {
		name string
		v    []float32
		dst  *[]float32
	}{{"split_gain", tj.Gain, &t.Gain}, {"cover", tj.Cover, &t.Cover}} {
		// A tree of one leaf has no split to give statistics of: `[]` is
		// none, as the field left out is (the two read back alike; an
		// empty slice came back nil from a write, FuzzReadModel).
		if a.v == nil || n == 0 && len(a.v) == 0 {
			continue
		}
		if len(a.v) != n {
			return Tree{}, fmt.Errorf("split_feature has %d entries but %s has %d", n, a.name, len(a.v))
		}
		*a.dst = slices.Clone(a.v)
	}
	if tj.LeafCover != nil {
		if len(tj.LeafCover) != n+1 {
			return Tree{}, fmt.Errorf("leaf_value has %d entries but leaf_cover has %d", n+1, len(tj.LeafCover))
		}
		t.LeafCover = slices.Clone(tj.LeafCover)
	}
	if err := t.Validate(numFeatures); err != nil {
		return Tree{}, err
	}
	if tj.Features != nil {
		want := t.Features()
		for k := range want {
			want[k]++
		}
		if !slices.Equal(tj.Features, want) {
			return Tree{}, fmt.Errorf("features %v do not match the features it splits on %v", tj.Features, want)
		}
	}
	return t, nil
}

// checkHeader checks the format name and version.
func (m *Model) checkHeader() error {
	switch {
	case m.Format == "":
		return errors.New(`not a cronus model: no "format" field (a LightGBM, XGBoost or RankLib model must be converted with cronus import)`)
	case m.Format == CascadeFormat:
		return fmt.Errorf("not a cronus model but a cascade (format %q): cronus eval, predict and export take it as --cascade C, cronus cascade as --warm C", m.Format)
	case m.Format != ModelFormat:
		return fmt.Errorf("not a cronus model: format %q, want %q", m.Format, ModelFormat)
	case m.Version == 0:
		return errors.New(`no model "version"`)
	case m.Version > ModelVersion:
		return fmt.Errorf("model version %d is newer than this cronus supports (%d)", m.Version, ModelVersion)
	case m.Version < 0:
		return fmt.Errorf("model version %d is not valid", m.Version)
	}
	return nil
}

// foreignModel is the error for a file that is no cronus model (what says
// why), naming the import that converts it when it looks like another
// library's model.
func foreignModel(data []byte, what string) error {
	if b := bytes.TrimSpace(data); len(b) > 0 && isXGBoostDump(b) {
		// Which import refuses too: the way to a model is save_model.
		return fmt.Errorf("not a cronus model: %s; it looks like a dump of an XGBoost model's trees (Booster.dump_model or get_dump), "+
			`which leaves out the base score and the objective: save the model with Booster.save_model("m.json") and convert that with cronus import --from xgboost`, what)
	}
	if isXGBoostConfig(data) {
		// Which import refuses too: it holds no trees.
		return fmt.Errorf("not a cronus model: %s; it looks like %s", what, xgbConfigAdvice)
	}
	if from := sniffModelFormat(data); from != "" {
		return fmt.Errorf("not a cronus model: %s; it looks like %s: convert it with cronus import --from %s", what, importKinds[from], from)
	}
	return fmt.Errorf("not a cronus model: %s (a LightGBM, XGBoost or RankLib model must be converted with cronus import)", what)
}

// WriteModel checks m and writes it to path atomically: into a temporary
// file in the same directory, which is renamed over path only once it is
// complete, so path holds either the old file or the whole new one.
func WriteModel(path string, m *Model) error {
	out, err := ModelOutput(path, m)
	if err != nil {
		return err
	}
	return data.WriteAtomic(path, out.Write)
}

// ModelOutput checks and encodes m as WriteModel does and returns it as a
// data.Output, to be written by data.WriteAtomicAllContext.
func ModelOutput(path string, m *Model) (data.Output, error) {
	return ModelOutputContext(context.Background(), path, m)
}

// ModelOutputContext is ModelOutput, given up when ctx is done: it
// returns ctx's error (EncodeModelContext).
func ModelOutputContext(ctx context.Context, path string, m *Model) (data.Output, error) {
	return data.EncodedOutput(ctx, path, func(ctx context.Context) ([]byte, error) { return encodeModelContext(ctx, m) })
}

// encodeModel checks m and returns the contents of its model file.
func encodeModel(m *Model) ([]byte, error) { return encodeModelContext(context.Background(), m) }

// encodeModelContext is encodeModel, or ctx's error once ctx is done.
func encodeModelContext(ctx context.Context, m *Model) ([]byte, error) {
	b, err := EncodeModelContext(ctx, m, "")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// errNoTrees refuses a model of no trees, which scores every document the
// same, in reading and in writing: neither train (--trees at least 1) nor
// import (which refuses an empty model) makes one.
var errNoTrees = errors.New(`the model has no trees: a model file lists at least one in "trees"`)

// EncodeModel checks m as Model.Ensemble does (it refuses a model of no
// trees, as ReadModel does) and returns its JSON: the header indented, one
// line per tree, without a final newline. Every line after the first
// starts with prefix, so that a model can be embedded in another indented
// JSON document (as a cascade file embeds its ensemble).
func EncodeModel(m *Model, prefix string) ([]byte, error) {
	return EncodeModelContext(context.Background(), m, prefix)
}

// EncodeModelContext is EncodeModel, given up when ctx is done: it looks
// at ctx between trees and returns its error (encoding 2,000 trees 9 deep,
// a file of 100 MB, takes about a second, which an interrupt waited for).
func EncodeModelContext(ctx context.Context, m *Model, prefix string) ([]byte, error) {
	if err := m.checkHeader(); err != nil {
		return nil, err
	}
	if _, err := m.ensembleContext(ctx); err != nil {
		return nil, err
	}
	for i, tj := range m.Trees {
		for j, v := range tj.Threshold {
			if math.IsInf(float64(v), 0) {
				return nil, fmt.Errorf("tree %d: split %d: threshold %v cannot be written to a model file", i, j, v)
			}
		}
	}
	head := *m
	head.Trees = nil
	b, err := json.MarshalIndent(&head, prefix, "  ")
	if err != nil {
		return nil, err
	}
	// b ends with `"trees": null` and the closing brace; put the trees there.
	b, ok := bytes.CutSuffix(b, []byte("\"trees\": null\n"+prefix+"}"))
	if !ok {
		panic("tree: unexpected model header encoding")
	}
	var buf bytes.Buffer
	buf.Write(b)
	buf.WriteString("\"trees\": [")
	for i := range m.Trees {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		tb, err := json.Marshal(&m.Trees[i])
		if err != nil {
			return nil, fmt.Errorf("tree %d: %w", i, err)
		}
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.WriteString("\n" + prefix + "    ")
		buf.Write(tb)
	}
	if len(m.Trees) > 0 {
		buf.WriteString("\n" + prefix + "  ")
	}
	buf.WriteString("]\n" + prefix + "}")
	return buf.Bytes(), nil
}

// ReadModel reads and checks a model file: the format name, the version,
// the arrays of every tree and the tree structure, so that Ensemble succeeds
// on the result. Errors name the file, and for malformed JSON the line and
// column.
func ReadModel(path string) (*Model, error) {
	b, err := data.ReadWholeAs(path, "a model file", func(head []byte) error {
		_, err := ParseModel(path, head)
		return err
	})
	if err != nil {
		return nil, err
	}
	return ParseModel(path, b)
}

// ParseModel is ReadModel on the contents b of the file path, already read
// (with data.ReadWhole).
func ParseModel(path string, b []byte) (*Model, error) {
	m, err := parseModel(b)
	if err != nil {
		return nil, FileError(path, err)
	}
	return m, nil
}

// JSONError turns a syntax or type error of encoding/json, met while
// decoding data, into an error located at a line and column of data
// ("LINE:COL: what is wrong"); other errors are returned unchanged.
func JSONError(data []byte, err error) error { return jsonError(data, err) }

// FileError prefixes err with the file's name: "FILE:LINE:COL: …" for an
// error located by JSONError, "FILE: …" otherwise.
func FileError(path string, err error) error {
	var pe *posError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s:%w", path, err)
	}
	return fmt.Errorf("%s: %w", path, err)
}

// BinaryError refuses binary data (a NUL byte, which JSON text never
// holds) given as a cronus model or cascade file (what): an XGBoost model
// saved as UBJSON (.ubj), which starts with '{' as JSON does, was reported
// as "1:2: invalid character 'L' looking for beginning of object key
// string", and one in its old binary format ("binf") as no JSON object;
// the first is named as what cronus import reads. nil when data holds no
// NUL byte.
func BinaryError(data []byte, what string) error {
	if bytes.IndexByte(data, 0) < 0 {
		return nil
	}
	head := data[:min(len(data), 4096)]
	if err := UTF16Error(data, "a "+what, "JSON"); err != nil {
		return err
	}
	if isUBJSON(data) && bytes.Contains(head, []byte("learner")) {
		return fmt.Errorf("not a %s: binary data, not JSON text; it looks like an XGBoost model saved as UBJSON (.ubj): "+
			"convert it with cronus import --from xgboost", what)
	}
	if bytes.HasPrefix(data, []byte("binf")) || data[0] == '{' && bytes.Contains(head, []byte("learner")) {
		return fmt.Errorf("not a %s: binary data, not JSON text; it looks like an XGBoost model in its old binary format: "+
			`save it with Booster.save_model("m.json") and convert that with cronus import --from xgboost`, what)
	}
	return fmt.Errorf("not a %s: binary data (a NUL byte), not JSON text", what)
}

// KindError refuses a file's contents b given as what (with its
// article: "a cronus model", "a LightGBM text model"), whose text is
// expected to be text (JSON, LightGBM's model.txt), when the file is of a
// kind that can be told from its first bytes and is none of them: empty,
// as the data reader names it ("empty file; expected a cronus model
// (JSON)"; the JSON readers said "1:1: empty file", naming nothing), an
// image (data.ImageKind: an SVG plot was "a JSON object" expected), or
// UTF-16 text (UTF16Error). nil otherwise: the reader of what says what
// else is wrong.
func KindError(b []byte, what, text string) error {
	if len(bytes.TrimSpace(bytes.TrimPrefix(b, []byte("\ufeff")))) == 0 {
		if strings.Contains(what, text) {
			return fmt.Errorf("empty file; expected %s", what)
		}
		return fmt.Errorf("empty file; expected %s (%s)", what, text)
	}
	if k := data.ImageKind(b); k != "" {
		return fmt.Errorf("not %s: %s (a plot?); expected %s", what, k, text)
	}
	if m := data.CompressedMessage(b, what+" ("+text+")"); m != "" {
		return fmt.Errorf("not %s: %s", what, m)
	}
	return UTF16Error(b, what, text)
}

// UTF16Error refuses UTF-16 text (Windows PowerShell's > and Out-File,
// Notepad's "Unicode"), by its byte order mark, given as a what (a
// "cronus model", "LightGBM text model") that is expected as text in
// UTF-8 or ASCII: named as the data and cost readers name it, not as
// binary data or by its first line's bytes ("\xff\xfe#\x00#\x00…"). nil
// when b has no UTF-16 byte order mark.
func UTF16Error(b []byte, what, expected string) error {
	if !data.IsUTF16(b) {
		return nil
	}
	return fmt.Errorf("not %s: %s", what, data.UTF16Message(expected))
}

// parseModel decodes and checks a model file's contents.
func parseModel(data []byte) (*Model, error) {
	if err := KindError(data, "a cronus model", "JSON"); err != nil {
		return nil, err
	}
	if err := BinaryError(data, "cronus model"); err != nil {
		return nil, err
	}
	// The format name first, so that another kind of JSON file is named
	// as such rather than failing on a field of the wrong type.
	if b := bytes.TrimSpace(data); len(b) > 0 && b[0] != '{' {
		return nil, foreignModel(data, "a model file is a JSON object")
	}
	var head struct {
		Format  json.RawMessage `json:"format"`
		Version json.RawMessage `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, jsonError(data, err)
	}
	m := Unset()
	if head.Format != nil && json.Unmarshal(head.Format, &m.Format) != nil {
		return nil, fmt.Errorf("not a cronus model: format %s is not a string", head.Format)
	}
	if m.Format == "" {
		return nil, foreignModel(data, `no "format" field`)
	}
	if m.Format == ModelFormat && head.Version != nil && json.Unmarshal(head.Version, &m.Version) != nil {
		return nil, fmt.Errorf("model version %s is not an integer", head.Version)
	}
	if err := m.checkHeader(); err != nil {
		return nil, err
	}
	if err := CheckNulls(data, "version", "num_features", "base_score"); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, m); err != nil {
		return nil, jsonError(data, err)
	}
	if err := CheckKeys(data, m); err != nil {
		return nil, err
	}
	if err := m.CheckRequired(); err != nil {
		return nil, err
	}
	if _, err := m.Ensemble(); err != nil {
		return nil, err
	}
	return m, nil
}

// unsetNumFeatures marks a Model's NumFeatures as not given (Unset).
const unsetNumFeatures = math.MinInt

// Unset returns a Model to decode a model object into, with the numbers
// CheckRequired requires marked as not given: encoding/json leaves a
// number the JSON leaves out as it was, so that they are told from a 0
// without another pass over the file. (A JSON number cannot be NaN, and
// a null there is refused before decoding: CheckNulls.)
func Unset() *Model { return &Model{NumFeatures: unsetNumFeatures, BaseScore: math.NaN()} }

// CheckRequired refuses a model decoded into Unset (a model file, or a
// cascade file's "ensemble") without "num_features" or "base_score", which
// would otherwise read as 0: a model without its base score scored every
// document that much off, and one without its number of features was
// refused for its first split's feature, "outside 1..0".
func (m *Model) CheckRequired() error {
	switch {
	case m.NumFeatures == unsetNumFeatures:
		return errors.New(`no "num_features": a model file gives its number of features`)
	case math.IsNaN(m.BaseScore):
		return errors.New(`no "base_score": a model file gives the score its trees' values are added to (0 for none)`)
	}
	return nil
}

// LibsvmReaderWarning says, for an XGBoost model m (with ensemble e) one
// feature wider than the data d that never splits on feature 1, that it
// was most likely trained on XGBoost's own libsvm reader (whose f0 is no
// feature, so every feature is one place off) and imported without
// --libsvm-indices, and how to fix it; "" otherwise. The padding warning
// alone ("feature 47 reads as 0") did not say why scores were off
// (NDCG@10 0.4449 for XGBoost's 0.4740).
func (m *Model) LibsvmReaderWarning(e *Ensemble, d *data.Dataset) string {
	if m == nil || e == nil || m.Source != "xgboost" || d.FileFeatures == 0 || e.NumFeatures != d.FileFeatures+1 {
		return ""
	}
	if used := e.Features(-1); len(used) == 0 || used[0] == 0 {
		return "" // no split, or one on feature 1
	}
	if v, _ := m.Params["feature_indices"].(string); v != "" {
		return "" // imported with --libsvm-indices or --by-name
	}
	return fmt.Sprintf("this XGBoost model has one feature more than %s (%d) and never splits on feature 1: it was most likely trained on XGBoost's own libsvm reader (DMatrix(\"file?format=libsvm\")), whose f0 is no feature, and its features are one place off here; import it again with cronus import --from xgboost --libsvm-indices",
		d.Name, d.FileFeatures)
}

// AbsentWarning says when data d that leaves values out of its lines
// (Dataset.LeftOut: features beyond the file's last, too) is read the other way than model m (with ensemble e, of which the first k
// trees are used; k < 0 means all) takes them, at some split on a feature
// d leaves out (Dataset.LeftOutOf) that sends a missing value the other
// way than 0: read as 0 (the default) for a model
// imported from XGBoost, which takes them as missing; read as missing
// (--absent missing) for a model trained by cronus or imported from
// RankLib, which were trained reading them as 0 and learnt no direction
// for a missing value. "" when the reading makes no difference.
func (m *Model) AbsentWarning(e *Ensemble, k int, d *data.Dataset) string {
	if m == nil {
		return ""
	}
	absent := d.LeftOut()
	if absent == 0 {
		return ""
	}
	// Whether the model takes a left-out value as missing, as XGBoost
	// does. LightGBM reads one as 0 in a sparse file but may have been
	// trained on NaNs: neither reading is warned of.
	var missing bool
	switch m.Source {
	case "xgboost":
		missing = true
	case "cronus", "ranklib":
	default:
		return ""
	}
	if d.AbsentMissing == missing {
		return ""
	}
	// Only the splits on a feature the file leaves out somewhere: a file
	// whose left-out values are all of features the model never reads
	// (a stray index past them) scores alike either way.
	differ, total := e.MissingSplitsOf(k, func(f int) bool { return d.LeftOutOf(f) > 0 })
	if differ == 0 {
		return ""
	}
	if d.AbsentMissing {
		by := map[string]string{"cronus": "was trained by cronus", "ranklib": "comes from RankLib"}[m.Source]
		return fmt.Sprintf("%s leaves %d feature values out of its lines, which --absent missing reads as missing; "+
			"this model %s, reading them as 0, and sends a missing value the other way than 0 at %d of its %d splits, "+
			"so its scores are not what it was trained to give: leave out --absent missing",
			d.Name, absent, by, differ, total)
	}
	return fmt.Sprintf("%s leaves %d feature values out of its lines, which cronus reads as 0 and XGBoost as missing; "+
		"this XGBoost model sends a missing value the other way than 0 at %d of its %d splits, "+
		"so its scores may differ from XGBoost's on this file; --absent missing reads them as XGBoost does",
		d.Name, absent, differ, total)
}
