package tree

import "unsafe"

// prefetchRows asks the CPU to start loading rows idx[0..n-1] (the first
// two cache lines of each, width bytes apart from base) into the cache,
// without waiting for them: the gathers of scattered documents then overlap.
//
//go:noescape
func prefetchRows(base unsafe.Pointer, idx unsafe.Pointer, n int, width int)

// prefetchRows1 is prefetchRows for rows that fit in one cache line.
//
//go:noescape
func prefetchRows1(base unsafe.Pointer, idx unsafe.Pointer, n int, width int)
