package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/cronus-ltr/cronus/data"
)

// checkOutputs is run before any work: each output path (empty ones are
// not given) must be writable, in a directory that exists, not a directory
// itself, and neither one of the inputs nor another output; otherwise the
// command would fail only after the work, or overwrite its own input (a
// model written over the training data). Built-in data names are not files.
//
// An output may be the standard output (/dev/stdout, /dev/fd/1), which then
// holds that output alone: *stdout, where the command prints its report,
// becomes stderr (the report would end up inside the output: a "wrote …"
// line after the documents of `gen --out /dev/stdout`), and asJSON, a
// report for standard output, is refused.
func checkOutputs(stdout *io.Writer, stderr io.Writer, asJSON bool, inputs []string, outputs ...string) error {
	if err := checkInputsOnce(inputs); err != nil {
		return err
	}
	var seen []string
	for _, out := range outputs {
		if out == "" {
			continue
		}
		if isStdout(out) {
			if asJSON {
				return usageError{fmt.Sprintf("--json prints the report on standard output, and %s is the standard output: write that output to a file, or leave --json out (the report then goes to standard error)", out)}
			}
			*stdout = stderr
		}
		if err := data.CheckLinkLoop(out); err != nil {
			return err
		}
		// What is written is the link's target, where a link is given
		// (a dangling one's too): its directory must take the file.
		target := out
		if fd, ok := data.Descriptor(out); !ok {
			target = data.LinkTarget(out)
		} else if err := data.CheckDescriptor(fd, out); err != nil {
			return err
		}
		dir := filepath.Dir(target)
		if st, err := os.Stat(dir); err != nil {
			return fmt.Errorf("%s: the directory %s does not exist", out, dir)
		} else if !st.IsDir() {
			return fmt.Errorf("%s: %s is a file, not a directory", out, dir)
		}
		st, err := os.Stat(out)
		if err == nil && st.IsDir() {
			return fmt.Errorf("%s is a directory; give a file name", out)
		}
		for _, in := range inputs {
			if in != "" && !strings.HasPrefix(in, "builtin:") && samePath(in, out) {
				return usageError{fmt.Sprintf("%s is both an input and an output; write the output elsewhere", out)}
			}
		}
		for _, o := range seen {
			// A device such as /dev/null takes any number of outputs
			// (the standard output does not: they would mix).
			if _, fd := data.Descriptor(out); samePath(o, out) && (fd || err != nil || st.Mode()&fs.ModeCharDevice == 0) {
				return usageError{fmt.Sprintf("%s is given as two outputs", out)}
			}
		}
		seen = append(seen, out)
		if _, fd := data.Descriptor(out); (err != nil || st.Mode().IsRegular()) && !fd {
			// Written through a temporary file beside it (a device such as
			// /dev/null, or a descriptor such as /dev/stdout, is written to
			// directly): the directory must take one.
			f, err := os.CreateTemp(dir, ".cronus-check-*")
			if err != nil {
				var pe *fs.PathError
				if errors.As(err, &pe) {
					err = pe.Err
				}
				return fmt.Errorf("%s: cannot write in %s: %v", out, dir, err)
			}
			f.Close()
			os.Remove(f.Name())
			if err := checkReplaceable(out, target, os.Geteuid()); err != nil {
				return err
			}
			if err := data.CheckWritable(target); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkInputsOnce refuses two inputs that name one stream: a pipe
// (/dev/stdin, <(zcat …), a named FIFO) or another file that is not
// regular. The first read takes all its text, and the second then failed
// with "empty file", or waited for ever on a FIFO nobody opens again.
// Built-in data names are not files.
func checkInputsOnce(inputs []string) error {
	type input struct {
		path string
		st   fs.FileInfo
	}
	var seen []input
	for _, in := range inputs {
		if in == "" || strings.HasPrefix(in, "builtin:") {
			continue
		}
		st, err := os.Stat(in)
		if err != nil || st.Mode().IsRegular() || st.IsDir() {
			continue
		}
		for _, s := range seen {
			if !os.SameFile(s.st, st) {
				continue
			}
			what := in + " is given as two inputs"
			if s.path != in {
				what = s.path + " and " + in + " are the same input"
			}
			return usageError{what + ", a stream (a pipe or a device) that gives its text once: save it to a file and give that"}
		}
		seen = append(seen, input{in, st})
	}
	return nil
}

// isStdout reports whether path names the standard output.
func isStdout(path string) bool {
	fd, ok := data.Descriptor(path)
	return ok && fd == 1
}

// samePath reports whether a and b name the same file: the same
// descriptor of the process, the same file on disk, or, when either does
// not exist yet, the same name in the same directory (of a link's target).
func samePath(a, b string) bool {
	fa, okA := data.Descriptor(a)
	fb, okB := data.Descriptor(b)
	if okA && okB && fa == fb { // "-" and /dev/stdout
		return true
	}
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(sa, sb)
	}
	ta, tb := data.LinkTarget(a), data.LinkTarget(b)
	if filepath.Base(ta) != filepath.Base(tb) {
		return false
	}
	// The directories are compared as files: a path through a link to a
	// directory (here -> ., or a working directory reached through one)
	// names the same file as the plain path, which the cleaned absolute
	// paths did not tell (--out c.json --curve here/c.json both passed,
	// and the curve was renamed over the cascade).
	da, errA := os.Stat(filepath.Dir(ta))
	db, errB := os.Stat(filepath.Dir(tb))
	if errA == nil && errB == nil {
		return os.SameFile(da, db)
	}
	absA, errA := filepath.Abs(ta)
	absB, errB := filepath.Abs(tb)
	return errA == nil && errB == nil && absA == absB
}

// checkReplaceable refuses an existing file target that the user euid may
// not replace: in a directory with the sticky bit (/tmp), only the file's
// owner, the directory's or root may rename onto a file, and the write of
// the temporary file beside it, which checkOutputs tries, succeeds. The
// rename then failed after all the work (a training of hours).
func checkReplaceable(out, target string, euid int) error {
	st, err := os.Stat(target)
	if err != nil || !st.Mode().IsRegular() {
		return nil
	}
	dir := filepath.Dir(target)
	dst, err := os.Stat(dir)
	if err != nil || dst.Mode()&fs.ModeSticky == 0 {
		return nil
	}
	fileUID, _, ok1 := data.FileOwner(st)
	dirUID, _, ok2 := data.FileOwner(dst)
	if !ok1 || !ok2 || euid == 0 || fileUID == euid || dirUID == euid {
		return nil
	}
	return fmt.Errorf("%s: cannot replace it: it belongs to another user, in %s, a directory with the sticky bit", out, dir)
}
