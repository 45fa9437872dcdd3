package data

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// An output naming a descriptor that is closed, or open for reading only,
// failed only when written, after the work; it is refused up front.
func TestCheckDescriptor(t *testing.T) {
	closed := 1000
	if _, err := unix.FcntlInt(uintptr(closed), unix.F_GETFL, 0); err == nil {
		t.Skip("descriptor 1000 is open")
	}
	if err := CheckDescriptor(closed, "/dev/fd/1000"); err == nil || !strings.Contains(err.Error(), "cannot write /dev/fd/1000: descriptor 1000 is not open") {
		t.Errorf("closed: %v", err)
	}
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	name := "/dev/fd/" + strconv.Itoa(int(r.Fd()))
	if err := CheckDescriptor(int(r.Fd()), name); err == nil || !strings.Contains(err.Error(), "is open for reading only") {
		t.Errorf("read-only: %v", err)
	}
	w, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := CheckDescriptor(int(w.Fd()), "/dev/fd/"+strconv.Itoa(int(w.Fd()))); err != nil {
		t.Errorf("open for writing: %v", err)
	}
	// An eventfd, as the Go runtime's poller opens: no file type.
	if efd, err := unix.Eventfd(0, unix.EFD_CLOEXEC); err == nil {
		defer unix.Close(efd)
		if err := CheckDescriptor(efd, "/dev/fd/"+strconv.Itoa(efd)); err == nil || !strings.Contains(err.Error(), "is not one the command was given") {
			t.Errorf("eventfd: %v", err)
		}
	}
}
