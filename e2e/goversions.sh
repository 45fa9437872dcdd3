#!/usr/bin/env bash
# The same outputs on two Go versions: Cronus built with the Go at hand and
# with GOTOOLCHAIN=$NEXT (default go1.27.3, fetched from the module proxy)
# trains a model, optimises a cascade, scores the test set through both, and
# sweeps λ with plots, on the built-in data; every file written must be the
# same byte for byte, but for compressed ones: Go 1.27's compress/flate
# packs the same bytes otherwise, so a PNG plot must hold the same pixels
# (e2e/samepixels) and a .gz file the same bytes once unpacked. A newer Go's
# standard library (encoding/json's escaping, strconv, sort, math) must not
# change a model, a cascade, a score, a curve or a plot.
#
#   bash e2e/goversions.sh            (exit 1 on a difference)
set -euo pipefail
cd "$(dirname "$0")/.."
export GOFLAGS="${GOFLAGS:--buildvcs=false}"
next=${NEXT:-go1.27.3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

cur=$(go env GOVERSION)
go build -o "$dir/a/cronus" .
GOTOOLCHAIN=$next go build -o "$dir/b/cronus" .
d=builtin:mq2008
for v in a b; do
  (
    cd "$dir/$v"
    ./cronus train --train $d/train --valid $d/vali --objective regression \
      --trees 100 --leaves 4 --max-depth 2 --out m.json > /dev/null
    ./cronus train --train $d/train --valid $d/vali --objective lambdarank \
      --trees 30 --out r.json > /dev/null
    ./cronus cascade --model m.json --train $d/train --valid $d/vali --test $d/test \
      --costs $d/costs --stages 4 --out c.json > /dev/null
    ./cronus predict --model m.json --data $d/test --out p.txt > /dev/null
    ./cronus predict --model m.json --data $d/test --out p.txt.gz > /dev/null
    ./cronus predict --cascade c.json --data $d/test --exits x.tsv --out pc.txt > /dev/null
    ./cronus predict --model m.json --data $d/test --leaves l.tsv --contribs sh.tsv --out /dev/null > /dev/null
    ./cronus eval --model r.json --data $d/test --per-query q.tsv --run run.txt > /dev/null
    ./cronus sweep --model m.json --train $d/train --valid $d/vali --test $d/test \
      --costs $d/costs --stages 4 --out s.csv --plot s.svg > /dev/null 2>&1
    ./cronus sweep --model m.json --train $d/train --valid $d/vali --test $d/test \
      --costs $d/costs --stages 4 --lambdas 0.05:0.2:2 --cycles 1 --out s2.csv --plot s.png > /dev/null 2>&1
  )
done
bad=0
same() { # FILE HOW: compare FILE of the two runs; HOW is bytes, pixels or gzip
  case $2 in
  bytes) cmp -s "$dir/a/$1" "$dir/b/$1" ;;
  pixels) go run ./e2e/samepixels "$dir/a/$1" "$dir/b/$1" ;;
  gzip) gzip -t "$dir/a/$1" "$dir/b/$1" && cmp -s <(gzip -dc "$dir/a/$1") <(gzip -dc "$dir/b/$1") ;;
  esac
}
for f in m.json:bytes r.json:bytes c.json:bytes p.txt:bytes p.txt.gz:gzip pc.txt:bytes \
  x.tsv:bytes l.tsv:bytes sh.tsv:bytes q.tsv:bytes run.txt:bytes s.csv:bytes s.svg:bytes \
  s2.csv:bytes s.png:pixels; do
  if same "${f%:*}" "${f#*:}"; then
    echo "${f%:*}: the same on $cur and $next (${f#*:})"
  else
    echo "${f%:*}: differs between $cur and $next (${f#*:})"
    bad=1
  fi
done
exit $bad
