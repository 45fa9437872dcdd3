//go:build !amd64

package tree

// haveHistAsm is false where there are no assembly histogram kernels.
var haveHistAsm = false

func hist4Seq(h *hbin, codes *uint8, gh *GradPair, n int, count bool) {
	panic("tree: no assembly histogram kernel on this architecture")
}

func hist4Wide(h *hbin, rows *uint8, width int, idx *int32, gh *GradPair, n int, count, prefetch bool) {
	panic("tree: no assembly histogram kernel on this architecture")
}
