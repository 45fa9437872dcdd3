package tree

import "sync"

// groupWidth is how many features share one row-major block of codes. A
// leaf's documents are scattered over the data set, so reading one code per
// document from a column pulls a whole cache line for one byte; in a
// row-major block a document's codes for groupWidth features sit together,
// and the block's histogram (groupWidth × 256 bins) stays in the L2 cache.
const groupWidth = 4

// featureGroups holds the codes of each group of groupWidth consecutive
// features row-major: rows[g][i*w+k] is the code of document i for feature
// start[g]+k, where w is the group's width.
type featureGroups struct {
	rows  [][]uint8
	start []int // first feature of each group; len(rows)+1 entries
}

func newFeatureGroups(codes [][]uint8, workers int) featureGroups {
	d := len(codes)
	var fg featureGroups
	for f := 0; f < d; f += groupWidth {
		fg.start = append(fg.start, f)
	}
	fg.start = append(fg.start, d)
	fg.rows = make([][]uint8, len(fg.start)-1)
	var wg sync.WaitGroup
	for w := 0; w < max(workers, 1); w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for gi := w; gi < len(fg.rows); gi += max(workers, 1) {
				lo, hi := fg.start[gi], fg.start[gi+1]
				width := hi - lo
				n := 0
				if d > 0 {
					n = len(codes[0])
				}
				r := make([]uint8, n*width)
				for k := 0; k < width; k++ {
					col := codes[lo+k]
					for i, c := range col {
						r[i*width+k] = c
					}
				}
				fg.rows[gi] = r
			}
		}(w)
	}
	wg.Wait()
	return fg
}

// buildGroup adds the documents idx (with gradient pairs gho[j] for idx[j])
// to the histograms of one group of width features; h is the group's part
// of the node histogram (width × 256 bins). all says idx is every document
// in order, and gho is then gh itself.
func buildGroup(h []hbin, rows []uint8, width int, idx []int32, gho []GradPair, all bool) {
	h = h[:width*256]
	if all {
		for i, p := range gho {
			row := rows[i*width : i*width+width]
			g, hh := float64(p.G), float64(p.H)
			for k, c := range row {
				b := &h[k<<8|int(c)]
				b.G += g
				b.H += hh
				b.N++
			}
		}
		return
	}
	gho = gho[:len(idx)]
	for j, i := range idx {
		row := rows[int(i)*width : int(i)*width+width]
		g, hh := float64(gho[j].G), float64(gho[j].H)
		for k, c := range row {
			b := &h[k<<8|int(c)]
			b.G += g
			b.H += hh
			b.N++
		}
	}
}

// buildGroup4 is buildGroup for a full group of 4 features, unrolled with
// fixed-size arrays so that no access needs a bounds check.
func buildGroup4(hs []hbin, rows []uint8, idx []int32, gho []GradPair, all bool) {
	h := (*[4 * 256]hbin)(hs)
	add := func(r *[4]uint8, g, hh float64) {
		b0 := &h[0<<8|int(r[0])]
		b1 := &h[1<<8|int(r[1])]
		b2 := &h[2<<8|int(r[2])]
		b3 := &h[3<<8|int(r[3])]
		b0.G += g
		b0.H += hh
		b0.N++
		b1.G += g
		b1.H += hh
		b1.N++
		b2.G += g
		b2.H += hh
		b2.N++
		b3.G += g
		b3.H += hh
		b3.N++
	}
	if all {
		rows = rows[:4*len(gho)]
		for i, p := range gho {
			add((*[4]uint8)(rows[4*i:]), float64(p.G), float64(p.H))
		}
		return
	}
	gho = gho[:len(idx)]
	// Load the rows of 8 scattered documents before using any of them, so
	// that their cache misses overlap instead of queueing behind the updates.
	j := 0
	for ; j+8 <= len(idx); j += 8 {
		ix := (*[8]int32)(idx[j:])
		r0 := *(*[4]uint8)(rows[4*int(ix[0]):])
		r1 := *(*[4]uint8)(rows[4*int(ix[1]):])
		r2 := *(*[4]uint8)(rows[4*int(ix[2]):])
		r3 := *(*[4]uint8)(rows[4*int(ix[3]):])
		r4 := *(*[4]uint8)(rows[4*int(ix[4]):])
		r5 := *(*[4]uint8)(rows[4*int(ix[5]):])
		r6 := *(*[4]uint8)(rows[4*int(ix[6]):])
		r7 := *(*[4]uint8)(rows[4*int(ix[7]):])
		p := (*[8]GradPair)(gho[j:])
		add(&r0, float64(p[0].G), float64(p[0].H))
		add(&r1, float64(p[1].G), float64(p[1].H))
		add(&r2, float64(p[2].G), float64(p[2].H))
		add(&r3, float64(p[3].G), float64(p[3].H))
		add(&r4, float64(p[4].G), float64(p[4].H))
		add(&r5, float64(p[5].G), float64(p[5].H))
		add(&r6, float64(p[6].G), float64(p[6].H))
		add(&r7, float64(p[7].G), float64(p[7].H))
	}
	for ; j < len(idx); j++ {
		add((*[4]uint8)(rows[4*int(idx[j]):]), float64(gho[j].G), float64(gho[j].H))
	}
}
