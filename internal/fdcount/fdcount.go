// Package fdcount lets a test see the file descriptors a piece of code
// leaves open: it lists /proc/self/fd (Linux) before and after.
package fdcount

import (
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"testing"
	"time"
)

// Open lists the process's open file descriptors (the entries of
// /proc/self/fd, less the one the listing itself opens), each with what it
// has open. It skips t where there is no /proc/self/fd.
func Open(t testing.TB) map[string]string {
	t.Helper()
	d, err := os.Open("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd:", err)
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		t.Fatal(err)
	}
	own := strconv.FormatUint(uint64(d.Fd()), 10)
	fds := map[string]string{}
	for _, n := range names {
		if n == own {
			continue
		}
		target, err := os.Readlink("/proc/self/fd/" + n)
		if err != nil {
			continue // closed while listed
		}
		fds[n] = target
	}
	return fds
}

// Leaked waits for the descriptors open beyond those of before to be
// closed (a goroutine the code left to close one, as the data package's
// for a FIFO opened after its reader gave up, may still be on its way:
// the wait ends as soon as they are, so only a leak waits out its
// minute), and returns those still open, as "N -> what it has open".
func Leaked(t testing.TB, before map[string]string) []string {
	t.Helper()
	var leaked []string
	for deadline := time.Now().Add(time.Minute); ; {
		leaked = leaked[:0]
		for fd, target := range Open(t) {
			if before[fd] != target {
				leaked = append(leaked, fd+" -> "+target)
			}
		}
		if len(leaked) == 0 || time.Now().After(deadline) {
			slices.Sort(leaked)
			return leaked
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// NoCollection turns the garbage collector off until t ends, after a
// collection of what came before: a file left open and dropped is closed
// by its finalizer at the next collection, which would hide the leak as
// often as not (a long-lived process with a large heap keeps it open for
// long). Call Collect between cases to free their memory.
func NoCollection(t testing.TB) {
	runtime.GC()
	old := debug.SetGCPercent(-1)
	t.Cleanup(func() { debug.SetGCPercent(old) })
}

// Collect frees the memory of what ran before, with the collector off.
func Collect() { runtime.GC() }
