package metric_test

import (
	"fmt"

	"github.com/cronus-ltr/cronus/engine/metric"
)

func ExampleMean() {
	// Two queries: documents 0-2 and documents 3-4. The second has no
	// relevant document.
	scores := []float64{0.1, 0.9, 0.5, 0.3, 0.2}
	labels := []float32{2, 0, 1, 0, 0}
	offsets := []int{0, 3, 5}

	specs, err := metric.ParseList("ndcg@3,p@2,map")
	if err != nil {
		panic(err)
	}
	for _, opt := range []metric.Options{{}, {ExcludeNoRelevant: true}} {
		fmt.Println(metric.Convention(opt))
		for _, spec := range specs {
			fmt.Printf("%-7s %.4f\n", spec, metric.Mean(spec, scores, labels, offsets, opt))
		}
	}
	// Output:
	// NDCG: gain 2^l-1, discount log2(rank+1), ideal DCG at the same cut-off; ERR: R=(2^l-1)/2^lmax, lmax=largest label; P@k: relevant in top k / k; NDCG/ERR: relevant = label > 0; P/MAP/RR/recall/RBP: relevant = label >= 1; queries without relevant documents score 0; ties broken by input order
	// ndcg@3  0.2934
	// p@2     0.2500
	// map     0.2917
	// NDCG: gain 2^l-1, discount log2(rank+1), ideal DCG at the same cut-off; ERR: R=(2^l-1)/2^lmax, lmax=largest label; P@k: relevant in top k / k; NDCG/ERR: relevant = label > 0; P/MAP/RR/recall/RBP: relevant = label >= 1; queries without relevant documents are left out of the mean; ties broken by input order
	// ndcg@3  0.5869
	// p@2     0.5000
	// map     0.5833
}

func ExamplePerQuery() {
	scores := []float64{0.1, 0.9, 0.5, 0.3, 0.2}
	labels := []float32{2, 0, 1, 0, 0}
	offsets := []int{0, 3, 5}
	spec, _ := metric.Parse("ndcg@3")
	fmt.Printf("%.4f\n", metric.PerQuery(spec, scores, labels, offsets, metric.Options{}, nil))
	fmt.Printf("%.4f\n", metric.PerQuery(spec, scores, labels, offsets, metric.Options{ExcludeNoRelevant: true}, nil))
	// Output:
	// [0.5869 0.0000]
	// [0.5869 NaN]
}
