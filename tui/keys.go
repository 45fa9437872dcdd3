package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// keyHelp lists every key, for the help overlay; the help line shows the
// first few.
var keyHelp = []struct{ keys, what string }{
	{"q, ctrl+c", "quit (cancels running work; a file being written is finished first, a second q quits at once); while a value or a path is typed, only ctrl+c"},
	{"?", "show or hide the help and the last load's warnings (↑/k, ↓/j scroll it)"},
	{"o", "open the load screen: pick train, valid, test, costs and model files (tab, shift+tab field; ↑↓ or k/j move; enter pick or open a directory; backspace up; l or ctrl+l load; esc back; / types a path: enter or tab accepts, esc cancels, ctrl+u clears, ~ is home)"},
	{"tab, shift+tab, 1-5", fmt.Sprintf("switch pane (below %d×%d; with the parameter panel open, below %d×%d)", fullWidth, fullHeight, fullWidth, fullHeight+panelRows)},
	{"↑, ↓/j", "select a parameter"},
	{"←/h, →/l", "step it (λ, σ, ρ, ω⁺ ×/÷1.5 to the 4 digits shown; K, leaves, relevant ±1; ε ±0.05; δ, col sample ±0.1; trees ±50; targets round binary, graded and distil; refit on/off; loss regression/lambdarank; a step out of range is refused)"},
	{"enter", "type a value; enter applies, esc cancels; invalid values are refused whole; on ρ, enter with no value chooses it on validation NDCG@10 as cronus cascade does (Algorithm 2 at its 6 values of ρ; then restarts), 1se typed chooses it by the one-standard-error rule (cronus cascade --rho-rule 1se: the largest ρ within one standard error of the best), and enter, enter again, an edit, r, loading data or q cancels it"},
	{"p", "show or hide the parameter panel (ρ, ω⁺, δ, relevance, targets, refit, trees, leaves, col sample: < 1 keeps shallow trees off a few costly features, loss of the base trees; on targets, refit and loss, enter goes to the next)"},
	{"space", "pause or resume the optimisation (with no run under way, the next run starts paused)"},
	{"n", "one step of the paused run"},
	{"r", "restart the optimisation from scratch"},
	{"s", "save the best cascade (the one k keeps) to ./" + savePath + "; in the compare view, the kept cascades to ./" + keptName},
	{"k", "keep the best cascade for comparison (at most 4; a 5th replaces the oldest; a retrain or other data drop them)"},
	{"c", "show or hide the kept cascades side by side (esc hides)"},
	{"w", "run a λ sweep (Algorithm 2 at 8 values of λ, plotted as the λ sweep); w again, r, a parameter change, loading data or q cancels it"},
	{"e", "export the curves to ./" + curvesCSV + " and .svg, and their Pareto front (cost against NDCG@10, per split) to ./" + frontCSV},
}

// p, space, n, k, c, w and e come before r, enter and tab so that a wide
// line still shows them (keyLine drops whole keys from the end).
const helpLine = "q quit · ? help · ↑↓←→ params · p panel · space pause · s save · k keep · c compare · n step · w sweep · e export · o open · r restart · enter type · tab pane"

// The key line where helpLine's keys do not apply: the load screen (its
// title line shows its own keys), while a path or a value is typed, where
// q is a letter and only ctrl+c quits, and the help.
const (
	loadKeyLine   = "q quit · esc back"
	typingKeyLine = "ctrl+c quit · esc cancel"
	helpKeyLine   = "q quit · ↑↓ scroll · esc close"
	// After data or the base ensemble failed nothing runs: the way on is
	// another load (the full line, cut at 120 columns, lost "o open").
	failedKeyLine = "q quit · o open · ? help"
)

// footerKeys is the key line of the screen shown.
func (m Model) footerKeys() string {
	switch {
	case m.editing, m.loadScr != nil && m.loadScr.typing:
		return typingKeyLine
	case m.loadScr != nil:
		return loadKeyLine
	case m.help:
		return helpKeyLine // ↑↓ scroll the help there, not the params
	case m.phase == phaseFailed:
		line := failedKeyLine
		if m.compare {
			// The kept cascades stay when a targets edit leaves nothing
			// relevant, and c shows them over the error's screen.
			line += " · c/esc close"
		}
		if m.w != nil && m.w.e != nil {
			line += " · p panel" // a targets edit builds the problem again
		}
		return line
	case m.compare:
		return compareKeyLine
	case m.w != nil && m.w.valid == nil:
		return m.placeTab(noValidKeyLine)
	}
	return m.placeTab(helpLine)
}

// placeTab is line without "tab pane" when the screen shows every pane
// at once, where tab switches none that shows (at 200 columns the line
// offered it); otherwise with it just after the parameter keys, since a
// screen too small for every pane is one whose line keeps few keys
// (keyLine drops them from the end: at 80 columns tab went first, where
// it is the way to the other panes).
func (m Model) placeTab(line string) string {
	line = strings.Replace(line, " · tab pane", "", 1)
	if computeLayout(m.width, m.height-len(m.shownPanel()), 0, 0).full {
		return line
	}
	return strings.Replace(line, "↑↓←→ params", "↑↓←→ params · tab pane", 1)
}

// compareKeyLine is helpLine in the compare view: c (or esc) hides it and
// s saves the kept cascades, said up front; the panes, which tab
// switches, are not shown.
var compareKeyLine = strings.NewReplacer("? help", "? help · c/esc close · s save kept",
	" · s save", "", " · c compare", "", " · tab pane", "").Replace(helpLine)

// noValidKeyLine is helpLine without s, k and c, which are refused for
// good without validation data: no cascade is chosen there.
var noValidKeyLine = strings.NewReplacer(" · s save", "", " · k keep", "", " · c compare", "").Replace(helpLine)

// keyLine is as much of line as fits in w cells, whole keys only.
func keyLine(line string, w int) string {
	fitted := ""
	for _, k := range strings.Split(line, " · ") {
		next := k
		if fitted != "" {
			next = fitted + " · " + k
		}
		if lipgloss.Width(next) > w {
			break
		}
		fitted = next
	}
	return fitted
}
