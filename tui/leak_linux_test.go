package tui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/cronus-ltr/cronus/internal/fdcount"
	"github.com/cronus-ltr/cronus/views"
)

// The workbench loads data sets, cost files and models many times in one
// session: each load closes every file it opened, whether it loaded, met a
// bad line, a bad or missing cost or model file, or was ended by quitting
// while a data file (a FIFO nobody writes to yet) was being opened. A
// descriptor left open by each failed load would run a long session out
// of them.
func TestLoadsCloseTheirFiles(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // a load that succeeds records its files
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var good, bad strings.Builder
	for i := range 100 {
		line := fmt.Sprintf("%d qid:%d 1:%d 2:1\n", i%2, i/50+1, i%7)
		good.WriteString(line)
		if i == 49 { // line 50
			line = strings.Replace(line, "1:", "1:x", 1)
		}
		bad.WriteString(line)
	}
	goodData := write("good.txt", good.String())
	badData := write("bad.txt", bad.String())
	badCosts := write("costs.txt", "1\nx\n")
	badModel := write("m.json", `{"format": "cronus-model", "trees": [`)
	missing := filepath.Join(dir, "missing.txt")
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	cases := []struct {
		name string
		cfg  Config
		quit bool   // quit before the load runs
		want string // in the load's error; "": it loads
	}{
		{"good", Config{Train: goodData, Valid: goodData, Costs: "builtin:mq2008/costs"}, false, ""},
		{"bad line", Config{Train: goodData, Valid: badData}, false, "bad.txt:50: feature 1"},
		{"missing", Config{Train: goodData, Test: missing}, false, "missing.txt: no such file"},
		{"bad costs", Config{Train: goodData, Costs: badCosts}, false, "costs.txt:2: cost"},
		{"missing costs", Config{Train: goodData, Costs: missing}, false, "missing.txt: no such file"},
		{"bad model", Config{Train: goodData, Model: badModel}, false, "m.json"},
		{"missing model", Config{Train: goodData, Model: missing}, false, "missing.txt: no such file"},
		{"quit while opening", Config{Train: fifo}, true, "context canceled"},
	}
	fdcount.NoCollection(t)
	for _, c := range cases {
		fdcount.Collect()
		before := fdcount.Open(t)
		m := New(context.Background(), c.cfg, views.PlainStyles())
		if c.quit {
			m, _ = update(t, m, key("q"))
		}
		msg := m.load().(loadedMsg)
		m.cancel()
		if c.quit {
			// The open given up at the quit waits on for a writer in the
			// background, and closes the file it then gets.
			if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
				w.Close()
			}
		}
		if msg.err == nil && c.want != "" || msg.err != nil && (c.want == "" || !strings.Contains(msg.err.Error(), c.want)) {
			t.Errorf("%s: error %v, want one with %q", c.name, msg.err, c.want)
		}
		if leaked := fdcount.Leaked(t, before); len(leaked) > 0 {
			t.Errorf("%s left open:\n%s", c.name, strings.Join(leaked, "\n"))
		}
	}
}
