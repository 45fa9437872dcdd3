package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gzipBytesTo writes b gzipped to name in dir and returns its path.
func gzipBytesTo(t *testing.T, dir, name string, b []byte) string {
	t.Helper()
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write(b)
	w.Close()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Gzip files read whole whose content is binary are refused from their
// first bytes (data.DecodeWhole), and still named in each reader's words:
// a tar.gz of a model as a tar archive, a gzipped PNG as an image, numpy's
// binary format with its numpy.savetxt hint; what no reader names, as
// binary data. Each exits 1 and writes nothing.
func TestGzipBinaryNamedByReader(t *testing.T) {
	dir := t.TempDir()
	var tb bytes.Buffer
	tw := tar.NewWriter(&tb)
	body := []byte(`{"format": "cronus-ensemble"}` + "\n")
	tw.WriteHeader(&tar.Header{Name: "m.json", Mode: 0o644, Size: int64(len(body))})
	tw.Write(body)
	tw.Close()
	tarGz := gzipBytesTo(t, dir, "m.tar.gz", tb.Bytes())
	png := gzipBytesTo(t, dir, "plot.png.gz", append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), make([]byte, 100_000)...))
	hdr := []byte("{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }")
	hdr = append(hdr, bytes.Repeat([]byte(" "), 118-len(hdr))...)
	hdr = append(hdr, '\n')
	npy := append([]byte("\x93NUMPY\x01\x00"), byte(len(hdr)), 0)
	npy = append(npy, hdr...)
	npy = binary.LittleEndian.AppendUint64(npy, 0x3ff0000000000000)
	npyGz := gzipBytesTo(t, dir, "s.npy.gz", npy)
	zeros := gzipBytesTo(t, dir, "z.gz", make([]byte, 1<<20))
	test := "builtin:mq2008/test"
	out := filepath.Join(dir, "out.json")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"predict", "--model", tarGz, "--data", test}, tarGz + ": not a cronus model: a tar archive"},
		{[]string{"predict", "--cascade", tarGz, "--data", test}, tarGz + ": not a cascade file: a tar archive"},
		{[]string{"import", "--from", "lightgbm", tarGz, "--out", out}, tarGz + ": not a LightGBM text model: a tar archive"},
		{[]string{"import", "--from", "xgboost", png, "--out", out}, png + ": not an XGBoost JSON model: a PNG image"},
		{[]string{"eval", "--scores", tarGz, "--data", test}, tarGz + ":1: a tar archive"},
		{[]string{"eval", "--scores", npyGz, "--data", test}, "numpy.savetxt, not numpy.save"},
		{[]string{"inspect", png}, png + ":1: a PNG image"},
		{[]string{"predict", "--model", zeros, "--data", test}, zeros + ": not a cronus model: binary data (a NUL byte)"},
		{[]string{"import", "--from", "ranklib", zeros, "--out", out}, zeros + ":1: not a RankLib model"},
	} {
		code, _, errOut := runCLI(t, c.args...)
		if code != 1 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %q; want exit 1 and %q", c.args[:2], code, errOut, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%v left %s", c.args[:2], out)
		}
	}
}
