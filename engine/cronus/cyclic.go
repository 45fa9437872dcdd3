package cronus

import (
	"math"

	"gonum.org/v1/gonum/optimize"
)

// stageObjective is eq (8) as a function of one stage's weights (on its
// active trees and the intercept) and threshold, the other stages fixed and
// the auxiliary variables of eq (11) fixed at their closed-form values:
//
//	|β_t^k|            → ½(β²/σ_t + σ_t)
//	√Σ_j (β_t^j d_j)²  → ½(Σ_j (β_t^j d_j)²/κ_t + κ_t)
//	√Σ_j Σ_t (F_αt β_t^j d_j)² → ½(…/η_α + η_α)
//
// The soft exit of stage k changes the inputs that reach every later stage,
// so d_j (j > k) depends on β^k and θ^k: the gradient carries that term.
type stageObjective struct {
	pr   *Problem
	st   *State
	k    int
	act  []int // the active trees of stage k; x = (β_act…, intercept, θ)
	last bool  // k is the last stage: no exit, θ absent from x

	// Per document, fixed while stage k is optimised:
	p []float64   // probability of reaching stage k
	c []float64   // Σ_{j>k} q̃_i^j (y_i − s_i^j)², the later stages' loss per unit of I_i^k
	R [][]float64 // R[j−k−1][i]: probability of going from stage k+1 to stage j, j > k
	E float64     // the loss of stages before k (constant)

	// Auxiliary variables (eq 11) and the cost weights of the other stages.
	sigAux []float64 // σ_t for the active trees of stage k
	kappa  []float64 // κ_t per tree (0: tree unused anywhere)
	eta    []float64 // η_α per feature
	treeW  []float64 // per tree: e_t/κ_t + Σ_{α∈t} c_α/η_α (0 where κ_t = 0)
	costK  []float64 // per later stage j > k: Σ_t (β_t^j)² treeW_t, so that cost = ½λ Σ_j d_j² costK_j + …
	consts float64   // the surrogate terms that do not depend on stage k

	s []float64 // scratch: stage-k scores
}

// newStageObjective precomputes what stays fixed while stage k moves.
func newStageObjective(pr *Problem, st *State, k int) *stageObjective {
	n := pr.Train.N
	K := len(st.Stages)
	T := len(pr.Train.H)
	o := &stageObjective{pr: pr, st: st, k: k, last: k == K-1, s: make([]float64, n)}
	o.act = st.Stages[k].Active()
	// Scores and soft exits of every stage.
	scores := make([][]float64, K)
	I := make([][]float64, K)
	for j := range st.Stages {
		scores[j] = pr.Train.Scores(nil, st.Stages[j].Beta)
		I[j] = make([]float64, n)
		for i, s := range scores[j] {
			I[j][i] = 1
			if j < K-1 {
				I[j][i] = sigmoid(s, st.Stages[j].Theta, st.Sigma[j])
			}
		}
	}
	o.p = make([]float64, n)
	o.c = make([]float64, n)
	o.R = make([][]float64, K-1-k)
	for j := range o.R {
		o.R[j] = make([]float64, n)
	}
	for i := 0; i < n; i++ {
		p := 1.0
		for j := 0; j < k; j++ {
			r := pr.Y[i] - scores[j][i]
			o.E += 0.5 * pr.Omega[i] * p * (1 - I[j][i]) * r * r
			p *= I[j][i]
		}
		o.p[i] = p
		R := 1.0 // probability of reaching stage j from stage k+1
		for j := k + 1; j < K; j++ {
			o.R[j-k-1][i] = R
			r := pr.Y[i] - scores[j][i]
			exit := 1.0
			if j < K-1 {
				exit = 1 - I[j][i]
			}
			o.c[i] += R * exit * r * r
			R *= I[j][i]
		}
	}
	// Auxiliary variables at the current point (closed form, eq 11).
	o.kappa = make([]float64, T)
	featSq := make([]float64, len(pr.FeatCost))
	for t := 0; t < T; t++ {
		sq := 0.0
		for j, stg := range st.Stages {
			v := stg.Beta[t] * st.D[j]
			sq += v * v
		}
		o.kappa[t] = math.Sqrt(sq)
		for _, f := range pr.TreeFeats[t] {
			featSq[f] += sq
		}
	}
	o.eta = make([]float64, len(featSq))
	for f, sq := range featSq {
		o.eta[f] = math.Sqrt(sq)
	}
	o.treeW = make([]float64, T)
	for t := 0; t < T; t++ {
		if o.kappa[t] == 0 {
			continue
		}
		w := pr.TreeCost[t] / o.kappa[t]
		for _, f := range pr.TreeFeats[t] {
			w += pr.FeatCost[f] / o.eta[f]
		}
		o.treeW[t] = w
	}
	o.sigAux = make([]float64, len(o.act))
	for a, t := range o.act {
		o.sigAux[a] = math.Abs(st.Stages[k].Beta[t])
	}
	o.costK = make([]float64, K-1-k)
	for j := k + 1; j < K; j++ {
		for t, b := range st.Stages[j].Beta[:T] {
			o.costK[j-k-1] += b * b * o.treeW[t]
		}
	}
	// Constant surrogate terms: the auxiliary halves, the earlier stages'
	// weighted cost and every other stage's ℓ1 surrogate (= |β|).
	for t := 0; t < T; t++ {
		if o.kappa[t] > 0 {
			o.consts += 0.5 * st.Lambda * pr.TreeCost[t] * o.kappa[t]
		}
	}
	for f, e := range o.eta {
		if e > 0 {
			o.consts += 0.5 * st.Lambda * pr.FeatCost[f] * e
		}
	}
	for j := 0; j < k; j++ {
		for t, b := range st.Stages[j].Beta[:T] {
			o.consts += 0.5*st.Lambda*st.D[j]*st.D[j]*b*b*o.treeW[t] + st.Rho[j]*math.Abs(b)
		}
	}
	for j := k + 1; j < K; j++ {
		for _, b := range st.Stages[j].Beta[:T] {
			o.consts += st.Rho[j] * math.Abs(b)
		}
	}
	for a := range o.act {
		o.consts += 0.5 * st.Rho[k] * o.sigAux[a]
	}
	return o
}

// x returns the current point of stage k.
func (o *stageObjective) x() []float64 {
	stg := o.st.Stages[o.k]
	x := make([]float64, 0, len(o.act)+2)
	for _, t := range o.act {
		x = append(x, stg.Beta[t])
	}
	x = append(x, stg.Beta[len(stg.Beta)-1])
	if !o.last {
		x = append(x, stg.Theta)
	}
	return x
}

// set writes x back into the state's stage k.
func (o *stageObjective) set(x []float64) {
	stg := &o.st.Stages[o.k]
	for a, t := range o.act {
		stg.Beta[t] = x[a]
	}
	stg.Beta[len(stg.Beta)-1] = x[len(o.act)]
	if !o.last {
		stg.Theta = x[len(o.act)+1]
	}
}

// eval returns the surrogate objective at x and, when grad is not nil, its
// gradient.
func (o *stageObjective) eval(x, grad []float64) float64 {
	pr, st, k := o.pr, o.st, o.k
	n := pr.Train.N
	na := len(o.act)
	icpt := x[na]
	theta := 0.0
	if !o.last {
		theta = x[na+1]
	}
	sig := st.Sigma[k]
	s := o.s
	for i := range s {
		s[i] = icpt
	}
	for a, t := range o.act {
		b := x[a]
		for i, h := range pr.Train.H[t] {
			s[i] += b * float64(h)
		}
	}
	// Later reach fractions d_j (j > k) through the soft exit of stage k.
	nl := len(o.R)
	dLater := make([]float64, nl)
	loss := o.E
	gs := o.s // reused below as ∂J/∂s_i once s_i is no longer needed
	var gTheta float64
	dI := make([]float64, n) // ∂J/∂I_i^k from the loss
	Ivals := make([]float64, n)
	for i := 0; i < n; i++ {
		r := pr.Y[i] - s[i]
		I := 1.0
		if !o.last {
			I = sigmoid(s[i], theta, sig)
		}
		Ivals[i] = I
		w := pr.Omega[i] * o.p[i]
		if o.last {
			loss += 0.5 * w * r * r
		} else {
			loss += 0.5 * w * ((1-I)*r*r + I*o.c[i])
			dI[i] = 0.5 * w * (o.c[i] - r*r)
		}
		for j := 0; j < nl; j++ {
			dLater[j] += o.p[i] * I * o.R[j][i]
		}
	}
	for j := range dLater {
		dLater[j] /= float64(n)
	}
	// Surrogate costs and ℓ1 of stage k and of the later stages.
	lam := st.Lambda
	dk := st.D[k]
	f := loss + o.consts
	for a, t := range o.act {
		b := x[a]
		f += 0.5 * lam * dk * dk * b * b * o.treeW[t]
		if o.sigAux[a] > 0 {
			f += 0.5 * st.Rho[k] * b * b / o.sigAux[a]
		}
	}
	for j, cj := range o.costK {
		f += 0.5 * lam * dLater[j] * dLater[j] * cj
	}
	if grad == nil {
		return f
	}
	// ∂J/∂d_j for the later stages, then per document ∂J/∂I_i^k.
	dCost := make([]float64, nl)
	for j, cj := range o.costK {
		dCost[j] = lam * dLater[j] * cj / float64(n)
	}
	for i := 0; i < n; i++ {
		r := pr.Y[i] - s[i]
		w := pr.Omega[i] * o.p[i]
		var g float64 // ∂J/∂s_i
		if o.last {
			g = -w * r
		} else {
			I := Ivals[i]
			gI := dI[i]
			for j := 0; j < nl; j++ {
				gI += dCost[j] * o.p[i] * o.R[j][i]
			}
			dIds := I * (1 - I) / sig
			g = -w*(1-I)*r + gI*dIds
			gTheta -= gI * dIds
		}
		gs[i] = g
	}
	for a, t := range o.act {
		v := 0.0
		for i, h := range pr.Train.H[t] {
			v += gs[i] * float64(h)
		}
		v += lam * dk * dk * x[a] * o.treeW[t]
		if o.sigAux[a] > 0 {
			v += st.Rho[k] * x[a] / o.sigAux[a]
		}
		grad[a] = v
	}
	gi := 0.0
	for _, g := range gs {
		gi += g
	}
	grad[na] = gi
	if !o.last {
		grad[na+1] = gTheta
	}
	return f
}

// optimizeStage runs the inner loop of Algorithm 1 for stage k: auxiliary
// variables in closed form, then L-BFGS on the surrogate, until eq (8)
// stops improving (relative tol) or maxOuter rounds. Weights of stage k
// whose removal does not increase eq (8) are then set to exactly zero.
func optimizeStage(pr *Problem, st *State, k int, maxOuter, maxIter int, tol float64) {
	if len(st.Stages[k].Active()) == 0 {
		return // an empty stage passes everything at no cost
	}
	best := pr.Objective(st).Total
	for outer := 0; outer < maxOuter; outer++ {
		o := newStageObjective(pr, st, k)
		x0 := o.x()
		prob := optimize.Problem{
			Func: func(x []float64) float64 { return o.eval(x, nil) },
			Grad: func(g, x []float64) { o.eval(x, g) },
		}
		res, err := optimize.Minimize(prob, x0, &optimize.Settings{MajorIterations: maxIter, GradientThreshold: 1e-10}, &optimize.LBFGS{})
		if res == nil || (err != nil && res.F > o.eval(x0, nil)) {
			return
		}
		saved := append([]float64(nil), x0...)
		o.set(res.X)
		obj := pr.Objective(st).Total
		if obj > best {
			o.set(saved) // the surrogate step did not help eq (8): keep the old point
			pr.Objective(st)
			break
		}
		improved := best - obj
		best = obj
		if improved <= tol*math.Abs(best) {
			break
		}
	}
	pruneStage(pr, st, k)
}

// pruneStage sets to zero, smallest first, the weights of stage k whose
// removal does not increase eq (8). Under the quadratic bound a weight can
// only shrink towards zero geometrically; this is the test that decides
// when it is gone, on the true objective rather than a magnitude threshold.
func pruneStage(pr *Problem, st *State, k int) {
	beta := st.Stages[k].Beta
	act := st.Stages[k].Active()
	big := 0.0
	for _, t := range act {
		big = max(big, math.Abs(beta[t]))
	}
	cur := pr.Objective(st).Total
	for _, t := range act {
		if math.Abs(beta[t]) > 1e-2*big {
			continue
		}
		old := beta[t]
		beta[t] = 0
		if v := pr.Objective(st).Total; v <= cur {
			cur = v
		} else {
			beta[t] = old
		}
	}
	pr.Objective(st)
}
