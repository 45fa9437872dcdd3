package main

import (
	"encoding/json"
	"fmt"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/cronus-ltr/cronus/engine/cronus"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// TestVersion: `cronus version` (and --version) names the build and the
// file format versions that the model and cascade writers use.
func TestVersion(t *testing.T) {
	bi := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Main:      debug.Module{Path: "github.com/cronus-ltr/cronus", Version: "v0.0.0-20261124030739-08f3e1e67ae7+dirty"},
		Settings: []debug.BuildSetting{
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "08f3e1e67ae7f8c0c9f57e4d355110d5dce31af3"},
			{Key: "vcs.time", Value: "2026-11-24T03:07:39Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	v := buildVersion(bi)
	if v.Version != bi.Main.Version || v.Revision != "08f3e1e67ae7f8c0c9f57e4d355110d5dce31af3" || v.Time != "2026-11-24T03:07:39Z" || v.Modified == nil || !*v.Modified || v.Go != "go1.26.8" {
		t.Errorf("buildVersion: %+v", v)
	}
	text := v.String()
	for _, want := range []string{
		"cronus v0.0.0-20261124030739-08f3e1e67ae7+dirty\n",
		"commit 08f3e1e67ae7f8c0c9f57e4d355110d5dce31af3 (2026-11-24T03:07:39Z) with uncommitted changes\n",
		"built with go1.26.8 for ",
		fmt.Sprintf("model files version %d, cascade files version %d\n", tree.ModelVersion, cronus.FileVersion),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("version text lacks %q:\n%s", want, text)
		}
	}
	bi.Settings = bi.Settings[:3] // a clean tree
	if text := buildVersion(bi).String(); strings.Contains(text, "uncommitted") {
		t.Errorf("a build of a clean tree:\n%s", text)
	}
	if text := buildVersion(nil).String(); !strings.HasPrefix(text, "cronus (devel)\ncommit not recorded") {
		t.Errorf("no build information:\n%s", text)
	}

	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		code, out, errOut := runCLI(t, args...)
		if code != 0 || !strings.HasPrefix(out, "cronus ") || !strings.Contains(out, fmt.Sprintf("model files version %d", tree.ModelVersion)) {
			t.Errorf("cronus %s: exit %d\n%s%s", args[0], code, out, errOut)
		}
	}
	code, out, errOut := runCLI(t, "--version", "--json")
	var got versionInfo
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil {
		t.Fatalf("cronus --version --json: exit %d, %v\n%s%s", code, err, out, errOut)
	}
	if got.ModelFormat != tree.ModelVersion || got.CascadeFormat != cronus.FileVersion || got.Go == "" || got.Platform == "" || got.Version == "" {
		t.Errorf("cronus version --json: %+v", got)
	}
	// Without a recorded commit (go test records none), whether the tree
	// was modified is not known: "modified" is left out, as "revision" is,
	// not given as false.
	if strings.Contains(out, `"modified"`) || strings.Contains(out, `"revision"`) {
		t.Errorf("cronus version --json without build VCS data claims to know the tree:\n%s", out)
	}
	if code, _, errOut := runCLI(t, "version", "extra"); code != 2 || !strings.Contains(errOut, `takes no arguments, got "extra"`) {
		t.Errorf("cronus version extra: exit %d %q", code, errOut)
	}
}
