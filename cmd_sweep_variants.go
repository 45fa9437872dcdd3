package main

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cronus-ltr/cronus/engine/baseline"
	"github.com/cronus-ltr/cronus/engine/cronus"
)

// sweep --variants: each cascade's variants, written as cronus rows of
// their own (λ#VARIANT in the lambda column), so that the Cronus front of
// one sweep pools the cascades with their cuts and their last stages
// replaced by a prefix of the ensemble, as bench/stage-prefixes.sh,
// bench/last-prefix.sh and bench/cut-prefixes.sh pooled them from files
// (`cronus eval --cascade C --stages k --last-prefix n` per variant).

// variantKinds are the kinds --variants names, in the order their rows
// are written.
var variantKinds = []string{"stages", "last-prefix", "cut-prefix"}

// defaultLastPrefixes is --last-prefixes's default,
// cronus.DefaultLastPrefixes.
var defaultLastPrefixes = intList(cronus.DefaultLastPrefixes)

// intList is ns comma-separated, as a flag gives them.
func intList(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}

// variantSet is the kinds of variant a sweep writes.
type variantSet struct{ stages, last, cut bool }

func (v variantSet) any() bool { return v.stages || v.last || v.cut }

// parseVariants reads --variants: comma-separated kinds of variantKinds,
// or "all"; "" is none.
func parseVariants(s string) (variantSet, error) {
	var v variantSet
	if s == "" {
		return v, nil
	}
	seen := map[string]bool{}
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if seen[f] {
			return v, fmt.Errorf("--variants: each kind must be given once, got %q twice", f)
		}
		seen[f] = true
		switch f {
		case "stages":
			v.stages = true
		case "last-prefix":
			v.last = true
		case "cut-prefix":
			v.cut = true
		case "all":
			v = variantSet{true, true, true}
		default:
			return v, fmt.Errorf("--variants: %q is not a kind of variant; want a comma-separated list of %s, or all", f, strings.Join(variantKinds, ", "))
		}
	}
	return v, nil
}

// maxPrefixLengths bounds how many lengths --last-prefixes may name, so
// that a range such as 1-1000000000 is refused rather than allocated.
const maxPrefixLengths = 100000

// parsePrefixLengths reads --last-prefixes: comma-separated items, each a
// whole number n of at least 1, a range A-B (every n from A to B) or A-B/S
// (A, A+S, … up to B), no n twice; returned in ascending order.
func parsePrefixLengths(s string) ([]int, error) {
	var out []int
	seen := map[int]bool{}
	add := func(n int, item string) error {
		if seen[n] {
			return fmt.Errorf("--last-prefixes: each length must be given once (%d is twice), got %q", n, item)
		}
		if len(out) == maxPrefixLengths {
			return fmt.Errorf("--last-prefixes: at most %d lengths in all, got %q", maxPrefixLengths, item)
		}
		seen[n] = true
		out = append(out, n)
		return nil
	}
	whole := func(f, item string) (int, error) {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 || strings.Trim(f, "0123456789") != "" { // no sign
			return 0, fmt.Errorf("--last-prefixes: each value must be a whole number of at least 1, a range A-B or A-B/S, got %q", item)
		}
		return n, nil
	}
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		span, stepF, stepped := strings.Cut(item, "/")
		from, to, ranged := strings.Cut(span, "-")
		if stepped && !ranged {
			return nil, fmt.Errorf("--last-prefixes: a step /S follows a range A-B, got %q", item)
		}
		a, err := whole(from, item)
		if err != nil {
			return nil, err
		}
		b, step := a, 1
		if ranged {
			if b, err = whole(to, item); err != nil {
				return nil, err
			}
			if b < a {
				return nil, fmt.Errorf("--last-prefixes: a range A-B runs up, from A to B >= A, got %q", item)
			}
		}
		if stepped {
			if step, err = whole(stepF, item); err != nil {
				return nil, err
			}
		}
		for n := a; n <= b; n += step {
			if err := add(n, item); err != nil {
				return nil, err
			}
			if n > b-step { // n+step would pass b (or overflow)
				break
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

// cascadeVariant is one variant of a cascade: its first k stages (k 0:
// all) with the last of them the ensemble's first n trees (n 0: the
// stage's own weights).
type cascadeVariant struct {
	k, n int
	c    *cronus.Cascade
}

// name is the variant's name after λ's # in the curve: "k", "pn" or "kpn".
func (v cascadeVariant) name() string {
	switch {
	case v.n == 0:
		return strconv.Itoa(v.k)
	case v.k == 0:
		return "p" + strconv.Itoa(v.n)
	}
	return strconv.Itoa(v.k) + "p" + strconv.Itoa(v.n)
}

// said names the variant in prose, before "the cascade of λ …": "the
// first 2 of 10 stages, the last the ensemble's first 30 trees, of ".
func (v cascadeVariant) said(K int) string {
	switch {
	case v.n == 0:
		return fmt.Sprintf("the first %d of %d stages of ", v.k, K)
	case v.k == 0:
		return fmt.Sprintf("the last stage the ensemble's first %d trees, in ", v.n)
	}
	return fmt.Sprintf("the first %d of %d stages, the last the ensemble's first %d trees, of ", v.k, K, v.n)
}

// cascadeVariants lists the variants of c of the kinds in set, in the
// order of their rows: the cuts, k = 1 … K−1 (stages); the last stage the
// first n trees for each n of prefixes up to the ensemble's T trees
// (last-prefix); stage k, 1 < k < K, the first n trees (cut-prefix). A
// variant whose stages before the prefix keep no tree is left out: it
// passes every document to the prefix, the prefix baseline itself (so is
// cut-prefix's k = 1, and last-prefix's on a cascade of one stage). The
// cuts (n 0) have no cascade here: cronus.EvaluateCuts scores them all in
// one pass.
func cascadeVariants(c *cronus.Cascade, set variantSet, prefixes []int, T int, base float64) []cascadeVariant {
	K := len(c.Stages)
	first := c.FirstKept()
	var out []cascadeVariant
	if set.stages {
		for k := 1; k < K; k++ {
			out = append(out, cascadeVariant{k: k})
		}
	}
	if set.last && first < K-1 {
		for _, n := range prefixes {
			if n <= T {
				out = append(out, cascadeVariant{n: n, c: c.LastPrefix(n, base)})
			}
		}
	}
	if set.cut {
		for k := first + 2; k < K; k++ {
			cut := c.FirstStages(k)
			for _, n := range prefixes {
				if n <= T {
					out = append(out, cascadeVariant{k: k, n: n, c: cut.LastPrefix(n, base)})
				}
			}
		}
	}
	return out
}

// variantEval is a variant scored on valid and test.
type variantEval struct {
	cascadeVariant
	v, t cronus.Eval
}

// scoreVariants scores the variants of c (cascadeVariants) on valid and
// test, stopping when ctx is done; show reports how far it is (variant i
// of n).
func (s *setup) scoreVariants(ctx context.Context, c *cronus.Cascade, set variantSet, prefixes []int, show func(i, n int)) ([]variantEval, error) {
	vs := cascadeVariants(c, set, prefixes, len(s.e.Trees), s.e.Base)
	out := make([]variantEval, len(vs))
	var cv, ct []cronus.Eval
	eval := s.evaluator()
	for i, v := range vs {
		show(i, len(vs))
		out[i].cascadeVariant = v
		var err error
		if v.n == 0 {
			if cv == nil {
				if cv, ct, err = s.cutsEvaluator()(ctx, c); err != nil {
					return nil, err
				}
			}
			out[i].v, out[i].t = cv[v.k-1], ct[v.k-1]
			continue
		}
		if out[i].v, out[i].t, err = eval(ctx, v.c); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// applyVariant makes f, the file of a cascade, the variant's: its first k
// stages, the last of them the ensemble's first n trees.
func applyVariant(f *cronus.File, k, n int) error {
	if k > 0 {
		if err := f.FirstStages(k); err != nil {
			return err
		}
	}
	if n > 0 {
		return f.LastStagePrefix(n)
	}
	return nil
}

// variantsSaid is the stdout summary's note of the n variants written
// (", 144 variants of the cascades (λ#variant)"), each a row per split.
func variantsSaid(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(", %s of the cascades (λ#variant)", count(n, "variant"))
}

// variantsFrontMethod is the plot's series of the Cronus front with the
// variants.
const variantsFrontMethod = "cronus with variants (front)"

// variantPlotPoints is what sweep --plot draws of points: every point but
// the variants (a cloud of them around each cascade made the cronus line
// zigzag), and, when there are variants, per split the Pareto front of the
// cronus rows with them as a series of its own, variantsFrontMethod.
func variantPlotPoints(points []baseline.Point) []baseline.Point {
	var out, cr []baseline.Point
	var splits []string
	for _, p := range points {
		if p.Variant == "" {
			out = append(out, p)
		}
		if p.Method == "cronus" {
			cr = append(cr, p)
			if !slices.Contains(splits, p.Split) {
				splits = append(splits, p.Split)
			}
		}
	}
	if len(out) == len(points) {
		return points
	}
	for _, sp := range splits {
		for _, p := range baseline.SplitPareto(cr, sp, frontMetric) {
			p.Method = variantsFrontMethod
			out = append(out, p)
		}
	}
	return out
}
