"""The five LETOR folds of MQ2008, rebuilt from the built-in Fold1 (bench/train.sh folds).

  folds.py TRAIN VALI TEST OUTDIR
      writes OUTDIR/f{1..5}-{train,vali,test}.txt

Fold1's train file is the concatenation S1+S2+S3 (157 queries each), vali is
S4 and test is S5 (see ../shared/data/PROVENANCE.md); LETOR's fold k trains
on S_k, S_k+1, S_k+2, validates on S_k+3 and tests on S_k+4 (indices mod 5).
Fold 1 written here is byte for byte the built-in Fold1.
"""
import json, subprocess, sys


def queries(path):
    """The lines of each query, in file order."""
    qs, cur, last = [], [], None
    for line in open(path):
        q = line.split()[1]
        if q != last and cur:
            qs.append(cur); cur = []
        cur.append(line); last = q
    if cur: qs.append(cur)
    return qs


def write(path, blocks):
    """Writes the queries of the blocks, in order, to path."""
    with open(path, 'w') as fh:
        for b in blocks:
            for q in b:
                fh.writelines(q)


def inner_folds(blocks, prefix):
    """Writes the inner cross-validation of four blocks of queries: each
    in turn is prefix+'R-vali.txt', the other three prefix+'R-train.txt'."""
    for r in range(4):
        write('%s%d-train.txt' % (prefix, r), [b for i, b in enumerate(blocks) if i != r])
        write('%s%d-vali.txt' % (prefix, r), [blocks[r]])


def ndcg10(cronus, data, model=None, scores=None):
    """Test NDCG@10 of a model file or a scores file on data, by cronus eval."""
    src = ['--model', model] if model else ['--scores', scores]
    out = subprocess.run([cronus, 'eval'] + src + ['--data', data, '--metrics', 'ndcg@10', '--json'],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)['metrics']['ndcg@10']


def main():
    tr = queries(sys.argv[1]); assert len(tr) == 471, len(tr)
    S = [tr[0:157], tr[157:314], tr[314:471], queries(sys.argv[2]), queries(sys.argv[3])]
    out = sys.argv[4]
    for f in range(5):
        parts = {'train': [S[(f + i) % 5] for i in range(3)], 'vali': [S[(f + 3) % 5]], 'test': [S[(f + 4) % 5]]}
        for name, ss in parts.items():
            write('%s/f%d-%s.txt' % (out, f + 1, name), ss)


if __name__ == '__main__':
    main()
