package tui

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/cronus"
	tea "github.com/cronus-ltr/cronus/internal/tea"
	"github.com/cronus-ltr/cronus/views"
)

// The fields of the load screen, in the order tab visits them.
const (
	fieldTrain = iota
	fieldValid
	fieldTest
	fieldCosts
	fieldModel
	numFields
)

var fieldNames = [numFields]string{"train", "valid", "test", "costs", "model"}

// recentTag starts the list line of a recently used file.
const recentTag = "recent  "

// maxRecent is how many recently used files are kept.
const maxRecent = 20

// choice is one line of the load screen's list.
type choice struct {
	label, value string
	dir          bool // enter enters it
	typed        bool // enter opens the path input
	recent       bool // label is recentTag and value, a path shortened at a "/" when too long
}

// loadScreen picks the files of a new load; it is a state of the root model.
type loadScreen struct {
	values [numFields]string
	field  int
	sel    int
	dir    string   // the directory browsed
	recent []string // most recent first
	list   []choice // of the selected field

	typing  bool   // a path is typed into the selected field
	input   string // the path typed so far
	err     string // why the last typed path was refused
	errPath string // the path err is about, if any (shown apart: see pathMessage)
}

// openLoadScreen shows the load screen with the files of the current load,
// or of the last load if it failed.
func (m *Model) openLoadScreen() {
	ls := &loadScreen{values: [numFields]string{m.cfg.Train, m.cfg.Valid, m.cfg.Test, m.cfg.Costs, m.cfg.Model}, recent: readRecent()}
	if m.notLoaded != nil {
		ls.values = *m.notLoaded
	}
	ls.field = m.badField // after a failed load, the bad file's
	if wd, err := os.Getwd(); err == nil {
		ls.dir = wd
	} else {
		ls.dir = "."
	}
	ls.refresh()
	ls.selectValue()
	m.loadScr = ls
}

// selectValue selects the list line of the field's value, if listed.
func (ls *loadScreen) selectValue() {
	if i := slices.IndexFunc(ls.list, func(c choice) bool { return !c.dir && !c.typed && c.value == ls.values[ls.field] }); i >= 0 {
		ls.sel = i
	}
}

// refresh rebuilds the list: none (optional fields), the built-in names
// (the data's for the data fields, the costs' for the costs field), the recent files, the line that
// opens the path input, then the directory browsed (directories first).
func (ls *loadScreen) refresh() {
	var l []choice
	if ls.field != fieldTrain {
		l = append(l, choice{label: "(none)", value: ""})
	}
	if ls.field != fieldModel {
		// The costs field offers the built-in costs, the data fields the
		// built-in data (a cost file picked as validation data failed
		// to load).
		for _, n := range data.BuiltinNames() {
			if strings.HasSuffix(n, "/costs") == (ls.field == fieldCosts) {
				l = append(l, choice{label: n, value: n})
			}
		}
	}
	for _, r := range ls.recent {
		l = append(l, choice{label: recentTag + r, value: r, recent: true})
	}
	l = append(l, choice{label: "type a path… (/)", typed: true})
	l = append(l, choice{label: "../", value: filepath.Dir(ls.dir), dir: true})
	entries, _ := os.ReadDir(ls.dir) // unreadable: only the way up
	var files []choice
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, ".") {
			continue
		}
		p := filepath.Join(ls.dir, n)
		label := views.Printable(n) // a newline in a name broke the list
		isDir := e.IsDir()
		if e.Type()&os.ModeSymlink != 0 {
			if fi, err := os.Stat(p); err == nil {
				isDir = fi.IsDir()
			}
		}
		switch {
		case isDir:
			l = append(l, choice{label: label + "/", value: p, dir: true})
		case dataFile(n):
			files = append(files, choice{label: label, value: p})
		}
	}
	ls.list = append(l, files...)
	ls.sel = min(ls.sel, len(ls.list)-1)
}

// dataFile reports whether the browser lists a file of this name.
func dataFile(n string) bool {
	l := strings.ToLower(n)
	return strings.HasSuffix(l, ".txt") || strings.HasSuffix(l, ".gz") || strings.HasSuffix(l, ".json") || strings.Contains(l, "cost")
}

func (ls *loadScreen) enter(dir string) {
	ls.dir, ls.sel = dir, 0
	ls.refresh()
}

// choose sets the selected field to value and moves on to the next field.
func (ls *loadScreen) choose(value string) {
	ls.values[ls.field] = value
	if ls.field < numFields-1 {
		ls.field, ls.sel = ls.field+1, 0
		ls.refresh()
		ls.selectValue()
	}
}

// typeKey handles a key while a path is typed: enter or tab accepts it,
// esc cancels, backspace and ctrl+u erase.
func (ls *loadScreen) typeKey(k tea.KeyMsg) {
	switch k.Type {
	case tea.KeyEsc:
		ls.typing, ls.err, ls.errPath = false, "", ""
	case tea.KeyBackspace:
		if r := []rune(ls.input); len(r) > 0 {
			ls.input = string(r[:len(r)-1])
		}
	case tea.KeyCtrlU:
		ls.input = ""
	case tea.KeyEnter, tea.KeyTab:
		ls.accept()
	case tea.KeySpace:
		ls.input += " "
	case tea.KeyRunes:
		ls.input += string(k.Runes)
	}
}

// accept takes the typed path if it names a built-in set or an existing
// file (~ is the home directory; a relative path is of the directory
// browsed); a directory is opened in the browser.
// Anything else stays in the input with a message saying why.
func (ls *loadScreen) accept() {
	typed := strings.TrimSpace(ls.input)
	ls.errPath = ""
	if typed == "" {
		ls.err = "type a path, or esc to go back to the list"
		return
	}
	if data.IsBuiltin(typed) {
		ls.typing, ls.err = false, ""
		ls.choose(typed)
		return
	}
	p, err := expandHome(typed)
	if err != nil {
		ls.errPath, ls.err = typed, err.Error()
		return
	}
	// A relative path is of the folder on screen (it was of the one the
	// workbench started in: a file listed below was "no such file", and
	// one of the same name there loaded instead).
	if !filepath.IsAbs(p) {
		p = filepath.Join(ls.dir, p)
	}
	fi, err := os.Stat(p)
	var pe *fs.PathError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		ls.errPath, ls.err = p, "no such file or directory"
		return
	case errors.As(err, &pe):
		ls.errPath, ls.err = pe.Path, pe.Err.Error()
		return
	case err != nil:
		ls.err = err.Error()
		return
	}
	ls.typing, ls.err = false, ""
	if fi.IsDir() {
		ls.enter(p)
		return
	}
	ls.choose(p)
}

// expandHome replaces a leading ~ (alone or before a slash) with the home
// directory. Its error does not name p.
func expandHome(p string) (string, error) {
	if p != "~" && !strings.HasPrefix(p, "~/") {
		return p, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no home directory for ~ (%v)", err)
	}
	return filepath.Join(home, p[1:]), nil
}

// The load screen's refusals of l.
const (
	pickTrainFirst  = "pick a train file first"
	pickModelAbsent = "pick a model: --absent missing reads data for a model that learned where missing values go"
)

// loadKey handles a key while the load screen is shown (q and ctrl+c
// have quit already).
func (m Model) loadKey(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	ls := *m.loadScr
	m.loadScr = &ls
	if ls.typing {
		ls.typeKey(k)
		return m, nil
	}
	switch k.String() {
	case "esc":
		m.loadScr = nil
		if m.status == pickTrainFirst || m.status == pickModelAbsent {
			m.setStatus("", false) // refusals of the screen closed
		}
	case "up", "k":
		ls.sel = (ls.sel + len(ls.list) - 1) % len(ls.list)
	case "down", "j":
		ls.sel = (ls.sel + 1) % len(ls.list)
	case "tab":
		ls.field, ls.sel = (ls.field+1)%numFields, 0
		ls.refresh()
		ls.selectValue()
	case "shift+tab":
		ls.field, ls.sel = (ls.field+numFields-1)%numFields, 0
		ls.refresh()
		ls.selectValue()
	case "backspace":
		ls.enter(filepath.Dir(ls.dir))
	case "/":
		ls.typing, ls.input, ls.err, ls.errPath = true, "", "", ""
	case "enter":
		switch c := ls.list[ls.sel]; {
		case c.typed:
			ls.typing, ls.input, ls.err, ls.errPath = true, "", "", ""
		case c.dir:
			ls.enter(c.value)
		default:
			ls.choose(c.value)
		}
	case "l", "ctrl+l":
		if ls.values[fieldTrain] == "" {
			m.setStatus(pickTrainFirst, true)
			return m, nil
		}
		if m.cfg.AbsentMissing && ls.values[fieldModel] == "" {
			// As `cronus tui` refuses --absent missing without --model:
			// the workbench's trees would bin missing values with the
			// largest.
			m.setStatus(pickModelAbsent, true)
			return m, nil
		}
		if m.quitting {
			m.sayQuitRefused(quitRefuses("o"))
			return m, nil
		}
		m.loadScr = nil
		return m.reload(ls.values)
	}
	return m, nil
}

// reloadedMsg is a load started from the load screen, of generation gen.
type reloadedMsg struct {
	gen int
	loadedMsg
}

// pendingLoadMsg is a load started from the load screen while a session
// goes on: of load generation gen, of the files v.
type pendingLoadMsg struct {
	gen int
	v   [numFields]string
	loadedMsg
}

// reload loads the files v. With a working session they load in the
// background and the session goes on until they have: a bad file leaves it
// as it was (it was thrown away before the file was read). Without one (the
// first load failed) the whole flow starts again at once.
func (m Model) reload(v [numFields]string) (Model, tea.Cmd) {
	if m.w == nil {
		return m.restartFlow(v)
	}
	m.loadGen++
	if m.loadCancel != nil {
		m.loadCancel() // the load it replaces
	}
	ctx, cancel := context.WithCancel(m.base)
	m.loadCancel = cancel
	gen, cfg := m.loadGen, m.cfg
	if !sameFile(cfg.Model, v[4]) {
		cfg.ModelTrees = 0 // --trees was the first model's: another is taken whole
	}
	cfg.ModelRead = nil // a reload reads the file again: it may have changed
	cfg.Train, cfg.Valid, cfg.Test, cfg.Costs, cfg.Model = v[0], v[1], v[2], v[3], v[4]
	m.setPathStatus("loading "+cfg.Train+" … (this session goes on until it has loaded)", cfg.Train)
	return m, func() tea.Msg {
		return pendingLoadMsg{gen: gen, v: v, loadedMsg: loadRecorded(ctx, cfg, v, nil)}
	}
}

// loadRecorded loads the files of cfg and, when they load, records them
// (v) as recently used.
func loadRecorded(ctx context.Context, cfg Config, v [numFields]string, prog *loadProgress) loadedMsg {
	msg := loadFiles(ctx, cfg, prog).(loadedMsg)
	if msg.err == nil {
		addRecent(v[:]) // best effort: a failure only loses the list
	}
	return msg
}

// loaded takes a background load: its error leaves the session as it is;
// its data replace the session, and its kept cascades, of the old data,
// go (the status says how many).
func (m Model) loaded(msg pendingLoadMsg) (tea.Model, tea.Cmd) {
	if msg.gen != m.loadGen {
		return m, nil
	}
	if msg.err != nil {
		m.setStatus("not loaded (this session goes on; o reopens its files): "+msg.err.Error(), true)
		v := msg.v
		m.notLoaded, m.badField = &v, msg.bad
		return m, nil
	}
	m.notLoaded, m.badField = nil, fieldTrain
	// What the new data end: the λ sweep (running, or its points) and
	// the kept cascades, all of the old data.
	var gone []string
	if s := m.dropSweep("old data"); s != "" {
		gone = append(gone, s)
	}
	if s := m.stopRho(); s != "" {
		gone = append(gone, s)
	}
	if kept := len(m.kept); kept > 0 {
		gone = append(gone, fmt.Sprintf("dropped %d kept (old data)", kept))
	}
	dropped := strings.Join(gone, "; ")
	m = m.resetFlow(msg.v)
	loaded := "loaded " + m.cfg.Train
	if dropped != "" {
		loaded += "; " + dropped
	}
	m.setPathStatus(loaded, m.cfg.Train)
	mm, cmd := m.Update(msg.loadedMsg)
	// The load's own word (a warning, a K note) replaces "loaded …": what
	// the load ended is said after it, not lost with it.
	if m2, ok := mm.(Model); ok && dropped != "" && !strings.Contains(m2.status, dropped) {
		m2.setStatus(m2.status+"; "+dropped, m2.errLine)
		mm = m2
	}
	return mm, cmd
}

// restartFlow cancels all running work and starts the whole flow again on
// the files v, as a new generation.
func (m Model) restartFlow(v [numFields]string) (Model, tea.Cmd) {
	wasLoading := m.phase == phaseLoading
	m = m.resetFlow(v)
	m.loadProg = &loadProgress{} // the old load's, if any, goes on reporting to its own
	gen, ctx, cfg, prog := m.gen, m.ctx, m.cfg, m.loadProg
	cmd := func() tea.Msg { return reloadedMsg{gen: gen, loadedMsg: loadRecorded(ctx, cfg, v, prog)} }
	if wasLoading || m.ticking {
		return m, cmd // its tick runs already (loading, or the problem being built)
	}
	m.ticking = true
	return m, tea.Batch(cmd, tick())
}

// sameFile reports whether the paths a and b name the same file: the load
// screen gives the browser's and the recent list's files by absolute
// paths, where --model gave one relative to the working directory, and
// the same model picked again lost its --trees.
func sameFile(a, b string) bool {
	if a == b {
		return true
	}
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}

// resetFlow cancels all running work and sets the workbench up for the
// files v, loading, as a new generation.
func (m Model) resetFlow(v [numFields]string) Model {
	if m.w != nil && m.w.files.Model != "" {
		// The shape was a model file's: where not edited since, the new
		// data's ensemble has the workbench's default one. An edit the
		// user made (a trees, leaves or column sample edit on the old
		// session, its retrain pending or done) is kept for the new
		// data, as one made with no session (the first load failed)
		// waits for the next load; a model file that loads replaces it,
		// saying so (shapeReplaced). Every shape went back to the
		// default, an edit on the old session silently.
		def := m.par.withDefaultShape(m.cfg)
		if m.par.trees == m.w.trees {
			m.par.trees = def.trees
		}
		if m.par.leaves == m.w.leaves {
			m.par.leaves = def.leaves
		}
		if m.par.colSample == m.w.colSample {
			m.par.colSample = def.colSample
		}
		if m.par.objective == m.w.objective {
			m.par.objective = def.objective
		}
	}
	m.stopRun()
	m.dropSweep("old data")
	m.stopRho()
	m.flowCancel()
	m.ctx, m.flowCancel = context.WithCancel(m.base)
	m.gen++
	if !sameFile(m.cfg.Model, v[4]) {
		m.cfg.ModelTrees = 0 // --trees was the first model's: another is taken whole
	}
	m.cfg.ModelRead = nil // a reload reads the file again: it may have changed
	m.cfg.Train, m.cfg.Valid, m.cfg.Test, m.cfg.Costs, m.cfg.Model = v[0], v[1], v[2], v[3], v[4]
	m.phase = phaseLoading
	// The runs' infos too: they held the old data and problem until the
	// new data's first run had finished.
	m.w, m.best, m.bestOwn, m.finished, m.snap = nil, nil, nil, nil, cronus.Snapshot{}
	m.bestCuts = nil
	m.snapRun, m.bestRun = runInfo{}, runInfo{}
	m.kept, m.keptSave, m.compare, m.trainEvents = nil, nil, false, nil
	m.runPar = m.par
	m.screen = views.DataScreen{Loading: m.cfg.Train, Costs: m.cfg.Costs}
	m.setPathStatus("loading "+m.cfg.Train+" …", m.cfg.Train)
	return m
}

// recentPath is $XDG_CONFIG_HOME/cronus/recent, or ~/.config/cronus/recent.
func recentPath() (string, error) {
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "cronus", "recent"), nil
}

// readRecent lists the recently used files, most recent first; a missing
// or unreadable list is empty.
func readRecent() []string {
	p, err := recentPath()
	if err != nil {
		return nil
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !slices.Contains(out, l) && len(out) < maxRecent {
			out = append(out, l)
		}
	}
	return out
}

// addRecent puts the files (not the built-in names) at the front of the
// recent list, written atomically.
func addRecent(files []string) error {
	p, err := recentPath()
	if err != nil {
		return err
	}
	var list []string
	for _, f := range files {
		// The list is a file of lines, read back trimmed (readRecent): a
		// path with a line break in it came back as two recent files that
		// do not exist ("/d/v" and "ali.txt" for "/d/v\nali.txt"), one with
		// a space at an end as another path. Such a path is left out.
		if f == "" || data.IsBuiltin(f) {
			continue
		}
		if abs, err := filepath.Abs(f); err == nil {
			f = abs
		}
		if !slices.Contains(list, f) && !strings.ContainsAny(f, "\r\n") && strings.TrimSpace(f) == f {
			list = append(list, f)
		}
	}
	if len(list) == 0 {
		return nil
	}
	for _, r := range readRecent() {
		if !slices.Contains(list, r) {
			list = append(list, r)
		}
	}
	list = list[:min(len(list), maxRecent)]
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return data.WriteAtomic(p, func(w *bufio.Writer) error {
		for _, r := range list {
			if _, err := w.WriteString(r + "\n"); err != nil {
				return err
			}
		}
		return nil
	})
}

// The load screen's key hints, longest first: it shows the first that fits
// on the title line.
var (
	loadHints = []string{
		"  tab field · ↑↓ move · enter pick · / type a path · backspace up · l load · esc back",
		"  tab field · ↑↓ · enter pick · / path · backspace up · l load · esc",
		"  tab · ↑↓ · enter · / path · l load",
		"  / path · l load",
	}
	typingHints = []string{
		"  type a path (~ is home) · enter or tab accepts · esc cancels · ctrl+u clears",
		"  type a path · enter accepts · esc cancels · ctrl+u clears",
		"  enter accepts · esc cancels",
		"  enter · esc",
	}
)

// loadView draws the load screen in w × h cells.
func (m Model) loadView(w, h int) string {
	ls := m.loadScr
	st := m.styles
	hints := loadHints
	if ls.typing {
		hints = typingHints
	}
	lines := []string{st.Title.Render("load") + st.Dim.Render(views.FirstFitting(w-lipgloss.Width("load"), hints...))}
	// A field's value is "  name   " (9 cells) on: a path too long for the
	// rest of the line shows its end, where the typing cursor and the
	// file name are (what is typed to the cell, a file picked from a "/").
	valueW := w - 9
	for i, n := range fieldNames {
		v := views.ShortenPath(ls.values[i], valueW)
		switch {
		case ls.typing && i == ls.field:
			v = views.KeepTail(ls.input+"▏", valueW)
		case v == "":
			v = st.Dim.Render("(none)")
		}
		it := "  " + padRight(n, 6) + " " + v
		if i == ls.field {
			it = st.Title.Render("▸ "+padRight(n, 6)) + " " + v
		}
		lines = append(lines, it)
	}
	if ls.err != "" {
		msg := views.WrapWords(ls.err, w)
		if ls.errPath != "" {
			msg = pathMessage(ls.errPath, ls.err, w)
		}
		if len(lines)+1+len(msg) <= h {
			lines = append(lines, "") // else no room to spare
		}
		for _, l := range msg {
			lines = append(lines, st.Error.Render(l))
		}
	} else {
		lines = append(lines, "")
	}
	pick := "pick the " + fieldNames[ls.field] + " file · in "
	lines = append(lines, st.Dim.Render(pick+views.ShortenPath(ls.dir, w-lipgloss.Width(pick))))
	top, count, up, down := listWindow(len(ls.list), ls.sel, max(h-len(lines), 1))
	if up {
		lines = append(lines, st.Dim.Render(fmt.Sprintf("  ↑ %d more", top)))
	}
	for i := top; i < top+count; i++ {
		c := ls.list[i]
		it := keepEnds(c.label, w-2)
		if c.recent {
			it = recentTag + views.ShortenPath(c.value, w-2-len(recentTag))
		}
		if i == ls.sel {
			it = st.Title.Render("> " + it)
		} else {
			it = "  " + it
		}
		lines = append(lines, it)
	}
	if down {
		lines = append(lines, st.Dim.Render(fmt.Sprintf("  ↓ %d more", len(ls.list)-top-count)))
	}
	return strings.Join(lines, "\n")
}

// listWindow is the part of a list of n entries that rows lines show with
// entry sel among them: count entries from top, and whether a line above
// them (up) and one below (down) say how many more there are. The list
// hid its entries past the screen's end without a word: at 60×20 the
// browser showed only "type a path…", and the directory's files were
// below. With fewer than 3 rows there is no room for the hints.
func listWindow(n, sel, rows int) (top, count int, up, down bool) {
	switch {
	case n <= rows:
		return 0, n, false, false
	case rows < 3:
		top = max(sel-rows+1, 0)
		return top, min(rows, n-top), false, false
	case sel < rows-1: // the start, and "↓ more"
		return 0, rows - 1, false, true
	case sel >= n-(rows-1): // "↑ more", and the end
		return n - (rows - 1), rows - 1, true, false
	}
	return sel - (rows - 2) + 1, rows - 2, true, true
}

func padRight(s string, n int) string { return s + strings.Repeat(" ", max(n-len(s), 0)) }

// keepEnds is s when it fits in w cells, else its start, "…" and its end:
// a third of the room for the start, the rest for the end, where a file's
// extension is (a recent file's path is shortened at a "/" instead).
func keepEnds(s string, w int) string {
	if lipgloss.Width(s) <= w || w < 2 {
		return s
	}
	r := []rune(s)
	head, cells := 0, 0
	for head < len(r) {
		c := lipgloss.Width(string(r[head]))
		if cells+c > (w-1)/3 {
			break
		}
		cells += c
		head++
	}
	return string(r[:head]) + views.KeepTail(string(r[head:]), w-cells)
}

// pathMessage is the message "path: why" in lines of w cells. The path is
// never broken across lines, where it can be neither read nor copied (word
// wrapping cut a path wider than the screen into pieces, and broke one
// with a space at the space): the message is one line when it fits; else
// the path and ":" have a line of their own, the path whole when it fits,
// else shortened from the left (views.ShortenPath), and why wraps below.
func pathMessage(path, why string, w int) []string {
	path, why = views.Printable(path), views.Printable(why)
	if msg := path + ": " + why; lipgloss.Width(msg) <= w {
		return []string{msg}
	}
	return append([]string{views.ShortenPath(path, w-1) + ":"}, views.WrapWords(why, w)...)
}
