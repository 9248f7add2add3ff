#!/usr/bin/env python3
"""Scores a UCI engine on a chess test suite (EPD), theme by theme: a
quick, load-independent look at what a search or an evaluation misses,
cheaper than a match and never a substitute for one.

Each line's best move scores 10 points; a suite that grades its moves
(`c9` moves in UCI notation with `c8` points, as the Strategic Test Suite
does) scores each graded move its points. `bm` moves are SAN, matched
with pyffish (checks and mates marks ignored). The theme is the `id`
without its trailing number. Suites are not in the repository: e.g. Win
At Chess (`wac.epd`) and the Strategic Test Suite (`STS1-STS15_LAN_v3.epd`
of github.com/fsmosca/STS-Rating).

A benchmark aid only (FSF is a measuring stick, never a dependency): no
test or build reads it.

    tools/fsf/suite.py sts.epd --engine "target/release/quadrille uci" --go "nodes 60000"
    tools/fsf/suite.py sts.epd --engine /tmp/fsf/fsf --option "Use NNUE=false" --go "nodes 60000"
    tools/fsf/suite.py sts.epd --engine "target/release/quadrille uci" --option Weights=w.toml

(`Weights`: a weights file of `quadrille tune`'s format, to score a
variant of the evaluation before a match measures it.)
"""

import argparse
import collections
import re
import shlex

import pyffish

from uci import Engine


def parse(line):
    """(position, theme, {UCI move or SAN: points}) of one EPD line, or
    None for a line without a best move."""
    fields = line.split()
    if len(fields) < 4:
        return None
    fen = " ".join(fields[:4]) + " 0 1"
    ident = re.search(r'id "([^"]*)"', line)
    theme = re.sub(r"\.?\d+$", "", ident.group(1)) if ident else "-"
    graded = re.search(r'c9 "([^"]*)"', line), re.search(r'c8 "([^"]*)"', line)
    if all(graded):
        moves, points = graded[0].group(1).split(), graded[1].group(1).split()
        return fen, theme, dict(zip(moves, map(int, points)))
    best = re.search(r"bm ([^;]*);", line)
    if not best:
        return None
    return fen, theme, {m.rstrip("+#"): 10 for m in best.group(1).split()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("suite")
    ap.add_argument("--engine", required=True, help="the UCI command line")
    ap.add_argument("--option", action="append", default=[], help="NAME=VALUE, a UCI option")
    ap.add_argument("--go", default="nodes 60000", help="the limit after `go`")
    ap.add_argument("--misses", action="store_true", help="list the positions missed")
    args = ap.parse_args()

    options = [option.split("=", 1) for option in args.option]
    engine = Engine.start(shlex.split(args.engine), options)

    points, counts = collections.Counter(), collections.Counter()
    for line in open(args.suite):
        parsed = parse(line)
        if parsed is None:
            continue
        fen, theme, graded = parsed
        engine.send("ucinewgame")
        engine.send("position fen " + fen)
        engine.send("go " + args.go)
        move = engine.until("bestmove").split()[1]
        san = pyffish.get_san("chess", fen, move).rstrip("+#")
        got = graded.get(move, graded.get(san, 0))
        points[theme] += got
        counts[theme] += 1
        if args.misses and got < max(graded.values()):
            print(f"missed {theme}: {move} ({got}) in {fen}")
    engine.close()
    for theme in counts:
        print(f"{points[theme]:6d} / {10 * counts[theme]:6d}  {theme}")
    print(f"{sum(points.values()):6d} / {10 * sum(counts.values()):6d}  total")


if __name__ == "__main__":
    main()
