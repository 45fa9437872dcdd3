package tree

// LeafIndexBlock writes into dst[j] the leaf that document j of rows
// (row-major, d features each, len(dst) documents) reaches in t: what
// LeafIndex gives for each. nan says whether rows may hold a NaN. Without
// one, four documents go down the tree together, each step chosen without
// a branch, so that their chains of dependent loads overlap and no
// mispredicted branch flushes them (about two thirds of the time of a walk
// per document, BenchmarkPredict); a document already at its leaf stays
// there while the others finish.
func (t *Tree) LeafIndexBlock(dst []int32, rows []float32, d int, nan bool) {
	nodes := t.Nodes
	if len(nodes) == 0 {
		clear(dst)
		return
	}
	j := 0
	for ; j+4 <= len(dst) && !nan; j += 4 {
		x0 := rows[j*d : j*d+d]
		x1 := rows[(j+1)*d : (j+1)*d+d]
		x2 := rows[(j+2)*d : (j+2)*d+d]
		x3 := rows[(j+3)*d : (j+3)*d+d]
		var n0, n1, n2, n3 int32
		for n0&n1&n2&n3 >= 0 { // some document is not at a leaf (leaves are < 0)
			n0 = step(nodes, x0, n0)
			n1 = step(nodes, x1, n1)
			n2 = step(nodes, x2, n2)
			n3 = step(nodes, x3, n3)
		}
		dst[j], dst[j+1], dst[j+2], dst[j+3] = ^n0, ^n1, ^n2, ^n3
	}
	for ; j < len(dst); j++ {
		dst[j] = int32(t.LeafIndex(rows[j*d : j*d+d]))
	}
}

// AddBlock adds to dst[j] t's value for document j of rows (row-major, d
// features each, len(dst) documents), walking as LeafIndexBlock with nan;
// leaf, at least len(dst) long, is its scratch.
func (t *Tree) AddBlock(dst []float64, leaf []int32, rows []float32, d int, nan bool) {
	leaf = leaf[:len(dst)]
	t.LeafIndexBlock(leaf, rows, d, nan)
	for j, l := range leaf {
		dst[j] += t.Leaves[l]
	}
}

// step moves a document with features x from node n one level down, or
// leaves it where it is when n is a leaf (< 0). x must hold no NaN: it
// goes right where the threshold is not above the value.
func step(nodes []Node, x []float32, n int32) int32 {
	nd := &nodes[max(n, 0)]
	var right int32
	if x[nd.Feature] > nd.Threshold {
		right = 1
	}
	next := nd.Left + right*(nd.Right-nd.Left)
	leaf := n >> 31 // all ones at a leaf
	return next&^leaf | n&leaf
}
