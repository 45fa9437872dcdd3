package baseline

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/cronus-ltr/cronus/data"
)

// csvHeader is the first line of a curve file. The metric columns are the
// three a curve is plotted with; other metrics in a Point are not written.
var csvHeader = []string{"method", "split", "lambda", "cost", "feature_cost", "tree_cost", "p@5", "ndcg@10", "err@3"}

// csvMetrics is where the metric columns start in csvHeader.
const csvMetrics = 6

// WriteCSV writes points to path, one line each after the header
//
//	method,split,lambda,cost,feature_cost,tree_cost,p@5,ndcg@10,err@3
//
// with numbers formatted by strconv.FormatFloat(v, 'g', -1, 64) (so that
// ReadCSV gets them back exactly; an infinite λ is "+Inf"), a variant's λ
// followed by "#" and its name (Point.LambdaLabel) and a metric the
// point has no value for left empty. Method and split are quoted as CSV
// requires. The file is replaced atomically (data.WriteAtomic).
func WriteCSV(path string, points []Point) error {
	return data.WriteAtomic(path, CSVOutput(path, points).Write)
}

// CSVOutput is WriteCSV's file as a data.Output, to be written with other
// files by data.WriteAtomicAll.
func CSVOutput(path string, points []Point) data.Output {
	return data.Output{Path: path, Write: func(w *bufio.Writer) error {
		cw := csv.NewWriter(w)
		if err := cw.Write(csvHeader); err != nil {
			return err
		}
		rec := make([]string, len(csvHeader))
		for _, p := range points {
			rec[0], rec[1] = p.Method, p.Split
			rec[2] = p.LambdaLabel()
			rec[3] = formatFloat(p.Cost.Total)
			rec[4] = formatFloat(p.Cost.Features)
			rec[5] = formatFloat(p.Cost.Trees)
			for j, name := range csvHeader[csvMetrics:] {
				rec[csvMetrics+j] = ""
				if v, ok := p.Metrics[name]; ok {
					rec[csvMetrics+j] = formatFloat(v)
				}
			}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
		cw.Flush()
		return cw.Error()
	}}
}

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// ReadCSV reads a file written by WriteCSV. The header must be exactly
// WriteCSV's; an empty metric field means the point has no value for that
// metric. Errors name the file and line ("curve.csv:3: cost: "x" is not a
// number").
func ReadCSV(path string) ([]Point, error) {
	f, err := data.OpenFile(path, "a curve (CSV) file")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readCSV(f, path)
}

func readCSV(r io.Reader, name string) ([]Point, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1 // checked below, with a better message
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: empty file; want the header %s", name, strings.Join(csvHeader, ","))
	}
	if err != nil {
		return nil, csvError(name, err)
	}
	if strings.Join(header, ",") != strings.Join(csvHeader, ",") {
		return nil, fmt.Errorf("%s:1: header %q; want %s", name, strings.Join(header, ","), strings.Join(csvHeader, ","))
	}
	var points []Point
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return points, nil
		}
		if err != nil {
			return nil, csvError(name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != len(csvHeader) {
			return nil, fmt.Errorf("%s:%d: %d fields; want %d (%s)", name, line, len(rec), len(csvHeader), strings.Join(csvHeader, ","))
		}
		p := Point{Method: rec[0], Split: rec[1], Metrics: map[string]float64{}}
		lam := rec[2]
		if i := strings.IndexByte(lam, '#'); i >= 0 {
			lam, p.Variant = lam[:i], lam[i+1:]
			if !validVariant(p.Variant) {
				return nil, fmt.Errorf("%s:%d: lambda: %q: after # a variant of letters and digits (0.05#2p30), got %q", name, line, rec[2], p.Variant)
			}
		}
		for j, dst := range []*float64{&p.Lambda, &p.Cost.Total, &p.Cost.Features, &p.Cost.Trees} {
			field := rec[2+j]
			if j == 0 {
				field = lam
			}
			if *dst, err = parseField(field); err != nil {
				return nil, fmt.Errorf("%s:%d: %s: %v", name, line, csvHeader[2+j], err)
			}
		}
		for j, metric := range csvHeader[csvMetrics:] {
			if rec[csvMetrics+j] == "" {
				continue
			}
			v, err := parseField(rec[csvMetrics+j])
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %s: %v", name, line, metric, err)
			}
			p.Metrics[metric] = v
		}
		points = append(points, p)
	}
}

// validVariant reports whether v, after a λ's #, names a variant: one or
// more ASCII letters and digits.
func validVariant(v string) bool {
	if v == "" {
		return false
	}
	for _, r := range v {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') {
			return false
		}
	}
	return true
}

func parseField(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	return v, nil
}

// csvError turns an encoding/csv error into FILE:LINE: message.
func csvError(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s:%d: %v", name, pe.Line, pe.Err)
	}
	return fmt.Errorf("%s: %v", name, err)
}
