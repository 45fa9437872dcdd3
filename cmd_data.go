package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/views"
	"github.com/mattn/go-runewidth"
)

// progress prints a one-line progress report to stderr when it is a
// terminal, at most ten times a second; with a log (--progress-every),
// a line of its own at most once every log.every, terminal or not.
type progress struct {
	w        io.Writer
	on       bool
	last     time.Time
	start    time.Time
	shown    bool
	prefix   string           // put before every line (e.g. where a sweep is)
	prefixAt func() string    // when set, the prefix at each line instead (one that tells the time)
	width    func() int       // the terminal's columns now, 0 if unknown
	log      *progressLog     // set: the lines are log lines (logTo, --progress-every)
	now      func() time.Time // the clock; nil: time.Now (tests set their own)
}

// progressLog is --progress-every: the progress line printed as a line of
// its own, at most once every every. Run under nohup, a batch scheduler or
// 2>log, cascade and sweep were silent for 20 minutes and more at
// MSLR-WEB10K's size, the line being drawn on a terminal only. A command's
// progress reports (the reading's, the optimisation's) share one, so that
// their lines too come at least every apart.
type progressLog struct {
	every time.Duration
	last  time.Time // when the last line was printed; zero: none yet
}

// minProgressEvery is the least --progress-every takes: a log line more
// often than a second is the terminal's line again, flooding a log.
const minProgressEvery = time.Second

// addProgressEvery defines the --progress-every flag of a long command.
func addProgressEvery(fs *flag.FlagSet) *time.Duration {
	return fs.Duration("progress-every", 0, "print the progress line as a line of its own on standard error at most once every `D` (a duration: 30s, 1m; at least 1s), terminal or not, for a log (nohup, a batch job, 2>log); 0 = off: the line is drawn on a terminal only")
}

// checkProgressEvery refuses a --progress-every below minProgressEvery, but
// 0 (off), and returns the log it sets (nil when off).
func checkProgressEvery(every time.Duration) (*progressLog, error) {
	if every != 0 && every < minProgressEvery {
		return nil, usageError{fmt.Sprintf("--progress-every: must be 0 (off) or at least %s, got %s", minProgressEvery, every)}
	}
	if every == 0 {
		return nil, nil
	}
	return &progressLog{every: every}, nil
}

// logTo makes p print its lines as log lines through l, terminal or not;
// a nil l (no --progress-every) leaves p as it is.
func (p *progress) logTo(l *progressLog) *progress {
	if l != nil {
		p.log, p.on = l, true
	}
	return p
}

func newProgress(stderr io.Writer) *progress {
	f, ok := stderr.(*os.File)
	if g, wrapped := stderr.(interface{ File() *os.File }); wrapped {
		f, ok = g.File(), true // run's standard error (graceWriter)
	}
	p := &progress{w: stderr, on: ok && isTerminal(f), start: time.Now()}
	if p.on {
		p.width = func() int {
			w, _, err := term.GetSize(f.Fd())
			if err != nil {
				return 0
			}
			return w
		}
	}
	return p
}

func (p *progress) clock() time.Time {
	if p.now != nil {
		return p.now()
	}
	return time.Now()
}

func (p *progress) show(format string, a ...any) {
	if !p.on {
		return
	}
	now := p.clock()
	if p.log != nil {
		if !p.log.last.IsZero() && now.Sub(p.log.last) < p.log.every {
			return
		}
		// Whole, neither cut to the terminal's width nor rewritten: a
		// log (or a script or tmux capture of the terminal) keeps it.
		p.log.last = now
		fmt.Fprintln(p.w, p.line(format, a...))
		return
	}
	if now.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last = now
	p.shown = true
	line := p.line(format, a...)
	if p.width != nil {
		// A line wider than the terminal wraps, and \r\033[K clears only
		// its last row: a sweep's cycle lines (about 130 columns) piled
		// up on an 80-column terminal. The last column stays free, where
		// some terminals wrap at once.
		if w := p.width(); w > 1 && runewidth.StringWidth(line) > w-1 {
			line = runewidth.Truncate(line, w-1, "…")
		}
	}
	fmt.Fprint(p.w, "\r\033[K"+line)
}

// line is the progress line, after its prefix.
func (p *progress) line(format string, a ...any) string {
	prefix := p.prefix
	if p.prefixAt != nil {
		prefix = p.prefixAt()
	}
	// A file name holding a newline or an escape would break the line
	// (or reach the terminal): written as Go escapes, as errors do.
	return views.Printable(prefix + fmt.Sprintf(format, a...))
}

// showNow is show whatever the rate limit, for a line that must be seen
// because the next may be long in coming.
func (p *progress) showNow(format string, a ...any) {
	p.showIf(true, format, a...)
}

// showIf is showNow when now holds, else show: the line of a phase's last
// part, which comes without a progress report of its own. Log lines keep
// their interval even so: a phase change every few seconds (a sweep's
// cycles on small data) would flood the log.
func (p *progress) showIf(now bool, format string, a ...any) {
	if now {
		p.last = time.Time{}
	}
	p.show(format, a...)
}

// println prints s as a line of its own (a log line) above the progress
// line, which is drawn again at the next show.
func (p *progress) println(s string) {
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.last = time.Time{}
	}
	fmt.Fprintln(p.w, s)
}

// done clears the progress line, once (a deferred done after it writes
// nothing); the next show draws at once. Log lines (never shown) need no
// clearing.
func (p *progress) done() {
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
	p.last = time.Time{}
}

// readOptions returns reader options that report progress.
func (p *progress) readOptions(name string) data.ReadOptions {
	return data.ReadOptions{Progress: func(pass int, done, total int64) {
		if total > 0 {
			p.show("reading %s: pass %d/2 %3.0f%% (%.1fs)", name, pass, 100*float64(done)/float64(total), time.Since(p.start).Seconds())
		}
	}}
}

// loadCosts reads the cost file name for features features ("": every
// feature costs 1) and warns of the features it leaves at 1 or does not
// use. It stops when ctx is done: a FIFO nobody writes to blocks its open.
func loadCosts(ctx context.Context, name string, features int, stderr io.Writer) (*data.Costs, error) {
	return loadCostsFor(ctx, name, features, "the data", stderr)
}

// loadCostsFor is loadCosts for the features of whose ("the model"), which
// the warning of costs not used names.
func loadCostsFor(ctx context.Context, name string, features int, whose string, stderr io.Writer) (*data.Costs, error) {
	if name == "" {
		return data.UniformCosts(features), nil
	}
	c, err := untilDone(ctx, func() (*data.Costs, error) { return data.LoadCosts(name, features) })
	if err != nil {
		return nil, err
	}
	warn(stderr, c.Warning())
	warn(stderr, c.UnusedWarningFor(whose))
	return c, nil
}

func runInspect(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("inspect", stdout)
	costsFlag := fs.String("costs", "", "feature cost `FILE` (path or builtin:mq2008/costs); without it every feature costs 1 (a cascade's: its own costs)")
	jsonOut := fs.Bool("json", false, "print JSON")
	regroup := fs.Bool("regroup", false, "accept a query whose lines are not contiguous and regroup its documents")
	dataF := fs.String("data", "", "with a model: data `FILE` on which to rank the features also by their mean |contribution| to the scores (TreeSHAP, as predict --contribs), and the cost groups by their share of it")
	absent := newAbsentFlag(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		got := "none"
		if len(pos) > 1 {
			// Flags after "--" are arguments too (inspect m.json -- --json).
			got = fmt.Sprintf("%d, %q", len(pos), pos)
		}
		return usageError{"expected one FILE: data (a path or a built-in name such as builtin:mq2008/train), a model or a cascade; got " + got}
	}
	if pos[0] == "" {
		// inspect "$F", F unset, said ": no such file", naming nothing.
		return usageError{"the file name is empty; expected one FILE: data (a path or a built-in name such as builtin:mq2008/train), a model or a cascade"}
	}
	// A pipe is read here, once: its first byte says model or data.
	piped, err := readIfPipe(ctx, pos[0])
	if err != nil {
		return err
	}
	if looksLikeJSON(pos[0]) || piped != nil && startsJSON(bytes.NewReader(piped)) {
		if *regroup {
			return usageError{"--regroup is for data files; " + pos[0] + " is read as a model or cascade"}
		}
		if explicitFlags(fs)["absent"] && *dataF == "" {
			return usageError{"--absent applies to --data: it says how the data's left-out features read"}
		}
		return inspectModel(ctx, pos[0], piped, *costsFlag, *dataF, bool(*absent), *jsonOut, stdout, stderr)
	}
	for _, name := range []string{"data", "absent"} {
		if explicitFlags(fs)[name] {
			return usageError{"--" + name + " applies to a model: " + pos[0] + " is read as data"}
		}
	}
	p := newProgress(stderr)
	opt := p.readOptions(pos[0])
	opt.Regroup = *regroup
	var d *data.Dataset
	if piped != nil {
		d, err = data.ReadBytes(ctx, pos[0], piped, opt)
	} else {
		d, err = data.LoadDataset(ctx, pos[0], opt)
	}
	p.done()
	if err != nil {
		return err
	}
	d.Name = pos[0]
	warn(stderr, d.StrayWarning())
	costs, err := loadCosts(ctx, *costsFlag, d.NumFeatures(), stderr)
	if err != nil {
		return err
	}
	s := data.Summarize(d, costs)
	if *jsonOut {
		return writeJSON(stdout, s)
	}
	fmt.Fprint(stdout, FormatSummary(s, *costsFlag))
	return nil
}

// maxLabelsShown is how many distinct labels FormatSummary lists, at most.
const maxLabelsShown = 12

// FormatSummary renders a data set summary as text.
func FormatSummary(s data.Summary, costName string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", views.Printable(s.Name))
	fmt.Fprintf(&b, "  queries      %d (%d without a relevant document)", s.Queries, s.ZeroQueries)
	if s.QueryFile != "" {
		fmt.Fprintf(&b, ", sizes from %s", views.Printable(s.QueryFile))
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "  documents    %d\n", s.Docs)
	fmt.Fprintf(&b, "  features     %d\n", s.Features)
	fmt.Fprintf(&b, "  docs/query   min %d, median %s, max %d\n", s.DocsPerQuery.Min, plainFloat(s.DocsPerQuery.Median), s.DocsPerQuery.Max)
	keys := make([]string, 0, len(s.Labels))
	for k := range s.Labels {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, _ := strconv.ParseFloat(keys[i], 64)
		c, _ := strconv.ParseFloat(keys[j], 64)
		return a < c
	})
	fmt.Fprintf(&b, "  labels      ")
	label := func(k string) {
		fmt.Fprintf(&b, " %s: %d (%.1f%%)", k, s.Labels[k], 100*float64(s.Labels[k])/float64(max(s.Docs, 1)))
	}
	if len(keys) <= maxLabelsShown {
		for _, k := range keys {
			label(k)
		}
	} else {
		// Continuous labels (a regression target) would make one line of
		// every document: the lowest and highest, and how many between.
		for _, k := range keys[:maxLabelsShown/2] {
			label(k)
		}
		fmt.Fprintf(&b, " … %d more …", len(keys)-maxLabelsShown/2*2)
		for _, k := range keys[len(keys)-maxLabelsShown/2:] {
			label(k)
		}
		fmt.Fprintf(&b, " (%d distinct labels; --json lists them all)", len(keys))
	}
	b.WriteString("\n")
	if costName == "" {
		costName = "none: every feature costs 1"
	}
	fmt.Fprintf(&b, "  costs        %s; total %g\n", views.Printable(costName), s.TotalCost)
	for _, g := range s.CostGroups {
		fmt.Fprintf(&b, "    cost %-8g %s\n", g.Cost, count(g.Features, "feature"))
	}
	return b.String()
}

// genRanges are the ranges of gen's numeric flags, as
// data.SynthOptions.Validate checks them (but for --features 0, which it
// takes as the default).
var genRanges = []flagRange{
	atLeast("queries", 1),
	between("docs-per-query", 1, data.MaxSynthDocsPerQuery, "[]"),
	between("features", 1, data.MaxSynthFeatures, "[]"),
}

func runGen(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("gen", stdout)
	var o data.SynthOptions
	fs.IntVar(&o.Queries, "queries", 1000, "number of queries `Q`")
	fs.IntVar(&o.DocsPerQuery, "docs-per-query", 100, "documents per query `M`: each query has between ⌊M/2⌋ (at least 1) and M+⌊M/2⌋, uniformly (mean M, M−½ when M is odd and above 1)")
	fs.IntVar(&o.Features, "features", 136, "number of features `D`")
	costsFlag := fs.String("costs", "", "feature cost `FILE` (default: the MSLR-WEB10K cost labels, builtin:mslr-web10k/costs, cycled when D != 136)")
	fs.Uint64Var(&o.Seed, "seed", 1, "random `seed` of the documents; the same seed and flags give the same bytes")
	fs.Uint64Var(&o.World, "world", 1, "`seed` of the features' recipes (which are informative, how, at what cost); keep it for train, validation and test sets and vary --seed; 0 is taken as 1")
	out := fs.String("out", "", "output `FILE` (required); .gz compresses")
	jsonOut := fs.Bool("json", false, "print a JSON report")
	if err := parseNoArgs(fs, args, genRanges...); err != nil {
		return err
	}
	if *out == "" {
		return usageError{"--out FILE is required"}
	}
	// --features 0 would be the library's default, 136, reported as 0.
	if err := checkRanges(fs, genRanges...); err != nil {
		return err
	}
	if err := checkOutputs(&stdout, stderr, *jsonOut, []string{*costsFlag}, *out); err != nil {
		return err
	}
	if *costsFlag != "" {
		c, err := loadCosts(ctx, *costsFlag, o.Features, stderr)
		if err != nil {
			return err
		}
		o.Costs = c.Cost
	}
	if err := o.Validate(); err != nil {
		return usageError{err.Error()}
	}
	p := newProgress(stderr)
	approx := float64(o.Queries) * float64(o.DocsPerQuery) // as ints it overflowed: "of about -8446744073709551616"
	o.Progress = func(docs int) {
		p.show("writing %s: %d of about %.0f documents (%.0f%%)", filepath.Base(*out), docs, approx, 100*float64(docs)/approx)
	}
	start := time.Now()
	docs, err := data.WriteSyntheticFile(ctx, *out, o)
	p.done()
	if err != nil {
		return err
	}
	// The size of what was written, but not through a descriptor ("-",
	// /dev/stdout): its file is a pipe, or a log that held more before;
	// nor to a device or FIFO (/dev/null), whose size is 0.
	size, sizeNote := any(nil), ""
	if _, fd := data.Descriptor(*out); !fd {
		st, err := os.Stat(*out)
		if err != nil {
			return err
		}
		if st.Mode().IsRegular() {
			size, sizeNote = st.Size(), fmt.Sprintf(", %.1f MB", float64(st.Size())/1e6)
		}
	}
	if *jsonOut {
		return writeJSON(stdout, map[string]any{
			"out": *out, "queries": o.Queries, "docs": docs, "features": o.Features,
			"seed": o.Seed, "world": o.WorldSeed(), "bytes": size, "seconds": time.Since(start).Seconds(),
		})
	}
	fmt.Fprintf(stdout, "wrote %s: %s, %s, %s%s in %.1fs\n", views.Printable(*out),
		count(o.Queries, "query"), count(docs, "document"), count(o.Features, "feature"), sizeNote, time.Since(start).Seconds())
	return nil
}

// count is "1 feature", "2 features", "2 queries": n and noun, plural
// unless n is 1.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if stem, ok := strings.CutSuffix(noun, "y"); ok {
		return fmt.Sprintf("%d %sies", n, stem)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// plainFloat is a median of counts (a whole number, or one and a half)
// in plain decimals: %g wrote a median of 3,000,001 leaves as 3.000001e+06.
func plainFloat(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
