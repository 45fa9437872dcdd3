package data

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// querySidecar refuses a data file without qids when a file of query sizes
// sits beside it, as LightGBM (rank.train.query) and XGBoost
// (mq2008.train.group) take their queries: read alone it would be one
// query, and a ranker trained on that learns nothing of the queries. The
// message gives a command that puts the qids on the lines.
func querySidecar(path string) error {
	for _, ext := range []string{".query", ".group"} {
		sizes := path + ext
		if st, err := os.Stat(sizes); err != nil || !st.Mode().IsRegular() {
			continue
		}
		// Query k (from 1) is line k of the size file, repeated as many
		// times as it says; blank and comment lines of the data keep none.
		prog := `NR==FNR{for(i=0;i<$1;i++)q[++n]=FNR;next} !/^[ \t\r]*(#|$)/{sub(/[^ \t\r]+/,"& qid:"q[++m])} 1`
		cmd := fmt.Sprintf("awk '%s' %s %s > %s", prog, shellQuote(sizes), shellQuote(path), shellQuote(path+".qid"))
		if isGzipFile(path) {
			cmd = fmt.Sprintf("gzip -dc %s | awk '%s' %s - > %s", shellQuote(path), prog, shellQuote(sizes), shellQuote(path+".qid"))
		}
		return &ParseError{File: path, Msg: fmt.Sprintf(
			"no line has a qid, so the file would be one query, but %s beside it holds query sizes (as LightGBM and XGBoost take them), which cronus does not read; put the qids on the lines, e.g. %s",
			sizes, cmd)}
	}
	return nil
}

// isGzipFile reports whether path starts with gzip's magic bytes.
func isGzipFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var magic [2]byte
	n, _ := io.ReadFull(f, magic[:])
	return isGzipMagic(magic[:n])
}

// shellQuote quotes s for a POSIX shell when it holds anything but
// letters, digits and ./_-+:@%,=, so that a command in a message can be
// pasted as it is.
func shellQuote(s string) string {
	safe := s != ""
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("./_-+:@%,=", c)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
