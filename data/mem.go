package data

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// availableMemory returns the memory this machine can give a new data set:
// MemAvailable from /proc/meminfo, or less when the process's memory
// cgroup (a container's limit) leaves less; 0 when it cannot tell.
func availableMemory() int64 { return availableMemoryIn("/") }

// AvailableMemory is what this machine can give new work, in bytes:
// MemAvailable from /proc/meminfo, or less under a memory cgroup's limit;
// 0 when it cannot tell (not Linux).
func AvailableMemory() int64 { return availableMemory() }

// SizeString formats a size in bytes as "19.0 GiB" ("512 MiB" below 1 GiB,
// "12 KiB" below 1 MiB), rounding up below 1 GiB.
func SizeString(b int64) string {
	if b < 1<<20 {
		return fmt.Sprintf("%.0f KiB", math.Ceil(float64(b)/(1<<10)))
	}
	if b < 1<<30 {
		return fmt.Sprintf("%.0f MiB", math.Ceil(float64(b)/(1<<20)))
	}
	return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
}

// availableMemoryIn is availableMemory with /proc and /sys read under root
// (a test's directory).
func availableMemoryIn(root string) int64 {
	avail := meminfoAvailable(filepath.Join(root, "proc/meminfo"))
	if c := cgroupAvailable(root); c >= 0 && (avail == 0 || c < avail) {
		avail = max(c, 1) // 0 would mean "cannot tell"
	}
	return avail
}

// meminfoAvailable is MemAvailable of a meminfo file, in bytes; 0 when
// it cannot tell.
func meminfoAvailable(path string) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	for line := range bytes.Lines(b) {
		if rest, ok := bytes.CutPrefix(line, []byte("MemAvailable:")); ok {
			if fs := bytes.Fields(rest); len(fs) >= 1 {
				if kb, err := strconv.ParseInt(string(fs[0]), 10, 64); err == nil {
					return kb << 10
				}
			}
		}
	}
	return 0
}

// cgroupAvailable is what the memory limits of the process's cgroup and
// of those above it leave (each limit less its cgroup's usage that cannot
// be reclaimed: the usage less the inactive file cache, as kubelet's
// working set; the least of them), or -1 when no limit is set or it cannot
// tell. A cgroup v2 limit is memory.max, in the directory
// /proc/self/cgroup's "0::PATH" names; v1's is memory.limit_in_bytes in the
// memory hierarchy's. The limit may be an ancestor's alone (Slurm's job
// cgroup, the process in a task cgroup below it whose memory.max is
// "max"). Inside a container the path may not be visible (the
// container's cgroup is the root of its mount): then the mount's root is
// read.
func cgroupAvailable(root string) int64 {
	b, err := os.ReadFile(filepath.Join(root, "proc/self/cgroup"))
	if err != nil {
		return -1
	}
	for line := range bytes.Lines(b) {
		f := strings.SplitN(strings.TrimSpace(string(line)), ":", 3)
		if len(f) != 3 {
			continue
		}
		var base, limitF, usageF, inactiveKey string
		switch {
		case f[0] == "0" && f[1] == "":
			base = filepath.Join(root, "sys/fs/cgroup")
			limitF, usageF, inactiveKey = "memory.max", "memory.current", "inactive_file"
		case slices.Contains(strings.Split(f[1], ","), "memory"):
			base = filepath.Join(root, "sys/fs/cgroup/memory")
			limitF, usageF, inactiveKey = "memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file"
		default:
			continue
		}
		// From the process's cgroup up to the mount's root (the paths
		// not mounted here are not found, and skipped).
		avail, found := int64(-1), false
		for dir := filepath.Join(base, f[2]); ; dir = filepath.Dir(dir) {
			limit, ok := readBytesValue(filepath.Join(dir, limitF))
			found = found || ok
			if ok && limit < 1<<60 { // not "max", nor v1's page-rounded int64 maximum
				if usage, ok := readBytesValue(filepath.Join(dir, usageF)); ok {
					usage -= statValue(filepath.Join(dir, "memory.stat"), inactiveKey)
					if a := max(limit-max(usage, 0), 0); avail < 0 || a < avail {
						avail = a
					}
				}
			}
			if len(dir) <= len(base) {
				break
			}
		}
		if found { // else another line's hierarchy may hold the limit
			return avail
		}
	}
	return -1
}

// readBytesValue reads a cgroup file of one number of bytes; "max" is
// 1<<62.
func readBytesValue(path string) (int64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	t := strings.TrimSpace(string(b))
	if t == "max" {
		return 1 << 62, true
	}
	v, err := strconv.ParseInt(t, 10, 64)
	return v, err == nil && v >= 0
}

// statValue is the value of key in a memory.stat file, 0 when absent.
func statValue(path, key string) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	for line := range bytes.Lines(b) {
		if k, v, ok := strings.Cut(strings.TrimSpace(string(line)), " "); ok && k == key {
			if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
				return n
			}
		}
	}
	return 0
}

// byteSize formats a size in bytes with binary units: "512 B", "3.5 MiB".
func byteSize(b int64) string {
	const unit = 1024
	if b < unit {
		return fmt.Sprintf("%d B", b)
	}
	div, exp := int64(unit), 0
	for n := b / unit; n >= unit && exp < 5; n /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(b)/float64(div), "KMGTPE"[exp])
}
