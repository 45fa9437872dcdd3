package data

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteAtomic writes a file through write, into a temporary file beside path
// that is renamed onto path only when everything succeeded; on any error the
// temporary file is removed and path is left as it was.
//
// A path that is a symbolic link has its target replaced, and the link
// stays. A path that exists and is not a regular file (/dev/null, /dev/stdout,
// a named pipe) is written to directly: renaming onto it would replace the
// device with a file.
func WriteAtomic(path string, write func(w *bufio.Writer) error) (err error) {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		if st.IsDir() {
			return fmt.Errorf("%s is a directory", path)
		}
		return writeDirect(path, write)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // not the temporary file's name: the user never gave it
		}
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	w := bufio.NewWriterSize(f, 1<<16)
	if err = write(w); err != nil {
		return err
	}
	if err = w.Flush(); err != nil {
		return err
	}
	// CreateTemp makes the file private; results are ordinary files.
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// writeDirect writes to a path that is not a regular file.
func writeDirect(path string, write func(w *bufio.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<16)
	err = write(w)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
