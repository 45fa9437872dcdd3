//go:build unix

package data

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// CheckDescriptor refuses an output that names the process's descriptor
// fd (path, as Descriptor read it) when the descriptor cannot take it: not
// open (`--out /dev/fd/7` without the shell's `7>FILE`), open for reading
// only (`--out /dev/stdin`), or a descriptor of the Go runtime's own (an
// eventfd or epoll instance, which have no file type). The write failed
// only after all the work, a training of hours ("write /dev/fd/7: bad
// file descriptor"), or wrote into the runtime's eventfd.
func CheckDescriptor(fd int, path string) error {
	flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	if err != nil {
		return fmt.Errorf("cannot write %s: descriptor %d is not open (open it for writing in the shell, as %d>FILE)", path, fd, fd)
	}
	if mode := flags & unix.O_ACCMODE; mode != unix.O_WRONLY && mode != unix.O_RDWR {
		return fmt.Errorf("cannot write %s: descriptor %d is open for reading only", path, fd)
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err == nil && st.Mode&unix.S_IFMT == 0 {
		return fmt.Errorf("cannot write %s: descriptor %d is not one the command was given (open it for writing in the shell, as %d>FILE)", path, fd, fd)
	}
	return nil
}
