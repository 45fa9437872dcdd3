package data

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// WriteAtomic writes a file through write, into a temporary file beside path
// that is renamed onto path only when everything succeeded; on any error the
// temporary file is removed and path is left as it was.
//
// A path that is a symbolic link has its target replaced, and the link
// stays. A path that exists and is not a regular file (/dev/null, a named
// pipe) is written to directly: renaming onto it would replace the device
// with a file. A path that names one of the process's descriptors
// (/dev/stdout, /dev/fd/N, "-": see Descriptor) is written through it, as the
// shell's redirection set it up (`>> log` appends).
func WriteAtomic(path string, write func(w *bufio.Writer) error) error {
	return WriteAtomicAll([]Output{{path, write}})
}

// gzipByName is write, gzip-compressed (gzip.BestSpeed, no name or time
// in the header, so the bytes depend on the content alone) when path ends
// in ".gz": a model written as m.json.gz was plain text under that name.
func gzipByName(path string, write func(w *bufio.Writer) error) func(w *bufio.Writer) error {
	if !strings.HasSuffix(path, ".gz") {
		return write
	}
	return func(w *bufio.Writer) error {
		gz, _ := gzip.NewWriterLevel(w, gzip.BestSpeed) // the level is valid
		inner := bufio.NewWriterSize(gz, 1<<16)
		if err := write(inner); err != nil {
			return err
		}
		if err := inner.Flush(); err != nil {
			return err
		}
		return gz.Close()
	}
}

// LinkTarget is the file that writing path writes: path with its symbolic
// links followed, the last one too when its target does not exist yet (a
// dangling link: filepath.EvalSymlinks fails there, and the link itself
// was replaced by a file); path itself when it is no link, or the links
// go round.
func LinkTarget(path string) string {
	for range 40 { // as Linux's limit on links followed
		if real, err := filepath.EvalSymlinks(path); err == nil {
			return real
		}
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return path
		}
		target, err := os.Readlink(path)
		if err != nil {
			return path
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(path), target)
		}
		path = target
	}
	return path
}

// CheckLinkLoop refuses a path whose symbolic links go round (a -> b,
// b -> a): it has no target to replace, and the rename replaced one of the
// links with the file written, where the shell's `>` and cp refuse ("too
// many levels of symbolic links").
func CheckLinkLoop(path string) error {
	if _, err := os.Stat(path); errors.Is(err, syscall.ELOOP) {
		return fmt.Errorf("cannot write %s: its symbolic links go round (too many levels of symbolic links)", path)
	}
	return nil
}

// Output is one file of WriteAtomicAll: its path and what writes it.
type Output struct {
	Path  string
	Write func(w *bufio.Writer) error
}

// BytesOutput is the Output that writes b to path.
func BytesOutput(path string, b []byte) Output {
	return Output{Path: path, Write: func(w *bufio.Writer) error {
		_, err := w.Write(b)
		return err
	}}
}

// EncodedOutput is the Output that writes to path what encode returns. An
// error of encode comes back prefixed with path, but for ctx's own, which
// comes back as it is (an interrupt names no file).
func EncodedOutput(ctx context.Context, path string, encode func(context.Context) ([]byte, error)) (Output, error) {
	b, err := encode(ctx)
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return Output{}, err
		}
		return Output{}, fmt.Errorf("%s: %w", path, err)
	}
	return BytesOutput(path, b), nil
}

// WriteAtomicAll writes several files as WriteAtomic writes one, and all
// or none of them: every regular file is written to its temporary file
// first, and only when all of them were written are they renamed onto
// their paths; on any error every temporary file is removed and no path
// changes. Paths that are descriptors or other files that are not regular
// are written, in order, after the temporary files and before the renames
// (they cannot be taken back: a failure there leaves the regular files as
// they were). The renames are within each file's directory; should one
// fail, the files renamed before it stay replaced.
func WriteAtomicAll(outs []Output) error {
	return WriteAtomicAllContext(context.Background(), outs)
}

// WriteAtomicAllContext is WriteAtomicAll, given up when ctx is done: an
// output that is a FIFO waits for its reader to open it, and then to read,
// and an interrupted command waited with it. Once ctx is done no file is
// renamed onto its path (the outputs that are not regular files, written
// before, cannot be taken back).
func WriteAtomicAllContext(ctx context.Context, outs []Output) (err error) {
	var staged []stagedFile
	defer func() {
		if err != nil {
			for _, st := range staged {
				os.Remove(st.tmp)
			}
		}
	}()
	var direct []func() error // the outputs that are not regular files
	for _, o := range outs {
		o.Write = gzipByName(o.Path, o.Write)
		if fd, ok := Descriptor(o.Path); ok {
			direct = append(direct, func() error { return writeDescriptor(ctx, fd, o.Path, o.Write) })
			continue
		}
		if err := CheckLinkLoop(o.Path); err != nil {
			return err
		}
		path := LinkTarget(o.Path)
		if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
			if st.IsDir() {
				return fmt.Errorf("%s is a directory", path)
			}
			direct = append(direct, func() error { return writeDirect(ctx, path, o.Write) })
			continue
		}
		if err := CheckWritable(path); err != nil {
			return err
		}
		tmp, err := stage(ctx, path, o.Write)
		if err != nil {
			return err
		}
		staged = append(staged, stagedFile{path, tmp})
	}
	for _, write := range direct {
		if err = ctx.Err(); err != nil {
			return err
		}
		if err = write(); err != nil {
			return err
		}
	}
	if err = ctx.Err(); err != nil {
		return err
	}
	for i, st := range staged {
		if err = os.Rename(st.tmp, st.path); err != nil {
			staged = staged[i:] // the renamed ones are in place
			// Not "rename out/.m.json.tmp3253113428 out/m.json: …": the
			// temporary file is the user's no more than in stage.
			var le *os.LinkError
			if errors.As(err, &le) {
				err = le.Err
			}
			return fmt.Errorf("cannot write %s: %w", st.path, err)
		}
	}
	return nil
}

// CheckWritable refuses an existing regular file at path that the process
// has no permission to write: a file made read-only (chmod a-w) to keep it.
// Renaming onto it needs only the directory's permission, so the atomic
// write replaced such a file where cp, the shell's redirection and
// XGBoost's and LightGBM's save_model refuse. Root may write any file, as
// with those tools. A path that does not exist yet, or cannot be read, is
// not refused here (the write itself says what is wrong).
//
// A file that may not be changed whatever the permissions (chattr +i or
// +a: immutable or append-only) is refused too: the rename onto it fails
// (EPERM), and did so after all the work. It is found by opening the file
// for writing, which changes nothing (no O_TRUNC). So is a file that is
// a mount point (a file bind-mounted onto it): the rename onto it fails
// (EBUSY, "device or resource busy"), and did so after all the work.
func CheckWritable(path string) error {
	gids, _ := os.Getgroups()
	if err := checkWritableBy(path, os.Geteuid(), os.Getegid(), gids); err != nil {
		return err
	}
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return nil
	}
	if mountRoot(path) {
		return fmt.Errorf("cannot write %s: a file is mounted on it (mount --bind), which a rename cannot replace; write elsewhere, or unmount it", path)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err == nil {
		f.Close()
		return nil
	}
	if errors.Is(err, fs.ErrPermission) && !errors.Is(err, syscall.EACCES) {
		return fmt.Errorf("cannot write %s: the file may not be changed, whatever its permissions (immutable or append-only: lsattr shows it, chattr -i -a lifts it); write elsewhere", path)
	}
	return nil
}

// mountRoot is isMountRoot (a variable for the tests, which cannot mount
// a file without root).
var mountRoot = isMountRoot

// checkWritableBy is CheckWritable for the user euid, in the group egid
// and the supplementary groups gids. Another user's file is not one the
// user made read-only: chmod u+w is its owner's to do.
func checkWritableBy(path string, euid, egid int, gids []int) error {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || writableBy(st, euid, egid, gids) {
		return nil
	}
	if uid, _, ok := fileOwner(st); ok && uid != euid {
		return fmt.Errorf("cannot write %s: it belongs to another user and its permissions (%v) do not let you write it; write elsewhere", path, st.Mode().Perm())
	}
	return fmt.Errorf("cannot write %s: the file is read-only (its permissions are %v); make it writable (chmod u+w) or write elsewhere", path, st.Mode().Perm())
}

// writableBy reports whether the user euid, in the group egid and the
// supplementary groups gids, may write the file of st by its permission
// bits: root always; the owner by the owner's bit; a member of the file's
// group by the group's; anyone else by the others'. A file whose owner
// is unknown (no Unix stat) counts as writable.
func writableBy(st fs.FileInfo, euid, egid int, gids []int) bool {
	if euid == 0 {
		return true
	}
	uid, gid, ok := fileOwner(st)
	if !ok {
		return true
	}
	perm := st.Mode().Perm()
	if uid == euid {
		return perm&0o200 != 0
	}
	if gid == egid || slices.Contains(gids, gid) {
		return perm&0o020 != 0
	}
	return perm&0o002 != 0
}

// stagedFile is a file written to its temporary name, waiting to be
// renamed onto path.
type stagedFile struct{ path, tmp string }

// stage writes a regular file's content through write into a temporary
// file beside path, synced and closed, and returns the temporary file's
// name; on an error, or when ctx is done (ctx's error), the temporary
// file is removed.
func stage(ctx context.Context, path string, write func(w *bufio.Writer) error) (_ string, err error) {
	f, err := createTemp(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // not the temporary file's name: the user never gave it
		}
		return "", fmt.Errorf("cannot write %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
			// A failed write, sync or close names the temporary file
			// ("write out/.m.json.tmp3902582882: no space left on
			// device"), which the user never gave and which is gone:
			// name path instead. The error is this call's own.
			var pe *fs.PathError
			if errors.As(err, &pe) && pe.Path == tmp {
				pe.Path = path
			}
		}
	}()
	w := bufio.NewWriterSize(ctxWriter{ctx, f}, 1<<16)
	if err = write(w); err != nil {
		return "", err
	}
	if err = w.Flush(); err != nil {
		return "", err
	}
	if err = ctx.Err(); err != nil { // not synced for nothing
		return "", err
	}
	// The file replaced keeps its permissions, as cp, the shell's `>` and
	// XGBoost's and LightGBM's save_model keep them (they write into the
	// file): a model made private with chmod 600 became 0644, readable by
	// all, after the rename. A new file has 0666 less the umask, as
	// createTemp made it (0644 whatever the umask, before: 0600 wanted
	// under umask 077, 0664 under 002).
	if st, serr := os.Stat(path); serr == nil && st.Mode().IsRegular() {
		if err = f.Chmod(st.Mode().Perm()); err != nil {
			return "", err
		}
	}
	if err = f.Sync(); err != nil {
		return "", err
	}
	if err = f.Close(); err != nil {
		return "", err
	}
	return tmp, nil
}

// createTemp creates a new file beside path, named ".NAME.tmp" and a
// random number, with the mode 0666 less the umask, as the shell's `>`
// creates a file (os.CreateTemp makes it 0600, whatever the umask).
func createTemp(path string) (*os.File, error) {
	prefix := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp")
	for try := 0; ; try++ {
		name := prefix + strconv.FormatUint(uint64(rand.Uint32()), 10)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) && try < 10000 {
			continue
		}
		return f, err
	}
}

// writeDirect writes to a path that is not a regular file, or stops when
// ctx is done: a FIFO waits for a reader to open it, and then to read
// (the deadline interrupts a write that Go's poller holds, as to a pipe).
func writeDirect(ctx context.Context, path string, write func(w *bufio.Writer) error) error {
	f, err := openContext(ctx, func() (*os.File, error) { return os.OpenFile(path, os.O_WRONLY, 0) })
	if err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() { f.SetWriteDeadline(time.Now()) })
	defer stop()
	w := bufio.NewWriterSize(ctxWriter{ctx, f}, 1<<16)
	err = write(w)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// ctxChunk is the most ctxWriter writes at a time.
const ctxChunk = 1 << 20

// ctxWriter writes to w until ctx is done, then fails with ctx's error. It
// writes at most ctxChunk bytes at a time and looks at ctx before each: a
// model encoded whole reaches it in one Write of 100 MB, which gzip took
// seconds to compress and an interrupt waited for. Under the gzip writer
// of gzipByName it also stops the compression, which gives up at its
// writer's first error.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (n int, err error) {
	for len(p) > 0 {
		if err := c.ctx.Err(); err != nil {
			return n, err
		}
		k, err := c.w.Write(p[:min(len(p), ctxChunk)])
		n += k
		if err != nil {
			return n, err
		}
		p = p[k:]
	}
	return n, nil
}

// Descriptor reports whether path names one of the process's open file
// descriptors, and which: /dev/stdin, /dev/stdout, /dev/stderr, /dev/fd/N,
// /proc/self/fd/N, /proc/PID/fd/N with the process's PID, or a symbolic link
// to one of those. Such a path is not a file to replace: on Linux it
// resolves to whatever file the descriptor has open (`> out.txt` makes
// /dev/stdout resolve to out.txt), and renaming onto that file would drop
// what the shell wrote before and send what it writes after to the
// replaced file. "-" is the standard output, as for most tools that
// write files (a file of that name is "./-").
func Descriptor(path string) (int, bool) {
	if path == "-" {
		return 1, true
	}
	path, err := filepath.Abs(path)
	if err != nil {
		return 0, false
	}
	for range 40 { // as many links as Linux follows
		if fd, ok := descriptorName(path); ok {
			return fd, true
		}
		target, err := os.Readlink(path)
		if err != nil {
			return 0, false
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(path), target)
		}
		path = filepath.Clean(target)
	}
	return 0, false
}

// descriptorName is Descriptor for the name path alone, which is clean and
// absolute.
func descriptorName(path string) (int, bool) {
	switch path {
	case "/dev/stdin":
		return 0, true
	case "/dev/stdout":
		return 1, true
	case "/dev/stderr":
		return 2, true
	}
	dir, name := filepath.Split(path)
	switch dir {
	case "/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", fmt.Sprintf("/proc/%d/fd/", os.Getpid()):
	default:
		return 0, false
	}
	fd, err := strconv.Atoi(name)
	if err != nil || fd < 0 || strconv.Itoa(fd) != name {
		return 0, false
	}
	return fd, true
}

// descriptors holds the files made for the descriptors written through,
// for the life of the process: an *os.File closes its descriptor when it
// is collected.
var descriptors struct {
	sync.Mutex
	files map[int]*os.File
}

// writeDescriptor writes through the process's descriptor fd, named path,
// which stays open, and stops when ctx is done (what was written stays).
func writeDescriptor(ctx context.Context, fd int, path string, write func(w *bufio.Writer) error) error {
	descriptors.Lock()
	f := descriptors.files[fd]
	if f == nil {
		f = os.NewFile(uintptr(fd), path)
		if f == nil {
			descriptors.Unlock()
			return fmt.Errorf("cannot write %s: not an open descriptor", path)
		}
		if descriptors.files == nil {
			descriptors.files = map[int]*os.File{}
		}
		descriptors.files[fd] = f
	}
	descriptors.Unlock()
	w := bufio.NewWriterSize(CancelWriter(ctx, f, ctxChunk), 1<<16)
	if err := write(w); err != nil {
		return err
	}
	return w.Flush()
}

// CancelWriter returns a writer to w that writes at most chunk bytes at a
// time and fails with ctx's error once ctx is done, also while a write to
// w is blocked: when w is an *os.File, each chunk is written by a
// goroutine, and Write returns ctx's error as soon as ctx is done, leaving
// that goroutine in its write. A descriptor such as the standard output
// that is a pipe whose reader does not read (`cronus predict … | less`,
// not scrolled) blocks a write in the kernel, where no deadline reaches
// it (the descriptor is not Go's to make non-blocking), and an interrupt
// waited for the reader or a second ctrl+c; the command now ends, and the
// process exits with the goroutine still blocked. The goroutine writes a
// copy of its chunk, so the caller may reuse p. Other writers (a buffer
// in memory) are written in the caller's goroutine, looking at ctx
// before each chunk.
func CancelWriter(ctx context.Context, w io.Writer, chunk int) io.Writer {
	if _, ok := w.(*os.File); !ok {
		return chunkWriter{ctx, w, chunk}
	}
	return cancelWriter{ctx, w, chunk}
}

// chunkWriter is ctxWriter with a chunk of its own.
type chunkWriter struct {
	ctx   context.Context
	w     io.Writer
	chunk int
}

func (c chunkWriter) Write(p []byte) (n int, err error) {
	for len(p) > 0 {
		if err := c.ctx.Err(); err != nil {
			return n, err
		}
		k, err := c.w.Write(p[:min(len(p), c.chunk)])
		n += k
		if err != nil {
			return n, err
		}
		p = p[k:]
	}
	return n, nil
}

// cancelWriter is CancelWriter's writer for a file.
type cancelWriter struct {
	ctx   context.Context
	w     io.Writer
	chunk int
}

func (c cancelWriter) Write(p []byte) (n int, err error) {
	type result struct {
		n   int
		err error
	}
	done := make(chan result, 1)
	for len(p) > 0 {
		if err := c.ctx.Err(); err != nil {
			return n, err
		}
		b := slices.Clone(p[:min(len(p), c.chunk)])
		go func() {
			k, err := c.w.Write(b)
			done <- result{k, err}
		}()
		var r result
		select {
		case r = <-done:
		case <-c.ctx.Done():
			return n, c.ctx.Err()
		}
		n += r.n
		if r.err != nil {
			return n, r.err
		}
		p = p[r.n:]
	}
	return n, nil
}
