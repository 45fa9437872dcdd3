package tree

import "unsafe"

// prefetchRows asks the CPU to start loading rows idx[0..n-1] (the first
// `lines` cache lines of each, 1 or 2; rows are width bytes apart from base)
// into the cache, without waiting for them: the gathers of scattered
// documents then overlap.
//
//go:noescape
func prefetchRows(base unsafe.Pointer, idx unsafe.Pointer, n int, width int, lines int)
