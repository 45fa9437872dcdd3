package tui

import (
	"testing"

	tea "github.com/cronus-ltr/cronus/internal/tea"
)

// BenchmarkKeyWhileOptimising measures what a key press costs the UI while
// the optimiser runs on the other core: Update for a λ step (which only
// schedules the debounce) and a full redraw at 160×48. The budget is
// 50 ms from key press to screen.
func BenchmarkKeyWhileOptimising(b *testing.B) {
	m := ready(b)
	m, _ = update(b, m, tea.WindowSizeMsg{Width: 160, Height: 48})
	// Keep the optimiser running: drain its events as the event loop would.
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range m.run.job.Events() {
		}
	}()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		k := "right"
		if i%2 == 1 {
			k = "left"
		}
		m, _ = update(b, m, key(k))
		_ = m.View()
	}
	b.StopTimer()
	m.run.job.Cancel()
	<-done
}

// BenchmarkRedraw is one full redraw at 120×40 (all panes on one screen):
// at the 20 snapshots a second the stream allows, the share of a core the
// UI spends drawing is 20 × this.
func BenchmarkRedraw(b *testing.B) {
	m := ready(b)
	m, _ = update(b, m, tea.WindowSizeMsg{Width: 120, Height: 40})
	b.ResetTimer()
	for b.Loop() {
		_ = m.View()
	}
}
