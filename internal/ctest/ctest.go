// Package ctest compiles and runs the C files the exporters write, for
// their tests.
package ctest

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// ISO are compiler flags for Build: ISO C99, every warning an error, and
// (on amd64 and arm64) the machine's own instructions, fused multiply-adds
// included, which the exported code's sums must not be contracted to.
func ISO() []string {
	return native([]string{"-std=c99", "-O2", "-Wall", "-Wextra", "-Werror", "-pedantic"})
}

// GNU are ISO's flags in GCC's default GNU mode, where GCC contracts
// a*b+c into fused multiply-adds unless told not to: the exported files'
// pragmas must.
func GNU() []string {
	return native([]string{"-std=gnu99", "-O2", "-Wall", "-Wextra", "-Werror"})
}

func native(f []string) []string {
	if runtime.GOARCH == "amd64" || runtime.GOARCH == "arm64" {
		f = append(f, "-march=native")
	}
	return f
}

// M32 returns flags that compile for 32-bit x86 with SSE2 arithmetic, as
// the exported files' comment advises there: ISO's, with -m32 -msse2
// -mfpmath=sse in place of -march=native. It skips the test unless the
// machine is amd64 and cc can build and run such a program (a multilib
// C library is installed).
func M32(t testing.TB) []string {
	t.Helper()
	if runtime.GOARCH != "amd64" {
		t.Skipf("32-bit x86 programs are built on amd64 only (this is %s)", runtime.GOARCH)
	}
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skipf("no C compiler (cc): %v", err)
	}
	flags := []string{"-m32", "-msse2", "-mfpmath=sse", "-std=c99", "-O2", "-Wall", "-Wextra", "-Werror", "-pedantic"}
	dir := t.TempDir()
	src, exe := filepath.Join(dir, "probe.c"), filepath.Join(dir, "probe")
	if err := os.WriteFile(src, []byte("#include <stdlib.h>\nint main(void)\n{\n\treturn sizeof(size_t) == 4 ? EXIT_SUCCESS : EXIT_FAILURE;\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(cc, append(slices.Clone(flags), "-o", exe, src)...).CombinedOutput(); err != nil {
		t.Skipf("cc cannot build 32-bit programs (no multilib?): %v\n%s", err, out)
	}
	if err := exec.Command(exe).Run(); err != nil {
		t.Skipf("a 32-bit program does not run here: %v", err)
	}
	return flags
}

// ccFiles returns the C compiler's path and a temporary directory holding
// the files (name → content). Without a C compiler the test is skipped,
// unless CRONUS_REQUIRE_CC is set (as CI sets it), when it fails.
func ccFiles(t testing.TB, files map[string]string) (cc, dir string) {
	t.Helper()
	cc, err := exec.LookPath("cc")
	if err != nil {
		if os.Getenv("CRONUS_REQUIRE_CC") != "" {
			t.Fatalf("no C compiler (cc) and CRONUS_REQUIRE_CC is set: %v", err)
		}
		t.Skipf("no C compiler (cc): %v", err)
	}
	dir = t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return cc, dir
}

// Build writes the files (name → content) to a temporary directory,
// compiles main with the C compiler cc and the flags into a program and
// returns its path. Without a C compiler the test is skipped, unless
// CRONUS_REQUIRE_CC is set (as CI sets it), when it fails.
func Build(t testing.TB, files map[string]string, main string, flags []string) string {
	t.Helper()
	return BuildAll(t, files, []string{main}, flags)
}

// BuildAll is Build with several source files, each compiled on its own
// (as translation units of their own) and linked into one program.
func BuildAll(t testing.TB, files map[string]string, sources []string, flags []string) string {
	t.Helper()
	cc, dir := ccFiles(t, files)
	exe := filepath.Join(dir, "prog")
	args := append(slices.Clone(flags), "-o", exe)
	for _, src := range sources {
		args = append(args, filepath.Join(dir, src))
	}
	args = append(args, "-lm")
	out, err := exec.Command(cc, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("cc %v: %v\n%s", args, err, out)
	}
	if len(out) > 0 {
		t.Fatalf("cc %v warned:\n%s", args, out)
	}
	return exe
}

// Run runs the program with stdin as its standard input and returns its
// standard output; it fails the test when the program fails.
func Run(t testing.TB, exe string, stdin []byte) []byte {
	t.Helper()
	cmd := exec.Command(exe)
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", exe, err, stderr.Bytes())
	}
	return out
}

// Queries returns the standard input the tests' C drivers read: "nq F",
// then per query its number of documents n and their n·F feature values
// as float32 bit patterns, a line per document (cols column-major, the
// queries by offsets).
func Queries(cols [][]float32, offsets []int, F int) []byte {
	var b bytes.Buffer
	nq := len(offsets) - 1
	fmt.Fprintf(&b, "%d %d\n", nq, F)
	for q := range nq {
		lo, hi := offsets[q], offsets[q+1]
		fmt.Fprintf(&b, "%d\n", hi-lo)
		for i := lo; i < hi; i++ {
			for f := range F {
				fmt.Fprintf(&b, "%d ", math.Float32bits(cols[f][i]))
			}
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// Externals compiles the file src of files with cc and the flags into an
// object file, without linking, and returns the names with external
// linkage that it defines, as nm lists them. Without a C compiler or nm
// the test is skipped, unless CRONUS_REQUIRE_CC is set.
func Externals(t testing.TB, files map[string]string, src string, flags []string) []string {
	t.Helper()
	cc, dir := ccFiles(t, files)
	obj := filepath.Join(dir, "out.o")
	args := append(slices.Clone(flags), "-c", "-o", obj, filepath.Join(dir, src))
	if out, err := exec.Command(cc, args...).CombinedOutput(); err != nil || len(out) > 0 {
		t.Fatalf("cc %v: %v\n%s", args, err, out)
	}
	nm, err := exec.LookPath("nm")
	if err != nil {
		if os.Getenv("CRONUS_REQUIRE_CC") != "" {
			t.Fatalf("no nm and CRONUS_REQUIRE_CC is set: %v", err)
		}
		t.Skipf("no nm: %v", err)
	}
	out, err := exec.Command(nm, "-P", "-g", "--defined-only", obj).Output()
	if err != nil {
		t.Fatalf("nm %s: %v", obj, err)
	}
	var names []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if f := strings.Fields(l); len(f) > 0 {
			names = append(names, f[0])
		}
	}
	return names
}

// Sanitize returns flags that build a program with AddressSanitizer (its
// LeakSanitizer included) and UndefinedBehaviorSanitizer, every finding
// fatal: C99 at -O1 with debugging information. It skips the test unless
// cc can build such a program and its leak check works here (LeakSanitizer
// needs to ptrace its own process, which some sandboxes forbid).
func Sanitize(t testing.TB) []string {
	t.Helper()
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skipf("no C compiler (cc): %v", err)
	}
	flags := []string{"-std=c99", "-O1", "-g", "-fno-omit-frame-pointer", "-fsanitize=address,undefined", "-fno-sanitize-recover=all"}
	dir := t.TempDir()
	src, exe := filepath.Join(dir, "probe.c"), filepath.Join(dir, "probe")
	// The probe leaks on purpose: LeakSanitizer must say so.
	if err := os.WriteFile(src, []byte("#include <stdlib.h>\nvoid *volatile p;\nint main(void)\n{\n\tp = malloc(7);\n\tp = 0;\n\treturn 0;\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(cc, append(slices.Clone(flags), "-o", exe, src)...).CombinedOutput(); err != nil {
		t.Skipf("cc cannot build with -fsanitize=address,undefined: %v\n%s", err, out)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "ASAN_OPTIONS=detect_leaks=1")
	out, _ := cmd.CombinedOutput()
	if !bytes.Contains(out, []byte("LeakSanitizer: detected memory leaks")) {
		t.Skipf("LeakSanitizer does not work here: a leaking probe printed %q", out)
	}
	return flags
}
