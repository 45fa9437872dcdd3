package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/cronus-ltr/cronus/tui"
)

// TestTUIOwnData: cronus tui --train F took the built-in MQ2008 test set
// (and validation and costs) for what was not given, and showed its
// figures as the test split's; with --train, --valid and --costs are
// needed, and no --test is none.
func TestTUIOwnData(t *testing.T) {
	defer func(run func(context.Context, tui.Config) error) { runWorkbench = run }(runWorkbench)
	var got tui.Config
	runWorkbench = func(_ context.Context, cfg tui.Config) error { got = cfg; return nil }
	type tuiCase struct {
		args []string
		code int
		err  string
		want tui.Config
	}
	cases := []tuiCase{
		{[]string{"tui"}, 0, "", tui.Config{Train: "builtin:mq2008/train", Valid: "builtin:mq2008/vali", Test: "builtin:mq2008/test", Costs: "builtin:mq2008/costs"}},
		{[]string{"tui", "--costs", "c"}, 0, "", tui.Config{Train: "builtin:mq2008/train", Valid: "builtin:mq2008/vali", Test: "builtin:mq2008/test", Costs: "c"}},
		{[]string{"tui", "--train", "t", "--valid", "v", "--costs", "c"}, 0, "", tui.Config{Train: "t", Valid: "v", Costs: "c"}},
		{[]string{"tui", "--train", "t", "--valid", "", "--test", "x", "--costs", ""}, 0, "", tui.Config{Train: "t", Test: "x"}},
		{[]string{"tui", "--train", "t"}, 2, "--train needs --valid FILE and --costs FILE", tui.Config{}},
		{[]string{"tui", "--train", "t", "--test", "x", "--valid", "v"}, 2, "--train needs --costs FILE (the built-in", tui.Config{}},
		{[]string{"tui", "--train", "t", "--valid", "v"}, 2, "an empty value is none); --costs is the feature cost table: one cost per line (line i: feature i) or lines 'INDEX COST [NAME]' (README, File formats); --costs '' prices every feature at 1\n", tui.Config{}},
		// --trees k: the model's first k trees, as cascade --trees takes them.
		{[]string{"tui", "--model", "m", "--trees", "7"}, 0, "", tui.Config{Train: "builtin:mq2008/train", Valid: "builtin:mq2008/vali", Test: "builtin:mq2008/test", Costs: "builtin:mq2008/costs", Model: "m", ModelTrees: 7}},
		{[]string{"tui", "--model", "m", "--trees", "all"}, 0, "", tui.Config{Train: "builtin:mq2008/train", Valid: "builtin:mq2008/vali", Test: "builtin:mq2008/test", Costs: "builtin:mq2008/costs", Model: "m"}},
		{[]string{"tui", "--trees", "7"}, 2, "--trees needs --model", tui.Config{}},
		{[]string{"tui", "--trees", "all"}, 2, "--trees needs --model", tui.Config{}},
		{[]string{"tui", "--model", "m", "--trees", "0"}, 2, "--trees 0: a cascade needs at least one tree", tui.Config{}},
		// --objective: the loss the workbench's base ensemble starts with.
		{[]string{"tui", "--objective", "lambdarank"}, 0, "", tui.Config{Train: "builtin:mq2008/train", Valid: "builtin:mq2008/vali", Test: "builtin:mq2008/test", Costs: "builtin:mq2008/costs", Objective: "lambdarank"}},
		{[]string{"tui", "--objective", "binary"}, 2, `--objective "binary": the workbench trains regression or lambdarank trees`, tui.Config{}},
		{[]string{"tui", "--model", "m", "--objective", "lambdarank"}, 2, "--objective needs no --model", tui.Config{}},
		{[]string{"tui", "--model", "m", "--objective", "regression"}, 2, "--objective needs no --model", tui.Config{}},
	}
	// A model that reads is held to --trees before the workbench opens.
	model := trainShallow(t, t.TempDir(), 5)
	cases = append(cases,
		tuiCase{[]string{"tui", "--model", model, "--trees", "6"}, 2, "--trees 6: the model " + model + " has 5 trees", tui.Config{}},
		tuiCase{[]string{"tui", "--model", model, "--trees", "5"}, 0, "", tui.Config{Train: "builtin:mq2008/train", Valid: "builtin:mq2008/vali", Test: "builtin:mq2008/test", Costs: "builtin:mq2008/costs", Model: model, ModelTrees: 5}})
	for _, c := range cases {
		if c.code == 0 && c.want.Objective == "" {
			c.want.Objective = "regression" // the flag's default, in every case that does not give it
		}
		got = tui.Config{}
		interactive = func() bool { return true }
		var o, e bytes.Buffer
		code := run(context.Background(), c.args, &o, &e)
		interactive = func() bool { return false }
		// The model read to check --trees goes to the workbench, for its
		// first load not to read the file again.
		if read := got.ModelRead; read != nil {
			if len(read.Trees) != c.want.ModelTrees || c.want.Model != model {
				t.Errorf("%q: the workbench was given a model of %d trees read", c.args, len(read.Trees))
			}
			got.ModelRead = nil
		} else if c.code == 0 && c.want.Model == model {
			t.Errorf("%q: the workbench reads the model again", c.args)
		}
		if code != c.code || !strings.Contains(e.String(), c.err) || got != c.want {
			t.Errorf("%q: exit %d, stderr %q, config %+v; want %d, %q, %+v", c.args, code, e.String(), got, c.code, c.err, c.want)
		}
	}
}
