package data

import (
	"sort"
	"strconv"
)

// Summary is what `cronus inspect` prints about a data set and its costs.
type Summary struct {
	Name          string         `json:"name"`
	Queries       int            `json:"queries"`
	QueryFile     string         `json:"query_file,omitempty"` // the file of query sizes the queries came from (Dataset.QueryFile)
	Docs          int            `json:"docs"`
	Features      int            `json:"features"`
	Labels        map[string]int `json:"labels"` // label (as printed by strconv 'g') -> documents
	DocsPerQuery  DocsPerQuery   `json:"docs_per_query"`
	ZeroQueries   int            `json:"queries_without_relevant"` // queries whose labels are all <= 0
	CostGroups    []GroupCount   `json:"cost_groups,omitempty"`
	TotalCost     float64        `json:"total_cost"` // sum of all feature costs (present when 0: inspect always has costs)
	DefaultedCost []int          `json:"defaulted_cost_features,omitempty"`
}

// DocsPerQuery gives the spread of query sizes.
type DocsPerQuery struct {
	Min    int     `json:"min"`
	Median float64 `json:"median"`
	Max    int     `json:"max"`
}

// GroupCount is one cost group: a distinct cost and how many features have it.
type GroupCount struct {
	Cost     float64 `json:"cost"`
	Features int     `json:"features"`
}

// LabelKey formats a label the way Summary.Labels keys it; -0 is 0 (+0
// turns it so), one label with 0, not a second key that sorts as its equal.
func LabelKey(l float32) string { return strconv.FormatFloat(float64(l)+0, 'g', -1, 32) }

// Summarize computes the summary of d; costs may be nil.
func Summarize(d *Dataset, costs *Costs) Summary {
	s := Summary{
		Name:      d.Name,
		Queries:   d.NumQueries(),
		QueryFile: d.QueryFile,
		Docs:      d.NumDocs(),
		Features:  d.NumFeatures(),
		Labels:    map[string]int{},
	}
	for _, l := range d.Labels {
		s.Labels[LabelKey(l)]++
	}
	sizes := make([]int, d.NumQueries())
	for q := range sizes {
		lo, hi := d.Query(q)
		sizes[q] = hi - lo
		relevant := false
		for _, l := range d.Labels[lo:hi] {
			if l > 0 {
				relevant = true
				break
			}
		}
		if !relevant {
			s.ZeroQueries++
		}
	}
	if len(sizes) > 0 {
		sort.Ints(sizes)
		n := len(sizes)
		s.DocsPerQuery = DocsPerQuery{Min: sizes[0], Max: sizes[n-1]}
		if n%2 == 1 {
			s.DocsPerQuery.Median = float64(sizes[n/2])
		} else {
			s.DocsPerQuery.Median = float64(sizes[n/2-1]+sizes[n/2]) / 2
		}
	}
	if costs != nil {
		for _, g := range costs.Groups() {
			s.CostGroups = append(s.CostGroups, GroupCount{Cost: g.Cost, Features: len(g.Features)})
		}
		for _, c := range costs.Cost {
			s.TotalCost += c
		}
		for _, f := range costs.Defaulted {
			s.DefaultedCost = append(s.DefaultedCost, f+1)
		}
	}
	return s
}
