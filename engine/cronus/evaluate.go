package cronus

import (
	"context"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/metric"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// Evaluate scores d with cascade c for real (Score) and measures specs on
// the cascade's ranking, their means and their values query by query. A
// nil d gives the zero Eval.
func Evaluate(e *tree.Ensemble, c *Cascade, d *data.Dataset, featCost, treeCost []float64, specs []metric.Spec) Eval {
	ev, _ := EvaluateContext(context.Background(), e, c, d, featCost, treeCost, specs)
	return ev
}

// EvaluateContext is Evaluate that stops, within a query on each core,
// when ctx is done, and then returns ctx's error and the zero Eval.
func EvaluateContext(ctx context.Context, e *tree.Ensemble, c *Cascade, d *data.Dataset, featCost, treeCost []float64, specs []metric.Spec) (Eval, error) {
	if d == nil {
		return Eval{}, ctx.Err()
	}
	r, err := ScoreContext(ctx, e, c, d, featCost, treeCost)
	if err != nil {
		return Eval{}, err
	}
	ev := Eval{Cost: r.Cost, Reached: r.Reached}
	ev.Measure(specs, r.Key, d)
	return ev, nil
}

// EvaluateCuts is EvaluateContext for every cut of c at once: cuts[k−1]
// is EvaluateContext's Eval of c.FirstStages(k), k = 1 … K, from one pass
// over d's documents (ScoreCuts). A nil d gives K zero Evals.
func EvaluateCuts(ctx context.Context, e *tree.Ensemble, c *Cascade, d *data.Dataset, featCost, treeCost []float64, specs []metric.Spec) ([]Eval, error) {
	cuts := make([]Eval, len(c.Stages))
	if d == nil {
		return cuts, ctx.Err()
	}
	rs, err := ScoreCuts(ctx, e, c, d, featCost, treeCost)
	if err != nil {
		return nil, err
	}
	for k, r := range rs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		cuts[k] = Eval{Cost: r.Cost, Reached: r.Reached}
		cuts[k].Measure(specs, r.Key, d)
	}
	return cuts, nil
}

// CutsEvaluator scores every cut of a cascade on the validation and the
// test data: valid[k−1] and test[k−1] are an Evaluator's figures for
// c.FirstStages(k), k = 1 … K.
type CutsEvaluator func(ctx context.Context, c *Cascade) (valid, test []Eval, err error)

// NewCutsEvaluator is NewEvaluator for every cut at once (EvaluateCuts).
func NewCutsEvaluator(e *tree.Ensemble, valid, test *data.Dataset, featCost, treeCost []float64, specs []metric.Spec) CutsEvaluator {
	return func(ctx context.Context, c *Cascade) (v, t []Eval, err error) {
		if v, err = EvaluateCuts(ctx, e, c, valid, featCost, treeCost, specs); err != nil {
			return nil, nil, err
		}
		if t, err = EvaluateCuts(ctx, e, c, test, featCost, treeCost, specs); err != nil {
			return nil, nil, err
		}
		return v, t, nil
	}
}

// Measure sets ev's Metrics and PerQuery: specs on d ranked by scores (a
// cascade's ranking key, or an ensemble's scores), under DESIGN.md's
// default conventions.
func (ev *Eval) Measure(specs []metric.Spec, scores []float64, d *data.Dataset) {
	ev.Metrics, ev.PerQuery = map[string]float64{}, map[string][]float64{}
	for _, sp := range specs {
		pq := metric.PerQuery(sp, scores, d.Labels, d.QueryOffsets, metric.Options{}, nil)
		ev.Metrics[sp.String()], ev.PerQuery[sp.String()] = metric.MeanOf(pq), pq
	}
}

// NewEvaluator returns the Evaluator that scores cascades on valid and test
// (either may be nil), each under its own exit rule.
func NewEvaluator(e *tree.Ensemble, valid, test *data.Dataset, featCost, treeCost []float64, specs []metric.Spec) Evaluator {
	return func(ctx context.Context, c *Cascade) (v, t Eval, err error) {
		if v, err = EvaluateContext(ctx, e, c, valid, featCost, treeCost, specs); err != nil {
			return Eval{}, Eval{}, err
		}
		if t, err = EvaluateContext(ctx, e, c, test, featCost, treeCost, specs); err != nil {
			return Eval{}, Eval{}, err
		}
		return v, t, nil
	}
}
