package tree

import (
	"math"
	"math/rand/v2"
	"testing"
)

// FuzzLeafIndexBlock: on any tree and any values, the blocked walk of
// Predict and LeafIndices reaches the leaves LeafIndex does. The tree
// comes from a seed (randomTree), the documents from bytes: each byte a
// value near the thresholds, an infinity or NaN.
func FuzzLeafIndexBlock(f *testing.F) {
	f.Add(uint64(1), uint8(31), []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	f.Add(uint64(2), uint8(0), []byte{255, 254, 253})
	f.Add(uint64(3), uint8(63), make([]byte, 3*predictBlock+2))
	f.Fuzz(func(t *testing.T, seed uint64, leaves uint8, vals []byte) {
		const d = 3
		tr := randomTree(rand.New(rand.NewPCG(seed, 1)), 1+int(leaves)%64, d)
		e := &Ensemble{NumFeatures: d, Trees: []Tree{tr}}
		n := len(vals) / d
		cols := make([][]float32, d)
		for f := range cols {
			cols[f] = make([]float32, n)
		}
		for i := range n * d {
			var v float32
			switch b := vals[i]; b {
			case 255:
				v = float32(math.NaN())
			case 254:
				v = float32(math.Inf(1))
			case 253:
				v = float32(math.Inf(-1))
			default:
				v = float32(int(b)%9-4) / 2 // −2 … 2 in halves: on and between the thresholds
			}
			cols[i%d][i/d] = v
		}
		scores := e.Predict(nil, cols, n, -1)
		leavesOf := e.LeafIndices(nil, cols, n, -1)
		x := make([]float32, d)
		for i := range n {
			for f := range x {
				x[f] = cols[f][i]
			}
			l := tr.LeafIndex(x)
			if int(leavesOf[i]) != l || scores[i] != tr.Leaves[l] {
				t.Fatalf("doc %d %v: leaf %d score %v, want leaf %d score %v", i, x, leavesOf[i], scores[i], l, tr.Leaves[l])
			}
		}
	})
}
