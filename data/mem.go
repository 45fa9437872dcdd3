package data

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
)

// availableMemory returns the memory this machine can give a new data set
// (MemAvailable from /proc/meminfo), or 0 when it cannot tell.
func availableMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		line := s.Bytes()
		if rest, ok := bytes.CutPrefix(line, []byte("MemAvailable:")); ok {
			fs := bytes.Fields(rest)
			if len(fs) >= 1 {
				if kb, err := strconv.ParseInt(string(fs[0]), 10, 64); err == nil {
					return kb << 10
				}
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
