package tui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"
	"github.com/cronus-ltr/cronus/data"
	tea "github.com/cronus-ltr/cronus/internal/tea"
	"github.com/cronus-ltr/cronus/views"
)

// runLoad runs the load command of a reload (alone or batched with a tick).
func runLoad(t *testing.T, cmd tea.Cmd) tea.Msg {
	t.Helper()
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		msg = b[0]()
	}
	if _, ok := msg.(reloadedMsg); !ok {
		t.Fatalf("not a reload: %T", msg)
	}
	return msg
}

func special(t tea.KeyType) tea.KeyMsg { return tea.KeyMsg{Type: t} }

// pick selects the list line of the given value and enters it.
func pick(t *testing.T, m Model, value string) Model {
	t.Helper()
	i := slices.IndexFunc(m.loadScr.list, func(c choice) bool { return c.value == value })
	if i < 0 {
		t.Fatalf("%q not in the list of %s", value, fieldNames[m.loadScr.field])
	}
	for m.loadScr.sel != i {
		m, _ = update(t, m, key("down"))
	}
	m, _ = update(t, m, key("enter"))
	return m
}

func TestLoadScreenListsBuiltins(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	m := New(context.Background(), mq2008, views.PlainStyles())
	defer m.cancel()
	m, _ = update(t, m, key("o"))
	if m.loadScr == nil {
		t.Fatal("o does not show the load screen")
	}
	v := m.View()
	for _, want := range []string{"builtin:mq2008/train", "builtin:mq2008/vali", "builtin:mq2008/test", "builtin:mq2008/costs", "train", "model"} {
		if !strings.Contains(v, want) {
			t.Errorf("load screen lacks %q:\n%s", want, v)
		}
	}
	m, _ = update(t, m, key("esc"))
	if m.loadScr != nil || m.cfg != New(context.Background(), mq2008, views.PlainStyles()).cfg {
		t.Error("esc did not leave the load screen unchanged")
	}
}

// TestLoadScreenModelListsNoBuiltins: the built-in sets hold data and
// costs, no model, so the model field's list does not offer them; it did,
// and picking one refused the load with "builtin:mq2008/test: no such file".
func TestLoadScreenModelListsNoBuiltins(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	m := New(context.Background(), mq2008, views.PlainStyles())
	defer m.cancel()
	m, _ = update(t, m, key("o"))
	for m.loadScr.field != fieldModel {
		m, _ = update(t, m, special(tea.KeyTab))
	}
	for _, c := range m.loadScr.list {
		if strings.HasPrefix(c.value, "builtin:") {
			t.Errorf("the model field lists %q", c.value)
		}
	}
	if v := m.View(); strings.Count(v, "builtin:") != 4 {
		t.Errorf("the model field's screen lists built-in sets beyond the four fields' values:\n%s", v)
	}
	// The other fields still offer them.
	m, _ = update(t, m, special(tea.KeyShiftTab))
	if !slices.ContainsFunc(m.loadScr.list, func(c choice) bool { return c.value == "builtin:mq2008/costs" }) {
		t.Errorf("the costs field does not list builtin:mq2008/costs")
	}
}

func TestLoadScreenRestarts(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	m := ready(t)
	gen := m.gen
	old := m.ctx
	m, _ = update(t, m, key("o"))
	m = pick(t, m, "builtin:mq2008/test")
	if m.loadScr.values[fieldTrain] != "builtin:mq2008/test" || m.loadScr.field != fieldValid {
		t.Fatalf("pick: values %q, field %d", m.loadScr.values, m.loadScr.field)
	}
	m, cmd := update(t, m, key("l"))
	// The session goes on while the files load.
	if m.loadScr != nil || m.gen != gen || m.phase != phaseReady || m.cfg.Train != mq2008.Train || cmd == nil || old.Err() != nil {
		t.Fatalf("l: screen %v, generation %d (want %d), phase %d, train %q", m.loadScr != nil, m.gen, gen, m.phase, m.cfg.Train)
	}
	if !strings.Contains(m.status, "loading builtin:mq2008/test") {
		t.Errorf("status while loading: %q", m.status)
	}
	msg, ok := cmd().(pendingLoadMsg)
	if !ok || msg.err != nil {
		t.Fatalf("load: %T %v", msg, msg.err)
	}
	// A load of an older load generation is dropped.
	if m2, _ := update(t, m, pendingLoadMsg{gen: msg.gen - 1, v: msg.v, loadedMsg: msg.loadedMsg}); m2.gen != gen || m2.phase != phaseReady {
		t.Error("a stale load was taken")
	}
	m, cmd = update(t, m, msg)
	if m.gen <= gen || m.phase != phaseTraining || m.cfg.Train != "builtin:mq2008/test" || cmd == nil {
		t.Errorf("after the load: generation %d, phase %d, train %q, error %q", m.gen, m.phase, m.cfg.Train, m.screen.Err)
	}
	if old.Err() == nil {
		t.Error("the work of the previous session is not cancelled")
	}
	// Without a session (the first load failed) a load starts the flow
	// again at once; a load of an older generation is dropped.
	if m2, _ := update(t, m, reloadedMsg{gen: gen, loadedMsg: loadedMsg{err: os.ErrNotExist}}); m2.phase == phaseFailed {
		t.Error("a stale load was taken")
	}
}

// A bad file loaded over a working session leaves the session as it was
// (its data, ensemble, runs and kept cascades were thrown away first).
func TestLoadScreenBadFileKeepsSession(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	bad := filepath.Join(t.TempDir(), "bad.txt")
	if err := os.WriteFile(bad, []byte("1 qid:1 1:0.5 2:0.25\n0 qid:1 1:oops 2:0.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := ready(t)
	m, _ = update(t, m, key("k"))
	w, gen, kept := m.w, m.gen, len(m.kept)
	m, _ = update(t, m, key("o"))
	m.loadScr.values = [numFields]string{bad, "", "", "", ""}
	m, cmd := update(t, m, key("l"))
	m, _ = update(t, m, cmd())
	if m.w != w || m.gen != gen || m.phase != phaseReady || len(m.kept) != kept || m.cfg.Train != mq2008.Train {
		t.Errorf("the session changed: generation %d (was %d), phase %d, kept %d (was %d), train %q", m.gen, gen, m.phase, len(m.kept), kept, m.cfg.Train)
	}
	if !m.errLine || !strings.Contains(m.status, bad+":2") || !strings.Contains(m.status, "this session goes on") {
		t.Errorf("status %q", m.status)
	}
	if readRecent() != nil {
		t.Errorf("a failed load was recorded: %q", readRecent())
	}
	// o opens on the files of the load that failed, for the bad one to be
	// corrected; esc leaves the session's files as they were
	m, _ = update(t, m, key("o"))
	if m.loadScr == nil || m.loadScr.values[fieldTrain] != bad {
		t.Fatalf("o after a failed load: the load screen's train is not the failed load's %s", bad)
	}
	m, _ = update(t, m, key("esc"))
	if m.cfg.Train != mq2008.Train {
		t.Errorf("esc on the reopened load screen: train %q", m.cfg.Train)
	}
}

func TestLoadScreenBadFile(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	bad := filepath.Join(t.TempDir(), "bad.txt")
	if err := os.WriteFile(bad, []byte("1 qid:1 1:0.5 2:0.25\n0 qid:1 1:oops 2:0.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := New(context.Background(), mq2008, views.PlainStyles())
	defer m.cancel()
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 160, Height: 48})
	m, _ = update(t, m, key("o"))
	m.loadScr.values = [numFields]string{bad, "", "", "", ""}
	m, cmd := update(t, m, key("l"))
	m, _ = update(t, m, runLoad(t, cmd))
	if m.phase != phaseFailed || !m.errLine {
		t.Fatalf("phase %d, status %q", m.phase, m.status)
	}
	if v := m.View(); !strings.Contains(v, bad+":2") {
		t.Errorf("the view lacks %s:2:\n%s", bad, v)
	}
	if m.loadScr != nil {
		t.Error("load screen still shown")
	}
	m, _ = update(t, m, key("o"))
	if m.loadScr == nil {
		t.Error("o does not open the load screen after a failed load")
	}
	if _, cmd := update(t, m, key("q")); cmd == nil || cmd() != tea.Quit() {
		t.Error("q does not quit after a failed load")
	}
	if readRecent() != nil {
		t.Errorf("a failed load was recorded: %q", readRecent())
	}
}

func TestRecentWritten(t *testing.T) {
	cfgDir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfgDir)
	if r := readRecent(); r != nil {
		t.Fatalf("recent without a file: %q", r)
	}
	dir := t.TempDir()
	train := filepath.Join(dir, "train.txt")
	body := "2 qid:1 1:0.5 2:0.25\n0 qid:1 1:0.1 2:0.5\n1 qid:2 1:0.3 2:0.1\n0 qid:2 1:0.2 2:0.9\n"
	if err := os.WriteFile(train, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	m := New(context.Background(), mq2008, views.PlainStyles())
	defer m.cancel()
	m, _ = update(t, m, key("o"))
	m.loadScr.values = [numFields]string{train, "", "", "", ""}
	m, cmd := update(t, m, key("l"))
	msg := runLoad(t, cmd)
	if r := msg.(reloadedMsg); r.err != nil {
		t.Fatalf("load: %v", r.err)
	}
	if r := readRecent(); !slices.Equal(r, []string{train}) {
		t.Fatalf("recent = %q, want [%s]", r, train)
	}
	if b, err := os.ReadFile(filepath.Join(cfgDir, "cronus", "recent")); err != nil || string(b) != train+"\n" {
		t.Errorf("recent file %q, %v", b, err)
	}
	m, _ = update(t, m, msg)
	m, _ = update(t, m, key("o"))
	if !slices.ContainsFunc(m.loadScr.list, func(c choice) bool { return c.value == train && strings.HasPrefix(c.label, "recent") }) {
		t.Errorf("the load screen does not list the recent file")
	}
	// The list keeps at most maxRecent, most recent first.
	for i := range maxRecent + 5 {
		if err := addRecent([]string{filepath.Join(dir, "f"+string(rune('a'+i)))}); err != nil {
			t.Fatal(err)
		}
	}
	if r := readRecent(); len(r) != maxRecent || r[0] != filepath.Join(dir, "f"+string(rune('a'+maxRecent+4))) {
		t.Errorf("recent after many: %d, first %q", len(r), r[0])
	}
}

// TestFirstLoadRecorded: the files the workbench opens with (cronus tui
// --model M, --train F …) go on the recent list once they have loaded, as
// a load screen's do; a first load that fails records nothing.
func TestFirstLoadRecorded(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	src := ready(t)
	src.stopRun()
	model := writeModel(t, src.w.e, "")
	cfg := mq2008
	cfg.Model = filepath.Join(filepath.Dir(model), "missing.json")
	m := New(context.Background(), cfg, views.PlainStyles())
	defer m.cancel()
	if msg := m.load().(loadedMsg); msg.err == nil || readRecent() != nil {
		t.Fatalf("a failed first load: %v, recent %q", msg.err, readRecent())
	}
	cfg.Model = model
	m = New(context.Background(), cfg, views.PlainStyles())
	defer m.cancel()
	if msg := m.load().(loadedMsg); msg.err != nil {
		t.Fatal(msg.err)
	}
	if r := readRecent(); !slices.Equal(r, []string{model}) { // the built-in names are not recorded
		t.Errorf("recent after the first load = %q, want [%s]", r, model)
	}
}

func TestLoadScreenBrowses(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	for _, n := range []string{"a.txt", "b.json", "my-costs", "skip.csv"} {
		os.WriteFile(filepath.Join(dir, n), nil, 0o644)
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	m := New(context.Background(), mq2008, views.PlainStyles())
	defer m.cancel()
	m, _ = update(t, m, key("o"))
	m.loadScr.enter(dir)
	var got []string
	for _, c := range m.loadScr.list {
		if filepath.Dir(c.value) == dir {
			got = append(got, c.label)
		}
	}
	if want := []string{"sub/", "a.txt", "b.json", "my-costs"}; !slices.Equal(got, want) {
		t.Errorf("browser lists %q, want %q", got, want)
	}
	m = pick(t, m, filepath.Join(dir, "sub"))
	if m.loadScr.dir != filepath.Join(dir, "sub") {
		t.Errorf("enter on a directory: in %s", m.loadScr.dir)
	}
	m, _ = update(t, m, special(tea.KeyBackspace))
	if m.loadScr.dir != dir {
		t.Errorf("backspace: in %s", m.loadScr.dir)
	}
	m, _ = update(t, m, special(tea.KeyTab))
	if m.loadScr.field != fieldValid || m.loadScr.list[0].label != "(none)" {
		t.Errorf("tab: field %d", m.loadScr.field)
	}
}

func TestLoadScreenFits(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	m := New(context.Background(), mq2008, views.PlainStyles())
	defer m.cancel()
	m, _ = update(t, m, key("o"))
	m.loadScr.recent = []string{strings.Repeat("/very/long/path", 20)}
	m.loadScr.refresh()
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		m, _ = update(t, m, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		for _, sel := range []int{0, len(m.loadScr.list) - 1} {
			m.loadScr.sel = sel
			v := m.View()
			lines := strings.Split(v, "\n")
			if len(lines) != size[1] {
				t.Errorf("%dx%d: %d lines", size[0], size[1], len(lines))
			}
			for i, l := range lines {
				if w := lipgloss.Width(l); w > size[0] {
					t.Errorf("%dx%d: line %d is %d wide", size[0], size[1], i, w)
				}
			}
			if !strings.Contains(v, "load") || !strings.Contains(v, m.loadScr.list[sel].label[:min(10, len(m.loadScr.list[sel].label))]) {
				t.Errorf("%dx%d: selected line %d not shown:\n%s", size[0], size[1], sel, v)
			}
		}
	}
}

// typePath opens the path input with / and types s.
func typePath(t *testing.T, m Model, s string) Model {
	t.Helper()
	m, _ = update(t, m, key("/"))
	if m.loadScr == nil || !m.loadScr.typing {
		t.Fatal("/ does not open the path input")
	}
	m, cmd := update(t, m, key(s))
	if cmd != nil {
		t.Fatalf("typing %q gave a command (quit?)", s)
	}
	return m
}

// touch makes empty files at paths.
func touch(t *testing.T, paths ...string) {
	t.Helper()
	for _, f := range paths {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// openLoadScreen is a workbench on the built-in data, 160×48, with its
// load screen open.
func openLoadScreen(t *testing.T) Model {
	t.Helper()
	m := New(context.Background(), mq2008, views.PlainStyles())
	t.Cleanup(m.cancel)
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 160, Height: 48})
	m, _ = update(t, m, key("o"))
	return m
}

func TestLoadScreenTypesPath(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	home := t.TempDir()
	t.Setenv("HOME", home)
	dir := t.TempDir()
	train := filepath.Join(dir, "quick train.txt") // q and a space are typed, not keys
	touch(t, train, filepath.Join(home, "costs"))
	m := openLoadScreen(t)

	cases := []struct {
		name, typed string
		accept      tea.KeyType
		field       int    // the field set
		want        string // its value
	}{
		{"path", train, tea.KeyEnter, fieldTrain, train},
		{"builtin", "builtin:mq2008/vali", tea.KeyTab, fieldValid, "builtin:mq2008/vali"},
		{"home", "~/costs", tea.KeyEnter, fieldTest, filepath.Join(home, "costs")},
	}
	for _, c := range cases {
		if m.loadScr.field != c.field {
			t.Fatalf("%s: field %d, want %d", c.name, m.loadScr.field, c.field)
		}
		m = typePath(t, m, c.typed)
		if v := m.View(); !strings.Contains(v, c.typed+"▏") || !strings.Contains(v, "esc cancels") {
			t.Errorf("%s: the input is not shown:\n%s", c.name, v)
		}
		m, _ = update(t, m, special(c.accept))
		if m.loadScr.typing || m.loadScr.values[c.field] != c.want || m.loadScr.field != c.field+1 {
			t.Errorf("%s: typing %v, %s = %q (want %q), field %d", c.name, m.loadScr.typing, fieldNames[c.field], m.loadScr.values[c.field], c.want, m.loadScr.field)
		}
	}

	// A path that does not exist is refused with a message; esc cancels.
	before := m.loadScr.values
	missing := filepath.Join(dir, "nope.txt")
	m = typePath(t, m, missing)
	m, _ = update(t, m, special(tea.KeyEnter))
	if !m.loadScr.typing || m.loadScr.values != before {
		t.Errorf("a missing file was accepted: %q", m.loadScr.values)
	}
	if v := m.View(); !strings.Contains(v, missing+": no such file or directory") {
		t.Errorf("no message for a missing file:\n%s", v)
	}
	m, _ = update(t, m, special(tea.KeyBackspace))
	if m.loadScr.input != missing[:len(missing)-1] {
		t.Errorf("backspace: input %q", m.loadScr.input)
	}
	m, _ = update(t, m, special(tea.KeyEsc))
	if m.loadScr == nil || m.loadScr.typing || m.loadScr.err != "" || m.loadScr.values != before {
		t.Errorf("esc does not cancel the input alone")
	}
	if v := m.View(); strings.Contains(v, "no such file") {
		t.Errorf("the message outlives the input:\n%s", v)
	}

	// A directory opens in the browser; the list's "type a path" line opens
	// the input too.
	m = typePath(t, m, "~")
	m, _ = update(t, m, special(tea.KeyEnter))
	if m.loadScr.typing || m.loadScr.dir != home {
		t.Errorf("~: typing %v, in %s", m.loadScr.typing, m.loadScr.dir)
	}
	i := slices.IndexFunc(m.loadScr.list, func(c choice) bool { return c.typed })
	for i >= 0 && m.loadScr.sel != i {
		m, _ = update(t, m, key("down"))
	}
	m, _ = update(t, m, key("enter"))
	if i < 0 || !m.loadScr.typing {
		t.Errorf("enter on the list's line does not open the input (line %d)", i)
	}
}

// TestLoadScreenNarrow: at 40×12 a path too long for its line shows its end,
// where the typing cursor is, after "…" (the line was cut, hiding what was
// typed last); a file chosen, the directory browsed and the path of the
// message refusing it show the end from a "/" on, and the message's reason
// goes whole on the next line.
func TestLoadScreenNarrow(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	m := New(context.Background(), mq2008, views.PlainStyles())
	defer m.cancel()
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 40, Height: 12})
	m, _ = update(t, m, key("o"))
	typed := "/home/someone/data/letor/mq2008/Fold1/no-such-train.txt"
	m = typePath(t, m, typed)
	line := func(m Model, prefix string) string {
		for _, l := range strings.Split(m.View(), "\n") {
			if strings.HasPrefix(l, prefix) {
				return strings.TrimRight(l, " ")
			}
		}
		t.Fatalf("no line %q:\n%s", prefix, m.View())
		return ""
	}
	if got := line(m, "load"); got != "load  enter accepts · esc cancels" {
		t.Errorf("typing hint at 40 columns: %q", got)
	}
	tail := typed[len(typed)-(40-lipgloss.Width("▸ train  …▏")):]
	if got, want := line(m, "▸ train"), "▸ train  …"+tail+"▏"; got != want {
		t.Errorf("typing a long path at 40 columns:\n got %q\nwant %q", got, want)
	}
	m, _ = update(t, m, special(tea.KeyEnter))
	if v := m.View(); !strings.Contains(v, "\n…/letor/mq2008/Fold1/no-such-train.txt: \nno such file or directory ") {
		t.Errorf("the refusal at 40 columns is not the path's end on a line and the reason below:\n%s", v)
	}
	m, _ = update(t, m, special(tea.KeyEsc))
	if got := line(m, "load"); got != "load  tab · ↑↓ · enter · / path · l load" {
		t.Errorf("hint at 40 columns: %q", got)
	}
	m.loadScr.dir = "/home/someone/data/letor/mq2008/Fold1"
	if got := line(m, "pick the"); got != "pick the train file · in …/mq2008/Fold1" {
		t.Errorf("a long directory at 40 columns: %q", got)
	}
	m.loadScr.values[fieldValid] = "/home/someone/data/letor/mq2008/Fold1/vali.txt"
	if got := line(m, "  valid"); got != "  valid  …/letor/mq2008/Fold1/vali.txt" {
		t.Errorf("a long file name at 40 columns: %q", got)
	}
	// The browser's list: a long file name keeps its start and its
	// extension; a recent path is shortened at a "/", as a picked file is
	// (it was cut mid-name: "recent  /ho…/Fold1/train.txt").
	dir := t.TempDir()
	long := "mq2008-fold1-training-set-with-costs-and-labels.txt.gz"
	if err := os.WriteFile(filepath.Join(dir, long), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	m.loadScr.recent = []string{"/home/someone/data/letor/mq2008/Fold1/train.txt"}
	m.loadScr.enter(dir)
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 40, Height: 30})
	lines := strings.Split(m.View(), "\n")
	// "  recent  " leaves 30 of the 40 cells to the path.
	if got := line(m, "  recent"); got != "  recent  …/letor/mq2008/Fold1/train.txt" {
		t.Errorf("a long recent path at 40 columns: %q", got)
	}
	for _, want := range [][2]string{{"  mq2008-fold1", "labels.txt.gz"}} {
		found := false
		for _, l := range lines {
			l = strings.TrimRight(l, " ")
			if strings.HasPrefix(l, want[0]) {
				found = true
				if !strings.HasSuffix(l, want[1]) || !strings.Contains(l, "…") || lipgloss.Width(l) != 40 {
					t.Errorf("a long list entry at 40 columns: %q, want %q…%q in 40 cells", l, want[0], want[1])
				}
			}
		}
		if !found {
			t.Errorf("no list entry %q at 40 columns:\n%s", want[0], m.View())
		}
	}
}

// TestLoadScreenPathMessage: the message refusing a typed path never breaks
// the path: it was word-wrapped, so that a path wider than the screen was
// cut into pieces of the screen's width and a path with a space broke at
// the space. The message is one line where it fits; else the path has a
// line of its own, whole where it fits, else its end from a "/" on after
// "…", and the reason follows.
func TestLoadScreenPathMessage(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	a, b := strings.Repeat("a", 30), strings.Repeat("b", 30)
	long := "/" + a + "/" + b + "/deep/dir/no-such-file.txt" // 88 cells
	spaced := "/no-such-dir/my data/train.txt"               // 30 cells
	const why = "no such file or directory"
	cases := []struct {
		path  string
		width int
		want  []string // the message's lines
	}{
		{long, 40, []string{"…/deep/dir/no-such-file.txt:", why}},
		{long, 80, []string{"…/" + b + "/deep/dir/no-such-file.txt:", why}},
		{long, 120, []string{long + ": " + why}},
		{spaced, 40, []string{spaced + ":", why}},
		{spaced, 80, []string{spaced + ": " + why}},
	}
	for _, c := range cases {
		m := New(context.Background(), mq2008, views.PlainStyles())
		m, _ = update(t, m, tea.WindowSizeMsg{Width: c.width, Height: 24})
		m, _ = update(t, m, key("o"))
		m = typePath(t, m, c.path)
		m, _ = update(t, m, special(tea.KeyEnter))
		lines := strings.Split(m.View(), "\n")
		for i := range lines {
			lines[i] = strings.TrimRight(lines[i], " ")
		}
		at := slices.Index(lines, c.want[0])
		if at < 0 || !slices.Equal(lines[at:min(at+len(c.want), len(lines))], c.want) {
			t.Errorf("%q at %d columns: want the lines %q in\n%s", c.path, c.width, c.want, strings.Join(lines, "\n"))
		}
		m.cancel()
	}
}

// TestReloadStatusKeepsFileName: the status of a load over a working
// session names the file being loaded; a path too long for the line is
// shortened from the left to whole names, as the errors' paths are (it was
// cut at the right edge, "loading /tmp/…/aaaa…", so the file name was
// lost). The message stays on the status line, one line, whole. Once the
// data have loaded it says "loaded", with a session before or without.
func TestReloadStatusKeepsFileName(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	a, b := strings.Repeat("a", 40), strings.Repeat("b", 30)
	dir := filepath.Join(t.TempDir(), a, b, "Fold1")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	train := filepath.Join(dir, "train.txt")
	// 100 documents, the fewest on which the base ensemble's trees can
	// split (fewer are warned of, and the warning takes the status line).
	var text strings.Builder
	for i := range 100 {
		fmt.Fprintf(&text, "%d qid:%d 1:%g 2:%g\n", i%3, i/50+1, float64(i)/100, float64(i%7)/10)
	}
	if err := os.WriteFile(train, []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	check := func(m Model, want string) {
		t.Helper()
		lines := strings.Split(m.View(), "\n")
		for i, l := range lines {
			if w := lipgloss.Width(l); w > 80 {
				t.Errorf("line %d is %d wide: %q", i, w, l)
			}
		}
		// One status line, between the params line and the key line.
		if s := statusOf(m); s != want || !strings.HasPrefix(lines[len(lines)-3], "params") {
			t.Errorf("status line %q (after %q), want %q", s, lines[len(lines)-3], want)
		}
	}
	m := ready(t)
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m, _ = update(t, m, key("o"))
	m.loadScr.values = [numFields]string{train, "", "", "", ""}
	m, cmd := update(t, m, key("l"))
	// "…/bbb…/Fold1/train.txt" (48 cells) leaves too little room for the rest.
	check(m, "loading …/Fold1/train.txt … (this session goes on until it has loaded)")
	// Too narrow for the message with any of the path's directories: the
	// file name still goes whole, and the cut takes the message's end.
	if s, _ := update(t, m, tea.WindowSizeMsg{Width: 40, Height: 24}); !strings.HasPrefix(statusOf(s), "loading …/train.txt … (") {
		t.Errorf("at 40 columns: %q", statusOf(s))
	}
	msg, ok := cmd().(pendingLoadMsg)
	if !ok || msg.err != nil {
		t.Fatalf("load: %T %v", msg, msg.err)
	}
	m, _ = update(t, m, msg)
	if m.phase != phaseTraining || m.cfg.Train != train {
		t.Fatalf("after the load: phase %d, train %q", m.phase, m.cfg.Train)
	}
	check(m, "training the base ensemble … · loaded …/Fold1/train.txt")
	// The data screen above the training names the file the same way and
	// keeps its counts whole (the full path pushed them past the edge).
	wantRow := []string{"…/Fold1/train.txt", "2", "100", "2", "50/50/50", "0", "34/33/33"}
	if !slices.ContainsFunc(strings.Split(m.View(), "\n"), func(l string) bool { return slices.Equal(strings.Fields(l), wantRow) }) {
		t.Errorf("no split row %q in\n%s", wantRow, m.View())
	}

	// The same load when the first load failed (no session) says so too:
	// the status kept "loading …" while the base ensemble trained.
	cfg := mq2008
	cfg.Train = filepath.Join(t.TempDir(), "missing.txt")
	m = New(context.Background(), cfg, views.PlainStyles())
	defer m.cancel()
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m, _ = update(t, m, m.load())
	if m.phase != phaseFailed {
		t.Fatalf("first load of %s: phase %d", cfg.Train, m.phase)
	}
	m, _ = update(t, m, key("o"))
	m.loadScr.values = [numFields]string{train, "", "", "", ""}
	m, cmd = update(t, m, key("l"))
	check(m, "loading …/"+b+"/Fold1/train.txt …")
	m, _ = update(t, m, runLoad(t, cmd))
	if m.phase != phaseTraining || m.cfg.Train != train {
		t.Fatalf("after the load with no session: phase %d, train %q", m.phase, m.cfg.Train)
	}
	check(m, "training the base ensemble … · loaded …/Fold1/train.txt")
}

// The key line at the bottom says what quits where it is shown: on the load
// screen while a path is typed it said "q quit", and q typed a letter.
func TestFooterSaysHowToQuit(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	keyMsg := map[string]tea.KeyMsg{"q": key("q"), "ctrl+c": special(tea.KeyCtrlC), "esc": key("esc")}
	for _, c := range []struct {
		name  string
		keys  []string
		state func(Model) bool // still in the state after a key that does not quit
	}{
		{"workbench", nil, func(m Model) bool { return m.loadScr == nil && !m.editing }},
		{"load screen", []string{"o"}, func(m Model) bool { return m.loadScr != nil && !m.loadScr.typing }},
		{"typing a path", []string{"o", "/", "ab"}, func(m Model) bool { return m.loadScr != nil && m.loadScr.typing }},
		{"typing a value", []string{"enter", "0.1"}, func(m Model) bool { return m.editing }},
		{"help", []string{"?"}, func(m Model) bool { return m.help }},
		{"compare", []string{"c"}, func(m Model) bool { return m.compare }},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := New(context.Background(), mq2008, views.PlainStyles())
			defer m.cancel()
			m, _ = update(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
			for _, k := range c.keys {
				m, _ = update(t, m, key(k))
			}
			if !c.state(m) {
				t.Fatalf("not in the state after %q", c.keys)
			}
			lines := strings.Split(m.View(), "\n")
			footer := strings.TrimSpace(lines[len(lines)-1])
			quits := map[string]bool{}
			for _, e := range strings.Split(footer, " · ") {
				if k, what, ok := strings.Cut(e, " "); ok && what == "quit" {
					quits[k] = true
				}
			}
			if len(quits) == 0 {
				t.Fatalf("the footer %q does not say what quits", footer)
			}
			for k := range quits {
				msg, ok := keyMsg[k]
				if !ok {
					t.Fatalf("the footer %q: unknown key %q", footer, k)
				}
				if _, cmd := update(t, m, msg); cmd == nil || cmd() != tea.Quit() {
					t.Errorf("the footer %q says %s quits; it does not", footer, k)
				}
			}
			// The other keys the footer names do what it says: ? shows the
			// help, esc leaves the state.
			if strings.Contains(footer, "? help") {
				if m2, _ := update(t, m, key("?")); !m2.help {
					t.Errorf("the footer %q names ?, which shows no help", footer)
				}
			}
			// ↑↓ move the parameter mark only where the help is not shown:
			// there they scroll it.
			if m.help && strings.Contains(footer, "params") {
				t.Errorf("the footer %q names the params keys over the help", footer)
			}
			// In the compare view c hides it, and tab switches no pane
			// shown; the line said "c compare · … · tab pane".
			if m.compare && (!strings.Contains(footer, "c/esc close") || strings.Contains(footer, "c compare")) {
				t.Errorf("the compare view's footer %q", footer)
			}
			if m.compare {
				if full := m.footerKeys(); strings.Contains(full, "tab") || !strings.Contains(full, "s save kept") {
					t.Errorf("the compare view's key line %q", full)
				}
			}
			if strings.Contains(footer, "esc ") {
				if m2, _ := update(t, m, keyMsg["esc"]); c.state(m2) {
					t.Errorf("the footer %q names esc, which does nothing", footer)
				}
			}
		})
	}
}

// After a load error nothing runs, and the key line says how on: o opens
// the load screen. The workbench's full line was shown, cut before "o
// open" at 120 columns.
func TestFailedKeyLine(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	cfg := mq2008
	cfg.Costs = filepath.Join(t.TempDir(), "missing-costs.txt")
	m := New(context.Background(), cfg, views.PlainStyles())
	defer m.cancel()
	m, _ = update(t, m, m.load())
	if m.phase != phaseFailed {
		t.Fatalf("phase %d after loading a missing cost file", m.phase)
	}
	for _, w := range []int{40, 120} {
		m, _ = update(t, m, tea.WindowSizeMsg{Width: w, Height: 24})
		lines := strings.Split(m.View(), "\n")
		if footer := lines[len(lines)-1]; !strings.Contains(footer, "o open") || strings.Contains(footer, "params") {
			t.Errorf("at %d columns the key line after the error is %q", w, footer)
		}
	}
	if m, _ = update(t, m, key("o")); m.loadScr == nil {
		t.Error("o does not open the load screen after the error")
	}
}

// TestLoadScreenAbsentMissingNeedsModel: under --absent missing the load
// screen does not load files without a model, as `cronus tui` refuses
// --absent missing without --model; it loaded them and trained the
// workbench's own trees on data read with missing values.
func TestLoadScreenAbsentMissingNeedsModel(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	_, m := absentMissingSession(t)
	w, gen := m.w, m.gen
	m, _ = update(t, m, key("o"))
	m.loadScr.values[fieldModel] = ""
	m, cmd := update(t, m, key("l"))
	if cmd != nil || m.loadScr == nil || !m.errLine || !strings.Contains(m.status, "--absent missing") {
		t.Fatalf("load without a model under --absent missing: command %v, load screen %v, status %q", cmd != nil, m.loadScr != nil, m.status)
	}
	if m.w != w || m.gen != gen || m.phase != phaseReady {
		t.Errorf("the session changed: generation %d (was %d), phase %d", m.gen, gen, m.phase)
	}
	// With the model named again it loads.
	m.loadScr.values[fieldModel] = m.cfg.Model
	if _, cmd = update(t, m, key("l")); cmd == nil {
		t.Error("the load with a model was refused")
	}
}

// TestEditsAfterFailedLoad: after a failed load nothing runs, so an edit
// does not read as applied ("λ = 0.015" alone): it says that it waits for
// the next load, and that load uses it, the base ensemble's shape too
// (trees, leaves and column sample were reset to the defaults by it).
func TestEditsAfterFailedLoad(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	m := New(context.Background(), Config{Train: "/nonexistent/train.txt", trees: 20}, views.PlainStyles())
	t.Cleanup(m.cancel)
	m, _ = update(t, m, m.load())
	if m.phase != phaseFailed {
		t.Fatalf("phase %d after a missing file", m.phase)
	}
	m = enterParam(t, m, parTrees, "12")
	if !strings.Contains(m.status, "next load") {
		t.Errorf("trees edit after a failed load: %q", m.status)
	}
	m.sel = parLambda
	m, _ = update(t, m, key("right"))
	lambda := m.par.Lambda
	if !strings.Contains(m.status, "next load") {
		t.Errorf("λ edit after a failed load: %q", m.status)
	}
	m, _ = update(t, m, debounceMsg{edit: m.edits})
	m, _ = update(t, m, key("o"))
	m.loadScr.values = [numFields]string{mq2008.Train, mq2008.Valid, mq2008.Test, mq2008.Costs, ""}
	m, cmd := update(t, m, key("l"))
	m, cmd = update(t, m, runLoad(t, cmd))
	m = drive(t, m, cmd, firstEvent)
	if n := len(m.w.e.Trees); n != 12 || m.runPar.Lambda != lambda {
		t.Errorf("the next load trained %d trees (edited 12) and runs λ %g (edited %g)", n, m.runPar.Lambda, lambda)
	}
}

// TestModelLoadReplacesEdits: the base ensemble's trees, leaves and column
// sample, edited while no session runs (after a failed load, or while the
// first load runs), are for a training; a model file that then loads
// brings its own trees, which replace them, and the workbench says so, at
// the edit when it knows the model is coming and when the model loads,
// naming the edits replaced. The model's shape replaced them silently.
func TestModelLoadReplacesEdits(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	e, _ := deepModel(t)
	path := writeModel(t, e, "")
	edit := func(m Model, i int, v string) Model {
		t.Helper()
		m = enterParam(t, m, i, v)
		m, _ = update(t, m, debounceMsg{edit: m.edits})
		return m
	}
	// checkLoaded: the model's trees are the base ensemble, and the
	// status names the edits they replaced.
	checkLoaded := func(how string, m Model) {
		t.Helper()
		if m.phase != phasePreparing || m.w.trees != len(e.Trees) || m.w.files.Model != path {
			t.Fatalf("%s: phase %d, not preparing the model's %d trees (files %+v)", how, m.phase, len(e.Trees), m.w.files)
		}
		if m.par.trees != len(e.Trees) || m.par.leaves != maxLeaves(e) || m.par.colSample != 1 {
			t.Errorf("%s: panel trees %d, leaves %d, col sample %g; the model's are %d, %d, 1", how, m.par.trees, m.par.leaves, m.par.colSample, len(e.Trees), maxLeaves(e))
		}
		for _, want := range []string{"trees 12", "leaves 3", "col sample 0.5", fmt.Sprintf("%d trees of up to %d leaves", len(e.Trees), maxLeaves(e))} {
			if !strings.Contains(m.status, want) || !m.errLine {
				t.Errorf("%s: status %q (error %v) lacks %q", how, m.status, m.errLine, want)
			}
		}
	}

	// After a failed load, a model loaded from the load screen.
	m := New(context.Background(), Config{Train: "/nonexistent/train.txt", trees: 20}, views.PlainStyles())
	t.Cleanup(m.cancel)
	m, _ = update(t, m, m.load())
	m = edit(edit(edit(m, parTrees, "12"), parLeaves, "3"), parColSample, "0.5")
	m, _ = update(t, m, key("o"))
	m.loadScr.values = [numFields]string{mq2008.Train, mq2008.Valid, mq2008.Test, mq2008.Costs, path}
	m, cmd := update(t, m, key("l"))
	m, _ = update(t, m, runLoad(t, cmd))
	checkLoaded("after a failed load", m)

	// While the first load runs, the edit says that the model replaces it.
	cfg := mq2008
	cfg.Model, cfg.trees = path, 20
	m = New(context.Background(), cfg, views.PlainStyles())
	t.Cleanup(m.cancel)
	m = edit(m, parTrees, "12")
	if !strings.Contains(m.status, "model") {
		t.Errorf("trees edit while a model loads: %q", m.status)
	}
	m = edit(edit(m, parLeaves, "3"), parColSample, "0.5")
	m, _ = update(t, m, m.load())
	checkLoaded("while the first load ran", m)
}

// A model of fewer trees than K brings K down to them, and says so (it
// came down silently).
func TestModelLoadLowersK(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	e, _ := deepModel(t)
	few := *e
	few.Trees = e.Trees[:4]
	cfg := mq2008
	cfg.Model = writeModel(t, &few, "")
	m := New(context.Background(), cfg, views.PlainStyles())
	t.Cleanup(m.cancel)
	k := m.par.K
	if k <= 4 {
		t.Fatalf("the default K %d is not above 4", k)
	}
	m, _ = update(t, m, m.load())
	want := fmt.Sprintf("K %d → 4: a cascade has no more stages than the model's 4 trees", k)
	if m.par.K != 4 || !strings.Contains(m.status, want) {
		t.Errorf("K %d, status %q; want 4 and %q", m.par.K, m.status, want)
	}
}

// With --trees k below K, the note names --trees, not "the model's k
// trees" of a larger model (cronus tui --model m40.json --trees 4 said
// the model had 4 trees, as cascade --trees said before a57bb7b).
func TestModelTreesLowersK(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	e, _ := deepModel(t)
	cfg := mq2008
	cfg.Model, cfg.ModelTrees = writeModel(t, e, ""), 4
	m := New(context.Background(), cfg, views.PlainStyles())
	t.Cleanup(m.cancel)
	k := m.par.K
	if k <= 4 || len(e.Trees) <= 4 {
		t.Fatalf("the default K %d or the model's %d trees are not above 4", k, len(e.Trees))
	}
	m, _ = update(t, m, m.load())
	want := fmt.Sprintf("K %d → 4: a cascade has no more stages than its trees (--trees 4 takes 4 trees of the model %s)", k, cfg.Model)
	if m.par.K != 4 || !strings.Contains(m.status, want) {
		t.Errorf("K %d, status %q; want 4 and %q", m.par.K, m.status, want)
	}
	// One tree is counted as one (it read "takes 1 trees").
	cfg.ModelTrees = 1
	m = New(context.Background(), cfg, views.PlainStyles())
	t.Cleanup(m.cancel)
	m, _ = update(t, m, m.load())
	want = fmt.Sprintf("K %d → 1: a cascade has no more stages than its trees (--trees 1 takes 1 tree of the model %s)", k, cfg.Model)
	if m.par.K != 1 || !strings.Contains(m.status, want) {
		t.Errorf("--trees 1: K %d, status %q; want 1 and %q", m.par.K, m.status, want)
	}
}

// A shape edit while the workbench's own ensemble trains, or while the
// problem is built, is applied after, by a retrain: it says so (it read
// "trees = 12", as if applied).
func TestShapeEditWhilePreparing(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	cfg := mq2008
	cfg.trees = 20
	m := New(context.Background(), cfg, views.PlainStyles())
	t.Cleanup(m.cancel)
	m, cmd := update(t, m, m.load())
	if m.phase != phaseTraining {
		t.Fatalf("phase %d after the data loaded, want training", m.phase)
	}
	m = enterParam(t, m, parTrees, "12")
	if want := "trees = 12: retrains once the ensemble in training is done"; m.status != want {
		t.Errorf("trees edit while training: status %q, want %q", m.status, want)
	}
	for cmd != nil && m.phase == phaseTraining { // to the training's end: the problem is built next
		m, cmd = update(t, m, cmd())
	}
	if m.phase != phasePreparing {
		t.Fatalf("phase %d after training, want preparing", m.phase)
	}
	m = enterParam(t, m, parLeaves, "3")
	if want := "leaves = 3: retrains once the cascade problem is built"; m.status != want {
		t.Errorf("leaves edit while preparing: status %q, want %q", m.status, want)
	}
	// As said: once the problem is built, the edited ensemble trains.
	for cmd != nil && m.phase == phasePreparing {
		m, cmd = update(t, m, cmd())
	}
	if m.phase != phaseTraining || m.par.trees != 12 || m.par.leaves != 3 {
		t.Errorf("after the problem was built: phase %d, trees %d, leaves %d; want a retrain of 12 trees of 3 leaves", m.phase, m.par.trees, m.par.leaves)
	}
}

// A shape edit while the ensemble trains, or while the problem is built,
// undone by stepping or typing back to the shape of that ensemble: nothing
// retrains after it, and the status line says so (it said "retrains once
// the ensemble in training is done", and nothing retrained). An edit typed
// again while it waits still retrains, and says that.
func TestShapeEditUndoneWhilePreparing(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	cfg := mq2008
	cfg.trees = 20
	for _, c := range []struct {
		name string
		edit func(Model) Model
		want string // the status line after the edits
		// whether the ensemble retrains once the problem is built
		retrains bool
	}{
		{"trees → ←", func(m Model) Model {
			m.panel, m.sel = true, parTrees
			m, _ = update(t, m, key("right"))
			m, _ = update(t, m, key("left"))
			return m
		}, "trees = 20, as the ensemble in training: the pending retrain dropped", false},
		{"trees 12, 20 typed", func(m Model) Model {
			return enterParam(t, enterParam(t, m, parTrees, "12"), parTrees, "20")
		}, "trees = 20, as the ensemble in training: the pending retrain dropped", false},
		{"col sample 0.5, 1 typed", func(m Model) Model {
			return enterParam(t, enterParam(t, m, parColSample, "0.5"), parColSample, "1")
		}, "col sample = 1, as the ensemble in training: the pending retrain dropped", false},
		{"trees 12, leaves 3, trees 20 typed", func(m Model) Model {
			return enterParam(t, enterParam(t, enterParam(t, m, parTrees, "12"), parLeaves, "3"), parTrees, "20")
		}, "trees = 20: retrains once the ensemble in training is done", true},
		{"trees 12, 12 typed", func(m Model) Model {
			return enterParam(t, enterParam(t, m, parTrees, "12"), parTrees, "12")
		}, "trees = 12, as it was: retrains once the ensemble in training is done", true},
		{"leaves → ← while preparing", nil, "leaves = 4, as the cascade problem's ensemble: the pending retrain dropped", false},
	} {
		m := New(context.Background(), cfg, views.PlainStyles())
		t.Cleanup(m.cancel)
		m, cmd := update(t, m, m.load())
		if m.phase != phaseTraining {
			t.Fatalf("%s: phase %d after the data loaded, want training", c.name, m.phase)
		}
		if c.edit != nil {
			m = c.edit(m)
		}
		for cmd != nil && m.phase == phaseTraining { // to the training's end: the problem is built next
			m, cmd = update(t, m, cmd())
		}
		if m.phase != phasePreparing {
			t.Fatalf("%s: phase %d after training, want preparing", c.name, m.phase)
		}
		if c.edit == nil {
			m.panel, m.sel = true, parLeaves
			m, _ = update(t, m, key("right"))
			m, _ = update(t, m, key("left"))
		}
		if m.status != c.want {
			t.Errorf("%s: status %q, want %q", c.name, m.status, c.want)
		}
		for cmd != nil && m.phase == phasePreparing {
			m, cmd = update(t, m, cmd())
		}
		if retrained := m.phase == phaseTraining; retrained != c.retrains {
			t.Errorf("%s: after the problem was built, phase %d (retrains %v, want %v)", c.name, m.phase, retrained, c.retrains)
		}
		if !c.retrains && (m.phase != phaseReady || m.w.trees != 20 || m.w.leaves != baseLeaves || m.w.colSample != 1 || m.par != m.runPar) {
			t.Errorf("%s: phase %d, ensemble of %d trees of %d leaves, col sample %g, running the edited settings %v", c.name, m.phase, m.w.trees, m.w.leaves, m.w.colSample, m.par == m.runPar)
		}
		m.stopRun()
		m.cancel()
	}
}

// listWindow shows the selected entry, says how many entries are above and
// below what shows, and never leaves an entry unreachable or unannounced.
func TestListWindow(t *testing.T) {
	for n := 0; n <= 12; n++ {
		for rows := 1; rows <= 8; rows++ {
			for sel := 0; sel < max(n, 1); sel++ {
				top, count, up, down := listWindow(n, sel, rows)
				lines := count + b2i(up) + b2i(down)
				switch {
				case lines > rows:
					t.Errorf("n %d rows %d sel %d: %d lines", n, rows, sel, lines)
				case n > 0 && (sel < top || sel >= top+count):
					t.Errorf("n %d rows %d sel %d: shows %d from %d", n, rows, sel, count, top)
				case rows >= 3 && (up != (top > 0) || down != (top+count < n)):
					t.Errorf("n %d rows %d sel %d: %d from %d, hints up %v down %v", n, rows, sel, count, top, up, down)
				case n <= rows && (top != 0 || count != n):
					t.Errorf("n %d rows %d: all fit, shows %d from %d", n, rows, count, top)
				case n > rows && rows >= 3 && lines != rows:
					t.Errorf("n %d rows %d sel %d: %d lines of %d used", n, rows, sel, lines, rows)
				}
			}
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// At 60×20 the browser's entries were below the screen's end with nothing
// saying so; the list now ends in "↓ N more".
func TestLoadScreenSaysMore(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	for i := range 30 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.txt", i)), nil, 0o644)
	}
	m := New(context.Background(), mq2008, views.PlainStyles())
	defer m.cancel()
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 60, Height: 20})
	m, _ = update(t, m, key("o"))
	m.loadScr.enter(dir)
	upMore, downMore := regexp.MustCompile(`(?m)^  ↑ \d+ more`), regexp.MustCompile(`(?m)^  ↓ \d+ more`)
	v := m.View()
	if !downMore.MatchString(v) || upMore.MatchString(v) {
		t.Errorf("the list's start on a 20-row screen:\n%s", v)
	}
	m.loadScr.sel = len(m.loadScr.list) - 1
	v = m.View()
	if !upMore.MatchString(v) || downMore.MatchString(v) || !strings.Contains(v, "f29.txt") {
		t.Errorf("the list's end on a 20-row screen:\n%s", v)
	}
	if n := len(strings.Split(v, "\n")); n != 20 {
		t.Errorf("%d lines on a 20-row screen", n)
	}
}

// TestLoadScreenBuiltinsByField: the data fields offer the built-in data,
// the costs field the built-in costs; the valid field offered
// builtin:mq2008/costs, which failed to load as data.
func TestLoadScreenBuiltinsByField(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	m := New(context.Background(), mq2008, views.PlainStyles())
	defer m.cancel()
	m, _ = update(t, m, key("o"))
	for _, f := range []int{fieldTrain, fieldValid, fieldTest, fieldCosts} {
		m.loadScr.field = f
		m.loadScr.refresh()
		var builtins []string
		for _, c := range m.loadScr.list {
			if data.IsBuiltin(c.value) && !c.recent {
				builtins = append(builtins, c.value)
			}
		}
		for _, b := range builtins {
			if strings.HasSuffix(b, "/costs") != (f == fieldCosts) {
				t.Errorf("field %d offers %s (all: %q)", f, b, builtins)
			}
		}
		if want := map[bool]string{true: "builtin:mq2008/costs", false: "builtin:mq2008/vali"}[f == fieldCosts]; !slices.Contains(builtins, want) {
			t.Errorf("field %d does not offer %s: %q", f, want, builtins)
		}
	}
}

// TestLoadScreenRelativeToBrowsed: a relative path typed is of the folder
// browsed, not of the one the workbench started in (review 2026-11-29: a
// file listed on screen was "no such file", and one of the same name in
// the start folder loaded instead).
func TestLoadScreenRelativeToBrowsed(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	start, sub := t.TempDir(), t.TempDir()
	t.Chdir(start)
	touch(t, filepath.Join(sub, "here.txt"), filepath.Join(sub, "both.txt"), filepath.Join(start, "both.txt"))
	m := openLoadScreen(t)
	m = typePath(t, m, sub)
	m, _ = update(t, m, special(tea.KeyEnter)) // a directory opens in the browser
	for _, name := range []string{"here.txt", "both.txt"} {
		field := m.loadScr.field
		m = typePath(t, m, name)
		m, _ = update(t, m, special(tea.KeyEnter))
		if want := filepath.Join(sub, name); m.loadScr.typing || m.loadScr.values[field] != want {
			t.Errorf("%s typed in %s: typing %v, value %q, want %q (%s)", name, sub, m.loadScr.typing, m.loadScr.values[field], want, m.loadScr.err)
		}
	}
}

// TestLoadWithNoteSaysDropped: a load whose own note (here K lowered to
// a model's 4 trees) replaces "loaded …" still says the kept cascades it
// dropped (review 2026-11-29: they went without a word).
func TestLoadWithNoteSaysDropped(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	e, _ := deepModel(t)
	few := *e
	few.Trees = e.Trees[:4]
	model := writeModel(t, &few, "")
	m := ready(t)
	m, _ = update(t, m, key("k"))
	if len(m.kept) != 1 {
		t.Fatalf("k: %d kept", len(m.kept))
	}
	m.stopRun()
	m, _ = update(t, m, key("o"))
	m.loadScr.values = [numFields]string{"builtin:mq2008/train", "builtin:mq2008/vali", "", "", model}
	m, cmd := update(t, m, key("l"))
	m, _ = update(t, m, cmd())
	if !strings.Contains(m.status, "a cascade has no more stages than the model's 4 trees") || !strings.HasSuffix(m.status, "; dropped 1 kept (old data)") {
		t.Errorf("status after the load: %q", m.status)
	}
}

// TestLoadScreenKeysAfterLoad: keys that arrive with the l that loads (as
// one message: key repeat, a busy screen) were typed for the load screen;
// the second l of "ll" stepped λ on the session being replaced.
func TestLoadScreenKeysAfterLoad(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	m := ready(t)
	lambda, gen := m.par.Lambda, m.gen
	m, _ = update(t, m, key("o"))
	m = pick(t, m, "builtin:mq2008/test")
	m, cmd := update(t, m, key("ll"))
	if m.loadScr != nil || cmd == nil || !strings.Contains(m.status, "loading builtin:mq2008/test") {
		t.Fatalf("ll: screen %v, command %v, status %q", m.loadScr != nil, cmd != nil, m.status)
	}
	if m.par.Lambda != lambda || m.gen != gen {
		t.Errorf("the second l reached the session: λ %g (was %g), generation %d (was %d)", m.par.Lambda, lambda, m.gen, gen)
	}
}

// TestLoadScreenRefusalGoesWithIt: esc closes the load screen, and with it
// its refusal of l, which stayed red on the session's status line.
func TestLoadScreenRefusalGoesWithIt(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	_, m := absentMissingSession(t)
	m, _ = update(t, m, key("o"))
	m.loadScr.values[fieldModel] = ""
	m, _ = update(t, m, key("l"))
	if !m.errLine || m.status != pickModelAbsent {
		t.Fatalf("l without a model: status %q", m.status)
	}
	m, _ = update(t, m, tea.KeyMsg{Type: tea.KeyEsc})
	if m.loadScr != nil || m.errLine || m.status != "" {
		t.Errorf("after esc: screen %v, status %q (error %v)", m.loadScr != nil, m.status, m.errLine)
	}
}

// TestLoadScreenOpensOnBadFile: after a failed load, o opens on the field
// of the file that failed (it opened on train's, whichever it was), over a
// session and without one; after a load that worked, on train's.
func TestLoadScreenOpensOnBadFile(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("1 qid:1 1:0.5 2:0.25\n0 qid:1 1:oops 2:0.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	badCosts := filepath.Join(dir, "bad.costs")
	if err := os.WriteFile(badCosts, []byte("1\ncheap\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	badModel := filepath.Join(dir, "m.json")
	if err := os.WriteFile(badModel, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	good := [numFields]string{mq2008.Train, mq2008.Valid, mq2008.Test, mq2008.Costs, ""}
	cases := []struct {
		field int
		file  string
	}{
		{fieldValid, bad},
		{fieldTest, bad},
		{fieldCosts, badCosts},
		{fieldModel, badModel},
		{fieldTrain, bad},
	}
	session := ready(t)
	for _, c := range cases {
		v := good
		v[c.field] = c.file
		// Over a session: the load fails in the background.
		m, _ := update(t, session, key("o"))
		m.loadScr.values = v
		m, cmd := update(t, m, key("l"))
		m, _ = update(t, m, cmd())
		if m.phase != phaseReady || !m.errLine || !strings.Contains(m.status, c.file) {
			t.Fatalf("field %d: phase %d, status %q", c.field, m.phase, m.status)
		}
		m, _ = update(t, m, key("o"))
		if m.loadScr.field != c.field || m.loadScr.values != v {
			t.Errorf("over a session, %s bad: the load screen opens on field %d, want %d", fieldNames[c.field], m.loadScr.field, c.field)
		}
		// Without one: the first load fails.
		cfg := mq2008
		cfg.Train, cfg.Valid, cfg.Test, cfg.Costs, cfg.Model = v[0], v[1], v[2], v[3], v[4]
		m = New(context.Background(), cfg, views.PlainStyles())
		m, _ = update(t, m, m.load())
		m.cancel()
		if m.phase != phaseFailed {
			t.Fatalf("field %d: the first load did not fail", c.field)
		}
		m, _ = update(t, m, key("o"))
		if m.loadScr.field != c.field {
			t.Errorf("first load, %s bad: the load screen opens on field %d, want %d", fieldNames[c.field], m.loadScr.field, c.field)
		}
	}
	// A load that worked: train's.
	m, _ := update(t, session, key("o"))
	if m.loadScr.field != fieldTrain {
		t.Errorf("after a load that worked the load screen opens on field %d", m.loadScr.field)
	}
}

// TestControlCharactersInNames: a file whose name holds a newline, a
// carriage return or an escape is listed by the browser, named in a load's
// error and in the data screen's with those characters escaped ("a\nb.txt"
// as six characters and a backslash): written as they were, the newline
// broke the browser's line in two and scrolled the screen, the carriage
// return overwrote the line's start and the escape coloured what followed.
func TestControlCharactersInNames(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	names := []string{"a\nb.txt", "c\rd.txt", "e\x1b[31mf.txt", "g\xffh.txt"}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("1 qid:1 1:x\n"), 0o644); err != nil {
			t.Skipf("the file system refuses the name %q: %v", n, err)
		}
	}
	t.Chdir(dir)
	check := func(what string, m Model, want ...string) {
		t.Helper()
		v := m.View()
		if n := strings.Count(v, "\n") + 1; n > m.height {
			t.Errorf("%s: %d lines on a screen of %d:\n%s", what, n, m.height, v)
		}
		for _, r := range strings.ReplaceAll(v, "\n", "") {
			if unicode.IsControl(r) || r == utf8.RuneError {
				t.Errorf("%s: the screen holds %q:\n%s", what, r, v)
				break
			}
		}
		for _, w := range want {
			if !strings.Contains(v, w) {
				t.Errorf("%s: the screen lacks %q:\n%s", what, w, v)
			}
		}
	}
	m := New(context.Background(), mq2008, views.PlainStyles())
	defer m.cancel()
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m, _ = update(t, m, key("o"))
	check("browser", m, `a\nb.txt`, `c\rd.txt`, `e\x1b[31mf.txt`, `g\xffh.txt`)

	bad := filepath.Join(dir, names[0])
	f := New(context.Background(), Config{Train: bad, Valid: "builtin:mq2008/vali", Costs: "builtin:mq2008/costs"}, views.PlainStyles())
	defer f.cancel()
	f, _ = update(t, f, tea.WindowSizeMsg{Width: 80, Height: 24})
	f, _ = update(t, f, f.load())
	if f.phase != phaseFailed {
		t.Fatalf("the load of %q did not fail", bad)
	}
	check("load error", f, `a\nb.txt:1:`)
}

// TestRecentLeavesOutUnlistablePaths: the recent list holds a path a line,
// read back trimmed; a path with a line break or a space at an end is left
// out of it. "/d/v\nali.txt" came back as two recent files, "/d/v" and
// "ali.txt", neither of them the file loaded.
func TestRecentLeavesOutUnlistablePaths(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	if err := addRecent([]string{"/d/v\nali.txt", "/d/good.txt", "/d/cr\r.txt", "/d/space.txt "}); err != nil {
		t.Fatal(err)
	}
	if got, want := readRecent(), []string{"/d/good.txt"}; !slices.Equal(got, want) {
		t.Errorf("recent files %q, want %q", got, want)
	}
}

// TestLoadKeepsShapeEdit: a trees, leaves or column sample edit made on a
// session is kept for the data loaded over it (o), whose ensemble trains
// to it, its retrain done or pending; a load of a model file replaces it
// and says so. The shape a model file's session had goes back to the
// workbench's default where not edited. Every shape went back to the
// default on a load over a session, the edits without a word (a helper's
// review of state while work runs).
func TestLoadKeepsShapeEdit(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	m := ready(t)
	small := *m.w.e
	small.Trees = small.Trees[:7]
	model := writeModel(t, &small, "")
	load := func(m Model, modelFile string) Model {
		t.Helper()
		v := [numFields]string{mq2008.Train, mq2008.Valid, mq2008.Test, mq2008.Costs, modelFile}
		m, cmd := m.reload(v)
		msg, ok := cmd().(pendingLoadMsg)
		if !ok || msg.err != nil {
			t.Fatalf("load: %T %v", msg, msg.err)
		}
		m, _ = update(t, m, msg)
		return m
	}

	m = enterParam(t, m, parLeaves, "3")
	m, _ = update(t, m, debounceMsg{edit: m.edits}) // retrains
	m = enterParam(t, m, parTrees, "12")            // its retrain pending
	m = load(m, "")
	if m.phase != phaseTraining || m.par.trees != 12 || m.par.leaves != 3 || m.w.trees != 12 || m.w.leaves != 3 {
		t.Errorf("loaded over trees 12, leaves 3: phase %d, params trees %d leaves %d, training trees %d leaves %d",
			m.phase, m.par.trees, m.par.leaves, m.w.trees, m.w.leaves)
	}
	m = load(m, model)
	if m.par.trees != 7 || !strings.Contains(m.status, "replace the edited trees 12") {
		t.Errorf("a model loaded over trees 12: trees %d, status %q", m.par.trees, m.status)
	}

	cfg := mq2008
	cfg.Model = model
	m = readyOn(t, cfg)
	m = enterParam(t, m, parColSample, "0.5") // its retrain pending
	m = load(m, "")
	if m.par.trees != 20 || m.par.leaves != baseLeaves || m.par.colSample != 0.5 || m.w.trees != 20 || m.w.colSample != 0.5 {
		t.Errorf("loaded over a model's 7 trees, col sample 0.5: params trees %d leaves %d col sample %v, training trees %d col sample %v",
			m.par.trees, m.par.leaves, m.par.colSample, m.w.trees, m.w.colSample)
	}
}
