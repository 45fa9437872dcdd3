package tree

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// haveHistAsm reports whether the CPU (and the OS) support AVX, which the
// assembly histogram kernels need; without it buildGroup4 runs the Go ones.
// A variable, so that tests can compare the two.
var haveHistAsm = cpu.X86.HasAVX

// hist4Seq adds documents 0…n−1, whose codes for the group's 4 features
// are codes[4i…4i+3] and whose pairs are gh[i], to the group's histogram
// h (4 × 256 bins): each to G and H of its bins, and 1 to N when count,
// else to H only (see buildGroup4). AVX: call it only when haveHistAsm.
//
//go:noescape
func hist4Seq(h *hbin, codes *uint8, gh *GradPair, n int, count bool)

// hist4Wide is hist4Seq for the documents idx[0…n−1], whose codes are at
// rows[width·idx[j]…] (rows points at the group's first code in row 0;
// width 4 for the width-4 groups) and whose pairs are gh[j], prefetching 2
// cache lines of the rows ahead when prefetch.
//
//go:noescape
func hist4Wide(h *hbin, rows *uint8, width int, idx *int32, gh *GradPair, n int, count, prefetch bool)

// The kernels' offsets: a bin is 24 bytes, G, H and N at 0, 8 and 16, and
// a gradient pair 8, G then H (these fail to compile otherwise).
var (
	_ = [1]struct{}{}[unsafe.Sizeof(hbin{})-24]
	_ = [1]struct{}{}[unsafe.Offsetof(hbin{}.H)-8]
	_ = [1]struct{}{}[unsafe.Offsetof(hbin{}.N)-16]
	_ = [1]struct{}{}[unsafe.Sizeof(GradPair{})-8]
	_ = [1]struct{}{}[unsafe.Offsetof(GradPair{}.H)-4]
)
