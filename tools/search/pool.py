#!/usr/bin/env python3
"""Pools `quadrille match` logs into one Elo estimate, or compares two pools.

    tools/search/pool.py LOG...                 pooled Elo of A over B
    tools/search/pool.py --sprt E0,E1 LOG...    and the pooled SPRT's LLR
    tools/search/pool.py --diff "LOGS_A" "LOGS_B"  Elo of pool A minus pool B

Each log's last `pairs [..]` line gives its pentanomial counts (pairs that
scored 0, 1/2, 1, 3/2, 2 points for A); the interval is 95 % from the
pairs' variance, as crates/search/src/stats.rs computes it. A difference
of two pools (e.g. two weight files, each against the same FSF on the
same books) takes the two estimates as independent.
"""
import math
import re
import sys


def counts(path):
    last = None
    with open(path) as f:
        for line in f:
            m = re.search(r"pairs \[([0-9, ]+)\]", line)
            if m:
                last = [int(x) for x in m.group(1).split(",")]
    if last is None:
        sys.exit(f"{path}: no `pairs [..]` line")
    return last


def pooled(paths):
    total = [0] * 5
    for p in paths:
        total = [a + b for a, b in zip(total, counts(p))]
    return total


def elo(s):
    return -400.0 * math.log10(1.0 / s - 1.0)


def moments(c):
    """Mean and variance of a pair's score (0 .. 1) over weights c."""
    n = sum(c)
    mean = sum(k / 4 * c[k] for k in range(5)) / n
    return mean, sum(c[k] * (k / 4 - mean) ** 2 for k in range(5)) / n


def estimate(c):
    """(elo, low, high, half-width in Elo, games, score) of pentanomial c."""
    n = sum(c)
    mean, var = moments(c)
    eps = 0.125 / n
    clamp = lambda s: min(max(s, eps), 1 - eps)
    half = 1.96 * math.sqrt(var / n)
    e = elo(clamp(mean))
    # Delta method: dElo/ds = 400 / (ln 10 * s * (1 - s)).
    m = clamp(mean)
    se = 400 / (math.log(10) * m * (1 - m)) * math.sqrt(var / n)
    return e, elo(clamp(mean - half)), elo(clamp(mean + half)), se, 2 * n, mean


def llr(c, elo0, elo1):
    """The SPRT's log-likelihood ratio of pentanomial c, as
    crates/search/src/stats.rs computes it (a prior of 0.2 pair a kind)."""
    n = sum(c)
    mean, var = moments([k + 0.2 for k in c])
    expected = lambda e: 1 / (1 + 10 ** (-e / 400))
    s0, s1 = expected(elo0), expected(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


def show(name, c):
    e, lo, hi, _, g, s = estimate(c)
    print(f"{name}: {g} games {100 * s:.1f} %  Elo {e:+.0f} ({lo:+.0f} .. {hi:+.0f})  pairs {c}")


def main(args):
    if args and args[0] == "--diff":
        if len(args) != 3:
            sys.exit('usage: pool.py --diff "LOGS_A" "LOGS_B"')
        a, b = pooled(args[1].split()), pooled(args[2].split())
        show("A", a)
        show("B", b)
        ea, *_, sa, _, _ = estimate(a)
        eb, *_, sb, _, _ = estimate(b)
        d, se = ea - eb, math.hypot(sa, sb)
        print(f"A - B: {d:+.0f} ({d - 1.96 * se:+.0f} .. {d + 1.96 * se:+.0f})")
    elif args and args[0] == "--sprt":
        if len(args) < 3:
            sys.exit("usage: pool.py --sprt E0,E1 LOG...")
        elo0, elo1 = (float(x) for x in args[1].split(","))
        c = pooled(args[2:])
        show("pooled", c)
        bound = math.log((1 - 0.05) / 0.05)
        print(f"LLR {llr(c, elo0, elo1):.2f} (-{bound:.2f}, {bound:.2f}) [{args[1]}]")
    elif args:
        show("pooled", pooled(args))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
