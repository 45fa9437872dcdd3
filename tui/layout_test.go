package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
)

// TestKeyLine: the key line at the bottom shows whole keys only, as many as
// fit, always beginning with quit and help; at 120 columns it was cut
// mid-word ("o op").
func TestKeyLine(t *testing.T) {
	keys := strings.Split(helpLine, " · ")
	for w := 16; w <= 200; w++ {
		l := keyLine(w)
		if lipgloss.Width(l) > w {
			t.Fatalf("width %d: %q is wider", w, l)
		}
		got := strings.Split(l, " · ")
		if len(got) < 2 {
			t.Fatalf("width %d: %q lacks quit and help", w, l)
		}
		for i, k := range got {
			if k != keys[i] {
				t.Fatalf("width %d: key %d is %q, want %q", w, i, k, keys[i])
			}
		}
		if len(got) < len(keys) && lipgloss.Width(l+" · "+keys[len(got)]) <= w {
			t.Fatalf("width %d: %q leaves out %q, which fits", w, l, keys[len(got)])
		}
	}
	if keyLine(1000) != helpLine {
		t.Errorf("a wide line is not the whole help line")
	}
}
