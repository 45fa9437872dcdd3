package baseline_test

import (
	"fmt"

	"github.com/cronus-ltr/cronus/engine/baseline"
	"github.com/cronus-ltr/cronus/engine/metric"
)

func ExamplePareto() {
	point := func(method string, lambda, cost, p5 float64) baseline.Point {
		return baseline.Point{Method: method, Lambda: lambda, Cost: metric.Cost{Total: cost}, Metrics: map[string]float64{"p@5": p5}}
	}
	points := []baseline.Point{
		point("prefix", 10, 40, 0.30),
		point("prefix", 50, 120, 0.34),
		point("early-exit", 0.5, 100, 0.33),
		point("early-exit", 1, 110, 0.34), // cheaper than prefix 50 for the same p@5
		point("cronus", 1e-4, 35, 0.33),   // dominates early-exit 0.5
	}
	for _, p := range baseline.Pareto(points, "p@5") {
		fmt.Printf("%-10s λ=%-6g cost %3g  p@5 %.2f\n", p.Method, p.Lambda, p.Cost.Total, p.Metrics["p@5"])
	}
	// Output:
	// cronus     λ=0.0001 cost  35  p@5 0.33
	// early-exit λ=1      cost 110  p@5 0.34
}
