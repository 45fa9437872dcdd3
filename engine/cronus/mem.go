package cronus

import (
	"fmt"
	"math"

	"github.com/cronus-ltr/cronus/data"
)

// ProblemBytes estimates the peak memory, in bytes, of a cascade problem of
// T trees on n training documents and of its optimisation (Algorithm 2's
// stages, the choice of ρ, the cycles): the tree outputs H (4 bytes per
// document and tree, 1 in compact mode: NewOutputs), the two Gram products
// HᵀΩH of (T+1)×(T+1) float64 that are live at once (the one at the weights
// ω, which the Problem keeps, and a stage's), and the product's block
// buffer (min(n, 2,048) documents of every column, as float64, in
// sub-blocks of 512 padded by 8), and a quarter more: what Go's heap holds
// beyond its live objects (spans freed but not yet returned, and the
// smaller buffers of the run). The stage product and the block buffer are
// made once and reused by every later product (gramBuffers), so they make
// no garbage that the collector would let the heap grow over: that is
//
//	5/4·(16·(T+1)² + b·n·T + 8·⌈m/512⌉·(min(n, 512)+8)·(T+2)),  m = min(n, 2048), b = 4 or 1.
//
// On 3,879 documents it gives 215 MiB at 2,500 trees (measured peak RSS:
// 232 MiB) and 669 MiB at 5,000 (measured: 627 MiB); 20,000 trees need
// about 8.2 GiB. When every stage and Gram product made its own buffers,
// the heap grew to about twice its live set, and the estimate was twice
// the sum above: 447 MiB and 1,168 MiB measured then. The data sets and
// the model are not counted, nor the second stage product and block
// buffer of the workbench when it chooses ρ while a run goes on.
func ProblemBytes(T, n int) int64 {
	if T <= 0 || n <= 0 {
		return 0
	}
	t, nn := float64(T), float64(n)
	h := 4 * nn * t
	if int64(n)*int64(T)*4 > denseLimit() {
		h = nn * t // compact: one-byte leaf codes (trees of at most 256 leaves)
	}
	m := min(n, gramDocs)
	block := 8 * float64((m+gramSub-1)/gramSub) * float64(min(n, gramSub)+gramPad) * (t + 2)
	b := 1.25 * (16*(t+1)*(t+1) + h + block)
	if b >= math.MaxInt64/2 {
		return math.MaxInt64 / 2
	}
	return int64(b)
}

// MemoryError is the error of a cascade problem that would need more memory
// than is available (CheckProblemMemory).
type MemoryError struct {
	Trees, Docs int
	Need, Avail int64 // bytes: ProblemBytes, and what the machine has
	// WayOut ends the message: what to do (default: "use a model with
	// fewer trees").
	WayOut string
}

func (e *MemoryError) Error() string {
	way := e.WayOut
	if way == "" {
		way = "use a model with fewer trees"
	}
	docs := ""
	if e.Docs > 0 {
		docs = fmt.Sprintf(" on %s training documents", groupDigits(e.Docs))
	}
	return fmt.Sprintf("the cascade problem of %s trees%s needs about %s of memory (two Gram products HᵀΩH of %s×%[4]s float64, which grow with the square of the trees), more than the %s available: %s",
		groupDigits(e.Trees), docs, gibibytes(e.Need), groupDigits(e.Trees+1), gibibytes(e.Avail), way)
}

// CheckProblemMemory returns a *MemoryError when the cascade problem of T
// trees on n training documents (n 0 when not known yet: the Gram products
// alone are counted) would need more memory than the machine has available
// (data.AvailableMemory: MemAvailable, or less under a cgroup's limit), so
// that it is refused at once instead of the process being killed for want
// of memory; nil when it fits or the memory available is not known.
// NewProblem checks it before it builds anything.
func CheckProblemMemory(T, n int) error {
	avail := availableMemory()
	if avail <= 0 {
		return nil
	}
	need := ProblemBytes(T, max(n, 1)) // n 0: the products, and H of one document
	if need <= avail {
		return nil
	}
	return &MemoryError{Trees: T, Docs: max(n, 0), Need: need, Avail: avail}
}

// gibibytes formats a size in bytes as "19.0 GiB" ("512 MiB" below 1 GiB,
// "12 KiB" below 1 MiB).
func gibibytes(b int64) string { return data.SizeString(b) }

// groupDigits writes n with commas between groups of three digits.
func groupDigits(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + groupDigits(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
