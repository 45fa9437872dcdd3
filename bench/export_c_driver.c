/* bench/export-c.sh's driver: ranks LETOR data (standard input) with an
 * exported cascade (cas.c, prefix cas) and scores it with an exported
 * model (full.c, prefix full), times both, and writes each document's exit
 * stage and exit score (hex) to the file named by its argument. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cas.c"
#include "full.c"

#define NF 46

typedef struct {
	const float *x;
	long fetched;
} source;

/* A search engine's feature extractor, here a look-up that counts calls. */
static float get(void *ctx, int doc, int f)
{
	source *s = (source *)ctx;
	s->fetched++;
	return s->x[(size_t)doc * NF + (size_t)f];
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Its exit codes: 0, or 2 for bad arguments, 3 for a line without a
 * qid, 4 when cas_rank or cas_rank_work fails, 5 when the output cannot
 * be written and 6 when memory runs out; every path frees what it
 * allocated (it runs clean under -fsanitize=address). */
int main(int argc, char **argv)
{
	static char line[1 << 16];
	float *x = NULL;
	int *qstart = NULL, n = 0, nq = 0, cap = 0, qcap = 0, q, i, r, reps, rc = 0;
	long prevq = -1, fetched;
	int *ex = NULL, *rank = NULL;
	double *s = NULL, *fc = NULL, *tc = NULL, t0, tcas, twork, tfull, sink = 0, cost = 0;
	void *work = NULL;
	source src;
	FILE *out;
	if (argc != 3)
		return 2;
	reps = atoi(argv[2]);
	if (reps < 1) { /* 0 repetitions timed nothing and printed NaN */
		fprintf(stderr, "repetitions: give a whole number of at least 1, not %s\n", argv[2]);
		return 2;
	}
	while (fgets(line, sizeof line, stdin)) {
		char *p = strchr(line, '#'), *tok;
		long qid;
		if (p)
			*p = 0;
		tok = strtok(line, " \t\n");
		if (!tok)
			continue;
		tok = strtok(NULL, " \t\n");
		if (!tok || strncmp(tok, "qid:", 4) != 0) {
			rc = 3;
			goto done;
		}
		qid = atol(tok + 4);
		if (n == cap) {
			float *nx;
			cap = cap ? 2 * cap : 4096;
			nx = (float *)realloc(x, sizeof *x * (size_t)cap * NF);
			if (!nx) {
				rc = 6;
				goto done;
			}
			x = nx;
		}
		memset(x + (size_t)n * NF, 0, sizeof *x * NF);
		while ((tok = strtok(NULL, " \t\n")) != NULL) {
			int k = atoi(tok);
			char *v = strchr(tok, ':');
			if (k >= 1 && k <= NF && v)
				x[(size_t)n * NF + (size_t)(k - 1)] = strtof(v + 1, NULL);
		}
		/* qstart keeps room for the end of the last query, qstart[nq]. */
		if (qid != prevq || nq == 0) {
			if (nq + 1 >= qcap) {
				int *nqs;
				qcap = qcap ? 2 * qcap : 1024;
				nqs = (int *)realloc(qstart, sizeof *qstart * (size_t)qcap);
				if (!nqs) {
					rc = 6;
					goto done;
				}
				qstart = nqs;
			}
			qstart[nq++] = n;
			prevq = qid;
		}
		n++;
	}
	if (n == 0) { /* no documents: nothing to rank or time */
		rc = 2;
		goto done;
	}
	qstart[nq] = n;
	ex = (int *)malloc(sizeof *ex * (size_t)n);
	rank = (int *)malloc(sizeof *rank * (size_t)n);
	s = (double *)malloc(sizeof *s * (size_t)n);
	fc = (double *)malloc(sizeof *fc * (size_t)n);
	tc = (double *)malloc(sizeof *tc * (size_t)n);
	if (!ex || !rank || !s || !fc || !tc) {
		rc = 6;
		goto done;
	}
	src.fetched = 0;
	t0 = now();
	for (r = 0; r < reps; r++)
		for (q = 0; q < nq; q++) {
			src.x = x + (size_t)qstart[q] * NF;
			if (cas_rank(qstart[q + 1] - qstart[q], get, &src, rank + qstart[q], ex + qstart[q], s + qstart[q], fc + qstart[q], tc + qstart[q]) != 0) {
				rc = 4;
				goto done;
			}
		}
	tcas = now() - t0;
	fetched = src.fetched;
	{
		int most = 0;
		for (q = 0; q < nq; q++)
			if (qstart[q + 1] - qstart[q] > most)
				most = qstart[q + 1] - qstart[q];
		work = malloc(cas_work_size(most));
		if (!work) {
			rc = 6;
			goto done;
		}
		t0 = now();
		for (r = 0; r < reps; r++)
			for (q = 0; q < nq; q++) {
				src.x = x + (size_t)qstart[q] * NF;
				if (cas_rank_work(qstart[q + 1] - qstart[q], get, &src, work, rank + qstart[q], ex + qstart[q], s + qstart[q], fc + qstart[q], tc + qstart[q]) != 0) {
					rc = 4;
					goto done;
				}
			}
		twork = now() - t0;
	}
	t0 = now();
	for (r = 0; r < reps; r++)
		for (i = 0; i < n; i++)
			sink += full_predict(x + (size_t)i * NF);
	tfull = now() - t0;
	for (i = 0; i < n; i++)
		cost += fc[i] + tc[i];
	out = fopen(argv[1], "w");
	if (!out) {
		rc = 5;
		goto done;
	}
	for (i = 0; i < n; i++)
		fprintf(out, "%d %a\n", ex[i], s[i]);
	if (fclose(out) != 0) {
		rc = 5;
		goto done;
	}
	printf("documents %d, queries %d, repetitions %d\n", n, nq, reps);
	printf("cascade (cas_rank, features fetched through a callback): %.1f ns per document, %.2f features fetched per document, cost %.2f per document\n",
	       1e9 * tcas / ((double)n * reps), (double)fetched / ((double)n * reps), cost / n);
	printf("cascade (cas_rank_work, the scratch allocated once): %.1f ns per document\n", 1e9 * twork / ((double)n * reps));
	printf("full ensemble (full_predict): %.1f ns per document (checksum %g)\n", 1e9 * tfull / ((double)n * reps), sink);
	printf("ratio cascade/full: %.3f (cas_rank), %.3f (cas_rank_work)\n", tcas / tfull, twork / tfull);
done:
	free(work);
	free(tc);
	free(fc);
	free(s);
	free(rank);
	free(ex);
	free(qstart);
	free(x);
	return rc;
}
