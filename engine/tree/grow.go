package tree

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"unsafe"

	"github.com/cronus-ltr/cronus/data"
)

// GrowParams control the growth of one regression tree.
type GrowParams struct {
	MaxLeaves int     // grow leaf-wise until this many leaves (>= 2)
	MaxDepth  int     // longest root-to-leaf path; 0 means no limit
	MinDocs   int     // fewest documents in a leaf (>= 1)
	MinHess   float64 // smallest sum of hessians in a leaf
	Lambda    float64 // L2 penalty on leaf values
	MinGain   float64 // a split's gain G_L²/(H_L+λ) + G_R²/(H_R+λ) − G²/(H+λ) (twice the loss it saves) must exceed this
}

// Validate reports the first parameter out of range.
func (p GrowParams) Validate() error {
	switch {
	case p.MaxLeaves < 2:
		return fmt.Errorf("leaves must be at least 2 (got %d)", p.MaxLeaves)
	case p.MaxDepth < 0:
		return fmt.Errorf("max depth must be 0 (no limit) or positive (got %d)", p.MaxDepth)
	case p.MinDocs < 1:
		return fmt.Errorf("min docs per leaf must be at least 1 (got %d)", p.MinDocs)
	case !finiteAtLeast0(p.MinHess):
		return fmt.Errorf("min hessian per leaf must be a finite number >= 0 (got %g)", p.MinHess)
	case !finiteAtLeast0(p.Lambda):
		return fmt.Errorf("L2 lambda must be a finite number >= 0 (got %g)", p.Lambda)
	case !finiteAtLeast0(p.MinGain):
		return fmt.Errorf("min gain must be a finite number >= 0 (got %g)", p.MinGain)
	}
	return nil
}

// SingleLeafWarning says, when every tree of trees (those trained) is a
// single leaf, why no split was taken under g, its limits named by the
// flags of cronus train that set them (--min-gain, --min-docs,
// --min-hessian, --l2), followed by ", " and end (what the model then
// does: "the model scores every document alike"); "" otherwise, and for
// no trees. cronus train and the workbench's base ensemble (whose limits
// are train's defaults) both say it after training.
func SingleLeafWarning(trees []Tree, g GrowParams, end string) string {
	if len(trees) == 0 {
		return ""
	}
	for _, t := range trees {
		if t.NumLeaves() > 1 {
			return ""
		}
	}
	what := "every tree trained is a single leaf"
	if len(trees) == 1 {
		what = "the tree trained is a single leaf"
	}
	why := fmt.Sprintf("no split gained more than --min-gain %g with --min-docs %d documents and --min-hessian %g of hessian on each side", g.MinGain, g.MinDocs, g.MinHess)
	if g.Lambda > 0 {
		// A small leaf's L2 term outweighs what it fits: on 12 documents
		// whose residuals differ by 0.14, every split lost under --l2 1.
		why += fmt.Sprintf(" (the gains lowered by --l2 %g)", g.Lambda)
	}
	return fmt.Sprintf("%s: %s, %s", what, why, end)
}

// finiteAtLeast0 reports whether v is a finite number >= 0: a model file
// records the parameters, and JSON has no infinity.
func finiteAtLeast0(v float64) bool { return v >= 0 && !math.IsInf(v, 1) }

// GradPair is the gradient and hessian of the loss for one document.
type GradPair struct{ G, H float32 }

// hbin is one histogram bin: the sums over the documents whose code falls
// in it.
type hbin struct {
	G, H float64
	N    int64
}

// BinnedTree is a tree together with the bin code of each split, so that
// binned data (training, or validation binned with the training edges) can
// be routed without the raw values: code <= Bin[n] goes left exactly when
// value <= Nodes[n].Threshold.
type BinnedTree struct {
	Tree
	Bin []uint8
}

// LeafBinned returns the leaf document i of codes reaches.
func (t *BinnedTree) LeafBinned(codes [][]uint8, i int) int {
	if len(t.Nodes) == 0 {
		return 0
	}
	n := int32(0)
	for n >= 0 {
		if codes[t.Nodes[n].Feature][i] <= t.Bin[n] {
			n = t.Nodes[n].Left
		} else {
			n = t.Nodes[n].Right
		}
	}
	return int(^n)
}

// AddTo adds scale times the tree's value to dst[i] for every document of
// the binned data.
func (t *BinnedTree) AddTo(dst []float64, codes [][]uint8, scale float64) {
	for i := range dst {
		dst[i] += scale * t.Leaves[t.LeafBinned(codes, i)]
	}
}

// Grower fits regression trees to gradient pairs on binned data by
// histogram split search and leaf-wise growth. It keeps its scratch space
// between trees; it is not safe for concurrent use.
type Grower struct {
	codes   [][]uint8
	numBins []int
	bins    *data.Bins
	p       GrowParams
	workers int
	off     []int // start of each feature's bins in a histogram
	stride  []int // bins per feature of each group of 4 features: 256, or fewer (narrow)
	total   int

	idx     []int32 // documents, partitioned into the leaves' segments
	tmp     []int32
	free    [][]hbin
	ordered []GradPair    // gradient pairs of one leaf's documents, in idx order
	fg      featureGroups // width-4 row-major groups, for large leaves
	wide    featureGroups // one wide group per worker, for small leaves
	buf     [][]uint32    // per worker: buildScattered's chunk buffer
	groups  []int
	bests   []split // per group: the best split of the built leaf and of its sibling

	// unitH says every hessian of the tree being grown is 1 (squared loss):
	// the histograms then skip the counts, and a bin's H (the sum of its
	// hessians, ones) stands for its count. The sum of n ones is n exactly,
	// so the trees are the same bit for bit; the histograms just do a third
	// less work.
	unitH bool
}

// NewGrower prepares a grower for the binned training data b with edges
// bins; workers <= 0 means GOMAXPROCS. It panics where NewGrowerContext
// would return a *HistMemoryError: for data known to fit (tests, and
// callers that checked).
func NewGrower(b *data.Binned, bins *data.Bins, p GrowParams, workers int) *Grower {
	g, err := NewGrowerContext(context.Background(), b, bins, p, workers) // never cancelled
	if err != nil {
		panic(err) // not the memory it needs: callers with data of any size use NewGrowerContext
	}
	return g
}

// NewGrowerContext is NewGrower that stops once ctx is done, and then
// returns ctx's error: laying out the codes row-major takes seconds on a
// large data set.
func NewGrowerContext(ctx context.Context, b *data.Binned, bins *data.Bins, p GrowParams, workers int) (*Grower, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	g := &Grower{codes: b.Codes, numBins: b.NumBins, bins: bins, p: p, workers: workers}
	// Every feature gets 256 slots, so the histogram kernels index by a
	// uint8 code without a bounds check; the padding features (up to a
	// multiple of the group widths) get slots too and are never split on.
	// When that makes one histogram larger than narrowAbove, a group of 4
	// features of at most narrowBins bins each gets just as many slots per
	// feature (buildGroupNarrow): a data set of a million features of two
	// values each then needs 46 MiB a histogram instead of 5.7 GiB.
	d := len(b.NumBins)
	n := 0
	if d > 0 {
		n = len(b.Codes[0])
	}
	wideWidth := groupWidth * ((d + groupWidth*workers - 1) / (groupWidth * workers))
	padded := max(wideWidth*workers, groupWidth)
	g.stride = make([]int, padded/groupWidth)
	narrow := int64(padded)*256*int64(unsafe.Sizeof(hbin{})) > narrowAbove
	for q := range g.stride {
		g.stride[q] = 256
		if !narrow {
			continue
		}
		most := 1
		for f := q * groupWidth; f < min((q+1)*groupWidth, d); f++ {
			most = max(most, b.NumBins[f])
		}
		if most <= narrowBins {
			g.stride[q] = most
		}
	}
	g.off = make([]int, padded+1)
	for f := range padded {
		g.off[f+1] = g.off[f] + g.stride[f/groupWidth]
	}
	g.total = g.off[padded]
	if err := checkHistMemory(b.NumBins, g.total, n, padded, narrow); err != nil {
		return nil, err
	}
	g.fg = newFeatureGroups(ctx, b.Codes, n, padded, groupWidth, workers)
	g.wide = newFeatureGroups(ctx, b.Codes, n, padded, max(wideWidth, groupWidth), workers)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	g.buf = make([][]uint32, workers)
	for w := range g.buf {
		g.buf[w] = make([]uint32, g.wide.width/4*chunkDocs)
	}
	return g, nil
}

type split struct {
	feature int
	bin     uint8
	gain    float64
	gl, hl  float64
	nl      int64
}

type growLeaf struct {
	lo, hi int // segment of Grower.idx
	hist   []hbin
	g, h   float64
	n      int64
	depth  int
	best   split
	parent int32 // node whose child this leaf is; -1 for the root
	isLeft bool
}

// hist returns a histogram buffer; build clears the parts it fills.
func (g *Grower) hist() []hbin {
	if k := len(g.free); k > 0 {
		h := g.free[k-1]
		g.free = g.free[:k-1]
		return h
	}
	return make([]hbin, g.total)
}

// Grow fits one tree to gh over the documents in rows (all documents when
// rows is nil), splitting only on features (all when nil). For every
// document of rows, leafOf[doc] is set to the leaf it falls in; leafOf may be
// nil. features must be sorted. Leaf values are the Newton steps -G/(H+λ),
// unscaled.
func (g *Grower) Grow(gh []GradPair, rows []int32, features []int, leafOf []int32) BinnedTree {
	n := len(gh)
	if rows == nil {
		g.idx = g.idx[:0]
		for i := 0; i < n; i++ {
			g.idx = append(g.idx, int32(i))
		}
	} else {
		g.idx = append(g.idx[:0], rows...)
	}
	if cap(g.tmp) < len(g.idx) {
		g.tmp = make([]int32, len(g.idx))
	}
	if features == nil {
		features = make([]int, len(g.codes))
		for f := range features {
			features[f] = f
		}
	}

	root := &growLeaf{lo: 0, hi: len(g.idx), parent: -1}
	g.unitH = true
	for _, i := range g.idx {
		root.g += float64(gh[i].G)
		root.h += float64(gh[i].H)
		g.unitH = g.unitH && gh[i].H == 1
	}
	root.n = int64(len(g.idx))
	root.hist = g.hist()
	g.build(root, nil, g.idx, gh, features, rows == nil)
	g.release(root)
	leaves := []*growLeaf{root}
	var t BinnedTree

	for len(leaves) < g.p.MaxLeaves {
		// The leaf with the largest gain; ties go to the lowest leaf id.
		best := -1
		for k, l := range leaves {
			if l.best.gain > g.p.MinGain && (best < 0 || l.best.gain > leaves[best].best.gain) {
				best = k
			}
		}
		if best < 0 {
			break
		}
		l := leaves[best]
		s := l.best
		node := int32(len(t.Nodes))
		t.Nodes = append(t.Nodes, Node{
			Feature:   int32(s.feature),
			Threshold: g.bins.Threshold(s.feature, s.bin),
			Left:      Leaf(best),
			Right:     Leaf(len(leaves)),
		})
		t.Bin = append(t.Bin, s.bin)
		t.Gain = append(t.Gain, stat32(s.gain))
		t.Cover = append(t.Cover, stat32(l.h))
		if l.parent >= 0 {
			if l.isLeft {
				t.Nodes[l.parent].Left = node
			} else {
				t.Nodes[l.parent].Right = node
			}
		}
		mid := g.partition(l.lo, l.hi, g.codes[s.feature], s.bin)
		left := &growLeaf{lo: l.lo, hi: mid, g: s.gl, h: s.hl, n: s.nl, depth: l.depth + 1, parent: node, isLeft: true}
		right := &growLeaf{lo: mid, hi: l.hi, g: l.g - s.gl, h: l.h - s.hl, n: l.n - s.nl, depth: l.depth + 1, parent: node}
		// Build the smaller child's histogram; the larger one is the
		// parent's minus it, computed in place in the parent's buffer.
		small, large := left, right
		if right.hi-right.lo < left.hi-left.lo {
			small, large = right, left
		}
		small.hist = g.hist()
		large.hist = l.hist
		g.build(small, large, g.idx[small.lo:small.hi], gh, features, false)
		g.release(small)
		g.release(large)
		leaves[best] = left
		leaves = append(leaves, right)
	}
	t.Leaves = make([]float64, len(leaves))
	t.LeafCover = make([]float32, len(leaves))
	for k, l := range leaves {
		t.Leaves[k] = g.leafValue(l)
		t.LeafCover[k] = stat32(l.h)
		if leafOf != nil {
			for _, i := range g.idx[l.lo:l.hi] {
				leafOf[i] = int32(k)
			}
		}
		if l.hist != nil {
			g.free = append(g.free, l.hist)
		}
	}
	return t
}

// release returns l's histogram to the free list once l can no longer be
// split: its best split, found by build and never searched again, does not
// pass MinGain, so the loop above never picks it, and its histogram is never
// read again. Holding every leaf's histogram until the tree ended kept
// MaxLeaves of them (24 bytes × 256 bins × features each) alive at once,
// though most leaves of a deep tree are too small to split.
func (g *Grower) release(l *growLeaf) {
	if l.hist != nil && !(l.best.gain > g.p.MinGain) {
		g.free = append(g.free, l.hist)
		l.hist = nil
	}
}

// stat32 is v as a float32 for Tree.Gain, Tree.Cover and Tree.LeafCover,
// the largest float32 of its sign when it is beyond them (never when
// gradients are float32s summed in float64 over fewer than 2^100
// documents).
func stat32(v float64) float32 {
	return float32(max(-math.MaxFloat32, min(v, math.MaxFloat32)))
}

// leafValue is l's Newton step −G/(H+λ), or 0 when its hessian sum is
// below MinHess or not positive (as XGBoost's CalcWeight). Splits keep
// both sides at MinHess or more, so only a root that was never split can
// fall short; without the check it took a step MinHess forbids, or 0/0.
func (g *Grower) leafValue(l *growLeaf) float64 {
	if l.h < g.p.MinHess || l.h <= 0 {
		return 0
	}
	return -l.g / (l.h + g.p.Lambda)
}

// partition reorders idx[lo:hi] so that the documents whose code is <= bin
// come first, keeping the order within each side, and returns the boundary.
// Large segments are cut into one part per worker; each part is partitioned
// on its own and the parts' left and right runs are then laid end to end.
func (g *Grower) partition(lo, hi int, col []uint8, bin uint8) int {
	seg := g.idx[lo:hi]
	tmp := g.tmp[:len(seg)]
	w := g.workers
	if len(seg) < 1<<16 {
		w = 1
	}
	if w == 1 {
		return lo + partitionPart(seg, tmp, col, bin)
	}
	parts := make([]int, w+1) // part k is seg[parts[k]:parts[k+1]]
	lefts := make([]int, w)
	for k := range w {
		parts[k+1] = len(seg) * (k + 1) / w
	}
	var wg sync.WaitGroup
	for k := range w {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			a, b := parts[k], parts[k+1]
			lefts[k] = partitionPart(seg[a:b], tmp[a:b], col, bin)
		}(k)
	}
	wg.Wait()
	// Part k's left run is at seg[parts[k]:], its right run at
	// seg[parts[k]+lefts[k]:parts[k+1]]. Save the right runs, close up the
	// left runs (they only move towards the front), then append the rights.
	nl := 0
	for k := range w {
		a, b := parts[k], parts[k+1]
		copy(tmp[a+lefts[k]:b], seg[a+lefts[k]:b])
		copy(seg[nl:], seg[a:a+lefts[k]])
		nl += lefts[k]
	}
	at := nl
	for k := range w {
		a, b := parts[k], parts[k+1]
		at += copy(seg[at:], tmp[a+lefts[k]:b])
	}
	return lo + nl
}

// partitionPart stably moves the documents of seg whose code is <= bin to
// the front of seg and the others behind them, using tmp (as long as seg) as
// scratch, and returns how many went to the front.
func partitionPart(seg, tmp []int32, col []uint8, bin uint8) int {
	j, r := 0, 0
	for _, i := range seg {
		if col[i] <= bin {
			seg[j] = i
			j++
		} else {
			tmp[r] = i
			r++
		}
	}
	copy(seg[j:], tmp[:r])
	return j
}

// build fills l.hist with the histograms of the documents idx, for every
// feature group holding one of features, sharing the groups between the
// workers when there is enough work. all says idx is every document in
// order. When sibling is not nil, sibling.hist holds the parent's
// histogram, and each group's part of it becomes the sibling's histogram
// (parent minus l's) while it is still in cache. l.hist need not be
// cleared. While a group's histograms are in cache, the best splits of l
// and sibling over its features are found; they end up in l.best and
// sibling.best.
func (g *Grower) build(l, sibling *growLeaf, idx []int32, gh []GradPair, features []int, all bool) {
	h := l.hist
	var parent []hbin
	if sibling != nil {
		parent = sibling.hist
	}
	gho := gh
	if !all {
		// Gather the pairs once, so every group reads them in sequence.
		if cap(g.ordered) < len(idx) {
			g.ordered = make([]GradPair, len(idx))
		}
		gho = g.ordered[:len(idx)]
		for j, i := range idx {
			gho[j] = gh[i]
		}
	}
	fg := &g.fg
	if !all && len(idx) < len(gh)/scatteredBelow {
		fg = &g.wide
	}
	groups := g.groupsOf(fg, features)
	for len(g.bests) < 2*len(groups) {
		g.bests = append(g.bests, split{})
	}
	bests := g.bests[:2*len(groups)]
	splitL, splitS := g.canSplit(l), sibling != nil && g.canSplit(sibling)
	one := func(k, worker int) {
		gi := groups[k]
		lo, hi := gi*fg.width, (gi+1)*fg.width
		hg := h[g.off[lo]:g.off[hi]]
		clear(hg)
		if fg == &g.wide {
			q := gi * fg.width / groupWidth
			buildScattered(hg, fg.rows[gi], fg.width, idx, gho, g.buf[worker], g.unitH, g.stride[q:q+fg.width/groupWidth])
		} else if s := g.stride[gi]; s != 256 {
			buildGroupNarrow(hg, s, fg.rows[gi], groupWidth, 0, idx, gho, all, g.unitH)
		} else {
			buildGroup4(hg, fg.rows[gi], idx, gho, all, g.unitH)
		}
		if parent != nil {
			pg := parent[g.off[lo]:g.off[hi]]
			for k := range pg {
				pg[k].G -= hg[k].G
				pg[k].H -= hg[k].H
				pg[k].N -= hg[k].N
			}
		}
		bl, bs := &bests[2*k], &bests[2*k+1]
		*bl, *bs = split{gain: math.Inf(-1)}, split{gain: math.Inf(-1)}
		for _, f := range g.featuresIn(features, lo, hi) {
			if splitL {
				g.evalFeature(l, f, h[g.off[f]:], bl)
			}
			if splitS {
				g.evalFeature(sibling, f, parent[g.off[f]:], bs)
			}
		}
	}
	defer func() {
		// Groups in ascending order, strict improvement: the result does not
		// depend on which worker took which group.
		best1, best2 := split{gain: math.Inf(-1)}, split{gain: math.Inf(-1)}
		for k := range groups {
			if bests[2*k].gain > best1.gain {
				best1 = bests[2*k]
			}
			if bests[2*k+1].gain > best2.gain {
				best2 = bests[2*k+1]
			}
		}
		l.best = best1
		if sibling != nil {
			sibling.best = best2
		}
	}()
	w := g.workers
	if len(idx)*len(features) < 1<<16 || len(groups) < 2 {
		w = 1
	}
	if w == 1 {
		for k := range groups {
			one(k, 0)
		}
		return
	}
	var wg sync.WaitGroup
	for k := 0; k < w; k++ {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			for j := k; j < len(groups); j += w {
				one(j, k)
			}
		}(k)
	}
	wg.Wait()
}

// A histogram larger than narrowAbove bytes with 256 bins for every feature
// gives the groups of features with at most narrowBins bins each just as
// many (NewGrowerContext). Below it nothing changes: the assembly kernels
// build every group. Variables for the tests.
var (
	narrowAbove int64 = 64 << 20
	narrowBins        = 128
)

// availableMemory is data.AvailableMemory (a variable for the tests).
var availableMemory = data.AvailableMemory

// HistMemoryError is the error of a grower whose histograms would not fit
// in the memory available: training needs two at least (a leaf's and its
// smaller child's), besides the codes laid out row-major twice.
type HistMemoryError struct {
	Features, Docs int   // of the training data (the features that vary)
	Wide           int   // features of more than narrowBins bins: 256 each in a histogram
	Hist, Codes    int64 // bytes: two histograms, and the row-major codes
	Avail          int64 // bytes available
	// Narrow says the data are wide enough for narrow histograms, where
	// fewer bins (--max-bins) make them smaller.
	Narrow bool
}

func (e *HistMemoryError) Error() string {
	way := "use fewer features or documents"
	switch {
	case e.Hist > e.Codes && e.Wide > 0 && e.Narrow:
		way = fmt.Sprintf("use fewer features, or --max-bins %d (on data this wide a feature of at most %d bins gets as many in a histogram, not 256)", narrowBins, narrowBins)
	case e.Hist > e.Codes:
		way = "use fewer features"
	}
	return fmt.Sprintf("training on %d documents × %d features needs about %s of memory (two split histograms, %s, and the codes laid out by document, %s), more than the %s available: %s",
		e.Docs, e.Features, data.SizeString(e.Hist+e.Codes), data.SizeString(e.Hist), data.SizeString(e.Codes), data.SizeString(e.Avail), way)
}

// checkHistMemory returns a *HistMemoryError when two histograms of total
// bins and the row-major codes (two layouts of n documents × padded
// features) need more memory than is available; nil when they fit or the
// memory available is not known. numBins are the features' bin counts;
// narrow says the groups of few bins are narrow.
func checkHistMemory(numBins []int, total, n, padded int, narrow bool) error {
	avail := availableMemory()
	if avail <= 0 {
		return nil
	}
	hist := 2 * int64(total) * int64(unsafe.Sizeof(hbin{}))
	codes := 2 * int64(n) * int64(padded)
	if hist+codes <= avail {
		return nil
	}
	wide := 0
	for _, k := range numBins {
		if k > narrowBins {
			wide++
		}
	}
	return &HistMemoryError{Features: len(numBins), Docs: n, Wide: wide, Hist: hist, Codes: codes, Avail: avail, Narrow: narrow}
}

// scatteredBelow: a leaf with fewer than 1/scatteredBelow of the documents
// is built by buildScattered.
const scatteredBelow = 16

// featuresIn returns the features (sorted) that lie in [lo, hi).
func (g *Grower) featuresIn(features []int, lo, hi int) []int {
	a, _ := slices.BinarySearch(features, lo)
	b, _ := slices.BinarySearch(features, hi)
	return features[a:b]
}

// groupsOf returns the groups of fg that hold any of features (sorted).
func (g *Grower) groupsOf(fg *featureGroups, features []int) []int {
	g.groups = g.groups[:0]
	for _, f := range features {
		gi := f / fg.width
		if n := len(g.groups); n == 0 || g.groups[n-1] != gi {
			g.groups = append(g.groups, gi)
		}
	}
	return g.groups
}

// canSplit reports whether l may be split at all (enough documents, depth
// not reached).
func (g *Grower) canSplit(l *growLeaf) bool {
	p := g.p
	return l.n >= 2*int64(p.MinDocs) && (p.MaxDepth == 0 || l.depth < p.MaxDepth)
}

// evalFeature improves best with the best split of l on feature f, whose
// histogram is h. Splits are compared by gain only, and the features of a
// leaf are offered in ascending order, so ties go to the lowest feature and
// bin.
func (g *Grower) evalFeature(l *growLeaf, f int, h []hbin, best *split) {
	p := g.p
	lambda := p.Lambda
	parent := l.g * l.g / (l.h + lambda)
	h = h[:g.numBins[f]]
	var gl, hl float64
	var nl int64
	for b := 0; b < len(h)-1; b++ {
		gl += h[b].G
		hl += h[b].H
		if g.unitH {
			nl = int64(hl)
		} else {
			nl += h[b].N
		}
		// A side needs a positive hessian sum even when MinHess is 0:
		// with λ = 0 its gain and leaf value would divide by 0.
		if nl < int64(p.MinDocs) || hl < p.MinHess || hl <= 0 {
			continue
		}
		nr := l.n - nl
		hr := l.h - hl
		if nr < int64(p.MinDocs) {
			break
		}
		if hr < p.MinHess || hr <= 0 {
			continue
		}
		gr := l.g - gl
		gain := gl*gl/(hl+lambda) + gr*gr/(hr+lambda) - parent
		if gain > best.gain {
			*best = split{feature: f, bin: uint8(b), gain: gain, gl: gl, hl: hl, nl: nl}
		}
	}
}
