package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/cronus-ltr/cronus/engine/cronus"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// versionInfo is what `cronus version` prints: the build (for a bug
// report) and the versions of the file formats it writes and reads.
type versionInfo struct {
	Version       string `json:"version"`            // the module's, e.g. v0.0.0-20261124030739-08f3e1e67ae7, or "(devel)"
	Revision      string `json:"revision,omitempty"` // the git commit built, when the build recorded it
	Time          string `json:"time,omitempty"`     // the commit's time
	Modified      *bool  `json:"modified,omitempty"` // built from a tree with uncommitted changes; nil when the build recorded no commit
	Go            string `json:"go"`
	Platform      string `json:"platform"`
	ModelFormat   int    `json:"model_format"`
	CascadeFormat int    `json:"cascade_format"`
}

// buildVersion reads the build's version from bi (nil: none recorded).
// go build records the git commit unless -buildvcs=false; go test never does.
func buildVersion(bi *debug.BuildInfo) versionInfo {
	v := versionInfo{
		Version:       "(devel)",
		Go:            runtime.Version(),
		Platform:      runtime.GOOS + "/" + runtime.GOARCH,
		ModelFormat:   tree.ModelVersion,
		CascadeFormat: cronus.FileVersion,
	}
	if bi == nil {
		return v
	}
	if bi.Main.Version != "" {
		v.Version = bi.Main.Version
	}
	if bi.GoVersion != "" {
		v.Go = bi.GoVersion
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			m := s.Value == "true"
			v.Modified = &m
		}
	}
	return v
}

// String is the text form, a line each for the version, the commit, the
// toolchain and the formats.
func (v versionInfo) String() string {
	commit := "commit not recorded (built with -buildvcs=false, or by go test)"
	if v.Revision != "" {
		commit = "commit " + v.Revision
		if v.Time != "" {
			commit += " (" + v.Time + ")"
		}
		if v.Modified != nil && *v.Modified {
			commit += " with uncommitted changes"
		}
	}
	return fmt.Sprintf("cronus %s\n%s\nbuilt with %s for %s\nmodel files version %d, cascade files version %d\n",
		v.Version, commit, v.Go, v.Platform, v.ModelFormat, v.CascadeFormat)
}

func runVersion(_ context.Context, args []string, stdout, _ io.Writer) error {
	fs := newFlags("version", stdout)
	jsonOut := fs.Bool("json", false, "print JSON")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageError{fmt.Sprintf("takes no arguments, got %q", pos[0])}
	}
	bi, _ := debug.ReadBuildInfo()
	v := buildVersion(bi)
	if *jsonOut {
		return writeJSON(stdout, v)
	}
	_, err = fmt.Fprint(stdout, v)
	return err
}
