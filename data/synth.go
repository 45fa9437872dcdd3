package data

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
)

// mslrCostFile is the MSLR-WEB10K cost labels of Gallagher et al. (WSDM 2019):
// one integer per line, line i for feature i.
//
//go:embed builtin/mslr-web10k.feature_cost.txt
var mslrCostFile string

var mslrCosts = parseMSLRCosts(mslrCostFile)

// parseMSLRCosts reads the embedded cost file. It is part of the binary, so a
// malformed file is a build mistake and panics.
func parseMSLRCosts(s string) []float64 {
	var costs []float64
	for i, line := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		c := 0
		if line == "" {
			panic(fmt.Sprintf("data: builtin MSLR cost file: line %d is empty", i+1))
		}
		for _, r := range line {
			if r < '0' || r > '9' {
				panic(fmt.Sprintf("data: builtin MSLR cost file: line %d: %q is not an integer", i+1, line))
			}
			c = 10*c + int(r-'0')
		}
		costs = append(costs, float64(c))
	}
	if len(costs) != 136 {
		panic(fmt.Sprintf("data: builtin MSLR cost file has %d lines, want 136", len(costs)))
	}
	return costs
}

// MSLRCosts returns the 136 MSLR-WEB10K feature costs (values 1, 10, 20, 50
// and 100; see builtin/mq2008/README.md). Each call returns a fresh copy.
func MSLRCosts() []float64 { return append([]float64(nil), mslrCosts...) }

// Limits that keep one query (held in memory while it is written) and one
// output line to a few hundred megabytes at worst: each flag alone, and the
// largest query's values together (documents × features, 8 bytes each:
// 256 MiB; 100,000 documents a query with 136 features use 163 MB).
// Without the joint limit, --docs-per-query 100000 --features 99999 asked
// for 120 GB and crashed out of memory with a runtime stack trace.
const (
	MaxSynthDocsPerQuery = 100_000
	MaxSynthFeatures     = 99_999
	MaxSynthQueryValues  = 1 << 25
)

// SynthOptions describes a synthetic data set; see WriteSynthetic for its shape.
type SynthOptions struct {
	Queries      int                   // number of queries (>= 1)
	DocsPerQuery int                   // documents per query M (>= 1); sizes are uniform in [max(1, M/2), M+M/2] (integer division: the mean is M − ½ when M > 1 is odd)
	Features     int                   // number of features; 0 means len(Costs), or 136 when Costs is nil
	Costs        []float64             // per-feature cost (len == Features); nil = the MSLR costs, cycled when Features != 136
	Seed         uint64                // seeds the documents: another seed is another sample of the same world
	World        uint64                // seeds the features' recipes (role, scale, informativeness); 0 means 1. Train, validation and test sets must share it
	Progress     func(docsWritten int) // optional; called after every ~65536 documents and once at the end
}

// WorldSeed returns the recipe seed used: World, or 1 when World is 0.
func (o SynthOptions) WorldSeed() uint64 {
	if o.World == 0 {
		return 1
	}
	return o.World
}

// Validate reports the first option that is out of range. Messages name the
// `cronus gen` flags.
func (o SynthOptions) Validate() error {
	switch {
	case o.Queries < 1:
		return fmt.Errorf("--queries must be at least 1 (got %d)", o.Queries)
	case o.DocsPerQuery < 1:
		return fmt.Errorf("--docs-per-query must be at least 1 (got %d)", o.DocsPerQuery)
	case o.DocsPerQuery > MaxSynthDocsPerQuery:
		return fmt.Errorf("--docs-per-query must be at most %d (got %d)", MaxSynthDocsPerQuery, o.DocsPerQuery)
	case o.Features < 0:
		return fmt.Errorf("--features must be at least 1 (got %d)", o.Features)
	case o.Features > MaxSynthFeatures:
		return fmt.Errorf("--features must be at most %d (got %d)", MaxSynthFeatures, o.Features)
	}
	if o.Costs != nil && len(o.Costs) == 0 {
		return errors.New("--costs: no costs given")
	}
	// In int64: on a 32-bit int the product of the largest query and
	// features (up to 1.5·10^10) wrapped, and could pass the check.
	if _, hi := o.docRange(); int64(hi)*int64(o.features()) > MaxSynthQueryValues {
		return fmt.Errorf("--docs-per-query %d with %d features: the largest query (%d documents) would hold %d values in memory, more than %d; lower either", o.DocsPerQuery, o.features(), hi, int64(hi)*int64(o.features()), MaxSynthQueryValues)
	}
	if o.Costs != nil {
		if len(o.Costs) == 0 {
			return errors.New("--costs: no costs given")
		}
		if o.Features != 0 && len(o.Costs) != o.Features {
			return fmt.Errorf("--costs gives %d costs but --features is %d", len(o.Costs), o.Features)
		}
		for i, c := range o.Costs {
			if !ValidCost(c) {
				return fmt.Errorf("--costs: feature %d has cost %v; costs must be from 0 to %g", i+1, c, MaxCost)
			}
		}
	}
	return nil
}

// features returns the effective number of features.
func (o SynthOptions) features() int {
	switch {
	case o.Features > 0:
		return o.Features
	case o.Costs != nil:
		return len(o.Costs)
	}
	return len(mslrCosts)
}

// costs returns the effective per-feature costs.
func (o SynthOptions) costs() []float64 {
	if o.Costs != nil {
		return o.Costs
	}
	d := o.features()
	c := make([]float64, d)
	for f := range c {
		c[f] = mslrCosts[f%len(mslrCosts)]
	}
	return c
}

// docRange returns the smallest and largest number of documents of a query.
func (o SynthOptions) docRange() (lo, hi int) {
	m := o.DocsPerQuery
	return max(1, m/2), m + m/2
}

// The statistical shape; see WriteSynthetic.
const (
	synthQuerySD   = 0.75 // sd of the per-query relevance offset
	synthUseless   = 0.15 // fraction of features that carry no signal
	synthSignalMin = 0.15 // loading on z of the cheapest informative feature
	synthSignalMax = 1.2  // loading on z of the most expensive one
	maxSynthValue  = 1e9  // written values are clamped to ±maxSynthValue
	progressEvery  = 1 << 16
)

// synthLabelCum is the cumulative share of labels 0, 1, 2 and 3 (label 4 takes
// the rest): 50%, 25%, 15%, 7%, 3%.
var synthLabelCum = [4]float64{0.50, 0.75, 0.90, 0.97}

// synthShape is how a feature's standardised score r is turned into the
// written value.
type synthShape uint8

const (
	shapeReal   synthShape = iota // loc + scale·r: unbounded, may be negative (BM25, LMIR)
	shapeUnit                     // (r − min)/(max − min) over the query: LETOR QueryLevelNorm, in [0,1]
	shapeCount                    // ⌊exp(loc + scale·r)⌋: non-negative integers with many repeats (stream lengths)
	shapeSparse                   // scale·(r − loc) when r > loc, else exactly 0 (TF of a rare term)
	shapeBinary                   // 1 when r > loc, else 0 (boolean model)
)

// synthShapeCycle sets the mix of shapes: 30% real, 25% unit, 20% count,
// 20% sparse, 5% binary. It is interleaved so that a handful of features
// already gets every common shape; the order is then shuffled by the seed.
var synthShapeCycle = [20]synthShape{
	shapeReal, shapeUnit, shapeCount, shapeSparse,
	shapeReal, shapeUnit, shapeCount, shapeSparse,
	shapeReal, shapeUnit, shapeCount, shapeSparse,
	shapeReal, shapeUnit, shapeCount, shapeSparse,
	shapeReal, shapeUnit, shapeReal, shapeBinary,
}

// synthFeature is the fixed recipe of one feature.
type synthFeature struct {
	shape      synthShape
	a          float64 // loading on the latent relevance z (0 for a useless feature)
	c          float64 // loading on the per-document nuisance factor u
	b          float64 // sd of the per-query shift
	invSD      float64 // 1 / sd of the raw score, so that r is about N(0,1)
	loc, scale float64 // shape parameters, see synthShape
}

// Stream constants of the two PCG generators: one for the feature recipes,
// one for the documents.
const (
	pcgRecipes   = 0x6372_6f6e_7573_7231 // "cronusr1"
	pcgDocuments = 0x6372_6f6e_7573_6431 // "cronusd1"
)

// synthRecipes draws the per-feature recipes from the seed.
func synthRecipes(costs []float64, seed uint64) []synthFeature {
	d := len(costs)
	rng := rand.New(rand.NewPCG(seed, pcgRecipes))
	zVar := 1 + synthQuerySD*synthQuerySD

	// Informativeness grows with log(1+cost), scaled between the cheapest
	// and the most expensive feature of this cost vector.
	lmin, lmax := math.Inf(1), math.Inf(-1)
	for _, c := range costs {
		l := math.Log1p(c)
		lmin, lmax = min(lmin, l), max(lmax, l)
	}

	shapes := make([]synthShape, d)
	for f := range shapes {
		shapes[f] = synthShapeCycle[f%len(synthShapeCycle)]
	}
	rng.Shuffle(d, func(i, j int) { shapes[i], shapes[j] = shapes[j], shapes[i] })
	useless := make([]bool, d)
	for _, f := range rng.Perm(d)[:int(math.Round(synthUseless*float64(d)))] {
		useless[f] = true
	}

	fs := make([]synthFeature, d)
	for f := range fs {
		t := 0.5
		if lmax > lmin {
			t = (math.Log1p(costs[f]) - lmin) / (lmax - lmin)
		}
		ft := synthFeature{
			shape: shapes[f],
			a:     synthSignalMin + (synthSignalMax-synthSignalMin)*t,
			c:     0.8 * rng.Float64(),
			b:     0.2 + 0.6*rng.Float64(),
		}
		if useless[f] {
			ft.a = 0
		}
		ft.invSD = 1 / math.Sqrt(ft.a*ft.a*zVar+ft.c*ft.c+ft.b*ft.b+1)
		switch ft.shape {
		case shapeReal:
			ft.loc = -30 + 60*rng.Float64()
			ft.scale = math.Exp(math.Log(0.1) + math.Log(200)*rng.Float64()) // 0.1 to 20
		case shapeCount:
			ft.loc = 0.5 + 5.5*rng.Float64() // median count e^0.5 to e^6
			ft.scale = 0.3 + 0.6*rng.Float64()
		case shapeSparse:
			ft.loc = normalQuantile(0.5 + 0.4*rng.Float64()) // 50% to 90% zeros
			ft.scale = math.Exp(math.Log(0.5) + math.Log(40)*rng.Float64())
		case shapeBinary:
			ft.loc = normalQuantile(0.5 + 0.4*rng.Float64()) // 10% to 50% ones
		}
		fs[f] = ft
	}
	return fs
}

// normalQuantile returns Φ⁻¹(p) of the standard normal distribution.
func normalQuantile(p float64) float64 { return math.Sqrt2 * math.Erfinv(2*p-1) }

// WriteSynthetic writes a synthetic MSLR-shaped ranking data set to w in
// SVMlight/LETOR text and returns the number of documents written:
//
//	LABEL qid:Q 1:V 2:V ... D:V #docid = syn-Q-J
//
// with every feature present (dense, like MSLR), qids 1..Queries in order,
// J = 1..n within a query, LF line endings. Values are written with at most
// four decimals ("0.1234", "12.5", "3"); the written decimal is the value.
//
// The shape, built for cost-aware cascade experiments:
//
//   - Query q has n documents, n uniform in [max(1, M/2), M+M/2], and a
//     relevance offset o_q ~ N(0, 0.75²). Document j has the latent relevance
//     z = o_q + N(0,1), so some queries are hard (few relevant documents).
//   - Labels 0-4 cut z at the quantiles of its marginal N(0, 1+0.75²) so that
//     about 50%, 25%, 15%, 7% and 3% of all labels are 0, 1, 2, 3 and 4.
//   - Feature f has the raw score a_f·z + c_f·u + s_qf + N(0,1), where u ~ N(0,1)
//     is a per-document nuisance shared by all features (so features correlate
//     beyond relevance), s_qf ~ N(0, b_f²) is a per-query shift (query-level
//     effects, so ranking within a query is not the same as global
//     regression), c_f ~ U(0, 0.8) and b_f ~ U(0.2, 0.8). The loading a_f grows
//     linearly in log(1+cost) from 0.15 for the cheapest to 1.2 for the most
//     expensive feature: with the MSLR costs a cost-1 feature correlates with
//     z at about 0.15 and a cost-100 feature at about 0.8. A seeded 15% of the
//     features are useless (a_f = 0) whatever their cost.
//   - The raw score, standardised to r ≈ N(0,1), is written in one of five
//     shapes assigned by the seed: 30% real-valued (loc + scale·r, may be
//     negative), 25% min-max normalised per query to [0,1] (LETOR
//     QueryLevelNorm; a query with one document gets 0), 20% counts
//     (⌊exp(loc + scale·r)⌋, many repeated small integers), 20% sparse
//     (exactly 0 for 50-90% of documents, a positive tail otherwise) and 5%
//     binary 0/1. Every shape is non-decreasing in r; all values are finite.
//
// The same options give the same bytes, whatever GOMAXPROCS (math/rand/v2
// PCG seeded with Seed, one goroutine). Across CPU architectures a value may
// rarely differ in its last decimal, as math.Exp and fused multiply-adds round
// differently there. Only one query is held in memory and
// the output goes through a 1 MiB buffer, so the size of the data set does not
// matter. ctx is checked before every query; on cancellation the error is
// ctx.Err() and w has received a prefix of the data set.
func WriteSynthetic(ctx context.Context, w io.Writer, o SynthOptions) (docs int, err error) {
	if err := o.Validate(); err != nil {
		return 0, err
	}
	d := o.features()
	fs := synthRecipes(o.costs(), o.WorldSeed())
	lo, hi := o.docRange()
	rng := rand.New(rand.NewPCG(o.Seed, pcgDocuments))

	var theta [len(synthLabelCum)]float64
	zSD := math.Sqrt(1 + synthQuerySD*synthQuerySD)
	for k, p := range synthLabelCum {
		theta[k] = zSD * normalQuantile(p)
	}

	// " f:" for every feature (at most 7 bytes, as MaxSynthFeatures < 1e5).
	prefixes := make([]uint64, d)
	for f := range prefixes {
		var b [8]byte
		prefixes[f] = packText(append(appendUint(append(b[:0], ' '), uint64(f+1)), ':'))
	}

	// Every buffer is sized for the largest query up front, so that writing
	// allocates nothing after this point.
	r := make([]float64, hi*d) // standardised scores of the query, row-major
	labels := make([]uint8, hi)
	shift := make([]float64, d)
	qmin := make([]float64, d)
	qmax := make([]float64, d)
	line := make([]byte, 0, d*len(" 100000:-1000000000.0000")+64)
	bw := bufio.NewWriterSize(w, 1<<20)
	nextProgress := progressEvery

	for q := 1; q <= o.Queries; q++ {
		if err := ctx.Err(); err != nil {
			return docs, err
		}
		n := lo + rng.IntN(hi-lo+1)
		offset := synthQuerySD * rng.NormFloat64()
		for f := range fs {
			shift[f] = fs[f].b * rng.NormFloat64()
			qmin[f], qmax[f] = math.Inf(1), math.Inf(-1)
		}
		for j := range n {
			z := offset + rng.NormFloat64()
			label := uint8(0)
			for _, t := range theta {
				if z > t {
					label++
				}
			}
			labels[j] = label
			u := rng.NormFloat64()
			row := r[j*d : j*d+d]
			for f := range fs {
				ft := &fs[f]
				v := (ft.a*z + ft.c*u + shift[f] + rng.NormFloat64()) * ft.invSD
				row[f] = v
				qmin[f], qmax[f] = min(qmin[f], v), max(qmax[f], v)
			}
		}

		for j := range n {
			line = append(line[:0], '0'+labels[j])
			line = append(line, " qid:"...)
			line = appendUint(line, uint64(q))
			row := r[j*d : j*d+d]
			for f := range fs {
				line = appendPacked(line, prefixes[f])
				line = appendFixed4(line, fs[f].value(row[f], qmin[f], qmax[f]))
			}
			line = append(line, " #docid = syn-"...)
			line = appendUint(line, uint64(q))
			line = append(line, '-')
			line = appendUint(line, uint64(j+1))
			line = append(line, '\n')
			if _, err := bw.Write(line); err != nil {
				return docs, err
			}
			docs++
		}
		if o.Progress != nil && docs >= nextProgress {
			o.Progress(docs)
			nextProgress = (docs/progressEvery + 1) * progressEvery
		}
	}
	if err := bw.Flush(); err != nil {
		return docs, err
	}
	if o.Progress != nil {
		o.Progress(docs)
	}
	return docs, nil
}

// value turns the standardised score r into the written value; lo and hi are
// the smallest and largest r of the feature in the query.
func (ft *synthFeature) value(r, lo, hi float64) float64 {
	switch ft.shape {
	case shapeUnit:
		if hi > lo {
			return (r - lo) / (hi - lo)
		}
		return 0
	case shapeCount:
		return math.Floor(math.Exp(min(ft.loc+ft.scale*r, 20)))
	case shapeSparse:
		if r > ft.loc {
			return ft.scale * (r - ft.loc)
		}
		return 0
	case shapeBinary:
		if r > ft.loc {
			return 1
		}
		return 0
	}
	return ft.loc + ft.scale*r
}

// appendFixed4 appends v rounded to four decimals, without trailing zeros
// ("0.1234", "12.5", "3", "-0.07"). |v| is clamped to maxSynthValue, and NaN
// is written as 0, so the text always parses.
func appendFixed4(dst []byte, v float64) []byte {
	if !(math.Abs(v) <= maxSynthValue) {
		switch {
		case v > 0:
			v = maxSynthValue
		case v < 0:
			v = -maxSynthValue
		default:
			v = 0
		}
	}
	u := int64(math.Round(v * 1e4))
	if u < 0 {
		dst = append(dst, '-')
		u = -u
	}
	if ip := u / 10000; ip < int64(len(intText)) {
		dst = appendPacked(dst, intText[ip])
	} else {
		dst = appendUint(dst, uint64(ip))
	}
	return appendPacked(dst, fracText[u%10000])
}

// Digits are looked up in tables of packed words, a few bytes of text in the
// low bytes and their count in the top byte (see appendPacked): a lookup
// and one 8-byte store are several times faster than dividing by ten and
// copying a variable number of bytes.
var (
	intText  [10000]uint64 // "0" to "9999"
	fracText [10000]uint64 // "" for 0, ".0001" to ".9999" without trailing zeros
)

func init() {
	for k := range 10000 {
		intText[k] = packText(appendUint(nil, uint64(k)))
		if k > 0 {
			d := []byte{'.', byte('0' + k/1000), byte('0' + k/100%10), byte('0' + k/10%10), byte('0' + k%10)}
			fracText[k] = packText(bytes.TrimRight(d, "0"))
		}
	}
}

// packText packs up to 7 bytes of text for appendPacked.
func packText(b []byte) uint64 {
	var w [8]byte
	copy(w[:7], b)
	w[7] = byte(len(b))
	return binary.LittleEndian.Uint64(w[:])
}

// appendPacked appends the text packed in w by packText. It stores all eight
// bytes and then cuts dst to the text, so dst needs spare capacity.
func appendPacked(dst []byte, w uint64) []byte {
	l := len(dst)
	if cap(dst)-l < 8 {
		dst = slices.Grow(dst, 8)
	}
	binary.LittleEndian.PutUint64(dst[l:l+8], w)
	return dst[:l+int(w>>56)]
}

// appendUint appends the decimal digits of u.
func appendUint(dst []byte, u uint64) []byte {
	if u < 10 {
		return append(dst, byte('0'+u))
	}
	var b [20]byte
	i := len(b)
	for u >= 10 {
		i--
		b[i] = byte('0' + u%10)
		u /= 10
	}
	i--
	b[i] = byte('0' + u)
	return append(dst, b[i:]...)
}

// WriteSyntheticFile writes the data set of WriteSynthetic to path,
// through WriteAtomicAllContext (gzip-compressed when path ends in ".gz"):
// path never holds a partial data set, and on any error, cancellation
// included, the temporary file is removed. A new file gets mode 0666 less
// the umask; a file replaced keeps its permissions.
func WriteSyntheticFile(ctx context.Context, path string, o SynthOptions) (docs int, err error) {
	if err := o.Validate(); err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	err = WriteAtomicAllContext(ctx, []Output{{path, func(bw *bufio.Writer) error {
		var err error
		docs, err = WriteSynthetic(ctx, bw, o)
		return err
	}}})
	var pe *fs.PathError
	if err != nil && !(ctx.Err() != nil && errors.Is(err, ctx.Err())) && !(errors.As(err, &pe) && pe.Path == path) {
		err = fmt.Errorf("writing %s: %w", path, err) // cancellation is not a problem with path; "write PATH: …" names it
	}
	return docs, err
}
