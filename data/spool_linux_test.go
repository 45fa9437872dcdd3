package data

import (
	"os"
	"strings"
	"testing"
)

// inMemoryFS tells a tmpfs (/dev/shm, where Linux mounts one) from the
// file system of /proc/self/mounts' "/" entry when that is not one.
func TestInMemoryFS(t *testing.T) {
	mounts, err := os.ReadFile("/proc/self/mounts")
	if err != nil {
		t.Skip(err)
	}
	fsOf := map[string]string{}
	for _, l := range strings.Split(string(mounts), "\n") {
		if f := strings.Fields(l); len(f) >= 3 {
			fsOf[f[1]] = f[2]
		}
	}
	for _, dir := range []string{"/dev/shm", "/"} {
		typ, ok := fsOf[dir]
		if !ok {
			continue
		}
		if want := typ == "tmpfs" || typ == "ramfs"; inMemoryFS(dir) != want {
			t.Errorf("inMemoryFS(%s) = %v, but it is a %s", dir, !want, typ)
		}
	}
}
