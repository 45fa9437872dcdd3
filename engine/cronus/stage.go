package cronus

import (
	"math"
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
}

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
// fit. When no feature is shared by trees this is exactly the λ above which
// the convex problem's solution is zero; with shared features the exact
// threshold of the convex problem can be larger (trees may share the price
// of a feature), and has no closed form. Returns 0 when ρ alone already
// zeroes every tree, and +Inf when some tree can never be zeroed (it and
// all its features are free).
func (p *stageProblem) lambdaMax() float64 {
	n := p.T + 1
	icpt := 0.0
	if g := p.G[p.T*n+p.T]; g > 0 {
		icpt = p.r[p.T] / g
	}
	lmax := 0.0
	for t := 0; t < p.T; t++ {
		b := math.Abs(p.r[t] - p.G[t*n+p.T]*icpt)
		if b <= p.rho {
			continue
		}
		price := 0.0
		if p.A[t] == 0 {
			price += p.treeCost[t]
		}
		for _, f := range p.treeFeats[t] {
			if p.B[f] == 0 {
				price += p.featCost[f]
			}
		}
		price *= p.d
		if price == 0 {
			return math.Inf(1)
		}
		lmax = max(lmax, (b-p.rho)/price)
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
// Coordinate descent is exact for the ℓ1 terms and for a tree's own cost,
// but it is conservative for a feature shared by several trees that are all
// at zero: each tree alone must pay the whole feature to enter. This is the
// behaviour we want for cost (a feature is worth extracting only if some tree
// justifies it), and it is documented as such.
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
	for sweeps < opt.maxSweeps {
		sweeps++
		biggest, moved := 0.0, 0.0
		for j := 0; j <= p.T; j++ {
			t := (j + p.T) % (p.T + 1) // the intercept first, then the trees
			a := p.G[t*n+t]
			if a <= 0 {
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
				if math.Abs(b) <= kink {
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
	return sweeps
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
