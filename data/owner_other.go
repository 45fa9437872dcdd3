//go:build !unix

package data

import "io/fs"

// FileOwner is not known on this system.
func FileOwner(st fs.FileInfo) (uid, gid int, ok bool) { return fileOwner(st) }

// fileOwner is not known on this system.
func fileOwner(fs.FileInfo) (uid, gid int, ok bool) { return 0, 0, false }
