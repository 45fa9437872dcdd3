package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// readmeSection is README's section under heading (as "## Quick start"),
// up to the next heading of its level.
func readmeSection(t *testing.T, heading string) string {
	t.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("README has no section %q", heading)
	}
	level, _, _ := strings.Cut(heading, " ")
	sec, _, _ = strings.Cut(sec, "\n"+level+" ")
	return sec
}

// TestReadmeQuickStart: README's Quick start is commands that work, and
// its quoted output is theirs. Each ./cronus line of its sh block is run
// as written ($B expanded), in order, in a scratch directory, but for
// sweep, which takes about 40 s, and tui, which opens the workbench:
// every flag those two give must be one their --help lists. The test
// lines of cascade's report that README quotes must be among the lines
// it prints. cronus help's example lines are Quick start lines.
func TestReadmeQuickStart(t *testing.T) {
	sec := readmeSection(t, "## Quick start")
	blocks := regexp.MustCompile("(?s)```(sh)?\n(.*?)```").FindAllStringSubmatch(sec, -1)
	if len(blocks) != 2 || blocks[0][1] != "sh" || blocks[1][1] != "" {
		t.Fatalf("Quick start: want an sh block of commands, then a block of output; got %d blocks", len(blocks))
	}
	b0 := ""
	var cmds [][]string
	for _, l := range strings.Split(blocks[0][2], "\n") {
		switch {
		case strings.HasPrefix(l, "B="):
			b0 = strings.TrimPrefix(l, "B=")
		case strings.HasPrefix(l, "./cronus "):
			if b0 == "" {
				t.Fatalf("Quick start: %q comes before B=", l)
			}
			cmds = append(cmds, strings.Fields(strings.ReplaceAll(strings.TrimPrefix(l, "./cronus "), "$B", b0)))
		}
	}
	if len(cmds) != 7 {
		t.Fatalf("Quick start: want 7 cronus commands, got %d", len(cmds))
	}
	// cronus help's example is the Quick start's, line for line.
	var help strings.Builder
	usage(&help)
	_, ex, ok := strings.Cut(help.String(), "(README, Quick start):\n")
	if !ok {
		t.Fatal("cronus help gives no example from the Quick start")
	}
	for _, l := range strings.Split(strings.TrimSpace(ex), "\n") {
		l = strings.TrimSpace(l)
		if !strings.Contains(blocks[0][2], "\n"+strings.Replace(l, "cronus ", "./cronus ", 1)+"\n") {
			t.Errorf("cronus help's example line %q is not the Quick start's", l)
		}
	}
	t.Chdir(t.TempDir())
	var cascadeOut string
	for _, args := range cmds {
		switch args[0] {
		case "sweep", "tui":
			has := map[string]bool{}
			for _, f := range helpFlags(t, args[0]) {
				has["--"+f.name] = true
			}
			for _, a := range args[1:] {
				if strings.HasPrefix(a, "--") && !has[a] {
					t.Errorf("Quick start: cronus %s takes no %s", args[0], a)
				}
			}
			continue
		}
		out := mustRun(t, args...)
		if args[0] == "cascade" {
			cascadeOut = out
		}
	}
	if cascadeOut == "" {
		t.Fatal("Quick start runs no cascade")
	}
	printed := map[string]bool{}
	for _, l := range strings.Split(cascadeOut, "\n") {
		printed[l] = true
	}
	quoted := strings.Split(strings.TrimSuffix(blocks[1][2], "\n"), "\n")
	if len(quoted) != 3 {
		t.Fatalf("Quick start: want cascade's 3 test lines quoted, got %d", len(quoted))
	}
	for _, want := range quoted {
		if !printed[want] {
			t.Errorf("Quick start quotes %q, which cascade does not print:\n%s", want, cascadeOut)
		}
	}
	for _, f := range []string{"m.json", "c.json", "run.txt", "exits.tsv", "keys.txt"} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("Quick start: %s not written (%v)", f, err)
		}
	}
}

// TestReadmeCascadeExample: README's cascade section quotes two commands
// (inline, in backquotes) and rows of the report the second prints; each
// quoted row is one of the report's lines, in the report's order, and
// the stage rows include the table's header.
func TestReadmeCascadeExample(t *testing.T) {
	sec := readmeSection(t, "### cascade")
	flat := regexp.MustCompile(`\s+`).ReplaceAllString(sec, " ")
	var cmds [][]string
	for _, m := range regexp.MustCompile("`cronus ((?:train|cascade) [^`]*)`").FindAllStringSubmatch(flat, -1) {
		cmds = append(cmds, strings.Fields(m[1]))
	}
	if len(cmds) != 2 || cmds[0][0] != "train" || cmds[1][0] != "cascade" {
		t.Fatalf("README's cascade section: want a train and a cascade command, got %q", cmds)
	}
	block := regexp.MustCompile("(?s)```\n(.*?)```").FindStringSubmatch(sec)
	if block == nil {
		t.Fatal("README's cascade section has no block of output")
	}
	t.Chdir(t.TempDir())
	mustRun(t, cmds[0]...)
	lines := strings.Split(mustRun(t, cmds[1]...), "\n")
	i := 0
	for _, want := range strings.Split(strings.TrimSpace(block[1]), "\n") {
		if want == "…" {
			continue
		}
		for i < len(lines) && lines[i] != want {
			i++
		}
		if i == len(lines) {
			t.Errorf("README's cascade example: %q is not a line of the report (after the lines before it)", want)
			i = 0
		}
	}
}
