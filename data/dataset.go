package data

import (
	"fmt"
	"math"
)

// Dataset is a ranking data set held dense and column-major: the value of
// feature f (0-based) for document i is Cols[f][i]. Documents of one query
// are contiguous; query q holds documents QueryOffsets[q] to
// QueryOffsets[q+1]-1.
type Dataset struct {
	Name         string      // file name or built-in name, for messages
	Cols         [][]float32 // NumFeatures columns of NumDocs values each
	Labels       []float32   // one per document
	QueryIDs     []int64     // one per query, in file order
	QueryOffsets []int       // len(QueryIDs)+1 offsets into the documents
	HasQID       bool        // false when the file had no qid: one query holds all documents
	// QueryFile is the file of query sizes beside a data file without
	// qids that gave it its queries (FILE.query, FILE.group), numbered
	// from 1; "" when the queries came from the lines' qids, or there
	// are none.
	QueryFile string
	// FileFeatures is the highest feature index in the file it was read
	// from (0 when it was not read from one). NumFeatures is more when
	// ReadOptions.MinFeatures padded it with columns of zeros.
	FileFeatures int
	// Absent is how many values of features 1 to FileFeatures the file
	// left out of its lines (documents × FileFeatures minus the IDX:VAL
	// pairs given); they read as 0, or as NaN when AbsentMissing.
	Absent int64
	// Given is, for each feature of the file (Given[f] for column f, up
	// to FileFeatures), how many of its lines give it; nil when d was not
	// read from a file. LeftOutOf tells which features a file leaves out.
	Given []int64
	// AbsentMissing is ReadOptions.AbsentMissing of the read: left-out
	// values and padding columns are NaN.
	AbsentMissing bool

	widest lineWidth // of the file's lines, for StrayWarning

	// Document ids (the comment after '#') are packed into one buffer so that
	// a million of them cost the garbage collector nothing.
	docIDBuf []byte
	docIDEnd []int // end offset of document i's id in docIDBuf (ids may total more than 4 GiB)
}

// LeftOut is how many feature values the file did not give: Absent, and
// every value of the columns ReadOptions.MinFeatures added beyond the
// file's features, which no line gives either.
func (d *Dataset) LeftOut() int64 {
	n := d.Absent
	if d.FileFeatures > 0 && d.NumFeatures() > d.FileFeatures {
		n += int64(d.NumDocs()) * int64(d.NumFeatures()-d.FileFeatures)
	}
	return n
}

// LeftOutOf is how many values of column f (feature f+1) the file did not
// give: NumDocs less Given[f], or every document for a column that
// ReadOptions.MinFeatures added beyond the file's features. Without Given
// (d not read from a file) it cannot tell the features apart, and gives
// Absent (at most NumDocs) for every column.
func (d *Dataset) LeftOutOf(f int) int64 {
	n := int64(d.NumDocs())
	switch {
	case f < 0 || f >= d.NumFeatures():
		return 0
	case f < len(d.Given):
		return n - d.Given[f]
	case d.FileFeatures > 0 && f >= d.FileFeatures:
		return n
	}
	return min(d.Absent, n)
}

// PaddingWarning says, when ReadOptions.MinFeatures padded d beyond the
// features of its file (a model of another data set, most likely: 136
// features on MQ2008's 46), that those features read as 0 (or as missing);
// "" otherwise.
func (d *Dataset) PaddingWarning() string {
	n := d.NumFeatures()
	if d.FileFeatures == 0 || d.FileFeatures >= n {
		return ""
	}
	as := "0"
	if d.AbsentMissing {
		as = "missing"
	}
	which := fmt.Sprintf("features %d-%d read", d.FileFeatures+1, n)
	if n == d.FileFeatures+1 { // one more, as an XGBoost model of the libsvm reader's indices has
		which = fmt.Sprintf("feature %d reads", n)
	}
	return fmt.Sprintf("%s has features up to %d, and %d are expected; %s as %s for every document",
		d.Name, d.FileFeatures, n, which, as)
}

// StrayWarning says, when one line of the file has a feature index far
// above every other line's (more than 4 times, and at least 1,000), which
// line: the columns up to it are held for that line alone (data sets are
// dense), and the reading, binning and scoring of them are slow (a stray
// 200000:0.5 on one line of MQ2008's 46 features took a 20-tree training
// from 0.1 s to 13 s). "" otherwise.
func (d *Dataset) StrayWarning() string {
	w := d.widest
	if w.width < 1000 || w.width <= 4*w.next || d.NumDocs() < 2 {
		return ""
	}
	return fmt.Sprintf("%s:%d: feature index %d, where no other line goes past %d: %d columns of features are held for this line alone (data is dense), which slows reading, training and scoring; is the index a mistake?",
		d.Name, w.line, w.width, w.next, w.width-w.next)
}

// UnusedWarning says, when the file has features beyond the expected
// number (those of the model that scores it, or of the training set for a
// validation set), that they are not used; "" otherwise, and when nothing
// is expected (expected 0) or the data set was not read from a file.
func (d *Dataset) UnusedWarning(expected int) string {
	if expected <= 0 || d.FileFeatures <= expected {
		return ""
	}
	which := fmt.Sprintf("features %d-%d are", expected+1, d.FileFeatures)
	if d.FileFeatures == expected+1 {
		which = fmt.Sprintf("feature %d is", d.FileFeatures)
	}
	return fmt.Sprintf("%s has features up to %d, and %d are expected; %s not used", d.Name, d.FileFeatures, expected, which)
}

// QIDWarning says, when train has qids and d, a file scored beside it
// (validation or test data), has none, that d's metrics rank all its
// documents as one query: a qid column stripped, or the wrong file; ""
// otherwise, and for a file of one document.
func (d *Dataset) QIDWarning(train *Dataset) string {
	if !train.HasQID || d.HasQID || d.NumDocs() < 2 {
		return ""
	}
	return fmt.Sprintf("%s has no qid, where %s has: its metrics rank all its %d documents as one query", d.Name, train.Name, d.NumDocs())
}

// Constant reports whether no feature of d has two values on its
// documents, NaN (a missing value, which binning puts in the largest
// values' bin) aside, so that no tree can split on d; true of data
// without features.
func (d *Dataset) Constant() bool {
	for _, col := range d.Cols {
		first := float32(math.NaN())
		for _, v := range col {
			switch {
			case v != v: // NaN
			case first != first:
				first = v
			case v != first:
				return false
			}
		}
	}
	return true
}

// NumDocs returns the number of documents.
func (d *Dataset) NumDocs() int { return len(d.Labels) }

// NumFeatures returns the number of feature columns.
func (d *Dataset) NumFeatures() int { return len(d.Cols) }

// NumQueries returns the number of queries.
func (d *Dataset) NumQueries() int { return len(d.QueryIDs) }

// Col returns the column of feature f (0-based). The slice is shared; callers
// must not modify it.
func (d *Dataset) Col(f int) []float32 { return d.Cols[f] }

// Query returns the half-open document range [lo, hi) of query q.
func (d *Dataset) Query(q int) (lo, hi int) { return d.QueryOffsets[q], d.QueryOffsets[q+1] }

// DocID returns the comment that followed '#' on document i's line, with
// surrounding white space trimmed, or "" when the line had none.
func (d *Dataset) DocID(i int) string {
	if d.docIDEnd == nil {
		return ""
	}
	lo := 0
	if i > 0 {
		lo = d.docIDEnd[i-1]
	}
	return string(d.docIDBuf[lo:d.docIDEnd[i]])
}

// SetDocIDs replaces the document ids; ids must have one entry per document.
func (d *Dataset) SetDocIDs(ids []string) {
	if len(ids) != d.NumDocs() {
		panic(fmt.Sprintf("data: SetDocIDs: %d ids for %d documents", len(ids), d.NumDocs()))
	}
	d.docIDBuf = d.docIDBuf[:0]
	d.docIDEnd = make([]int, len(ids))
	for i, s := range ids {
		d.docIDBuf = append(d.docIDBuf, s...)
		d.docIDEnd[i] = len(d.docIDBuf)
	}
}

// Row copies the features of document i into dst (length NumFeatures) and
// returns it; dst is allocated when nil.
func (d *Dataset) Row(dst []float32, i int) []float32 {
	if dst == nil {
		dst = make([]float32, len(d.Cols))
	}
	for f, c := range d.Cols {
		dst[f] = c[i]
	}
	return dst
}

// Validate checks the structural invariants of d and returns the first one
// that does not hold. Readers and generators always produce valid data sets;
// Validate is for data sets assembled by hand.
func (d *Dataset) Validate() error {
	n := len(d.Labels)
	for f, c := range d.Cols {
		if len(c) != n {
			return fmt.Errorf("data: column %d has %d values for %d documents", f+1, len(c), n)
		}
	}
	if len(d.QueryOffsets) != len(d.QueryIDs)+1 {
		return fmt.Errorf("data: %d query offsets for %d queries", len(d.QueryOffsets), len(d.QueryIDs))
	}
	if d.QueryOffsets[0] != 0 || d.QueryOffsets[len(d.QueryOffsets)-1] != n {
		return fmt.Errorf("data: query offsets do not cover the %d documents", n)
	}
	for q := 0; q < len(d.QueryIDs); q++ {
		if d.QueryOffsets[q+1] <= d.QueryOffsets[q] {
			return fmt.Errorf("data: query %d is empty", d.QueryIDs[q])
		}
	}
	if d.docIDEnd != nil && len(d.docIDEnd) != n {
		return fmt.Errorf("data: %d document ids for %d documents", len(d.docIDEnd), n)
	}
	return nil
}

// PaddedCols returns d's columns, with all-zero columns added up to want
// (a model reads more features than d has: they are 0).
func (d *Dataset) PaddedCols(want int) [][]float32 {
	if len(d.Cols) >= want {
		return d.Cols
	}
	// A new slice (d's stays as it is), with one column of zeros shared by
	// the features it lacks, which no one writes.
	cols := make([][]float32, want)
	copy(cols, d.Cols)
	zeros := make([]float32, d.NumDocs())
	for f := len(d.Cols); f < want; f++ {
		cols[f] = zeros
	}
	return cols
}
