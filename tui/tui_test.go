package tui

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/cronus-ltr/cronus/views"
)

func TestLoadThenQuit(t *testing.T) {
	m := New(context.Background(), Config{Train: "builtin:mq2008/train", Test: "builtin:mq2008/test", Costs: "builtin:mq2008/costs"}, views.PlainStyles())
	if v := m.View(); !strings.Contains(v, "loading builtin:mq2008/train") {
		t.Errorf("first view does not say it is loading:\n%s", v)
	}
	msg := m.load()
	next, _ := m.Update(msg)
	next, _ = next.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	v := next.View()
	for _, want := range []string{"builtin:mq2008/train", "9630", "builtin:mq2008/test", "2874", "cost 100"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	_, cmd := next.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'q'}})
	if cmd == nil {
		t.Fatal("q returned no command")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Error("q does not quit")
	}
}

func TestLoadErrorIsShown(t *testing.T) {
	m := New(context.Background(), Config{Train: "/nonexistent/train.txt"}, views.PlainStyles())
	next, _ := m.Update(m.load())
	if v := next.View(); !strings.Contains(v, "error:") || !strings.Contains(v, "/nonexistent/train.txt") {
		t.Errorf("error not shown:\n%s", v)
	}
}
