// Command cronus is a terminal workbench for cost-aware learning to rank: it
// trains tree ensembles on ranking data with per-feature extraction costs and
// turns them into cascades of early-exit stages (Chen et al., 2012).
//
// Without arguments on a terminal it opens the workbench on the built-in data
// set; `cronus help` lists the subcommands.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/job"
	"github.com/cronus-ltr/cronus/views"
)

// command is one subcommand.
type command struct {
	name    string
	args    string // synopsis of the arguments
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

var commands []command

func init() {
	commands = []command{
		{"tui", "[--train F --valid F --test F --costs F] [--objective regression|lambdarank | --model M [--trees k] [--absent zero|missing]]", "open the workbench (the default on a terminal)", runTUI},
		{"inspect", "FILE [--costs F] [--regroup] [--data F [--absent zero|missing]] [--json]", "summarise a data set (queries, documents, labels, cost groups), or a model or cascade (trees, stages, feature importance and cost)", runInspect},
		{"gen", "[--queries Q] [--docs-per-query M] [--features D] [--costs F] [--seed S] [--world W] --out F [--json]", "write a synthetic MSLR-shaped data set", runGen},
		{"train", "--train F [--valid F] [--objective regression|binary|lambdarank] [--trees N] [--leaves L] [--learning-rate η] [--seed S] --out MODEL [--json]", "train a tree ensemble", runTrain},
		{"predict", "(--model M [--trees k] [--leaves F] | --cascade C [--stages k] [--last-prefix n] [--exits F] [--costs F]) [--contribs F] --data F [--out F] [--absent zero|missing] [--json]", "write one score per document (a cascade's: its ranking key), and with a model its leaves and feature contributions", runPredict},
		{"eval", "(--model M | --cascade C [--stages k] [--last-prefix n] | --scores F) --data F [--costs F] [--metrics LIST] [--trees k] [--tree-cost e] [--relevant r] [--err-max-label L] [--exclude-no-relevant] [--absent zero|missing] [--per-query F] [--run F] [--tag T] [--compare F [--compare-rounds N]] [--json]", "ranking quality and cost per document", runEval},
		{"import", "--from lightgbm|xgboost|ranklib IN --out MODEL [--libsvm-indices|--zero-based|--by-name] [--features N] [--json]", "convert a LightGBM, XGBoost or RankLib model", runImport},
		{"export", "(--model M [--trees k] | --cascade C [--stage k | --stages k]) --to xgboost|ranklib|c --out FILE [--libsvm-indices] [--missing-as-zero] [--prefix NAME] [--header F] [--costs F] [--json]", "write a model, or a cascade's stage, as an XGBoost or RankLib model; a model or a whole cascade as C source", runExport},
		{"cascade", "--model M --train F --valid F [--test F] --costs F [--lambda λ --stages K --epsilon ε --sigma σ …] --out CASCADE [--json]", "optimise a cost-aware cascade of the model's trees (Cronus)", runCascade},
		{"sweep", "--model M --train F --valid F [--test F] --costs F [--lambdas FROM:TO:N] --out CURVE.csv [--plot CURVE.svg|png] [--json]", "quality/cost curves of Cronus and the baselines over a λ grid", runSweep},
		{"version", "[--json]", "print the build and the model and cascade file format versions", runVersion},
	}
}

// usageError is a mistake in the command line: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usage(w io.Writer) {
	fmt.Fprint(w, `Cronus: a terminal workbench for cost-aware learning to rank.

Usage:
  cronus                 open the workbench on the built-in data (MQ2008 + costs)
  cronus COMMAND [flags] run one command; "cronus COMMAND --help" for its flags
  cronus help [COMMAND]  this text, or a command's flags
  cronus --version       the version (as "cronus version")

Commands:
`)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, `
Data flags take a path (.txt or .gz, gzip detected by content) or a built-in
name: builtin:mq2008/train, builtin:mq2008/vali, builtin:mq2008/test,
builtin:mq2008/costs, builtin:mslr-web10k/costs (gen's feature costs).

A cascade on the built-in data (README, Quick start):
  B=builtin:mq2008
  cronus train --train $B/train --valid $B/vali --objective regression --trees 500 --leaves 4 --max-depth 2 --col-sample 0.3 --out m.json
  cronus cascade --model m.json --train $B/train --valid $B/vali --test $B/test --costs $B/costs --out c.json
  cronus eval --cascade c.json --data $B/test --run run.txt
`)
}

func main() {
	// The first interrupt, SIGTERM or SIGHUP cancels the command, which
	// then stops cleanly; a second one ends the process at once, for a
	// command that cannot notice the first (one blocked opening a cost file
	// that is a FIFO nobody writes to).
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, stopSignals()...)
	go watchSignals(sigs, cancel, raise)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	signal.Stop(sigs)
	os.Exit(exitStatus(code, context.Cause(ctx)))
}

// stopSignals are the signals that stop a command cleanly: SIGINT, SIGTERM
// and SIGHUP, which a closed terminal sends. A hangup killed the process
// where it was, and left an output's temporary file behind (a 380 MB
// .g.txt.tmpN of gen when the terminal closed). SIGHUP is left alone when
// the process started with it ignored (nohup, or a shell's disown):
// catching it would undo that.
func stopSignals() []os.Signal {
	sigs := []os.Signal{os.Interrupt, syscall.SIGTERM}
	if !signal.Ignored(syscall.SIGHUP) {
		sigs = append(sigs, syscall.SIGHUP)
	}
	return sigs
}

// watchSignals waits for the first signal of sigs (signal.Notify's, with
// room for two), stops catching them, which gives the next its default
// action (for SIGINT and SIGTERM: the process dies of it), and cancels
// the command with the signal as the cause.
//
// A second signal that came before Stop, while this goroutine had yet to
// run (under load, more than the 300 ms between TestSecondInterruptEnds's
// two signals, as it was), was caught and lost: the process then exited
// 130 once its command noticed the first, or hung in one that could not.
// It is in sigs, and raised again (raise: sent to the process), now to
// its default action. Two signals the kernel or the runtime merged into
// one, before the process ran at all, are one.
func watchSignals(sigs chan os.Signal, cancel context.CancelCauseFunc, raise func(os.Signal)) {
	sig := <-sigs
	signal.Stop(sigs)
	select {
	case again := <-sigs:
		raise(again)
	default:
	}
	cancel(signalled{sig})
}

// raise sends sig to the process (where the system can: Windows cannot
// send a process an interrupt).
func raise(sig os.Signal) {
	if p, err := os.FindProcess(os.Getpid()); err == nil {
		p.Signal(sig)
	}
}

// signalled is the cause of a command's cancellation by a signal.
type signalled struct{ sig os.Signal }

func (s signalled) Error() string { return s.sig.String() }

// exitStatus is the status of a command that returned code: an interrupted
// one (130) exits 128 + the signal's number, as a shell reports a process
// the signal ended: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP.
func exitStatus(code int, cause error) int {
	var s signalled
	if code == 130 && errors.As(cause, &s) {
		if n, ok := s.sig.(syscall.Signal); ok {
			return 128 + int(n)
		}
	}
	return code
}

// run executes one command line and returns the exit status. A command
// that succeeded but could not write its report on stdout (a full disk
// behind `> out.txt`, /dev/full) fails: eval's and inspect's figures are
// their result, and were lost with exit status 0.
//
// A write to stdout stops when ctx is done, also one blocked in the kernel
// (a pipe whose reader does not read: data.CancelWriter): an interrupt
// then ended the command only at a second ctrl+c. A command that finished
// its work and was interrupted while printing its report exits 130.
// Standard error stops such a write at ctx's end too, but still takes
// what comes after it, "interrupted" above all (graceWriter).
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if f, ok := stderr.(*os.File); ok {
		stderr = &graceWriter{ctx: ctx, f: f}
	}
	w := &stickyWriter{w: data.CancelWriter(ctx, stdout, 4096)}
	code := runCommand(ctx, args, w, stderr)
	if err := w.error(); code == 0 && err != nil {
		name := "cronus"
		if len(args) > 0 {
			name += " " + args[0]
		}
		if errors.Is(err, context.Canceled) {
			fmt.Fprintf(stderr, "%s: interrupted\n", name)
			return 130
		}
		fmt.Fprintf(stderr, "%s: %s\n", name, errorText(err))
		return 1
	}
	return code
}

// stderrGrace is how long a write to standard error after the interrupt
// waits for the descriptor before it is given up.
const stderrGrace = 500 * time.Millisecond

// graceWriter is run's standard error when it is a file. Each write is
// made by a goroutine and waited for: until ctx is done, for as long as
// it takes; a write still blocked in the kernel when ctx ends (a pipe
// whose reader does not read: `cronus train … 2>&1 | less`, not
// scrolled) is given up with ctx's error, and the command goes on to its
// end, where it waited for the reader or a second ctrl+c. After ctx's end
// a write waits stderrGrace at most, so that "cronus CMD: interrupted"
// still reaches a terminal or a file: unlike data.CancelWriter's, a write
// the descriptor takes does not fail for ctx's end. Once a write has been
// given up, the next ones are dropped (with ctx's error) until its
// goroutine, the only one left in the kernel, returns: a descriptor that
// blocks holds one goroutine, however much is written after. The first
// write after ctx's end waits the grace for that goroutine, once: a write
// given up at ctx's end may only have been slow to start, on a loaded
// machine, and "interrupted" was dropped behind it (TestTermExitStatus
// failed so beside other work). Writes are whole and in order, one at a
// time.
type graceWriter struct {
	ctx    context.Context
	f      *os.File
	mu     sync.Mutex
	stuck  chan struct{} // closed when the write given up returns; nil: none
	waited bool          // a write after ctx's end has waited for stuck
	wait   time.Duration // the grace; 0: stderrGrace (tests lengthen it)
}

func (g *graceWriter) grace() time.Duration {
	if g.wait > 0 {
		return g.wait
	}
	return stderrGrace
}

// File is the standard error's file, which a progress line asks whether
// it is a terminal, and how wide.
func (g *graceWriter) File() *os.File { return g.f }

func (g *graceWriter) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.stuck != nil {
		select {
		case <-g.stuck:
			g.stuck = nil
		default:
			if g.waited {
				return 0, g.ctx.Err()
			}
			// The first write after ctx's end waits for the one given
			// up, the grace at most: given up at ctx's end, it may only
			// have been slow to run (a loaded machine), not blocked, and
			// "interrupted" was dropped behind it.
			g.waited = true
			t := time.NewTimer(g.grace())
			select {
			case <-g.stuck:
				t.Stop()
				g.stuck = nil
			case <-t.C:
				return 0, g.ctx.Err()
			}
		}
	}
	type result struct {
		n   int
		err error
	}
	done := make(chan result, 1)
	returned := make(chan struct{})
	b := slices.Clone(p)
	go func() {
		n, err := g.f.Write(b)
		done <- result{n, err}
		close(returned)
	}()
	// Before ctx's end, its end gives the write up; after, the grace.
	ended := g.ctx.Done()
	var grace <-chan time.Time
	if g.ctx.Err() != nil {
		t := time.NewTimer(g.grace())
		defer t.Stop()
		ended, grace = nil, t.C
	}
	select {
	case r := <-done:
		return r.n, r.err
	case <-ended:
	case <-grace:
	}
	select {
	case r := <-done: // done as the wait ended
		return r.n, r.err
	default:
	}
	g.stuck = returned
	if grace != nil {
		g.waited = true // it had its grace
	}
	return 0, g.ctx.Err()
}

// stickyWriter is a writer that remembers the first error of its writes.
type stickyWriter struct {
	w   io.Writer
	mu  sync.Mutex
	err error
}

func (s *stickyWriter) Write(p []byte) (int, error) {
	n, err := s.w.Write(p)
	if err != nil {
		s.mu.Lock()
		if s.err == nil {
			s.err = err
		}
		s.mu.Unlock()
	}
	return n, err
}

func (s *stickyWriter) error() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// runCommand is run, without the check of stdout's writes.
func runCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		if interactive() {
			args = []string{"tui"}
		} else {
			usage(stdout)
			return 0
		}
	}
	name := args[0]
	switch name {
	case "--version", "-version":
		return runCommand(ctx, append([]string{"version"}, args[1:]...), stdout, stderr)
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && !slices.Contains([]string{"help", "-h", "-help", "--help"}, args[1]) {
			// The help of what the word would run: --version is version,
			// and other flags, as without a command, the workbench's.
			// Passed on as they were, a flag took --help as its value:
			// cronus help --model opened the workbench on a model file
			// "--help".
			topic := args[1]
			if name == "help" && len(args) > 2 && !strings.HasPrefix(topic, "-") {
				// help train predict gave train's help and said nothing of
				// predict, where every command refuses what it does not take.
				fmt.Fprintf(stderr, "cronus help: expected one COMMAND; got %q\nRun 'cronus help' for the commands.\n", args[1:])
				return 2
			}
			switch {
			case topic == "--version" || topic == "-version":
				topic = "version"
			case strings.HasPrefix(topic, "-"):
				topic = "tui"
			}
			return runCommand(ctx, []string{topic, "--help"}, stdout, stderr)
		}
		usage(stdout)
		return 0
	}
	if strings.HasPrefix(name, "-") {
		// Flags without a command are the workbench's, as no command at
		// all is the workbench: go run . --model m.json. They were an
		// unknown command "--model".
		return runCommand(ctx, append([]string{"tui"}, args...), stdout, stderr)
	}
	for _, c := range commands {
		if c.name != name {
			continue
		}
		// --threads sets GOMAXPROCS for the command; put it back after.
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
		err := c.run(ctx, args[1:], stdout, stderr)
		if owed := rangesOwed(name); err == nil && len(owed) > 0 {
			panic(fmt.Sprintf("cronus %s succeeded without checking the range of %s: call checkRanges after parseFlags", name, strings.Join(owed, ", ")))
		}
		var ue usageError
		switch {
		case err == nil:
			return 0
		case errors.Is(err, flag.ErrHelp):
			return 0
		case errors.As(err, &ue):
			fmt.Fprintf(stderr, "cronus %s: %s\nRun 'cronus %s --help' for usage.\n", name, errorText(err), name)
			return 2
		case errors.Is(err, context.Canceled):
			fmt.Fprintf(stderr, "cronus %s: interrupted\n", name)
			return 130
		default:
			fmt.Fprintf(stderr, "cronus %s: %s\n", name, errorText(err))
			return 1
		}
	}
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	fmt.Fprintf(stderr, "cronus: unknown command %q%s\n\n", name, didYouMean("", name, names))
	usage(stderr)
	return 2
}

// helpRequest is the output a flag set is given just before parseFlags
// asks it for its help text: flag.Parse calls Usage on --help and on every
// bad flag, and a bad flag gets a one-line error, not the whole text.
type helpRequest struct{ io.Writer }

// newFlags makes the flag set of a command; --help prints the synopsis and
// every flag on stdout.
func newFlags(name string, stdout io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		if _, asked := fs.Output().(helpRequest); !asked {
			return
		}
		for _, c := range commands {
			if c.name == name {
				fmt.Fprintf(stdout, "Usage: cronus %s %s\n\n%s.\n\nFlags:\n", name, c.args, c.summary)
			}
		}
		// Go's flag package lists each flag as "  -name"; Cronus's
		// synopses, README and errors spell them "--name" (both parse).
		var b strings.Builder
		fs.SetOutput(&b)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
		for _, l := range strings.SplitAfter(b.String(), "\n") {
			if strings.HasPrefix(l, "  -") {
				l = "  --" + l[len("  -"):]
			}
			io.WriteString(stdout, l)
		}
	}
	fs.Var(new(threadsFlag), "threads", "spread the work over `N` threads (GOMAXPROCS; 0: one per core); the results are the same for any number")
	return fs
}

// maxThreads is the most --threads takes.
const maxThreads = 1024

// threadsFlag is --threads, which every command takes; parseFlags sets
// GOMAXPROCS from it. 0 (the default) leaves Go's choice: one per core, or
// the GOMAXPROCS environment variable.
type threadsFlag int

func (t *threadsFlag) String() string { return strconv.Itoa(int(*t)) }

func (t *threadsFlag) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > maxThreads {
		return fmt.Errorf("must be a whole number of threads from 1 to %d, or 0 for one per core", maxThreads)
	}
	*t = threadsFlag(n)
	return nil
}

// setThreads applies the --threads of a parsed flag set.
func setThreads(fs *flag.FlagSet) {
	if f := fs.Lookup("threads"); f != nil {
		if n := int(*f.Value.(*threadsFlag)); n > 0 {
			runtime.GOMAXPROCS(n)
		}
	}
}

// parseFlags parses flags that may stand before, between or after the
// positional arguments, which it returns, and applies --threads. rs are
// the ranges of the command's numeric flags (as checkRanges takes them),
// for the refusal of a value too large for the flag's type, which names
// the flag's range, not the type's.
func parseFlags(fs *flag.FlagSet, args []string, rs ...flagRange) (pos []string, err error) {
	unwrap := decimalFlags(fs)
	defer unwrap() // the help names a flag's type by its Value's (-cycles int, not value)
	if err := onceEach(fs, args); err != nil {
		return nil, err
	}
	defer func() {
		if err == nil {
			setThreads(fs)
			owe(fs, rs)
		}
	}()
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				unwrap()
				fs.SetOutput(helpRequest{io.Discard})
				fs.Usage()
				fs.SetOutput(io.Discard)
				return nil, err
			}
			return nil, usageError{flagValueMessage(fs, err, rs)}
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, emptyFileFlag(fs)
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), emptyFileFlag(fs)
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// emptyFileFlag refuses a file flag given an empty name: --out "" was
// taken as no --out at all, so predict --out "$OUT", OUT unset, printed
// every score on the terminal, and --valid "" trained without validation.
// The workbench's data flags are the exception: there an empty value is
// none (no validation, test or cost file), as the load screen's "(none)",
// since without --train they default to the built-in set's.
func emptyFileFlag(fs *flag.FlagSet) error {
	if fs.Name() == "tui" {
		return nil
	}
	var err error
	fs.Visit(func(f *flag.Flag) {
		if name, _ := flag.UnquoteUsage(f); err == nil && name == "FILE" && f.Value.String() == "" {
			err = usageError{fmt.Sprintf("--%s: the file name is empty", f.Name)}
		}
	})
	return err
}

// decimalFlags makes fs's numeric flags refuse Go's own number syntax
// beyond decimal notation (data.DecimalSyntax), which the flag package
// takes: --lambda 0_05 was λ 5, --trees 1_0 ten trees and --lambda
// 0x1p-4 0.0625. The returned func puts the flags' own Values back, for
// the help, which names a flag's type by its Value's (-cycles int) and
// knows no wrapper (-cycles value).
func decimalFlags(fs *flag.FlagSet) (unwrap func()) {
	orig := map[*flag.Flag]flag.Value{}
	fs.VisitAll(func(f *flag.Flag) {
		g, ok := f.Value.(flag.Getter)
		if !ok {
			return
		}
		switch g.Get().(type) {
		case int, int64, uint, uint64, float64:
			orig[f] = f.Value
			f.Value = decimalValue{g}
		}
	})
	return func() {
		for f, v := range orig {
			f.Value = v
		}
	}
}

// decimalValue is a numeric flag that takes decimal notation only.
type decimalValue struct{ flag.Getter }

// String is the wrapped flag's; "" for the zero value, which the flag
// package's help makes to tell a default from the zero one (and which
// panicked there: every numeric flag's default went unshown).
func (v decimalValue) String() string {
	if v.Getter == nil {
		return ""
	}
	return v.Getter.String()
}

func (v decimalValue) Set(s string) error {
	if !data.DecimalSyntax(s) {
		return errors.New("must be written in decimal, without '_' or a 0x, 0b or 0o prefix")
	}
	// The flag package reads integers in base 0, where a leading 0 is
	// octal (--trees 010 was 8 trees, and 08 no integer): an integer
	// given in decimal goes to it in its plain form.
	switch v.Get().(type) {
	case int, int64:
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			s = strconv.FormatInt(n, 10)
		}
	case uint, uint64:
		if n, err := strconv.ParseUint(s, 10, 64); err == nil {
			s = strconv.FormatUint(n, 10)
		}
	case float64:
		// -0 (or "-1e-400", which rounds to it) is 0: it passed every
		// range check as -0 and was written so, "lambda": -0 in a
		// cascade file and "λ -0 × λ_max" in inspect.
		if f, err := strconv.ParseFloat(s, 64); err == nil && f == 0 {
			s = "0"
		}
	}
	return v.Getter.Set(s)
}

// choiceFlag is a flag that takes one of a few words; Set refuses any
// other with the list, which flagValueMessage completes with the flag and
// the value (`--rule: must be global or top-m, got "best"`).
type choiceFlag struct {
	p       *string
	choices []string
}

// choiceVar defines a flag that takes one of choices, stored in p and
// set to value (which may be "": no word given).
func choiceVar(fs *flag.FlagSet, p *string, name, value, usage string, choices ...string) {
	*p = value
	fs.Var(choiceFlag{p, choices}, name, usage)
}

func (c choiceFlag) String() string {
	if c.p == nil {
		return ""
	}
	return *c.p
}

func (c choiceFlag) Set(s string) error {
	if !slices.Contains(c.choices, s) {
		return errors.New("must be " + orList(c.choices))
	}
	*c.p = s
	return nil
}

// orList joins words as "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// flagError words a refusal of flag name's value as the other flag
// errors: "--name: " and err, which names the value.
func flagError(name string, err error) error {
	return usageError{"--" + name + ": " + err.Error()}
}

// durationSyntax is a quoted duration as time.ParseDuration writes them,
// each number with its unit: one it refuses is then too long.
var durationSyntax = regexp.MustCompile(`^"[-+]?([0-9]*\.?[0-9]+(ns|us|µs|μs|ms|s|m|h))+"$`)

// badFlagValue matches the flag package's refusal of a value: the reason is
// "parse error" or "value out of range" from its own integer, number and
// boolean flags, or the error of a Set of this package's (threadsFlag,
// treesFlag, absentFlag, choiceFlag), which says what the flag takes
// ("must be …").
var badFlagValue = regexp.MustCompile(`(?s)^invalid (?:boolean )?value ("(?:[^"\\]|\\.)*") for (?:flag )?-([^:]+): (.*)$`)

// flagValueMessage words the flag package's refusal of a value as the
// command line's other flag errors: the flag, what it takes, the value
// (`--seed: must be a non-negative integer, got "-1"`, where the flag
// package says only "parse error"); other errors keep their text. A
// number too large for the flag's type is refused with the flag's range
// in rs, when it has one (`--trees: must be an integer from 1 to
// 9223372036854775807`, `--learning-rate: must be in (0, 1]`), as
// checkRanges refuses a value that fits the type.
func flagValueMessage(fs *flag.FlagSet, err error, rs []flagRange) string {
	if msg, ok := unknownFlagMessage(fs, err); ok {
		return msg
	}
	m := badFlagValue.FindStringSubmatch(err.Error())
	if m == nil {
		return err.Error()
	}
	f := fs.Lookup(m[2])
	if f == nil {
		return err.Error()
	}
	if m[3] != "parse error" && m[3] != "value out of range" {
		return fmt.Sprintf("--%s: %s, got %s", f.Name, m[3], m[1])
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return err.Error()
	}
	outOfRange := m[3] == "value out of range"
	var want string
	switch g.Get().(type) {
	case bool:
		want = "true or false"
	case int:
		want = "an integer"
		if outOfRange {
			want = fmt.Sprintf("an integer from %d to %d", math.MinInt, math.MaxInt)
		}
	case int64:
		want = "an integer"
		if outOfRange {
			want = fmt.Sprintf("an integer from %d to %d", int64(math.MinInt64), int64(math.MaxInt64))
		}
	case uint, uint64:
		want = "a non-negative integer"
		if strings.HasPrefix(m[1], `"+`) {
			want += ", without a sign" // strconv.ParseUint's "+1" is a parse error, and "+1" is not negative
		}
		if outOfRange {
			want = fmt.Sprintf("a non-negative integer up to %d", uint64(math.MaxUint64))
		}
	case float64:
		want = "a number"
		if outOfRange {
			want = fmt.Sprintf("a number of magnitude at most %v", math.MaxFloat64)
		}
	case time.Duration:
		// The flag package says "parse error" of "30" too: the unit is
		// what is missing.
		want = "a duration with its unit, such as 30s, 1m or 1h30m"
		if durationSyntax.MatchString(m[1]) {
			// "99999999999h" has its unit: it is too long for a Duration.
			want = "a duration of magnitude at most " + time.Duration(math.MaxInt64).String()
		}
	default:
		return err.Error()
	}
	if outOfRange {
		if w, ok := overflowWant(f.Name, g.Get(), m[1], rs); ok {
			want = w
		}
	}
	return fmt.Sprintf("--%s: must be %s, got %s", f.Name, want, m[1])
}

// overflowWant says what numeric flag name takes, after "must be", when
// its value, quoted (the flag package's %q of it), is too large in
// magnitude for the flag's type (x, its zero value): the flag's range in
// rs, which a value that large (taken as ±Inf, or the int's extreme) is
// outside of; for an int flag with no upper bound, the range of ints from
// the range's lower bound. ok is false when the flag has no range in rs,
// or (a float flag taking ±Inf) the value is inside it.
func overflowWant(name string, x any, quoted string, rs []flagRange) (want string, ok bool) {
	i := slices.IndexFunc(rs, func(r flagRange) bool { return r.name == name })
	if i < 0 {
		return "", false
	}
	r := rs[i]
	negative := strings.HasPrefix(quoted, `"-`)
	switch x.(type) {
	case int:
		v := float64(math.MaxInt)
		if negative {
			v = float64(math.MinInt)
		}
		if !r.ok(v) {
			return r.want(), true
		}
		lo := r.lo
		if r.brackets[0] == '(' {
			lo = math.Floor(lo) + 1
		}
		if lo < math.MinInt {
			return "", false
		}
		return fmt.Sprintf("an integer from %s to %d", rangeNumber(lo), math.MaxInt), true
	case float64:
		v := math.Inf(1)
		if negative {
			v = math.Inf(-1)
		}
		if !r.ok(v) {
			return r.want(), true
		}
	}
	return "", false
}

// flagRange is the range of a numeric flag's values that the engine
// accepts for the parameter the flag sets. The command line checks it
// before the engine does, so that the error names the flag typed
// (`--stages: must be at least 1, got 0`), not the engine's parameter
// ("K must be at least 1"); the engine's own check stays, for library
// users and the workbench.
type flagRange struct {
	name     string
	lo, hi   float64 // the bounds; ±Inf for none
	brackets string  // "[]", "(]", "[)" or "()": whether lo and hi are refused
}

// atLeast is the range [lo, +Inf].
func atLeast(name string, lo float64) flagRange { return flagRange{name, lo, math.Inf(1), "[]"} }

// finiteAtLeast is the range [lo, +Inf): for a value a command records in
// a JSON file (a model's or a cascade's params), which cannot hold +Inf.
func finiteAtLeast(name string, lo float64) flagRange { return flagRange{name, lo, math.Inf(1), "[)"} }

// between is the range from lo to hi, brackets saying which bounds are in
// it, as in interval notation ("(]": lo < v <= hi).
func between(name string, lo, hi float64, brackets string) flagRange {
	return flagRange{name, lo, hi, brackets}
}

// finite is the range of finite numbers greater than lo (-Inf: any).
func finite(name string, lo float64) flagRange { return flagRange{name, lo, math.Inf(1), "()"} }

// ok reports whether v is in the range; NaN never is.
func (r flagRange) ok(v float64) bool {
	return (v > r.lo || r.brackets[0] == '[' && v == r.lo) && (v < r.hi || r.brackets[1] == ']' && v == r.hi)
}

// rangeNumber writes a bound of a range: whole numbers below 10⁷ in
// full (--compare-rounds' 1000000, which %g wrote 1e+06), others as %g.
func rangeNumber(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e7 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// want says what the range takes, after "must be".
func (r flagRange) want() string {
	if !math.IsInf(r.hi, 1) {
		return fmt.Sprintf("in %c%s, %s%c", r.brackets[0], rangeNumber(r.lo), rangeNumber(r.hi), r.brackets[1])
	}
	var s string
	switch {
	case math.IsInf(r.lo, -1):
		return "a finite number"
	case r.brackets[0] == '(':
		s = fmt.Sprintf("greater than %g", r.lo)
	default:
		s = fmt.Sprintf("at least %g", r.lo)
	}
	if r.brackets[1] == ')' {
		s = "a finite number " + s
	}
	return s
}

// checkRanges refuses the first flag of rs given on the command line with
// a value out of its range; fs must be parsed. A flag left out is not
// checked: its default is in range, and a command may have set it from a
// file (cascade --warm).
func checkRanges(fs *flag.FlagSet, rs ...flagRange) error {
	given := explicitFlags(fs)
	for _, r := range rs {
		f := fs.Lookup(r.name)
		if f == nil {
			panic("checkRanges: no flag --" + r.name)
		}
		rangeChecked(fs, r.name)
		if !given[r.name] {
			continue
		}
		var v float64
		switch x := f.Value.(flag.Getter).Get().(type) {
		case int:
			v = float64(x)
		case float64:
			v = x
		default:
			panic(fmt.Sprintf("checkRanges: --%s is a %T flag", r.name, x))
		}
		if !r.ok(v) {
			return usageError{fmt.Sprintf("--%s: must be %s, got %s", r.name, r.want(), f.Value)}
		}
	}
	return nil
}

// rangeLedger holds, under test, the flags each parse was given ranges for
// (parseFlags' rs) and found on the command line, until checkRanges (or
// the command's own check, rangeChecked) has checked them. The parser
// takes the ranges for its messages alone, and each command checks them
// after its own refusals (a missing --out first); predict and export once
// forgot to, and ran --stages -1 as all the stages. runCommand panics,
// under test, when a command succeeded owing a check.
var rangeLedger struct {
	sync.Mutex
	owed map[*flag.FlagSet]map[string]bool
}

// owe records the flags of rs given on fs's command line as not yet
// checked; only under test.
func owe(fs *flag.FlagSet, rs []flagRange) {
	if !testing.Testing() || len(rs) == 0 {
		return
	}
	given := explicitFlags(fs)
	rangeLedger.Lock()
	defer rangeLedger.Unlock()
	for _, r := range rs {
		if !given[r.name] {
			continue
		}
		if rangeLedger.owed == nil {
			rangeLedger.owed = map[*flag.FlagSet]map[string]bool{}
		}
		if rangeLedger.owed[fs] == nil {
			rangeLedger.owed[fs] = map[string]bool{}
		}
		rangeLedger.owed[fs][r.name] = true
	}
}

// rangeChecked records that the command has checked --name's range, by
// checkRanges or by a check of its own (export's --stage, with its own
// message).
func rangeChecked(fs *flag.FlagSet, name string) {
	if !testing.Testing() {
		return
	}
	rangeLedger.Lock()
	defer rangeLedger.Unlock()
	delete(rangeLedger.owed[fs], name)
}

// rangesOwed takes off the ledger the flag sets of command name and
// returns the flags among them whose ranges were never checked, sorted.
func rangesOwed(name string) []string {
	if !testing.Testing() {
		return nil
	}
	rangeLedger.Lock()
	defer rangeLedger.Unlock()
	var owed []string
	for fs, names := range rangeLedger.owed {
		if fs.Name() != name {
			continue
		}
		for n := range names {
			owed = append(owed, "--"+n)
		}
		delete(rangeLedger.owed, fs)
	}
	slices.Sort(owed)
	return owed
}

// onceEach refuses a flag given twice: Go's flag package would keep the
// last value and LightGBM's command line the first, so a repeated flag is
// a mistake whichever a user expects. Unknown flags (and --help) are left
// to Parse to report; a "--" ends the flags; the value of a flag that
// takes one is skipped, even when it starts with "-".
func onceEach(fs *flag.FlagSet, args []string) error {
	seen := map[string]bool{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return nil
		}
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		name, hasValue := strings.TrimLeft(a, "-"), false
		if j := strings.IndexByte(name, '='); j >= 0 {
			name, hasValue = name[:j], true
		}
		f := fs.Lookup(name)
		if f == nil {
			continue // Parse names it
		}
		if seen[f.Name] {
			return usageError{fmt.Sprintf("flag --%s given twice", f.Name)}
		}
		seen[f.Name] = true
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !hasValue && !(ok && b.IsBoolFlag()) {
			i++ // its value, which may start with "-"
		}
	}
	return nil
}

// interactive reports whether both stdin and stdout are terminals: the
// condition for opening the workbench without arguments.
var interactive = func() bool { return isTerminal(os.Stdin) && isTerminal(os.Stdout) }

// parseNoArgs parses the flags of a command that takes no positional
// argument, refusing any; rs as for parseFlags.
func parseNoArgs(fs *flag.FlagSet, args []string, rs ...flagRange) error {
	pos, err := parseFlags(fs, args, rs...)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q", pos[0])}
	}
	return nil
}

// isTerminal reports whether f is a terminal: a character device is not
// enough (/dev/null is one, and `cronus > /dev/null` ran the workbench
// unseen, taking the keys until q).
func isTerminal(f *os.File) bool {
	return term.IsTerminal(f.Fd())
}

// errorText is err's message for standard error, a file name's control
// characters and bytes that are not UTF-8 written as Go escapes
// (views.Printable), so that a name holding a newline cannot split the
// message. A job's panic keeps its lines: its stack, one frame a line.
func errorText(err error) string {
	var pe *job.PanicError
	if errors.As(err, &pe) {
		return err.Error()
	}
	return views.Printable(err.Error())
}
