package data

import "syscall"

// inMemoryFS reports whether dir is on a tmpfs or ramfs, whose files take
// memory.
func inMemoryFS(dir string) bool {
	var st syscall.Statfs_t
	if syscall.Statfs(dir, &st) != nil {
		return false
	}
	// The magic numbers are 32 bits; Type is an int64 or (386, arm) an
	// int32, which holds ramfs's as a negative number.
	const tmpfsMagic, ramfsMagic uint32 = 0x01021994, 0x858458f6
	t := uint32(st.Type)
	return t == tmpfsMagic || t == ramfsMagic
}
