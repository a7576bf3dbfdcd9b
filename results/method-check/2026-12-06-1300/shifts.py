#!/usr/bin/env python3
"""Do the shifts of entries between runs follow the runtime? Reads six committed default runs of one
Intel VM (2026-12-05 21:17 to 2026-12-06 07:10) and prints, per entry, its shift in each run after the
run's common one, whether entries of one runtime shift together, and what taking out the runtime's
shift (the mean of its other entries) would do to the spread compare must allow for.

Each run as compare --normalize calibration reads it: a throughput run divided by its round's effect,
its cell's median divided by nginx's median on the same endpoint (validate: the geometric mean of
nginx's three). Run from the repository's root: python3 results/method-check/2026-12-06-1300/shifts.py
"""
import itertools, json, math, statistics as st

RUNS = {
    'R2117': 'results/reference-2026-12-05-2117', 'REF': 'results/reference-2026-12-06-0017',
    'A2': 'results/method-check/2026-12-06/a2', 'B': 'results/method-check/2026-12-06-0359/b',
    'C': 'results/method-check/2026-12-06-0359/c', 'D': 'results/method-check/2026-12-06-0710/d',
}

def runtime(entry):
    if entry.startswith('bun') or entry == 'node-express:bun':
        return 'bun'
    return 'node' if entry.startswith('node') else entry.split('-')[0]

def ratios(folder):
    """{entry: {endpoint: log(median req/s ÷ nginx's)}} for the throughput cells of one run."""
    d = json.load(open(folder + '/results.json'))
    factor = {r['index']: r['factor'] for r in d['rounds']}
    medians = {}
    for e in d['entries']:
        if e['status'] != 'measured':
            continue
        medians[e['id']] = {c['endpoint']: st.median(r['requestsPerSecond'] / math.exp(factor.get(r['round'], 0))
                                                     for r in c['runs'] if r.get('counted') and r['requestsPerSecond'] > 0)
                            for c in e['cells'] if c['kind'] == 'throughput'}
    nginx = medians.pop('nginx')
    floor = math.exp(st.mean(math.log(v) for v in nginx.values()))
    return {e: {ep: math.log(v / nginx.get(ep, floor)) for ep, v in cells.items()} for e, cells in medians.items()}

def robust_sd(xs):
    m = st.median(xs)
    return 1.4826 * st.median(abs(x - m) for x in xs)

def corr(a, b):
    ma, mb = st.mean(a), st.mean(b)
    return sum((x - ma) * (y - mb) for x, y in zip(a, b)) / math.sqrt(
        sum((x - ma) ** 2 for x in a) * sum((y - mb) ** 2 for y in b))

data = {name: ratios(folder) for name, folder in RUNS.items()}
entries = sorted(set.intersection(*(set(d) for d in data.values())))
names = list(RUNS)

# An entry's shift in a run: its mean over its cells, less its mean over the runs and the run's median.
level = {r: {e: st.mean(data[r][e].values()) for e in entries} for r in names}
own = {e: st.mean(level[r][e] for r in names) for e in entries}
common = {r: st.median(level[r][e] - own[e] for e in entries) for r in names}
shift = {e: [level[r][e] - own[e] - common[r] for r in names] for e in entries}

print('| entry | ' + ' | '.join(names) + ' | sd |')
print('|---|' + '---:|' * (len(names) + 1))
for e in entries:
    print(f'| {e} | ' + ' | '.join(f'{v * 100:+.1f}%' for v in shift[e]) + f' | {st.stdev(shift[e]) * 100:.1f}% |')

same, other = [], []
for a, b in itertools.combinations(entries, 2):
    (same if runtime(a) == runtime(b) else other).append(corr(shift[a], shift[b]))
print(f'\nmean correlation of two entries\' shifts: same runtime {st.mean(same):+.2f} ({len(same)} pairs), '
      f'other runtimes {st.mean(other):+.2f} ({len(other)} pairs)')

# Over the 15 pairs of runs: each cell's log change less the pair's median cell, as is, and less the mean
# change of the other entries of its runtime on the same endpoint (the runtime's shift, taken out).
cells, less_runtime = [], []
for a, b in itertools.combinations(names, 2):
    change = {e: {ep: data[b][e][ep] - data[a][e][ep] for ep in data[a][e].keys() & data[b][e].keys()} for e in entries}
    middle = st.median(x for e in entries for x in change[e].values())
    for e in entries:
        for ep, x in change[e].items():
            cells.append(x - middle)
            peers = [change[o][ep] - middle for o in entries if o != e and runtime(o) == runtime(e) and ep in change[o]]
            if peers:
                less_runtime.append(x - middle - st.mean(peers))
print(f'spread of a cell\'s change over the 15 pairs (1.4826 × MAD): {robust_sd(cells) * 100:.1f}% ({len(cells)} cells); '
      f'less its runtime\'s other entries: {robust_sd(less_runtime) * 100:.1f}% ({len(less_runtime)} cells with one)')
