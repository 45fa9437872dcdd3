package tui

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/cronus-ltr/cronus/engine/boost"
	"github.com/cronus-ltr/cronus/engine/cronus"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/views"
)

// settings are everything the user edits: the cascade's parameters, the
// targets of the cascade problem and the base ensemble's shape.
type settings struct {
	cronus.Params
	tg        cronus.Targets
	trees     int     // base ensemble size
	leaves    int     // leaves per base tree
	colSample float64 // fraction of the features each base tree may split on; 1 = all
	// objective is the base ensemble's loss: boost.Regression (the
	// paper's GBRT) or boost.LambdaRank; of a model file, its own
	// objective, whatever it is.
	objective string
	refit     bool // refit the best cascade when a run ends (cronus.Options.Refit)
}

// withShape is s with the base ensemble's shape: trees, leaves per tree,
// column sample and objective.
func (s settings) withShape(trees, leaves int, colSample float64, objective string) settings {
	s.trees, s.leaves, s.colSample, s.objective = trees, leaves, colSample, objective
	return s
}

// withDefaultShape is s with the shape of the base ensemble the workbench
// trains unless edited: trees (cfg.trees), baseLeaves leaves, every
// feature, cfg.Objective's loss (cronus tui --objective; squared loss
// when it is empty).
func (s settings) withDefaultShape(cfg Config) settings {
	obj := cfg.Objective
	if obj == "" {
		obj = boost.Regression
	}
	return s.withShape(cfg.trees, baseLeaves, 1, obj)
}

// The editable parameters: the params line shows the first lineParams,
// the panel ('p') the rest.
const (
	parLambda = iota
	parK
	parEpsilon
	parSigma
	parRho
	parPosWeight
	parDelta
	parRelevant
	parTargets
	parRefit
	parTrees
	parLeaves
	parColSample
	parObjective
	numParams
	lineParams = parRho
)

var paramNames = [numParams]string{"λ", "K", "ε", "σ", "ρ", "ω⁺", "δ", "relevant ≥", "targets", "refit", "trees", "leaves", "col sample", "loss"}

// paramWhat explains the panel's parameters, each in the forms a panel
// line picks from, longest first (an optional clause goes whole; at 80
// columns the col sample line was cut to "(retrains i…"): what the value
// is, then what a change does.
var paramWhat = [numParams][]string{
	parRho:       {"ρ of every stage, as a fraction of ρ_max (restarts; enter, enter: chosen on validation)", "ρ of every stage, as a fraction of ρ_max (restarts)", "ρ of every stage (restarts)"},
	parPosWeight: {"weight ω⁺ of the relevant documents (rebuilds the problem)", "weight of the relevant docs (rebuilds)"},
	parDelta:     {"δ: initial λ_k = λ·δ^(K−k) (restarts from scratch)", "λ_k = λ·δ^(K−k) (from scratch)"},
	parRelevant:  {"a label at least this is relevant (rebuilds the problem)", "relevance threshold (rebuilds)"},
	parTargets:   {"binary ±1, graded 2^(label−r+1)−1 or distil (rebuilds the problem)", "binary, graded or distil (rebuilds)"},
	parRefit:     {"least-squares refit of the best cascade's weights at the end of a run, kept if better on validation (restarts)", "refit the best cascade at the end (restarts)", "refit at the end (restarts)"},
	parTrees:     {"trees of the base ensemble (retrains it)", "base trees (retrains)"},
	parLeaves:    {"leaves per base tree (retrains it)", "leaves per tree (retrains)"},
	parColSample: {"feature share per tree; 0.1–0.3 → cheap trees (retrains it)", "feature share per tree (retrains it)", "feature share (retrains)"},
	parObjective: {"the base trees' loss: regression (the paper's GBRT) or lambdarank (retrains it)", "regression or lambdarank (retrains it)", "base loss (retrains)"},
}

// fixedWhat replaces paramWhat for the parameters that retrain the base
// ensemble under --absent missing, where an edit of them is refused (the
// panel said "(retrains it)" there).
var fixedWhat = [numParams][]string{
	parTrees:     {"trees of the base ensemble (fixed: --absent missing)", "base trees (fixed)"},
	parLeaves:    {"leaves per base tree (fixed: --absent missing)", "leaves per tree (fixed)"},
	parColSample: {"feature share per tree (fixed: --absent missing)", "feature share (fixed)"},
	parObjective: {"the base trees' loss (fixed: --absent missing)", "base loss (fixed)"},
}

// paramForms are the forms of paramWhat[i], or of fixedWhat[i] when i
// retrains the base ensemble and absentMissing refuses that.
func paramForms(i int, absentMissing bool) []string {
	if absentMissing && retrains(i) {
		return fixedWhat[i]
	}
	return paramWhat[i]
}

// formatFloat formats a parameter's value (views.FormatParam): to four
// significant digits, or, when those are not the value (a typed 0.12345 or
// 10001), with all the digits it takes: the params line said "λ 0.1235"
// and "ω⁺ 1e+04" of values the run used as typed, and a save's "made
// with" saw no difference between λ 0.12345 and 0.12346. The compare
// view's columns show λ, ε and σ with it too.
func formatFloat(v float64) string { return views.FormatParam(v) }

// round4 is v to four significant digits.
func round4(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }

// paramValue formats parameter i of par.
func paramValue(par settings, i int) string {
	switch i {
	case parLambda:
		return formatFloat(par.Lambda)
	case parK:
		return strconv.Itoa(par.K)
	case parEpsilon:
		return formatFloat(par.Epsilon)
	case parSigma:
		return formatFloat(par.Sigma)
	case parRho:
		return formatFloat(par.Rho1)
	case parPosWeight:
		return formatFloat(par.tg.PosWeight)
	case parDelta:
		return formatFloat(par.Delta)
	case parRelevant:
		return formatFloat(par.tg.Relevant)
	case parTargets:
		return targetNames[targetKind(par.tg)]
	case parRefit:
		if par.refit {
			return "on"
		}
		return "off"
	case parTrees:
		return strconv.Itoa(par.trees)
	case parColSample:
		return formatFloat(par.colSample)
	case parObjective:
		if par.objective == "" {
			return "unnamed" // a model file's without one
		}
		return par.objective
	default:
		return strconv.Itoa(par.leaves)
	}
}

// targetNames are the targets' choices in the order a step goes through
// them: the paper's ±1, graded (cascade --graded), the ensemble's scores
// (cascade --distil).
var targetNames = [...]string{"binary", "graded", "distil"}

// targetKind is the index in targetNames of tg's targets.
func targetKind(tg cronus.Targets) int {
	switch {
	case tg.Distil:
		return 2
	case tg.Graded:
		return 1
	}
	return 0
}

// objectiveNames are the base ensemble's objectives a step goes through:
// the paper's squared loss, then LambdaMART.
var objectiveNames = [...]string{boost.Regression, boost.LambdaRank}

// Objectives are the base ensemble's losses the workbench trains, in the
// order a step goes through them (cronus tui --objective takes these).
func Objectives() []string { return slices.Clone(objectiveNames[:]) }

// trainable is objective, when the workbench trains it, or else the
// default, boost.Regression (a model file's "binary" or "rank:pairwise"
// shows in the panel until an edit retrains its trees).
func trainable(objective string) string {
	if slices.Contains(objectiveNames[:], objective) {
		return objective
	}
	return boost.Regression
}

// toggleParam reports whether parameter i has a few values, switched by a
// step or enter instead of typed.
func toggleParam(i int) bool { return i == parTargets || i == parRefit || i == parObjective }

// retrains reports whether an edit of parameter i retrains the base
// ensemble.
func retrains(i int) bool {
	return i == parTrees || i == parLeaves || i == parColSample || i == parObjective
}

// intParam reports whether parameter i takes whole numbers.
func intParam(i int) bool { return i == parK || i == parTrees || i == parLeaves }

// stepParam moves parameter i one step up (dir > 0) or down: λ, σ, ρ and
// ω⁺ by a factor 1.5; K, the trees' leaves and the relevance threshold by
// one; ε by 0.05, δ and the column sample by 0.1, trees by 50; the targets
// go round binary, graded and distil; refit turns on or off; the objective
// goes round regression and lambdarank (from a model file's other
// objective, to regression). A step that would leave the valid range is
// refused.
func stepParam(par settings, i, dir int) (settings, error) {
	up := dir > 0
	switch i {
	case parLambda:
		if par.Lambda == 0 && up {
			par.Lambda = 0.001
		} else {
			par.Lambda = scale(par.Lambda, up)
		}
	case parK:
		par.K += dir
	case parEpsilon:
		par.Epsilon = math.Round((par.Epsilon+0.05*float64(dir))*1000) / 1000
	case parSigma:
		par.Sigma = scale(par.Sigma, up)
	case parRho:
		if par.Rho1 == 0 && up {
			par.Rho1 = 0.001
		} else {
			par.Rho1 = scale(par.Rho1, up)
		}
		par.RhoK = par.Rho1
	case parPosWeight:
		par.tg.PosWeight = scale(par.tg.PosWeight, up)
	case parDelta:
		par.Delta = math.Round((par.Delta+0.1*float64(dir))*1000) / 1000
	case parColSample:
		par.colSample = math.Round((par.colSample+0.1*float64(dir))*1000) / 1000
	case parRelevant:
		par.tg.Relevant += float64(dir)
	case parTargets:
		k := (targetKind(par.tg) + dir + len(targetNames)) % len(targetNames)
		par.tg.Graded, par.tg.Distil = k == 1, k == 2
	case parRefit:
		par.refit = !par.refit
	case parObjective:
		k := 0 // from an objective the workbench does not train
		if i := slices.Index(objectiveNames[:], par.objective); i >= 0 {
			k = (i + dir + len(objectiveNames)) % len(objectiveNames)
		}
		par.objective = objectiveNames[k]
	case parTrees:
		par.trees += 50 * dir
	case parLeaves:
		par.leaves += dir
	}
	return par, checkParam(par, i)
}

// scale multiplies v by 1.5 (up) or divides it, to the value shown
// (formatFloat's four significant digits): 0.1 × 1.5 was
// 0.15000000000000002, shown as 0.15, and cronus cascade --lambda 0.15
// then made another cascade than the workbench's; 0.01 × 1.5⁴ = 0.050625
// showed as 0.05063.
func scale(v float64, up bool) float64 {
	if up {
		v *= 1.5
	} else {
		v /= 1.5
	}
	shown, err := strconv.ParseFloat(round4(v), 64)
	if err != nil {
		return v
	}
	return shown
}

// setParam parses s as the new value of parameter i. A space in s, even
// around the number, refuses it, as the CLI's flags refuse --lambda " 0.5":
// the space was named as a character a value cannot hold when typed.
func setParam(par settings, i int, s string) (settings, error) {
	if !data.DecimalSyntax(s) { // Go's "0_05" (5) and "0x1p-2" (0.25), which ParseFloat takes
		return par, errors.New(paramNames[i] + ": " + strconv.Quote(s) + " is not a number written in decimal")
	}
	if intParam(i) {
		// Beyond int's range Atoi gives its bound and ErrRange: checkParam
		// then names the range ("99999999999999999999" was "not a whole number").
		k, err := strconv.Atoi(s)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return par, errors.New(paramNames[i] + ": " + strconv.Quote(s) + " is not a whole number")
		}
		switch i {
		case parK:
			par.K = k
		case parTrees:
			par.trees = k
		default:
			par.leaves = k
		}
		return par, checkParam(par, i)
	}
	v, err := strconv.ParseFloat(s, 64)
	huge := errors.Is(err, strconv.ErrRange) // 1e999: ±Inf, beyond every range ("is not a number" before)
	if err != nil && !huge || err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
		return par, errors.New(paramNames[i] + ": " + strconv.Quote(s) + " is not a number")
	}
	if v == 0 {
		v = 0 // "-0" showed as λ -0 and was saved as "lambda": -0
	}
	switch i {
	case parLambda:
		par.Lambda = v
	case parEpsilon:
		par.Epsilon = v
	case parSigma:
		par.Sigma = v
	case parRho:
		par.Rho1, par.RhoK = v, v
	case parPosWeight:
		par.tg.PosWeight = v
	case parDelta:
		par.Delta = v
	case parRelevant:
		par.tg.Relevant = v
	case parColSample:
		par.colSample = v
	}
	if err := checkParam(par, i); err != nil || !huge {
		return par, err
	}
	// The threshold, which has no range: -1e999 is beyond float64 too,
	// below it ("is too large" before).
	if v < 0 {
		return par, errors.New(paramNames[i] + ": " + strconv.Quote(s) + " is too small")
	}
	return par, errors.New(paramNames[i] + ": " + strconv.Quote(s) + " is too large")
}

// Upper bounds of the workbench's integer parameters: beyond them a run
// takes minutes and gigabytes for nothing (K = 1000 took 20 s and 550 MB
// before its first snapshot), and leaves beyond 2^62 hung the depth search.
const (
	stagesCap = 100
	treesCap  = 10000
	leavesCap = 4096
)

func checkParam(par settings, i int) error {
	switch {
	case i == parLambda && !(par.Lambda >= 0 && par.Lambda <= cronus.MaxLambda):
		return fmt.Errorf("λ must be in [0, %d] (a fraction of λ_max)", cronus.MaxLambda)
	case i == parK && par.K < 1:
		return errors.New("K must be at least 1")
	case i == parK && par.K > min(stagesCap, par.trees):
		// Of a model of fewer trees than the cap, the bound is its trees
		// alone: of a 1-tree model it said "K must be at most 100 (and at
		// most the base ensemble's 1 trees)".
		switch {
		case par.trees == 1:
			return errors.New("K must be at most 1, the base ensemble's one tree")
		case par.trees < stagesCap:
			return fmt.Errorf("K must be at most %d, the base ensemble's trees", par.trees)
		}
		return fmt.Errorf("K must be at most %d (and at most the base ensemble's %d trees)", stagesCap, par.trees)
	case i == parEpsilon && !(par.Epsilon > 0 && par.Epsilon < 1):
		return errors.New("ε must be in (0, 1)")
	case i == parSigma && !(par.Sigma > 0 && par.Sigma <= cronus.MaxSigma):
		return fmt.Errorf("σ must be in (0, %d] (a fraction of the score spread)", cronus.MaxSigma)
	case i == parRho && !(par.Rho1 >= 0 && par.Rho1 <= cronus.MaxRho):
		return fmt.Errorf("ρ must be in [0, %d] (a fraction of ρ_max)", cronus.MaxRho)
	case i == parPosWeight && !(par.tg.PosWeight > 0 && par.tg.PosWeight <= cronus.MaxClassWeight):
		return errors.New("ω⁺ must be in (0, 1e6]")
	case i == parDelta && !(par.Delta >= 1 && par.Delta <= 10):
		return errors.New("δ must be in [1, 10]")
	case i == parTrees && !(par.trees >= 1 && par.trees <= treesCap):
		return fmt.Errorf("trees must be in [1, %d]", treesCap)
	case i == parTrees && par.trees < par.K:
		return fmt.Errorf("trees must be at least K = %d (lower K first)", par.K)
	case i == parLeaves && !(par.leaves >= 2 && par.leaves <= leavesCap):
		return fmt.Errorf("leaves must be in [2, %d]", leavesCap)
	case i == parColSample && !(par.colSample > 0 && par.colSample <= 1):
		return errors.New("col sample must be in (0, 1]")
	}
	return nil
}

// inputRune reports whether r may be typed into a value: a decimal number,
// with an exponent and its sign if need be (1e+3, 2E-3).
func inputRune(r rune) bool {
	return r >= '0' && r <= '9' || r == '.' || r == 'e' || r == 'E' || r == '-' || r == '+'
}
