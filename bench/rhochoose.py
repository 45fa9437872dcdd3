"""Choose ρ offline, from sweeps that each fixed one ρ.

  rhochoose.py RULE OUT.csv DIR/rhoR1.csv DIR/rhoR2.csv ...

Each input is a `cronus sweep ... --rhos R --out DIR/rhoR.csv --per-query
DIR/rhoR.queries.tsv` of one model and data, the same λ grid and options
but for the one ρ R its name gives (bench/fixed-rho.sh runs them); given in
the order of the grid `--rhos` would have. For each λ the script picks one
of them by RULE, and writes OUT.csv and OUT.queries.tsv: the sweep's curve
and per-query file with the cronus and cronus-init rows (and, under best and
1se, the single stage's) of the ρ picked at that λ, and every other row (the
prefixes, early exit) as the sweeps have them (they must agree: they do not
depend on ρ). It prints the ρ picked per λ.

RULE is one of
  best       what `cronus sweep` does (§3.4): the ρ whose initialised
             cascade (cronus-init) has the best mean validation NDCG@10 over
             the queries, the first in the grid's order on a tie; the
             single stage's ρ likewise from its own rows.
  1se        `cronus sweep --rho-rule 1se`: the largest ρ whose initialised
             cascade trails best's by no more than one standard error of
             the per-query differences (cronus.ChooseRho's arithmetic,
             metric.ComparePaired's rounding tolerance); single stage alike.
  optimised  the ρ whose optimised cascade (cronus) scores best on
             validation, the cheaper on a tie: a choice made after the
             cyclic optimisation of every ρ, not §3.4's.
  grid       one ρ for the whole λ grid: the one whose optimised cascades'
             mean validation NDCG@10 over the grid is best.
  grid-init  the same on the initialised cascades' (cronus-init) rows.
  fixed:R    ρ R at every λ.
Under optimised, grid, grid-init and fixed:R the single stage is best's.

OUT then matches what a sweep with that rule would write, row for row,
where no λ's cascade started from another λ's: where the initialised
cascade is empty the sweep continues from a cheaper λ's cascade (its JSON's
continued_from), which depends on the ρ picked there, and a fixed-ρ sweep
continued from its own. The ρ read from the files' names is printed as
the name spells it.
"""
import collections, csv, io, math, os, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paired import queries_path  # noqa: E402

HEAD = ['method', 'split', 'lambda', 'cost', 'feature_cost', 'tree_cost', 'p@5', 'ndcg@10', 'err@3']
QHEAD = ['method', 'split', 'lambda', 'qid', 'p@5', 'ndcg@10', 'err@3']
CASCADE = ('cronus', 'cronus-init')
SINGLE = 'single-stage'
CHOSEN = CASCADE + (SINGLE,)  # the rows whose ρ is chosen
RULES = ('best', '1se', 'optimised', 'grid', 'grid-init')


def read_csv(path):
    try:
        with open(path, newline='') as f:
            rows = list(csv.reader(f))
    except OSError as e:
        sys.exit('%s: %s' % (path, e.strerror))
    if not rows or rows[0] != HEAD:
        sys.exit('%s:1: not a cronus sweep curve (its header is %s)' % (path, ','.join(HEAD)))
    for i, r in enumerate(rows[1:], 2):
        if len(r) != len(HEAD):
            sys.exit('%s:%d: %d fields, want %d' % (path, i, len(r), len(HEAD)))
    return rows[1:]


def read_tsv(path):
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError as e:
        sys.exit('%s: %s (run cronus sweep with --per-query %s)' % (path, e.strerror, path))
    if not lines or lines[0].split('\t') != QHEAD:
        sys.exit('%s:1: not a cronus sweep --per-query file (its header is %s)' % (path, ', '.join(QHEAD)))
    rows = [l.split('\t') for l in lines[1:]]
    for i, r in enumerate(rows, 2):
        if len(r) != len(QHEAD):
            sys.exit('%s:%d: %d fields, want %d' % (path, i, len(r), len(QHEAD)))
    return rows


def num(s, where):
    try:
        return float(s)
    except ValueError:
        sys.exit('%s: %r is not a number' % (where, s))


class Sweep:
    def __init__(self, path):
        m = re.fullmatch(r'rho(.+)\.csv', os.path.basename(path))
        if not m:
            sys.exit('%s: not named rhoR.csv (R the sweep\'s one --rhos value)' % path)
        self.path, self.name = path, m.group(1)
        self.rho = num(self.name, path)
        self.rows = read_csv(path)
        self.qpath = queries_path(path)
        self.qrows = read_tsv(self.qpath)
        # per (method, λ): the validation NDCG@10 of each query, in order
        self.valid = collections.defaultdict(list)
        for r in self.qrows:
            if r[1] == 'valid':
                self.valid[(r[0], r[2])].append(num(r[5], self.qpath))
        self.at = {(r[0], r[1], r[2]): r for r in self.rows}


def mean(xs):
    """metric.MeanOf: the mean of the values that are not NaN, summed in order."""
    s, n = 0.0, 0
    for x in xs:
        if not math.isnan(x):
            s += x
            n += 1
    return s / n if n else math.nan


def diff_se(a, b):
    """metric.ComparePaired's Diff and SE of a − b, without the tests."""
    d, mag = [], 0.0
    for x, y in zip(a, b):
        if math.isnan(x) or math.isnan(y):
            continue
        mag += abs(x) + abs(y)
        d.append(x - y)
    n = len(d)
    if n == 0:
        return math.nan, math.nan
    s = 0.0
    for x in d:
        s += x
    diff = s / n
    tol = 1e-12 * mag / n
    if abs(diff) <= tol:
        diff = 0.0
    if n == 1:
        return diff, math.nan
    ss = 0.0
    for x in d:
        ss += (x - diff) * (x - diff)
    sd = math.sqrt(ss / (n - 1))
    if sd <= tol:
        sd = 0.0
    return diff, sd / math.sqrt(n)


def choose_init(sweeps, method, lam, one_se):
    """cronus.ChooseRho on the initialised cascades' (or the single stage's)
    per-query validation NDCG@10 at λ: the index of the sweep picked, or
    None when no sweep has them."""
    tried = []  # (index, per-query, mean) of the ρ with a mean
    best = None
    for i, s in enumerate(sweeps):
        pq = s.valid.get((method, lam))
        if not pq:
            continue
        q = mean(pq)
        if math.isnan(q):
            continue
        tried.append((i, pq, q))
        if best is None or q > tried[best][2]:
            best = len(tried) - 1
    if best is None:
        return None
    pick = best
    if one_se:
        for j, (i, pq, q) in enumerate(tried):
            if sweeps[i].rho <= sweeps[tried[pick][0]].rho:
                continue
            if len(pq) != len(tried[best][1]):
                sys.exit('%s: λ %s: %d validation queries, %s has %d' % (sweeps[i].qpath, lam, len(pq), sweeps[tried[best][0]].qpath, len(tried[best][1])))
            diff, se = diff_se(tried[best][1], pq)
            if diff <= 0 or diff <= se:
                pick = j
    return tried[pick][0]


def choose_optimised(sweeps, lam):
    """The sweep whose cronus validation row at λ has the best NDCG@10, the
    cheaper on a tie, the first on a tie of both."""
    pick, key = None, None
    for i, s in enumerate(sweeps):
        r = s.at.get(('cronus', 'valid', lam))
        if r is None:
            continue
        k = (num(r[7], s.path), -num(r[3], s.path))
        if math.isnan(k[0]):
            continue
        if key is None or k > key:
            pick, key = i, k
    return pick


def choose_grid(sweeps, lams, method):
    """The one sweep whose validation rows of method (cronus or
    cronus-init) have the best mean NDCG@10 over the grid, the first on a
    tie."""
    pick, best = None, None
    for i, s in enumerate(sweeps):
        v = [num(s.at[(method, 'valid', l)][7], s.path) for l in lams if (method, 'valid', l) in s.at]
        m = mean(v) if v else math.nan
        if not math.isnan(m) and (best is None or m > best):
            pick, best = i, m
    return pick


def write(path, text):
    tmp = path + '.tmp'
    with open(tmp, 'w', newline='') as f:
        f.write(text)
    os.replace(tmp, path)


def main():
    if len(sys.argv) < 4 or sys.argv[1] in ('-h', '--help'):
        sys.exit(__doc__.strip() if len(sys.argv) > 1 else 'usage: rhochoose.py RULE OUT.csv DIR/rhoR.csv ... (see its docstring)')
    rule, out, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
    fixed = None
    if rule.startswith('fixed:'):
        fixed = rule[len('fixed:'):]
    elif rule not in RULES:
        sys.exit('rhochoose.py: rule %r: want best, 1se, optimised, grid, grid-init or fixed:R' % rule)
    if not out.endswith('.csv'):
        sys.exit('rhochoose.py: %s: the output must end in .csv (its per-query file is X.queries.tsv)' % out)
    sweeps = [Sweep(p) for p in paths]
    first = sweeps[0]
    # The rows that do not depend on ρ must be the same in every sweep, and
    # so must the λ grid: else they are not one set-up's sweeps.
    fixed_rows = [r for r in first.rows if r[0] not in CHOSEN]
    fixed_q = [r for r in first.qrows if r[0] not in CHOSEN]
    lams = list(dict.fromkeys(r[2] for r in first.rows if r[0] in CASCADE))
    for s in sweeps[1:]:
        if [r for r in s.rows if r[0] not in CHOSEN] != fixed_rows:
            sys.exit('%s: its prefix and early-exit rows differ from %s\'s: not the same model, data and options' % (s.path, first.path))
        if [r for r in s.qrows if r[0] not in CHOSEN] != fixed_q:
            sys.exit('%s: its prefix and early-exit rows differ from %s\'s' % (s.qpath, first.qpath))
        if list(dict.fromkeys(r[2] for r in s.rows if r[0] in CASCADE)) != lams:
            sys.exit('%s: its λ differ from %s\'s (the same --lambdas, and no --refine)' % (s.path, first.path))
    if fixed is not None:
        idx = [i for i, s in enumerate(sweeps) if s.name == fixed]
        if not idx:
            sys.exit('rhochoose.py: fixed:%s: no rho%s.csv among the sweeps (%s)' % (fixed, fixed, ' '.join(s.name for s in sweeps)))
    grid_pick = choose_grid(sweeps, lams, 'cronus' if rule == 'grid' else 'cronus-init') if rule.startswith('grid') else None
    pick = {}  # (method group, λ) -> sweep index
    for lam in lams:
        single = choose_init(sweeps, SINGLE, lam, rule == '1se')
        if rule in ('best', '1se'):
            casc = choose_init(sweeps, 'cronus-init', lam, rule == '1se')
        elif rule == 'optimised':
            casc = choose_optimised(sweeps, lam)
        elif rule.startswith('grid'):
            casc = grid_pick
        else:
            casc = idx[0]
        if casc is None:
            casc = 0  # no ρ scored (all NaN): every sweep's rows alike
        pick[('cascade', lam)] = casc
        pick[('single', lam)] = 0 if single is None else single
    def source(method, lam):
        if method in CASCADE:
            return sweeps[pick[('cascade', lam)]]
        if method == SINGLE:
            return sweeps[pick[('single', lam)]]
        return None
    # Rows in the first sweep's order, each ρ-dependent one from the sweep
    # picked at its λ.
    rows = []
    for r in first.rows:
        s = source(r[0], r[2])
        if s is None:
            rows.append(r)
            continue
        key = (r[0], r[1], r[2])
        if key not in s.at:
            sys.exit('%s: no %s %s row at λ %s, which %s has' % (s.path, r[0], r[1], r[2], first.path))
        rows.append(s.at[key])
    # The per-query rows likewise: walk the first sweep's, and where a
    # ρ-dependent point's rows begin, put the picked sweep's rows for it.
    byq = collections.defaultdict(list)
    for s in sweeps:
        for r in s.qrows:
            if r[0] in CHOSEN and source(r[0], r[2]) is s:
                byq[(r[0], r[1], r[2])].append(r)
    ordered, done = [], set()
    for r in first.qrows:
        key = (r[0], r[1], r[2])
        if r[0] not in CHOSEN:
            ordered.append(r)
        elif key not in done:
            done.add(key)
            ordered.extend(byq[key])
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator='\n')
    w.writerow(HEAD)
    w.writerows(rows)
    write(out, buf.getvalue())
    write(queries_path(out), '\t'.join(QHEAD) + '\n' + ''.join('\t'.join(r) + '\n' for r in ordered))
    print('%s: ρ by %s, per λ (the cascade\'s, the single stage\'s):' % (out, rule))
    for lam in lams:
        print('  λ %-22s %-8s %s' % (lam, sweeps[pick[('cascade', lam)]].name, sweeps[pick[('single', lam)]].name))


if __name__ == '__main__':
    main()
