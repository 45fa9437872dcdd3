package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cronus-ltr/cronus/engine/job"
	"github.com/cronus-ltr/cronus/views"
)

// TestProgressLogEvery: with --progress-every 30s, shows at 0, 10, 29, 31
// and 65 s print the lines of 0, 31 and 65 s, each whole and a line of its
// own, with no escape codes, however wide (the terminal's width does not
// cut a log line); showNow keeps the interval (a phase change every few
// seconds would flood the log), and done and println write no escape
// codes either.
func TestProgressLogEvery(t *testing.T) {
	var b bytes.Buffer
	t0 := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	var at time.Duration
	p := (&progress{w: &b, width: func() int { return 10 }, now: func() time.Time { return t0.Add(at) }}).logTo(&progressLog{every: 30 * time.Second})
	for _, s := range []int{0, 10, 29, 31, 65} {
		at = time.Duration(s) * time.Second
		p.show("cycle at %ds of a long line", s)
	}
	want := "cycle at 0s of a long line\ncycle at 31s of a long line\ncycle at 65s of a long line\n"
	if b.String() != want {
		t.Errorf("wrote %q, want %q", b.String(), want)
	}
	b.Reset()
	at = 80 * time.Second
	p.showNow("phase change at 80s")
	p.showIf(true, "phase change at 80s")
	p.println("a log line")
	p.done()
	at = 95 * time.Second
	p.showNow("phase change at 95s")
	if want := "a log line\nphase change at 95s\n"; b.String() != want {
		t.Errorf("showNow 15 s after a line, println, done, showNow 30 s after it wrote %q, want %q", b.String(), want)
	}
	// A second report sharing the log (the reading's, then the
	// optimisation's) keeps the interval across them.
	b.Reset()
	q := (&progress{w: &b, now: p.now}).logTo(p.log)
	at = 100 * time.Second
	q.show("reading")
	if b.Len() > 0 {
		t.Errorf("a second report 5 s after the last line wrote %q", b.String())
	}
	// No log: the terminal's line, unchanged.
	if r := (&progress{w: &b}).logTo(nil); r.on || r.log != nil {
		t.Errorf("logTo(nil) turned the report on (%v) or set a log", r.on)
	}
}

// TestCascadeProgressEvery: cascade --progress-every 1s prints its
// progress lines with standard error no terminal, as plain lines (no \r,
// no escape codes); without the flag it prints none there, as before. So
// does train's.
func TestCascadeProgressEvery(t *testing.T) {
	dir := t.TempDir()
	short := filepath.Join(dir, "short.txt")
	writeText(t, short, threeFeatureQueries(40, 4, false))
	model, costs := threeFeatureModel(t, dir, short)
	progressLine := regexp.MustCompile(`(?m)^(reading \S+: pass [12]/2 +\d+% \(\d+\.\ds\)|building the tree outputs \(160 documents × 10 trees\))$`)
	args := []string{"cascade", "--model", model, "--train", short, "--valid", short, "--costs", costs, "--stages", "2",
		"--lambda", "0.01", "--cycles", "1", "--out", filepath.Join(dir, "c.json")}
	code, _, errOut := runCLI(t, append(args, "--progress-every", "1s")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !progressLine.MatchString(errOut) || strings.ContainsAny(errOut, "\r\033") {
		t.Errorf("--progress-every 1s: stderr %q, want the first progress line as a plain line", errOut)
	}
	code, _, errOut = runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if progressLine.MatchString(errOut) || strings.ContainsAny(errOut, "\r\033") {
		t.Errorf("without --progress-every: stderr %q, want no progress line", errOut)
	}
	code, _, errOut = runCLI(t, "train", "--train", short, "--trees", "3", "--min-docs", "1", "--progress-every", "1m", "--out", filepath.Join(dir, "m2.json"))
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errOut)
	}
	if !regexp.MustCompile(`(?m)^reading \S+: pass 1/2 +\d+% \(\d+\.\ds\)$`).MatchString(errOut) || strings.ContainsAny(errOut, "\r\033") {
		t.Errorf("train --progress-every 1m: stderr %q, want the reading's first line as a plain line", errOut)
	}
}

// TestProgressEveryRefused: a negative, too short or malformed
// --progress-every is a usage error naming the flag, exit 2, in each
// command that takes it.
func TestProgressEveryRefused(t *testing.T) {
	cascade := []string{"--model", "m", "--train", "t", "--valid", "v", "--costs", "c", "--out", "o.json"}
	cmds := map[string][]string{
		"cascade": append([]string{"cascade"}, cascade...),
		"sweep":   append([]string{"sweep"}, cascade...),
		"train":   {"train", "--train", "t", "--out", "o.json"},
	}
	for name, args := range cmds {
		for _, c := range []struct{ v, want string }{
			{"-30s", "--progress-every: must be 0 (off) or at least 1s, got -30s"},
			{"500ms", "--progress-every: must be 0 (off) or at least 1s, got 500ms"},
			{"30", `--progress-every: must be a duration with its unit, such as 30s, 1m or 1h30m, got "30"`},
			{"soon", `--progress-every: must be a duration with its unit, such as 30s, 1m or 1h30m, got "soon"`},
		} {
			code, _, errOut := runCLI(t, append(args, "--progress-every", c.v)...)
			if code != 2 || !strings.Contains(errOut, c.want) {
				t.Errorf("%s --progress-every %s: exit %d, stderr %q; want exit 2 and %q", name, c.v, code, errOut, c.want)
			}
		}
	}
}

// TestProgressLineNamesOddPaths: the progress line names a file whose name
// holds a newline or an escape as errors do (views.Printable): printed
// raw, "reading a\nb.txt: pass 1/2" broke the line that \r\033[K redraws
// and sent the escape to the terminal.
func TestProgressLineNamesOddPaths(t *testing.T) {
	for _, name := range []string{"a\nb.txt", "esc\x1b[31m.txt"} {
		var b bytes.Buffer
		p := (&progress{w: &b}).logTo(&progressLog{every: time.Second})
		p.show("reading %s: pass %d/2", name, 1)
		if want := "reading " + views.Printable(name) + ": pass 1/2\n"; b.String() != want {
			t.Errorf("%q: wrote %q, want %q", name, b.String(), want)
		}
		b.Reset()
		p = &progress{w: &b, on: true}
		p.show("reading %s: pass %d/2", name, 2)
		if want := "\r\033[Kreading " + views.Printable(name) + ": pass 2/2"; b.String() != want {
			t.Errorf("%q on a terminal: wrote %q, want %q", name, b.String(), want)
		}
	}
}

// TestFollowEventsRedrawsBetweenEvents: between two events of a job the
// progress line is drawn again at each tick, with the time since the last
// event added (a stage step of the cyclic optimisation is one event, and
// took 6.5 s on 200,000 documents × 1,000 trees with the line standing
// still and a --progress-every 1s log silent); the last event (Final) ends
// it undrawn, and a tick before any event draws nothing.
func TestFollowEventsRedrawsBetweenEvents(t *testing.T) {
	type ev = job.Event[string, int]
	events, tick := make(chan ev), make(chan time.Time)
	t0 := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	clock := t0
	var drawn []string
	drew := make(chan struct{}) // each draw, after it has read the clock
	done := make(chan struct{})
	go func() {
		defer close(done)
		followEvents(events, tick, func() time.Time { return clock }, func(e ev, since time.Duration) {
			drawn = append(drawn, fmt.Sprintf("%s+%s", e.Snapshot, since))
			drew <- struct{}{}
		})
	}()
	tick <- clock // no event yet: nothing to draw (the next send waits for it)
	events <- ev{Snapshot: "stage 1"}
	<-drew
	clock = clock.Add(time.Second)
	tick <- clock
	<-drew
	clock = clock.Add(1500 * time.Millisecond)
	tick <- clock
	<-drew
	events <- ev{Snapshot: "stage 2"}
	<-drew
	clock = clock.Add(time.Second)
	tick <- clock
	<-drew
	events <- ev{Final: true, Snapshot: "stage 2"}
	<-done
	want := []string{"stage 1+0s", "stage 1+1s", "stage 1+2.5s", "stage 2+0s", "stage 2+1s"}
	if !slices.Equal(drawn, want) {
		t.Errorf("drawn %q, want %q", drawn, want)
	}
	// A stage step's line then shows the time grown: stepProgress of the
	// progress the redraw passes.
	pr := job.Progress{Phase: "optimising", Elapsed: 40 * time.Second, ETA: 80 * time.Second}
	if got, want := stepProgress("optimising", 2, 5, 2, 10, pr), "optimising cycle 2 of at most 5, stage 3 of 10 (40s, at most about 1m20s left)"; got != want {
		t.Errorf("stepProgress = %q, want %q", got, want)
	}
}
