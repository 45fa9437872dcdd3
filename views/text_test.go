package views

import (
	"slices"
	"testing"
)

func TestWrapWords(t *testing.T) {
	for _, c := range []struct {
		s     string
		width int
		want  []string
	}{
		{"a bb ccc", 4, []string{"a bb", "ccc"}},
		{"a bb ccc", 8, []string{"a bb ccc"}},
		{"λ ω⁺ ±1", 4, []string{"λ ω⁺", "±1"}},
		{"abcdefgh ij", 4, []string{"abcd", "efgh", "ij"}},
		{"x abcdefghi j", 4, []string{"x", "abcd", "efgh", "i j"}},
		{"./λ-cascade.json", 8, []string{"./λ-casc", "ade.json"}},
		{"", 4, []string{""}},
	} {
		if got := WrapWords(c.s, c.width); !slices.Equal(got, c.want) {
			t.Errorf("WrapWords(%q, %d) = %q, want %q", c.s, c.width, got, c.want)
		}
	}
}
