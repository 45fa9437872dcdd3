#!/usr/bin/python3
"""Make the RankLib fixtures for the importer tests in engine/tree.

RankLib's training is not run: the trees are real trees, trained by cronus on
MQ2008, written out in RankLib's model text format as RankLib's own
Ensemble.toString / Split.getString write it (tabs, "<feature>7 </feature>",
"<threshold> 0.5 </threshold>", Java's Float.toString for thresholds and
weights, Double.toString for leaf outputs), under the header lines that
LambdaMART.model(), MART (which inherits it) and RFRanker.model() write.

    go build -o cronus . (from the repository root)
    cronus train --train builtin:mq2008/train --valid builtin:mq2008/vali \\
        --objective lambdarank --trees 60 --leaves 8 --learning-rate 0.1 \\
        --min-docs 20 --seed 1 --out lmart.json
    cronus train --train builtin:mq2008/train --objective regression \\
        --trees 20 --leaves 6 --learning-rate 0.1 --seed 2 --out mart.json
    /usr/bin/python3 make_ranklib_fixtures.py lmart.json mart.json TRAIN.txt.gz

TRAIN.txt.gz is data/builtin/mq2008/train.txt.gz. Every threshold is moved
down to the largest training value of its feature that is not above it
(which splits the training data the same way), so thresholds are data values,
as RankLib's own candidate thresholds are, and test documents land exactly on
them: a reader that compared with < instead of <= scores them differently.

Fixtures:
  ranklib-lambdamart.txt  "## LambdaMART", 60 trees of 8 leaves (leaf-wise,
                          so leaves sit at several depths), weight 0.1 each
                          (the learning rate), outputs = cronus leaf / 0.1.
  ranklib-mart.txt        "## MART", 20 trees of 6 leaves plus one tree that
                          is a single <output> (a root RankLib could not
                          split), weight 0.1.
  ranklib-rf.txt          "## Random Forests", 3 bags (<ensemble>s) of 3 MART
                          trees each; RankLib averages the bags.

The .pred.txt files are not made here: they are the scores RankLib's own
classes print. These files of codelibs/ranklib (src/main/java/ciir/umass/edu/),
copied unchanged (RankLib's code is not in this repository),

    learning/tree/Ensemble.java, learning/tree/Split.java,
    parsing/ModelLineProducer.java                         at commit 378a17db
    learning/tree/RegressionTree.java                      at commit 00ab47e9
    learning/tree/FeatureHistogram.java, learning/DataPoint.java,
    learning/DenseDataPoint.java, learning/SparseDataPoint.java
                                                           at commit 0cc17c81
    utilities/RankLibError.java, utilities/MyThreadPool.java,
    utilities/WorkerThread.java                            at commit 9fc7e464

were compiled with javac 17 beside a small main that loads the model
as RankerFactory.loadRankerFromString does (the first line names the
ranker; LambdaMART.loadFromString for LambdaMART and MART,
RFRanker.loadFromString and RFRanker.eval for Random Forests) and reads the
data as FeatureManager.readInput does (DenseDataPoint, or SparseDataPoint),
printing Double.toString of Ranker.eval per document:

  ranklib-lambdamart.pred.txt, ranklib-mart.pred.txt, ranklib-rf.pred.txt
      on mq2008-test.txt.gz (MQ2008 Fold1 test, 2,874 documents);
  ranklib-lambdamart.sparse.pred.txt
      on mq2008-test-sparse.txt.gz (the same with its zeros left out) with
      RankLib's -missingZero (DataPoint.missingZero = true: a feature past a
      line's last one reads 0 instead of failing); DenseDataPoint and
      SparseDataPoint print the same scores.
"""

import gzip
import json
import os
import sys
from decimal import Decimal

import numpy as np

NUM_FEATURES = 46
LEARNING_RATE = 0.1


def read_train(path):
    cols = [[] for _ in range(NUM_FEATURES)]
    with gzip.open(path, "rt") as f:
        for line in f:
            toks = line.split("#", 1)[0].split()
            if not toks:
                continue
            row = [0.0] * NUM_FEATURES
            for tok in toks[2:]:
                k, v = tok.split(":")
                row[int(k) - 1] = float(v)
            for j, v in enumerate(row):
                cols[j].append(v)
    return [np.unique(np.array(c, dtype=np.float32)) for c in cols]


def java_str(shortest):
    """Java's Float/Double.toString layout for a shortest decimal string."""
    d = Decimal(shortest)
    if d == 0:
        return "-0.0" if shortest.startswith("-") else "0.0"
    sign = "-" if d < 0 else ""
    d = abs(d)
    if Decimal("1e-3") <= d < Decimal("1e7"):
        s = format(d, "f")
        if "." not in s:
            s += ".0"
        return sign + s
    digits, exp = d.as_tuple().digits, d.adjusted()
    mant = str(digits[0]) + "." + ("".join(map(str, digits[1:])).rstrip("0") or "0")
    return "%s%sE%d" % (sign, mant, exp)


def jfloat(x):
    return java_str(np.format_float_positional(np.float32(x), unique=True, trim="-"))


def jdouble(x):
    return java_str(repr(float(x)))


def snap(values, t):
    t = np.float32(t)
    i = np.searchsorted(values, t, side="right")
    return values[i - 1] if i > 0 else t


def tree_xml(t, cols, scale, indent):
    """One tree as Split.toString(indent) writes it: the root <split>."""
    out = []

    def node(c, ind):
        if c < 0:
            out.append("%s<output>%s </output>\n" % (ind, jdouble(t["leaf_value"][-c - 1] / scale)))
            return
        f = t["split_feature"][c]
        thr = snap(cols[f - 1], t["threshold"][c])
        out.append("%s<feature>%d </feature>\n" % (ind, f))
        out.append("%s<threshold> %s </threshold>\n" % (ind, jfloat(thr)))
        out.append('%s<split pos="left">\n' % ind)
        node(t["left_child"][c], ind + "\t")
        out.append("%s</split>\n" % ind)
        out.append('%s<split pos="right">\n' % ind)
        node(t["right_child"][c], ind + "\t")
        out.append("%s</split>\n" % ind)

    out.append(indent + "<split>\n")
    if t["split_feature"]:
        node(0, indent + "\t")
    else:
        node(-1, indent + "\t")
    out.append(indent + "</split>\n")
    return "".join(out)


def ensemble_xml(trees, cols, weight):
    out = ["<ensemble>\n"]
    for i, t in enumerate(trees):
        out.append('\t<tree id="%d" weight="%s">\n' % (i + 1, jfloat(weight)))
        out.append(tree_xml(t, cols, weight, "\t\t"))
        out.append("\t</tree>\n")
    out.append("</ensemble>\n")
    return "".join(out)


def depths(t):
    ds = set()

    def walk(c, d):
        if c < 0:
            ds.add(d)
        else:
            walk(t["left_child"][c], d + 1)
            walk(t["right_child"][c], d + 1)

    walk(0 if t["split_feature"] else -1, 0)
    return ds


def main():
    lmart, mart, train = sys.argv[1:4]
    out = os.path.dirname(os.path.abspath(__file__))
    cols = read_train(train)

    trees = json.load(open(lmart))["trees"]
    leaf_depths = set().union(*(depths(t) for t in trees))
    print("lambdamart: %d trees, leaf depths %s" % (len(trees), sorted(leaf_depths)))
    header = ("## LambdaMART\n## No. of trees = %d\n## No. of leaves = 8\n"
              "## No. of threshold candidates = 256\n## Learning rate = 0.1\n"
              "## Stop early = 100\n\n" % len(trees))
    with open(os.path.join(out, "ranklib-lambdamart.txt"), "w") as f:
        f.write(header + ensemble_xml(trees, cols, LEARNING_RATE))

    mtrees = json.load(open(mart))["trees"]
    stump = {"split_feature": [], "threshold": [], "left_child": [], "right_child": [],
             "leaf_value": [-0.0123456789]}
    header = ("## MART\n## No. of trees = %d\n## No. of leaves = 6\n"
              "## No. of threshold candidates = 256\n## Learning rate = 0.1\n"
              "## Stop early = 100\n\n" % (len(mtrees) + 1))
    with open(os.path.join(out, "ranklib-mart.txt"), "w") as f:
        f.write(header + ensemble_xml(mtrees + [stump], cols, LEARNING_RATE))

    header = ("## Random Forests\n## No. of bags = 3\n## Sub-sampling = 1.0\n"
              "## Feature-sampling = 0.3\n## No. of trees = 3\n## No. of leaves = 6\n"
              "## No. of threshold candidates = 256\n## Learning rate = 0.1\n\n")
    bags = [ensemble_xml(mtrees[3 * b:3 * b + 3], cols, LEARNING_RATE) + "\n" for b in range(3)]
    with open(os.path.join(out, "ranklib-rf.txt"), "w") as f:
        f.write(header + "".join(bags))


if __name__ == "__main__":
    main()
