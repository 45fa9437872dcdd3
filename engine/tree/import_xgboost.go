package tree

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// ImportXGBoost reads an XGBoost JSON model (Booster.save_model("m.json");
// tested with XGBoost 1.7, whose layout later versions keep) and returns the ensemble with its provenance
// (XGBoost version, objective, booster, number of trees, base_score) for
// Model.Params. name is used in error messages.
//
// XGBoost's feature f{k} is cronus feature k+1, which is what a model trained
// on scikit-learn's SVMlight reader (or any 0-based matrix of the data) uses.
// A model trained on XGBoost's own libsvm reader keeps the file's indices:
// import it with ImportXGBoostWith and ImportOptions.LibSVMIndices, which
// makes f{k} feature k.
//
// XGBoost goes left when value < split_condition, a float32 c; for a finite
// float32 x that is x <= the float32 just below c, which becomes the
// threshold. NaN follows default_left. Leaf values (in split_conditions)
// already include the learning rate. The base score is base_score turned
// into a margin the way the objective does it: logit(base_score) for
// binary:logistic and reg:logistic; log(base_score) for count:poisson,
// reg:gamma, reg:tweedie, survival:cox and survival:aft; base_score itself
// for the others (reg:squarederror, binary:logitraw, rank:*, and XGBoost
// 2 and 3's reg:quantileerror and reg:expectileerror of one alpha), so that
// base plus the trees' sum is XGBoost's output_margin prediction. DART
// models have each tree's leaves multiplied by its weight_drop. Linear
// boosters, categorical splits, multiclass and multi-target models are
// refused. The bare NaN, Infinity and -Infinity that XGBoost writes for
// non-finite floats are read: NaN is the split condition of a categorical
// split, and a non-finite leaf value is refused by name.
func ImportXGBoost(r io.Reader, name string) (*Ensemble, map[string]any, error) {
	return ImportXGBoostWith(r, name, ImportOptions{})
}

// ImportOptions are the choices the importers leave to the caller: how the
// library's feature columns map to cronus features, where the model file
// cannot tell.
type ImportOptions struct {
	// LibSVMIndices (XGBoost): the model was trained on XGBoost's own
	// libsvm reader (DMatrix("train.txt?format=libsvm")), whose column k
	// is the file's feature k, so f{k} is cronus feature k; a split on f0
	// is refused.
	LibSVMIndices bool
	// ByName (XGBoost, LightGBM): the model's feature names are the
	// features' numbers (a frame of selected features named "3", "7",
	// "12"), so each column is the feature its name says; every name
	// must be one.
	ByName bool
	// ZeroBased (LightGBM): the model was trained on 0-based columns (a
	// matrix, as from numpy, pandas or scikit-learn's load_svmlight_file),
	// so column j is cronus feature j+1.
	ZeroBased bool
}

// isXGBoostDump tells whether b (trimmed) looks like XGBoost's dump of
// its trees: dump_model's text ("booster[0]:" then "0:[f3<0.5] ..."),
// get_dump's text ("0:[f3<0.5] ..."), or the JSON of either (an array of
// trees, each node with a "nodeid").
func isXGBoostDump(b []byte) bool {
	switch {
	case bytes.HasPrefix(b, []byte("booster[")), bytes.HasPrefix(b, []byte("0:[")), bytes.HasPrefix(b, []byte("0:leaf=")):
		return true
	case b[0] == '[':
		head := b[:min(len(b), 200)]
		return bytes.Contains(head, []byte(`"nodeid"`))
	}
	return false
}

// isXGBoostConfig reports whether b is XGBoost's configuration
// (Booster.save_config, JSON text): a "learner" with "learner_train_param"
// and no trees, as the importer refuses it. A model file never holds
// learner_train_param; other files, and JSON that does not decode, are not
// one.
func isXGBoostConfig(b []byte) bool {
	b = bytes.TrimPrefix(bytes.TrimSpace(b), []byte("\ufeff"))
	if len(b) == 0 || b[0] != '{' || !bytes.Contains(b, []byte(`"learner_train_param"`)) {
		return false
	}
	var f struct {
		Learner *struct {
			GradientBooster *struct {
				Name   string          `json:"name"`
				Model  json.RawMessage `json:"model"`
				GBTree *struct {
					Model json.RawMessage `json:"model"`
				} `json:"gbtree"`
			} `json:"gradient_booster"`
			TrainParam json.RawMessage `json:"learner_train_param"`
		} `json:"learner"`
	}
	if json.Unmarshal(b, &f) != nil || f.Learner == nil || f.Learner.TrainParam == nil || f.Learner.GradientBooster == nil {
		return false
	}
	gb := f.Learner.GradientBooster
	return gb.Model == nil && (gb.GBTree == nil || gb.GBTree.Model == nil) && gb.Name != "gblinear"
}

// xgbConfigAdvice is what to do with XGBoost's configuration given in a
// model's place (isXGBoostConfig).
const xgbConfigAdvice = `XGBoost's configuration (Booster.save_config), which holds no trees: ` +
	`save the model with Booster.save_model("m.json") and convert that with cronus import --from xgboost`

// ImportXGBoostWith is ImportXGBoost with options.
func ImportXGBoostWith(r io.Reader, name string, opt ImportOptions) (*Ensemble, map[string]any, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	// Text that merely starts as UBJSON could ('{l' of a key without its
	// quotes) is JSON with a syntax error, and is told so.
	if isUBJSON(data) {
		if text, err := ubjsonToJSON(data); err == nil || bytes.IndexByte(data, 0) >= 0 {
			return importXGBoostUBJSON(text, err, name, opt)
		}
	}
	if b := bytes.TrimSpace(data); len(b) > 0 && b[0] != '{' {
		if bytes.HasPrefix(b, []byte("binf")) || bytes.IndexByte(b, 0) >= 0 {
			return nil, nil, fmt.Errorf("%s: not an XGBoost JSON model (it does not start with '{'; XGBoost's binary format?): save the model under a name ending in .json", name)
		}
		if isXGBoostDump(b) {
			return nil, nil, fmt.Errorf("%s: not an XGBoost JSON model but a dump of its trees (Booster.dump_model or get_dump), "+
				"which leaves out the base score and the objective: save the model with Booster.save_model(\"m.json\")", name)
		}
		return nil, nil, fmt.Errorf("%s: not an XGBoost JSON model (it does not start with '{')", name)
	}
	quoted, ins := quoteNonFinite(data)
	e, prov, err := importXGBoost(quoted, opt)
	if err != nil {
		var pe *posError
		if errors.As(err, &pe) {
			if bytes.IndexByte(data, 0) >= 0 {
				return nil, nil, fmt.Errorf("%s: not a JSON or UBJSON model (XGBoost's old binary format?): save the model under a name ending in .json or .ubj", name)
			}
			if len(ins) > 0 {
				unquotePos(pe, data, quoted, ins)
			}
			return nil, nil, fmt.Errorf("%s:%w", name, err)
		}
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	prov["file"] = filepath.Base(name)
	return e, prov, nil
}

// importXGBoostUBJSON imports a model XGBoost saved as UBJSON, given
// converted to JSON text (or the conversion's error): it is read as a JSON
// model is. An error in the model names
// the value by its path in the document, without the line and column of
// the converted text, which are nowhere in the file.
func importXGBoostUBJSON(text []byte, err error, name string, opt ImportOptions) (*Ensemble, map[string]any, error) {
	if err != nil {
		return nil, nil, fmt.Errorf("%s: not a UBJSON document: %w", name, err)
	}
	text, _ = quoteNonFinite(text)
	e, prov, err := importXGBoost(text, opt)
	if err != nil {
		var pe *posError
		if errors.As(err, &pe) {
			return nil, nil, fmt.Errorf("%s: %s", name, pe.msg)
		}
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	prov["file"] = filepath.Base(name)
	return e, prov, nil
}

// xgbNonFinite are the tokens XGBoost's JSON writer uses for non-finite
// floats, which JSON has no numbers for.
var xgbNonFinite = [][]byte{[]byte("NaN"), []byte("Infinity"), []byte("-Infinity")}

// quoteNonFinite returns data with every bare NaN, Infinity and -Infinity
// (outside strings) in quotes, so that encoding/json reads them as strings
// (xgbFloat takes them back), and the offsets in the result of the quotes
// it inserted, ascending. Without such tokens it returns data itself.
func quoteNonFinite(data []byte) ([]byte, []int) {
	var out []byte
	var ins []int
	inString, escaped := false, false
	last := 0 // data[last:] is not yet copied to out
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		if c == '"' {
			inString = true
			continue
		}
		if c != 'N' && c != 'I' && c != '-' {
			continue
		}
		for _, tok := range xgbNonFinite {
			if bytes.HasPrefix(data[i:], tok) {
				out = append(out, data[last:i]...)
				ins = append(ins, len(out))
				out = append(out, '"')
				out = append(out, tok...)
				ins = append(ins, len(out))
				out = append(out, '"')
				i += len(tok) - 1
				last = i + 1
				break
			}
		}
	}
	if ins == nil {
		return data, nil
	}
	return append(out, data[last:]...), ins
}

// unquotePos moves pe, an error at a place in quoted (data as
// quoteNonFinite returned it, with the quotes ins), to the same place in
// data, and names a token it had quoted as it is written there.
func unquotePos(pe *posError, data, quoted []byte, ins []int) {
	lineStart := func(b []byte, line int) int {
		s := 0
		for l := 1; l < line; l++ {
			j := bytes.IndexByte(b[s:], '\n')
			if j < 0 {
				return len(b)
			}
			s += j + 1
		}
		return s
	}
	p := lineStart(quoted, pe.line) + pe.col - 1
	n := 0
	for n < len(ins) && ins[n] < p {
		n++
	}
	p -= n
	pe.col = p - lineStart(data, pe.line) + 1
	for _, tok := range xgbNonFinite {
		if p >= 0 && p <= len(data) && bytes.HasPrefix(data[p:], tok) {
			pe.msg = strings.Replace(pe.msg, "the string \""+string(tok)+"\"", string(tok), 1)
			break
		}
	}
}

// xgbFloat is a float32 of split_conditions: a JSON number, or NaN,
// Infinity or -Infinity as quoteNonFinite leaves them (in quotes).
type xgbFloat float32

func (f *xgbFloat) UnmarshalJSON(data []byte) error {
	switch string(data) {
	case `"NaN"`:
		*f = xgbFloat(math.NaN())
		return nil
	case `"Infinity"`:
		*f = xgbFloat(math.Inf(1))
		return nil
	case `"-Infinity"`:
		*f = xgbFloat(math.Inf(-1))
		return nil
	}
	if len(data) > 0 && (data[0] == '-' || data[0] >= '0' && data[0] <= '9') {
		v, err := strconv.ParseFloat(string(data), 32)
		if err != nil {
			return &valueError{key: "split_conditions", raw: bytes.Clone(data),
				msg: fmt.Sprintf("the number %s is out of range (the largest is %.2g)", data, math.MaxFloat32)}
		}
		*f = xgbFloat(v)
		return nil
	}
	return &valueError{key: "split_conditions", raw: bytes.Clone(data), want: "a number"}
}

// xgbStat reads loss_changes and sum_hessian entries, which only feature
// importance and feature contributions use: what is not a number reads as
// NaN, and a statistic with a NaN is dropped (Tree.Gain, Tree.Cover,
// Tree.LeafCover; keepCompleteStats) rather than the model refused.
type xgbStat float32

func (f *xgbStat) UnmarshalJSON(data []byte) error {
	v, err := strconv.ParseFloat(string(data), 32)
	if err != nil {
		v = math.NaN()
	}
	*f = xgbStat(v)
	return nil
}

type xgbFile struct {
	Version []int       `json:"version"`
	Learner *xgbLearner `json:"learner"`
}

type xgbLearner struct {
	Attributes      map[string]string `json:"attributes"`
	FeatureNames    []string          `json:"feature_names"`
	GradientBooster *xgbBooster       `json:"gradient_booster"`
	ModelParam      struct {
		BaseScore  string `json:"base_score"`
		NumClass   string `json:"num_class"`
		NumFeature string `json:"num_feature"`
		NumTarget  string `json:"num_target"`
	} `json:"learner_model_param"`
	Objective xgbObjective `json:"objective"`
	// TrainParam is in the configuration Booster.save_config writes (and
	// never in a model): a file with it and no trees is a configuration.
	TrainParam json.RawMessage `json:"learner_train_param"`
}

// xgbObjective is the learner's objective: its name, and the parameter
// objects XGBoost saves with it ({"tweedie_regression_param":
// {"tweedie_variance_power": "1.7"}}), each an object of strings.
type xgbObjective struct {
	Name   string
	Params map[string]any // nil without any
}

func (o *xgbObjective) UnmarshalJSON(b []byte) error {
	// A type error of the inner json.Unmarshal calls has an offset within
	// b, not the file, and no field: jsonError then blamed another value
	// of the file (learner.gradient_booster.model.tree_info[0] for a name
	// that was a number). A valueError is looked for under its key.
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return &valueError{key: "objective", raw: bytes.Clone(b), want: "an object"}
	}
	if n, ok := raw["name"]; ok {
		if err := json.Unmarshal(n, &o.Name); err != nil {
			return &valueError{key: "name", raw: bytes.Clone(n), want: "a string"}
		}
	}
	for k, v := range raw {
		var obj map[string]string
		if k == "name" || json.Unmarshal(v, &obj) != nil || len(obj) == 0 {
			continue // not a parameter object: left out
		}
		if o.Params == nil {
			o.Params = map[string]any{}
		}
		m := make(map[string]any, len(obj))
		for pk, pv := range obj {
			m[pk] = pv
		}
		o.Params[k] = m
	}
	return nil
}

// xgbBooster is "gbtree" (Model set), "dart" (GBTree.Model and WeightDrop
// set) or "gblinear".
type xgbBooster struct {
	Name   string     `json:"name"`
	Model  *xgbGBTree `json:"model"`
	GBTree *struct {
		Model *xgbGBTree `json:"model"`
	} `json:"gbtree"`
	WeightDrop []float64 `json:"weight_drop"`
}

type xgbGBTree struct {
	Param struct {
		NumParallelTree string `json:"num_parallel_tree"`
	} `json:"gbtree_model_param"`
	TreeInfo []int     `json:"tree_info"`
	Trees    []xgbTree `json:"trees"`
}

type xgbTree struct {
	Left            []int      `json:"left_children"`
	Right           []int      `json:"right_children"`
	Split           []int      `json:"split_indices"`
	Cond            []xgbFloat `json:"split_conditions"`
	DefaultLeft     []xgbBool  `json:"default_left"`
	SplitType       []int      `json:"split_type"`
	Categories      []int      `json:"categories"`
	CategoriesNodes []int      `json:"categories_nodes"`
	LossChanges     []xgbStat  `json:"loss_changes"`
	SumHessian      []xgbStat  `json:"sum_hessian"`
	Param           struct {
		NumNodes       string `json:"num_nodes"`
		SizeLeafVector string `json:"size_leaf_vector"`
	} `json:"tree_param"`
}

// xgbBool reads default_left entries, 0/1 in XGBoost 1.x and 2.x JSON, and
// also true/false.
type xgbBool bool

func (b *xgbBool) UnmarshalJSON(data []byte) error {
	switch string(data) {
	case "0", "false":
		*b = false
	case "1", "true":
		*b = true
	default:
		return &valueError{key: "default_left", raw: bytes.Clone(data), want: "0 or 1"}
	}
	return nil
}

// xgbLink gives, per objective, how base_score becomes a margin.
var xgbLink = map[string]string{
	"binary:logistic": "logit", "reg:logistic": "logit",
	"count:poisson": "log", "reg:gamma": "log", "reg:tweedie": "log",
	"survival:cox": "log", "survival:aft": "log",
	"reg:squarederror": "identity", "reg:linear": "identity",
	"reg:squaredlogerror": "identity", "reg:pseudohubererror": "identity",
	"reg:absoluteerror": "identity", "binary:hinge": "identity",
	// XGBoost adds base_score itself to binary:logitraw margins.
	"binary:logitraw": "identity",
	"rank:pairwise":   "identity", "rank:ndcg": "identity", "rank:map": "identity",
	// XGBoost 2 and 3: with one quantile_alpha or expectile_alpha the
	// model has one output and base_score is its margin (more alphas are
	// more targets, refused as multi-target).
	"reg:quantileerror": "identity", "reg:expectileerror": "identity",
}

// shiftedColumns maps n columns to the features shift below them: column
// j is Feature j-shift (0-based), and -1, no feature, when that is
// negative.
func shiftedColumns(n, shift int) []int32 {
	col := make([]int32, n)
	for j := range col {
		col[j] = int32(max(j-shift, -1))
	}
	return col
}

// namedColumns maps each column to the feature its name numbers (Feature
// n-1 for the name "n"), for ImportOptions.ByName, and returns the number
// of features that makes; a name that is no feature number, or names one
// twice, is an error naming the columns with column.
func namedColumns(names []string, column func(j int) string) (col []int32, features int, err error) {
	col = make([]int32, len(names))
	named := map[int]int{} // feature number → the column named so
	for j, name := range names {
		n, err := strconv.Atoi(name)
		if err != nil || n < 1 || n > maxFeatures {
			return nil, 0, fmt.Errorf("--by-name: %s is named %q, not a feature number from 1 to %d", column(j), name, maxFeatures)
		}
		if i, ok := named[n]; ok {
			return nil, 0, fmt.Errorf("--by-name: %s and %s are both named %q", column(i), column(j), name)
		}
		named[n] = j
		col[j] = int32(n - 1)
		features = max(features, n)
	}
	return col, features, nil
}

// numberedFeatureNames reports whether a model's feature names are all
// whole numbers, as when a frame of selected features is named by their
// numbers ("3", "7", "12"): the provenance keeps them, so that import can
// say when they disagree with the columns' positions, by which cronus maps
// them.
func numberedFeatureNames(names []string) bool {
	for _, n := range names {
		if _, err := strconv.ParseUint(n, 10, 32); err != nil {
			return false
		}
	}
	return len(names) > 0
}

func importXGBoost(data []byte, opt ImportOptions) (*Ensemble, map[string]any, error) {
	var file xgbFile
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, nil, jsonError(data, err)
	}
	if err := CheckKeys(data, &file); err != nil {
		return nil, nil, err
	}
	l := file.Learner
	if l == nil || l.GradientBooster == nil {
		return nil, nil, errors.New(`not an XGBoost JSON model: no "learner" with a "gradient_booster"`)
	}
	mp := &l.ModelParam
	prov := map[string]any{
		"source":     "xgboost",
		"objective":  l.Objective.Name,
		"base_score": mp.BaseScore,
	}
	if l.Objective.Params != nil {
		// For export --to xgboost, which writes them back: the
		// objective's own settings (a tweedie variance power of 1.7)
		// rather than XGBoost's defaults.
		prov["objective_params"] = l.Objective.Params
	}
	if len(file.Version) > 0 {
		v := make([]string, len(file.Version))
		for i, x := range file.Version {
			v[i] = strconv.Itoa(x)
		}
		prov["xgboost_version"] = strings.Join(v, ".")
	}
	if s, ok := l.Attributes["best_iteration"]; ok {
		if n, err := strconv.Atoi(s); err == nil {
			prov["best_iteration"] = n
		}
	}

	for _, c := range []struct{ key, val, what string }{
		{"num_class", mp.NumClass, "multiclass"},
		{"num_target", mp.NumTarget, "multi-target"},
	} {
		if c.val == "" {
			continue
		}
		n, err := strconv.Atoi(c.val)
		if err != nil {
			return nil, nil, fmt.Errorf("learner_model_param %s %q is not an integer", c.key, c.val)
		}
		if n > 1 {
			return nil, nil, fmt.Errorf("%s models are not supported (%s=%d)", c.what, c.key, n)
		}
	}
	obj := l.Objective.Name
	if strings.HasPrefix(obj, "multi:") {
		return nil, nil, fmt.Errorf("multiclass models are not supported (objective %s)", obj)
	}
	nf, ok := parseCount(mp.NumFeature)
	if !ok {
		return nil, nil, fmt.Errorf("learner_model_param num_feature %q is not a non-negative integer", mp.NumFeature)
	}
	if numberedFeatureNames(l.FeatureNames) {
		prov["feature_names"] = l.FeatureNames
	}
	// Refused before the column table is made: a num_feature of 10^11
	// ran the import out of memory (a runtime crash), 3·10^9 took 43 s
	// and 11.7 GB to be refused. With --by-name the names give the
	// indices, and namedColumns refuses any past maxFeatures.
	shift := 0
	if opt.LibSVMIndices {
		shift = 1
	}
	// With --by-name a larger count passes, as long as an int holds it
	// (a 32-bit int does not hold 10^11).
	if (!opt.ByName || nf > math.MaxInt) && nf-int64(shift) > maxFeatures {
		return nil, nil, fmt.Errorf("learner_model_param num_feature %s: cronus reads data with feature indices up to %d", mp.NumFeature, maxFeatures)
	}
	numFeatures := int(nf)
	// XGBoost's f{k} is cronus Feature col[k] (0-based), -1 for a column
	// that is no feature: k by default, k-1 with LibSVMIndices, its name
	// minus 1 with ByName.
	var col []int32
	var err error
	features := numFeatures
	switch {
	case opt.ByName:
		if len(l.FeatureNames) != numFeatures {
			return nil, nil, fmt.Errorf("--by-name: the model has %d feature names for its %d features", len(l.FeatureNames), numFeatures)
		}
		if col, features, err = namedColumns(l.FeatureNames, func(k int) string { return fmt.Sprintf("f%d", k) }); err != nil {
			return nil, nil, err
		}
		prov["feature_indices"] = "names"
	case opt.LibSVMIndices:
		col, features = shiftedColumns(numFeatures, 1), max(numFeatures-1, 0)
		prov["feature_indices"] = "libsvm"
	default:
		col = shiftedColumns(numFeatures, 0)
	}
	base, err := xgbBase(obj, mp.BaseScore)
	if err != nil {
		return nil, nil, err
	}

	gb := l.GradientBooster
	prov["booster"] = gb.Name
	if l.TrainParam != nil && gb.Model == nil && (gb.GBTree == nil || gb.GBTree.Model == nil) && gb.Name != "gblinear" {
		return nil, nil, errors.New(`not a model but XGBoost's configuration (Booster.save_config), which holds no trees: ` +
			`save the model with Booster.save_model("m.json")`)
	}
	model := gb.Model
	var weights []float64
	switch gb.Name {
	case "gbtree":
	case "dart":
		if gb.GBTree == nil {
			return nil, nil, errors.New(`dart booster without "gbtree"`)
		}
		model = gb.GBTree.Model
		weights = gb.WeightDrop
	case "gblinear":
		return nil, nil, errors.New("linear boosters (gblinear) are not supported")
	default:
		return nil, nil, fmt.Errorf("booster %q is not supported", gb.Name)
	}
	if model == nil {
		return nil, nil, fmt.Errorf("%s booster without a \"model\"", gb.Name)
	}
	if weights != nil && len(weights) != len(model.Trees) {
		return nil, nil, fmt.Errorf("dart booster has %d trees but %d weight_drop entries", len(model.Trees), len(weights))
	}
	for i, g := range model.TreeInfo {
		if g != 0 {
			return nil, nil, fmt.Errorf("multiclass models are not supported (tree %d belongs to class %d)", i, g)
		}
	}
	if len(model.Trees) == 0 {
		return nil, nil, errors.New("the model has no trees")
	}
	prov["trees"] = len(model.Trees)
	if n, err := strconv.Atoi(model.Param.NumParallelTree); err == nil && n > 1 {
		prov["num_parallel_tree"] = n
	}

	e := &Ensemble{
		Trees:       make([]Tree, len(model.Trees)),
		Base:        base,
		NumFeatures: features,
		Objective:   obj,
	}
	for i := range model.Trees {
		w := 1.0
		if weights != nil {
			w = weights[i]
		}
		t, err := model.Trees[i].tree(col, features, w)
		if err != nil {
			return nil, nil, fmt.Errorf("tree %d: %w", i, err)
		}
		e.Trees[i] = t
	}
	e.keepCompleteStats()
	return e, prov, nil
}

// decimalNumber is a finite number in decimal notation, as XGBoost writes
// base_score.
var decimalNumber = regexp.MustCompile(`^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$`)

// xgbBase turns base_score (a float32 written as a string) into the margin
// the objective starts from.
func xgbBase(obj, s string) (float64, error) {
	if s == "" {
		return 0, errors.New("learner_model_param has no base_score")
	}
	// XGBoost 3 writes a one-element vector, "[5E-1]".
	s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	f, err := strconv.ParseFloat(s, 32)
	if errors.Is(err, strconv.ErrRange) && decimalNumber.MatchString(s) {
		// "1e39" was "not a number".
		return 0, fmt.Errorf("base_score %q is out of range: XGBoost keeps it as a float32, at most %.2g in magnitude", s, math.MaxFloat32)
	}
	if err != nil || !math.IsNaN(f) && !math.IsInf(f, 0) && !decimalNumber.MatchString(s) {
		// Go's syntax beyond the decimal ("0x1p-1", "0_5", "Inf") is not
		// XGBoost's, which writes "5E-1"
		return 0, fmt.Errorf("base_score %q is not a number", s)
	}
	p := float64(float32(f))
	link, ok := xgbLink[obj]
	if !ok {
		return 0, fmt.Errorf("objective %q is not supported (unknown how it turns base_score into a margin)", obj)
	}
	switch link {
	case "logit":
		if !(p > 0 && p < 1) {
			return 0, fmt.Errorf("base_score %s is outside (0, 1), which %s needs", s, obj)
		}
		// XGBoost computes -logf(1.0f/p - 1.0f) in float32, where 1/p - 1
		// cancels near p = 1: its margin for 0.9999997 is 14.84, not 15.03.
		d := 1/float32(p) - 1 // float32 arithmetic, as XGBoost
		m := -float64(float32(math.Log(float64(d))))
		if math.IsInf(m, 0) {
			return 0, fmt.Errorf("base_score %s is too close to 0 for %s: 1/base_score overflows XGBoost's float32", s, obj)
		}
		return m, nil
	case "log":
		if !(p > 0) || math.IsInf(p, 1) {
			return 0, fmt.Errorf("base_score %s is not positive, which %s needs", s, obj)
		}
		return math.Log(p), nil
	}
	if math.IsNaN(p) || math.IsInf(p, 0) {
		return 0, fmt.Errorf("base_score %s is not finite", s)
	}
	return p, nil
}

// tree converts an XGBoost tree into a compact Tree: the nodes reachable
// from the root renumbered in depth-first order, internal nodes into Nodes
// (f{k} becoming Feature col[k]; len(col) is the model's num_feature) and
// leaves (times weight w) into Leaves; features is the ensemble's number
// of features.
func (xt *xgbTree) tree(col []int32, features int, w float64) (Tree, error) {
	n := len(xt.Left)
	if xt.Param.NumNodes != "" {
		if nn, err := strconv.Atoi(xt.Param.NumNodes); err != nil || nn != n {
			return Tree{}, fmt.Errorf("num_nodes is %q but left_children has %d entries", xt.Param.NumNodes, n)
		}
	}
	if s := xt.Param.SizeLeafVector; s != "" && s != "0" && s != "1" {
		return Tree{}, fmt.Errorf("vector leaves (size_leaf_vector %s) are not supported", s)
	}
	for _, a := range []struct {
		name string
		len  int
	}{
		{"right_children", len(xt.Right)}, {"split_indices", len(xt.Split)},
		{"split_conditions", len(xt.Cond)}, {"default_left", len(xt.DefaultLeft)},
	} {
		if a.len != n {
			return Tree{}, fmt.Errorf("left_children has %d entries but %s has %d", n, a.name, a.len)
		}
	}
	if n == 0 {
		return Tree{}, errors.New("no nodes")
	}
	for j, st := range xt.SplitType {
		if st != 0 {
			on := "" // the feature, so that it can be made numeric
			if j < len(xt.Split) {
				on = fmt.Sprintf(" (on f%d)", xt.Split[j])
			}
			return Tree{}, fmt.Errorf("node %d: categorical splits%s are not supported", j, on)
		}
	}
	if len(xt.Categories) > 0 || len(xt.CategoriesNodes) > 0 {
		return Tree{}, errors.New("categorical splits are not supported")
	}

	var t Tree
	seen := make([]bool, n)
	// A depth-first walk from the root, left before right, with a stack of
	// its own rather than recursion: a crafted chain of 1.5 million splits
	// (a 95 MB file) overflowed the goroutine stack, a fatal error.
	// id[i] is what node i became (a Node index, or Leaf), from[k] the
	// node that Node k came from, and leafFrom[l] the node leaf l came from.
	id := make([]int32, n)
	var from, leafFrom []int
	type visit struct{ i, parent int }
	stack := []visit{{0, -1}}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		i := v.i
		if i < 0 || i >= n {
			return Tree{}, fmt.Errorf("node %d: child %d out of range", v.parent, i)
		}
		if seen[i] {
			return Tree{}, fmt.Errorf("node %d reached twice", i)
		}
		seen[i] = true
		c := float32(xt.Cond[i])
		if xt.Left[i] == -1 {
			if math.IsNaN(float64(c)) || math.IsInf(float64(c), 0) {
				return Tree{}, fmt.Errorf("node %d: leaf value %v is not finite", i, c)
			}
			t.Leaves = append(t.Leaves, float64(c)*w)
			leafFrom = append(leafFrom, i)
			id[i] = Leaf(len(t.Leaves) - 1)
			continue
		}
		f := xt.Split[i]
		if f < 0 || f >= len(col) {
			return Tree{}, fmt.Errorf("node %d splits on f%d; the model has %d features", i, f, len(col))
		}
		if col[f] < 0 {
			return Tree{}, fmt.Errorf("node %d splits on f%d, which XGBoost's libsvm reader leaves empty (cronus data files start at 1): "+
				"a model of a matrix (NumPy, SciPy), whose f0 is feature 1, imports without --libsvm-indices", i, f)
		}
		if math.IsNaN(float64(c)) {
			return Tree{}, fmt.Errorf("node %d has a NaN split condition", i)
		}
		if math.IsInf(float64(c), -1) {
			// No finite threshold sends every finite value right.
			return Tree{}, fmt.Errorf("node %d: split condition -Infinity (no value goes left) is not supported", i)
		}
		id[i] = int32(len(t.Nodes))
		from = append(from, i)
		t.Nodes = append(t.Nodes, Node{
			Feature: col[f],
			// x < c  ⇔  x <= the float32 below c, for finite float32 x.
			Threshold:   math.Nextafter32(c, float32(math.Inf(-1))),
			DefaultLeft: bool(xt.DefaultLeft[i]),
		})
		stack = append(stack, visit{xt.Right[i], i}, visit{xt.Left[i], i})
	}
	for k, i := range from {
		t.Nodes[k].Left, t.Nodes[k].Right = id[xt.Left[i]], id[xt.Right[i]]
	}
	if err := t.Validate(features); err != nil {
		return Tree{}, err
	}
	t.Gain, t.Cover = nodeStats(xt.LossChanges, n, from), nodeStats(xt.SumHessian, n, from)
	t.LeafCover = nodeStats(xt.SumHessian, n, leafFrom)
	return t, nil
}

// nodeStats returns a tree's per-node statistic (loss_changes,
// sum_hessian) in the order of its Nodes (or Leaves), from[k] being Node
// (or leaf) k's index in v, which has an entry for each of the n nodes and
// leaves, as the file has them (keepCompleteStats drops what is
// malformed); nil when v is not that long, and when from is empty (a tree
// without splits has no Gain or Cover, as a model file reads it back).
func nodeStats(v []xgbStat, n int, from []int) []float32 {
	if len(v) != n || len(from) == 0 {
		return nil
	}
	out := make([]float32, len(from))
	for k, i := range from {
		out[k] = float32(v[i])
	}
	return out
}
