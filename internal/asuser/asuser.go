//go:build unix

// Package asuser lets a test run as root check what another user meets
// (a file it may not write, which root may): the test binary runs itself
// again, one test of it, as the user nobody.
package asuser

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Nobody is the user (and group) the test runs as.
const Nobody = 65534

// Run copies the test binary into dir (a t.TempDir()), opens dir and the
// directories above it up to the system's temporary directory to every
// user, and runs the test named test in the copy as Nobody, with env
// added to the environment; it returns what the test printed before its
// PASS line. It skips t when this process is not root or cannot run a
// process as another user.
func Run(t *testing.T, dir, test string, env ...string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("runs as nobody from root")
	}
	exe, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "test.bin")
	if err := os.WriteFile(bin, exe, 0o755); err != nil {
		t.Fatal(err)
	}
	for d := dir; d != os.TempDir() && d != "/" && d != "."; d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: Nobody, Gid: Nobody}}
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("cannot run as nobody: %v", err)
	}
	before, _, _ := strings.Cut(string(out), "PASS")
	return before
}
