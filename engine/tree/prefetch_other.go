//go:build !amd64

package tree

import "unsafe"

// prefetchRows is a no-op where there is no prefetch instruction wrapper.
func prefetchRows(base unsafe.Pointer, idx unsafe.Pointer, n int, width int, lines int) {}
