package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cronus-ltr/cronus/engine/baseline"
	"github.com/cronus-ltr/cronus/engine/cronus"
)

// TestSweepVariants: sweep --variants all writes, after each λ's cronus
// rows, the rows of its cascade's variants, λ#k, λ#pn and λ#kpn, each
// the figures `cronus eval --cascade C --stages k --last-prefix n` gives
// for the cascade `cronus cascade --lambda λ` rebuilds (the scorer run
// for real, another path); which variants a cascade has is worked out
// here from the cascade file (cut-prefix's k from 2 past the first stage
// that keeps a tree; prefixes above the model's trees left out); the other
// rows are a plain sweep's, byte for byte; --per-query has the variants'
// lines; --cascade-out writes the best row on validation, variant or not;
// the plot draws the pooled front; bad flags are refused.
func TestSweepVariants(t *testing.T) {
	if testing.Short() {
		t.Skip("trains and sweeps")
	}
	dir := t.TempDir()
	model := trainShallow(t, dir, 20)
	splits := map[string]string{"valid": "builtin:mq2008/vali", "test": "builtin:mq2008/test"}
	common := []string{"--model", model, "--train", "builtin:mq2008/train", "--valid", splits["valid"], "--test", splits["test"],
		"--costs", "builtin:mq2008/costs", "--stages", "3", "--cycles", "1", "--rule", "top-m", "--top-m", "5"}
	const grid = "0.005:0.5:3"
	plain, curve := filepath.Join(dir, "plain.csv"), filepath.Join(dir, "curve.csv")
	pq, best, svg := filepath.Join(dir, "q.tsv"), filepath.Join(dir, "best.json"), filepath.Join(dir, "curve.svg")
	if code, _, errOut := runCLI(t, append([]string{"sweep", "--lambdas", grid, "--out", plain}, common...)...); code != 0 {
		t.Fatal(errOut)
	}
	var rep struct {
		Lambdas []struct {
			Lambda   float64
			Variants int
		}
		Cascade struct {
			Lambda      float64
			Variant     string
			Valid, Test struct {
				Metrics map[string]float64
				Cost    struct{ Total float64 }
			}
		}
	}
	runJSON(t, &rep, append([]string{"sweep", "--lambdas", grid, "--out", curve, "--variants", "all", "--last-prefixes", "30,5-10/5", "--per-query", pq,
		"--cascade-out", best, "--plot", svg, "--json"}, common...)...)

	// The rows without a variant are the plain sweep's, in order.
	var own []string
	for _, l := range strings.Split(readFile(t, curve), "\n") {
		if !strings.Contains(l, "#") {
			own = append(own, l)
		}
	}
	if got, want := strings.Join(own, "\n"), readFile(t, plain); got != want {
		t.Fatalf("--variants changed the other rows:\n%s\nwant\n%s", got, want)
	}
	points, err := baseline.ReadCSV(curve)
	if err != nil {
		t.Fatal(err)
	}
	row := map[string]baseline.Point{} // split λ#variant
	var lambdas []float64
	for _, p := range points {
		if p.Method != "cronus" {
			if p.Variant != "" {
				t.Errorf("a %s row has a variant: %+v", p.Method, p)
			}
			continue
		}
		row[p.Split+" "+p.LambdaLabel()] = p
		if p.Split == "valid" && p.Variant == "" {
			lambdas = append(lambdas, p.Lambda)
		}
	}
	if len(lambdas) != 3 || len(rep.Lambdas) != 3 {
		t.Fatalf("%d λ in the curve, %d in the report; want 3", len(lambdas), len(rep.Lambdas))
	}
	metrics := []string{"p@5", "ndcg@10", "err@3"}
	kinds := map[string]int{}
	checked := 0
	for i, lam := range lambdas {
		l := strconv.FormatFloat(lam, 'g', -1, 64)
		c := filepath.Join(dir, "c"+l+".json")
		if code, _, errOut := runCLI(t, append([]string{"cascade", "--lambda", l, "--out", c}, common...)...); code != 0 {
			t.Fatal(errOut)
		}
		var f struct {
			Stages []struct{ Trees []int }
		}
		if err := json.Unmarshal([]byte(readFile(t, c)), &f); err != nil {
			t.Fatal(err)
		}
		K := len(f.Stages)
		first := slices.IndexFunc(f.Stages, func(s struct{ Trees []int }) bool { return len(s.Trees) > 0 })
		if first < 0 {
			first = K
		}
		// The variants this cascade has, each with eval's flags.
		want := map[string][]string{}
		for k := 1; k < K; k++ {
			want[strconv.Itoa(k)] = []string{"--stages", strconv.Itoa(k)}
		}
		for _, n := range []int{5, 10} { // 30: above the 20 trees
			if first < K-1 {
				want["p"+strconv.Itoa(n)] = []string{"--last-prefix", strconv.Itoa(n)}
			}
			for k := max(2, first+2); k < K; k++ {
				want[fmt.Sprintf("%dp%d", k, n)] = []string{"--stages", strconv.Itoa(k), "--last-prefix", strconv.Itoa(n)}
			}
		}
		var got []string
		for key, p := range row {
			if p.Split == "valid" && p.Lambda == lam && p.Variant != "" {
				got = append(got, strings.TrimPrefix(key, "valid "+l+"#"))
			}
		}
		slices.Sort(got)
		wantNames := slices.Sorted(func(yield func(string) bool) {
			for k := range want {
				if !yield(k) {
					return
				}
			}
		})
		if !slices.Equal(got, wantNames) || rep.Lambdas[i].Variants != len(want) {
			t.Fatalf("λ %s (%d stages, the first keeping a tree %d): variants %q (report: %d); want %q", l, K, first+1, got, rep.Lambdas[i].Variants, wantNames)
		}
		for name, flags := range want {
			kind := "k" // a cut
			if i := strings.IndexByte(name, 'p'); i == 0 {
				kind = "p" // a last-stage prefix
			} else if i > 0 {
				kind = "kp" // a cut with a prefix
			}
			kinds[kind]++
			for split, data := range splits {
				var ev struct {
					Metrics map[string]float64
					Cost    struct{ Total, Features, Trees float64 }
				}
				runJSON(t, &ev, append([]string{"eval", "--cascade", c, "--data", data, "--metrics", strings.Join(metrics, ","), "--json"}, flags...)...)
				p, ok := row[split+" "+l+"#"+name]
				if !ok {
					t.Fatalf("no %s row %s#%s", split, l, name)
				}
				if p.Cost.Total != ev.Cost.Total || p.Cost.Features != ev.Cost.Features || p.Cost.Trees != ev.Cost.Trees {
					t.Errorf("%s %s#%s: cost %+v; eval %v gives %+v", split, l, name, p.Cost, flags, ev.Cost)
				}
				for _, m := range metrics {
					if p.Metrics[m] != ev.Metrics[m] {
						t.Errorf("%s %s#%s: %s %v; eval %v gives %v", split, l, name, m, p.Metrics[m], flags, ev.Metrics[m])
					}
				}
				checked++
			}
		}
	}
	// Every kind of variant was there to check: cuts ("k"), last-stage
	// prefixes ("p") and cuts with a prefix ("kp").
	if kinds["k"] == 0 || kinds["p"] == 0 || kinds["kp"] == 0 {
		t.Fatalf("variants checked by kind %v: the test misses a kind", kinds)
	}

	// --per-query: every variant row's queries, whose NDCG@10 averages to
	// the row's.
	_, rows := perQueryLines(t, pq)
	sums := map[string][]float64{}
	for _, r := range rows {
		if r[0] == "cronus" && strings.Contains(r[2], "#") {
			v, err := strconv.ParseFloat(r[5], 64)
			if err != nil {
				t.Fatal(err)
			}
			sums[r[1]+" "+r[2]] = append(sums[r[1]+" "+r[2]], v)
		}
	}
	for key, p := range row {
		if p.Variant == "" {
			continue
		}
		qs := sums[key]
		mean := 0.0
		for _, v := range qs {
			mean += v
		}
		mean /= float64(len(qs))
		if len(qs) == 0 || math.Abs(mean-p.Metrics["ndcg@10"]) > 1e-12 {
			t.Errorf("--per-query %s: %d queries averaging %v; the row's NDCG@10 %v", key, len(qs), mean, p.Metrics["ndcg@10"])
		}
	}

	// --cascade-out: the best cronus row on validation, variants too (the
	// cheaper on a tie).
	var top baseline.Point
	for _, p := range points {
		if p.Method == "cronus" && p.Split == "valid" && (top.Method == "" || p.Metrics["ndcg@10"] > top.Metrics["ndcg@10"] ||
			p.Metrics["ndcg@10"] == top.Metrics["ndcg@10"] && p.Cost.Total < top.Cost.Total) {
			top = p
		}
	}
	tt := row["test "+top.LambdaLabel()]
	if rep.Cascade.Lambda != top.Lambda || rep.Cascade.Variant != top.Variant || rep.Cascade.Valid.Metrics["ndcg@10"] != top.Metrics["ndcg@10"] ||
		rep.Cascade.Test.Metrics["ndcg@10"] != tt.Metrics["ndcg@10"] {
		t.Errorf("--cascade-out: the report's λ %v#%s, valid %v, test %v; want %s, %v, %v", rep.Cascade.Lambda, rep.Cascade.Variant,
			rep.Cascade.Valid.Metrics["ndcg@10"], rep.Cascade.Test.Metrics["ndcg@10"], top.LambdaLabel(), top.Metrics["ndcg@10"], tt.Metrics["ndcg@10"])
	}
	var ev struct {
		Metrics map[string]float64
		Cost    struct{ Total float64 }
	}
	runJSON(t, &ev, "eval", "--cascade", best, "--data", splits["test"], "--metrics", "ndcg@10", "--json")
	if ev.Metrics["ndcg@10"] != tt.Metrics["ndcg@10"] || math.Abs(ev.Cost.Total-tt.Cost.Total) > 1e-9 {
		t.Errorf("--cascade-out's file scores test %v at %v; its row %s %v at %v", ev.Metrics["ndcg@10"], ev.Cost.Total, top.LambdaLabel(), tt.Metrics["ndcg@10"], tt.Cost.Total)
	}
	// inspect says what the file is: the variant's params.
	ins := mustRun(t, "inspect", best)
	i := strings.IndexByte(top.Variant, 'p')
	if i < 0 {
		t.Fatalf("the best row on validation, %s, is no prefix variant: the check of what --cascade-out writes proves less", top.LambdaLabel())
	}
	if !strings.Contains(ins, "its last stage the ensemble's first "+top.Variant[i+1:]+" trees") {
		t.Errorf("inspect of the %s variant does not name its prefix:\n%s", top.LambdaLabel(), ins)
	}
	if b, err := os.ReadFile(svg); err != nil || !strings.Contains(string(b), variantsFrontMethod) {
		t.Errorf("the plot has no series %q (%v)", variantsFrontMethod, err)
	}
	if checked == 0 {
		t.Fatal("no variant checked")
	}

	// The summary counts variants, not their rows (one per split).
	one := filepath.Join(dir, "one.csv")
	code, stdout, errOut := runCLI(t, append([]string{"sweep", "--lambdas", "0.05:0.05:1", "--out", one, "--variants", "stages"}, common...)...)
	rowsOf := strings.Count(readFile(t, one), "#")
	if code != 0 || rowsOf != 4 || !strings.Contains(stdout, ", 2 variants of the cascades (λ#variant);") {
		t.Errorf("--variants stages, 3 stages, one λ: exit %d (%s), %d variant rows, summary %q; want 4 rows (2 cuts, 2 splits) and 2 variants", code, errOut, rowsOf, stdout)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--variants", "cuts"}, `--variants: "cuts" is not a kind of variant; want a comma-separated list of stages, last-prefix, cut-prefix, or all`},
		{[]string{"--variants", "stages,stages"}, `--variants: each kind must be given once, got "stages" twice`},
		{[]string{"--variants", ""}, `--variants is empty; want a comma-separated list of stages, last-prefix, cut-prefix, or all (leave the flag out for none)`},
		{[]string{"--variants= "}, `--variants is empty`},
		{[]string{"--last-prefixes", "5"}, "--last-prefixes are the prefixes of --variants last-prefix and cut-prefix: give one of those too"},
		{[]string{"--variants", "stages", "--last-prefixes", "5"}, "--last-prefixes are the prefixes of --variants last-prefix and cut-prefix"},
		{[]string{"--variants", "last-prefix", "--last-prefixes", "5,x"}, `--last-prefixes: each value must be a whole number of at least 1, a range A-B or A-B/S, got "x"`},
		{[]string{"--variants", "cut-prefix", "--last-prefixes", "50,21"}, "has 20 trees; a prefix must have at most that many"},
	} {
		code, _, errOut := runCLI(t, append(append([]string{"sweep", "--out", filepath.Join(dir, "bad.csv")}, common...), c.args...)...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 and %q", c.args, code, errOut, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.csv")); err == nil {
		t.Error("a refused sweep wrote its curve")
	}
}

// TestCascadeVariants: which variants a cascade has, on hand-made
// cascades over 20 trees with --last-prefixes 5,10,30: every cut; a
// last-stage prefix and the cuts with one only where a stage before the
// prefix keeps a tree (else the variant is the prefix baseline itself);
// no prefix above the trees.
func TestCascadeVariants(t *testing.T) {
	const T = 20
	stage := func(trees ...int) cronus.Stage {
		b := make([]float64, T+1)
		for _, t := range trees {
			b[t] = 0.5
		}
		return cronus.Stage{Beta: b}
	}
	all := variantSet{true, true, true}
	for _, c := range []struct {
		name   string
		stages []cronus.Stage
		set    variantSet
		want   string
	}{
		{"first stage empty", []cronus.Stage{stage(), stage(3), stage(), stage(1, 2)}, all, "1 2 3 p5 p10 3p5 3p10"},
		{"trees at the end alone", []cronus.Stage{stage(), stage(), stage(4)}, all, "1 2"},
		{"one stage", []cronus.Stage{stage(4)}, all, ""},
		{"every stage keeps trees", []cronus.Stage{stage(0), stage(1), stage(2)}, all, "1 2 p5 p10 2p5 2p10"},
		{"last-prefix alone", []cronus.Stage{stage(0), stage(1), stage(2)}, variantSet{last: true}, "p5 p10"},
		{"cut-prefix alone", []cronus.Stage{stage(0), stage(1), stage(2), stage(3)}, variantSet{cut: true}, "2p5 2p10 3p5 3p10"},
	} {
		casc := &cronus.Cascade{Stages: c.stages}
		var got []string
		for _, v := range cascadeVariants(casc, c.set, []int{5, 10, 30}, T, 0.25) {
			got = append(got, v.name())
			if v.n > 0 {
				k := v.k
				if k == 0 {
					k = len(c.stages)
				}
				last := v.c.Stages[len(v.c.Stages)-1].Beta
				if len(v.c.Stages) != k || last[v.n-1] != 1 || last[v.n] != 0 || last[T] != 0.25 {
					t.Errorf("%s: %s is %d stages, the last %v", c.name, v.name(), len(v.c.Stages), last)
				}
			}
		}
		if s := strings.Join(got, " "); s != c.want {
			t.Errorf("%s: variants %q; want %q", c.name, s, c.want)
		}
	}
}
