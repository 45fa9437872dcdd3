package main

import (
	"flag"
	"strings"
)

// unknownFlagMessage words the flag package's "flag provided but not
// defined: -ouput" and "flag needs an argument: -out" as the command
// line's other errors, with the flag as it is written (--ouput), and for
// an unknown flag the command's flags nearest to it ("unknown flag
// --ouput (did you mean --out?)"); ok is false for other errors.
func unknownFlagMessage(fs *flag.FlagSet, err error) (msg string, ok bool) {
	if name, found := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); found {
		name = strings.TrimLeft(name, "-")
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		return "unknown flag --" + name + didYouMean("--", name, names), true
	}
	if name, found := strings.CutPrefix(err.Error(), "flag needs an argument: -"); found {
		return "--" + strings.TrimLeft(name, "-") + " needs a value", true
	}
	return "", false
}

// didYouMean is " (did you mean P+a?)", or " (did you mean P+a or
// P+b?)", for the candidates nearest to name: at most two edits away (one
// for names of up to four letters), or one a prefix of the other; "" when
// none is near.
func didYouMean(prefix, name string, candidates []string) string {
	best, bestD := []string(nil), 3
	for _, c := range candidates {
		d := editDistance(strings.ToLower(name), strings.ToLower(c))
		limit := 2
		if len(name) <= 4 {
			limit = 1
		}
		if d > limit {
			if len(name) < 3 || !(strings.HasPrefix(c, name) || strings.HasPrefix(name, c)) {
				continue
			}
			d = 2 // a prefix counts as two edits
		}
		switch {
		case d < bestD:
			best, bestD = []string{c}, d
		case d == bestD:
			best = append(best, c)
		}
	}
	switch {
	case len(best) == 0 || len(best) > 3:
		return ""
	case len(best) == 1:
		return " (did you mean " + prefix + best[0] + "?)"
	default:
		quoted := make([]string, len(best))
		for i, b := range best {
			quoted[i] = prefix + b
		}
		return " (did you mean " + strings.Join(quoted[:len(quoted)-1], ", ") + " or " + quoted[len(quoted)-1] + "?)"
	}
}

// editDistance is the optimal string alignment distance of a and b:
// insertions, deletions, substitutions and swaps of two neighbours
// (trian, train) each count one.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
