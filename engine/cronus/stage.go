package cronus

import (
	"math"
	"slices"
	"sort"
)

// stageProblem is the convex problem of one stage k with the earlier stages
// fixed (the single-stage problem eq (7) is the case k = 1, d = 1; Algorithm
// 2 solves one per stage, pretending the stage is the last):
//
//	min_β ½ βᵀGβ − rᵀβ + ρ Σ_t |β_t|
//	      + λ [ Σ_t e_t √(A_t + d² β_t²) + Σ_α c_α √(B_α + d² Σ_{t∈T_α} β_t²) ]
//
// where G = HᵀΩH and r = HᵀΩy include the intercept (index T, not
// penalised), A_t = Σ_{j<k} (β_t^j d_j)² and B_α = Σ_{j<k} Σ_{t∈T_α} (β_t^j d_j)²
// carry the earlier stages (a tree or feature they already paid for is free
// at β = 0 here), and d is the fraction of inputs reaching the stage.
type stageProblem struct {
	T         int       // trees; the intercept is index T
	G         []float64 // (T+1)×(T+1), row-major
	r         []float64 // T+1
	rho       float64
	lambda    float64
	d         float64
	treeCost  []float64 // e_t
	featCost  []float64 // c_α
	treeFeats [][]int   // T_α inverted: the features of each tree
	A         []float64 // per tree, from earlier stages
	B         []float64 // per feature, from earlier stages
	joint     bool      // joint moves for trees sharing an unpaid feature (Problem.JointEntry)
	flat      []bool    // trees held at zero (Problem.Flat; nil: none)
	// noise is, per tree, the bound on the rounding error of its gradient
	// r_t − (Gβ)_t below which the gradient counts as 0 (gradientNoise;
	// nil: none).
	noise []float64
	// own is the buffer G and r are cut from when it goes back to the
	// Problem's gramBuffers after the stage (Problem.release); nil when G
	// is the product at ω that the Problem keeps.
	own []float64
}

// isFlat reports whether tree t is held at zero (Problem.Flat).
func (p *stageProblem) isFlat(t int) bool { return t < len(p.flat) && p.flat[t] }

// objective returns the value of the stage problem at beta.
func (p *stageProblem) objective(beta []float64) float64 {
	n := p.T + 1
	v := 0.0
	for a := 0; a < n; a++ {
		if beta[a] == 0 {
			continue
		}
		row := p.G[a*n : a*n+n]
		s := 0.0
		for b, x := range beta {
			s += row[b] * x
		}
		v += 0.5*beta[a]*s - p.r[a]*beta[a]
	}
	u := p.d * p.d
	S := append([]float64(nil), p.B...)
	for t := 0; t < p.T; t++ {
		b := beta[t]
		v += p.rho*math.Abs(b) + p.lambda*p.treeCost[t]*math.Sqrt(p.A[t]+u*b*b)
		for _, f := range p.treeFeats[t] {
			S[f] += u * b * b
		}
	}
	for f, s := range S {
		v += p.lambda * p.featCost[f] * math.Sqrt(s)
	}
	return v
}

// lambdaMax returns the smallest λ at which weights that are all zero (but
// for the fitted intercept) stay zero under solve: no single tree can pay
// its way in, that is |b_t| ≤ ρ + λ d (e_t [A_t = 0] + Σ_{α∈t, B_α=0} c_α)
// for every tree, with b_t the gradient of the loss at the intercept-only
// fit; and, with joint moves, no group of trees sharing an unpaid feature
// can enter together (blockViolation: ‖x⁺(λ)‖₂ ≤ λ d c_α, found by
// bisection, as ‖x⁺(λ)‖₂ − λ d c_α decreases in λ). Returns 0 when ρ alone
// already zeroes every tree, and +Inf when some tree can never be zeroed
// (it and all its features are free, or paid by earlier stages): a stage
// with a tree paid for earlier has no λ that empties it, so the stage cap,
// which uses this, has no cap there.
func (p *stageProblem) lambdaMax() float64 { return p.lambdaMaxOver(false) }

// pricedLambdaMax is lambdaMax over the trees with a price: free trees (a
// tree cost of 0 and only free features) enter at any λ and are left out,
// λ_max being that of the others, taken at the intercept-only fit as for
// them. It is the problem's λ_max (ComputeScales): with +Inf there,
// λ = fraction × λ_max was infinite and the whole cascade NaN
// (--tree-cost 0 and a cost file with a free feature).
func (p *stageProblem) pricedLambdaMax() float64 { return p.lambdaMaxOver(true) }

// freeTrees counts the trees that pricedLambdaMax leaves out as free: not
// flat, off zero in the gradient at the intercept-only fit (above ρ), and
// of entry price 0, so that they enter at any λ.
func (p *stageProblem) freeTrees() int {
	b := p.interceptGrad()
	free := 0
	for t := 0; t < p.T; t++ {
		if !p.isFlat(t) && b[t] > p.rho && entryPrice(t, p.treeCost, p.featCost, p.treeFeats, p.A, p.B) == 0 {
			free++
		}
	}
	return free
}

// gradientNoise returns, for each of the T trees of the product G (T+1
// square, the intercept last) at weights w with Σ_i w_i y_i² = yy over n
// documents, the bound 4 n u √(G_tt yy) (u = 2⁻⁵³, the unit roundoff) on
// the rounding error of the tree's computed gradient at the
// intercept-only fit, r_t − G_{t,T}·r_T/G_TT, whose exact value is
// Σ_i w_i h_t(i) (y_i − ȳ). A sum of n products, added in any order, is
// off by at most about n u times the sum of their magnitudes, which
// Cauchy–Schwarz bounds here: Σ|w h_t y| ≤ √(G_tt yy) for r_t; the same
// for G_{t,T} times the intercept (|r_T/G_TT| Σ|w h_t| ≤ √(G_tt yy)); and
// the same for G_{t,T} times the intercept's own error; the fourth n u
// covers the last roundings. Where the exact gradient is 0 (the targets
// uncorrelated with the tree) the computed one is rounding, of either
// sign and different on each architecture's kernel; the smallest
// gradient of a 100-tree MQ2008 model is 10¹⁰ times its bound.
func gradientNoise(G []float64, T int, yy float64, n int) []float64 {
	noise := make([]float64, T)
	c := 4 * float64(n) * 0x1p-53
	for t := range noise {
		noise[t] = c * math.Sqrt(max(G[t*(T+1)+t], 0)*max(yy, 0))
	}
	return noise
}

// grad returns g, a gradient of tree t (r_t − (Gβ)_t, at β_t or at
// β_t = 0), or 0 when |g| is within the bound on its rounding error
// (noise): a tree that only rounding correlates with the targets does not
// enter, in λ_max, ρ_max, the free trees, solve and blockViolation alike.
func (p *stageProblem) grad(t int, g float64) float64 {
	if t < len(p.noise) && math.Abs(g) <= p.noise[t] {
		return 0
	}
	return g
}

// interceptGrad returns |b_t|, tree t's gradient at the intercept-only fit
// (grad: 0 when it is rounding), for each tree.
func (p *stageProblem) interceptGrad() []float64 {
	n := p.T + 1
	icpt := 0.0
	if g := p.G[p.T*n+p.T]; g > 0 {
		icpt = p.r[p.T] / g
	}
	b := make([]float64, p.T)
	for t := range b {
		b[t] = math.Abs(p.grad(t, p.r[t]-p.G[t*n+p.T]*icpt))
	}
	return b
}

// lambdaMaxOver is lambdaMax, or pricedLambdaMax when skipFree.
func (p *stageProblem) lambdaMaxOver(skipFree bool) float64 {
	b := p.interceptGrad() // made |b_t| − ρ below
	lmax := 0.0
	for t := 0; t < p.T; t++ {
		if p.isFlat(t) { // never enters, though rounding leaves its b_t above 0
			b[t] = 0
			continue
		}
		b[t] -= p.rho
		if b[t] <= 0 {
			continue
		}
		price := entryPrice(t, p.treeCost, p.featCost, p.treeFeats, p.A, p.B) * p.d
		if price == 0 {
			if !skipFree {
				return math.Inf(1)
			}
			continue
		}
		lmax = max(lmax, b[t]/price)
	}
	if !p.joint || lmax == 0 || p.d <= 0 {
		return lmax
	}
	// Groups: for feature f, tree t's excess is b_t − λ d q_t, with q_t
	// the tree's price besides f.
	featTrees := p.featureTrees(func(t int) bool { return b[t] > 0 })
	q := make([]float64, p.T)
	for f, trees := range featTrees {
		if p.B[f] != 0 || p.featCost[f] <= 0 || len(trees) < 2 {
			continue
		}
		top := 0.0
		for _, t := range trees {
			q[t] = 0
			if p.A[t] == 0 {
				q[t] += p.treeCost[t]
			}
			for _, h := range p.treeFeats[t] {
				if h != f && p.B[h] == 0 {
					q[t] += p.featCost[h]
				}
			}
			top = max(top, b[t])
		}
		excess := func(lambda float64) float64 { // ‖x⁺‖₂ − λ d c_f
			sq := 0.0
			for _, t := range trees {
				if x := b[t] - lambda*p.d*q[t]; x > 0 {
					sq += x * x
				}
			}
			return math.Sqrt(sq) - lambda*p.d*p.featCost[f]
		}
		lo := lmax
		if excess(lo) <= 0 {
			continue
		}
		hi := math.Sqrt(float64(len(trees))) * top / (p.d * p.featCost[f])
		for iter := 0; iter < 200 && hi-lo > 1e-15*hi; iter++ {
			mid := 0.5 * (lo + hi)
			if excess(mid) > 0 {
				lo = mid
			} else {
				hi = mid
			}
		}
		lmax = hi
	}
	return lmax
}

// solveOptions bound the coordinate descent.
type solveOptions struct {
	maxSweeps int     // full passes over the coordinates
	tol       float64 // stop when no weight moved by more than tol·max|β|
}

// solve minimises the stage problem by cyclic coordinate descent on the
// exact objective, starting from beta (modified in place). Each coordinate
// is minimised exactly: the 1-D problem ½aβ² − bβ + ρ|β| + Σ_m w_m√(S_m+uβ²)
// is zero exactly when |b| ≤ ρ + √u Σ_{m: S_m=0} w_m, so trees the solution
// drops are exact zeros without any pruning threshold. The objective never
// increases. It returns the number of sweeps done.
//
// Coordinate descent alone stops short where zero trees share a feature
// nobody has paid for: each tree alone would have to pay the whole feature
// to enter, while together they can share its price (the group term's
// subgradient at zero is a vector of norm ≤ 1 over the group's trees, not
// a full unit for each). With joint moves (p.joint), when the sweeps have
// converged, solve looks for such a group (blockViolation) and, if it finds
// one, moves its trees together along a descent direction, minimising the
// objective exactly along it, and resumes the sweeps; at most
// maxBlockSteps times. Without them each tree alone must pay the whole
// feature to enter: a feature is extracted only if some tree justifies it.
func (p *stageProblem) solve(beta []float64, opt solveOptions) int {
	n := p.T + 1
	u := p.d * p.d
	sqrtU := p.d
	// z = Gβ, kept up to date; S_α = B_α + u Σ_{t∈T_α} β_t².
	z := make([]float64, n)
	for a := 0; a < n; a++ {
		if beta[a] == 0 {
			continue
		}
		for b := 0; b < n; b++ {
			z[b] += p.G[b*n+a] * beta[a]
		}
	}
	// S_α is kept with a count of its non-zero trees, so that a group whose
	// trees are all zero has exactly S_α = B_α, free of rounding residue.
	S := append([]float64(nil), p.B...)
	nz := make([]int, len(p.B))
	for t := 0; t < p.T; t++ {
		if beta[t] == 0 {
			continue
		}
		for _, f := range p.treeFeats[t] {
			S[f] += u * beta[t] * beta[t]
			nz[f]++
		}
	}
	var ws, ss []float64 // the smooth terms of one coordinate
	move := func(t int, nb float64) {
		old := beta[t]
		if nb == old {
			return
		}
		row := p.G[t*n : t*n+n] // G is symmetric: column t is row t
		for b := range z {
			z[b] += row[b] * (nb - old)
		}
		if t < p.T {
			for _, f := range p.treeFeats[t] {
				if old != 0 {
					nz[f]--
				}
				if nb != 0 {
					nz[f]++
				}
				if nz[f] == 0 {
					S[f] = p.B[f]
				} else {
					S[f] += u * (nb*nb - old*old)
				}
			}
		}
		beta[t] = nb
	}
	sweeps := 0
	var blk blockScratch
	for step := 0; ; step++ {
		for sweeps < opt.maxSweeps {
			sweeps++
			biggest, moved := 0.0, 0.0
			for j := 0; j <= p.T; j++ {
				t := (j + p.T) % (p.T + 1) // the intercept first, then the trees
				a := p.G[t*n+t]
				if a <= 0 || t < p.T && p.isFlat(t) {
					move(t, 0)
					continue
				}
				b := p.r[t] - (z[t] - a*beta[t])
				var nb float64
				if t == p.T {
					nb = b / a // the intercept is not penalised
				} else {
					kink := p.rho
					ws, ss = ws[:0], ss[:0]
					addTerm := func(w, s float64) {
						if w == 0 {
							return
						}
						if s <= 0 {
							kink += w * sqrtU
						} else {
							ws, ss = append(ws, w), append(ss, s)
						}
					}
					addTerm(p.lambda*p.treeCost[t], p.A[t])
					bt := beta[t]
					for _, f := range p.treeFeats[t] {
						other := p.B[f] // the group without tree t
						if nz[f] > 1 || (nz[f] == 1 && bt == 0) {
							other = max(S[f]-u*bt*bt, p.B[f])
						}
						addTerm(p.lambda*p.featCost[f], other)
					}
					if math.Abs(b) <= kink || p.grad(t, b) == 0 {
						nb = 0
					} else {
						x := solve1D(a, math.Abs(b)-kink, ws, ss, u)
						nb = math.Copysign(x, b)
					}
				}
				if d := math.Abs(nb - beta[t]); d > moved {
					moved = d
				}
				move(t, nb)
				biggest = max(biggest, math.Abs(nb))
			}
			if moved <= opt.tol*max(biggest, 1e-300) {
				break
			}
		}
		if step == maxBlockSteps || sweeps >= opt.maxSweeps {
			break
		}
		// Trees sharing a feature only they pay for leave it together or
		// not at all: coordinate by coordinate each sees the others pay,
		// and their weights only shrink geometrically (three trees of
		// MQ2008's cost-100 feature 25 stopped at 10⁻⁸, each document
		// paying 100 for them).
		if g := p.groupExit(&blk, beta, z, S, nz); g != nil {
			for _, t := range g {
				move(t, 0)
			}
			continue
		}
		if !p.joint {
			break
		}
		dir := p.blockViolation(&blk, beta, z, S, nz)
		if dir == nil {
			break
		}
		alpha := p.lineStep(&blk, dir, z, S, u)
		if !(alpha > 0) {
			break
		}
		for _, e := range dir {
			move(e.t, alpha*e.s)
		}
	}
	return sweeps
}

// groupExit returns the non-zero trees of a feature that they alone pay
// for (no earlier stage: B_α = 0; two or more of them) when setting all
// of them to zero at once does not increase the objective (of several
// such groups, the one that lowers it most), or nil when there is none.
// The decision is the objective's exact change,
//
//	−δᵀ(Gβ − r) + ½δᵀGδ − Σ_{t∈g} (ρ|β_t| + λe_t(√(A_t+uβ_t²) − √A_t))
//	  + λ Σ_α c_α (√S'_α − √S_α),  δ = β on g, 0 elsewhere,
//
// computed as a sum of its parts, not as a difference of two totals (it
// is about 10⁻¹⁰ of terms of 10⁻⁶ there). Zero for the group is then at
// least as good as the point the sweeps converged to, and the sweeps go on
// from it: the objective never increases.
func (p *stageProblem) groupExit(b *blockScratch, beta, z, S []float64, nz []int) []int {
	if b.featTrees == nil {
		b.featTrees = p.featureTrees(func(int) bool { return true })
	}
	n := p.T + 1
	u := p.d * p.d
	var g, best []int
	bestDelta := 0.0
	for f, trees := range b.featTrees {
		if p.B[f] != 0 || nz[f] < 2 || p.featCost[f] <= 0 {
			continue
		}
		g = g[:0]
		for _, t := range trees {
			if beta[t] != 0 {
				g = append(g, t)
			}
		}
		delta := 0.0
		for _, t := range g {
			bt := beta[t]
			delta -= bt * (z[t] - p.r[t])
			row := p.G[t*n : t*n+n]
			for _, s := range g {
				delta += 0.5 * bt * row[s] * beta[s]
			}
			delta -= p.rho * math.Abs(bt)
			if e := p.treeCost[t]; e != 0 {
				delta -= p.lambda * e * (math.Sqrt(p.A[t]+u*bt*bt) - math.Sqrt(p.A[t]))
			}
		}
		// The features the group's trees use: each once.
		for i, t := range g {
			for _, h := range p.treeFeats[t] {
				first, left, drop := true, nz[h], 0.0
				for j, s := range g {
					if slices.Contains(p.treeFeats[s], h) {
						if j < i {
							first = false
							break
						}
						left--
						drop += u * beta[s] * beta[s]
					}
				}
				if !first || p.featCost[h] == 0 {
					continue
				}
				after := p.B[h]
				if left > 0 {
					after = max(S[h]-drop, p.B[h])
				}
				delta += p.lambda * p.featCost[h] * (math.Sqrt(after) - math.Sqrt(S[h]))
			}
		}
		if delta <= bestDelta {
			best, bestDelta = append(best[:0], g...), delta
		}
	}
	return best
}

// maxBlockSteps bounds the joint moves of one solve.
const maxBlockSteps = 200

// featureTrees returns the trees of each feature, of the trees keep accepts.
func (p *stageProblem) featureTrees(keep func(t int) bool) [][]int {
	out := make([][]int, len(p.B))
	for t, fs := range p.treeFeats {
		if keep(t) {
			for _, f := range fs {
				out[f] = append(out[f], t)
			}
		}
	}
	return out
}

// blockScratch holds blockViolation's and lineStep's work space.
type blockScratch struct {
	featTrees [][]int // the trees of each feature
	dir       []blockMove
	q         []float64 // per feature, Σ s_t² over the direction's trees using it
	touched   []int     // the features with q > 0, in ascending order
}

// blockMove is one tree's part of a joint direction.
type blockMove struct {
	t int
	s float64
}

// blockViolation returns a descent direction for the trees of the feature
// most in violation of the optimality of zero, or nil when there is none.
// For a feature α nobody pays for (B_α = 0, none of its trees non-zero),
// each of its zero trees t has the excess
//
//	x_t = |g_t| − ρ − λd (e_t [A_t = 0] + Σ_{α' ∈ t, α' ≠ α, unpaid} c_α')
//
// of its gradient g_t = r_t − (Gβ)_t over what it pays alone besides α.
// Zero is optimal for the group only if ‖x⁺‖₂ ≤ λ d c_α; when it is not,
// the direction s_t = sign(g_t)·x_t⁺ has the directional derivative
// ≤ −‖x⁺‖² + λ d c_α ‖x⁺‖ < 0 (the other features' terms are bounded by
// their whole price). Trees sharing two unpaid features that only
// together could pay for both are not found; each tree or group here pays
// at least its share.
func (p *stageProblem) blockViolation(b *blockScratch, beta, z, S []float64, nz []int) []blockMove {
	if p.lambda <= 0 || p.d <= 0 {
		return nil
	}
	if b.featTrees == nil {
		b.featTrees = p.featureTrees(func(int) bool { return true })
	}
	unpaid := func(f int) bool { return p.B[f] == 0 && nz[f] == 0 }
	ld := p.lambda * p.d
	best, bestRatio := -1, 1.0
	for f, trees := range b.featTrees {
		if !unpaid(f) || p.featCost[f] <= 0 || len(trees) < 2 {
			continue
		}
		sq := 0.0
		for _, t := range trees {
			if x := p.excess1(t, f, beta, z, unpaid); x > 0 {
				sq += x * x
			}
		}
		if ratio := math.Sqrt(sq) / (ld * p.featCost[f]); ratio > bestRatio*(1+1e-9) {
			best, bestRatio = f, ratio
		}
	}
	if best < 0 {
		return nil
	}
	b.dir = b.dir[:0]
	for _, t := range b.featTrees[best] {
		if x := p.excess1(t, best, beta, z, unpaid); x > 0 {
			g := p.r[t] - z[t]
			b.dir = append(b.dir, blockMove{t: t, s: math.Copysign(x, g)})
		}
	}
	return b.dir
}

// excess1 is x_t of blockViolation for tree t and feature f (−1 when the
// tree is not at zero).
func (p *stageProblem) excess1(t, f int, beta, z []float64, unpaid func(int) bool) float64 {
	if beta[t] != 0 {
		return -1
	}
	ld := p.lambda * p.d
	price := p.rho
	if p.A[t] == 0 {
		price += ld * p.treeCost[t]
	}
	for _, h := range p.treeFeats[t] {
		if h != f && unpaid(h) {
			price += ld * p.featCost[h]
		}
	}
	return math.Abs(p.grad(t, p.r[t]-z[t])) - price
}

// lineStep returns the α > 0 minimising the objective at β + α·dir (the
// trees of dir all at zero), exactly: along the line the objective is
// ½aα² − cα + Σ_m w_m √(s_m + uα²) plus terms linear in α, so its
// minimiser is solve1D's root. It returns 0 when the line does not descend.
func (p *stageProblem) lineStep(b *blockScratch, dir []blockMove, z, S []float64, u float64) float64 {
	n := p.T + 1
	a, c, kink := 0.0, 0.0, 0.0
	sqrtU := math.Sqrt(u)
	var ws, ss []float64
	if b.q == nil {
		b.q = make([]float64, len(p.B))
	}
	b.touched = b.touched[:0]
	for _, e := range dir {
		row := p.G[e.t*n : e.t*n+n]
		for _, e2 := range dir {
			a += e.s * row[e2.t] * e2.s
		}
		c += (p.r[e.t] - z[e.t]) * e.s
		kink += p.rho * math.Abs(e.s)
		if w := p.lambda * p.treeCost[e.t] * math.Abs(e.s); w > 0 {
			if p.A[e.t] == 0 {
				kink += w * sqrtU
			} else {
				ws, ss = append(ws, w), append(ss, p.A[e.t]/(e.s*e.s))
			}
		}
		for _, f := range p.treeFeats[e.t] {
			if b.q[f] == 0 {
				b.touched = append(b.touched, f)
			}
			b.q[f] += e.s * e.s
		}
	}
	sort.Ints(b.touched) // the features in a fixed order
	for _, f := range b.touched {
		q := b.q[f]
		b.q[f] = 0 // ready for the next call
		w := p.lambda * p.featCost[f] * math.Sqrt(q)
		if w == 0 {
			continue
		}
		if S[f] <= 0 {
			kink += w * sqrtU
		} else {
			ws, ss = append(ws, w), append(ss, S[f]/q)
		}
	}
	if !(a > 0) || c-kink <= 0 {
		return 0
	}
	return solve1D(a, c-kink, ws, ss, u)
}

// solve1D returns the x > 0 with a x + Σ_m w_m u x / √(s_m + u x²) = c, for
// c > 0, a > 0, s_m > 0: the left side increases from 0, so the root is
// unique and lies in (0, c/a]. Newton steps, kept inside a shrinking
// bracket by bisection.
func solve1D(a, c float64, ws, ss []float64, u float64) float64 {
	lo, hi := 0.0, c/a
	x := hi
	for iter := 0; iter < 100; iter++ {
		f, df := a*x-c, a
		for m, w := range ws {
			q := ss[m] + u*x*x
			sq := math.Sqrt(q)
			f += w * u * x / sq
			df += w * u * ss[m] / (q * sq)
		}
		if f > 0 {
			hi = x
		} else {
			lo = x
		}
		nx := x - f/df
		if !(nx > lo && nx < hi) {
			nx = 0.5 * (lo + hi)
		}
		if math.Abs(nx-x) <= 1e-15*max(x, 1e-300) || hi-lo <= 1e-15*hi {
			return nx
		}
		x = nx
	}
	return x
}

// entryPrice is what tree t pays per unit of its weight to leave zero: its
// own cost e_t unless treeUse[t] says some stage already pays for it, plus
// c_α for each of its features α with featUse[α] = 0 (none paid yet).
func entryPrice(t int, treeCost, featCost []float64, treeFeats [][]int, treeUse, featUse []float64) float64 {
	price := 0.0
	if treeUse[t] == 0 {
		price += treeCost[t]
	}
	for _, f := range treeFeats[t] {
		if featUse[f] == 0 {
			price += featCost[f]
		}
	}
	return price
}
