package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cronus-ltr/cronus/engine/job"
	"github.com/cronus-ltr/cronus/views"
)

// TestMessagesNameOddPaths: an error or a warning naming a file whose name
// holds a newline, a tab, an escape or a byte that is not UTF-8 names it
// with those written as Go escapes, on one line, as the workbench shows
// them: printed raw, "a\nb.txt" split the message onto two lines, neither
// of which named the file, and an escape in a name was sent to the
// terminal.
func TestMessagesNameOddPaths(t *testing.T) {
	dir := t.TempDir()
	one := filepath.Join(dir, "one.txt")
	if err := os.WriteFile(one, []byte("1 qid:1 1:0.5\n0 qid:1 1:0.2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{
		"sp ace.txt", "-x.txt", "üñï.txt", "nl\nx.txt", "tab\tx.txt", "bad\xff.txt", "esc\x1b[31m.txt",
	} {
		p := filepath.Join(dir, name)
		shown := views.Printable(p)
		if err := os.WriteFile(p, []byte("1 qid:1 1:0.5\n0 qid:1 1:abc\n"), 0o644); err != nil {
			t.Skipf("%q: %v (file system refuses the name)", name, err)
		}
		for _, args := range [][]string{
			{"inspect", p},
			{"train", "--train", p, "--out", filepath.Join(dir, "m.json")},
			{"eval", "--scores", p + ".missing", "--data", "builtin:mq2008/test"},
		} {
			code, _, errOut := runCLI(t, args...)
			if code != 1 || !strings.Contains(errOut, shown) || strings.Count(errOut, "\n") != 1 ||
				strings.ContainsAny(errOut, "\t\x1b") || !strings.HasSuffix(errOut, "\n") {
				t.Errorf("%s %q: exit %d, stderr %q; want one line naming %s", args[0], name, code, errOut, shown)
			}
		}
		// A warning names the file too: costs of features the data lacks.
		if err := os.WriteFile(p, []byte("1\n2\n3\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errOut := runCLI(t, "inspect", one, "--costs", p)
		if code != 0 || !strings.Contains(errOut, "warning: "+shown+": ") || strings.ContainsAny(errOut, "\t\x1b") {
			t.Errorf("inspect --costs %q: exit %d, stderr %q; want a warning naming %s", name, code, errOut, shown)
		}
	}
}

// TestErrorTextKeepsPanicLines: a job's panic, wrapped or not, keeps its
// stack one frame a line; another error's newline is escaped.
func TestErrorTextKeepsPanicLines(t *testing.T) {
	pe := &job.PanicError{Value: "boom", Stack: "main.f\n\t/x/main.go:1"}
	for _, err := range []error{pe, fmt.Errorf("training: %w", pe)} {
		if got := errorText(err); got != err.Error() || strings.Count(got, "\n") != 2 {
			t.Errorf("errorText(%q) = %q, want it unchanged", err, got)
		}
	}
	if got, want := errorText(errors.New("open a\nb.txt: no such file")), `open a\nb.txt: no such file`; got != want {
		t.Errorf("errorText = %q, want %q", got, want)
	}
}
