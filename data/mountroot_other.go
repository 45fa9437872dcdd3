//go:build !linux

package data

// isMountRoot reports whether path is the root of a mount; only Linux
// tells (see mountroot_linux.go), and elsewhere it is false.
func isMountRoot(path string) bool { return false }
