package tui

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// configPrefix starts the name of TestMain's config directory, in the
// temporary directory; the test binary's process id and '-' follow, then
// MkdirTemp's random digits.
const configPrefix = "cronus-tui-test-config-"

// TestMain keeps the tests' loads off the user's recent list: a load that
// succeeds records its files in $XDG_CONFIG_HOME/cronus/recent. The
// directory is removed at the end; a run killed before it (go test
// -timeout panics the binary) left it behind, so each run first removes
// those of test binaries no longer running. Another binary's still
// running (go test ./tui in CI and by hand at once) is kept.
func TestMain(m *testing.M) {
	removeStaleConfigDirs(os.TempDir(), processAlive)
	dir, err := os.MkdirTemp("", configPrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CONFIG_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// staleConfigDirs returns those of names (entries of the temporary
// directory) that are TestMain's config directories of a process that
// alive says has ended. A name of another form, such as the process-less
// "cronus-tui-test-config123" of before, whose binary cannot be told, is
// never stale.
func staleConfigDirs(names []string, alive func(pid int) bool) []string {
	var stale []string
	for _, name := range names {
		rest, ok := strings.CutPrefix(name, configPrefix)
		if !ok {
			continue
		}
		digits, _, ok := strings.Cut(rest, "-")
		if !ok || digits == "" || strings.TrimLeft(digits, "0123456789") != "" {
			continue
		}
		pid, err := strconv.Atoi(digits)
		if err != nil || pid <= 0 || alive(pid) {
			continue
		}
		stale = append(stale, name)
	}
	return stale
}

// removeStaleConfigDirs removes from tmp the directories staleConfigDirs
// picks (directories only: a file or a symbolic link of such a name is
// left as it is).
func removeStaleConfigDirs(tmp string, alive func(pid int) bool) {
	ents, err := os.ReadDir(tmp)
	if err != nil {
		return
	}
	var names []string
	for _, e := range ents {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	for _, name := range staleConfigDirs(names, alive) {
		os.RemoveAll(filepath.Join(tmp, name))
	}
}

// processAlive reports whether process pid may be running: false only
// when the system says there is no such process (one of another user,
// which cannot be signalled, counts as running).
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	defer p.Release()
	err = p.Signal(syscall.Signal(0))
	return !errors.Is(err, os.ErrProcessDone)
}

// A later run removes the config directories of test binaries that have
// ended (killed by go test -timeout before TestMain's removal) and keeps
// those of binaries still running, the old process-less names, and what
// is no directory.
func TestStaleConfigDirs(t *testing.T) {
	live := map[int]bool{7: true, 12: true}
	alive := func(pid int) bool { return live[pid] }
	names := []string{
		configPrefix + "7-123", configPrefix + "12-9", // running
		configPrefix + "8-123", configPrefix + "99999-1", // ended
		"cronus-tui-test-config361114917", // before process ids: cannot tell
		configPrefix + "-1", configPrefix + "x-1", configPrefix + "8", configPrefix + "0-1", configPrefix + "+8-1",
		"other-8-123", "cronus-tui-test-configs-8-1",
	}
	if got, want := staleConfigDirs(names, alive), []string{configPrefix + "8-123", configPrefix + "99999-1"}; !slices.Equal(got, want) {
		t.Errorf("staleConfigDirs = %q, want %q", got, want)
	}

	tmp := t.TempDir()
	for _, d := range []string{configPrefix + "7-1", configPrefix + "8-1", "cronus-tui-test-config55"} {
		if err := os.MkdirAll(filepath.Join(tmp, d, "cronus"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	writeFile := func(name string) {
		if err := os.WriteFile(filepath.Join(tmp, name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(configPrefix + "9-1")
	// A link of a stale name to a directory elsewhere: neither is removed.
	target := t.TempDir()
	if err := os.WriteFile(filepath.Join(target, "keep"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(tmp, configPrefix+"10-1")); err != nil {
		t.Fatal(err)
	}
	removeStaleConfigDirs(tmp, alive)
	ents, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, e := range ents {
		left = append(left, e.Name())
	}
	want := []string{configPrefix + "10-1", configPrefix + "7-1", configPrefix + "9-1", "cronus-tui-test-config55"}
	if !slices.Equal(left, want) {
		t.Errorf("left %q, want %q", left, want)
	}
	if _, err := os.Stat(filepath.Join(target, "keep")); err != nil {
		t.Errorf("the link's target lost its file: %v", err)
	}
}

// processAlive: this process runs; a child waited for has ended.
func TestProcessAlive(t *testing.T) {
	if !processAlive(os.Getpid()) {
		t.Errorf("processAlive(own pid %d) = false", os.Getpid())
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if pid := cmd.Process.Pid; processAlive(pid) {
		t.Errorf("processAlive(%d) = true for a child that has ended", pid)
	}
}
