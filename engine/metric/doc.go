// Package metric computes ranking metrics — NDCG@k, ERR@k, P@k, recall@k,
// RR@k, RBP and MAP (MAP@k) — per query and averaged over queries.
//
// It works on plain slices and imports nothing from this repository, so the
// boosting code, the cascade optimiser and the command line all score a
// ranking the same way. A data set is given by three slices: a score and a
// label per document, and offsets such that query q holds the documents
// offsets[q]..offsets[q+1]-1. Metrics are named as on the command line
// ("ndcg@10", "err@5", "p@10", "recall@100", "rr", "rbp@0.8", "map",
// "map@10"); see Parse.
//
// # Conventions
//
// One convention everywhere (DESIGN.md, "Metrics"); Convention prints it as a
// line to go with every result.
//
//   - Ranking: the documents of a query are sorted by score, highest first.
//     Equal scores keep their input order (a stable sort), so results are
//     reproducible; NaN scores go last.
//   - NDCG@k = DCG@k / IDCG@k with DCG@k = Σ_{r≤k} (2^l_r − 1) / log2(r + 1),
//     ranks from 1, and IDCG@k the DCG@k of the labels sorted descending.
//     ndcg (no cut-off) uses the whole list.
//   - ERR@k = Σ_{r≤k} (1/r) R_r Π_{i<r} (1 − R_i) with R = (2^l − 1)/2^lmax;
//     lmax is Options.MaxLabel, or the largest label given.
//   - P@k = (relevant documents in the top k) / k. The divisor is k even when
//     a query has fewer than k documents, as in trec_eval's P_k: a query of
//     three documents, all relevant, has P@10 = 0.3.
//   - RBP with persistence p = (1 − p) Σ_i rel_i p^(i−1) over all documents
//     of the query (rbp@0.5 means p = 0.5).
//   - MAP is the mean over queries of average precision: the sum of the
//     precision at the rank of every relevant document, over all documents,
//     divided by the number of relevant documents of the query.
//   - MAP@k sums the precision at the relevant ranks up to k only, and
//     still divides by all the relevant documents of the query (trec_eval's
//     map_cut_k, XGBoost's map@k).
//   - RR@k = 1/r for the first relevant document, at rank r ≤ k; 0 when
//     none is in the top k (trec_eval's recip_rank; its mean is MRR).
//   - Recall@k = (relevant documents in the top k) / (relevant documents of
//     the query).
//   - P@k, recall@k, RR, RBP and MAP use binary relevance: label >= Options.RelevantLabel
//     (default 1), the threshold rounded to float32 as the labels are (the
//     label 0.7 reaches the threshold 0.7). NDCG and ERR use graded labels.
//   - A label ≤ 0 is never relevant: the −1 of −1/+1 data has gain 0 in NDCG
//     and R = 0 in ERR, as a label of 0 (trec_eval's reading of negative
//     judgements), not a negative gain.
//   - A cut-off larger than a query sums over what there is; NDCG then
//     normalises by the ideal over the same documents.
//   - Queries without a relevant document (for NDCG and ERR: no label above 0,
//     so IDCG is 0; for the others: no label >= RelevantLabel) score 0
//     and count in the mean. With Options.ExcludeNoRelevant they are left out
//     of the mean instead, and PerQuery reports NaN for them.
//
// # Other tools
//
// XGBoost 1.7 (checked against 1.7.4 on MQ2008, see xgboost_test.go) uses the
// same gain, discount, P@k divisor and MAP, with labels cast to integers and
// any non-zero label relevant for map and pre. It differs on queries without
// relevant documents: "ndcg", "ndcg@k" and "map" score such a query 1, and only
// the names with a trailing minus ("ndcg@k-", "map-") score it 0 as we do. Its
// ndcg@k and map therefore exceed ours by the share of such queries: on MQ2008
// Fold1 test, where 51 of 156 queries have only label 0, XGBoost reports
// ndcg@10 = 0.8105 and ndcg@10- = 0.4836 (ours: 0.4836), a gap of exactly
// 51/156. XGBoost's parameter documentation says the same: "In XGBoost, NDCG
// and MAP evaluate the score of a list without any positive samples as 1. By
// appending '-' to the evaluation metric name, we can ask XGBoost to evaluate
// these scores as 0".
package metric
