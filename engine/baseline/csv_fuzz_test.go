package baseline

import (
	"bufio"
	"bytes"
	"math"
	"reflect"
	"strings"
	"testing"
)

// FuzzReadCSV: the curve reader never panics, and every file it accepts
// is one CSVOutput writes back into a file it reads as the same points
// (λ, variant, costs and the three metrics, NaN compared as NaN); a
// rejection names the file.
func FuzzReadCSV(f *testing.F) {
	const header = "method,split,lambda,cost,feature_cost,tree_cost,p@5,ndcg@10,err@3\n"
	for _, s := range []string{
		header + "cronus,valid,0.05,12.5,2.5,10,0.4,0.5,0.25\n",
		header + "cronus,test,0.05#2p30,40.5,10.5,30,0.4,0.5,0.25\n",
		header + "prefix,test,+Inf,1e-07,0,1e-07,,0.1,\n",
		header + "\"a,b\",x,1#k,NaN,1,1,,,\n",
		header + "a,b,1#,2,1,1,,,\n",
		"method,split\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		pts, err := readCSV(strings.NewReader(text), "f.csv")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.csv") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		var buf bytes.Buffer
		w := bufio.NewWriter(&buf)
		if err := CSVOutput("g.csv", pts).Write(w); err != nil {
			t.Fatal(err)
		}
		w.Flush()
		again, err := readCSV(&buf, "g.csv")
		if err != nil {
			t.Fatalf("the reader refuses what the writer wrote of it: %v\n%s", err, buf.String())
		}
		if len(again) != len(pts) {
			t.Fatalf("%d points read back, %d written", len(again), len(pts))
		}
		nan := func(p Point) Point { // NaN != NaN: compare their bits' stand-in
			q := p
			q.Metrics = map[string]float64{}
			for k, v := range p.Metrics {
				if math.IsNaN(v) {
					v = -1234.5
				}
				q.Metrics[k] = v
			}
			for _, x := range []*float64{&q.Lambda, &q.Cost.Total, &q.Cost.Features, &q.Cost.Trees} {
				if math.IsNaN(*x) {
					*x = -1234.5
				}
			}
			return q
		}
		for i := range pts {
			if a, b := nan(pts[i]), nan(again[i]); !reflect.DeepEqual(a, b) {
				t.Fatalf("point %d: %+v read back as %+v", i, a, b)
			}
		}
	})
}
