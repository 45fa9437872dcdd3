package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestBenchRidgePatch: bench/ridge.patch, the ℓ2-term experiment that
// bench/ridge.sh applies to a copy of the tree (bench/MEASURED.md, "An ℓ2
// term on the stage weights"), still applies to engine/cronus without
// fuzz, and the patched package builds: a change to the files it touches
// must carry the patch along, or the figures recorded for it could no
// longer be reproduced.
func TestBenchRidgePatch(t *testing.T) {
	patchCmd, err := exec.LookPath("patch")
	if err != nil {
		t.Skip("no patch command")
	}
	dir := t.TempDir()
	files := []string{"engine/cronus/init.go", "engine/cronus/cyclic.go"}
	overlay := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
		overlay[mustAbs(t, f)] = dst
	}
	p := exec.Command(patchCmd, "-d", dir, "-p1", "-F0", "--no-backup-if-mismatch", "-i", mustAbs(t, "bench/ridge.patch"))
	if out, err := p.CombinedOutput(); err != nil {
		t.Fatalf("bench/ridge.patch no longer applies to %v: %v\n%s", files, err, out)
	}
	for src, dst := range overlay {
		a, errA := os.ReadFile(src)
		b, errB := os.ReadFile(dst)
		if errA != nil || errB != nil {
			t.Fatal(errA, errB)
		}
		if string(a) == string(b) {
			t.Errorf("bench/ridge.patch left %s as it was", src)
		}
	}
	ov, err := json.Marshal(map[string]any{"Replace": overlay})
	if err != nil {
		t.Fatal(err)
	}
	ovFile := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(ovFile, ov, 0o644); err != nil {
		t.Fatal(err)
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	build := exec.Command(goCmd, "vet", "-overlay", ovFile, "./engine/cronus")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("engine/cronus with bench/ridge.patch does not build: %v\n%s", err, out)
	}
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
