//go:build unix

package data

import (
	"io/fs"
	"syscall"
)

// FileOwner is the user and group that own the file of st; ok is false
// where the system does not say (not a Unix system).
func FileOwner(st fs.FileInfo) (uid, gid int, ok bool) { return fileOwner(st) }

// fileOwner is the user and group that own the file of st.
func fileOwner(st fs.FileInfo) (uid, gid int, ok bool) {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return int(sys.Uid), int(sys.Gid), true
}
