package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cronus-ltr/cronus/engine/boost"
)

// train --log-every N prints a line every N trees and at the last, on
// standard error, whatever it is: the training and validation metric at
// that tree. The validation figure at tree t is the one eval gives for the
// model's first t trees.
func TestTrainLogEvery(t *testing.T) {
	model := filepath.Join(t.TempDir(), "m.json")
	const valid = "builtin:mq2008/vali"
	code, _, errOut := runCLI(t, "train", "--train", "builtin:mq2008/train", "--valid", valid, "--trees", "25",
		"--log-every", "10", "--out", model)
	if code != 0 {
		t.Fatalf("train: exit %d %q", code, errOut)
	}
	line := regexp.MustCompile(`^\[(\d+)/25\] train ndcg@10 (\d\.\d{4})  valid ndcg@10 (\d\.\d{4})  \(best (\d\.\d{4}) at (\d+)\)$`)
	lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
	var trees []string
	for _, l := range lines {
		m := line.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("log line %q does not read as [t/25] train ndcg@10 x  valid ndcg@10 y  (best z at b)", l)
		}
		trees = append(trees, m[1])
		_, out, _ := runCLI(t, "eval", "--model", model, "--trees", m[1], "--data", valid, "--metrics", "ndcg@10", "--json")
		var r struct{ Metrics map[string]float64 }
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%.4f", r.Metrics["ndcg@10"]); got != m[3] {
			t.Errorf("tree %s: logged valid %s, eval --trees %s gives %s", m[1], m[3], m[1], got)
		}
	}
	if strings.Join(trees, ",") != "10,20,25" {
		t.Errorf("logged at trees %v, want 10, 20 and 25", trees)
	}
	// Off by default; a negative value is refused.
	if _, _, errOut := runCLI(t, "train", "--train", "builtin:mq2008/train", "--trees", "3", "--out", model); errOut != "" {
		t.Errorf("without --log-every: %q", errOut)
	}
	if code, _, errOut := runCLI(t, "train", "--train", "builtin:mq2008/train", "--log-every", "-1", "--out", model); code != 2 || !strings.Contains(errOut, "--log-every: must be at least 0") {
		t.Errorf("--log-every -1: exit %d %q", code, errOut)
	}
}

// TestLogTreesEarlyStopLast: --log-every logs the last tree of a run that
// early stopping ends, also when a snapshot of that tree arrived before the
// stop was known (it was then counted as logged, and 9 of 20 runs lost
// their last line).
func TestLogTreesEarlyStopLast(t *testing.T) {
	var b bytes.Buffer
	pr := newProgress(&b)
	s := boost.Snapshot{Trees: 9, Total: 60, Metric: "ndcg@10"}
	logged := logTrees(pr, boost.Snapshot{Trees: 5, Total: 60, Metric: "ndcg@10"}, 0, 5)
	if logged != 5 || b.String() != "[5/60]\n" {
		t.Fatalf("tree 5: logged up to %d, output %q", logged, b.String())
	}
	logged = logTrees(pr, s, logged, 5) // tree 9, before the stop is known
	if logged != 8 || b.String() != "[5/60]\n" {
		t.Fatalf("tree 9 before the stop: logged up to %d, output %q", logged, b.String())
	}
	s.StoppedAt = 9
	if logged = logTrees(pr, s, logged, 5); logged != 9 || b.String() != "[5/60]\n[9/60]\n" {
		t.Errorf("after the stop: logged up to %d, output %q; want [9/60] last", logged, b.String())
	}
	// A tree that is a multiple of every is logged once, at once.
	b.Reset()
	s = boost.Snapshot{Trees: 10, Total: 60}
	if logged = logTrees(pr, s, 9, 5); logged != 10 || b.String() != "[10/60]\n" {
		t.Errorf("tree 10: logged up to %d, output %q", logged, b.String())
	}
}

// TestProgressDoneOnce: done clears a shown line once, so that cascade and
// sweep can defer it (their errors and interrupts left the line, with the
// error printed on its end) and still call it where a phase ends.
func TestProgressDoneOnce(t *testing.T) {
	var b bytes.Buffer
	p := &progress{w: &b, on: true}
	p.done() // nothing shown: nothing written
	p.show("building %d", 1)
	p.done()
	p.done()
	if want := "\r\033[Kbuilding 1\r\033[K"; b.String() != want {
		t.Errorf("show, done, done wrote %q, want %q", b.String(), want)
	}
	p.show("again")
	p.done()
	if want := "\r\033[Kbuilding 1\r\033[K\r\033[Kagain\r\033[K"; b.String() != want {
		t.Errorf("a second show and done wrote %q, want %q", b.String(), want)
	}
}

// TestProgressFitsTerminal: a line wider than the terminal is cut to one
// column less than its width, ending in "…", so that \r\033[K clears it
// whole; a line that fits, or an unknown width, is written as it is.
func TestProgressFitsTerminal(t *testing.T) {
	var b bytes.Buffer
	cols := 20
	p := &progress{w: &b, on: true, prefix: "sweep 3/8 · ", width: func() int { return cols }}
	p.show("λ = %.3g × λ_max: choosing ρ", 0.0469)
	if want := "\r\033[Ksweep 3/8 · λ = 0.…"; b.String() != want {
		t.Errorf("20 columns: wrote %q, want %q", b.String(), want)
	}
	for _, c := range []int{0, 80} {
		b.Reset()
		cols, p.last = c, time.Time{}
		p.show("λ = %.3g × λ_max", 0.0469)
		if want := "\r\033[Ksweep 3/8 · λ = 0.0469 × λ_max"; b.String() != want {
			t.Errorf("%d columns: wrote %q, want %q", c, b.String(), want)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for a writer goroutine and a reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestShowTicking: on a terminal the line is drawn while the work runs
// (import and scoring were silent for seconds), and stop clears it; off a
// terminal nothing is written.
func TestShowTicking(t *testing.T) {
	var b syncBuffer
	stop := showTicking(&progress{w: &b, on: true}, func(d time.Duration) string { return "importing m.txt" })
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(b.String(), "importing m.txt") && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	stop()
	if got := b.String(); !strings.HasPrefix(got, "\r\033[Kimporting m.txt") || !strings.HasSuffix(got, "importing m.txt\r\033[K") {
		t.Errorf("wrote %q, want the line drawn, then cleared", got)
	}
	var off bytes.Buffer
	showTicking(&progress{w: &off}, func(time.Duration) string { return "x" })()
	if off.Len() > 0 {
		t.Errorf("off a terminal it wrote %q", off.String())
	}
}
