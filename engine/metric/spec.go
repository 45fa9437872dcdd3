package metric

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Metric names, as they appear in Spec.Name and in the canonical strings.
const (
	NDCG      = "ndcg"   // normalised discounted cumulative gain, NDCG@k
	ERR       = "err"    // expected reciprocal rank, ERR@k
	Precision = "p"      // precision at k, P@k
	RBP       = "rbp"    // rank-biased precision with persistence p
	MAP       = "map"    // mean average precision, MAP@k
	RR        = "rr"     // reciprocal rank of the first relevant document, RR@k (mean: MRR)
	Recall    = "recall" // recall at k
)

// Spec is a parsed metric such as ndcg@10, p@5, err@3, rbp@0.8, map, rr or
// recall@100.
type Spec struct {
	// Name is one of NDCG, ERR, Precision, RBP, MAP, RR and Recall.
	Name string
	// K is the cut-off: only the top K documents of a query count. K = 0
	// means the whole list for NDCG, ERR, MAP and RR; Precision and Recall
	// need K > 0. RBP has no cut-off and needs K = 0.
	K int
	// P is the persistence of RBP, in (0, 1); 0 for every other metric.
	P float64
}

// Parse parses a metric name: "ndcg@10", "ndcg" (the whole list), "err@3",
// "err", "p@5" (also "precision@5"), "rbp@0.8", "map", "map@10", "rr",
// "rr@10" (also "mrr", "mrr@10") and "recall@100". Case and surrounding space
// are ignored. The error says what is wrong with s.
func Parse(s string) (Spec, error) {
	name, arg, hasArg := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "@")
	fail := func(format string, a ...any) (Spec, error) {
		return Spec{}, fmt.Errorf("metric %q: %s", s, fmt.Sprintf(format, a...))
	}
	var spec Spec
	switch name {
	case NDCG, ERR, Precision, "precision", MAP, RR, "mrr", Recall:
		spec.Name = map[string]string{"precision": Precision, "mrr": RR}[name]
		if spec.Name == "" {
			spec.Name = name
		}
		if !hasArg {
			break
		}
		k, err := strconv.Atoi(arg)
		if errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(arg, "-") {
			return fail("cut-off %q is too large (at most %d)", arg, math.MaxInt)
		}
		if err != nil || k <= 0 {
			return fail("cut-off %q is not a positive whole number", arg)
		}
		spec.K = k
	case RBP:
		spec.Name = RBP
		if !hasArg {
			return fail("rbp needs a persistence, e.g. rbp@0.8")
		}
		p, err := strconv.ParseFloat(arg, 64)
		if err != nil || strings.ContainsAny(arg, "_xXpP") { // decimal only: not Go's 0_8 or 0x1p-1
			return fail("persistence %q is not a number", arg)
		}
		spec.P = p
	case "":
		return fail("empty metric name")
	default:
		return fail("unknown metric (want ndcg, err, p, recall, rr, rbp or map, e.g. ndcg@10)")
	}
	if err := spec.validate(); err != nil {
		return fail("%v", err)
	}
	return spec, nil
}

// BinaryRelevance reports whether the metric counts a document relevant by
// Options.RelevantLabel (P@k, MAP, RR, recall and RBP); NDCG and ERR use the
// graded label, relevant when above 0.
func (s Spec) BinaryRelevance() bool {
	return s.Name != NDCG && s.Name != ERR
}

// ParseList parses a comma-separated list of metrics, e.g. "ndcg@10,err@10,map",
// each at most once.
func ParseList(s string) ([]Spec, error) {
	if strings.TrimSpace(s) == "" {
		return nil, errors.New("metric list is empty")
	}
	var specs []Spec
	var parts []string
	for part := range strings.SplitSeq(s, ",") {
		spec, err := Parse(part)
		if err != nil {
			return nil, err
		}
		// Twice would be two columns of one name in a per-query table.
		if i := slices.Index(specs, spec); i >= 0 {
			return nil, fmt.Errorf("metric %q: given twice (as %q before)", strings.TrimSpace(part), strings.TrimSpace(parts[i]))
		}
		specs = append(specs, spec)
		parts = append(parts, part)
	}
	return specs, nil
}

// String returns the canonical name of s, which Parse reads back to s.
func (s Spec) String() string {
	switch {
	case s.Name == RBP:
		return RBP + "@" + strconv.FormatFloat(s.P, 'g', -1, 64)
	case s.K == 0:
		return s.Name
	default:
		return s.Name + "@" + strconv.Itoa(s.K)
	}
}

// validate reports whether the fields of s make sense together; Parse turns
// its error into a user-facing one, PerQuery and Mean panic with it.
func (s Spec) validate() error {
	switch s.Name {
	case NDCG, ERR, MAP, RR:
		if s.K < 0 {
			return fmt.Errorf("cut-off %d is negative", s.K)
		}
	case Precision:
		// P over the whole list is the share of relevant documents in the
		// query, whatever the ranking: not worth a metric.
		if s.K <= 0 {
			return errors.New("precision needs a positive cut-off, e.g. p@10")
		}
	case Recall:
		// Recall over the whole list is 1, whatever the ranking.
		if s.K <= 0 {
			return errors.New("recall needs a positive cut-off, e.g. recall@100")
		}
	case RBP:
		if !(s.P > 0 && s.P < 1) {
			return fmt.Errorf("persistence %v is not in (0, 1)", s.P)
		}
		if s.K != 0 {
			return errors.New("rbp takes no cut-off")
		}
		return nil
	default:
		return fmt.Errorf("unknown metric %q", s.Name)
	}
	if s.P != 0 {
		return fmt.Errorf("%s takes no persistence", s.Name)
	}
	return nil
}
