package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cronus-ltr/cronus/internal/asuser"
	"golang.org/x/sys/unix"
)

// cliResult is what a command run by runAsync ends with.
type cliResult struct {
	code   int
	stderr string
}

// runAsync runs the command args in a goroutine and sends its result.
func runAsync(ctx context.Context, args ...string) <-chan cliResult {
	done := make(chan cliResult, 1)
	go func() {
		var o, e bytes.Buffer
		code := run(ctx, args, &o, &e)
		done <- cliResult{code, e.String()}
	}()
	return done
}

// An interrupt while a data file is read from a pipe whose writer neither
// writes nor closes (a slow <(…), a FIFO) waited for the writer; it stops
// the command at once, with the exit status of an interrupt.
func TestInterruptWhileReadingPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer time.AfterFunc(100*time.Millisecond, cancel).Stop()
	done := runAsync(ctx, "inspect", fmt.Sprintf("/dev/fd/%d", r.Fd()))
	select {
	case res := <-done:
		if res.code != 130 || res.stderr != "cronus inspect: interrupted\n" {
			t.Errorf("exit %d, stderr %q; want 130 and the interrupt", res.code, res.stderr)
		}
	case <-time.After(stopLimit):
		t.Fatalf("still reading the pipe %v after the interrupt", stopLimit)
	}
}

// A second interrupt ends the process at once. The first cancels the
// command, but one that cannot stop (blocked where it cannot notice, as
// opening a cost file that is a FIFO nobody writes to) would hang;
// the second then gets the default action. The test runs main in a child
// process on a command of its own that says when it runs and when the
// first interrupt has cancelled it, and then does not stop: each
// interrupt is sent once the child is where it is meant for. The test
// slept 300 ms before each, on eval of a FIFO model (which now notices
// the first): under load the child had not yet taken the first when the
// second came, or had exited 130 of the first unseen, and the second was
// sent to its remains ("exit status 130, want death by SIGINT", 10 of
// 50 runs beside six busy loops).
func TestSecondInterruptEnds(t *testing.T) {
	if os.Getenv("CRONUS_TEST_MAIN") != "" {
		commands = append(commands, command{name: "stuck", run: runStuck})
	}
	if childMain() {
		return
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := mainCommand("TestSecondInterruptEnds", "stuck")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = w, &stderr
	err = cmd.Start()
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	defer cmd.Process.Kill()
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	// The limits are for a machine under heavy load: nothing waits for
	// them unless the test fails.
	expect := func(want string) {
		t.Helper()
		select {
		case line := <-lines:
			if line != want {
				t.Fatalf("the child said %q, want %q (stderr %q)", line, want, stderr.String())
			}
		case err := <-done:
			t.Fatalf("the child ended before saying %q: %v (stderr %q)", want, err, stderr.String())
		case <-time.After(30 * time.Second):
			t.Fatalf("the child did not say %q in 30 s (stderr %q)", want, stderr.String())
		}
	}
	expect("running") // main catches the signals before the command runs
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	expect("cancelled: interrupt") // and has stopped catching them
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGINT {
			t.Errorf("after the second interrupt: %v, want death by SIGINT", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("still running 30 s after a second interrupt")
	}
}

// runStuck is TestSecondInterruptEnds's command: it says "running", then,
// once ctx is done, "cancelled: " and the cause, and goes on without end.
func runStuck(ctx context.Context, _ []string, stdout, _ io.Writer) error {
	fmt.Fprintln(stdout, "running")
	<-ctx.Done()
	// To the process's standard output itself: run's stdout takes no
	// write once ctx is done.
	fmt.Fprintln(os.Stdout, "cancelled:", context.Cause(ctx))
	time.Sleep(time.Hour)
	return nil
}

// A second signal that came before the first was taken, while the
// goroutine watching them had not run (under load), was caught and lost:
// it is sent again once they are no longer caught; a first alone cancels
// the command, with the signal as the cause.
func TestWatchSignals(t *testing.T) {
	for _, c := range []struct {
		sent   []os.Signal
		raised []os.Signal
	}{
		{[]os.Signal{os.Interrupt}, nil},
		{[]os.Signal{syscall.SIGTERM}, nil},
		{[]os.Signal{os.Interrupt, os.Interrupt}, []os.Signal{os.Interrupt}},
		{[]os.Signal{syscall.SIGTERM, os.Interrupt}, []os.Signal{os.Interrupt}},
	} {
		sigs := make(chan os.Signal, 2)
		for _, s := range c.sent {
			sigs <- s
		}
		ctx, cancel := context.WithCancelCause(context.Background())
		var raised []os.Signal
		watchSignals(sigs, cancel, func(s os.Signal) { raised = append(raised, s) })
		if !slices.Equal(raised, c.raised) {
			t.Errorf("%v: raised %v, want %v", c.sent, raised, c.raised)
		}
		var s signalled
		if !errors.As(context.Cause(ctx), &s) || s.sig != c.sent[0] {
			t.Errorf("%v: cause %v, want %v", c.sent, context.Cause(ctx), c.sent[0])
		}
	}
}

// childMain runs main with the arguments of CRONUS_TEST_MAIN (separated by
// spaces), when a test started this process to do so (mainCommand).
func childMain() bool {
	args := os.Getenv("CRONUS_TEST_MAIN")
	if args == "" {
		return false
	}
	os.Args = append([]string{"cronus"}, strings.Split(args, " ")...)
	main()
	return true
}

// mainCommand is the command that runs cronus args in a child process: the
// test binary, running only test, which must start with childMain.
func mainCommand(test string, args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), "CRONUS_TEST_MAIN="+strings.Join(args, " "))
	return cmd
}

// An output given as /dev/stdout, or as "-", goes where the shell sent the
// standard output, and holds the output alone. It was renamed onto the file behind
// the descriptor (a `>>` lost the file's earlier lines), and the command's
// report followed it on stdout: `cronus gen --out /dev/stdout | cronus
// inspect /dev/stdin` failed on a document "wrote /dev/stdout: …". The
// report goes to standard error now, and --json (a report for standard
// output) is refused with such an output. "-" (which predict --out took
// for the standard output) was a file named "-" for every other output:
// `predict --cascade C --exits -` wrote one.
func TestOutputOnStdout(t *testing.T) {
	if childMain() {
		return
	}
	dir := t.TempDir()
	model := trainShallow(t, dir, 6)
	cascade := filepath.Join(dir, "c.json")
	if code, _, errOut := runCLI(t, "cascade", "--model", model, "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali",
		"--costs", "builtin:mq2008/costs", "--stages", "2", "--cycles", "0", "--rhos", "0.01", "--out", cascade); code != 0 {
		t.Fatal(errOut)
	}
	lgb, err := filepath.Abs(filepath.Join("engine", "tree", "testdata", "lgb-lambdarank.model.txt"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args   []string // "OUT" is the output
		report string   // on standard error
	}{
		{[]string{"gen", "--queries", "3", "--docs-per-query", "4", "--features", "5", "--out", "OUT"}, "wrote /dev/stdout: 3 queries"},
		{[]string{"train", "--train", "builtin:mq2008/vali", "--trees", "2", "--out", "OUT"}, "wrote /dev/stdout: 2 trees"},
		{[]string{"import", "--from", "lightgbm", lgb, "--out", "OUT"}, "wrote /dev/stdout: 100 trees"},
		{[]string{"predict", "--model", model, "--data", "builtin:mq2008/test", "--out", "OUT"}, ""},
		{[]string{"predict", "--cascade", cascade, "--data", "builtin:mq2008/test", "--exits", "OUT", "--out", filepath.Join(dir, "keys.txt")}, ""},
		{[]string{"eval", "--model", model, "--data", "builtin:mq2008/test", "--run", "OUT"}, "builtin:mq2008/test: 156 queries"},
		{[]string{"cascade", "--model", model, "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali",
			"--costs", "builtin:mq2008/costs", "--stages", "2", "--cycles", "0", "--rhos", "0.01", "--out", "OUT"}, "wrote /dev/stdout: 2 stages"},
	}
	for i, c := range cases {
		// The output written to a file, to compare with.
		file := filepath.Join(dir, fmt.Sprintf("out%d", i))
		args := make([]string, len(c.args))
		for j, a := range c.args {
			args[j] = strings.ReplaceAll(a, "OUT", file)
		}
		if code, _, errOut := runCLI(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		log := filepath.Join(dir, fmt.Sprintf("log%d", i))
		for _, name := range []string{"/dev/stdout", "-"} {
			if err := os.WriteFile(log, []byte("earlier\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			for j, a := range c.args {
				args[j] = strings.ReplaceAll(a, "OUT", name)
			}
			cmd := mainCommand("TestOutputOnStdout", args...)
			cmd.Dir = dir // a file named "-" would be left here
			var stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = f, &stderr
			err = cmd.Run()
			f.Close()
			if err != nil {
				t.Errorf("%v: %v: %s", args, err, stderr.String())
				continue
			}
			if got, _ := os.ReadFile(log); string(got) != "earlier\n"+string(want) {
				t.Errorf("%v >> log: the log holds %d bytes (%.60q…), want \"earlier\\n\" and the %d bytes of the output", args, len(got), got, len(want))
			}
			if report := strings.ReplaceAll(c.report, "/dev/stdout", name); !strings.Contains(stderr.String(), report) {
				t.Errorf("%v: standard error %q, want the report %q", args, stderr.String(), report)
			}
			if _, err := os.Stat(filepath.Join(dir, "-")); err == nil {
				t.Errorf("%v: wrote a file named \"-\"", args)
				os.Remove(filepath.Join(dir, "-"))
			}
		}
	}
	// --json prints its report on standard output: not with an output there.
	for _, args := range [][]string{
		{"gen", "--out", "/dev/stdout", "--json"},
		{"train", "--train", "t.txt", "--out", "/dev/fd/1", "--json"},
		{"predict", "--model", model, "--data", "d.txt", "--out", "/dev/stdout", "--json"},
		{"eval", "--model", model, "--data", "d.txt", "--per-query", "/dev/stdout", "--json"},
		{"eval", "--model", model, "--data", "d.txt", "--run", "-", "--json"},
		{"cascade", "--model", model, "--train", "t", "--valid", "v", "--costs", "c", "--out", "-", "--json"},
		{"sweep", "--model", model, "--train", "t", "--valid", "v", "--costs", "c", "--stages", "2", "--out", "/dev/stdout", "--json"},
	} {
		code, out, errOut := runCLI(t, args...)
		if code != 2 || out != "" || !strings.Contains(errOut, "--json prints the report on standard output") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 refusing --json", args, code, out, errOut)
		}
	}
	// predict without --out writes the scores on standard output.
	for _, name := range []string{"/dev/stdout", "-"} {
		code, out, errOut := runCLI(t, "predict", "--cascade", cascade, "--data", "d.txt", "--exits", name)
		if code != 2 || out != "" || !strings.Contains(errOut, "--exits "+name+": the scores go to standard output") {
			t.Errorf("predict --exits %s without --out: exit %d, stdout %q, stderr %q; want exit 2", name, code, out, errOut)
		}
	}
}

// SIGTERM stops a command as an interrupt does (no output left behind, the
// message "interrupted") and exits 143, 128 + 15, as a shell reports a
// process SIGTERM ended; it exited 130, SIGINT's status.
func TestTermExitStatus(t *testing.T) {
	if childMain() {
		return
	}
	out := filepath.Join(t.TempDir(), "m.json")
	for _, c := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}, {syscall.SIGHUP, 129}} {
		// --log-every 1: the first tree's line says the child is into the
		// training, its signals long caught. The test slept a second for
		// that, and a child slower to start (-race, a loaded machine) died
		// of the signal's default action before main caught it.
		cmd := mainCommand("TestTermExitStatus", "train", "--train", "builtin:mq2008/train", "--trees", "100000", "--log-every", "1", "--out", out)
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = w
		err = cmd.Start()
		w.Close()
		if err != nil {
			r.Close()
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		training := make(chan struct{})
		read := make(chan struct{})
		go func() {
			defer close(read)
			first := true
			sc := bufio.NewScanner(r)
			for sc.Scan() {
				stderr.WriteString(sc.Text() + "\n")
				if first && strings.HasPrefix(sc.Text(), "[1/100000] ") {
					close(training)
					first = false
				}
			}
		}()
		select {
		case <-training:
		case <-read:
			// The child ended before its first tree: its stderr says why.
		}
		if err := cmd.Process.Signal(c.sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
			t.Fatal(err)
		}
		<-read // EOF once the child has exited
		r.Close()
		err = cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != c.code || !strings.HasSuffix(stderr.String(), "cronus train: interrupted\n") {
			t.Errorf("%v: %v, stderr %q; want exit %d and the interrupt", c.sig, err, stderr.String(), c.code)
		}
		if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%v: the output exists after the signal (%v)", c.sig, err)
		}
	}
}

// A hangup (the terminal closed) stops a command as an interrupt does: it
// killed the process where it was, and gen, writing its data, left its
// temporary file behind (380 MB of .g.txt.tmpN). Started with SIGHUP
// ignored, as nohup starts it, the command goes on through a hangup.
func TestHangupStopsCleanly(t *testing.T) {
	if childMain() {
		return
	}
	for _, ignored := range []bool{false, true} {
		dir := t.TempDir()
		cmd := mainCommand("TestHangupStopsCleanly", "gen", "--queries", "1000000", "--out", filepath.Join(dir, "g.txt"))
		if ignored {
			// sh starts the test binary with SIGHUP ignored, as nohup does.
			cmd.Args = append([]string{"sh", "-c", `trap "" HUP; exec "$@"`, "sh"}, cmd.Args...)
			cmd.Path = "/bin/sh"
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Into the writing: the temporary file is there.
		for {
			if entries, _ := os.ReadDir(dir); len(entries) > 0 {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
		want := 129
		if ignored {
			// Still writing after the hangup: then an interrupt stops it.
			time.Sleep(200 * time.Millisecond)
			if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			want = 130
		}
		err := cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != want || !strings.HasSuffix(stderr.String(), "cronus gen: interrupted\n") {
			t.Errorf("SIGHUP ignored %v: %v, stderr %q; want exit %d and the interrupt", ignored, err, stderr.String(), want)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("SIGHUP ignored %v: %d files left in the output's directory, %s first", ignored, len(entries), entries[0].Name())
		}
	}
}

// /dev/null is a character device and no terminal: `cronus > /dev/null`
// on a terminal ran the workbench unseen (review 2026-11-29).
func TestDevNullIsNoTerminal(t *testing.T) {
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Errorf("%s counts as a terminal", os.DevNull)
	}
}

// An output that cannot be written whole (a full disk; here the file size
// limit, RLIMIT_FSIZE, whose writes fail with EFBIG as Go ignores SIGXFSZ)
// was reported by its temporary file's name, which the user never gave and
// which is removed ("cronus train: write out/.m.json.tmp3902582882: no
// space left on device"; gen said both, "writing out/g.txt: write
// out/.g.txt.tmp4157808193: …"). The message names the output, once, and
// nothing is left in its directory. Each command runs in a child process
// under the limit, which is the whole process's (and would stop the test
// log).
func TestOutputThatCannotBeWrittenNamesIt(t *testing.T) {
	if os.Getenv("CRONUS_TEST_MAIN") != "" {
		var lim syscall.Rlimit
		if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
			panic(err)
		}
		lim.Cur = 4096
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
			panic(err)
		}
	}
	if childMain() {
		return
	}
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil || lim.Max < 4096 {
		t.Skip("no file size limit to set here:", err)
	}
	dir := t.TempDir()
	model := filepath.Join(t.TempDir(), "m.json")
	if code, _, errOut := runCLI(t, "import", "--from", "lightgbm", filepath.Join("engine", "tree", "testdata", "lgb-lambdarank.model.txt"), "--out", model); code != 0 {
		t.Fatal(errOut)
	}
	for _, args := range [][]string{ // the output last
		{"gen", "--queries", "50", "--docs-per-query", "20", "--out", "OUT"},
		{"train", "--train", "builtin:mq2008/vali", "--trees", "40", "--out", "OUT"},
		{"predict", "--model", model, "--data", "builtin:mq2008/test", "--out", "OUT"},
	} {
		out := filepath.Join(dir, args[0]+".out")
		args[len(args)-1] = out
		cmd := mainCommand("TestOutputThatCannotBeWrittenNamesIt", args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		got := stderr.String()
		if testing.CoverMode() != "" {
			// Under go test -cover the child's runtime writes its coverage
			// at exit, under the same limit, and says it failed.
			got, _, _ = strings.Cut(got, "error: coverage meta-data emit failed")
		}
		want := fmt.Sprintf("cronus %s: write %s: file too large\n", args[0], out)
		if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 1 || !strings.HasSuffix(got, want) {
			t.Errorf("cronus %v: %v, stderr %q; want exit 1 and %q", args, err, stderr.String(), want)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Errorf("cronus %v left %v", args, ents)
		}
	}
}

// An interrupt while a cost file or a file of scores is opened did not
// stop the command when the file was a FIFO nobody writes to (the open
// waits for a writer): `eval --scores FIFO`, `--compare FIFO` and every
// command's `--costs FIFO` ran on after the first SIGINT until a second
// one killed the process. They stop at once, with the exit status of an
// interrupt, as model, cascade and data files did.
func TestInterruptWhileOpeningCostsOrScores(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	// The opens left waiting are let go at the end: a writer that comes
	// and goes gives each of them an empty file.
	defer func() {
		if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	}()
	model := trainShallow(t, dir, 6)
	cascade := filepath.Join(dir, "c.json")
	if code, _, errOut := runCLI(t, "cascade", "--model", model, "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali",
		"--costs", "builtin:mq2008/costs", "--stages", "2", "--cycles", "0", "--rhos", "0.01", "--out", cascade); code != 0 {
		t.Fatal(errOut)
	}
	out := filepath.Join(dir, "out")
	for _, args := range [][]string{
		{"inspect", "builtin:mq2008/vali", "--costs", fifo},
		{"gen", "--queries", "3", "--costs", fifo, "--out", out},
		{"eval", "--scores", fifo, "--data", "builtin:mq2008/vali"},
		{"eval", "--model", model, "--data", "builtin:mq2008/vali", "--compare", fifo},
		{"eval", "--model", model, "--data", "builtin:mq2008/vali", "--costs", fifo},
		{"eval", "--cascade", cascade, "--data", "builtin:mq2008/vali", "--costs", fifo},
		{"predict", "--cascade", cascade, "--data", "builtin:mq2008/vali", "--costs", fifo, "--out", out},
		{"cascade", "--model", model, "--train", "builtin:mq2008/vali", "--valid", "builtin:mq2008/vali", "--costs", fifo, "--out", out},
	} {
		interruptAfter(t, 100*time.Millisecond, args)
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v interrupted wrote %s", args, out)
		}
	}
}

// An output that is another user's file in a directory with the sticky bit
// (/tmp) cannot be replaced, though a file can be written beside it: the
// check of the outputs passed, and the command failed at the rename,
// after all its work ("rename /tmp/.m.json.tmp… /tmp/m.json: operation
// not permitted"). It is refused before the work. The user is given, as
// the test runs as root, for whom the kernel allows the rename.
func TestOutputOfAnotherUserInStickyDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "m.json")
	if err := os.WriteFile(path, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	me := os.Geteuid()
	other := me + 1000 // the owner of neither file nor directory
	if other == 0 {
		other++
	}
	link := filepath.Join(t.TempDir(), "link.json")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		out, target string
		euid        int
		want        string // "" for no error
	}{
		{path, path, other, path + ": cannot replace it: it belongs to another user, in " + dir + ", a directory with the sticky bit"},
		{link, path, other, link + ": cannot replace it: it belongs to another user, in " + dir + ", a directory with the sticky bit"},
		{path, path, me, ""}, // the owner
		{path, path, 0, ""},  // root
		{filepath.Join(dir, "new.json"), filepath.Join(dir, "new.json"), other, ""}, // a new file
	}
	for _, c := range cases {
		err := checkReplaceable(c.out, c.target, c.euid)
		if got := fmt.Sprint(err); (c.want == "" && err != nil) || (c.want != "" && got != c.want) {
			t.Errorf("checkReplaceable(%s) as user %d: %v; want %q", c.out, c.euid, err, c.want)
		}
	}
	// Not sticky: anyone who may write in the directory may replace it.
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := checkReplaceable(path, path, other); err != nil {
		t.Errorf("in a directory without the sticky bit: %v", err)
	}
}

// An output made read-only (chmod a-w) to keep it is refused before the
// work, as cp and the shell's redirection refuse it; the rename replaced
// it. Root may write it, as with cp, so as root the test runs itself
// again as the user nobody, the file's owner.
func TestReadOnlyOutputRefused(t *testing.T) {
	if path := os.Getenv("CRONUS_TEST_READONLY_OUT"); path != "" { // the child
		code, _, stderr := runCLI(t, "train", "--train", filepath.Join(filepath.Dir(path), "missing.txt"), "--out", path)
		fmt.Printf("exit %d: %s", code, stderr)
		return
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "m.json")
	if err := os.WriteFile(path, []byte("kept"), 0o444); err != nil {
		t.Fatal(err)
	}
	var got string
	if os.Geteuid() != 0 {
		code, _, stderr := runCLI(t, "train", "--train", filepath.Join(dir, "missing.txt"), "--out", path)
		got = fmt.Sprintf("exit %d: %s", code, stderr)
	} else {
		if err := os.Chown(path, asuser.Nobody, asuser.Nobody); err != nil {
			t.Fatal(err)
		}
		got = asuser.Run(t, dir, "TestReadOnlyOutputRefused", "CRONUS_TEST_READONLY_OUT="+path)
	}
	// Refused up front, before the training data is read (which is
	// missing here, and would have been the error).
	want := "exit 1: cronus train: cannot write " + path + ": the file is read-only (its permissions are -r--r--r--); make it writable (chmod u+w) or write elsewhere\n"
	if b, _ := os.ReadFile(path); got != want || string(b) != "kept" {
		t.Errorf("got %q, file %q; want %q and the file kept", got, b, want)
	}
}

// An interrupt while an output that is a FIFO waits for its reader (a
// `mkfifo` given as --out before its reader started) did not stop the
// command: opening the FIFO to write waits for a reader, and every command
// ran on after the first SIGINT until a second one killed the process. They
// stop at once, with the exit status of an interrupt, and write none of
// their other outputs.
func TestInterruptWhileOpeningOutputFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	// The opens left waiting are let go at the end: a reader that comes
	// and goes.
	defer func() {
		if f, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	}()
	model := trainShallow(t, dir, 6)
	cascade := filepath.Join(dir, "c.json")
	data := []string{"--model", model, "--train", "builtin:mq2008/vali", "--valid", "builtin:mq2008/vali", "--costs", "builtin:mq2008/costs"}
	if code, _, errOut := runCLI(t, append([]string{"cascade", "--stages", "2", "--cycles", "0", "--rhos", "0.01", "--out", cascade}, data...)...); code != 0 {
		t.Fatal(errOut)
	}
	out := filepath.Join(dir, "out")
	for _, args := range [][]string{
		{"gen", "--queries", "3", "--out", fifo},
		{"train", "--train", "builtin:mq2008/vali", "--trees", "2", "--out", fifo},
		{"import", "--from", "xgboost", "engine/tree/testdata/xgb-rank-ndcg.json", "--out", fifo},
		{"predict", "--model", model, "--data", "builtin:mq2008/vali", "--out", fifo},
		{"predict", "--cascade", cascade, "--data", "builtin:mq2008/vali", "--out", out, "--exits", fifo},
		{"eval", "--model", model, "--data", "builtin:mq2008/vali", "--per-query", out, "--run", fifo},
		append([]string{"cascade", "--stages", "2", "--cycles", "0", "--rhos", "0.01", "--out", out, "--trace", fifo}, data...),
		append([]string{"sweep", "--stages", "2", "--cycles", "0", "--rhos", "0.01", "--lambdas", "0.1:0.1:1", "--out", fifo}, data...),
	} {
		interruptAfter(t, 300*time.Millisecond, args)
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v interrupted wrote %s", args, out)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 3 {
			t.Errorf("%v interrupted left %v", args, ents)
		}
	}
}

// interruptAfter runs the command args, cancels it after d, and checks that
// it ends within 5 s as an interrupted command does: exit 130 and the one
// line "cronus CMD: interrupted".
func interruptAfter(t *testing.T, d time.Duration, args []string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	timer := time.AfterFunc(d, cancel)
	defer timer.Stop()
	done := make(chan string, 1)
	go func() {
		var o, e bytes.Buffer
		code := run(ctx, args, &o, &e)
		done <- fmt.Sprintf("exit %d, stderr %q", code, e.String())
	}()
	select {
	case got := <-done:
		if want := fmt.Sprintf("exit 130, stderr %q", "cronus "+args[0]+": interrupted\n"); got != want {
			t.Errorf("%v: %s; want %s", args, got, want)
		}
	case <-time.After(stopLimit):
		t.Errorf("%v: still running %v after the interrupt", args, stopLimit)
	}
}

// Two inputs that name one stream (`--train /dev/stdin --valid
// /dev/stdin`, a FIFO twice) failed after the first read with "empty
// file" on a pipe, or waited for ever on a FIFO that nobody opens again.
// They are refused before anything is read.
func TestOneStreamAsTwoInputs(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	// Without the check the command waits to open the FIFO: a writer
	// that comes and goes lets it go (with an empty file).
	release := func() {
		if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	}
	out := filepath.Join(dir, "m.json")
	for _, args := range [][]string{
		{"train", "--train", fifo, "--valid", fifo, "--trees", "1", "--out", out},
		{"eval", "--scores", fifo, "--data", fifo},
	} {
		done := runAsync(context.Background(), args...)
		var r cliResult
		select {
		case r = <-done:
		case <-time.After(20 * time.Second):
			for range 4 {
				release()
				time.Sleep(100 * time.Millisecond)
			}
			r = <-done
			t.Errorf("%v opened the FIFO twice: %s", args, r.stderr)
			continue
		}
		if r.code != 2 || !strings.Contains(r.stderr, fifo+" is given as two inputs") || !strings.Contains(r.stderr, "gives its text once") {
			t.Errorf("%v: exit %d, %s", args, r.code, r.stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v wrote %s", args, out)
		}
	}
}

// inspect tells a model or cascade from data by its first byte, also when
// it comes through a pipe (/dev/stdin, <(…)), as predict --model reads
// one: it was handed to the data reader and refused as "JSON (a model or
// cascade file?), not SVMlight/LETOR data". Data through a pipe is read as
// before.
func TestInspectModelThroughPipe(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(inspectModelJSON))
	zw.Close()
	data := "2 qid:1 1:0.5 3:1\n0 qid:1 2:1\n1 qid:2 1:1\n"
	for _, tc := range []struct {
		name, text, want string
	}{
		{"model", inspectModelJSON, `"kind": "model"`},
		{"gzip model", gz.String(), `"kind": "model"`},
		{"data", data, `"queries": 2`},
	} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			w.Write([]byte(tc.text))
			w.Close()
		}()
		code, out, errOut := runCLI(t, "inspect", "--json", fmt.Sprintf("/dev/fd/%d", r.Fd()))
		r.Close()
		if code != 0 || !strings.Contains(out, tc.want) {
			t.Errorf("%s through a pipe: exit %d, stderr %q, output lacks %s:\n%s", tc.name, code, errOut, tc.want, out)
		}
	}
}

// onePagePipe returns a blocking pipe (as a shell's is) one page long,
// and its size. The read end is closed at the end of the test, if not
// before; the write end is the caller's to close (see
// TestInterruptWhileWritingToUnreadPipe).
func onePagePipe(t *testing.T) (r, w *os.File, size int) {
	t.Helper()
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	r, w = os.NewFile(uintptr(p[0]), "r"), os.NewFile(uintptr(p[1]), "w")
	t.Cleanup(func() { r.Close() })
	size, err := unix.FcntlInt(w.Fd(), unix.F_SETPIPE_SZ, 4096)
	if err != nil {
		t.Fatal(err)
	}
	return r, w, size
}

// A pipe whose reader does not read (`cronus predict … | less`, not
// scrolled) blocks a write in the kernel: an interrupt then ended the
// command only at a second ctrl+c, for the standard output (predict's
// scores, alone or in its --json report) and for an output that names a
// descriptor (/dev/fd/N, "-"). The command now stops at the first, exit
// 130. The pipe is made blocking, as a shell's is, and one page long, and
// is cancelled once full.
func TestInterruptWhileWritingToUnreadPipe(t *testing.T) {
	dir := t.TempDir()
	model := trainShallow(t, dir, 30)
	for _, c := range []struct {
		stdout bool // the pipe is the standard output; otherwise /dev/fd/N
		args   []string
	}{
		{true, []string{"predict", "--model", model, "--data", "builtin:mq2008/vali"}},
		{true, []string{"predict", "--json", "--model", model, "--data", "builtin:mq2008/vali"}},
		{false, []string{"predict", "--model", model, "--data", "builtin:mq2008/vali", "--out"}},
		{false, []string{"eval", "--model", model, "--data", "builtin:mq2008/vali", "--run"}},
		{false, []string{"gen", "--queries", "50", "--out"}},
		{false, []string{"export", "--to", "xgboost", "--model", model, "--out"}},
	} {
		r, w, size := onePagePipe(t)
		args, stdout := c.args, io.Writer(w)
		if !c.stdout {
			args, stdout = append(slices.Clone(args), fmt.Sprintf("/dev/fd/%d", w.Fd())), &bytes.Buffer{}
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan string, 1)
		var errOut bytes.Buffer
		go func() {
			code := run(ctx, args, stdout, &errOut)
			// export's note on missing values comes before.
			_, last, _ := strings.Cut("\n"+strings.TrimSuffix(errOut.String(), "\n"), "\ncronus ")
			done <- fmt.Sprintf("exit %d, last line %q", code, last)
		}()
		full := time.Now().Add(stopLimit)
		for {
			n, err := unix.IoctlGetInt(int(r.Fd()), unix.TIOCINQ)
			if err != nil {
				t.Fatal(err)
			}
			if n >= size {
				break
			}
			if time.Now().After(full) {
				t.Errorf("%v: filled %d bytes of the pipe's %d", args, n, size)
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
		select {
		case got := <-done:
			if want := fmt.Sprintf("exit 130, last line %q", args[0]+": interrupted"); got != want {
				t.Errorf("%v: %s; want %s", args, got, want)
			}
		case <-time.After(stopLimit):
			t.Errorf("%v: still writing to a pipe nobody reads %v after the interrupt", args, stopLimit)
			// Closing the reader fails the blocked write, and the
			// command ends.
			r.Close()
			<-done
		}
		// The write end of a /dev/fd/N output stays open: the command
		// writes through its own file for the descriptor's number
		// (data.writeDescriptor), and a chunk its goroutine had not yet
		// begun to write at the cancel went, once the number was
		// closed, into the next case's pipe, opened on the same number
		// (F_SETPIPE_SZ then failed: "device or resource busy"). A
		// process ends at once after the interrupt; the test keeps the
		// numbers. Closing the reader fails any write still blocked.
		r.Close()
		if c.stdout {
			w.Close()
		} else {
			// Kept for the process's life, not only to the loop's end:
			// unreachable, w was closed by its finalizer at a collection,
			// and a chunk whose goroutine began its write later (a loaded
			// machine) wrote it to whatever took the number next. So the
			// eval case's gzip spool, the temporary file of the built-in
			// data's text, got predict's scores, and eval failed with
			// "builtin:mq2008/vali:1387: feature \"8026040658\" has no
			// colon" (exit 1) instead of exit 130 (a helper's run under
			// three busy loops). A process that runs one command never
			// closes the descriptors it writes through.
			keptDescriptors = append(keptDescriptors, w)
		}
	}
}

// stopLimit is how long a test waits for a command to stop after its
// interrupt (or a pipe to fill) before it calls it hung: the defects these
// tests guard against held a command until a second ctrl+c, for ever, so
// a minute tells them apart from a machine that is only slow. It was 5 or
// 10 s, which a run beside three busy loops used up (a helper's, filling
// a pipe: "filled 0 bytes of the pipe's 4096").
const stopLimit = time.Minute

// keptDescriptors are the write ends of pipes that commands run in this
// process wrote through as /dev/fd/N (data's descriptors, files kept by
// number): never closed, so that no later file takes their numbers.
var keptDescriptors []*os.File

// Standard error that is a pipe nobody reads (`cronus train … 2>&1 |
// less`, not scrolled) held the command in a write of its log or progress
// after the interrupt, which then ended it only at a second ctrl+c (a
// review on 2026-12-01): the write is given up at the interrupt, and the
// command exits 130 at once; its "interrupted" is dropped, the pipe being
// full.
func TestInterruptWhileWritingToUnreadStderr(t *testing.T) {
	r, w, size := onePagePipe(t)
	defer w.Close()
	// The pipe full from the start: the command's first line to it
	// blocks (a write of up to 4 KB to a pipe is atomic). Waiting for
	// its log to fill the pipe took more than 10 s under the race
	// detector on a loaded machine.
	if n, err := w.Write(make([]byte, size)); err != nil || n != size {
		t.Fatalf("filling the pipe: %d bytes, %v", n, err)
	}
	out := filepath.Join(t.TempDir(), "m.json")
	args := []string{"train", "--train", "builtin:mq2008/train", "--trees", "100000", "--log-every", "1", "--out", out}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	go func() { done <- run(ctx, args, io.Discard, w) }()
	// Cancelled once the command (or graceWriter for it) is in a write
	// to the pipe.
	blocked := time.Now().Add(60 * time.Second)
	for !writingFromMain() {
		if time.Now().After(blocked) {
			buf := make([]byte, 1<<20)
			t.Fatalf("the command did not write to its standard error in 60 s:\n%s", buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	start := time.Now()
	select {
	case code := <-done:
		t.Logf("returned %v after the interrupt", time.Since(start))
		if code != 130 {
			t.Errorf("exit %d; want 130", code)
		}
	case <-time.After(stopLimit):
		t.Errorf("still writing to a standard error nobody reads %v after the interrupt", stopLimit)
		r.Close() // fails the blocked write, and the command ends
		<-done
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("the interrupted command wrote %s", out)
	}
}

// writingFromMain reports whether a goroutine of this package (the
// command's, or graceWriter's for it) is in os.(*File).Write.
func writingFromMain() bool {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "os.(*File).Write(") && strings.Contains(g, "\ngithub.com/cronus-ltr/cronus.") {
			return true
		}
	}
	return false
}

// Standard error that takes its writes still gets the line that says the
// command was interrupted, written after the interrupt.
func TestInterruptedLineOnStderrFile(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	args := []string{"train", "--train", "builtin:mq2008/train", "--trees", "100000", "--log-every", "1", "--out", filepath.Join(dir, "m.json")}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	go func() { done <- run(ctx, args, io.Discard, f) }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		st, err := f.Stat()
		if err != nil {
			t.Fatal(err)
		}
		if st.Size() > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no log line in 10 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	select {
	case code := <-done:
		if code != 130 {
			t.Errorf("exit %d; want 130", code)
		}
	case <-time.After(stopLimit):
		t.Fatalf("still running %v after the interrupt", stopLimit)
	}
	b, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	if s := strings.TrimSuffix(string(b), "\n"); !strings.HasSuffix(s, "\ncronus train: interrupted") {
		t.Errorf("standard error ends %q; want the line \"cronus train: interrupted\"", s[max(0, len(s)-200):])
	}
}

// graceWriter keeps one goroutine in the kernel for a descriptor that
// blocks, however many writes come after the interrupt, and these return
// at once.
func TestGraceWriterHoldsOneGoroutine(t *testing.T) {
	r, w, size := onePagePipe(t)
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	g := &graceWriter{ctx: ctx, f: w}
	if n, err := g.Write(make([]byte, size)); n != size || err != nil {
		t.Fatalf("the first %d bytes: wrote %d, %v", size, n, err)
	}
	before := graceWrites()
	go cancelInWrite(cancel)
	if _, err := g.Write([]byte("blocked\n")); !errors.Is(err, context.Canceled) {
		t.Errorf("the blocked write returned %v; want %v", err, context.Canceled)
	}
	// The first write after waits the grace (stderrGrace) for the one
	// given up; the others wait for nothing. They are given a grace of
	// an hour: one that waited it would hold the test, which fails it
	// after a minute (it asserted that the 100 writes took under 5 s, a
	// clock a loaded machine can run out of).
	if _, err := g.Write([]byte("cronus train: interrupted\n")); !errors.Is(err, context.Canceled) {
		t.Fatalf("the first write after returned %v; want %v", err, context.Canceled)
	}
	g.mu.Lock()
	g.wait = time.Hour
	g.mu.Unlock()
	after := make(chan error, 1)
	go func() {
		for range 99 {
			if _, err := g.Write([]byte("cronus train: interrupted\n")); !errors.Is(err, context.Canceled) {
				after <- fmt.Errorf("a write after returned %v; want %v", err, context.Canceled)
				return
			}
		}
		after <- nil
	}()
	select {
	case err := <-after:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the writes after the first still wait a minute on: one waited its grace")
	}
	if n := graceWrites(); n != before+1 {
		t.Errorf("%d goroutines writing after 101 writes to a full pipe, %d before", n, before)
	}
	// The reader reads: the write given up ends, and the next is written.
	io.CopyN(io.Discard, r, int64(size)+8)
	deadline := time.Now().Add(10 * time.Second)
	for {
		n, err := g.Write([]byte("after\n"))
		if err == nil && n == 6 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a write 10 s after the reader read: %d, %v", n, err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if b := make([]byte, 6); func() bool { _, err := io.ReadFull(r, b); return err != nil || string(b) != "after\n" }() {
		t.Error("the pipe did not get the write after")
	}
}

// cancelInWrite cancels once a graceWriter.Write waits for its write
// before ctx's end (it is in its select), so that the write is given up
// at the interrupt. It slept 50 ms: on a loaded machine the write could
// then begin after the cancel, and a write that begins after ctx's end
// waits its grace, an hour in TestGraceWriterWaitsForWriteGivenUp, whose
// reader starts only after that write.
func cancelInWrite(cancel context.CancelFunc) {
	buf := make([]byte, 1<<20)
	for {
		buf = buf[:runtime.Stack(buf[:cap(buf)], true)]
		for _, g := range strings.Split(string(buf), "\n\n") {
			if strings.Contains(g, " [select") && strings.Contains(g, "\ngithub.com/cronus-ltr/cronus.(*graceWriter).Write(") {
				cancel()
				return
			}
		}
		time.Sleep(time.Millisecond)
	}
}

// graceWrites counts the goroutines of graceWriter's writes. It counted
// every goroutine, and a goroutine of the test (or the runtime's) still
// ending under load made 4 of 2 before (TestGraceWriterHoldsOneGoroutine
// failed so beside other work).
func graceWrites() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return strings.Count(string(buf[:n]), "(*graceWriter).Write.func")
		}
		buf = make([]byte, 2*len(buf))
	}
}

// A write given up at the interrupt may only have been slow to start (on
// a loaded machine), not blocked: the first write after waits the grace
// for it, and "cronus train: interrupted" is written after it, where it
// was dropped (TestTermExitStatus failed so beside other work: its child
// exited 143 with the first tree's line alone on standard error).
func TestGraceWriterWaitsForWriteGivenUp(t *testing.T) {
	r, w, size := onePagePipe(t)
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	// A grace no loaded machine runs out of: the test waits for the
	// reader, not for a clock.
	g := &graceWriter{ctx: ctx, f: w, wait: time.Hour}
	if n, err := g.Write(make([]byte, size)); n != size || err != nil {
		t.Fatalf("the first %d bytes: wrote %d, %v", size, n, err)
	}
	go cancelInWrite(cancel)
	if _, err := g.Write([]byte("[2/100] tree\n")); !errors.Is(err, context.Canceled) {
		t.Fatalf("the write in the kernel at the interrupt returned %v; want %v", err, context.Canceled)
	}
	// The reader reads only after the next write has begun (and, without
	// the wait, been dropped).
	read := make(chan []byte)
	go func() {
		time.Sleep(100 * time.Millisecond)
		b, _ := io.ReadAll(r)
		read <- b
	}()
	if n, err := g.Write([]byte("cronus train: interrupted\n")); n != 26 || err != nil {
		t.Errorf("the write after the interrupt: %d, %v; want it written whole", n, err)
	}
	w.Close()
	b := <-read
	if want := "[2/100] tree\ncronus train: interrupted\n"; len(b) != size+len(want) || string(b[size:]) != want {
		t.Errorf("the pipe got %q after its first %d bytes; want %q", b[min(size, len(b)):], size, want)
	}
}

// The header of a C file written to the standard output says so: it
// began "The functions of -," (a helper's review).
func TestExportCHeaderOfStdout(t *testing.T) {
	if childMain() {
		return
	}
	dir := t.TempDir()
	model := trainShallow(t, dir, 3)
	h := filepath.Join(dir, "m.h")
	cmd := mainCommand("TestExportCHeaderOfStdout", "export", "--model", model, "--to", "c", "--prefix", "mo", "--out", "-", "--header", h)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "double mo_predict(const float *x)") {
		t.Errorf("the standard output holds no mo_predict:\n%.300s", stdout.String())
	}
	b, err := os.ReadFile(h)
	if err != nil {
		t.Fatal(err)
	}
	if want := "/* The functions of the C file written to the standard output, written by cronus export --to c with it;\n"; !strings.HasPrefix(string(b), want) {
		t.Errorf("the header begins\n%.120s\nwant\n%s", b, want)
	}
	// A file keeps its name.
	if code, _, errOut := runCLI(t, "export", "--model", model, "--to", "c", "--prefix", "mo", "--out", filepath.Join(dir, "mo.c"), "--header", h); code != 0 {
		t.Fatal(errOut)
	}
	if b, err := os.ReadFile(h); err != nil || !strings.HasPrefix(string(b), "/* The functions of mo.c, written by") {
		t.Errorf("the header begins\n%.120s (%v)", b, err)
	}
}
