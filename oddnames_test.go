package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

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

// TestReportsNameOddPaths: the text a command prints on success names a
// file whose name holds a newline, a tab, an escape or a byte that is not
// UTF-8 as its errors do (views.Printable), each line of the report
// whole: printed raw, "wrote m\nx.json: 3 trees" split over two lines and
// an escape in a name went to the terminal. The files are still the ones
// named (the JSON reports keep the names as they are).
func TestReportsNameOddPaths(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"nl\nx", "tab\tx", "bad\xffx", "esc\x1b[31mx"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p+".probe", nil, 0o644); err != nil {
			t.Skipf("%q: %v (file system refuses the name)", name, err)
		}
		shown := func(path string) string { return views.Printable(path) }
		data, model, costs := p+".txt", p+".json", p+".costs"
		if err := os.WriteFile(costs, []byte(strings.Repeat("2\n", 136)), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			args []string
			want string // the line of the report that names the file
		}{
			{[]string{"gen", "--queries", "4", "--docs-per-query", "6", "--out", data}, "wrote " + shown(data) + ": 4 queries"},
			{[]string{"inspect", data, "--costs", costs}, shown(data)},
			{[]string{"inspect", data, "--costs", costs}, "  costs        " + shown(costs) + "; total 272"},
			{[]string{"train", "--train", data, "--trees", "3", "--leaves", "3", "--out", model}, "wrote " + shown(model) + ": 3 trees"},
			{[]string{"inspect", model}, shown(model) + ": a model, 3 trees"},
			{[]string{"eval", "--model", model, "--data", data}, shown(data) + ": 4 queries"},
			{[]string{"export", "--to", "xgboost", "--model", model, "--out", p + ".xgb.json"}, "wrote " + shown(p+".xgb.json") + ": 3 trees of " + shown(model) + " as XGBoost"},
			{[]string{"export", "--to", "c", "--model", model, "--out", p + ".c"}, "wrote " + shown(p+".c") + ": 3 trees of " + shown(model) + " as C"},
			{[]string{"import", "--from", "xgboost", p + ".xgb.json", "--out", p + ".imp.json"}, "wrote " + shown(p+".imp.json") + ": 3 trees from xgboost"},
			{[]string{"cascade", "--model", model, "--train", data, "--valid", data, "--costs", costs, "--stages", "2", "--cycles", "1", "--out", p + ".cas.json"}, "wrote " + shown(p+".cas.json") + ": 2 stages"},
			{[]string{"sweep", "--model", model, "--train", data, "--valid", data, "--costs", costs, "--stages", "2", "--lambdas", "0.01:0.1:2", "--cycles", "0", "--out", p + ".csv"}, "wrote " + shown(p+".csv") + ": "},
		} {
			code, out, errOut := runCLI(t, c.args...)
			if code != 0 {
				t.Fatalf("%q: exit %d, stderr %q", c.args, code, errOut)
			}
			found := false
			for _, line := range strings.Split(out, "\n") {
				found = found || strings.HasPrefix(line, c.want)
			}
			if !found || strings.ContainsAny(out, "\t\x1b") || !utf8.ValidString(out) {
				t.Errorf("%q: stdout %q; want a line starting %q and no raw tab, escape or invalid UTF-8", c.args, out, c.want)
			}
		}
		for _, f := range []string{data, model, p + ".xgb.json", p + ".c", p + ".imp.json", p + ".cas.json", p + ".csv"} {
			if _, err := os.Stat(f); err != nil {
				t.Errorf("%q not written under its own name: %v", f, err)
			}
		}
	}
}
