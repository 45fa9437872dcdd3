"""XGBoost side of the Cronus benchmarks (Debian's python3-xgboost 1.7).

  xgb.py train DATA OBJECTIVE TREES OUT_MODEL [SCORE_DATA SCORES_OUT]
      hist, lossguide, max_leaves 31, max_bin 255, eta 0.1, 2 threads;
      prints {"train_seconds": ...}; with SCORE_DATA writes raw margins.
  xgb.py predict MODEL DATA [SCORES_OUT]
      prints {"predict_seconds": ..., "docs": ..., "trees": ...}; with
      SCORES_OUT writes the raw margins, one per line
Data files are SVMlight/LETOR text (qid groups are read by XGBoost).
XGB_PARAMS="gamma=1 max_leaves=63" in the environment adds or overrides
training parameters (numbers where they parse as numbers).
"""
import json, os, sys, time
import xgboost as xgb

PARAMS = {'eta': 0.1, 'tree_method': 'hist', 'grow_policy': 'lossguide',
          'max_leaves': 31, 'max_depth': 0, 'max_bin': 255, 'nthread': 2, 'seed': 1}

def value(v):
    try:
        return float(v) if any(c in v for c in '.eE') else int(v)
    except ValueError:
        return v


PARAMS.update((k, value(v)) for k, v in (kv.split('=', 1) for kv in os.environ.get('XGB_PARAMS', '').split()))


def load(path):
    return xgb.DMatrix(path + '?format=libsvm', nthread=2)

def main():
    cmd = sys.argv[1] if len(sys.argv) > 1 else ''
    if cmd == 'train':
        data, objective, trees, out = sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
        d = load(data)
        t = time.time()
        b = xgb.train(dict(PARAMS, objective=objective), d, trees)
        seconds = time.time() - t
        b.save_model(out)
        if len(sys.argv) > 7:
            s = b.predict(load(sys.argv[6]), output_margin=True)
            with open(sys.argv[7], 'w') as f:
                f.writelines('%r\n' % float(v) for v in s)
        print(json.dumps({'train_seconds': seconds}))
    elif cmd == 'predict':
        b = xgb.Booster(model_file=sys.argv[2])
        b.set_param({'nthread': 2})
        d = load(sys.argv[3])
        t = time.time()
        s = b.predict(d, output_margin=True)
        seconds = time.time() - t
        if len(sys.argv) > 4:
            with open(sys.argv[4], 'w') as f:
                f.writelines('%r\n' % float(v) for v in s)
        print(json.dumps({'predict_seconds': seconds, 'docs': len(s), 'trees': b.num_boosted_rounds()}))
    else:
        sys.exit(__doc__)

main()
