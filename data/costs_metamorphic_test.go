package data

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// costLine is one feature's line of an indexed cost file.
type costLine struct {
	idx  int
	cost float64
	name string
}

// costLines makes the costs of n features: costs in few groups, as LETOR's
// (1, 10, 100, fractions, 0), names of one or more words for most.
func costLines(n int, seed uint64) []costLine {
	r := rand.New(rand.NewPCG(seed, 11))
	lines := make([]costLine, n)
	for i := range lines {
		lines[i] = costLine{idx: i + 1, cost: []float64{0, 1, 10, 100, 0.25, 1e3, 12.5}[r.IntN(7)]}
		switch r.IntN(3) {
		case 0:
			lines[i].name = fmt.Sprintf("f%d", i+1)
		case 1:
			lines[i].name = fmt.Sprintf("body tf\tfield %d", i+1)
		}
	}
	return lines
}

// readCostsText reads a cost file's text, failing the test on an error.
func readCostsText(t *testing.T, what, text string, numFeatures int) *Costs {
	t.Helper()
	c, err := ReadCosts(strings.NewReader(text), "c.txt", numFeatures)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return c
}

// TestMetamorphicCostFile: a cost file of lines `INDEX COST [NAME]` names
// each line's feature by its index, fields are separated by spaces or tabs,
// '#' starts a comment, blank lines and a byte order mark are skipped,
// lines end in LF or CRLF, the file may be gzip (README, "Feature costs").
// So the same costs written with the lines in any order, with comment and
// blank lines between them and comments after them, runs of blanks around
// the fields, the index with leading zeros or '+', the cost spelled
// otherwise (1e1 for 10), CRLF, a byte order mark, or gzipped as several
// members, read as the same Costs; and, for a file without names, one
// cost per line in index order reads as the same Costs too.
func TestMetamorphicCostFile(t *testing.T) {
	const n = 40
	lines := costLines(n, 1)
	write := func(ls []costLine, r *rand.Rand, fancy bool) string {
		var b strings.Builder
		sep := func() string {
			if !fancy {
				return " "
			}
			return []string{" ", "\t", "  \t", "\t\t "}[r.IntN(4)]
		}
		for _, l := range ls {
			if fancy && r.IntN(3) == 0 {
				b.WriteString([]string{"", "# a comment 3 4", "  \t", "#"}[r.IntN(4)] + "\n")
			}
			idx, cost := strconv.Itoa(l.idx), strconv.FormatFloat(l.cost, 'g', -1, 64)
			if fancy {
				idx = []string{"", "0", "+", "+00"}[r.IntN(4)] + idx
				cost = []string{cost, strconv.FormatFloat(l.cost, 'e', -1, 64), strconv.FormatFloat(l.cost, 'f', 3, 64), "+" + cost}[r.IntN(4)]
			}
			lead := ""
			if fancy && r.IntN(2) == 0 {
				lead = sep()
			}
			b.WriteString(lead + idx + sep() + cost)
			if l.name != "" {
				b.WriteString(sep() + l.name)
			}
			if fancy && r.IntN(2) == 0 {
				b.WriteString(sep() + "# note")
			}
			if fancy && r.IntN(2) == 0 {
				b.WriteString(sep())
			}
			b.WriteString("\n")
		}
		return b.String()
	}
	for _, numFeatures := range []int{0, n, n + 5} {
		ref := readCostsText(t, "in order", write(lines, nil, false), numFeatures)
		if numFeatures == n+5 && len(ref.Defaulted) != 5 {
			t.Fatalf("defaulted %v, want the 5 features past the file's", ref.Defaulted)
		}
		for seed := uint64(0); seed < 5; seed++ {
			r := rand.New(rand.NewPCG(seed, 2))
			shuffled := append([]costLine(nil), lines...)
			r.Shuffle(len(shuffled), func(a, b int) { shuffled[a], shuffled[b] = shuffled[b], shuffled[a] })
			text := write(shuffled, r, true)
			variants := map[string]string{
				"reordered":     text,
				"CRLF":          strings.ReplaceAll(text, "\n", "\r\n"),
				"BOM":           "\xef\xbb\xbf" + text,
				"no final line": strings.TrimSuffix(text, "\n"),
			}
			for what, v := range variants {
				got := readCostsText(t, what, v, numFeatures)
				if !reflect.DeepEqual(got, ref) {
					t.Errorf("%d features, seed %d, %s: costs %v names %q defaulted %v, want %v %q %v",
						numFeatures, seed, what, got.Cost, got.Name, got.Defaulted, ref.Cost, ref.Name, ref.Defaulted)
				}
			}
			// gzip of two members cut at a random byte, from a file.
			cut := r.IntN(len(text) + 1)
			var z bytes.Buffer
			for _, part := range []string{text[:cut], text[cut:]} {
				w := gzip.NewWriter(&z)
				w.Write([]byte(part))
				w.Close()
			}
			path := filepath.Join(t.TempDir(), "c.txt.gz")
			if err := os.WriteFile(path, z.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := ReadCostsFile(path, numFeatures)
			if err != nil {
				t.Fatalf("gzip members cut at %d: %v", cut, err)
			}
			got.file = ref.file
			if !reflect.DeepEqual(got, ref) {
				t.Errorf("%d features, seed %d, gzip members cut at %d: the costs differ", numFeatures, seed, cut)
			}
		}
	}

	// Without names: one cost per line, in index order, is the same file.
	unnamed := append([]costLine(nil), lines...)
	var positional strings.Builder
	for i := range unnamed {
		unnamed[i].name = ""
		positional.WriteString(strconv.FormatFloat(unnamed[i].cost, 'g', -1, 64) + "\n")
	}
	for _, numFeatures := range []int{0, n, n + 5} {
		a := readCostsText(t, "indexed", write(unnamed, nil, false), numFeatures)
		b := readCostsText(t, "positional", positional.String(), numFeatures)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%d features: one cost per line reads %v, indexed %v", numFeatures, b.Cost, a.Cost)
		}
	}
}

// TestMetamorphicCostFileLeaveOut: a feature the file does not mention
// costs 1 and is listed as defaulted (README), so leaving a feature's line
// out of a file read for the data's features changes exactly its cost (to
// 1), its name (to none) and Defaulted (it joins it), whatever its line.
func TestMetamorphicCostFileLeaveOut(t *testing.T) {
	const n = 12
	lines := costLines(n, 2)
	var full strings.Builder
	for _, l := range lines {
		fmt.Fprintf(&full, "%d %g %s\n", l.idx, l.cost, l.name)
	}
	ref := readCostsText(t, "full", full.String(), n)
	for k := range lines {
		var b strings.Builder
		for i, l := range lines {
			if i != k {
				fmt.Fprintf(&b, "%d %g %s\n", l.idx, l.cost, l.name)
			}
		}
		got := readCostsText(t, "left out", b.String(), n)
		want := *ref
		want.Cost = append([]float64(nil), ref.Cost...)
		want.Name = append([]string(nil), ref.Name...)
		want.Cost[k], want.Name[k], want.Defaulted = 1, "", []int{k}
		if !reflect.DeepEqual(got, &want) {
			t.Errorf("feature %d left out: costs %v names %q defaulted %v", k+1, got.Cost, got.Name, got.Defaulted)
		}
	}
}
