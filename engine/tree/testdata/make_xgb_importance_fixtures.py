#!/usr/bin/python3
"""Make xgb-importance.json, XGBoost's own feature importances of three of
the importer fixtures, for the tests of Tree.Gain and Tree.Cover.

Run here with Debian's python3 and its python3-xgboost (XGBoost 1.7.4):

    /usr/bin/python3 make_xgb_importance_fixtures.py

For each model, Booster.get_score with importance_type "weight" (splits per
feature), "total_gain" (the sum of loss_chg over its splits) and
"total_cover" (the sum of sum_hessian over them), keyed by XGBoost's
feature name f{k}, which is cronus feature k+1 for these models (trained on
NumPy matrices). The models are read from their JSON files as the tests
import them.
"""

import json

import xgboost as xgb

out = {}
for name in ["xgb-rank-ndcg.json", "xgb-reg-lossguide.json", "xgb-dart.json"]:
    bst = xgb.Booster()
    bst.load_model(name)
    out[name] = {t: bst.get_score(importance_type=t)
                 for t in ["weight", "total_gain", "total_cover"]}
with open("xgb-importance.json", "w") as f:
    json.dump(out, f, indent=1, sort_keys=True)
    f.write("\n")
