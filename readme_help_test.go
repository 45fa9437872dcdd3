package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestReadmeSynopsisNamesEveryFlag: README's synopsis of the commands
// (the block under Commands) names every flag of each command's --help,
// and no flag the command does not take; a flag added, renamed or dropped
// in the code alone fails here. sweep's "…" stands for cascade's flags but
// those README names after the synopsis, which sweep does not take (it
// read as cascade's all: --lambda, --warm, --trace, --curve); --threads,
// which every command takes, has a paragraph of its own.
func TestReadmeSynopsisNamesEveryFlag(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	start := strings.Index(readme, "\ncronus tui ")
	if start < 0 {
		t.Fatal("README has no synopsis of the commands (a line \"cronus tui …\")")
	}
	block := readme[start:]
	block = block[:strings.Index(block, "```")]
	// "(also cronus --version)" names a command, not a flag.
	block = regexp.MustCompile(`cronus --\S+`).ReplaceAllString(block, "")

	// Each command's part: from its line "cronus NAME" to the next such line.
	syn := map[string]string{}
	name := ""
	for _, l := range strings.Split(block, "\n") {
		if m := regexp.MustCompile(`^cronus (\w+)`).FindStringSubmatch(l); m != nil {
			name = m[1]
		}
		syn[name] += l + "\n"
	}
	flagRe := regexp.MustCompile(`--([a-zA-Z][\w-]*)`)
	flags := func(s string) map[string]bool {
		named := map[string]bool{}
		for _, m := range flagRe.FindAllStringSubmatch(s, -1) {
			named[m[1]] = true
		}
		return named
	}
	for _, c := range commands {
		s, ok := syn[c.name]
		if !ok {
			t.Errorf("README's synopsis has no line for cronus %s", c.name)
			continue
		}
		has := map[string]bool{}
		help := helpFlags(t, c.name)
		for _, f := range help {
			has[f.name] = true
		}
		named, shared := flags(s), map[string]bool{}
		if strings.Contains(s, "…") {
			// cascade's flags, but those README says the command does not
			// take, each of which it must name.
			but := flags(readmeParagraph(t, readme, "`"+c.name+"`'s `…` is `cascade`'s flags but"))
			for f := range flags(syn["cascade"]) {
				switch {
				case has[f]:
					shared[f] = true
				case !but[f]:
					t.Errorf("README's synopsis of cronus %s gives --%s by its …, which its --help does not list; README does not say so", c.name, f)
				}
			}
		}
		var missing []string
		for _, f := range help {
			if f.name != "threads" && !named[f.name] && !shared[f.name] {
				missing = append(missing, "--"+f.name)
			}
		}
		var extra []string
		for f := range named {
			if !has[f] {
				extra = append(extra, "--"+f)
			}
		}
		slices.Sort(missing)
		slices.Sort(extra)
		if len(missing) > 0 {
			t.Errorf("README's synopsis of cronus %s does not name %v, which its --help lists", c.name, missing)
		}
		if len(extra) > 0 {
			t.Errorf("README's synopsis of cronus %s names %v, which its --help does not list", c.name, extra)
		}
	}
}

// TestReadmeLinks: every link within README, [text](#anchor), leads to
// one of its headings, as GitHub makes their anchors (lower case, spaces
// to hyphens, other punctuation dropped).
func TestReadmeLinks(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	anchors := map[string]bool{}
	drop := regexp.MustCompile(`[^\p{L}\p{N}_\- ]`)
	for _, m := range regexp.MustCompile(`(?m)^#+ (.*)$`).FindAllStringSubmatch(readme, -1) {
		anchors[strings.ReplaceAll(drop.ReplaceAllString(strings.ToLower(strings.TrimSpace(m[1])), ""), " ", "-")] = true
	}
	for _, m := range regexp.MustCompile(`\]\(#([^)]*)\)`).FindAllStringSubmatch(readme, -1) {
		if !anchors[m[1]] {
			t.Errorf("README links to #%s, which no heading makes", m[1])
		}
	}
}

// TestDocLinks: every relative link of README.md, docs/*.md and
// bench/MEASURED.md, [text](path), [text](path#anchor) or [text](#anchor),
// leads to a file that exists (relative to the linking file) and an
// anchor to one of that file's headings, as GitHub makes their anchors.
// README's detail moved to docs/ on 2026-12-04, and a section moved into
// bench/MEASURED.md kept a link that, read from there, led to
// bench/bench/MEASURED.md.
func TestDocLinks(t *testing.T) {
	drop := regexp.MustCompile(`[^\p{L}\p{N}_\- ]`)
	anchorsOf := func(path string) map[string]bool {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		anchors := map[string]bool{}
		inCode := false
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "```") {
				inCode = !inCode
			}
			if m := regexp.MustCompile(`^#+ (.*)$`).FindStringSubmatch(l); m != nil && !inCode {
				anchors[strings.ReplaceAll(drop.ReplaceAllString(strings.ToLower(strings.TrimSpace(m[1])), ""), " ", "-")] = true
			}
		}
		return anchors
	}
	docs, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) == 0 {
		t.Fatal("no docs/*.md")
	}
	linked := map[string]bool{}
	for _, f := range append([]string{"README.md", "bench/MEASURED.md"}, docs...) {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile(`\]\(([^)#:\s]*)(#[^)\s]*)?\)`).FindAllStringSubmatch(string(text), -1) {
			target := f
			if m[1] != "" {
				target = filepath.Join(filepath.Dir(f), m[1])
			}
			if _, err := os.Stat(target); err != nil {
				t.Errorf("%s links to %s, which does not exist (%s)", f, m[1], target)
				continue
			}
			if m[1] != "" {
				linked[filepath.ToSlash(target)] = true
			}
			if a := strings.TrimPrefix(m[2], "#"); a != "" && strings.HasSuffix(target, ".md") && !anchorsOf(target)[a] {
				t.Errorf("%s links to %s#%s, which no heading of %s makes", f, m[1], a, target)
			}
		}
	}
	// Every page of docs/ is reachable from README.
	for _, d := range docs {
		if !linked[filepath.ToSlash(d)] {
			t.Errorf("%s: no link to it from README.md, bench/MEASURED.md or docs/", d)
		}
	}
}
