package data

import "golang.org/x/sys/unix"

// isMountRoot reports whether path (followed through its links) is the
// root of a mount: a file bind-mounted onto another (`mount --bind a b`,
// a container's /etc/hosts). Renaming onto it fails (EBUSY, "device or
// resource busy"), so the atomic write cannot replace it. False when it
// cannot tell (a kernel before Linux 5.8 does not say).
func isMountRoot(path string) bool {
	var st unix.Statx_t
	if unix.Statx(unix.AT_FDCWD, path, 0, unix.STATX_BASIC_STATS, &st) != nil {
		return false
	}
	return st.Attributes_mask&unix.STATX_ATTR_MOUNT_ROOT != 0 && st.Attributes&unix.STATX_ATTR_MOUNT_ROOT != 0
}
