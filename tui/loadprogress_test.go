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
