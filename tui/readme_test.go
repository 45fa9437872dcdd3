package tui

import (
	"os"
	"strings"
	"testing"
)

// readmeKeyRow is the row of README's key table for one entry of keyHelp:
// each key in backquotes, and the help overlay's words.
func readmeKeyRow(keys, what string) string {
	ks := strings.Split(keys, ", ")
	for i, k := range ks {
		ks[i] = "`" + k + "`"
	}
	return "| " + strings.Join(ks, ", ") + " | " + what + " |"
}

// TestReadmeKeyTable: README's key table is the help overlay's list, row
// for row, so that the two cannot drift apart; the details under it name
// every key too.
func TestReadmeKeyTable(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	start := strings.Index(readme, "## Key bindings\n")
	end := strings.Index(readme[max(start, 0):], "\n## ")
	if start < 0 || end < 0 {
		t.Fatal("README has no Key bindings section")
	}
	section := readme[start : start+end]
	var rows []string
	for _, l := range strings.Split(section, "\n") {
		if strings.HasPrefix(l, "| `") {
			rows = append(rows, l)
		}
	}
	if len(rows) != len(keyHelp) {
		t.Errorf("README's key table has %d rows, the help %d", len(rows), len(keyHelp))
	}
	for i, k := range keyHelp {
		want := readmeKeyRow(k.keys, k.what)
		if i >= len(rows) || rows[i] != want {
			t.Errorf("README's key table, row %d:\n%s\nwant (the help's):\n%s", i+1, row(rows, i), want)
		}
		if !strings.Contains(section, "- **"+strings.TrimPrefix(strings.TrimSuffix(readmeKeyRow(k.keys, ""), " |  |"), "| ")+"**") {
			t.Errorf("README's key details have no item for %s", k.keys)
		}
	}
	if os.Getenv("PRINT_KEY_TABLE") != "" {
		for _, k := range keyHelp {
			t.Log(readmeKeyRow(k.keys, k.what))
		}
	}
}

func row(rows []string, i int) string {
	if i < len(rows) {
		return rows[i]
	}
	return "(none)"
}
