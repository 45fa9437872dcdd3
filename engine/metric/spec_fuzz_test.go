package metric

import (
	"strings"
	"testing"
)

// FuzzParseList holds the metric-list parser (what --metrics reads) to its
// contract: an error that quotes what was wrong, or specs that validate and
// whose canonical names parse back to the same specs.
func FuzzParseList(f *testing.F) {
	for _, s := range []string{
		"p@5,ndcg@10,err@3,rbp@0.5,map", "NDCG", " err@1 ", "precision@3",
		"rbp@1e-3", "rbp@0.99999999999999999", "ndcg@0", "p", "map@2", "",
		",", "ndcg@+7", "ndcg@1_0", "rbp@nan", "rbp@0x1p-2", "ndcg@99999999999999999999",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		specs, err := ParseList(s)
		if err != nil {
			if specs != nil {
				t.Fatal("specs and an error")
			}
			if strings.TrimSpace(s) != "" && !strings.HasPrefix(err.Error(), "metric ") {
				t.Fatalf("error does not say which metric: %v", err)
			}
			return
		}
		if len(specs) != strings.Count(s, ",")+1 {
			t.Fatalf("%q gave %d specs", s, len(specs))
		}
		names := make([]string, len(specs))
		for i, sp := range specs {
			if err := sp.validate(); err != nil {
				t.Fatalf("%q: spec %+v does not validate: %v", s, sp, err)
			}
			names[i] = sp.String()
		}
		again, err := ParseList(strings.Join(names, ","))
		if err != nil {
			t.Fatalf("canonical %q of %q does not parse: %v", names, s, err)
		}
		for i := range specs {
			if again[i] != specs[i] {
				t.Fatalf("%q: %+v reads back as %+v", s, specs[i], again[i])
			}
		}
	})
}
