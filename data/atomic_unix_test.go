//go:build unix

package data

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cronus-ltr/cronus/internal/asuser"
)

// Renaming onto /dev/null replaced the device with a regular file (when run
// as root); a path that is not a regular file is written to directly. A
// named pipe stands in for the device here, so that a failure harms
// nothing.
func TestWriteAtomicNotRegular(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(fifo) // blocks until the writer opens it
		if err != nil {
			got <- err.Error()
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- string(b)
	}()
	if err := WriteAtomic(fifo, writeString("through the pipe")); err != nil {
		t.Fatal(err)
	}
	st, err := os.Lstat(fifo)
	if err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the pipe was replaced by %v (%v)", st.Mode(), err)
	}
	if s := <-got; s != "through the pipe" {
		t.Errorf("the reader got %q", s)
	}
}

// A FIFO output waits for its reader to open it, and then to read what
// is written; an interrupted command waited with it. WriteAtomicAllContext
// gives up when ctx is done, in either wait, and renames none of the other
// outputs into place.
func TestWriteAtomicFIFOCancelled(t *testing.T) {
	for _, reader := range []bool{false, true} {
		dir := t.TempDir()
		fifo := filepath.Join(dir, "pipe")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip("no named pipes here:", err)
		}
		if reader { // opens the pipe and never reads
			r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
		} else { // the open left waiting is let go at the end
			defer func() {
				if r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
					r.Close()
				}
			}()
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer time.AfterFunc(100*time.Millisecond, cancel).Stop()
		other := filepath.Join(dir, "other.txt")
		big := strings.Repeat("0123456789abcdef", 1<<16) // 1 MiB, past the pipe's buffer
		done := make(chan error, 1)
		go func() {
			done <- WriteAtomicAllContext(ctx, []Output{{other, writeString("other")}, {fifo, writeString(big)}})
		}()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("reader %v: %v; want context.Canceled", reader, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("reader %v: still writing 5 s after the cancel", reader)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 1 {
			t.Errorf("reader %v: the directory holds %v, want the pipe alone", reader, ents)
		}
	}
}

// A path that names one of the process's descriptors (/dev/stdout under
// `cronus … --out /dev/stdout >> log`, /dev/fd/N, a link to one) is written
// through that descriptor. It was resolved to the file the descriptor had
// open and renamed onto: a `>>` lost the log's earlier lines, and the
// shell's later writes went to the replaced (unlinked) file.
func TestWriteAtomicDescriptor(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "log.txt")
	if err := os.WriteFile(log, []byte("earlier\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fdPath := fmt.Sprintf("/dev/fd/%d", f.Fd())
	if _, err := os.Stat(fdPath); err != nil {
		t.Skip("no /dev/fd here:", err)
	}
	before, _ := os.Stat(log)
	link := filepath.Join(dir, "out")
	if err := os.Symlink(fdPath, link); err != nil {
		t.Fatal(err)
	}
	for i, path := range []string{fdPath, link, fmt.Sprintf("/proc/self/fd/%d", f.Fd())} {
		if _, err := os.Stat(path); err != nil {
			continue // no /proc
		}
		if got, ok := Descriptor(path); !ok || got != int(f.Fd()) {
			t.Errorf("Descriptor(%s) = %d, %v; want %d", path, got, ok, f.Fd())
		}
		if err := WriteAtomic(path, writeString(fmt.Sprintf("line %d\n", i))); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		// The descriptor stays usable: the caller (the shell) writes on.
		if _, err := fmt.Fprintf(f, "after %d\n", i); err != nil {
			t.Fatalf("after writing %s: %v", path, err)
		}
	}
	after, _ := os.Stat(log)
	if !os.SameFile(before, after) {
		t.Error("the file behind the descriptor was replaced")
	}
	b, _ := os.ReadFile(log)
	want := "earlier\nline 0\nafter 0\nline 1\nafter 1\n"
	if _, err := os.Stat("/proc/self/fd"); err == nil {
		want += "line 2\nafter 2\n"
	}
	if string(b) != want {
		t.Errorf("the file holds %q, want %q", b, want)
	}
	for _, path := range []string{log, filepath.Join(dir, "fd"), "/dev/fdx/1", "/dev/fd/x"} {
		if fd, ok := Descriptor(path); ok {
			t.Errorf("Descriptor(%s) = %d, true; it names no descriptor", path, fd)
		}
	}
}

// A write that fails (a full disk; here a file size limit, RLIMIT_FSIZE,
// past which a write fails with EFBIG as Go ignores SIGXFSZ) named the
// temporary file, which the user never gave and which is removed: "write
// out/.m.json.tmp3902582882: no space left on device". It names the path.
// The limit is set in a child process, the test binary run again for this
// test alone: it is the whole process's, and would stop the test log.
func TestWriteAtomicFailedWriteNamesPath(t *testing.T) {
	if path := os.Getenv("CRONUS_TEST_FSIZE_PATH"); path != "" {
		var lim syscall.Rlimit
		if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
			fmt.Print("getrlimit: ", err)
			os.Exit(0)
		}
		lim.Cur = 1 << 16
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
			fmt.Print("setrlimit: ", err)
			os.Exit(0)
		}
		err := WriteAtomic(path, func(w *bufio.Writer) error {
			_, err := w.Write(make([]byte, 1<<20))
			return err
		})
		fmt.Print(err)
		os.Exit(0)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	cmd := exec.Command(os.Args[0], "-test.run=^TestWriteAtomicFailedWriteNamesPath$")
	cmd.Env = append(os.Environ(), "CRONUS_TEST_FSIZE_PATH="+path)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(string(out), "getrlimit:") || strings.HasPrefix(string(out), "setrlimit:") {
		t.Skip(string(out))
	}
	if want := "write " + path + ": file too large"; string(out) != want {
		t.Errorf("error %q; want %q", out, want)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
}

// A rename that fails (the path became a directory after the check, or,
// for a user who is not root, is another user's file in a sticky
// directory such as /tmp) named the temporary file: "rename
// dir/.out.txt.tmp3253113428 dir/out.txt: operation not permitted". It
// names the path, and the temporary file is gone.
func TestWriteAtomicFailedRenameNamesPath(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	err := WriteAtomic(path, func(w *bufio.Writer) error {
		if err := os.MkdirAll(filepath.Join(path, "inside"), 0o755); err != nil {
			t.Fatal(err)
		}
		_, err := w.WriteString("text")
		return err
	})
	if err == nil || !strings.HasPrefix(err.Error(), "cannot write "+path+": ") || strings.Contains(err.Error(), ".tmp") {
		t.Errorf("error %v; want one naming %s and not the temporary file", err, path)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 || ents[0].Name() != "out.txt" {
		t.Errorf("left behind: %v", ents)
	}
}

// A file made read-only to keep it was replaced by the rename, where cp and
// the shell's redirection refuse: writableBy judges by the permission
// bits of the class the user is in, root excepted.
func TestWritableBy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.json")
	if err := os.WriteFile(path, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	owner, group := os.Geteuid(), os.Getegid()
	if owner == 0 { // root may give the file to anyone
		owner, group = 4321, 4322
		if err := os.Chown(path, owner, group); err != nil {
			t.Fatal(err)
		}
	}
	stranger, strangerGroup := owner+1000, group+1000
	cases := []struct {
		perm       os.FileMode
		euid, egid int
		gids       []int
		want       bool
	}{
		{0o644, owner, group, nil, true},
		{0o444, owner, group, nil, false},
		{0o464, owner, group, nil, false}, // the owner's bit, not the group's
		{0o444, 0, 0, nil, true},          // root
		{0o464, stranger, group, nil, true},
		{0o644, stranger, group, nil, false},
		{0o464, stranger, strangerGroup, []int{group}, true}, // a supplementary group
		{0o446, stranger, strangerGroup, nil, true},
		{0o664, stranger, strangerGroup, nil, false},
	}
	for _, c := range cases {
		if err := os.Chmod(path, c.perm); err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := writableBy(st, c.euid, c.egid, c.gids); got != c.want {
			t.Errorf("%v, user %d group %d (and %v): writable %v, want %v", c.perm, c.euid, c.egid, c.gids, got, c.want)
		}
	}
}

// WriteAtomic refuses a read-only file and leaves it as it was. Root may
// write it (as with cp): run as root, the test runs itself again as the
// user nobody, which owns the file.
func TestWriteAtomicReadOnly(t *testing.T) {
	if path := os.Getenv("CRONUS_TEST_READONLY"); path != "" { // the child
		if err := WriteAtomic(path, writeString("new")); err != nil {
			fmt.Print(err)
		}
		return
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "m.json")
	if err := os.WriteFile(path, []byte("kept"), 0o444); err != nil {
		t.Fatal(err)
	}
	want := "cannot write " + path + ": the file is read-only (its permissions are -r--r--r--); make it writable (chmod u+w) or write elsewhere"
	var got string
	if os.Geteuid() != 0 {
		got = fmt.Sprint(WriteAtomic(path, writeString("new")))
	} else {
		if err := os.Chown(path, asuser.Nobody, asuser.Nobody); err != nil {
			t.Fatal(err)
		}
		got = asuser.Run(t, dir, "TestWriteAtomicReadOnly", "CRONUS_TEST_READONLY="+path)
	}
	if b, _ := os.ReadFile(path); got != want || string(b) != "kept" {
		t.Errorf("got %q, file %q; want %q and the file kept", got, b, want)
	}
}

// Another user's file that the user may not write (0644, in a directory
// the user may write) is not said to be read-only, to be made writable
// with chmod u+w, which is its owner's to do; it is named as another
// user's. Run as root, the test runs itself again as nobody on root's
// file.
func TestWriteAtomicOthersFile(t *testing.T) {
	if path := os.Getenv("CRONUS_TEST_OTHERS"); path != "" { // the child
		if err := WriteAtomic(path, writeString("new")); err != nil {
			fmt.Print(err)
		}
		return
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "m.json")
	if err := os.WriteFile(path, []byte("kept"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "cannot write " + path + ": it belongs to another user and its permissions (-rw-r--r--) do not let you write it; write elsewhere"
	var got string
	if owner := os.Geteuid(); owner != 0 {
		got = fmt.Sprint(checkWritableBy(path, owner+1000, os.Getegid()+1000, nil))
	} else {
		got = asuser.Run(t, dir, "TestWriteAtomicOthersFile", "CRONUS_TEST_OTHERS="+path)
	}
	if b, _ := os.ReadFile(path); got != want || string(b) != "kept" {
		t.Errorf("got %q, file %q; want %q and the file kept", got, b, want)
	}
}

// A written file had the mode 0644 whatever the umask, and a file it
// replaced lost its own: a model made private (chmod 600) became readable
// by all. A new file has 0666 less the umask, as the shell's `>` makes
// it, and a replaced file keeps its permissions, as cp and `>` keep them.
func TestWriteAtomicMode(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	for _, c := range []struct {
		umask int
		want  os.FileMode
	}{{0o077, 0o600}, {0o002, 0o664}, {0o022, 0o644}} {
		syscall.Umask(c.umask)
		path := filepath.Join(dir, fmt.Sprintf("new-%03o.txt", c.umask))
		err := WriteAtomic(path, writeString("x"))
		syscall.Umask(0o022)
		if err != nil {
			t.Fatal(err)
		}
		if st, err := os.Stat(path); err != nil || st.Mode().Perm() != c.want {
			t.Errorf("umask %03o: new file's mode %v (%v), want %v", c.umask, st.Mode().Perm(), err, c.want)
		}
	}
	for _, perm := range []os.FileMode{0o600, 0o640, 0o664, 0o444} {
		path := filepath.Join(dir, fmt.Sprintf("old-%03o.txt", perm))
		if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, perm); err != nil {
			t.Fatal(err)
		}
		if perm&0o200 == 0 && os.Geteuid() != 0 {
			continue // refused (TestWriteAtomicReadOnly); root may write it
		}
		if err := WriteAtomic(path, writeString("new")); err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(path)
		if b, _ := os.ReadFile(path); err != nil || string(b) != "new" || st.Mode().Perm() != perm {
			t.Errorf("replaced file %q, mode %v (%v), want %v", b, st.Mode().Perm(), err, perm)
		}
	}
}

// Links that go round have no target: the rename replaced one of them
// with the file written, where `>` and cp refuse.
func TestWriteAtomicLinkLoop(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.Symlink("b", a); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	os.Symlink("a", b)
	err := WriteAtomic(a, writeString("x"))
	if err == nil || !strings.Contains(err.Error(), "cannot write "+a+": its symbolic links go round") {
		t.Errorf("error %v", err)
	}
	for _, p := range []string{a, b} {
		if fi, err := os.Lstat(p); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a link (%v)", p, err)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("left behind: %v", ents)
	}
}

// An immutable file (chattr +i) cannot be replaced, whatever its
// permissions and even by root: the rename failed after all the work.
// CheckWritable, which the commands run before it, refuses it.
func TestCheckWritableImmutable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.json")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("chattr", "+i", path).CombinedOutput(); err != nil {
		t.Skipf("chattr +i (root, and a file system that has it): %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("chattr", "-i", path).Run() })
	const want = ": the file may not be changed, whatever its permissions (immutable or append-only"
	if err := CheckWritable(path); err == nil || !strings.Contains(err.Error(), "cannot write "+path+want) {
		t.Errorf("CheckWritable: %v", err)
	}
	if err := WriteAtomic(path, writeString("new")); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("WriteAtomic: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("file %q", b)
	}
}
