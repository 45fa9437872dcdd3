package data

import (
	"bufio"
	"bytes"
	"context"
	"embed"
	"fmt"
	"sort"
	"strings"
)

// The built-in data set: MQ2008 Fold1 with its feature costs (see
// builtin/mq2008/README.md for provenance), and the MSLR-WEB10K cost
// labels that `cronus gen` gives its features by default (see synth.go).
//
//go:embed builtin/mq2008/*.txt.gz builtin/mq2008/costs.txt builtin/mslr-web10k.feature_cost.txt
var builtinFS embed.FS

// BuiltinPrefix marks a built-in name in a data or cost flag.
const BuiltinPrefix = "builtin:"

var builtinFiles = map[string]string{
	"mq2008/train": "builtin/mq2008/train.txt.gz",
	"mq2008/vali":  "builtin/mq2008/vali.txt.gz",
	"mq2008/test":  "builtin/mq2008/test.txt.gz",
	"mq2008/costs": "builtin/mq2008/costs.txt",
	// gen's default costs: a cost file for its data without a source tree
	"mslr-web10k/costs": "builtin/mslr-web10k.feature_cost.txt",
}

// builtinAliases are other names users reach for, such as the validation
// split by the name of the --valid flag; BuiltinNames lists only the
// names above (LETOR's own, "vali").
var builtinAliases = map[string]string{
	"mq2008/valid":      "mq2008/vali",
	"mq2008/validation": "mq2008/vali",
}

// BuiltinNames lists the built-in names, each with its "builtin:" prefix.
func BuiltinNames() []string {
	var names []string
	for n := range builtinFiles {
		names = append(names, BuiltinPrefix+n)
	}
	sort.Strings(names)
	return names
}

// IsBuiltin reports whether name refers to a built-in file.
func IsBuiltin(name string) bool { return strings.HasPrefix(name, BuiltinPrefix) }

func builtinBytes(name string) ([]byte, error) {
	short := strings.TrimPrefix(name, BuiltinPrefix)
	if a, ok := builtinAliases[short]; ok {
		short = a
	}
	p, ok := builtinFiles[short]
	if !ok {
		return nil, fmt.Errorf("%s: no such built-in file; the built-in names are %s", name, strings.Join(BuiltinNames(), ", "))
	}
	return builtinFS.ReadFile(p)
}

// LoadDataset reads a data set from a path (.txt or .gz) or a built-in name
// such as "builtin:mq2008/train".
func LoadDataset(ctx context.Context, name string, opt ReadOptions) (*Dataset, error) {
	if !IsBuiltin(name) {
		return ReadFile(ctx, name, opt)
	}
	b, err := builtinBytes(name)
	if err != nil {
		return nil, err
	}
	return ReadBytes(ctx, name, b, opt)
}

// LoadCosts reads a cost file from a path or a built-in name such as
// "builtin:mq2008/costs"; numFeatures is as for ReadCosts.
func LoadCosts(name string, numFeatures int) (*Costs, error) {
	if !IsBuiltin(name) {
		return ReadCostsFile(name, numFeatures)
	}
	b, err := builtinBytes(name)
	if err != nil {
		return nil, err
	}
	// A built-in data file given as costs is gzip, as a path's would be.
	r, err := gunzipIfGzip(bufio.NewReader(bytes.NewReader(b)), name, 1)
	if err != nil {
		return nil, err
	}
	return ReadCosts(r, name, numFeatures)
}
