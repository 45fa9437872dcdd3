"""Why an imported XGBoost model's scores differ from XGBoost's on a libsvm file.

  /usr/bin/python3 bench/dmlcparse.py MODEL.json DATA.txt CRONUS.scores XGBOOST.scores

For every document whose two scores differ by more than 1e-5, walks the
model's trees in Python twice: on the file's values rounded to the nearest
float32 (as Cronus and NumPy read them), and on the values as dmlc-core's
libsvm parser (XGBoost's DMatrix("f?format=libsvm")) reads them: the integer
part and the fraction each made a float32, then added in float32. Prints how
many of the differences the two readings explain (the first walk gives
Cronus's score and the second XGBoost's). bench/train.sh speed leaves the
four files in $BENCH_DIR (default /tmp/cronus-bench): x-200k.json,
synth-200k.txt, c-200k.scores, x-200k.scores.
"""
import json, sys
import numpy as np

f32 = np.float32


def dmlc(text):
    neg = text.startswith('-')
    text = text.lstrip('+-')
    whole, _, frac = text.partition('.')
    v = f32(float(int(whole) if whole else 0))
    if frac:
        v = f32(v + f32(int(frac) / 10 ** len(frac)))
    return -v if neg else v


def nearest(text):
    return f32(float(text))


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    model, data, cronus, xgboost = sys.argv[1:5]
    m = json.load(open(model))
    trees = m['learner']['gradient_booster']['model']['trees']
    base = f32(float(m['learner']['learner_model_param']['base_score']))
    c, x = np.loadtxt(cronus), np.loadtxt(xgboost)
    differ = set(np.where(np.abs(c - x) > 1e-5)[0])

    def score(vals):
        s = base
        for t in trees:
            n = 0
            while t['left_children'][n] != -1:
                v = vals.get(t['split_indices'][n])
                if v is None:
                    left = t['default_left'][n]
                else:
                    left = v < f32(t['split_conditions'][n])
                n = t['left_children'][n] if left else t['right_children'][n]
            s = f32(s + f32(t['split_conditions'][n]))  # a leaf's value
        return float(s)

    explained = 0
    with open(data) as f:
        for i, line in enumerate(f):
            if i not in differ:
                continue
            kv = [t.split(':') for t in line.split('#')[0].split()[2:]]
            near = score({int(k): nearest(v) for k, v in kv})
            dm = score({int(k): dmlc(v) for k, v in kv})
            if abs(near - c[i]) < 1e-4 and abs(dm - x[i]) < 1e-4:
                explained += 1
    print('%d of %d documents differ by more than 1e-5; the two readings explain %d of them'
          % (len(differ), len(c), explained))


main()
