package tui

// keyHelp lists every key, for the help overlay; the help line shows the
// first few.
var keyHelp = []struct{ keys, what string }{
	{"q, ctrl+c", "quit (cancels running work)"},
	{"?", "show or hide this help"},
	{"tab, shift+tab, 1-5", "switch pane (below 120×40)"},
	{"↑/k, ↓/j", "select a parameter"},
	{"←/h, →/l", "step it (λ, σ ×1.5; K ±1; ε ±0.05)"},
	{"enter", "type a value; enter applies, esc cancels"},
	{"r", "restart the optimisation from scratch"},
	{"s", "save the best cascade to ./" + savePath},
}

const helpLine = "q quit · ? help · ↑↓ select · ←→ step · enter edit · r restart · s save · tab pane"
