package boost

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/metric"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// LambdaMART gradients against a direct computation: for every pair with
// label_a > label_b, |ΔNDCG| is measured by swapping the two documents in
// the ranking and recomputing NDCG with the metric package.
func TestLambdaRankGradientsDirect(t *testing.T) {
	// The second label set has the −1 of −1/+1 data: NDCG (engine/metric)
	// gives a label ≤ 0 gain 0, so swapping a −1 and a 0 changes nothing and
	// must get no gradient. The third has labels whose gains 2^label − 1
	// overflow float64: a query's gains are a ratio to its ideal DCG, which
	// must not become Inf/Inf.
	scores := []float64{0.3, -0.2, 1.1, 0.05, 0.7, -1.0, 0.4}
	for _, labels := range [][]float32{{0, 2, 1, 0, 1, 3, 0}, {-1, 2, 1, 0, 1, 3, -1}, {0, 1100, 1099, 0, 1099, 1101, 2}} {
		lambdaRankGradientsDirect(t, labels, scores)
	}
	// Scores spread so far that σ times their range is 630 (each pair's
	// probability from per-document exponentials down to exp(−630)) and
	// 3150 (past expSpread: each pair's own exponential).
	for _, scale := range []float64{200, 1000} {
		wide := make([]float64, len(scores))
		for i, s := range scores {
			wide[i] = s * scale
		}
		lambdaRankGradientsDirect(t, []float32{0, 2, 1, 0, 1, 3, 0}, wide)
	}
}

func lambdaRankGradientsDirect(t *testing.T, labels []float32, scores []float64) {
	const sigma = 1.5
	n := len(labels)
	ndcg := func(s []float64) float64 {
		return metric.Mean(metric.Spec{Name: metric.NDCG}, s, labels, []int{0, n}, metric.Options{})
	}
	wantG := make([]float64, n)
	wantH := make([]float64, n)
	for a := 0; a < n; a++ {
		for b := 0; b < n; b++ {
			if labels[a] <= labels[b] {
				continue
			}
			swapped := append([]float64(nil), scores...)
			swapped[a], swapped[b] = swapped[b], swapped[a]
			delta := math.Abs(ndcg(scores) - ndcg(swapped))
			rho := 1 / (1 + math.Exp(sigma*(scores[a]-scores[b])))
			wantG[a] -= sigma * rho * delta
			wantG[b] += sigma * rho * delta
			wantH[a] += sigma * sigma * rho * (1 - rho) * delta
			wantH[b] += sigma * sigma * rho * (1 - rho) * delta
		}
	}
	o := &lambdaRank{truncation: n, sigma: sigma, norm: false, workers: 1}
	gh := make([]tree.GradPair, n)
	o.gradients(gh, scores, labels, []int{0, n})
	for i := range gh {
		if !(math.Abs(float64(gh[i].G)-wantG[i]) <= 1e-6 && math.Abs(float64(gh[i].H)-wantH[i]) <= 1e-6) { // NaN fails
			t.Errorf("labels %v: doc %d: got (%g, %g), want (%g, %g)", labels, i, gh[i].G, gh[i].H, wantG[i], wantH[i])
		}
	}
	// A query without relevant documents gets no gradient.
	o.gradients(gh[:3], scores[:3], []float32{0, 0, 0}, []int{0, 3})
	for i := 0; i < 3; i++ {
		if gh[i] != (tree.GradPair{}) {
			t.Errorf("all-zero query: doc %d gradient %+v", i, gh[i])
		}
	}
}

// LambdaMART with the norm and a truncation level, worked by hand on three
// documents with labels 1, 0, 2 (gains 1, 0, 3), σ = 1; the discounts of
// ranks 0, 1, 2 are 1, d1 = 1/log2(3) and 1/2. A pair's λ is −σ·p·|ΔNDCG|,
// p = 1/(1+exp(σ(s_hi − s_lo))), its hessian σ²·p·(1−p)·|ΔNDCG|; the
// better document takes +λ, the other −λ; with the norm |ΔNDCG| is divided
// by 0.01 + |s_i − s_j| when the scores are not all equal, and the query's
// λs and hessians are scaled by log2(1+Σ|2λ|)/Σ|2λ|.
func TestLambdaRankNormTruncationHandWorked(t *testing.T) {
	d1 := 1 / math.Log2(3)
	labels := []float32{1, 0, 2}
	type pair struct{ hi, lo int }
	for _, c := range []struct {
		name       string
		scores     []float64
		truncation int
		idcg       float64 // maxDCG@truncation
		pairs      map[pair]float64
	}{
		// Ranked as given; truncation 1: only the top document's pairs,
		// and the ideal DCG of the top rank alone, 3.
		{"truncation 1", []float64{2, 1, 0}, 1, 3, map[pair]float64{
			{0, 1}: 1 * (1 - d1) / 1.01,
			{2, 0}: 2 * (1 - 0.5) / 2.01,
		}},
		// All scores equal: ranked by index, no division by the score
		// difference, every p = 1/2; the ideal DCG is 3 + d1.
		{"equal scores", []float64{0, 0, 0}, 3, 3 + d1, map[pair]float64{
			{0, 1}: 1 * (1 - d1),
			{2, 0}: 2 * (1 - 0.5),
			{2, 1}: 3 * (d1 - 0.5),
		}},
	} {
		g, h := make([]float64, 3), make([]float64, 3)
		sum := 0.0
		for pr, dndcg := range c.pairs {
			dndcg /= c.idcg
			p := 1 / (1 + math.Exp(c.scores[pr.hi]-c.scores[pr.lo]))
			l := -p * dndcg
			g[pr.hi] += l
			g[pr.lo] -= l
			h[pr.hi] += p * (1 - p) * dndcg
			h[pr.lo] += p * (1 - p) * dndcg
			sum -= 2 * l
		}
		f := math.Log2(1+sum) / sum
		o := &lambdaRank{truncation: c.truncation, sigma: 1, norm: true, workers: 1}
		gh := make([]tree.GradPair, 3)
		o.gradients(gh, c.scores, labels, []int{0, 3})
		for i := range gh {
			wg, wh := g[i]*f, h[i]*f
			if math.Abs(float64(gh[i].G)-wg) > 1e-6 || math.Abs(float64(gh[i].H)-wh) > 1e-6 {
				t.Errorf("%s: doc %d: got (%g, %g), want (%g, %g)", c.name, i, gh[i].G, gh[i].H, wg, wh)
			}
		}
	}
}

func TestObjectiveGradients(t *testing.T) {
	labels := []float32{0, 1, 2}
	scores := []float64{0.5, 0.5, -1}
	gh := make([]tree.GradPair, 3)
	squared{}.gradients(gh, scores, labels, nil)
	if want := []tree.GradPair{{G: 0.5, H: 1}, {G: -0.5, H: 1}, {G: -3, H: 1}}; !reflect.DeepEqual(gh, want) {
		t.Errorf("squared: %v, want %v", gh, want)
	}
	if b := (squared{}).base(labels); b != 1 {
		t.Errorf("squared base %v", b)
	}
	logistic{}.gradients(gh, scores, labels, nil)
	p := 1 / (1 + math.Exp(-0.5))
	if math.Abs(float64(gh[0].G)-p) > 1e-7 || math.Abs(float64(gh[1].G)-(p-1)) > 1e-7 || math.Abs(float64(gh[0].H)-p*(1-p)) > 1e-7 {
		t.Errorf("logistic: %v", gh)
	}
	// A label above 0 is positive, 0.5 too; the hessian p(1−p) is floored
	// only at 1e-16, so at score 20 it is about 2.06e-9.
	logistic{}.gradients(gh[:2], []float64{0, 20}, []float32{0.5, 1}, nil)
	if gh[0].G != -0.5 {
		t.Errorf("logistic: label 0.5 at score 0: G %v, want -0.5", gh[0].G)
	}
	p20 := 1 / (1 + math.Exp(-20.0))
	if want := float32(p20 * (1 - p20)); gh[1].H != want {
		t.Errorf("logistic: score 20: H %v, want p(1-p) = %v", gh[1].H, want)
	}
}

func synth(t testing.TB, queries, seed int) *data.Dataset {
	r := rand.New(rand.NewPCG(uint64(seed), 7))
	var cols [5][]float32
	d := &data.Dataset{HasQID: true}
	for q := 0; q < queries; q++ {
		d.QueryIDs = append(d.QueryIDs, int64(q))
		d.QueryOffsets = append(d.QueryOffsets, len(d.Labels))
		for j := 0; j < 20; j++ {
			z := r.NormFloat64()
			for f := range cols {
				cols[f] = append(cols[f], float32(z*float64(f)/4+r.NormFloat64()))
			}
			l := 0
			if z > 0.5 {
				l = 1
			}
			if z > 1.5 {
				l = 2
			}
			d.Labels = append(d.Labels, float32(l))
		}
	}
	d.QueryOffsets = append(d.QueryOffsets, len(d.Labels))
	d.Cols = cols[:]
	return d
}

func TestTrainLearnsAndIsDeterministic(t *testing.T) {
	train, valid := synth(t, 60, 1), synth(t, 30, 2)
	for _, obj := range []string{Regression, Binary, LambdaRank} {
		p := DefaultParams(obj)
		p.Trees, p.Grow.MinDocs, p.RowSample, p.ColSample = 40, 5, 0.8, 0.6
		var a, b *Result
		for _, w := range []int{1, 2} {
			p.Workers = w
			r, err := Train(context.Background(), train, valid, p, nil)
			if err != nil {
				t.Fatal(err)
			}
			if a == nil {
				a = r
			} else {
				b = r
			}
		}
		if !reflect.DeepEqual(a.Ensemble, b.Ensemble) {
			t.Errorf("%s: ensembles differ with 1 and 2 workers", obj)
		}
		h := a.History
		if len(h.Valid) != 40 || h.Valid[len(h.Valid)-1] <= h.Valid[0]-0.02 || h.BestValid < 0.6 {
			t.Errorf("%s: validation NDCG@10 %v … %v, best %v", obj, h.Valid[0], h.Valid[len(h.Valid)-1], h.BestValid)
		}
		if h.Train[len(h.Train)-1] <= h.Train[0] {
			t.Errorf("%s: training NDCG@10 did not improve: %v → %v", obj, h.Train[0], h.Train[len(h.Train)-1])
		}
		// The scores the trainer kept equal the ensemble's own predictions.
		got := a.Ensemble.Predict(nil, valid.Cols, valid.NumDocs(), -1)
		v := metric.Mean(p.Metric, got, valid.Labels, valid.QueryOffsets, metric.Options{})
		if math.Abs(v-h.Valid[len(h.Valid)-1]) > 1e-9 {
			t.Errorf("%s: predicted valid NDCG %v, history says %v", obj, v, h.Valid[len(h.Valid)-1])
		}
	}
}

func TestEarlyStopping(t *testing.T) {
	train, valid := synth(t, 40, 3), synth(t, 20, 4)
	p := DefaultParams(LambdaRank)
	p.Trees, p.EarlyStop, p.Grow.MinDocs = 300, 10, 2
	r, err := Train(context.Background(), train, valid, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := r.History
	if h.StoppedAt == 0 || h.StoppedAt != h.BestTrees+10 || len(r.Ensemble.Trees) != h.BestTrees {
		t.Fatalf("stopped at %d, best %d, kept %d trees", h.StoppedAt, h.BestTrees, len(r.Ensemble.Trees))
	}
	got := r.Ensemble.Predict(nil, valid.Cols, valid.NumDocs(), -1)
	if v := metric.Mean(p.Metric, got, valid.Labels, valid.QueryOffsets, metric.Options{}); math.Abs(v-h.BestValid) > 1e-9 {
		t.Errorf("kept ensemble scores %v, best was %v", v, h.BestValid)
	}

	// When the trees run out less than EarlyStop trees after the best,
	// the best are kept too: here the run ends 5 trees past the best.
	best := h.BestTrees
	p.Trees, p.EarlyStop = best+5, 10
	r, err = Train(context.Background(), train, valid, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	h = r.History
	if h.StoppedAt != 0 || h.Trees != best+5 || h.BestTrees != best || len(r.Ensemble.Trees) != best {
		t.Fatalf("ran out at %d trees (stopped at %d), best %d, kept %d; want %d, 0, %d, %d", h.Trees, h.StoppedAt, h.BestTrees, len(r.Ensemble.Trees), best+5, best, best)
	}
	got = r.Ensemble.Predict(nil, valid.Cols, valid.NumDocs(), -1)
	if v := metric.Mean(p.Metric, got, valid.Labels, valid.QueryOffsets, metric.Options{}); math.Abs(v-h.BestValid) > 1e-9 {
		t.Errorf("ran out: kept ensemble scores %v, best was %v", v, h.BestValid)
	}
	// Without early stopping every tree is kept.
	p.EarlyStop = 0
	if r, err = Train(context.Background(), train, valid, p, nil); err != nil || len(r.Ensemble.Trees) != best+5 {
		t.Fatalf("no early stopping: %v, %d trees kept, want %d", err, len(r.Ensemble.Trees), best+5)
	}
}

func TestTrainCancelAndParams(t *testing.T) {
	train := synth(t, 20, 5)
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	_, err := Train(ctx, train, nil, DefaultParams(Regression), func(float64, func() Snapshot) bool {
		calls++
		if calls == 3 {
			cancel()
		}
		return ctx.Err() == nil
	})
	if !errors.Is(err, context.Canceled) || calls != 3 {
		t.Errorf("err %v after %d trees", err, calls)
	}
	bad := DefaultParams("ranknet")
	if _, err := Train(context.Background(), train, nil, bad, nil); err == nil {
		t.Error("unknown objective accepted")
	}
	for _, mod := range []func(*Params){
		func(p *Params) { p.Trees = 0 },
		func(p *Params) { p.LearningRate = 0 },
		func(p *Params) { p.RowSample = 1.5 },
		func(p *Params) { p.Grow.MaxLeaves = 1 },
		func(p *Params) { p.MaxBins = 300 },
		// +Inf: the model file records the parameters, and JSON has no
		// infinity (training went through and writing the model failed).
		func(p *Params) { p.Grow.Lambda = math.Inf(1) },
		func(p *Params) { p.Grow.MinHess = math.Inf(1) },
		func(p *Params) { p.Grow.MinGain = math.Inf(1) },
		func(p *Params) { p.Objective, p.Sigma = LambdaRank, math.Inf(1) },
		func(p *Params) { p.Objective, p.PairSample = LambdaRank, MaxPairSample+1 },
	} {
		p := DefaultParams(Regression)
		mod(&p)
		if err := p.Validate(); err == nil {
			t.Errorf("%+v accepted", p)
		}
	}
}

// A cancelled Train stops in its set-up (binning the data and laying out
// the codes, seconds on a large data set: an interrupt there waited for it),
// before the first report, which came only once that was done.
func TestTrainCancelledInSetUp(t *testing.T) {
	train := synth(t, 20, 5)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	reports := 0
	_, err := Train(ctx, train, train, DefaultParams(Regression), func(float64, func() Snapshot) bool {
		reports++
		return true
	})
	if !errors.Is(err, context.Canceled) || reports != 0 {
		t.Errorf("err %v after %d reports, want context.Canceled before any", err, reports)
	}
}

// Once done is closed, eachQuery's workers take no more queries (a round
// of --pair-sample 2·10^9 went on for minutes after an interrupt); a
// lambdarank objective built with a closed channel computes nothing.
func TestEachQueryStops(t *testing.T) {
	done := make(chan struct{})
	var seen []int
	eachQuery(1, 10, done, func(q int, _ *struct{}) {
		seen = append(seen, q)
		if q == 3 {
			close(done)
		}
	})
	if !slices.Equal(seen, []int{0, 1, 2, 3}) {
		t.Errorf("queries after done closed at 3: %v", seen)
	}
	train := synth(t, 20, 5)
	for _, ps := range []int{0, 3} {
		p := DefaultParams(LambdaRank)
		p.PairSample = ps
		o, err := newObjective(p, done)
		if err != nil {
			t.Fatal(err)
		}
		gh := make([]tree.GradPair, len(train.Labels))
		o.gradients(gh, make([]float64, len(train.Labels)), train.Labels, train.QueryOffsets)
		for i, g := range gh {
			if g != (tree.GradPair{}) {
				t.Fatalf("pair sample %d: document %d has gradients %v after done", ps, i, g)
			}
		}
		// the same objective computes them when not stopped
		p2, _ := newObjective(p, nil)
		p2.gradients(gh, make([]float64, len(train.Labels)), train.Labels, train.QueryOffsets)
		if !slices.ContainsFunc(gh, func(g tree.GradPair) bool { return g.G != 0 }) {
			t.Fatalf("pair sample %d: no gradients at all: the check above tests nothing", ps)
		}
	}
}

// A validation set may have more features than the training set (a sparse
// file whose last features are absent from every training line): the trees
// cannot split on them, so training goes as with those features cut off.
func TestTrainValidWiderThanTrain(t *testing.T) {
	train, valid := synth(t, 30, 6), synth(t, 15, 7)
	wide := *valid
	wide.Cols = append(slices.Clone(valid.Cols), make([]float32, valid.NumDocs()), make([]float32, valid.NumDocs()))
	for i := range wide.Cols[5] {
		wide.Cols[5][i], wide.Cols[6][i] = float32(i%7), float32(i%3)
	}
	p := DefaultParams(LambdaRank)
	p.Trees, p.Grow.MinDocs = 20, 5
	want, err := Train(context.Background(), train, valid, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Train(context.Background(), train, &wide, p, nil)
	if err != nil {
		t.Fatalf("validation set with %d features for %d training features: %v", wide.NumFeatures(), train.NumFeatures(), err)
	}
	if !reflect.DeepEqual(got.Ensemble, want.Ensemble) || !reflect.DeepEqual(got.History.Valid, want.History.Valid) {
		t.Error("the extra validation features changed the ensemble or its validation history")
	}
}

// Features that are constant on the training set (a sparse file with a few
// high feature indices reads as thousands of all-zero columns) cannot be
// split on and must not cost histogram space: the ensemble is the one the
// non-constant features give, its features keep their indices, and training
// allocates far less than a histogram over every column would take.
func TestTrainSkipsConstantFeatures(t *testing.T) {
	train, valid := synth(t, 10, 8), synth(t, 5, 9)
	const extra = 30_000
	wide := *train
	wide.Cols = slices.Clone(train.Cols)
	// Constant columns before, between and after the informative ones.
	for range extra {
		wide.Cols = append(wide.Cols, make([]float32, train.NumDocs()))
	}
	copy(wide.Cols[2:], train.Cols) // informative features at indices 2..6
	wide.Cols[0], wide.Cols[1] = make([]float32, train.NumDocs()), make([]float32, train.NumDocs())
	for i := range wide.Cols[1] {
		wide.Cols[1][i] = 3 // constant, but not 0
	}
	shifted := *valid
	shifted.Cols = append([][]float32{make([]float32, valid.NumDocs()), make([]float32, valid.NumDocs())}, valid.Cols...)

	for _, cs := range []float64{1, 0.5} {
		p := DefaultParams(LambdaRank)
		p.Trees, p.Grow.MinDocs, p.ColSample = 10, 5, cs
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		got, err := Train(context.Background(), &wide, &shifted, p, nil)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		if a := after.TotalAlloc - before.TotalAlloc; a > 64<<20 {
			t.Errorf("col sample %v: training on %d documents × %d features (%d constant) allocated %d MB", cs, wide.NumDocs(), wide.NumFeatures(), extra+2, a>>20)
		}
		if got.Ensemble.NumFeatures != wide.NumFeatures() {
			t.Errorf("col sample %v: ensemble of %d features, want %d", cs, got.Ensemble.NumFeatures, wide.NumFeatures())
		}
		for k, tr := range got.Ensemble.Trees {
			for _, nd := range tr.Nodes {
				if nd.Feature < 2 || nd.Feature >= 7 {
					t.Fatalf("col sample %v: tree %d splits on feature %d, which is constant", cs, k, nd.Feature)
				}
			}
		}
		// The scores are those of the trees on the real columns: the
		// ensemble predicts the validation set as the history says.
		cols := slices.Clone(shifted.Cols)
		for len(cols) < wide.NumFeatures() {
			cols = append(cols, cols[0]) // all 0
		}
		pred := got.Ensemble.Predict(nil, cols, shifted.NumDocs(), -1)
		v := metric.Mean(p.Metric, pred, shifted.Labels, shifted.QueryOffsets, metric.Options{})
		if h := got.History.Valid; math.Abs(v-h[len(h)-1]) > 1e-9 {
			t.Errorf("col sample %v: predicted valid NDCG %v, history says %v", cs, v, h[len(h)-1])
		}
		if cs == 1 {
			p.ColSample = 1
			want, err := Train(context.Background(), train, valid, p, nil)
			if err != nil {
				t.Fatal(err)
			}
			for k := range want.Ensemble.Trees {
				for n := range want.Ensemble.Trees[k].Nodes {
					want.Ensemble.Trees[k].Nodes[n].Feature += 2
				}
			}
			if !reflect.DeepEqual(got.Ensemble.Trees, want.Ensemble.Trees) {
				t.Error("the constant features changed the trees")
			}
		}
	}
}

// byRank's ranking is the same whichever sort gives it: insertion sort from
// the last ranking when that is close, pdqsort after giving up on it.
func TestByRankSorts(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	const n = 60
	s := make([]float64, n)
	labels := make([]float32, n)
	gains := make([]float64, n)
	for i := range s {
		s[i] = float64(r.IntN(20)) // ties, broken by index
	}
	s[7] = math.NaN()
	want := identityRanks([]int{0, n})
	slices.SortFunc(want, func(a, b int32) int { return rankOrder(rankedDoc{s: s[a], i: a}, rankedDoc{s: s[b], i: b}) })
	for _, c := range []struct {
		name  string
		prev  []int32
		moves int
		done  bool
	}{
		{"from the ranking", slices.Clone(want), 0, true},
		{"one move", append([]int32{want[1], want[0]}, want[2:]...), 1, true},
		{"from index order, given up", identityRanks([]int{0, n}), 4 * n, false},
		{"from index order, no limit", identityRanks([]int{0, n}), n * n, true},
	} {
		buf := make([]rankedDoc, n)
		for k, i := range c.prev {
			buf[k] = rankedDoc{s: s[i], i: i}
		}
		if done := insertionSort(buf, c.moves); done != c.done {
			t.Errorf("%s: insertionSort reported %v, want %v", c.name, done, c.done)
		}
		prev := slices.Clone(c.prev)
		byRank(nil, s, labels, gains, prev)
		if !slices.Equal(prev, want) {
			t.Errorf("%s: ranking %v, want %v", c.name, prev, want)
		}
	}
}

// TestTreeReportStartsAfterSetup: Train reports tree 0 once its set-up is
// done, and TreeReport starts the "training" phase there, before any tree,
// so the ETA times the trees alone.
func TestTreeReportStartsAfterSetup(t *testing.T) {
	train := synth(t, 20, 5)
	p := DefaultParams(Regression)
	p.Trees = 3
	var calls []string
	phase := func(name string, total float64) { calls = append(calls, fmt.Sprintf("phase %s %g", name, total)) }
	report := func(done float64, snap func() Snapshot) bool {
		calls = append(calls, fmt.Sprintf("report %g trees %d", done, snap().Trees))
		return true
	}
	if _, err := Train(context.Background(), train, nil, p, TreeReport(phase, report, p.Trees)); err != nil {
		t.Fatal(err)
	}
	want := []string{"phase training 3", "report 0 trees 0", "report 1 trees 1", "report 2 trees 2", "report 3 trees 3"}
	if !slices.Equal(calls, want) {
		t.Errorf("calls %q, want %q", calls, want)
	}
}

// TestRegressionHugeLabels: labels the reader takes but whose squared-loss
// gradients overflow a float32 are refused before training, naming the
// file, the document (its place among the file's documents, as --run's
// docN counts them: the message named only its query, which can hold
// thousands) and the query (they gave an infinite leaf value, and a model
// that could not be written, after the whole run); labels up to the bound
// train to finite leaves. The other objectives only compare labels.
func TestRegressionHugeLabels(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		scale float32
		at    int // the document labelled scale, the first past the bound
		noQID bool
		err   string
	}{
		{3e38, 0, false, "huge.txt: document 1 (of query 0) is labelled 3e+38: the regression objective takes labels of magnitude up to"},
		{3e38, 7, false, "huge.txt: document 8 (of query 0) is labelled 3e+38: the regression objective takes labels of magnitude up to"},
		{3e38, 7, true, "huge.txt: document 8 is labelled 3e+38: the regression objective takes labels of magnitude up to"},
		{8e37, 0, false, ""},
	} {
		d := synth(t, 5, 1)
		d.Name = "huge.txt"
		for i := range d.Labels {
			d.Labels[i] = (d.Labels[i] - 1) * c.scale // -1, 0 and 1 times the scale
			if i < c.at && d.Labels[i] != 0 {
				d.Labels[i] = 1 // below the bound: the first past it is at
			}
		}
		d.Labels[c.at] = c.scale
		if c.noQID { // one query, as a file without qids reads
			d.HasQID, d.QueryIDs, d.QueryOffsets = false, []int64{0}, []int{0, len(d.Labels)}
		}
		p := DefaultParams(Regression)
		p.Trees, p.LearningRate, p.Grow.MinDocs = 5, 1, 1
		r, err := Train(ctx, d, nil, p, nil)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("labels ×%g: error %v, want %q", c.scale, err, c.err)
			}
			for _, obj := range []string{Binary, LambdaRank} {
				if _, err := Train(ctx, d, nil, DefaultParams(obj), nil); err != nil {
					t.Errorf("%s on labels ×%g: %v", obj, c.scale, err)
				}
			}
			continue
		}
		if err != nil {
			t.Fatalf("labels ×%g: %v", c.scale, err)
		}
		for _, tr := range r.Ensemble.Trees {
			for _, v := range tr.Leaves {
				if math.IsInf(v, 0) || math.IsNaN(v) {
					t.Fatalf("labels ×%g: leaf value %v", c.scale, v)
				}
			}
		}
	}
}

// Going on from a model (Params.Init) is training that was never stopped:
// without subsampling, 12 trees and then 12 more from them are the 24
// trees trained at once, with the same base score, for every objective;
// the history counts the init model's trees, starting at them.
func TestTrainInitContinues(t *testing.T) {
	train, valid := synth(t, 40, 11), synth(t, 20, 12)
	for _, obj := range []string{Regression, Binary, LambdaRank, "lambdarank --pair-sample 2"} {
		// Sampled pairs are drawn by round: the rounds go on from the
		// init model's trees, as the uninterrupted run's do.
		objective, pairs, _ := strings.Cut(obj, " --pair-sample ")
		p := DefaultParams(objective)
		if pairs != "" {
			p.PairSample, _ = strconv.Atoi(pairs)
		}
		p.Grow.MinDocs = 5
		p.Trees = 24
		whole, err := Train(context.Background(), train, valid, p, nil)
		if err != nil {
			t.Fatal(err)
		}
		p.Trees = 12
		first, err := Train(context.Background(), train, valid, p, nil)
		if err != nil {
			t.Fatal(err)
		}
		p.Init = first.Ensemble
		on, err := Train(context.Background(), train, valid, p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(on.Ensemble, whole.Ensemble) {
			t.Errorf("%s: 12 trees then 12 more differ from 24 at once", obj)
		}
		h, w := on.History, whole.History
		if h.Trees != 24 || h.Total != 24 || h.At[0] != 12 || len(h.At) != 13 || !slices.Equal(h.Valid[1:], w.Valid[12:]) || h.Valid[0] != w.Valid[11] || h.Train[0] != w.Train[11] {
			t.Errorf("%s: history trees %d of %d, at %v, valid %v; want 24 of 24 from 12, valid %v", obj, h.Trees, h.Total, h.At, h.Valid, w.Valid[11:])
		}
		if len(first.Ensemble.Trees) != 12 {
			t.Errorf("%s: the init model was changed: %d trees", obj, len(first.Ensemble.Trees))
		}
	}
}

// Early stopping with an init model counts its trees, and keeps the init
// model alone when no tree added does better on validation than it.
func TestTrainInitEarlyStop(t *testing.T) {
	train, valid := synth(t, 40, 3), synth(t, 20, 4)
	p := DefaultParams(LambdaRank)
	p.Trees, p.EarlyStop, p.Grow.MinDocs = 300, 10, 2
	r, err := Train(context.Background(), train, valid, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	best := r.History.BestTrees // r keeps these: none after them did better within 10
	p.Init, p.Trees = r.Ensemble, 10
	on, err := Train(context.Background(), train, valid, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := on.History
	if h.BestTrees != best || h.StoppedAt != best+10 || len(on.Ensemble.Trees) != best || h.BestValid != r.History.BestValid {
		t.Errorf("best %d (%v), stopped at %d, kept %d; want best %d (%v), stopped at %d, kept %d",
			h.BestTrees, h.BestValid, h.StoppedAt, len(on.Ensemble.Trees), best, r.History.BestValid, best+10, best)
	}
}

// An init model must read the data's features, and its objective must be
// one the loss goes on from.
func TestTrainInitRefused(t *testing.T) {
	train := synth(t, 10, 5)
	p := DefaultParams(Regression)
	p.Trees = 1
	p.Init = &tree.Ensemble{NumFeatures: 6, Objective: Regression}
	if _, err := Train(context.Background(), train, nil, p, nil); err == nil || !strings.Contains(err.Error(), "5 features, but the model training goes on from (Init) reads 6") {
		t.Errorf("a model of 6 features on data of 5: %v", err)
	}
	for _, c := range []struct {
		objective, init string
		ok              bool
	}{
		{Regression, "reg:squarederror", true}, {Regression, "regression", true}, {Regression, "rank:ndcg", false}, {Regression, Binary, false},
		{Binary, "binary:logistic", true}, {Binary, "binary", true}, {Binary, "reg:squarederror", false}, {Binary, "lambdarank", false},
		{Binary, "binary sigmoid:1", true}, {Binary, "binary sigmoid:2", false}, {Regression, "regression sqrt", false},
		{Binary, "cross_entropy", true}, {Regression, "MART", true}, {Regression, "LambdaMART", false}, {Binary, "cross_entropy_lambda", false},
		{LambdaRank, "rank:pairwise", true}, {LambdaRank, "reg:squarederror", true}, {LambdaRank, "LambdaMART", true}, {LambdaRank, "binary", true},
	} {
		p := DefaultParams(c.objective)
		p.Init = &tree.Ensemble{NumFeatures: 5, Objective: c.init}
		if err := p.Validate(); (err == nil) != c.ok || err != nil && !strings.Contains(err.Error(), fmt.Sprintf("a %s model cannot go on from one trained for %q", c.objective, c.init)) {
			t.Errorf("%s from %s: %v, want ok %v", c.objective, c.init, err, c.ok)
		}
	}
}

// TestTrainInitTreesOverflow: trees that, on the init model's, make more
// than an int holds overflowed the snapshot's Total (progress read "tree
// 5260/-9223372036854775789") and trained for ever; they are refused.
func TestTrainInitTreesOverflow(t *testing.T) {
	p := DefaultParams(Regression)
	p.Init = &tree.Ensemble{NumFeatures: 5, Objective: Regression, Trees: make([]tree.Tree, 3)}
	p.Trees = math.MaxInt - 3
	if err := p.Validate(); err != nil {
		t.Errorf("%d trees on 3: %v", p.Trees, err)
	}
	p.Trees++
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "makes more than") {
		t.Errorf("%d trees on 3: %v, want refused", p.Trees, err)
	}
}

// TestLambdaRankHugeSigma: a σ whose hessians pass float32 (σ²/4 at the
// first tree, every score 0) gave hessians of +Inf, leaves of 0 and a
// model that scores nothing, without a word. Training refuses it at the
// first tree; a σ large but within float32 trains.
func TestLambdaRankHugeSigma(t *testing.T) {
	d := synth(t, 5, 1)
	d.Name = "s.txt"
	p := DefaultParams(LambdaRank)
	p.Trees, p.Sigma = 3, 1e40
	_, err := Train(context.Background(), d, nil, p, nil)
	if err == nil || !strings.Contains(err.Error(), "tree 1: s.txt: document ") || !strings.Contains(err.Error(), "σ 1e+40 is too large") {
		t.Errorf("σ 1e40: error %v, want the refusal naming σ", err)
	}
	p.Sigma = 1e15
	r, err := Train(context.Background(), d, nil, p, nil)
	if err != nil {
		t.Fatalf("σ 1e15: %v", err)
	}
	if len(r.Ensemble.Trees[0].Leaves) < 2 {
		t.Errorf("σ 1e15: the first tree is a single leaf")
	}
}

// --col-sample c draws ⌈c·D⌉ of the D features, c taken as the decimal
// written: the float64 product 0.55 × 100 is 55.000000000000004, whose
// ceiling drew 56 features.
func TestSampleFeaturesCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		frac float64
		d    int
		want int
	}{
		{0.55, 100, 55}, {0.55, 180, 99}, {0.07, 700, 49}, {0.14, 700, 98}, {0.68, 700, 476},
		{0.5, 46, 23}, {0.3, 46, 14}, {0.551, 100, 56}, {1, 136, 136}, {1e-9, 46, 1}, {0.1, 5, 1},
	} {
		if got := len(sampleFeatures(rng, c.d, c.frac)); got != c.want {
			t.Errorf("sampleFeatures(%d, %g): %d features, want %d", c.d, c.frac, got, c.want)
		}
	}
}

// TestNewObjectiveLambdaNorm: Params.NoLambdaNorm (train --lambda-norm=false)
// reaches the all-pairs objective, whose gradients without normalisation
// lambdaRankGradientsDirect checks against ΔNDCG computed by swapping; with
// it (the default), a query's gradients differ from those.
func TestNewObjectiveLambdaNorm(t *testing.T) {
	labels := []float32{0, 2, 1, 0}
	scores := []float64{0.3, -0.2, 0.9, 0.1}
	var got [2][]tree.GradPair
	for i, off := range []bool{false, true} {
		p := DefaultParams(LambdaRank)
		p.NoLambdaNorm, p.Truncation = off, len(labels)
		obj, err := newObjective(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		lr, ok := obj.(*lambdaRank)
		if !ok || lr.norm == off {
			t.Fatalf("NoLambdaNorm %v: objective %#v", off, obj)
		}
		got[i] = make([]tree.GradPair, len(labels))
		obj.gradients(got[i], scores, labels, []int{0, len(labels)})
	}
	if reflect.DeepEqual(got[0], got[1]) {
		t.Errorf("the same gradients with and without λ normalisation: %v", got[0])
	}
}
