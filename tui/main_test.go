package tui

import (
	"os"
	"testing"
)

// TestMain keeps the tests' loads off the user's recent list: a load that
// succeeds records its files in $XDG_CONFIG_HOME/cronus/recent.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "cronus-tui-test-config")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CONFIG_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
