package tree

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cronus-ltr/cronus/data"
)

// lgbZero is LightGBM's kZeroThreshold, the C++ float 1e-35f: with missing
// type Zero, values in [-lgbZero, lgbZero] count as missing.
var lgbZero = float64(float32(1e-35))

// lgbParams are the training parameters copied from a LightGBM model's
// parameters section into the provenance map.
var lgbParams = []string{
	"boosting", "num_iterations", "learning_rate", "num_leaves", "max_depth",
	"min_data_in_leaf", "min_sum_hessian_in_leaf", "lambda_l1", "lambda_l2",
	"bagging_fraction", "bagging_freq", "feature_fraction", "drop_rate",
	"max_drop", "skip_drop", "seed",
}

// ImportLightGBM reads a LightGBM text model (model.txt, as written by the
// CLI or Booster.save_model) and returns the ensemble with its provenance
// (format version, objective, number of trees, training parameters) for
// Model.Params. name is used in error messages.
//
// LightGBM's column j is cronus feature j (1-based), which is what LightGBM
// makes of an SVMlight file: column 0 stays empty. A model whose column 0
// holds data was trained on 0-based columns and is refused rather than
// silently shifted; import it with ImportLightGBMWith and
// ImportOptions.ZeroBased, which makes column j feature j+1.
//
// The decision rules are reproduced exactly for float32 feature values:
// LightGBM goes left when value <= threshold, with a float64 threshold t;
// for a float32 x that is x <= the largest float32 not above t. The missing
// type of each split decides where NaN goes: None compares NaN as 0, NaN
// follows the default-left bit; Zero (values within ±1e-35 and NaN follow the
// default-left bit) is accepted when the values it sends left are still
// those up to some float32 (the threshold moves to the band's edge where the
// band decides), and refused otherwise. Leaf values already include
// shrinkage (and DART's tree weights); the base score is 0, LightGBM folds
// its initial score into the first tree. Random-forest models
// (average_output) get their leaves divided by the number of trees.
// Categorical splits, linear trees and multiclass models are refused.
func ImportLightGBM(r io.Reader, name string) (*Ensemble, map[string]any, error) {
	return ImportLightGBMWith(r, name, ImportOptions{})
}

// ImportLightGBMWith is ImportLightGBM with options (ZeroBased, ByName).
func ImportLightGBMWith(r io.Reader, name string, opt ImportOptions) (*Ensemble, map[string]any, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	// Without the final newline, the last element is the file's last line
	// (what a message about the end of the file names), not an empty one.
	p := &lgbParser{name: name, zeroBased: opt.ZeroBased, byName: opt.ByName, lines: strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")}
	for i, l := range p.lines {
		p.lines[i] = strings.TrimRight(l, "\r")
	}
	return p.parse()
}

type lgbParser struct {
	name      string
	zeroBased bool    // column j is feature j+1 (ImportOptions.ZeroBased)
	byName    bool    // column j is the feature its name says (ImportOptions.ByName)
	col       []int32 // column j is Feature col[j] (0-based), -1 for none; set by checkHeader
	lines     []string
}

// lgbField is a key=value line and its 1-based line number.
type lgbField struct {
	line int
	val  string
}

func (p *lgbParser) errorf(line int, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", p.name, line, fmt.Sprintf(format, args...))
}

// block reads the key=value lines of a tree from line index i until a blank
// line, a "Tree=" line or "end of trees", and returns them with the next
// index.
func (p *lgbParser) block(i int) (map[string]lgbField, int) {
	kv := map[string]lgbField{}
	for ; i < len(p.lines); i++ {
		l := p.lines[i]
		if l == "" || strings.HasPrefix(l, "Tree=") || l == "end of trees" {
			break
		}
		k, v, _ := strings.Cut(l, "=")
		kv[k] = lgbField{i + 1, v}
	}
	return kv, i
}

func (p *lgbParser) parse() (*Ensemble, map[string]any, error) {
	if len(p.lines) == 0 || strings.TrimSpace(p.lines[0]) != "tree" {
		first := ""
		if len(p.lines) > 0 {
			first = short(p.lines[0])
		}
		return nil, nil, p.errorf(1, "not a LightGBM text model (first line %q, want \"tree\")", first)
	}
	for i, l := range p.lines {
		if !utf8.ValidString(l) {
			return nil, nil, p.errorf(i+1, "not valid UTF-8 (a LightGBM text model is ASCII)")
		}
	}
	// The header runs up to the first tree.
	head := map[string]lgbField{}
	i := 1
	for ; i < len(p.lines) && !strings.HasPrefix(p.lines[i], "Tree=") && p.lines[i] != "end of trees"; i++ {
		if l := p.lines[i]; l != "" {
			k, v, _ := strings.Cut(l, "=")
			head[k] = lgbField{i + 1, v}
		}
	}
	numFeatures, err := p.checkHeader(head, i)
	if err != nil {
		return nil, nil, err
	}

	e := &Ensemble{NumFeatures: numFeatures}
	if f, ok := head["objective"]; ok {
		e.Objective, _, _ = strings.Cut(f.val, " ")
	}
	ended := false
	for i < len(p.lines) && !ended {
		l := p.lines[i]
		switch {
		case l == "":
			i++
		case l == "end of trees":
			ended = true
			i++
		case strings.HasPrefix(l, "Tree="):
			k, err := strconv.Atoi(strings.TrimPrefix(l, "Tree="))
			if err != nil || k != len(e.Trees) {
				return nil, nil, p.errorf(i+1, "%q: want Tree=%d", l, len(e.Trees))
			}
			start := i + 1
			var kv map[string]lgbField
			kv, i = p.block(i + 1)
			t, err := p.tree(k, start, kv, numFeatures)
			if err != nil {
				return nil, nil, err
			}
			e.Trees = append(e.Trees, t)
		default:
			return nil, nil, p.errorf(i+1, "unexpected line %q between trees", l)
		}
	}
	if !ended {
		trees := fmt.Sprintf("%d trees", len(e.Trees))
		if len(e.Trees) == 1 {
			trees = "1 tree"
		}
		return nil, nil, p.errorf(len(p.lines), "unexpected end of file after %s, no \"end of trees\" line (truncated?)", trees)
	}
	if len(e.Trees) == 0 {
		return nil, nil, p.errorf(i, "the model has no trees")
	}
	e.keepCompleteStats()
	if f, ok := head["tree_sizes"]; ok && len(strings.Fields(f.val)) != len(e.Trees) {
		return nil, nil, p.errorf(f.line, "tree_sizes lists %d trees, the file has %d (truncated?)", len(strings.Fields(f.val)), len(e.Trees))
	}
	if _, ok := head["average_output"]; ok && len(e.Trees) > 0 {
		// Random forest: LightGBM divides the sum by the number of trees.
		n := float64(len(e.Trees))
		for _, t := range e.Trees {
			for j := range t.Leaves {
				t.Leaves[j] /= n
			}
		}
	}

	prov := map[string]any{
		"source": "lightgbm",
		"file":   filepath.Base(p.name),
		"trees":  len(e.Trees),
	}
	if f, ok := head["version"]; ok {
		prov["format_version"] = f.val
	}
	if f, ok := head["objective"]; ok {
		prov["objective"] = f.val
	}
	if f, ok := head["feature_names"]; ok && numberedFeatureNames(strings.Fields(f.val)) {
		prov["feature_names"] = strings.Fields(f.val)
	}
	if _, ok := head["average_output"]; ok {
		prov["average_output"] = true
	}
	if p.byName {
		// As the XGBoost importer records it: export notes that the
		// model goes out with its features by position, not by name.
		prov["feature_indices"] = "names"
	}
	params := p.parameters(i)
	for _, k := range lgbParams {
		if strings.HasSuffix(k, "_drop") || k == "drop_rate" {
			if params["boosting"] != "dart" {
				continue // LightGBM lists DART's parameters for every model
			}
		}
		if v, ok := params[k]; ok {
			if x, err := strconv.ParseFloat(v, 64); err == nil {
				prov[k] = x
			} else {
				prov[k] = v
			}
		}
	}
	return e, prov, nil
}

// checkHeader refuses what the importer cannot represent and returns the
// number of (1-based) features. The header is lines 1 to end; the file
// ends there when end is its number of lines.
func (p *lgbParser) checkHeader(head map[string]lgbField, end int) (int, error) {
	for _, k := range []string{"num_class", "num_tree_per_iteration"} {
		if f, ok := head[k]; ok {
			n, err := strconv.Atoi(f.val)
			if err != nil {
				return 0, p.errorf(f.line, "%s=%q is not an integer", k, f.val)
			}
			if n < 1 {
				// LightGBM writes 1 for a model of one output.
				return 0, p.errorf(f.line, "%s=%d: want at least 1 (LightGBM writes %s=1 for a model of one output)", k, n, k)
			}
			if n > 1 {
				return 0, p.errorf(f.line, "multiclass models are not supported (%s=%d)", k, n)
			}
		}
	}
	if f, ok := head["objective"]; ok && strings.HasPrefix(f.val, "multiclass") {
		return 0, p.errorf(f.line, "multiclass models are not supported (objective %s)", f.val)
	}
	f, ok := head["max_feature_idx"]
	switch {
	case !ok && end == len(p.lines):
		return 0, p.errorf(end, "the file ends after line %d, in the header: no max_feature_idx= line and no trees (truncated?)", end)
	case !ok:
		return 0, p.errorf(end+1, "%q ends the header (%s), which has no max_feature_idx= line", p.lines[end], data.LineRange(1, end))
	}
	idx, ok := parseCount(f.val)
	if !ok {
		return 0, p.errorf(f.line, "max_feature_idx=%q is not a non-negative integer", f.val)
	}
	if idx > maxFeatures {
		return 0, p.errorf(f.line, "max_feature_idx=%s: cronus reads data with feature indices up to %d", f.val, maxFeatures)
	}
	maxIdx := int(idx)
	// p.col: column j is Feature col[j] (0-based), -1 for no feature.
	switch {
	case p.byName:
		fn, ok := head["feature_names"]
		if !ok {
			return 0, p.errorf(end, "--by-name: the header (%s) has no feature_names= line", data.LineRange(1, end))
		}
		names, line := strings.Fields(fn.val), fn.line
		if len(names) != maxIdx+1 {
			return 0, p.errorf(line, "--by-name: the model has %d feature names for its %d columns", len(names), maxIdx+1)
		}
		col, features, err := namedColumns(names, func(j int) string { return fmt.Sprintf("column %d", j) })
		if err != nil {
			return 0, p.errorf(line, "%v", err)
		}
		p.col = col
		return features, nil
	case p.zeroBased:
		if maxIdx+1 > maxFeatures {
			return 0, p.errorf(f.line, "max_feature_idx=%d: with 0-based columns that is feature %d, and cronus reads data with feature indices up to %d", maxIdx, maxIdx+1, maxFeatures)
		}
		p.col = shiftedColumns(maxIdx+1, 0)
		return maxIdx + 1, nil
	}
	p.col = shiftedColumns(maxIdx+1, 1)
	if fi, ok := head["feature_infos"]; ok {
		if infos := strings.Fields(fi.val); len(infos) > 0 && infos[0] != "none" {
			// A frame of selected features named by their numbers has
			// data in column 0 too, and --zero-based would misplace them.
			byName := ""
			if fn, ok := head["feature_names"]; ok {
				if names := strings.Fields(fn.val); numberedFeatureNames(names) && !namedFrom(names, 0) && !namedFrom(names, 1) {
					byName = fmt.Sprintf("; its columns are named by numbers, column 0 %q: if those are the features' numbers (a frame of selected features), import it with --by-name instead", names[0])
				}
			}
			return 0, p.errorf(fi.line, "LightGBM column 0 holds data (%s), so the model was trained on 0-based feature columns (a matrix, as from numpy, pandas or scikit-learn's load_svmlight_file), whose column j is feature j+1: import it with --zero-based (without it, column j is feature j, as when LightGBM reads the SVMlight file itself and leaves column 0 empty)%s", infos[0], byName)
		}
	}
	return maxIdx, nil
}

// namedFrom reports whether names are first, first+1, ... in order (a
// frame's default column names, or names that are the 0-based columns'
// features).
func namedFrom(names []string, first int) bool {
	for j, n := range names {
		if n != strconv.Itoa(j+first) {
			return false
		}
	}
	return true
}

// parameters reads the "[key: value]" lines of the parameters section that
// follows "end of trees" (from line index i on); the section is optional.
func (p *lgbParser) parameters(i int) map[string]string {
	params := map[string]string{}
	for ; i < len(p.lines); i++ {
		l := p.lines[i]
		if l == "end of parameters" {
			break
		}
		if strings.HasPrefix(l, "[") && strings.HasSuffix(l, "]") {
			k, v, ok := strings.Cut(l[1:len(l)-1], ": ")
			if ok {
				params[k] = v
			}
		}
	}
	return params
}

// tree converts tree k, whose "Tree=k" line is start and whose key=value
// lines are kv. A missing key is reported on the Tree= line; every other
// error on the line of the key at fault.
func (p *lgbParser) tree(k, start int, kv map[string]lgbField, numFeatures int) (Tree, error) {
	get := func(key string) (lgbField, error) {
		f, ok := kv[key]
		if !ok {
			return f, p.errorf(start, "tree %d: no %s= line", k, key)
		}
		return f, nil
	}
	f, err := get("num_leaves")
	if err != nil {
		return Tree{}, err
	}
	numLeaves, err := strconv.Atoi(f.val)
	if err != nil || numLeaves < 1 {
		return Tree{}, p.errorf(f.line, "tree %d: num_leaves=%q is not a positive integer", k, f.val)
	}
	// A value that is not a count (num_cat=x) was named an unsupported
	// categorical or linear tree.
	for _, key := range []string{"num_cat", "is_linear"} {
		if f, ok := kv[key]; ok {
			if n, err := strconv.Atoi(f.val); err != nil || n < 0 || f.val != strconv.Itoa(n) {
				return Tree{}, p.errorf(f.line, "tree %d: %s=%q is not a non-negative integer", k, key, f.val)
			}
		}
	}
	if f, ok := kv["num_cat"]; ok && f.val != "0" {
		// LightGBM writes num_cat >= 1 in every tree with a categorical
		// split: name the first one's column, so that it can be trained as
		// numeric (the message named only num_cat).
		if j, c, ok := lgbFirstCategorical(kv); ok {
			return Tree{}, p.errorf(kv["decision_type"].line, "tree %d: node %d: categorical splits (on column %s) are not supported", k, j, c)
		}
		return Tree{}, p.errorf(f.line, "tree %d: categorical splits are not supported (num_cat=%s)", k, f.val)
	}
	if f, ok := kv["is_linear"]; ok && f.val != "0" {
		return Tree{}, p.errorf(f.line, "tree %d: linear trees are not supported (is_linear=%s)", k, f.val)
	}
	if f, ok := kv["leaf_coeff"]; ok {
		return Tree{}, p.errorf(f.line, "tree %d: linear trees are not supported (leaf_coeff)", k)
	}
	var t Tree
	leaves, err := p.floats(k, kv, "leaf_value", numLeaves, start)
	if err != nil {
		return Tree{}, err
	}
	// Checked here rather than left to Validate, whose errors are reported
	// on the left_child line, and which a single-leaf tree skips.
	for j, v := range leaves {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return Tree{}, p.errorf(kv["leaf_value"].line, "tree %d: leaf %d: leaf_value %q is not finite", k, j, strings.Fields(kv["leaf_value"].val)[j])
		}
	}
	t.Leaves = leaves
	// LightGBM's leaf_weight is the hessian sum, as internal_weight (Cover)
	// is; its own SHAP values weigh by leaf_count and internal_count. Set
	// after Validate, as Gain and Cover: keepCompleteStats drops what is
	// malformed (a negative hessian sum from a custom objective), where
	// Validate refused the model.
	leafCover := lgbStats(kv["leaf_weight"].val, numLeaves)
	n := numLeaves - 1
	if n == 0 {
		t.LeafCover = leafCover
		return t, nil
	}
	splits, err := p.ints(k, kv, "split_feature", n, start)
	if err != nil {
		return Tree{}, err
	}
	thresholds, err := p.floats(k, kv, "threshold", n, start)
	if err != nil {
		return Tree{}, err
	}
	decisions, err := p.ints(k, kv, "decision_type", n, start)
	if err != nil {
		return Tree{}, err
	}
	left, err := p.ints(k, kv, "left_child", n, start)
	if err != nil {
		return Tree{}, err
	}
	right, err := p.ints(k, kv, "right_child", n, start)
	if err != nil {
		return Tree{}, err
	}
	t.Nodes = make([]Node, n)
	at := func(key string) int { return kv[key].line }
	for j := range n {
		nd := &t.Nodes[j]
		switch c := splits[j]; {
		case c < 0 || c >= len(p.col):
			return Tree{}, p.errorf(at("split_feature"), "tree %d: node %d splits on column %d; max_feature_idx is %d", k, j, c, len(p.col)-1)
		case p.col[c] < 0:
			return Tree{}, p.errorf(at("split_feature"), "tree %d: node %d splits on LightGBM column 0, which is no cronus feature (features are numbered from 1; a model of 0-based columns imports with --zero-based)", k, j)
		default:
			nd.Feature = p.col[c]
		}
		thr := thresholds[j]
		if math.IsNaN(thr) {
			return Tree{}, p.errorf(at("threshold"), "tree %d: node %d has a NaN threshold", k, j)
		}
		nd.Threshold = float32AtMost(thr)
		switch {
		case math.IsInf(float64(nd.Threshold), 1):
			// x <= +Inf and x <= MaxFloat32 agree for every finite x.
			nd.Threshold = math.MaxFloat32
		case math.IsInf(float64(nd.Threshold), -1):
			// No finite threshold sends every finite value right (and a
			// model file cannot hold -Inf), as for XGBoost's -Infinity.
			return Tree{}, p.errorf(at("threshold"), "tree %d: node %d: threshold %g is below every float32 (no value goes left), which cronus cannot represent", k, j, thr)
		}
		d := decisions[j]
		if d&1 != 0 {
			return Tree{}, p.errorf(at("decision_type"), "tree %d: node %d: categorical splits (on column %d) are not supported", k, j, splits[j])
		}
		defaultLeft := d&2 != 0
		switch missing := (d >> 2) & 3; missing {
		case 0: // None: NaN is compared as 0.
			nd.DefaultLeft = 0 <= thr
		case 2: // NaN: NaN follows the default direction.
			nd.DefaultLeft = defaultLeft
		case 1: // Zero: |x| <= lgbZero and NaN follow the default direction.
			t, ok := zeroMissingThreshold(nd.Threshold, defaultLeft)
			if !ok {
				return Tree{}, p.errorf(at("decision_type"), "tree %d: node %d: missing type Zero (zero_as_missing) with threshold %g: values within ±1e-35 of zero go %s, those between them and the threshold the other way, which no cronus threshold can express", k, j, thr, direction(defaultLeft))
			}
			nd.Threshold, nd.DefaultLeft = t, defaultLeft
		default:
			return Tree{}, p.errorf(at("decision_type"), "tree %d: node %d: unknown missing type %d in decision_type %d", k, j, missing, d)
		}
		for _, c := range []struct {
			name string
			dst  *int32
			v    int
		}{{"left_child", &nd.Left, left[j]}, {"right_child", &nd.Right, right[j]}} {
			if c.v >= n || c.v < -numLeaves {
				return Tree{}, p.errorf(at(c.name), "tree %d: node %d: child %d out of range", k, j, c.v)
			}
			*c.dst = int32(c.v)
		}
	}
	// What Validate can still find is the shape the children give the tree.
	if err := t.Validate(numFeatures); err != nil {
		return Tree{}, p.errorf(kv["left_child"].line, "tree %d: %v", k, err)
	}
	t.Gain, t.Cover = lgbStats(kv["split_gain"].val, n), lgbStats(kv["internal_weight"].val, n)
	t.LeafCover = leafCover
	return t, nil
}

// lgbFirstCategorical returns the first node of a tree's decision_type
// with the categorical bit, and its split_feature column as written; false
// when there is none, or split_feature does not name its column.
func lgbFirstCategorical(kv map[string]lgbField) (int, string, bool) {
	splits := strings.Fields(kv["split_feature"].val)
	for j, d := range strings.Fields(kv["decision_type"].val) {
		if x, err := strconv.ParseInt(d, 10, 32); err == nil && x&1 != 0 && j < len(splits) {
			return j, splits[j], true
		}
	}
	return 0, "", false
}

// lgbStats parses a tree's split_gain, internal_weight or leaf_weight
// line, which only feature importance and contributions use, as n float32s, what is no number as NaN
// (keepCompleteStats drops what is malformed); nil when the line is absent
// or does not have n values.
func lgbStats(line string, n int) []float32 {
	fs := strings.Fields(line)
	if len(fs) != n {
		return nil
	}
	out := make([]float32, n)
	for j, f := range fs {
		v, err := strconv.ParseFloat(f, 32)
		if err != nil {
			v = math.NaN()
		}
		out[j] = float32(v)
	}
	return out
}

// zeroMissingThreshold returns the threshold of a split of missing type
// Zero whose plain rule sends a float32 x left when x <= a (a is
// float32AtMost of LightGBM's threshold) and which sends the zero band
// [-lgbZero, lgbZero] left when defaultLeft, right otherwise: the t that
// sends the same values left, false when those values are no (-Inf, t], as
// when the band goes right with values on both sides of it going left.
func zeroMissingThreshold(a float32, defaultLeft bool) (float32, bool) {
	z := float32(lgbZero)
	below := math.Nextafter32(-z, float32(math.Inf(-1))) // the largest float32 under the band
	if defaultLeft {
		// (-Inf, a] and the band: one interval unless a float32 lies
		// between a and the band.
		return max(a, z), a >= below
	}
	if a < -z {
		return a, true // the band is above a: the plain rule
	}
	// (-Inf, a] without the band: values under it, and those in (z, a].
	return below, a <= z
}

func direction(left bool) string {
	if left {
		return "left"
	}
	return "right"
}

// fields returns the want space-separated values of key and its line; start
// is the line of the tree's "Tree=" line, where a missing key is reported.
func (p *lgbParser) fields(k int, kv map[string]lgbField, key string, want, start int) ([]string, int, error) {
	f, ok := kv[key]
	if !ok {
		return nil, start, p.errorf(start, "tree %d: no %s= line", k, key)
	}
	vs := strings.Fields(f.val)
	if len(vs) != want {
		return nil, f.line, p.errorf(f.line, "tree %d: %s has %d values, want %d", k, key, len(vs), want)
	}
	return vs, f.line, nil
}

func (p *lgbParser) ints(k int, kv map[string]lgbField, key string, want, start int) ([]int, error) {
	vs, line, err := p.fields(k, kv, key, want, start)
	if err != nil {
		return nil, err
	}
	xs := make([]int, len(vs))
	for j, v := range vs {
		x, err := strconv.ParseInt(v, 10, 32)
		if err != nil {
			return nil, p.errorf(line, "tree %d: %s: %q is not an integer", k, key, v)
		}
		xs[j] = int(x)
	}
	return xs, nil
}

func (p *lgbParser) floats(k int, kv map[string]lgbField, key string, want, start int) ([]float64, error) {
	vs, line, err := p.fields(k, kv, key, want, start)
	if err != nil {
		return nil, err
	}
	xs := make([]float64, len(vs))
	for j, v := range vs {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return nil, p.errorf(line, "tree %d: %s: %q is not a number", k, key, v)
		}
		xs[j] = x
	}
	return xs, nil
}

// float32AtMost returns the largest float32 not greater than t, so that for
// every float32 x, x <= t exactly when x <= float32AtMost(t).
func float32AtMost(t float64) float32 {
	f := float32(t)
	if float64(f) > t {
		f = math.Nextafter32(f, float32(math.Inf(-1)))
	}
	return f
}

// ImportFile imports the model file at path; from is "lightgbm" (a text
// model), "xgboost" (a JSON or UBJSON model) or "ranklib" (a tree-ensemble
// text model), plain or gzip-compressed.
func ImportFile(from, path string) (*Ensemble, map[string]any, error) {
	return ImportFileWith(from, path, ImportOptions{})
}

// ImportFileWith is ImportFile with the options for an XGBoost or LightGBM
// model (a RankLib model takes none).
func ImportFileWith(from, path string, opt ImportOptions) (*Ensemble, map[string]any, error) {
	var imp func(io.Reader, string, ImportOptions) (*Ensemble, map[string]any, error)
	switch from {
	case "lightgbm":
		imp = ImportLightGBMWith
	case "xgboost":
		imp = ImportXGBoostWith
	case "ranklib":
		imp = func(r io.Reader, name string, _ ImportOptions) (*Ensemble, map[string]any, error) {
			return ImportRankLib(r, name)
		}
	default:
		return nil, nil, fmt.Errorf("unknown model library %q (want lightgbm, xgboost or ranklib)", from)
	}
	b, err := data.ReadWholeAs(path, importKinds[from], func(head []byte) error {
		_, _, err := importBytes(from, path, head, imp, opt)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return importBytes(from, path, b, imp, opt)
}

// importBytes is ImportFileWith on the contents b of the file path, read
// already, with the importer imp of from.
func importBytes(from, path string, b []byte, imp func(io.Reader, string, ImportOptions) (*Ensemble, map[string]any, error), opt ImportOptions) (*Ensemble, map[string]any, error) {
	if err := notCronusFile(b); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	// UTF-16 is named, as model and data files name it: the importers
	// quoted the first line's bytes ("\xff\xfe#\x00#\x00 \x00L\x00…"), and
	// the XGBoost one asked whether it was XGBoost's binary format. So is
	// an empty file, which the XGBoost one called "1:1: empty file".
	if err := KindError(b, importKinds[from], importTexts[from]); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	e, params, err := imp(bytes.NewReader(b), path, opt)
	if err != nil {
		// XGBoost's old binary format, which --from xgboost refuses too:
		// the other importers quoted its first bytes.
		if from != "xgboost" && bytes.HasPrefix(b, []byte("binf")) {
			return nil, nil, fmt.Errorf("%w; it looks like an XGBoost model in its old binary format: "+
				`save it with Booster.save_model("m.json") and import that with --from xgboost`, err)
		}
		if other := sniffModelFormat(b); other != "" && other != from {
			if other == "xgboost" && isXGBoostConfig(b) {
				return nil, nil, fmt.Errorf("%w; it looks like %s", err, xgbConfigAdvice)
			}
			kind := importKinds[other]
			if isUBJSON(b) {
				kind = "an XGBoost UBJSON model"
			}
			return nil, nil, fmt.Errorf("%w; it looks like %s: import it with --from %s", err, kind, other)
		}
		return nil, nil, err
	}
	if err := e.checkSum(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return e, params, nil
}

// importKinds names the model files of each --from.
var importKinds = map[string]string{
	"lightgbm": "a LightGBM text model",
	"xgboost":  "an XGBoost JSON model",
	"ranklib":  "a RankLib model",
}

// importTexts says what each --from expects the file's text to be.
var importTexts = map[string]string{
	"lightgbm": "LightGBM's model.txt",
	"xgboost":  "JSON",
	"ranklib":  "RankLib's model text",
}

// ForeignModel names the other library's model b looks like, with the way
// to convert it ("an XGBoost JSON model: convert it with cronus import
// --from xgboost"), or "" when it looks like none: for a reader of another
// kind of file (a cascade file) to say what it was given.
func ForeignModel(b []byte) string {
	if from := sniffModelFormat(b); from != "" {
		return importKinds[from] + ": convert it with cronus import --from " + from
	}
	return ""
}

// sniffModelFormat tells which library's model b looks like, by its
// start: "xgboost" for a JSON or UBJSON object with a "learner", "lightgbm" for a
// first line "tree", "ranklib" for a first line "## " and a tree ranker
// the RankLib importer reads; "" when none.
func sniffModelFormat(b []byte) string {
	b = bytes.TrimLeft(bytes.TrimPrefix(b, []byte("\ufeff")), " \t\r\n")
	first, _, _ := bytes.Cut(b, []byte("\n"))
	first = bytes.TrimSpace(first)
	ranker, isRankLib := strings.CutPrefix(string(first), "##")
	switch {
	case len(b) > 0 && b[0] == '{' && bytes.Contains(b[:min(len(b), 4096)], []byte(`"learner"`)),
		isUBJSON(b) && bytes.Contains(b[:min(len(b), 4096)], []byte("learner")):
		return "xgboost"
	case string(first) == "tree":
		return "lightgbm"
	case isRankLib && rlTreeRankers[strings.ToUpper(strings.TrimSpace(ranker))] != "":
		return "ranklib"
	}
	return ""
}

// notCronusFile refuses a Cronus model or cascade given to import, which
// would otherwise be read as the other library's format and refused in its
// terms ("version: expected an array of integers").
func notCronusFile(b []byte) error {
	var head struct {
		Format any `json:"format"`
	}
	if json.Unmarshal(b, &head) != nil {
		return nil
	}
	switch head.Format {
	case ModelFormat:
		return fmt.Errorf("a Cronus model (format %q), not one to import: give it to --model as it is", ModelFormat)
	case CascadeFormat:
		return fmt.Errorf("a Cronus cascade (format %q), not a model to import: give it to --cascade (cronus predict, eval) as it is", CascadeFormat)
	}
	return nil
}

// parseCount reads a non-negative decimal integer such as a model's
// number of features; one past int64 reads as math.MaxInt64, so that it is
// refused as too large rather than as no integer (a 32-bit int's Atoi
// refused 99999999999 as no integer).
func parseCount(s string) (int64, bool) {
	n, err := strconv.ParseInt(s, 10, 64)
	if errors.Is(err, strconv.ErrRange) && n > 0 {
		return n, true
	}
	return n, err == nil && n >= 0
}
