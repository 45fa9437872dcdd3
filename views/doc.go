// Package views holds the workbench's renderers: pure functions from a
// snapshot and a terminal size to a string. They do no I/O and keep no
// state, so each is tested with golden files at several sizes.
package views
