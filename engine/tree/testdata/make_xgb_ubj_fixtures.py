#!/usr/bin/python3
"""Make the UBJSON fixtures of the importer tests in engine/tree.

Run with Debian's python3 and its python3-xgboost (XGBoost 1.7.4), from
anywhere:

    /usr/bin/python3 make_xgb_ubj_fixtures.py

Each NAME.ubj is XGBoost's own UBJSON of the committed JSON model NAME.json
beside it: Booster(model_file="NAME.json").save_model("NAME.ubj"), the
format XGBoost writes under a name not ending in .json (the default from
XGBoost 2.1 on). The test reads both and checks that they import to the
same ensemble, bit for bit, and that the UBJSON import scores NAME.pred.txt.

Fixtures: xgb-binary-logistic (binary:logistic, 20 trees), xgb-dart (DART,
its weight_drop a typed array of doubles), xgb-poisson (count:poisson),
xgb-libsvm (XGBoost's libsvm reader, num_feature 47) and xgb-categorical (a
categorical split, NaN as its split condition: refused as the JSON is);
for the metamorphic test (import_metamorphic_test.go), xgb-rank-ndcg
(rank:ndcg, depthwise), xgb-reg-lossguide (lossguide, no depth limit) and
xgb-missing (default directions learned from missing values).
"""

import os

import xgboost as xgb

here = os.path.dirname(os.path.abspath(__file__))

for name in ("xgb-binary-logistic", "xgb-dart", "xgb-poisson", "xgb-libsvm", "xgb-categorical",
             "xgb-rank-ndcg", "xgb-reg-lossguide", "xgb-missing"):
    b = xgb.Booster(model_file=os.path.join(here, name + ".json"))
    b.save_model(os.path.join(here, name + ".ubj"))
