package tree

import (
	"context"
	"encoding/binary"
	"sync"
	"unsafe"
)

// groupWidth is how many features share one row-major block of codes. A
// leaf's documents are scattered over the data set, so reading one code per
// document from a column pulls a whole cache line for one byte; in a
// row-major block a document's codes for groupWidth features sit together,
// and the block's histogram (groupWidth × 256 bins) stays in the L1 cache.
// Features are padded with all-zero columns to a multiple of groupWidth.
const groupWidth = 4

// featureGroups holds the codes of consecutive features row-major, in groups
// of a fixed width (a multiple of 4): rows[g][i*width+k] is the code of
// document i for feature g*width+k.
type featureGroups struct {
	rows  [][]uint8
	width int
}

// newFeatureGroups lays out codes (padded to d features, a multiple of
// width) in groups of width features. Once ctx is done it stops between
// features, and the groups are incomplete: the caller returns ctx's error.
func newFeatureGroups(ctx context.Context, codes [][]uint8, n, d, width, workers int) featureGroups {
	fg := featureGroups{rows: make([][]uint8, d/width), width: width}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for gi := w; gi < len(fg.rows); gi += workers {
				r := make([]uint8, n*width)
				for k := 0; k < width && gi*width+k < len(codes) && ctx.Err() == nil; k++ {
					for i, c := range codes[gi*width+k] {
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

// Prefetching in buildScattered: every prefetchBatch documents, the rows of
// the prefetchBatch documents prefetchAhead places ahead are requested.
const (
	prefetchBatch = 8
	prefetchAhead = 32
)

// chunkDocs is how many scattered documents buildScattered gathers at a
// time (Go kernels).
const chunkDocs = 1024

// wideChunk is how many scattered documents buildScattered gives the
// assembly kernel at a time: their rows (wideChunk × width bytes) stay in
// the cache while the kernel runs over each group of 4 features in turn.
// 256, 512 and 1024 are alike within the noise (go test ./engine/tree
// -bench 'Grow$').
const wideChunk = 512

// buildScattered is the histogram builder for small leaves, whose documents
// are scattered over the data set; rows are the wide group's rows, width
// bytes each. With the assembly kernels it takes the documents a chunk at
// a time, and runs hist4Wide over the chunk for each group of 4 features
// in turn, reading the codes in place; the first pass prefetches the rows
// and leaves them in the cache for the others (a fifth faster than
// gathering first, in BenchmarkGrow). Without them it gathers each
// document's codes once (a few cache lines per document), transposed into
// width-4 blocks of a chunk-sized buffer, and then runs the sequential
// width-4 kernel on each block. h is the wide group's part of the node
// histogram; buf must hold width/4 × chunkDocs values. unitH is as for
// buildGroup4. strides are the bins per feature of each group of 4 (see
// Grower.stride; nil: 256 for all): a group of fewer than 256 is built by
// buildGroupNarrow, its 4 × stride bins following the group before it.
func buildScattered(h []hbin, rows []uint8, width int, idx []int32, gho []GradPair, buf []uint32, unitH bool, strides []int) {
	ng := width / 4
	stride := func(g int) int {
		if strides == nil {
			return 256
		}
		return strides[g]
	}
	if haveHistAsm && len(idx) > 0 {
		for c := 0; c < len(idx); c += wideChunk {
			ids := idx[c:min(c+wideChunk, len(idx))]
			first := true
			for g, base := 0, 0; g < ng; g++ {
				if s := stride(g); s != 256 {
					buildGroupNarrow(h[base:], s, rows, width, 4*g, ids, gho[c:c+len(ids)], false, unitH)
					base += 4 * s
					continue
				}
				hist4Wide(&h[base], &rows[4*g], width, &ids[0], &gho[c], len(ids), !unitH, first)
				first = false
				base += 4 * 256
			}
		}
		return
	}
	for c := 0; c < len(idx); c += chunkDocs {
		ids := idx[c:min(c+chunkDocs, len(idx))]
		for j, i := range ids {
			if j%prefetchBatch == 0 && j+prefetchAhead+prefetchBatch <= len(ids) {
				prefetchRows(unsafe.Pointer(unsafe.SliceData(rows)), unsafe.Pointer(&ids[j+prefetchAhead]), prefetchBatch, width, 2)
			}
			row := rows[int(i)*width:][:width]
			for g := 0; g < ng; g++ {
				buf[g*chunkDocs+j] = binary.NativeEndian.Uint32(row[4*g:])
			}
		}
		for g, base := 0, 0; g < ng; g++ {
			block := buf[g*chunkDocs : g*chunkDocs+len(ids)]
			codes := unsafe.Slice((*uint8)(unsafe.Pointer(unsafe.SliceData(block))), 4*len(block))
			s := stride(g)
			if s != 256 {
				buildGroupNarrow(h[base:], s, codes, 4, 0, nil, gho[c:c+len(ids)], true, unitH)
			} else {
				buildGroup4(h[base:base+4*256], codes, nil, gho[c:c+len(ids)], true, unitH)
			}
			base += 4 * s
		}
	}
}

// buildGroupNarrow is buildGroup4 for a group of 4 features of at most
// stride bins each (stride < 256): its histogram h holds 4 × stride bins,
// feature k's from k × stride. The group's codes are at column col of rows
// of width bytes: document i's at rows[i*width+col:][:4] (with all, the
// j-th row is the j-th document). The bins get the same sums as the other
// kernels give, bit for bit: each adds a bin's documents in the order of
// idx. It is plain Go: only very wide data sets, whose 256-bin histograms
// would not fit in memory, have narrow groups (NewGrowerContext).
func buildGroupNarrow(h []hbin, stride int, rows []uint8, width, col int, idx []int32, gho []GradPair, all, unitH bool) {
	h = h[:4*stride]
	add := func(r []uint8, p GradPair) {
		g, hh := float64(p.G), float64(p.H)
		r = r[:4]
		for k, c := range r {
			b := &h[k*stride+int(c)]
			b.G += g
			if unitH {
				b.H++
			} else {
				b.H += hh
				b.N++
			}
		}
	}
	if all {
		for j, p := range gho {
			add(rows[j*width+col:], p)
		}
		return
	}
	for j, i := range idx {
		add(rows[int(i)*width+col:], gho[j])
	}
}

// buildGroup4 adds the documents idx (with gradient pairs gho[j] for idx[j])
// to the histograms of one group of 4 features; h is the group's part of the
// node histogram (4 × 256 bins). all says idx is every document in order,
// and gho is then gh itself. unitH says every hessian is 1: the bins' N is
// then left alone, H counting the documents (see Grower.unitH). On amd64
// with AVX the assembly kernels do the work (hist_amd64.s; 2 to 2.4 times
// as fast as the Go ones with hessians of 1, 1.3 to 1.6 times otherwise:
// go test ./engine/tree -run '^$' -bench Hist4), else the Go ones, with
// the same sums bit for bit.
func buildGroup4(hs []hbin, rows []uint8, idx []int32, gho []GradPair, all, unitH bool) {
	if haveHistAsm {
		h := &hs[:4*256][0]
		if all {
			n := len(gho)
			if n > 0 {
				hist4Seq(h, &rows[:4*n][0], &gho[0], n, !unitH)
			}
			return
		}
		n := len(idx)
		if n > 0 {
			gho = gho[:n]
			hist4Wide(h, unsafe.SliceData(rows), 4, &idx[0], &gho[0], n, !unitH, true)
		}
		return
	}
	buildGroup4Go(hs, rows, idx, gho, all, unitH)
}

// buildGroup4Go is buildGroup4 in Go. It is unrolled with fixed-size
// arrays so that no access needs a bounds check.
func buildGroup4Go(hs []hbin, rows []uint8, idx []int32, gho []GradPair, all, unitH bool) {
	if unitH {
		buildGroup4Unit(hs, rows, idx, gho, all)
		return
	}
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
		if j+prefetchAhead+8 <= len(idx) {
			prefetchRows(unsafe.Pointer(unsafe.SliceData(rows)), unsafe.Pointer(&idx[j+prefetchAhead]), 8, 4, 1)
		}
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

// buildGroup4Unit is buildGroup4Go for hessians of 1: gradients and
// counts only, the counts kept in H (a float64, which counts exactly). It
// is a copy of buildGroup4Go's loops rather than a branch in them: a test
// of unitH per document slowed the general kernel by a quarter (go test
// ./engine/tree -bench Grow/hessian=varied, before the assembly kernels). One generic kernel over two
// adder types was slower still (about 90 ms per tree against 53–58): the
// compiler does not inline a method called through a type parameter.
func buildGroup4Unit(hs []hbin, rows []uint8, idx []int32, gho []GradPair, all bool) {
	h := (*[4 * 256]hbin)(hs)
	add := func(r *[4]uint8, g float64) {
		b0 := &h[0<<8|int(r[0])]
		b1 := &h[1<<8|int(r[1])]
		b2 := &h[2<<8|int(r[2])]
		b3 := &h[3<<8|int(r[3])]
		b0.G += g
		b0.H++
		b1.G += g
		b1.H++
		b2.G += g
		b2.H++
		b3.G += g
		b3.H++
	}
	if all {
		rows = rows[:4*len(gho)]
		for i, p := range gho {
			add((*[4]uint8)(rows[4*i:]), float64(p.G))
		}
		return
	}
	gho = gho[:len(idx)]
	// Load the rows of 8 scattered documents before using any of them, so
	// that their cache misses overlap instead of queueing behind the updates.
	j := 0
	for ; j+8 <= len(idx); j += 8 {
		if j+prefetchAhead+8 <= len(idx) {
			prefetchRows(unsafe.Pointer(unsafe.SliceData(rows)), unsafe.Pointer(&idx[j+prefetchAhead]), 8, 4, 1)
		}
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
		add(&r0, float64(p[0].G))
		add(&r1, float64(p[1].G))
		add(&r2, float64(p[2].G))
		add(&r3, float64(p[3].G))
		add(&r4, float64(p[4].G))
		add(&r5, float64(p[5].G))
		add(&r6, float64(p[6].G))
		add(&r7, float64(p[7].G))
	}
	for ; j < len(idx); j++ {
		add((*[4]uint8)(rows[4*int(idx[j]):]), float64(gho[j].G))
	}
}
