package cronus

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"
	"unsafe"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// Problem is the fixed part of a cascade optimisation: the training tree
// outputs, binary targets and instance weights, and the cost structure.
type Problem struct {
	Train     *Outputs
	Y         []float64 // target per training document: +1 (relevant) or −1, or as Targets say
	Omega     []float64 // instance weight ω_i per training document
	TreeFeats [][]int   // features (0-based) each tree uses: the matrix F
	FeatCost  []float64 // c_α per feature
	TreeCost  []float64 // e_t per tree
	Offsets   []int     // the training queries: query q is documents [Offsets[q], Offsets[q+1])
	// Flat marks the trees whose output is the same on every training
	// document (a one-leaf tree, or one whose splits all send the
	// training documents one way, as on a feature the training data lack):
	// such a tree is a multiple of the intercept, which is free, so it can
	// only add its costs and ρ, and its weight is held at zero (nil: none).
	// Coordinate descent shrank it only by (ρ + λ d e_t)/G_tt a sweep
	// while the intercept took back each step, so it stopped at 500
	// sweeps with the tree still in, paid for by every document.
	Flat      []bool
	Positives int // training documents with a label >= the relevance threshold
	// Advice is empty, or a warning that the targets suit the method badly
	// (see TargetsAdvice).
	Advice string
	// JointEntry lets trees that share a feature nobody has paid for enter
	// a stage together (the solver's joint moves; see stageProblem.solve),
	// so that each stage's convex problem is solved to its optimum instead
	// of coordinate descent's conservative stop. It raises λ_max, which
	// then counts such groups. Off by default: on MQ2008 it did not give
	// better cascades (docs/optimiser.md).
	JointEntry bool

	// base holds the Gram product at the weights ω (NewProblem makes it;
	// nil: none is kept).
	base *baseGram
	// bufs keeps the buffers of the other Gram products for the next one
	// (NewProblem makes it; nil: each product makes its own).
	bufs *gramBuffers
	// featUsed and treeFeatsNum are numberFeatures(TreeFeats), made once
	// by NewProblem: featSpace rebuilt them at every evaluation of eq (8).
	featUsed     []int
	treeFeatsNum [][]int
}

// baseGram keeps the Gram product HᵀΩH, HᵀΩy at the weights ω alone,
// which λ_max, the first stage of every initialisation (its reach p is 1
// for every document) and every one-stage cascade use: choosing ρ makes
// six initialisations, and sweep that at every λ and for the single stage
// too, each of whose first products was the same. It is shared by the
// copies of a Problem, and holds the product of the Train, ω and y it was
// made from; a copy with others (a test's) computes its own. G and r are
// read only.
type baseGram struct {
	mu       sync.Mutex
	train    *Outputs
	omega, y *float64 // the first elements of ω and y
	n        int
	g, r     []float64
}

// baseGramOf returns the Gram product at the weights ω kept for pr, or nils.
func (pr *Problem) baseGramOf() (g, r []float64) {
	b := pr.base
	if b == nil {
		return nil, nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.g == nil || b.train != pr.Train || b.omega != unsafe.SliceData(pr.Omega) || b.y != unsafe.SliceData(pr.Y) || b.n != len(pr.Omega) {
		return nil, nil
	}
	return b.g, b.r
}

// keepBaseGram keeps g and r, the Gram product at the weights ω, for pr.
func (pr *Problem) keepBaseGram(g, r []float64) {
	b := pr.base
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.train, b.omega, b.y, b.n, b.g, b.r = pr.Train, unsafe.SliceData(pr.Omega), unsafe.SliceData(pr.Y), len(pr.Omega), g, r
}

// MaxPositiveShare is the largest share of positives among the training
// documents that TargetsAdvice accepts with binary targets.
const MaxPositiveShare = 1.0 / 3

// PositiveShare is the fraction of the training documents that are
// positives.
func (pr *Problem) PositiveShare() float64 {
	return float64(pr.Positives) / float64(pr.Train.N)
}

// TargetsAdvice warns when binary targets make more than MaxPositiveShare
// of the training documents positive (share, as PositiveShare). The method assumes positives are
// rare (§2: "many more negative examples than positive ones"; 9.5% in the
// paper's data, label >= 3 of 0-4). When most documents that survive the
// early stages are positives, the later stages' squared loss is met by a
// constant: they drop their trees and no longer order the documents that
// reach them. On the synthetic 0-4 set with label >= 1 (about half the
// documents) the cascade's test NDCG@10 fell to 0.55, against 0.90 with
// label >= 3 and 0.91 with graded targets (README). Graded targets keep
// the positives apart, so they get no warning.
func TargetsAdvice(share float64, tg Targets) string {
	if tg.Graded || tg.Distil || !(share > MaxPositiveShare) {
		return ""
	}
	return fmt.Sprintf("%.0f%% of the training documents are positives (label >= %g), but the method assumes positives are rare: "+
		"its later stages may drop their trees and stop ordering the documents that reach them; "+
		"raise the relevance threshold (the paper uses 3 on 0-4 grades) or use graded targets",
		100*share, tg.Relevant)
}

// ShallowDepth is the depth of base trees cascades are made of (the
// workbench trains its ensemble at it, and README advises it).
const ShallowDepth = 2

// DepthAdvice names base trees deeper than ShallowDepth, in a short form
// ("depth-12 base trees") and with the advice ("…: depth 2 cascades far
// better"); both are empty for shallow trees. A deep tree pays for the
// features of all its splits, so no stage that uses it is cheap: the
// cascade of an imported depth-11 XGBoost model cost 1373 per document
// against the full ensemble's 1390.
func DepthAdvice(depth int) (short, long string) {
	if depth <= ShallowDepth {
		return "", ""
	}
	short = fmt.Sprintf("depth-%d base trees", depth)
	return short, fmt.Sprintf("%s: depth %d cascades far better", short, ShallowDepth)
}

// Targets are the choices that turn graded labels into the paper's binary
// weighted regression problem.
type Targets struct {
	Relevant    float64 // label >= Relevant (rounded to float32) is positive (+1); default 1
	PosWeight   float64 // ω⁺ (default 3.5)
	NegWeight   float64 // ω⁻ (default 1)
	NegMultiply float64 // extra factor on ω⁻, in place of replicating negatives (the paper replicates them 10 times); default 1
	// Graded gives positives the target 2^(label−Relevant+1) − 1 instead of
	// +1: 1 at the threshold grade, 3 one grade above, 7 two above — NDCG's
	// gain 2^label − 1 when Relevant is 1. Negatives stay at −1. The paper's
	// targets are binary (false).
	Graded bool
	// Distil makes every document's target the base ensemble's score on
	// it, standardised over the training documents (mean 0, standard
	// deviation 1): the stages learn to reproduce the ensemble's ranking
	// rather than the labels. The labels still set the class weights ω⁺
	// and ω⁻. Not the paper's (false); not with Graded.
	Distil bool
}

// DefaultTargets returns the paper's choices (§3.4, §4), with negatives
// weighted instead of replicated.
func DefaultTargets() Targets {
	return Targets{Relevant: 1, PosWeight: 3.5, NegWeight: 1, NegMultiply: 1}
}

// positive reports whether a document with label l is a positive.
func (tg Targets) positive(l float32) bool { return float64(l) >= tg.threshold() }

// threshold is Relevant rounded to float32, as the labels are read, so that
// the label 0.7 of a file reaches Relevant 0.7 (float32(0.7) < 0.7).
func (tg Targets) threshold() float64 { return float64(float32(tg.Relevant)) }

// CountPositives is the number of labels tg makes positives, as NewProblem
// counts them (Problem.Positives), without building the problem.
func CountPositives(labels []float32, tg Targets) int {
	n := 0
	for _, l := range labels {
		if tg.positive(l) {
			n++
		}
	}
	return n
}

// Validate reports the first target setting out of range: the weights must
// be finite and positive (a zero weight drops a class from the loss, and
// the cascade comes out empty), the threshold finite.
func (tg Targets) Validate() error {
	finitePos := func(v float64) bool { return v > 0 && !math.IsInf(v, 1) }
	switch {
	case math.IsNaN(tg.Relevant) || math.IsInf(tg.Relevant, 0):
		return fmt.Errorf("the relevance threshold must be a finite number (got %g)", tg.Relevant)
	case !finitePos(tg.PosWeight):
		return fmt.Errorf("ω⁺ (the weight of positives) must be a finite number > 0 (got %g)", tg.PosWeight)
	case !finitePos(tg.NegWeight):
		return fmt.Errorf("ω⁻ (the weight of negatives) must be a finite number > 0 (got %g)", tg.NegWeight)
	case !finitePos(tg.NegMultiply):
		return fmt.Errorf("the negatives' multiplier must be a finite number > 0 (got %g)", tg.NegMultiply)
	case tg.Graded && tg.Distil:
		return errors.New("graded targets and the ensemble's scores as targets (distil) exclude each other")
	}
	return nil
}

// docPlace names document i of d for a message: its qid and place in the
// query (from 1), or its place in the file when d has no qids.
func docPlace(d *data.Dataset, i int) string {
	if !d.HasQID {
		return fmt.Sprintf("document %d", i+1)
	}
	q := sort.SearchInts(d.QueryOffsets, i+1) - 1
	return fmt.Sprintf("qid %d, document %d", d.QueryIDs[q], i-d.QueryOffsets[q]+1)
}

// ErrNoPositives is wrapped by NewProblem's error when no training
// document reaches the relevance threshold (Targets.Relevant), so that a
// caller can name the setting that made it.
var ErrNoPositives = errors.New("nothing is relevant")

// NewProblem sets up the optimisation of ensemble e on training data d with
// feature costs and a cost per tree evaluation. It returns a *MemoryError,
// before any long work, when the problem would need more memory than is
// available (CheckProblemMemory).
func NewProblem(e *tree.Ensemble, d *data.Dataset, featCost []float64, treeCost float64, tg Targets) (*Problem, error) {
	return NewProblemContext(context.Background(), e, d, featCost, treeCost, tg)
}

// MaxClassWeight is the largest class weight (ω⁺, ω⁻ and the multiplier
// of ω⁻) the command line and the workbench take.
const MaxClassWeight = 1e6

// maxWeightedSquares bounds Σ ω y² over the training documents: far below
// float64's 1.8e308, so that the sums and products of the optimiser's steps
// stay finite.
const maxWeightedSquares = 1e150

// CheckLeaves refuses an ensemble with a leaf value outside the float32
// range: the cascade fits its stages on the trees' outputs as float32s
// (h_t(x), README "Cascades"), and such a leaf is ±Inf there. A model
// trained with --l2 0 --min-hessian 0 can have one (lambdarank's Newton
// steps over hessians of 1e-45): the optimiser ran to the end on NaN
// weights, and the cascade file was then refused as it was written
// ("weights[0]: NaN is not finite").
func CheckLeaves(e *tree.Ensemble) error {
	if t, l, v, past := leafPastFloat32(e); past {
		return fmt.Errorf("tree %d: leaf %d's value %g is outside the float32 range (±%g) of the tree outputs a cascade is fitted on (a model trained without regularisation, --l2 0 --min-hessian 0, can take such steps; train it with --l2 or --min-hessian above 0)", t, l, v, float32(math.MaxFloat32))
	}
	return nil
}

// leafPastFloat32 finds the first leaf of e whose value is outside the
// float32 range.
func leafPastFloat32(e *tree.Ensemble) (t, l int, v float64, past bool) {
	for t, tr := range e.Trees {
		for l, v := range tr.Leaves {
			if math.Abs(v) > math.MaxFloat32 {
				return t, l, v, true
			}
		}
	}
	return 0, 0, 0, false
}

// NewProblemContext is NewProblem that stops building the tree outputs
// when ctx is done, and then returns ctx's error.
func NewProblemContext(ctx context.Context, e *tree.Ensemble, d *data.Dataset, featCost []float64, treeCost float64, tg Targets) (*Problem, error) {
	return NewProblemProgress(ctx, e, d, featCost, treeCost, tg, nil)
}

// NewProblemProgress is NewProblemContext that reports the building of the
// tree outputs through progress (NewOutputsProgress).
func NewProblemProgress(ctx context.Context, e *tree.Ensemble, d *data.Dataset, featCost []float64, treeCost float64, tg Targets, progress func(done, total int)) (*Problem, error) {
	if err := tg.Validate(); err != nil {
		return nil, err
	}
	if !data.ValidCost(treeCost) {
		return nil, fmt.Errorf("the tree cost must be a number from 0 to %g (got %g)", data.MaxCost, treeCost)
	}
	if len(featCost) < e.NumFeatures {
		return nil, fmt.Errorf("%d feature costs for a model of %d features", len(featCost), e.NumFeatures)
	}
	if len(e.Trees) == 0 {
		return nil, errors.New("the ensemble has no trees")
	}
	if err := CheckLeaves(e); err != nil {
		return nil, err
	}
	n := d.NumDocs()
	if n == 0 {
		return nil, fmt.Errorf("%s: no training documents", d.Name)
	}
	// Its Gram products grow with the square of the trees: refuse what
	// would not fit before building anything (20,000 trees need about
	// 8.2 GiB, and the process was killed for want of memory instead).
	if err := CheckProblemMemory(len(e.Trees), n); err != nil {
		return nil, err
	}
	train, err := NewOutputsProgress(ctx, e, d, OutputsAuto, progress)
	if err != nil {
		return nil, err
	}
	p := &Problem{Train: train, FeatCost: featCost, Offsets: d.QueryOffsets, base: &baseGram{}, bufs: &gramBuffers{}}
	p.Y = make([]float64, n)
	p.Omega = make([]float64, n)
	pos := 0
	for i, l := range d.Labels {
		if tg.positive(l) {
			p.Y[i], p.Omega[i] = 1, tg.PosWeight
			if tg.Graded {
				p.Y[i] = math.Exp2(float64(l)-tg.threshold()+1) - 1
				if math.IsInf(p.Y[i]*p.Y[i], 1) { // eq (8)'s squared loss would be +Inf
					return nil, fmt.Errorf("%s: %s: label %g: its graded target 2^(label − %g + 1) − 1 is too large for the squared loss; rescale the labels or use binary targets",
						d.Name, docPlace(d, i), l, tg.Relevant)
				}
			}
			pos++
		} else {
			p.Y[i], p.Omega[i] = -1, tg.NegWeight*tg.NegMultiply
		}
	}
	// The loss sums ω·y² and the steps ω-weighted products of them: a sum
	// past maxWeightedSquares overflowed on the way (graded targets 509 or
	// 510 grades above the threshold: a NaN weight, a panic in Gram).
	sum := 0.0
	for i, y := range p.Y {
		sum += p.Omega[i] * y * y
	}
	if !(sum <= maxWeightedSquares) {
		return nil, fmt.Errorf("%s: the weighted squared targets sum to %g, more than the optimiser can square and sum again (%g): lower the labels' grades above --relevant, the weights ω⁺, ω⁻ and the multiplier, or use binary targets",
			d.Name, sum, maxWeightedSquares)
	}
	if pos == 0 {
		return nil, fmt.Errorf("%s: no training document has a label >= %g (the largest is %g): %w",
			d.Name, tg.Relevant, slices.Max(d.Labels), ErrNoPositives)
	}
	p.Positives = pos
	if tg.Distil {
		if err := p.distilTargets(); err != nil {
			return nil, fmt.Errorf("%s: %w", d.Name, err)
		}
	}
	p.Advice = TargetsAdvice(p.PositiveShare(), tg)
	p.TreeFeats = make([][]int, len(e.Trees))
	p.TreeCost = make([]float64, len(e.Trees))
	for t := range e.Trees {
		p.TreeFeats[t] = e.Trees[t].Features()
		p.TreeCost[t] = treeCost
	}
	p.featUsed, p.treeFeatsNum = numberFeatures(p.TreeFeats)
	p.Flat = flatTrees(train)
	return p, nil
}

// flatTrees returns, per tree of o, whether its output is the same on
// every document (see Problem.Flat).
func flatTrees(o *Outputs) []bool {
	flat := make([]bool, o.NumTrees())
	buf := make([]float32, o.N)
	for t := range flat {
		col := o.Col(t, buf)
		flat[t] = true
		for _, v := range col[1:] {
			if v != col[0] {
				flat[t] = false
				break
			}
		}
	}
	return flat
}

// isFlat reports whether tree t is in Flat.
func (pr *Problem) isFlat(t int) bool { return t < len(pr.Flat) && pr.Flat[t] }

// distilTargets sets Y to the ensemble's training scores as H holds them
// (the sum of the tree outputs, summed in tree order in float64),
// standardised to mean 0 and standard deviation 1.
func (p *Problem) distilTargets() error {
	n := p.Train.N
	score := p.Y[:n]
	clear(score)
	buf := make([]float32, n)
	for t := range p.Train.NumTrees() {
		for i, v := range p.Train.Col(t, buf) {
			score[i] += float64(v)
		}
	}
	mean := 0.0
	for _, v := range score {
		mean += v
	}
	mean /= float64(n)
	ss := 0.0
	for _, v := range score {
		ss += (v - mean) * (v - mean)
	}
	sd := math.Sqrt(ss / float64(n))
	if !(sd > 0) || math.IsInf(sd, 0) {
		return errors.New("the ensemble gives every training document the same score: there is nothing to distil")
	}
	for i, v := range score {
		score[i] = (v - mean) / sd
	}
	return nil
}
