#!/usr/bin/env python3
"""Is an entry's first round cold? For every committed run of the current defaults, each entry's
first-round runs against its cells' medians (every run divided by its round's effect, as the report
does): the mean over its throughput cells of log(round 1 ÷ median). Then, over the runs whose
warm-up was one run per cell (before environment.load.warmupRise), how often the first round and how
often any later round was more than 8% low. Run from the repository's root."""
import collections, json, math, os, statistics as st

ROOT = 'results'
RUNS = ['reference-2026-12-06-0017', 'reference-2026-12-05-1407', 'reference-2026-12-05-2117'] + sorted(
    os.path.join('method-check', day, run) for day in ('2026-12-05-1407', '2026-12-05-1728', '2026-12-05-2117',
                                                       '2026-12-06', '2026-12-06-0359', '2026-12-06-0710', '2026-12-06-0949',
                                                       '2026-12-06-1300')
    for run in os.listdir(os.path.join(ROOT, 'method-check', day))
    if os.path.isfile(os.path.join(ROOT, 'method-check', day, run, 'results.json')))
WATCHED = ['java-reference', 'bun-serve', 'bun-elysia', 'node-express:bun', 'go-gin', 'py-fastapi']
COLD = -0.08

def round_shares(path):
    """{entry: {round: mean over its throughput cells of log(run ÷ cell median)}}, and the kernel."""
    d = json.load(open(path))
    factor = {r['index']: r['factor'] for r in d['rounds']}
    out = {}
    for e in d['entries']:
        if e['status'] != 'measured':
            continue
        by_round = collections.defaultdict(list)
        for c in e['cells']:
            if c['kind'] != 'throughput':
                continue
            v = {r['round']: math.log(r['requestsPerSecond']) - factor.get(r['round'], 0)
                 for r in c['runs'] if r.get('counted') and r['requestsPerSecond'] > 0}
            if len(v) >= 5:
                m = st.median(v.values())
                for rd, x in v.items():
                    by_round[rd].append(x - m)
        out[e['id']] = {rd: st.mean(xs) for rd, xs in by_round.items()}
    return out, d['environment'].get('kernel', '?'), d['environment']['load'].get('warmupRise')

paths = [os.path.join(ROOT, r, 'results.json') for r in RUNS]
cold = collections.Counter()
seen = collections.Counter()
print('| run | kernel | warm-up | ' + ' | '.join(WATCHED) + ' |')
print('|---|---|---|' + '---:|' * len(WATCHED))
for path in paths:
    shares, kernel, rise = round_shares(path)
    row = []
    for e in WATCHED:
        r1 = shares.get(e, {}).get(1)
        row.append('' if r1 is None else f'{r1 * 100:+.0f}%')
    print(f'| {os.path.dirname(path)} | {kernel.split("-")[-1]} | {"while rising" if rise else "one run"} | '
          + ' | '.join(row) + ' |')
    if rise:
        continue
    for e, rounds in shares.items():
        for rd, x in rounds.items():
            key = (e, 'first' if rd == 1 else 'later')
            seen[key] += 1
            cold[key] += x < COLD
print(f'\nWith one warm-up run per cell, rounds more than {-COLD:.0%} below the median on average over the entry\'s cells:')
for e in sorted({k[0] for k in seen}):
    f, l = (e, 'first'), (e, 'later')
    print(f'  {e}: first round {cold[f]} of {seen[f]} runs; later rounds {cold[l]} of {seen[l]} ({cold[l] / max(seen[l], 1):.0%})')
