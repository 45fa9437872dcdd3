#!/bin/bash
# Make the fixtures of the RankLib exporter's tests (export_ranklib_test.go).
#
#   ranklib-export-NAME.txt       cronus export --model export-NAME.json --to ranklib
#                                 (run here, so that its comment names export-NAME.json)
#   ranklib-export-edge.data.txt.gz, ranklib-export-inf.data.txt.gz
#                                 the rows of export-edge.data.txt and export-inf.data.txt
#                                 (tab-separated features) as SVMlight lines, label 0,
#                                 qid 1, a NaN left out (RankLib and cronus read it as 0)
#   ranklib-export-NAME.pred.txt  RankLib's own scores of the export: MQ2008 Fold1 test
#                                 (mq2008-test.txt.gz) for export-lambdarank, the data
#                                 files above for export-edge and export-inf
#
# RankLib's code is not in this repository. The scores were printed on
# 2026-12-04 by RankLib's own Ensemble, Split, RegressionTree,
# FeatureHistogram, DataPoint, DenseDataPoint, SparseDataPoint,
# ModelLineProducer, RankLibError, MyThreadPool and WorkerThread
# (codelibs/ranklib, at the commits make_ranklib_fixtures.py names),
# compiled with javac 17 beside a small main that loads the model as
# RankerFactory.loadRankerFromString and LambdaMART.loadFromString do
# (ModelLineProducer, then new Ensemble(text)), reads the data as
# FeatureManager.readInput does (a DenseDataPoint per line, with
# DataPoint.missingZero = true) and prints Double.toString(ensemble.eval(dp))
# a line per document. That main was checked first on the importer's
# fixtures: it prints ranklib-lambdamart.pred.txt and ranklib-mart.pred.txt
# byte for byte. Give its command as RANKLIB_SCORE (MODEL DATA as its
# arguments) to remake the .pred.txt files.
set -euo pipefail
cd "$(dirname "$0")"
CRONUS=${CRONUS:-cronus}
for n in lambdarank edge inf; do
  "$CRONUS" export --model export-$n.json --to ranklib --out ranklib-export-$n.txt
done
for n in edge inf; do
  python3 - export-$n.data.txt <<'PY' | gzip -n -9 > ranklib-export-$n.data.txt.gz
import sys
for line in open(sys.argv[1]):
    vals = line.rstrip('\n').split('\t')
    toks = ['%d:%s' % (k + 1, v) for k, v in enumerate(vals) if v.lower() != 'nan']
    print(' '.join(['0', 'qid:1'] + toks))
PY
done
if [ -n "${RANKLIB_SCORE:-}" ]; then
  $RANKLIB_SCORE ranklib-export-lambdarank.txt mq2008-test.txt.gz > ranklib-export-lambdarank.pred.txt
  for n in edge inf; do
    $RANKLIB_SCORE ranklib-export-$n.txt ranklib-export-$n.data.txt.gz > ranklib-export-$n.pred.txt
  done
fi
