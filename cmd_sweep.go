package main

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/baseline"
	"github.com/cronus-ltr/cronus/engine/cronus"
	"github.com/cronus-ltr/cronus/engine/metric"
	"github.com/cronus-ltr/cronus/views"
)

// sweepPrefix says where a sweep is, into λ number i+1 of n, which started
// after elapsed, of which setup went before the first λ (reading the data,
// the tree outputs): "sweep 3/8 (1m20s, about 2m40s left) · ". The time so
// far goes on from there, and the estimate made when the λ started (the
// time per λ so far, for each λ left) counts down, to 0 at the most: both
// stood still for the whole λ before (a line said "4m36s" 76 s after). The
// set-up is no λ's: counted as the first's, the estimate ran high.
func sweepPrefix(i, n int, setup, elapsed, into time.Duration) string {
	if i == 0 || elapsed < time.Second {
		return fmt.Sprintf("sweep %d/%d · ", i+1, n)
	}
	left := max(time.Duration(float64(elapsed-setup)*float64(n-i)/float64(i))-into, 0)
	return fmt.Sprintf("sweep %d/%d (%s, about %s left) · ", i+1, n, (elapsed + into).Round(time.Second), left.Round(time.Second))
}

// parseLambdas reads FROM:TO:N into N values spaced evenly on a log scale,
// within (0, cronus.MaxLambda] as --lambda is. An error names the part
// that is wrong (`--lambdas: TO must be in [1, 100] (from FROM; fractions
// of λ_max), got "0.1"`).
func parseLambdas(s string) ([]float64, error) {
	f := strings.Split(s, ":")
	if len(f) != 3 {
		return nil, fmt.Errorf("--lambdas: must be FROM:TO:N, e.g. 0.001:0.5:8, got %q", s)
	}
	bad := func(part, want, v string) error {
		return fmt.Errorf("--lambdas: %s must be %s, got %q", part, want, v)
	}
	from, want := parseIn(between("lambdas", 0, cronus.MaxLambda, "(]"), "fractions of λ_max", f[0])
	if want != "" {
		return nil, bad("FROM", want, f[0])
	}
	to, want := parseIn(between("lambdas", from, cronus.MaxLambda, "[]"), "from FROM; fractions of λ_max", f[1])
	if want != "" {
		return nil, bad("TO", want, f[1])
	}
	if math.IsInf(to/from, 1) {
		return nil, bad("FROM", fmt.Sprintf("at least TO/%v", math.MaxFloat64), f[0])
	}
	n, err := strconv.Atoi(f[2])
	if err != nil || n < 1 || n > 1000 {
		return nil, bad("N", "a whole number in [1, 1000]", f[2])
	}
	if n == 1 && to != from {
		// One value cannot span FROM to TO; it was FROM, TO dropped.
		return nil, bad("N", "at least 2 when TO differs from FROM (FROM:FROM:1 is one λ)", f[2])
	}
	if n > 1 && to == from {
		return nil, bad("N", fmt.Sprintf("1 when TO is FROM (%d would sweep the same λ %d times)", n, n), f[2])
	}
	out := make([]float64, n)
	for i := range out {
		if n == 1 {
			out[i] = from
			continue
		}
		// min: Pow can round the last value just past TO (11:100:2 gave
		// 100.00000000000001, beyond MaxLambda).
		out[i] = min(from*math.Pow(to/from, float64(i)/float64(n-1)), to)
		if i > 0 && out[i] <= out[i-1] {
			// FROM and TO a few float64 steps apart: a λ would be swept
			// twice, its rows repeated in the curve.
			return nil, bad("N", fmt.Sprintf("smaller: from %s to %s, %d values give some λ twice", f[0], f[1], n), f[2])
		}
	}
	return out, nil
}

// parseMargins reads --exit-margins, early exit's margin grid
// (comma-separated numbers s >= 0, "inf" for +Inf): each margin once,
// returned in ascending order, so that the early-exit rows come in order of
// cost (a larger margin lets fewer documents exit); "1,0,0.5" wrote its
// rows in that order, and "0,0" two equal rows.
func parseMargins(s string) ([]float64, error) {
	m, err := parseFloats(atLeast("exit-margins", 0), "inf: the full ensemble", s)
	if err != nil {
		return nil, err
	}
	slices.Sort(m)
	return m, nil
}

// formatMargins writes a margin grid as parseMargins reads it.
func formatMargins(m []float64) string {
	f := make([]string, len(m))
	for i, v := range m {
		f[i] = strconv.FormatFloat(v, 'g', -1, 64)
		if math.IsInf(v, 1) {
			f[i] = "inf"
		}
	}
	return strings.Join(f, ",")
}

// maxRefine is the most --refine takes.
const maxRefine = 1000

func runSweep(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("sweep", stdout)
	cf := addCascadeFlags(fs)
	lambdasF := fs.String("lambdas", "0.002:0.5:8", "λ grid `FROM:TO:N`, fractions of λ_max, log-spaced; from λ_max up, where Algorithm 2 gives the empty cascade, the optimisation also continues from the cascade of a smaller λ and is kept when it lowers eq (8)")
	out := fs.String("out", "", "curve `FILE` (CSV) to write (required)")
	plot := fs.String("plot", "", "also draw NDCG@10 against cost per document to `FILE` (.svg or .png)")
	jsonOut := fs.Bool("json", false, "print a JSON report: λ_max, per λ the ρ chosen, the timings and the cascade's validation figures, and per split the Pareto front (cost against NDCG@10)")
	marginsF := fs.String("exit-margins", formatMargins(baseline.DefaultExitMargins), "early exit's margins `LIST`: comma-separated scores s >= 0 in the model's raw score units, inf = the full ensemble (scale them with the model's scores)")
	exitEvery := fs.Int("exit-every", baseline.DefaultExitEvery, "early exit: an exit every `N` trees")
	everyPrefix := fs.Bool("every-prefix", false, "write a prefix row for every number of trees (by default the 12 geometric counts and those no shorter prefix beats, which make the same front)")
	refine := fs.Int("refine", 0, "after the grid, up to `N` more λ, each where a baseline's validation point lies furthest above the Cronus front (between the two λ whose cascades cost less and more than it, or past the grid's ends); stops early when no baseline is above it")
	cascadeOut := fs.String("cascade-out", "", "also write to `FILE` the Cronus cascade of the sweep (a cronus row's) with the best validation NDCG@10 among those costing at most --budget per document on validation (ties: the cheaper)")
	perQuery := fs.String("per-query", "", "also write `FILE`, TSV: every point's p@5, NDCG@10 and ERR@3 on each query of its split (method, split, lambda as in the curve, qid, the three metrics), whose means are the curve's, for paired tests between points (bench/paired.py)")
	budget := fs.Float64("budget", math.Inf(1), "with --cascade-out: the most `COST` per document on validation the cascade written may have (+Inf: no limit)")
	firstStages := fs.Bool("first-stages", false, "with --cascade-out: also weigh each cascade's first k stages, k < K (predict --stages k), a cheaper cascade of their own, and write the cut when it is the one chosen")
	variantsF := fs.String("variants", "", "also write each cascade's variants `LIST` as cronus rows of their own, λ#VARIANT in the lambda column: comma-separated stages (its first k stages, k < K: λ#k; predict --stages k runs one), last-prefix (its last stage the ensemble's first n trees, for each n of --last-prefixes: λ#pn; predict --last-prefix n), cut-prefix (both: stage k, 1 < k < K, the first n trees: λ#kpn), or all; they join the Cronus front, and --cascade-out weighs them too")
	lastPrefixesF := fs.String("last-prefixes", defaultLastPrefixes, "with --variants last-prefix or cut-prefix: the prefix lengths `LIST` n, comma-separated, each a number, a range A-B (every n from A to B) or A-B/S (every S-th); those above the model's trees are left out")
	more := []flagRange{atLeast("exit-every", 1), between("refine", 0, maxRefine, "[]"), atLeast("budget", 0)}
	if err := parseNoArgs(fs, args, slices.Concat(cascadeRanges, more)...); err != nil {
		return err
	}
	if *out == "" {
		return usageError{"--out FILE is required"}
	}
	margins, err := parseMargins(*marginsF)
	if err != nil {
		return usageError{err.Error()}
	}
	if err := cf.check(fs, more...); err != nil {
		return err
	}
	if err := checkPlot(*plot); err != nil {
		return err
	}
	if explicitFlags(fs)["budget"] && *cascadeOut == "" {
		return usageError{"--budget chooses the cascade --cascade-out FILE writes: give that file too"}
	}
	if explicitFlags(fs)["variants"] && strings.TrimSpace(*variantsF) == "" {
		// As for the other lists: an unset shell variable in
		// --variants "$V" would otherwise drop the variants silently.
		return usageError{"--variants is empty; want a comma-separated list of " + strings.Join(variantKinds, ", ") + ", or all (leave the flag out for none)"}
	}
	variants, err := parseVariants(*variantsF)
	if err != nil {
		return usageError{err.Error()}
	}
	prefixLens, err := parsePrefixLengths(*lastPrefixesF)
	if err != nil {
		return usageError{err.Error()}
	}
	if explicitFlags(fs)["last-prefixes"] && !variants.last && !variants.cut {
		return usageError{"--last-prefixes are the prefixes of --variants last-prefix and cut-prefix: give one of those too"}
	}
	if *firstStages && *cascadeOut == "" {
		return usageError{"--first-stages weighs the cuts of the cascades for the one --cascade-out FILE writes: give that file too (eval and predict --stages k run a cut)"}
	}
	if err := checkOutputs(&stdout, stderr, *jsonOut, cf.inputs(), *out, *plot, *cascadeOut, *perQuery); err != nil {
		return err
	}
	lambdas, err := parseLambdas(*lambdasF)
	if err != nil {
		return usageError{err.Error()}
	}
	rhos, err := cf.rhoGrid(fs)
	if err != nil {
		return err
	}
	start := time.Now()
	s, err := cf.load(ctx, stderr)
	if err != nil {
		return err
	}
	if n := len(s.e.Trees); (variants.last || variants.cut) && prefixLens[0] > n {
		return usageError{fmt.Sprintf("--last-prefixes %s: %s; a prefix must have at most that many", *lastPrefixesF, cf.treesSaid(n))}
	}
	if n := len(s.e.Trees); *exitEvery >= n && explicitFlags(fs)["exit-every"] {
		// no exit before the end: every margin gave the full ensemble (the
		// default, 10, on a model of 10 trees or fewer gives such rows)
		return usageError{fmt.Sprintf("--exit-every %d: %s; an exit every N trees needs N below that", *exitEvery, cf.treesSaid(n))}
	}
	p := cf.newProgress(stderr)
	// One clock for the sweep's lines, from the command's start, as the
	// baselines' "(12s)" count: the λ lines' time so far began after the
	// loading, and the baselines' then jumped ahead of it.
	p.start = start
	defer p.done() // an error or an interrupt clears the line too
	var points []baseline.Point
	splits := s.splits()
	var perLambda []map[string]any // the --json report's "lambdas"
	idleWarned := false
	variantsWritten := 0 // --variants: how many, over every λ
	// Every λ's best cascade, for the runs where Algorithm 2 gives nothing
	// to continue from.
	type sweptRun struct {
		lam  float64
		par  cronus.Params
		best *cronus.State // the best on validation, before any refit (--refit): a warm start continues eq (8)'s optimisation
	}
	var runs []sweptRun
	// --cascade-out: the best cronus row on validation within the budget
	// so far, and the cheapest cascade of all, for the error when none is
	// within it.
	type chosenRun struct {
		lam   float64
		par   cronus.Params
		best  *cronus.State
		refit string
		from  float64 // the λ a continued run (trees may re-enter) started from, or 0
		v, t  cronus.Eval
		k     int // --first-stages or a variant: the stages kept (a cut when fewer than best's), or 0: all
		n     int // a variant: its last stage the ensemble's first n trees, or 0: the stage's own
	}
	var chosen, cheapest *chosenRun
	// sweepOne runs λ: the single stage, the initialised and the optimised
	// cascade, their points appended to points. From λ_max up Algorithm 2
	// gives the empty cascade (its first stage faces at least λ_max, so it
	// passes everything on, and every stage after it faces the same);
	// where it does, the cyclic optimisation also continues from the
	// cascade of the largest smaller λ swept that keeps a tree, and that
	// run is kept when its eq (8) ends below the empty cascade's
	// (continueFrom).
	sweepOne := func(lam float64, refined bool) error {
		par := cf.par
		par.Lambda = lam
		entry := map[string]any{"lambda": lam}
		var res *cronus.Outcome
		var init cronus.Options
		var err error
		// From λ_max up Algorithm 2 and the single stage are empty at any
		// ρ, unless some tree is free (a tree cost of 0 and only free
		// features): λ_max leaves such trees out, and they enter at any λ,
		// so there ρ is chosen and the single stage scored as below λ_max
		// (before, the sweep skipped both, and its single stage, which
		// keeps the free trees, had no rows there). Where λ_max is 0
		// every λ of the grid, a fraction of it, is λ_max itself (the
		// same problem, every weight zero): the sweep chose ρ and wrote
		// the empty single stage's rows below λ 1 and not from it.
		past := (lam >= 1 || s.sc.LambdaMax == 0) && s.sc.FreeTrees == 0
		if !past {
			p.show("λ = %.3g × λ_max: choosing ρ", lam)
			if init, err = s.chooseRho(ctx, &par, rhos, cf.pickRho(), func(i, n int, stages float64, elapsed time.Duration) {
				p.show("λ = %.3g × λ_max: %s", lam, rhoProgress(i, n, stages, par.K, elapsed))
			}); err != nil {
				return err
			}
			// A ρ given (--rho1/--rhoK, or one --rhos) is not chosen, and
			// chooseRho gives no initialisation: make it here, to see
			// whether it is empty, and for the optimisation to start from.
			if init.Init == nil && cf.cycles > 0 {
				start := time.Now()
				if init.Init, err = s.initialize(ctx, par, p, fmt.Sprintf("λ = %.3g × λ_max: ", lam)); err != nil {
					return err
				}
				init.InitTime = time.Since(start)
			}
		}
		// Where Algorithm 2 gives the empty cascade: from λ_max up always
		// (every ρ gives it, so ρ is not chosen), below it when the ρ
		// chosen gives it.
		var src *sweptRun
		if cf.cycles > 0 && (past || init.Init != nil && !hasTrees(&init.Init.Cascade)) {
			for i := range runs {
				r := &runs[i]
				if r.lam < lam && (src == nil || r.lam > src.lam) && hasTrees(&r.best.Cascade) {
					src = r
				}
			}
		}
		if src != nil {
			par.Rho1, par.RhoK = src.par.Rho1, src.par.RhoK
			p.show("λ = %.3g × λ_max: continuing from λ = %.3g", lam, src.lam)
			if res, init, err = s.continueFrom(ctx, cf, par, src.best, p); err != nil {
				return err
			}
			entry["algorithm2_objective"] = init.Init.Terms.Total
			if res != nil {
				entry["continued_from"] = src.lam
			}
		}
		// The single stage: a one-stage cascade (eq 7). From λ_max up it
		// is empty, the same at every λ, and has no rows. Its ρ is its
		// own, chosen on validation over the grid as the cascade's is
		// (cascade --stages 1 --cycles 0 makes the same stage): with the
		// cascade's ρ it was a weaker baseline than need be.
		if !past {
			one := par
			one.K = 1
			oneInit, err := s.chooseRho(ctx, &one, rhos, cf.pickRho(), func(i, n int, stages float64, elapsed time.Duration) {
				p.show("λ = %.3g × λ_max: the single stage's %s", lam, rhoProgress(i, n, stages, one.K, elapsed))
			})
			if err != nil {
				return err
			}
			st := oneInit.Init
			if st == nil { // a ρ given, not chosen
				if st, err = cronus.Initialize(ctx, s.pr, s.sc, one); err != nil {
					return err
				}
			}
			if points, err = s.scorePoints(ctx, points, baseline.MethodSingleStage, lam, &st.Cascade); err != nil {
				return err
			}
			// The one stage is the last: Initialize gives it ρ_K, which
			// differs from ρ_1 when --rho1 and --rhoK differ.
			entry["single_stage_rho"] = one.RhoK
		}
		if res == nil {
			if res, err = s.optimize(ctx, cf, par, init, p, nil); err != nil {
				return err
			}
			if !idleWarned && !past { // the stages of the λ grid start alike (ε)
				idle := s.idleWarning(&res.Init.Cascade, false)
				warn(stderr, idle)
				idleWarned = idle != ""
			}
		}
		if points, err = s.scorePoints(ctx, points, "cronus-init", lam, &res.Init.Cascade); err != nil {
			return err
		}
		v, t, err := s.evaluator()(ctx, &res.Best.Cascade)
		if err != nil {
			return err
		}
		points = s.points(points, "cronus", lam, v, t)
		var vars []variantEval
		if variants.any() {
			if vars, err = s.scoreVariants(ctx, &res.Best.Cascade, variants, prefixLens, func(i, n int) {
				p.show("λ = %.3g × λ_max: the cascade's variants, %d of %d", lam, i+1, n)
			}); err != nil {
				return err
			}
			for _, ve := range vars {
				from := len(points)
				points = s.points(points, "cronus", lam, ve.v, ve.t)
				for j := from; j < len(points); j++ {
					points[j].Variant = ve.name()
				}
			}
			entry["variants"] = len(vars)
			variantsWritten += len(vars)
		}
		if *cascadeOut != "" {
			c := &chosenRun{lam: lam, par: par, best: res.Best, refit: res.Refit, v: v, t: t}
			if src != nil && entry["continued_from"] != nil {
				c.from = src.lam
			}
			ahead := func(a, b *chosenRun) bool { // a ahead of b
				q, qb := a.v.Metrics[frontMetric], b.v.Metrics[frontMetric]
				return q > qb || q == qb && a.v.Cost.Total < b.v.Cost.Total
			}
			consider := func(c *chosenRun) {
				if c.v.Cost.Total <= *budget && (chosen == nil || ahead(c, chosen)) {
					chosen = c
				}
				if cheapest == nil || c.v.Cost.Total < cheapest.v.Cost.Total {
					cheapest = c
				}
			}
			consider(c)
			// The variants written, and with --first-stages the cuts,
			// weighed but not written unless --variants has them.
			weigh := vars
			if *firstStages && !variants.stages {
				K := len(res.Best.Cascade.Stages)
				cuts, err := s.scoreVariants(ctx, &res.Best.Cascade, variantSet{stages: true}, nil, func(int, int) {
					p.show("λ = %.3g × λ_max: the cascade's first k of %d stages", lam, K)
				})
				if err != nil {
					return err
				}
				weigh = append(slices.Clip(vars), cuts...)
			}
			for _, ve := range weigh {
				va := *c
				va.v, va.t, va.k, va.n = ve.v, ve.t, ve.k, ve.n
				consider(&va)
			}
		}
		runs = append(runs, sweptRun{lam: lam, par: par, best: res.Own()})
		entry["rho1"], entry["rhoK"] = par.Rho1, par.RhoK
		entry["init_seconds"], entry["cyclic_seconds"] = res.InitTime.Seconds(), res.CyclicTime.Seconds()
		entry["objective"] = res.Final.Terms.Total
		if cf.refit {
			entry["refit"] = res.Refit
		}
		entry["valid"] = map[string]any{"metrics": v.Metrics, "cost": v.Cost}
		if refined {
			entry["refined"] = true
		}
		perLambda = append(perLambda, entry)
		return nil
	}
	swept := slices.Clone(lambdas)
	setup := time.Since(p.start)
	for i, lam := range lambdas {
		if err := ctx.Err(); err != nil {
			return err
		}
		elapsed, began := time.Since(p.start), time.Now()
		p.prefixAt = func() string { return sweepPrefix(i, len(lambdas), setup, elapsed, time.Since(began)) }
		if err := sweepOne(lam, false); err != nil {
			return err
		}
	}
	p.prefixAt = nil
	p.done()
	// The baselines, split by split; they go after every λ's rows.
	var bases []baseline.Point
	// Every prefix is scored (by NDCG@10 alone, then those kept by every
	// metric); the curve keeps the 12 geometric counts and every count no
	// shorter prefix beats on a split, so that the baseline front (and
	// --refine, which looks for where it is above Cronus's) is that of
	// every prefix: with the 12 alone it missed strong ones.
	ks := baseline.AllSteps(len(s.e.Trees))
	if !*everyPrefix {
		p.show("baselines: every prefix of the ensemble (%.0fs)", time.Since(start).Seconds())
		var ds []*data.Dataset
		for _, sp := range splits {
			ds = append(ds, sp.d)
		}
		var err error
		if ks, err = baseline.KeptPrefixCounts(ctx, s.e, ds, s.costs.Cost, cf.treeCost, baseline.PrefixSteps(len(s.e.Trees), 12), reportSpecs[1], metric.Options{}); err != nil {
			return err
		}
	}
	for _, sp := range splits {
		if sp.d == nil {
			continue
		}
		p.show("baselines on %s: the ensemble's prefixes and early exit (%.0fs)", sp.name, time.Since(start).Seconds())
		prefix, err := baseline.Prefix(ctx, s.e, sp.d, sp.name, s.costs.Cost, cf.treeCost, ks, reportSpecs, metric.Options{})
		if err != nil {
			return err
		}
		exits, err := baseline.EarlyExit(ctx, s.e, sp.d, sp.name, s.costs.Cost, cf.treeCost, *exitEvery, margins, reportSpecs, metric.Options{})
		if err != nil {
			return err
		}
		bases = append(append(bases, prefix...), exits...)
	}
	p.done()
	// --refine: more λ where a baseline beats Cronus on validation. It
	// looks at the prefixes kept, with --every-prefix too (thinned here
	// as they would be without it), so that the flag changes the rows
	// written and not the λ run: a prefix no shorter one beats is the
	// same target either way, and a dominated one could become one.
	refineBases := bases
	if *everyPrefix {
		refineBases = baseline.KeepPrefix(bases, baseline.PrefixSteps(len(s.e.Trees), 12), frontMetric)
	}
	refinedN := 0
	// λ_max 0 (free trees alone, as setup warns): every λ is the same
	// problem, and each refinement would run it again.
	for refinedN < *refine && s.sc.LambdaMax > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		// The cascades' variants are not looked at, so that --variants
		// changes the rows written and not the λ run.
		own := slices.DeleteFunc(slices.Clone(points), func(p baseline.Point) bool { return p.Variant != "" })
		lam, why, ok := nextLambda(append(own, refineBases...), swept)
		if !ok {
			break
		}
		p.prefix = fmt.Sprintf("refine %d/%d (%s) · ", refinedN+1, *refine, why)
		if err := sweepOne(lam, true); err != nil {
			return err
		}
		swept = append(swept, lam)
		refinedN++
	}
	p.prefix = ""
	p.done()
	warn(stderr, sweepEmptyWarning(runs, func(r sweptRun) bool { return hasTrees(&r.best.Cascade) }, func(r sweptRun) float64 { return r.lam }, s.sc.LambdaMax, cf.train))
	points = append(points, bases...)
	// The curve and the plot are written together, all or none.
	outs := []data.Output{baseline.CSVOutput(*out, points)}
	if outs, err = cf.addPlot(outs, *plot, variantPlotPoints(points)); err != nil {
		return err
	}
	if *perQuery != "" {
		qids := map[string][]int64{}
		for _, sp := range splits {
			if sp.d != nil {
				qids[sp.name] = sp.d.QueryIDs
			}
		}
		outs = append(outs, pointsPerQueryOutput(*perQuery, points, qids))
	}
	if chosen != nil {
		extra := map[string]any{"sweep": *out}
		if chosen.from != 0 {
			extra["continued_from"] = chosen.from
		}
		if !math.IsInf(*budget, 1) {
			extra["budget"] = *budget
		}
		f := s.cascadeFile(cf, chosen.par, chosen.best, chosen.refit, cf.reenter || chosen.from != 0, extra)
		if err := applyVariant(f, chosen.k, chosen.n); err != nil {
			return err
		}
		cascadeOut, err := cronus.FileOutputContext(ctx, *cascadeOut, f)
		if err != nil {
			return err
		}
		outs = append(outs, cascadeOut)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := data.WriteAtomicAllContext(ctx, outs); err != nil {
		return err
	}
	if *cascadeOut != "" && chosen == nil {
		// The curve is written (it took the whole sweep); the cascade is
		// not, and the exit status says so.
		written := views.Printable(*out)
		for _, o := range []string{*plot, *perQuery} {
			if o != "" {
				written += ", " + views.Printable(o)
			}
		}
		what := fmt.Sprintf("λ %.4g × λ_max", cheapest.lam)
		if cheapest.k > 0 || cheapest.n > 0 {
			what = cascadeVariant{k: cheapest.k, n: cheapest.n}.said(len(cheapest.best.Cascade.Stages)) + what
		}
		return fmt.Errorf("--budget %g: no cascade of the sweep costs at most that per document on validation (the cheapest, %s, costs %.1f); %s written, %s not: a larger λ gives cheaper cascades",
			*budget, what, cheapest.v.Cost.Total, written, views.Printable(*cascadeOut))
	}
	fronts := map[string][]baseline.Point{}
	for _, sp := range splits {
		if sp.d != nil {
			fronts[sp.name] = baseline.SplitPareto(points, sp.name, frontMetric)
		}
	}
	if *jsonOut {
		// Each λ's cascade against the best baseline at no higher cost,
		// split by split, query by query (bench/front.py's pairing,
		// bench/paired.py's test).
		for _, entry := range perLambda {
			vs := map[string]any{}
			lam := entry["lambda"].(float64)
			for _, p := range points {
				if p.Method == "cronus" && p.Lambda == lam && p.Variant == "" {
					if c, ok := againstBaseline(ctx, p, points); ok {
						vs[p.Split] = c
					}
				}
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			if len(vs) > 0 {
				entry["against_baseline"] = vs
			}
		}
		pareto := map[string]any{}
		for split, front := range fronts {
			pareto[split] = frontJSON(front)
		}
		r := map[string]any{"curve": *out, "points": len(points), "lambda_max": s.sc.LambdaMax,
			"lambdas": perLambda, "seconds": time.Since(start).Seconds(), "threads": runtime.GOMAXPROCS(0), "pareto": pareto}
		if *plot != "" {
			r["plot"] = *plot
		}
		if *perQuery != "" {
			r["per_query"] = *perQuery
		}
		if cf.reenter {
			r["reenter"] = true
		}
		if k := int(*cf.trees); k >= 0 {
			r["model_trees"] = k // --trees: the curve is of the model's first k trees
		}
		if *refine > 0 {
			r["refined"] = refinedN
		}
		if chosen != nil {
			c := map[string]any{"file": *cascadeOut, "lambda": chosen.lam, "rho1": chosen.par.Rho1, "rhoK": chosen.par.RhoK, "valid": evalJSON(chosen.v)}
			if chosen.k > 0 {
				c["stages"], c["first_stages_of"] = chosen.k, len(chosen.best.Cascade.Stages)
			}
			if chosen.n > 0 {
				c["last_prefix"] = chosen.n
			}
			if chosen.k > 0 || chosen.n > 0 {
				c["variant"] = cascadeVariant{k: chosen.k, n: chosen.n}.name()
			}
			if s.test != nil {
				c["test"] = evalJSON(chosen.t)
			}
			if !math.IsInf(*budget, 1) {
				c["budget"] = *budget
			}
			r["cascade"] = c
		}
		return writeJSON(stdout, r)
	}
	values := count(len(lambdas), "λ value")
	if *refine > 0 {
		values += fmt.Sprintf(" and %d refined", refinedN)
	}
	fmt.Fprintf(stdout, "wrote %s: %s (%s%s; methods cronus, cronus-init, single-stage, prefix, early-exit)\n", views.Printable(*out), count(len(points), "point"), values, variantsSaid(variantsWritten))
	for _, sp := range splits {
		front, ok := fronts[sp.name]
		if !ok {
			continue
		}
		fmt.Fprintf(stdout, "Pareto front, %s (%s against cost per document, all methods): %s\n", sp.name, frontMetric, count(len(front), "point"))
		for _, p := range front {
			fmt.Fprintf(stdout, "  %-12s %-12s cost/doc %8.1f  %s %.4f\n", p.Method, knob(p), p.Cost.Total, frontMetric, p.Metrics[frontMetric])
		}
	}
	if chosen != nil {
		within := ""
		if !math.IsInf(*budget, 1) {
			within = fmt.Sprintf(" costing at most %g per document", *budget)
		}
		what := fmt.Sprintf("the cascade of λ %.4g × λ_max", chosen.lam)
		if chosen.k > 0 || chosen.n > 0 {
			what = cascadeVariant{k: chosen.k, n: chosen.n}.said(len(chosen.best.Cascade.Stages)) + what
		}
		fmt.Fprintf(stdout, "wrote %s: %s, the best on validation %s of those%s\n", views.Printable(*cascadeOut), what, frontMetric, within)
		for _, sp := range splits {
			if sp.d == nil {
				continue
			}
			ev := chosen.v
			if sp.name == "test" {
				ev = chosen.t
			}
			fmt.Fprintf(stdout, "  %-5s %s %.4f  cost/doc %.1f\n", sp.name, frontMetric, ev.Metrics[frontMetric], ev.Cost.Total)
		}
	}
	return nil
}

// againstBaseline sets the Cronus point p against the best baseline point
// of points on its split at no higher cost (baseline.BestBaseline, on
// NDCG@10), for sweep --json: the baseline's method, λ, cost and NDCG@10,
// p's NDCG@10 less the baseline's and, when both have per-query values,
// that difference's paired standard error and the two-sided p of
// Student's paired t test (metric.ComparePaired, as eval --compare's
// p_t). ok is false when no baseline costs that little.
func againstBaseline(ctx context.Context, p baseline.Point, points []baseline.Point) (c map[string]any, ok bool) {
	b, ok := baseline.BestBaseline(points, p.Split, frontMetric, p.Cost.Total)
	if !ok {
		return nil, false
	}
	c = map[string]any{"method": b.Method, "lambda": jsonNum(b.Lambda), "cost": b.Cost.Total, frontMetric: b.Metrics[frontMetric],
		"diff": p.Metrics[frontMetric] - b.Metrics[frontMetric]}
	x, y := p.PerQuery[frontMetric], b.PerQuery[frontMetric]
	if x != nil && len(x) == len(y) {
		if pc, err := metric.ComparePaired(ctx, x, y, 0, 0, nil); err == nil {
			c["queries"], c["se"], c["p_t"] = pc.Queries, jsonNum(pc.SE), jsonNum(pc.PT)
		}
	}
	return c, true
}

// pointsPerQueryOutput is sweep --per-query's file, TSV: a header
//
//	method	split	lambda	qid	p@5	ndcg@10	err@3
//
// then, for every point in order, a line per query of its split (qids,
// by split name) with the point's method, split and λ as the curve has
// them (baseline.WriteCSV's numbers) and its value of each metric on the
// query ("NaN" where a query has none). A point without per-query values
// has no lines.
func pointsPerQueryOutput(path string, points []baseline.Point, qids map[string][]int64) data.Output {
	return data.Output{Path: path, Write: func(w *bufio.Writer) error {
		names := []string{"p@5", "ndcg@10", "err@3"}
		w.WriteString("method\tsplit\tlambda\tqid\t" + strings.Join(names, "\t") + "\n")
		for _, p := range points {
			ids := qids[p.Split]
			if p.PerQuery == nil || len(ids) == 0 {
				continue
			}
			lead := p.Method + "\t" + p.Split + "\t" + p.LambdaLabel() + "\t"
			for q, id := range ids {
				w.WriteString(lead + strconv.FormatInt(id, 10))
				for _, m := range names {
					v := math.NaN()
					if pq := p.PerQuery[m]; q < len(pq) {
						v = pq[q]
					}
					w.WriteString("\t" + strconv.FormatFloat(v, 'g', -1, 64))
				}
				if err := w.WriteByte('\n'); err != nil {
					return err
				}
			}
		}
		return nil
	}}
}

// sweepEmptyWarning says when no λ swept (runs, with keeps and lam
// telling whether a run's optimised cascade keeps a tree and its λ) gave a
// cascade that keeps a tree, so that every cronus row is the empty
// cascade's (cost 0), and why: λ_max 0 (no tree fits the training
// targets of train better than the intercept), a grid at or above λ_max
// with nothing smaller to continue from, or ρ. Before, a sweep wrote such
// a curve and said nothing.
func sweepEmptyWarning[R any](runs []R, keeps func(R) bool, lam func(R) float64, lambdaMax float64, train string) string {
	if len(runs) == 0 || slices.ContainsFunc(runs, keeps) {
		return ""
	}
	const head = "every cascade of the sweep is empty (no trees, cost 0: its cronus rows rank every document alike, in input order)"
	switch {
	case lambdaMax == 0:
		return head + ": " + lambdaMaxZeroWhy(train)
	case !slices.ContainsFunc(runs, func(r R) bool { return lam(r) < 1 }):
		return fmt.Sprintf("%s: every λ of the grid is at or above λ_max, where Algorithm 2 gives the empty cascade, and no smaller λ was swept to continue from; sweep λ below 1 too (--lambdas FROM:TO:N, fractions of λ_max)", head)
	default:
		return fmt.Sprintf("%s at the ρ chosen or given for each λ: a smaller λ or ρ keeps trees", head)
	}
}

// hasTrees reports whether a stage of c keeps a tree.
func hasTrees(c *cronus.Cascade) bool {
	for i := range c.Stages {
		if len(c.Stages[i].Active()) > 0 {
			return true
		}
	}
	return false
}

// continueFrom runs the cyclic optimisation at par.Lambda from the cascade
// from, optimised at a smaller λ (trees may re-enter, as with cascade
// --warm), for a λ where Algorithm 2 gives the empty cascade, as it does
// from λ_max up. eq (8) is not convex in the exits, and a cascade whose
// first stage keeps a tree can have the lower objective there: its later
// stages are reached by fewer documents and pay less (on bench/cascade.sh's
// synthetic set, graded, λ = 3 λ_max from the λ 0.99 cascade: eq (8)
// 2.697e6 against the empty cascade's 2.761e6, 65 per document and NDCG@10
// 0.558 on validation). It returns that run (its Init is the cascade it
// started from) when its eq (8) ends below Algorithm 2's; otherwise nil.
// Either way init holds Algorithm 2's cascade (as Options.Init, to
// optimise from).
func (s *setup) continueFrom(ctx context.Context, cf *cascadeFlags, par cronus.Params, from *cronus.State, p *progress) (res *cronus.Outcome, init cronus.Options, err error) {
	start := time.Now()
	a2, err := s.initialize(ctx, par, p, fmt.Sprintf("λ = %.3g × λ_max: ", par.Lambda))
	if err != nil {
		return nil, init, err
	}
	init = cronus.Options{Init: a2, InitTime: time.Since(start)}
	wcf := *cf
	wcf.reenter = true
	res, err = s.optimize(ctx, &wcf, par, cronus.Options{Warm: &from.Cascade, WarmSigma: from.Sigma}, p, nil)
	if err != nil {
		return nil, init, err
	}
	if res.Best == nil || !(res.Final.Terms.Total < a2.Terms.Total) {
		return nil, init, nil
	}
	return res, init, nil
}

// frontJSON is a front as sweep --json gives it: per point method,
// lambda, cost (per document) and frontMetric; an infinite λ (early exit's
// s = +Inf, the full ensemble) is null, which JSON has in place of +Inf.
func frontJSON(front []baseline.Point) []map[string]any {
	rows := make([]map[string]any, len(front))
	for i, p := range front {
		var lambda any = p.Lambda
		if math.IsInf(p.Lambda, 1) {
			lambda = nil
		}
		rows[i] = map[string]any{"method": p.Method, "lambda": lambda, "cost": p.Cost.Total, frontMetric: p.Metrics[frontMetric]}
		if p.Variant != "" {
			rows[i]["variant"] = p.Variant
		}
	}
	return rows
}

// knob names a point's trade-off parameter as its method reads it: the
// number of trees k of a prefix, early exit's margin s, else λ.
func knob(p baseline.Point) string {
	v := strconv.FormatFloat(p.Lambda, 'g', 4, 64)
	switch p.Method {
	case baseline.MethodPrefix:
		return "k=" + v
	case baseline.MethodEarlyExit:
		return "s=" + v
	}
	if p.Variant != "" {
		v += "#" + p.Variant
	}
	return "λ=" + v
}

// plateau reports whether raising λ has stopped making the cascade
// cheaper: the cascade at the largest λ (cr[0]; cr by λ, largest first)
// costs at least 95% of the cheapest at a smaller λ. Below λ_max a cascade
// whose first stage keeps a tree has later stages that each document
// reaches less often, so they pay less for a tree and keep some: on the
// synthetic set of bench/cascade.sh cascades from 0.875 to 0.992 λ_max
// all cost 213-217 per document, and Algorithm 2 at λ_max nothing (every
// stage empty), so steps towards λ_max past such a plateau find nothing
// cheaper: the refinement jumps past λ_max instead. It is not looked at
// up to 0.5 λ_max, the default grid's top: there a dearer top λ is the
// grid's own (on the same set, graded, 0.5 λ_max costs 511 and 0.2272
// 398, a larger ρ chosen at 0.5), and the steps from 0.75 to 0.9375 still
// lowered the cost from 338 to 213.
func plateau(cr []baseline.Point) bool {
	if len(cr) < 2 {
		return false
	}
	cheapest := math.Inf(1)
	for _, p := range cr[1:] {
		cheapest = min(cheapest, p.Cost.Total)
	}
	return cr[0].Cost.Total >= 0.95*cheapest
}

// nextLambda chooses the λ a refining sweep runs next, from the points so
// far and the λ already swept. On validation it finds the baseline point
// (single stage, prefix, early exit) furthest above the Cronus front (the
// best cronus point at no higher cost) and returns a λ for it:
//   - between the two swept λ whose cascades cost no more and more than
//     the point, their geometric mean;
//   - for a point cheaper than every cascade, halfway from the largest λ to
//     λ_max (on a log scale below 0.5 λ_max, a linear one from there); from
//     0.99 λ_max or a plateau above 0.5 λ_max on, twice the largest λ (at
//     least 2 λ_max, at most cronus.MaxLambda), where the sweep continues
//     from the cascade of a smaller λ, until a plateau there too;
//   - for a point dearer than every cascade, one grid step below the
//     smallest λ.
//
// A λ within 5% of one swept already (from 0.5 λ_max up, also within 5% of
// its distance to λ_max) is not run again: the next point is tried. why
// names the point ("early-exit s=0.2 at 861"); ok is false when no
// baseline point lies above the front, or none leaves a λ to run.
func nextLambda(points []baseline.Point, swept []float64) (lam float64, why string, ok bool) {
	var cr, base []baseline.Point
	for _, p := range points {
		if p.Split != "valid" {
			continue
		}
		switch {
		case p.Method == "cronus":
			cr = append(cr, p)
		case baseline.IsBaseline(p.Method):
			base = append(base, p)
		}
	}
	if len(cr) == 0 {
		return 0, "", false
	}
	// by λ, largest (cheapest) first
	slices.SortStableFunc(cr, func(a, b baseline.Point) int { return cmp.Compare(b.Lambda, a.Lambda) })
	front := func(c float64) float64 {
		best := math.Inf(-1)
		for _, p := range cr {
			if p.Cost.Total <= c {
				best = max(best, p.Metrics[frontMetric])
			}
		}
		return best
	}
	type gap struct {
		p       baseline.Point
		deficit float64
	}
	var gaps []gap
	for _, b := range base {
		q := b.Metrics[frontMetric]
		f := front(b.Cost.Total)
		if math.IsInf(f, -1) {
			f = 0 // no cascade this cheap: the point's whole quality is missing
		}
		if q > f {
			gaps = append(gaps, gap{b, q - f})
		}
	}
	// largest deficit first; ties cheaper first, then in the curve's order
	slices.SortStableFunc(gaps, func(a, b gap) int {
		if c := cmp.Compare(b.deficit, a.deficit); c != 0 {
			return c
		}
		return cmp.Compare(a.p.Cost.Total, b.p.Cost.Total)
	})
	// near: within 5% of a swept λ, and from 0.5 λ_max up also within 5%
	// of its distance to λ_max, where the cost changes fastest
	near := func(l float64) bool {
		for _, s := range swept {
			if math.Abs(math.Log(l/s)) < math.Log(1.05) && (l < 0.5 || l >= 1 || s >= 1 || math.Abs(math.Log((1-l)/(1-s))) < math.Log(1.05)) {
				return true
			}
		}
		return false
	}
	for _, g := range gaps {
		c := g.p.Cost.Total
		lam = math.NaN()
		for i := 0; i+1 < len(cr); i++ {
			if (cr[i].Cost.Total <= c) != (cr[i+1].Cost.Total <= c) {
				lam = math.Sqrt(cr[i].Lambda * cr[i+1].Lambda)
				break
			}
		}
		if math.IsNaN(lam) {
			switch top, bottom := cr[0].Lambda, cr[len(cr)-1].Lambda; {
			case cr[0].Cost.Total > c: // cheaper than every cascade
				switch {
				case top >= 1 && plateau(cr):
					// past λ_max the cost stopped falling too: on the
					// synthetic set 2 to 64 λ_max all gave 64 per document
					continue
				case top >= 0.99 || top > 0.5 && plateau(cr):
					// past λ_max, where the sweep continues from the
					// cascade of a smaller λ (continueFrom)
					lam = 2 * max(top, 1)
					if lam > cronus.MaxLambda {
						continue
					}
				case top < 0.5:
					lam = math.Sqrt(top) // far from λ_max: a log-scale step
				default:
					// linear near λ_max, where the cost falls fastest: a
					// log-scale step from 0.917 (to 0.958) was within 5% of it
					lam = (top + 1) / 2
				}
			case len(cr) > 1:
				lam = bottom * bottom / cr[len(cr)-2].Lambda
			default:
				lam = bottom / 4
			}
		}
		if lam <= 0 || near(lam) {
			continue
		}
		return lam, fmt.Sprintf("%s %s at %.4g", g.p.Method, knob(g.p), c), true
	}
	return 0, "", false
}

// lambdaMaxZeroWhy is why every cascade is empty where λ_max is 0, as
// cascade and sweep warn of it.
func lambdaMaxZeroWhy(train string) string {
	return fmt.Sprintf("λ_max is 0, so no tree fits %s's targets better than the intercept alone, at any λ (each tree gives every training document the same output, the targets are all alike, or no tree's output correlates with them)", train)
}
