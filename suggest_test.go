package main

import "testing"

// editDistance against distances worked by hand: each insertion,
// deletion, substitution or swap of neighbours is one edit.
func TestEditDistance(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"out", "out", 0},
		{"", "out", 3},
		{"ouput", "out", 2},   // two deletions
		{"trian", "train", 1}, // a swap
		{"metric", "metrics", 1},
		{"lamda", "lambda", 1},
		{"kitten", "sitting", 3},
		{"ca", "abc", 3}, // optimal string alignment: no edit of a swapped pair
		{"λ", "l", 1},    // runes, not bytes
	}
	for _, c := range cases {
		if got := editDistance(c.a, c.b); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := editDistance(c.b, c.a); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.b, c.a, got, c.want)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	names := []string{"out", "trees", "train", "valid", "test", "metrics", "seed", "leaves"}
	cases := []struct{ name, want string }{
		{"ouput", " (did you mean --out?)"},
		{"tres", " (did you mean --trees?)"},
		{"tree", " (did you mean --trees?)"},
		{"metric", " (did you mean --metrics?)"},
		{"x", ""},
		{"zzzzzz", ""},
		{"tst", " (did you mean --test?)"},
		{"tes", " (did you mean --test?)"}, // a prefix; "trees" is two edits away, beyond a short name's one
		{"seeds", " (did you mean --seed?)"},
		{"OUT", " (did you mean --out?)"},
	}
	for _, c := range cases {
		if got := didYouMean("--", c.name, names); got != c.want {
			t.Errorf("didYouMean(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}
