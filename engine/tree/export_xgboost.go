package tree

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ExportOptions are the choices ExportXGBoost leaves to the caller.
type ExportOptions struct {
	// LibSVMIndices numbers the columns as XGBoost's own libsvm reader
	// does (DMatrix("test.txt?format=libsvm")): cronus feature k is
	// f{k}, and column 0 is unused. Without it feature k is f{k-1},
	// column k-1 of a matrix of the features in order (numpy, or
	// scikit-learn's load_svmlight_file), as ImportXGBoost reads it.
	LibSVMIndices bool
	// MissingAsZero sends a missing value (NaN) where 0 goes at every
	// split, whatever the tree's default direction: XGBoost's libsvm
	// reader, which takes the values a line leaves out as missing, then
	// scores a file as cronus reads it by default (left-out values as 0).
	MissingAsZero bool
	// ObjectiveParams, when not nil, are the objective's parameter objects
	// written in place of XGBoost 1.7.4's defaults (xgbObjectiveParams):
	// those of the model's own XGBoost objective, as ImportXGBoost keeps
	// them (Model.Params "objective_params"), each an object of strings.
	// They must be of the objective written (XGBoostObjective).
	ObjectiveParams map[string]any
	// NumParallelTree, when above 1, is the model's trees per boosting
	// round (an imported XGBoost random forest's num_parallel_tree):
	// written as num_parallel_tree when the trees make whole rounds, so
	// that XGBoost counts the export's rounds (num_boosted_rounds,
	// iteration_range, best_iteration) as it counted the model's;
	// otherwise, and by default, every tree is a round of its own.
	NumParallelTree int
}

// xgbExportObjective is the XGBoost objective an ensemble's objective is
// written as, with the parameters XGBoost 1.7 saves with it (its loader
// asks for them): the training parameters only, which prediction does not
// read. Cronus's own objectives, XGBoost's names that ImportXGBoost reads
// (the same name), LightGBM's and RankLib's.
var xgbExportObjective = map[string]string{
	"regression":           "reg:squarederror",
	"binary":               "binary:logistic",
	"lambdarank":           "rank:ndcg",
	"reg:squarederror":     "reg:squarederror",
	"reg:linear":           "reg:squarederror",
	"reg:squaredlogerror":  "reg:squaredlogerror",
	"reg:logistic":         "reg:logistic",
	"reg:pseudohubererror": "reg:pseudohubererror",
	"reg:absoluteerror":    "reg:absoluteerror",
	"reg:gamma":            "reg:gamma",
	"reg:tweedie":          "reg:tweedie",
	"count:poisson":        "count:poisson",
	"binary:logistic":      "binary:logistic",
	"binary:logitraw":      "binary:logitraw",
	"rank:pairwise":        "rank:pairwise",
	"rank:ndcg":            "rank:ndcg",
	"rank:map":             "rank:map",
	"binary:hinge":         "binary:hinge",
	"survival:cox":         "survival:cox",
	"survival:aft":         "survival:aft",
	"regression_l2":        "reg:squarederror", // LightGBM
	"l2":                   "reg:squarederror",
	"mse":                  "reg:squarederror",
	"mean_squared_error":   "reg:squarederror",
	"regression_l1":        "reg:absoluteerror",
	"huber":                "reg:pseudohubererror",
	"poisson":              "count:poisson",
	"gamma":                "reg:gamma",
	"tweedie":              "reg:tweedie",
	"cross_entropy":        "reg:logistic",
	"xentropy":             "reg:logistic",
	"rank_xendcg":          "rank:ndcg",
	"LambdaMART":           "rank:ndcg", // RankLib
	"MART":                 "reg:squarederror",
	"Random Forests":       "reg:squarederror",
	"reg:quantileerror":    "", // below: written as reg:squarederror
	"reg:expectileerror":   "",
}

// xgbObjectiveParams are the parameter objects XGBoost 1.7.4 writes with
// each objective (Booster.save_model), whose loader reads them back.
var xgbObjectiveParams = map[string]string{
	"reg:squarederror":     `"reg_loss_param":{"scale_pos_weight":"1"}`,
	"reg:squaredlogerror":  `"reg_loss_param":{"scale_pos_weight":"1"}`,
	"reg:logistic":         `"reg_loss_param":{"scale_pos_weight":"1"}`,
	"binary:logistic":      `"reg_loss_param":{"scale_pos_weight":"1"}`,
	"binary:logitraw":      `"reg_loss_param":{"scale_pos_weight":"1"}`,
	"reg:pseudohubererror": `"pseudo_huber_param":{"huber_slope":"1"}`,
	"reg:absoluteerror":    ``,
	"reg:gamma":            ``,
	"reg:tweedie":          `"tweedie_regression_param":{"tweedie_variance_power":"1.5"}`,
	"count:poisson":        `"poisson_regression_param":{"max_delta_step":"0.699999988"}`,
	"rank:pairwise":        `"lambda_rank_param":{"fix_list_weight":"0","num_pairsample":"1"}`,
	"rank:ndcg":            `"lambda_rank_param":{"fix_list_weight":"0","num_pairsample":"1"}`,
	"rank:map":             `"lambda_rank_param":{"fix_list_weight":"0","num_pairsample":"1"}`,
	"binary:hinge":         ``,
	"survival:cox":         ``,
	"survival:aft":         `"aft_loss_param":{"aft_loss_distribution":"normal","aft_loss_distribution_scale":"1"}`,
}

// XGBoostObjective returns the XGBoost objective ExportXGBoost writes for
// an ensemble of objective obj, and whether obj has a counterpart; without
// one it is reg:squarederror, whose prediction is the raw score.
func XGBoostObjective(obj string) (string, bool) {
	x := xgbExportObjective[obj]
	if x == "" {
		return "reg:squarederror", false
	}
	return x, true
}

// ExportXGBoost returns e as an XGBoost JSON model in the layout of
// XGBoost 1.7.4's Booster.save_model (which XGBoost 2 and 3 read too):
// loaded with xgboost.Booster(model_file=...), its output_margin
// prediction is e's score (Base plus the trees' values) up to float32
// rounding, and its prediction is that score through the objective's link
// (XGBoostObjective).
//
// XGBoost's f{k} is cronus feature k+1 (Feature k), or with
// opt.LibSVMIndices feature k; num_feature is then one more (and at least
// 1, which XGBoost needs).
//
// A split "x <= t" becomes XGBoost's "x < c" with c the float32 just
// above t (Infinity above the largest float32), which sends every
// finite float32 the same way; NaN follows the same default direction. Leaf values and the base score are float32 in
// XGBoost. base_score is the objective's inverse link of Base
// (sigmoid for the logistic objectives, exp for the log ones), held
// within what a float32 can hold and XGBoost's link can take; for those,
// what XGBoost's margin of it leaves of Base, when more than Base's own
// float32 rounding, is added to the first tree's leaves. Gains and covers, where e has them, become loss_changes and
// sum_hessian, so that XGBoost's feature contributions (pred_contribs)
// and importances work; without covers they are 0 and pred_contribs is
// not meaningful. Trees are laid out breadth first.
func ExportXGBoost(e *Ensemble, opt ExportOptions) ([]byte, error) {
	return ExportXGBoostContext(context.Background(), e, opt)
}

// ExportXGBoostContext is ExportXGBoost, given up when ctx is done: it
// looks at ctx between trees and returns its error (2,000 trees 9 deep
// took over a second to write).
func ExportXGBoostContext(ctx context.Context, e *Ensemble, opt ExportOptions) ([]byte, error) {
	if len(e.Trees) == 0 {
		return nil, errors.New("the model has no trees (XGBoost's loader would hold only its base score)")
	}
	obj, _ := XGBoostObjective(e.Objective)
	numFeature := e.NumFeatures
	shift := int32(0)
	if opt.LibSVMIndices {
		numFeature++
		shift = 1
	}
	// XGBoost refuses a model of no features ("0 feature is supplied"),
	// even one whose trees are all leaves: it takes one, which a matrix of
	// no columns fits too.
	numFeature = max(numFeature, 1)
	baseScore, residual, err := xgbBaseScore(obj, e.Base)
	if err != nil {
		return nil, err
	}
	parallel := 1
	if n := opt.NumParallelTree; n > 1 && len(e.Trees)%n == 0 {
		parallel = n
	}
	var b bytes.Buffer
	b.WriteString(`{"learner":{"attributes":{},"feature_names":[],"feature_types":[],"gradient_booster":{"model":{"gbtree_model_param":{"num_parallel_tree":"`)
	b.WriteString(strconv.Itoa(parallel))
	b.WriteString(`","num_trees":"`)
	b.WriteString(strconv.Itoa(len(e.Trees)))
	b.WriteString(`","size_leaf_vector":"0"},"tree_info":[`)
	for i := range e.Trees {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('0')
	}
	b.WriteString(`],"trees":[`)
	for i := range e.Trees {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if i > 0 {
			b.WriteByte(',')
		}
		add := 0.0
		if i == 0 {
			add = residual
		}
		if err := writeXGBTree(&b, &e.Trees[i], i, numFeature, shift, add, opt.MissingAsZero); err != nil {
			return nil, &ExportTreeError{Tree: i, Err: err}
		}
	}
	b.WriteString(`]},"name":"gbtree"},"learner_model_param":{"base_score":"`)
	b.WriteString(strconv.FormatFloat(float64(baseScore), 'g', -1, 32))
	b.WriteString(`","boost_from_average":"1","num_class":"0","num_feature":"`)
	b.WriteString(strconv.Itoa(numFeature))
	b.WriteString(`","num_target":"1"},"objective":{"name":"`)
	b.WriteString(obj)
	b.WriteByte('"')
	if p := opt.ObjectiveParams; p != nil {
		// A map's keys are written in order: the same bytes every time.
		j, err := json.Marshal(p)
		if err != nil {
			return nil, fmt.Errorf("objective parameters: %w", err)
		}
		if len(p) > 0 {
			b.WriteByte(',')
			b.Write(j[1 : len(j)-1])
		}
	} else if p := xgbObjectiveParams[obj]; p != "" {
		b.WriteByte(',')
		b.WriteString(p)
	}
	b.WriteString(`}},"version":[1,7,4]}`)
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// ExportTreeError is ExportXGBoost's error about one tree of the ensemble
// it was given, Tree its index there: a caller that exported a selection
// of a model's trees (a cascade's stage) can name the tree as the model
// numbers it.
type ExportTreeError struct {
	Tree int
	Err  error
}

func (e *ExportTreeError) Error() string { return fmt.Sprintf("tree %d: %v", e.Tree, e.Err) }

func (e *ExportTreeError) Unwrap() error { return e.Err }

// xgbBaseScore returns XGBoost's base_score for a margin base under
// objective obj (a float32, as XGBoost keeps it), and what is left of
// base once XGBoost turns that float32 back into a margin.
func xgbBaseScore(obj string, base float64) (float32, float64, error) {
	var p float32
	switch xgbLink[obj] {
	case "logit":
		// A probability that rounds to 0 or 1 in float32 (a base past
		// about ±16.6), or whose 1/p would overflow, is held at the
		// nearest one XGBoost can take; the rest goes to the first tree.
		p = min(max(float32(1/(1+math.Exp(-base))), 1e-37), math.Nextafter32(1, 0))
	case "log":
		p = min(max(float32(math.Exp(base)), 1e-37), math.MaxFloat32)
	default:
		p = float32(base)
		if math.IsInf(float64(p), 0) {
			return 0, 0, fmt.Errorf("the base score %g is out of the float32 range of XGBoost's base_score", base)
		}
	}
	if xgbLink[obj] == "identity" || xgbLink[obj] == "" {
		// The float32 rounding of base is no more than the leaves'.
		return p, 0, nil
	}
	m, err := xgbBase(obj, strconv.FormatFloat(float64(p), 'g', -1, 32))
	if err != nil {
		return 0, 0, err
	}
	// Near the ends of the link a float32 probability is a coarse
	// margin (1 − p rounds to a few bits at a margin of 15), and past
	// them p was held: the rest goes to the first tree, when it is more
	// than base's own rounding.
	if r := base - m; math.Abs(r) > math.Abs(base)*0x1p-24 {
		return p, r, nil
	}
	return p, 0, nil
}

// writeXGBTree writes t as one of XGBoost's trees, id i, breadth first;
// add is added to every leaf value, shift to every feature index; with
// zero a NaN goes where 0 goes.
func writeXGBTree(b *bytes.Buffer, t *Tree, id, numFeature int, shift int32, add float64, zero bool) error {
	// XGBoost's node j is order[j]: ours, a node index >= 0 or ^leaf.
	order := []int32{0}
	if len(t.Nodes) == 0 {
		order[0] = Leaf(0)
	}
	parent := []int32{math.MaxInt32}
	left := make([]int32, 0, 2*len(t.Nodes)+1)
	right := make([]int32, 0, cap(left))
	for j := 0; j < len(order); j++ {
		n := order[j]
		if n < 0 {
			left, right = append(left, -1), append(right, -1)
			continue
		}
		nd := &t.Nodes[n]
		left, right = append(left, int32(len(order))), append(right, int32(len(order)+1))
		order = append(order, nd.Left, nd.Right)
		parent = append(parent, int32(j), int32(j))
	}
	n := len(order)
	leaf := func(l int32) (float32, error) {
		v := float32(t.Leaves[^l] + add)
		if math.IsInf(float64(v), 0) || v != v {
			return 0, fmt.Errorf("leaf %d's value %g is out of the float32 range of XGBoost's leaves", ^l, t.Leaves[^l]+add)
		}
		return v, nil
	}
	cond := make([]float32, n)
	for j, o := range order {
		if o < 0 {
			v, err := leaf(o)
			if err != nil {
				return err
			}
			cond[j] = v
			continue
		}
		// The threshold of the largest float32 (a LightGBM split of
		// NaN from every number, whose threshold LightGBM writes as
		// 1e300; XGBoost's own Infinity) becomes c = +Inf: x < +Inf
		// holds for every finite x, as x <= MaxFloat32 does, and
		// XGBoost writes and reads it as Infinity.
		cond[j] = math.Nextafter32(t.Nodes[o].Threshold, float32(math.Inf(1)))
	}
	b.WriteString(`{"base_weights":`)
	writeFloats(b, cond, order, true)
	b.WriteString(`,"categories":[],"categories_nodes":[],"categories_segments":[],"categories_sizes":[],"default_left":[`)
	for j, o := range order {
		if j > 0 {
			b.WriteByte(',')
		}
		if o >= 0 && (!zero && t.Nodes[o].DefaultLeft || zero && 0 <= t.Nodes[o].Threshold) {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	fmt.Fprintf(b, `],"id":%d,"left_children":`, id)
	writeInts(b, left)
	b.WriteString(`,"loss_changes":`)
	stat := make([]float32, n)
	if t.Gain != nil {
		for j, o := range order {
			if o >= 0 {
				stat[j] = t.Gain[o]
			}
		}
	}
	writeFloats(b, stat, nil, false)
	b.WriteString(`,"parents":`)
	writeInts(b, parent)
	b.WriteString(`,"right_children":`)
	writeInts(b, right)
	b.WriteString(`,"split_conditions":`)
	writeFloats(b, cond, nil, false)
	b.WriteString(`,"split_indices":[`)
	for j, o := range order {
		if j > 0 {
			b.WriteByte(',')
		}
		f := int32(0)
		if o >= 0 {
			f = t.Nodes[o].Feature + shift
		}
		b.WriteString(strconv.Itoa(int(f)))
	}
	b.WriteString(`],"split_type":[`)
	for j := range order {
		if j > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('0')
	}
	b.WriteString(`],"sum_hessian":`)
	clear(stat)
	for j, o := range order {
		switch {
		case o >= 0 && t.Cover != nil:
			stat[j] = t.Cover[o]
		case o < 0 && t.LeafCover != nil:
			stat[j] = t.LeafCover[^o]
		}
	}
	writeFloats(b, stat, nil, false)
	fmt.Fprintf(b, `,"tree_param":{"num_deleted":"0","num_feature":"%d","num_nodes":"%d","size_leaf_vector":"0"}}`, numFeature, n)
	return nil
}

// writeFloats writes vs as a JSON array of float32s, each in the shortest
// form that reads back to it. With leavesOnly, entries whose order is an
// internal node (>= 0) are written as 0.
func writeFloats(b *bytes.Buffer, vs []float32, order []int32, leavesOnly bool) {
	b.WriteByte('[')
	for j, v := range vs {
		if j > 0 {
			b.WriteByte(',')
		}
		if leavesOnly && order[j] >= 0 {
			v = 0
		}
		writeFloat32(b, v)
	}
	b.WriteByte(']')
}

// writeFloat32 writes v in the shortest form that reads back to it, with
// a point or an exponent: XGBoost's JSON reader takes "0" for an integer
// and refuses it where a float is due. ±Inf is written as XGBoost's JSON
// writer writes it, Infinity or -Infinity, which its reader reads.
func writeFloat32(b *bytes.Buffer, v float32) {
	if math.IsInf(float64(v), 0) {
		if v < 0 {
			b.WriteByte('-')
		}
		b.WriteString("Infinity")
		return
	}
	s := strconv.FormatFloat(float64(v), 'g', -1, 32)
	b.WriteString(s)
	if !strings.ContainsAny(s, ".e") {
		b.WriteString(".0")
	}
}

func writeInts(b *bytes.Buffer, vs []int32) {
	b.WriteByte('[')
	for j, v := range vs {
		if j > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(int(v)))
	}
	b.WriteByte(']')
}
