package data

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A file that is a mount point (a file bind-mounted onto it) cannot be
// replaced by the rename: CheckWritable refuses it, before any work, with
// what is wrong, and WriteAtomic leaves it and no temporary file. Mounting
// needs root, so the test stands in for the detection, which
// TestIsMountRoot checks on /proc.
func TestCheckWritableRefusesMountPoint(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "m.json")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	defer func(f func(string) bool) { mountRoot = f }(mountRoot)
	mountRoot = func(p string) bool { return p == target }
	err := CheckWritable(target)
	if err == nil || !strings.Contains(err.Error(), target) || !strings.Contains(err.Error(), "mounted on it") {
		t.Fatalf("CheckWritable(mount point) = %v, want a refusal naming %s and the mount", err, target)
	}
	if err := WriteAtomic(target, BytesOutput(target, []byte("new")).Write); err == nil {
		t.Fatal("WriteAtomic onto a mount point succeeded")
	}
	if b, _ := os.ReadFile(target); string(b) != "old" {
		t.Fatalf("the mount point's file holds %q, want it as it was", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("the directory holds %d entries, want the file alone", len(ents))
	}
	// A file beside it is no mount point.
	other := filepath.Join(dir, "n.json")
	if err := CheckWritable(other); err != nil {
		t.Fatalf("CheckWritable(new file) = %v", err)
	}
}

// isMountRoot tells a mount's root (/proc, always a mount of its own) from
// a file or directory within one.
func TestIsMountRoot(t *testing.T) {
	if !isMountRoot("/proc") {
		t.Skip("this kernel does not report mount roots (Linux 5.8 or later does)")
	}
	f := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(f, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{f, "/proc/self/status", filepath.Join(t.TempDir(), "missing")} {
		if isMountRoot(p) {
			t.Errorf("isMountRoot(%s) = true, want false", p)
		}
	}
}
