package tui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cronus-ltr/cronus/views"
)

// TestLoadingShowsProgress: the loading screen names the file being read
// and how far its reader is, not only the training file's name with a
// spinner (at MSLR-WEB10K's size the training file alone takes 10–20 s,
// and the screen went on naming it while the test file was read). The
// load runs here to its end without its result being delivered: the
// tick then shows the last file, the test file, read to its end.
func TestLoadingShowsProgress(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range 60 {
		fmt.Fprintf(&b, "%d qid:%d 1:%d 2:%d.5 3:%d\n", i%3, 1+i/10, i, i%7, i%5)
	}
	var files [3]string
	for k, n := range []string{"tr.txt", "va.txt", "te.txt"} {
		files[k] = filepath.Join(dir, n)
		if err := os.WriteFile(files[k], []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := Config{Train: files[0], Valid: files[1], Test: files[2]}
	m := New(context.Background(), cfg, views.PlainStyles())
	defer m.cancel()
	m.width, m.height = 200, 30
	if !strings.Contains(m.View(), "loading "+files[0]+" …") {
		t.Fatalf("before the load, the screen does not say it loads %s:\n%s", files[0], m.View())
	}
	if msg, ok := m.load().(loadedMsg); !ok || msg.err != nil {
		t.Fatalf("load: %v", msg.err)
	}
	m, _ = update(t, m, tickMsg{})
	if v, want := m.View(), "loading "+files[2]+" … pass 2/2 100%"; !strings.Contains(v, want) {
		t.Errorf("after the load read the test file, the screen does not say %q:\n%s", want, v)
	}
}

// TestLoadingNamesModelAndCosts: while the model file or the cost file is
// read, the loading screen names it, not the training file (the model is
// read before any data, the costs after the training file, and the screen
// said "loading train.txt …" through both).
func TestLoadingNamesModelAndCosts(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range 30 {
		fmt.Fprintf(&b, "%d qid:%d 1:%d 2:%d.5\n", i%3, 1+i/10, i, i%7)
	}
	train := filepath.Join(dir, "tr.txt")
	costs := filepath.Join(dir, "costs.txt")
	model := filepath.Join(dir, "model.json")
	for path, text := range map[string]string{train: b.String(), costs: "1\n2\n", model: "{not json"} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The costs, read after the training file: the last file named.
	m := New(context.Background(), Config{Train: train, Costs: costs}, views.PlainStyles())
	defer m.cancel()
	m.width, m.height = 200, 30
	if msg, ok := m.load().(loadedMsg); !ok || msg.err != nil {
		t.Fatalf("load: %v", msg.err)
	}
	m, _ = update(t, m, tickMsg{})
	if v, want := m.View(), "loading "+costs+" …"; !strings.Contains(v, want) || strings.Contains(v, "loading "+train) {
		t.Errorf("after the cost file was read, the screen does not say %q:\n%s", want, v)
	}
	// The model, read first: a bad one stops the load while it is named.
	m2 := New(context.Background(), Config{Train: train, Model: model}, views.PlainStyles())
	defer m2.cancel()
	if msg, ok := m2.load().(loadedMsg); !ok || msg.err == nil || msg.bad != fieldModel {
		t.Fatalf("load of a bad model: %+v, want its error", msg)
	}
	if name, how := m2.loadProg.get(); name != model || how != "" {
		t.Errorf("while the model was read the load named %q (%q), want %q", name, how, model)
	}
}
