package main

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/cronus"
	"github.com/cronus-ltr/cronus/engine/metric"
	"github.com/cronus-ltr/cronus/engine/tree"
	"github.com/cronus-ltr/cronus/views"
)

// looksLikeJSON reports whether path is a regular file whose first byte
// after blanks (and a UTF-8 byte order mark), once decompressed if it is
// gzip, is '{': a model or cascade file given to inspect, not data.
// Built-in names and what is not a regular file (standard input, a FIFO,
// which a peek would consume: inspect reads it whole first, see
// readIfPipe, and asks startsJSON) are left to the data reader, as are
// files that cannot be opened.
func looksLikeJSON(path string) bool {
	if strings.HasPrefix(path, data.BuiltinPrefix) {
		return false
	}
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return startsJSON(f)
}

// readIfPipe reads the whole of path when it is a pipe, FIFO or device
// (/dev/stdin, <(…)), which can be read once: inspect must see its first
// byte to tell a model from data, and the data reader, which makes two
// passes, would hold its text in memory all the same. It returns nil for a
// built-in name and for anything else (a regular file, a directory, a
// missing file), which the readers open by name.
func readIfPipe(ctx context.Context, path string) ([]byte, error) {
	if strings.HasPrefix(path, data.BuiltinPrefix) {
		return nil, nil
	}
	if st, err := os.Stat(path); err != nil || st.IsDir() || st.Mode().IsRegular() {
		return nil, nil
	}
	b, err := data.ReadPipe(ctx, path, "an SVMlight/LETOR file, a model or a cascade")
	if b == nil && err == nil {
		b = []byte{} // empty, but read: the data reader says so
	}
	return b, err
}

// startsJSON reports whether the text of r, once decompressed if it is
// gzip, starts with '{' after blanks and a UTF-8 byte order mark, or is
// a model file of another kind that the model reader names with the way
// to use it: JSON in UTF-16 (Windows PowerShell's >), an XGBoost model in
// its old binary format, a LightGBM text model or a RankLib model. The
// data reader called the first "UTF-16 text; expected SVMlight/LETOR
// text", the second "binary data (a NUL byte)" and the last two a
// LightGBM model or XML "not SVMlight/LETOR data", without the import
// that converts them.
func startsJSON(r io.Reader) bool {
	br := bufio.NewReader(r)
	r = br
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return false
		}
		r = zr
	}
	b := make([]byte, 4096)
	n, _ := io.ReadFull(r, b)
	b = b[:n]
	if bytes.HasPrefix(b, []byte("\xff\xfe")) || bytes.HasPrefix(b, []byte("\xfe\xff")) {
		// UTF-16 of ASCII: its every other byte is a NUL.
		b = bytes.ReplaceAll(b[2:], []byte{0}, nil)
	} else if bytes.HasPrefix(b, []byte("binf")) {
		return true
	} else if from := tree.ForeignModel(b); strings.HasSuffix(from, "lightgbm") ||
		strings.HasSuffix(from, "ranklib") && bytes.Contains(b, []byte("<ensemble")) {
		return true
	}
	b = bytes.TrimLeft(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")), " \t\r\n")
	return len(b) > 0 && b[0] == '{'
}

// statsJSON is the least, median and greatest of some counts, and their sum.
type statsJSON struct {
	Min    int     `json:"min"`
	Median float64 `json:"median"`
	Max    int     `json:"max"`
	Total  int     `json:"total,omitempty"`
}

func intStats(v []int) statsJSON {
	if len(v) == 0 {
		return statsJSON{}
	}
	s := slices.Clone(v)
	slices.Sort(s)
	st := statsJSON{Min: s[0], Max: s[len(s)-1], Median: float64(s[len(s)/2])}
	if len(s)%2 == 0 {
		st.Median = float64(s[len(s)/2-1]+s[len(s)/2]) / 2
	}
	for _, x := range s {
		st.Total += x
	}
	return st
}

// featureJSON is one feature's line of a model summary.
type featureJSON struct {
	Feature   int      `json:"feature"` // 1-based, as in data files
	Name      string   `json:"name,omitempty"`
	Cost      float64  `json:"cost"`
	Splits    int      `json:"splits"`
	Trees     int      `json:"trees"`
	Gain      *float64 `json:"gain,omitempty"`
	GainShare *float64 `json:"gain_share,omitempty"`
	Cover     *float64 `json:"cover,omitempty"`
	// With --data: the mean over the data's documents of the size of the
	// feature's contribution to the score (TreeSHAP), and its share of
	// the features' sum.
	MeanAbsContrib *float64 `json:"mean_abs_contrib,omitempty"`
	ContribShare   *float64 `json:"contrib_share,omitempty"`
}

// costGroupJSON is what the features of one cost contribute.
type costGroupJSON struct {
	Cost      float64  `json:"cost"`
	Features  int      `json:"features"`
	Used      int      `json:"used"`
	Splits    int      `json:"splits"`
	GainShare *float64 `json:"gain_share,omitempty"`
	// With --data: the group's features' share of the mean |contribution|.
	ContribShare *float64 `json:"contrib_share,omitempty"`
}

// stageSummaryJSON is one stage of a cascade summary. The costs are those
// of a document that reaches the stage and is scored there: every feature
// and tree of this stage and the earlier ones, each paid once.
type stageSummaryJSON struct {
	Stage          int         `json:"stage"` // 1-based
	Trees          int         `json:"trees"`
	Theta          *float64    `json:"theta"` // null: passes everything (and the last stage)
	NewTrees       int         `json:"new_trees"`
	NewFeatures    []int       `json:"new_features"` // 1-based
	NewFeatureCost float64     `json:"new_feature_cost"`
	Cost           metric.Cost `json:"cost"`
}

// modelSummary is what inspect prints for a model or cascade file.
type modelSummary struct {
	File         string             `json:"file"`
	Kind         string             `json:"kind"` // "model" or "cascade"
	Source       string             `json:"source"`
	Objective    string             `json:"objective"`
	Trees        int                `json:"trees"`
	NumFeatures  int                `json:"num_features"`
	BaseScore    float64            `json:"base_score"`
	Leaves       statsJSON          `json:"leaves"`
	Depth        statsJSON          `json:"depth"`
	Costs        string             `json:"costs"`
	FeaturesUsed int                `json:"features_used"`
	HasGain      bool               `json:"has_gain"`
	HasCover     bool               `json:"has_cover"`
	Data         string             `json:"data,omitempty"`      // --data: contributions measured on it
	DataDocs     int                `json:"data_docs,omitempty"` // its documents
	Cost         metric.Cost        `json:"cost"`
	Features     []featureJSON      `json:"features"`
	CostGroups   []costGroupJSON    `json:"cost_groups"`
	Rule         string             `json:"rule,omitempty"`
	TopM         int                `json:"top_m,omitempty"`
	Sigma        *float64           `json:"sigma,omitempty"`
	Stages       []stageSummaryJSON `json:"stages,omitempty"`
	TreesUsed    *int               `json:"trees_used,omitempty"` // a cascade's, 0 included
	Params       map[string]any     `json:"params,omitempty"`     // as the file has them: how a model was trained or imported, a cascade optimised
}

// inspectModel summarises the model or cascade file path: its trees, the
// features they split on with their importance and cost, and a cascade's
// stages. costsName ("" for none) overrides a cascade's own costs. With
// dataName, a model's features are also measured by their mean
// |contribution| to the scores of that data's documents (absentMissing:
// as predict --absent missing reads it).
func inspectModel(ctx context.Context, path string, piped []byte, costsName, dataName string, absentMissing, jsonOut bool, stdout, stderr io.Writer) error {
	var (
		e    *tree.Ensemble
		m    *tree.Model
		cf   *cronus.File
		c    *cronus.Cascade
		kind = "model"
	)
	// The file is read once, and parsed as a model or, when its format
	// says so, a cascade.
	_, err := untilDoneShowing(ctx, stderr, "reading "+path, func() (struct{}, error) {
		// parse parses b as a model or, when its format says so, a
		// cascade; cut is the first bytes of a gzip file that holds
		// binary data (data.ReadWholeAs), to be named, not kept.
		parse := func(b []byte, cut bool) error {
			// Which of the two it is cannot be told from UTF-16.
			if err := tree.UTF16Error(b, "a model or cascade file", "JSON"); err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			var head struct {
				Format any `json:"format"`
			}
			// The first value's: a cascade followed by more JSON is named
			// by the cascade reader.
			_ = json.NewDecoder(bytes.NewReader(b)).Decode(&head) // the parser says what is wrong
			if head.Format == tree.CascadeFormat {
				f, err := cronus.ParseFile(path, b)
				if err != nil || cut {
					return err
				}
				kind, cf = "cascade", f
				if e, c, err = cf.Cascade(); err != nil {
					return fmt.Errorf("%s: %w", path, err)
				}
				m = cf.Ensemble
				return nil
			}
			mm, err := tree.ParseModel(path, b)
			if err != nil || cut {
				return err
			}
			m = mm
			e, err = m.Ensemble()
			return err
		}
		var b []byte
		var err error
		named := func(head []byte) error { return parse(head, true) }
		if piped != nil { // read already, from a pipe
			b, err = data.DecodeWholeAs(path, piped, named)
		} else {
			b, err = data.ReadWholeAs(path, "a model or cascade file", named)
		}
		if err != nil {
			return struct{}{}, err
		}
		return struct{}{}, parse(b, false)
	})
	if err != nil {
		return err
	}
	var meanAbs []float64 // --data: per feature, the mean |contribution|
	var docs int          // and the data's documents
	if dataName != "" {
		if c != nil {
			return usageError{"--data applies to a model: " + path + " is a cascade, whose score is its stages' (predict --cascade --exits gives what each document paid)"}
		}
		if err := e.CheckCovers(-1); err != nil {
			return noCoversError(path, "--data", m, err)
		}
		if meanAbs, docs, err = meanAbsContributions(ctx, dataName, absentMissing, e, m, stderr); err != nil {
			return err
		}
	}

	s := modelSummary{File: path, Kind: kind, Source: m.Source, Objective: e.Objective, Trees: len(e.Trees),
		NumFeatures: e.NumFeatures, BaseScore: e.Base, HasGain: e.HasGain(), HasCover: e.HasCover()}
	if s.Source == "" {
		s.Source = "cronus"
	}
	var totalContrib float64
	if meanAbs != nil {
		s.Data, s.DataDocs = dataName, docs
		for _, v := range meanAbs {
			totalContrib += v
		}
	}
	contribShare := func(v float64) *float64 {
		x := 0.0
		if totalContrib > 0 {
			x = v / totalContrib
		}
		return &x
	}
	featCost := make([]float64, e.NumFeatures)
	names := make([]string, e.NumFeatures)
	treeCost := make([]float64, len(e.Trees))
	for i := range treeCost {
		treeCost[i] = 1
	}
	switch {
	case costsName != "":
		// The model's features, not a data set's: the warning of costs
		// not used says whose ("the data has features up to 46" read as
		// if inspect had read some data).
		whose := "the model"
		if cf != nil {
			whose = "the cascade's model"
		}
		costs, err := loadCostsFor(ctx, costsName, e.NumFeatures, whose, stderr)
		if err != nil {
			return err
		}
		copy(featCost, costs.Cost)
		copy(names, costs.Name)
		s.Costs = costsName
	case cf != nil:
		copy(featCost, cf.FeatureCost)
		s.Costs = "the cascade's own"
	default:
		for f := range featCost {
			featCost[f] = 1
		}
		s.Costs = "none: every feature costs 1"
	}
	if cf != nil {
		copy(treeCost, cf.TreeCost)
		s.Rule, s.TopM, s.Params = cf.Rule, cf.TopM, cf.Params
		sigma := cf.Sigma
		s.Sigma = &sigma
	} else {
		s.Params = m.Params // how train or import made the model
	}

	// The trees that count: all of a model's, those a cascade's stages use.
	var use []int
	if c != nil {
		s.Stages, use = stageSummaries(e, c, featCost, treeCost)
		n := len(use)
		s.TreesUsed = &n
	}
	var leaves, depth []int
	for i := range e.Trees {
		leaves = append(leaves, e.Trees[i].NumLeaves())
		depth = append(depth, e.Trees[i].Depth())
	}
	s.Leaves, s.Depth = intStats(leaves), intStats(depth)
	s.Depth.Total = 0 // a sum of depths means nothing

	imp := e.Importance(use)
	var totalGain float64
	for _, st := range imp {
		totalGain += st.Gain
	}
	share := func(g float64) *float64 {
		if !s.HasGain {
			return nil
		}
		v := 0.0
		if totalGain > 0 {
			v = g / totalGain
		}
		return &v
	}
	groups := map[float64]*costGroupJSON{}
	groupGain, groupContrib := map[float64]float64{}, map[float64]float64{}
	for f, st := range imp {
		g := groups[featCost[f]]
		if g == nil {
			g = &costGroupJSON{Cost: featCost[f]}
			groups[featCost[f]] = g
		}
		g.Features++
		if st.Splits == 0 {
			continue
		}
		g.Used++
		g.Splits += st.Splits
		groupGain[featCost[f]] += st.Gain
		s.FeaturesUsed++
		s.Cost.Features += featCost[f]
		fj := featureJSON{Feature: f + 1, Name: names[f], Cost: featCost[f], Splits: st.Splits, Trees: st.Trees}
		if s.HasGain {
			gain := st.Gain
			fj.Gain, fj.GainShare = &gain, share(gain)
		}
		if s.HasCover {
			cover := st.Cover
			fj.Cover = &cover
		}
		if meanAbs != nil {
			v := meanAbs[f]
			fj.MeanAbsContrib, fj.ContribShare = &v, contribShare(v)
			groupContrib[featCost[f]] += v
		}
		s.Features = append(s.Features, fj)
	}
	if use == nil {
		for _, v := range treeCost {
			s.Cost.Trees += v
		}
	} else {
		for _, t := range use {
			s.Cost.Trees += treeCost[t]
		}
	}
	s.Cost.Total = s.Cost.Features + s.Cost.Trees
	// The most important first: by mean |contribution| with --data, by
	// gain when the model has gains, else by splits; ties in feature
	// order.
	slices.SortStableFunc(s.Features, func(a, b featureJSON) int {
		if meanAbs != nil {
			if c := cmp.Compare(*b.MeanAbsContrib, *a.MeanAbsContrib); c != 0 {
				return c
			}
		}
		if s.HasGain {
			if c := cmp.Compare(*b.Gain, *a.Gain); c != 0 {
				return c
			}
		}
		return cmp.Compare(b.Splits, a.Splits)
	})
	for _, g := range groups {
		g.GainShare = share(groupGain[g.Cost])
		if meanAbs != nil {
			g.ContribShare = contribShare(groupContrib[g.Cost])
		}
		s.CostGroups = append(s.CostGroups, *g)
	}
	slices.SortFunc(s.CostGroups, func(a, b costGroupJSON) int { return cmp.Compare(a.Cost, b.Cost) })
	if s.Features == nil {
		s.Features = []featureJSON{}
	}
	if s.CostGroups == nil { // a model of no features
		s.CostGroups = []costGroupJSON{}
	}
	if jsonOut {
		return writeJSON(stdout, s)
	}
	fmt.Fprint(stdout, formatModelSummary(&s))
	return nil
}

// meanAbsContributions reads the data dataName for e (the model m) and
// returns, per feature, the mean over its documents of the size of the
// feature's contribution to the score (TreeSHAP, as predict --contribs
// writes them), and the number of documents. The sums run in document
// order, so the figures do not depend on the number of threads.
func meanAbsContributions(ctx context.Context, dataName string, absentMissing bool, e *tree.Ensemble, m *tree.Model, stderr io.Writer) ([]float64, int, error) {
	d, err := loadScoringData(ctx, newProgress(stderr), dataName, e.NumFeatures, absentMissing)
	if err != nil {
		return nil, 0, err
	}
	warn(stderr, m.AbsentWarning(e, -1, d))
	warn(stderr, m.LibsvmReaderWarning(e, d))
	sum, err := contribMeans(ctx, dataName, e, d, stderr)
	return sum, d.NumDocs(), err
}

// contribMeans is meanAbsContributions of the data d, read from dataName.
func contribMeans(ctx context.Context, dataName string, e *tree.Ensemble, d *data.Dataset, stderr io.Writer) ([]float64, error) {
	// Over the features the trees split on alone (tree.CompactContribs):
	// the others' contributions are 0. With a sparse index of 1,000,000
	// each document had a row of a million, and 1,000 documents took
	// 1.7 GB and 3.6 s.
	cc, err := e.CompactContribs(-1)
	if err != nil {
		return nil, err
	}
	n, u := d.NumDocs(), len(cc.Features)
	cols := u + 1 // and the bias
	size := contribsChunk(cols)
	phi := make([]float64, size*cols)
	chunk := make([][]float32, u)
	sum := make([]float64, e.NumFeatures)
	var done atomic.Int64
	stop := showTicking(newProgress(stderr), func(time.Duration) string {
		k := done.Load()
		return fmt.Sprintf("feature contributions on %s: %d of %d documents (%.0f%%)", dataName, k, n, 100*float64(k)/float64(max(n, 1)))
	})
	defer stop()
	for lo := 0; lo < n; lo += size {
		hi := min(lo+size, n)
		for c, f := range cc.Features {
			chunk[c] = d.Cols[f][lo:hi]
		}
		if _, err := cc.Contributions(ctx, phi[:(hi-lo)*cols], chunk, hi-lo, &done); err != nil {
			return nil, err
		}
		for i := range hi - lo {
			for c, v := range phi[i*cols : i*cols+u] {
				sum[cc.Features[c]] += math.Abs(v)
			}
		}
	}
	for f := range sum {
		sum[f] /= float64(max(n, 1))
	}
	return sum, nil
}

// stageSummaries describes each stage of c and returns the trees any
// stage uses, ascending.
func stageSummaries(e *tree.Ensemble, c *cronus.Cascade, featCost, treeCost []float64) ([]stageSummaryJSON, []int) {
	paidTree := make([]bool, len(e.Trees))
	paidFeat := make([]bool, e.NumFeatures)
	var out []stageSummaryJSON
	var cost metric.Cost
	for k := range c.Stages {
		st := stageSummaryJSON{Stage: k + 1, NewFeatures: []int{}}
		if th := c.Stages[k].Theta; k < len(c.Stages)-1 && !math.IsInf(th, -1) {
			st.Theta = &th
		}
		active := c.Stages[k].Active()
		st.Trees = len(active)
		for _, t := range active {
			if paidTree[t] {
				continue
			}
			paidTree[t] = true
			st.NewTrees++
			cost.Trees += treeCost[t]
			for _, f := range e.Trees[t].Features() {
				if !paidFeat[f] {
					paidFeat[f] = true
					st.NewFeatures = append(st.NewFeatures, f+1)
					st.NewFeatureCost += featCost[f]
					cost.Features += featCost[f]
				}
			}
		}
		slices.Sort(st.NewFeatures)
		cost.Total = cost.Features + cost.Trees
		st.Cost = cost
		out = append(out, st)
	}
	use := []int{}
	for t, paid := range paidTree {
		if paid {
			use = append(use, t)
		}
	}
	return out, use
}

// statText is a gain or cover for the text summary: whole numbers from
// 100, two decimals from 1, three significant digits below.
func statText(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1e12:
		return fmt.Sprintf("%.4g", v)
	case a >= 100:
		return fmt.Sprintf("%.0f", v)
	case a >= 1:
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

// optimisedText says, from a cascade file's params, at what λ and from
// which model and training data it was optimised ("λ 0.1 × λ_max = 0.2863,
// from m40.json's first 20 trees, on builtin:mq2008/train"); "" when the
// params say none of it (a hand-written file). These params are
// informational (not checked as the file is read): a value of another
// type than Cronus writes (a hand-edited "lambda": "0.1") is shown as the
// file has it, as JSON, where it was left out quietly.
func optimisedText(p map[string]any) string {
	var parts []string
	if v, ok := p["lambda"]; ok {
		t := "λ " + cronus.ParamShown(v)
		if l, ok := v.(float64); ok {
			t = fmt.Sprintf("λ %g × λ_max", l)
		}
		if a, ok := p["lambda_abs"]; ok {
			if x, ok := a.(float64); ok {
				t += fmt.Sprintf(" = %.4g", x) // λ itself; "(…)" read as λ_max
			} else {
				t += " = " + cronus.ParamShown(a)
			}
		}
		parts = append(parts, t)
	}
	if v, ok := p["model"]; ok && v != "" {
		m, isString := v.(string)
		if !isString {
			m = cronus.ParamShown(v)
		}
		t := "from " + m
		if k, ok := p["model_trees"].(float64); ok {
			t += fmt.Sprintf("'s first %s", count(int(k), "tree"))
		}
		parts = append(parts, t)
	} else if _, ok := p["base"]; ok {
		parts = append(parts, "from the workbench's own trees")
	}
	if v, ok := p["train"]; ok && v != "" {
		tr, isString := v.(string)
		if !isString {
			tr = cronus.ParamShown(v)
		}
		parts = append(parts, "on "+tr)
	}
	// sweep --cascade-out: which row of which curve, and under what budget.
	if v, ok := p["sweep"]; ok && v != "" {
		sw, isString := v.(string)
		if !isString {
			sw = cronus.ParamShown(v)
		}
		t := "the best on validation of sweep " + sw
		if b, ok := p["budget"]; ok {
			if x, ok := b.(float64); ok {
				t += fmt.Sprintf(" costing at most %g per document", x)
			} else {
				t += " costing at most " + cronus.ParamShown(b)
			}
		}
		parts = append(parts, t)
	}
	// A cut (sweep --cascade-out --first-stages): the stages kept of how many.
	if v, ok := p["first_stages_of"]; ok {
		t := "its first stages of " + cronus.ParamShown(v)
		if K, ok := v.(float64); ok {
			t = fmt.Sprintf("cut from a cascade of %g stages", K)
		}
		parts = append(parts, t)
	}
	// A prefix variant (sweep --cascade-out --variants): the last stage the
	// base ensemble's first n trees.
	if v, ok := p["last_prefix"]; ok {
		t := "its last stage the ensemble's first " + cronus.ParamShown(v) + " trees"
		if n, ok := v.(float64); ok {
			t = fmt.Sprintf("its last stage the ensemble's first %g trees", n)
		}
		parts = append(parts, t)
	}
	return strings.Join(parts, ", ")
}

// paramsText lists a model's params (how train or import made it) as
// "  params       key value, key value, …" in the keys' order, wrapped
// under the first. Strings are shown as they are (escaped as the terminal
// needs), numbers as %g, anything else as short JSON.
func paramsText(p map[string]any) string {
	const indent, width = "  params       ", 78
	var b strings.Builder
	line, empty := indent, true
	for i, k := range slices.Sorted(maps.Keys(p)) {
		var v string
		switch x := p[k].(type) {
		case string:
			v = views.Printable(x)
		case float64:
			v = strconv.FormatFloat(x, 'g', -1, 64)
		default:
			v = cronus.ParamShown(x)
		}
		item := views.Printable(k) + " " + v
		if i < len(p)-1 {
			item += ","
		}
		switch {
		case empty:
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(item) > width:
			b.WriteString(line + "\n")
			line = strings.Repeat(" ", len(indent))
		default:
			line += " "
		}
		line, empty = line+item, false
	}
	b.WriteString(line + "\n")
	return b.String()
}

// maxFeaturesShown is how many features the text summary of a model lists;
// --json lists them all.
const maxFeaturesShown = 30

// formatModelSummary renders a model or cascade summary as text.
func formatModelSummary(s *modelSummary) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: a %s, %s from %s (%s), %s\n", views.Printable(s.File), s.Kind, count(s.Trees, "tree"), s.Source, objectiveSaid(s.Objective), count(s.NumFeatures, "feature"))
	fmt.Fprintf(&b, "  leaves/tree  min %d, median %s, max %d (%d in all)\n", s.Leaves.Min, plainFloat(s.Leaves.Median), s.Leaves.Max, s.Leaves.Total)
	fmt.Fprintf(&b, "  depth        min %d, median %s, max %d\n", s.Depth.Min, plainFloat(s.Depth.Median), s.Depth.Max)
	fmt.Fprintf(&b, "  base score   %g\n", s.BaseScore)
	if s.Kind == "model" && len(s.Params) > 0 {
		b.WriteString(paramsText(s.Params))
	}
	fmt.Fprintf(&b, "  costs        %s\n", views.Printable(s.Costs))
	if s.Kind == "cascade" {
		rule := s.Rule
		if s.TopM > 0 {
			rule = fmt.Sprintf("%s %d", rule, s.TopM)
		}
		fmt.Fprintf(&b, "  cascade      %s, rule %s, σ %g; its stages use %s of %d\n", count(len(s.Stages), "stage"), rule, *s.Sigma, count(*s.TreesUsed, "tree"), s.Trees)
		if o := optimisedText(s.Params); o != "" {
			fmt.Fprintf(&b, "  optimised    %s\n", o)
		}
		fmt.Fprintf(&b, "  stage  trees    new          θ  new features (cost)        cost so far: features + trees\n")
		for _, st := range s.Stages {
			th := "-" // the last stage, which ranks what reaches it
			switch {
			case st.Theta != nil:
				th = fmt.Sprintf("%.4g", *st.Theta)
			case st.Stage < len(s.Stages):
				th = "-inf" // passes everything, as cascade's report reads it
			}
			fmt.Fprintf(&b, "  %5d  %5d  %5d  %9s  %-26s %g + %g = %g\n", st.Stage, st.Trees, st.NewTrees, th,
				fmt.Sprintf("%d (%g)", len(st.NewFeatures), st.NewFeatureCost), st.Cost.Features, st.Cost.Trees, st.Cost.Total)
		}
		fmt.Fprintf(&b, "  cost/doc     at most %g (features %g, trees %g): a document scored by every stage\n", s.Cost.Total, s.Cost.Features, s.Cost.Trees)
	} else {
		fmt.Fprintf(&b, "  cost/doc     %g (features %g, trees %g): every tree on every document\n", s.Cost.Total, s.Cost.Features, s.Cost.Trees)
	}
	scope := "its trees"
	if s.Kind == "cascade" {
		scope = "the trees its stages use"
	}
	fmt.Fprintf(&b, "  features     %d of %d split on by %s\n", s.FeaturesUsed, s.NumFeatures, scope)
	if len(s.Features) > 0 {
		switch {
		case s.Data != "":
			fmt.Fprintf(&b, "  importance   by mean |contribution| to the scores of %s's %d documents (TreeSHAP, as predict --contribs: mean|φ|)", s.Data, s.DataDocs)
			if s.HasGain {
				fmt.Fprintf(&b, "; gain is the total split gain, cover the hessian sum")
			}
			b.WriteString("\n")
		case s.HasGain:
			fmt.Fprintf(&b, "  importance   by total split gain (XGBoost's total_gain, LightGBM's gain); cover is the hessian sum\n")
		default:
			fmt.Fprintf(&b, "  importance   by splits: the model records no split gains (a RankLib import, or a file written before they were)\n")
		}
		named := slices.ContainsFunc(s.Features, func(f featureJSON) bool { return f.Name != "" })
		fmt.Fprintf(&b, "    feature        cost  splits  trees")
		if s.Data != "" {
			fmt.Fprintf(&b, "       mean|φ|   share")
		}
		if s.HasGain {
			fmt.Fprintf(&b, "          gain   share")
		}
		if s.HasCover {
			fmt.Fprintf(&b, "         cover")
		}
		if named {
			fmt.Fprintf(&b, "  name")
		}
		b.WriteString("\n")
		for i, f := range s.Features {
			if i == maxFeaturesShown {
				fmt.Fprintf(&b, "    … %d more (--json lists them all)\n", len(s.Features)-maxFeaturesShown)
				break
			}
			fmt.Fprintf(&b, "    %7d  %10g  %6d  %5d", f.Feature, f.Cost, f.Splits, f.Trees)
			if s.Data != "" {
				fmt.Fprintf(&b, "  %12s  %5.1f%%", statText(*f.MeanAbsContrib), 100**f.ContribShare)
			}
			if s.HasGain {
				fmt.Fprintf(&b, "  %12s  %5.1f%%", statText(*f.Gain), 100**f.GainShare)
			}
			if s.HasCover {
				fmt.Fprintf(&b, "  %12s", statText(*f.Cover))
			}
			if named {
				// The name is the cost file's text: an escape or a carriage
				// return in it would act on the terminal, a tab or a newline
				// break the table. --json keeps it as it is.
				fmt.Fprintf(&b, "  %s", views.Printable(f.Name))
			}
			b.WriteString("\n")
		}
	}
	fmt.Fprintf(&b, "  cost groups\n")
	for _, g := range s.CostGroups {
		fmt.Fprintf(&b, "    cost %-8g %s, %d used, %s", g.Cost, count(g.Features, "feature"), g.Used, count(g.Splits, "split"))
		if g.GainShare != nil {
			fmt.Fprintf(&b, ", %.1f%% of the gain", 100**g.GainShare)
		}
		if g.ContribShare != nil {
			fmt.Fprintf(&b, ", %.1f%% of the mean |contribution|", 100**g.ContribShare)
		}
		b.WriteString("\n")
	}
	return b.String()
}
