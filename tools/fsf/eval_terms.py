#!/usr/bin/env python3
"""Where do our games against Fairy-Stockfish go wrong? Averages FSF's
classical evaluation terms (its `eval` trace: material, mobility, king
safety, threats ...) over the positions a given number of plies into each
game of a match record, from Quadrille's side.

    quadrille match chess --b uci:/tmp/fsf/fsf --b-option "Use NNUE=false" \
        --tc 100ms --games 20 --record games.tsv
    tools/fsf/eval_terms.py games.tsv --fsf /tmp/fsf/fsf --plies 10 20 30

A record line is: start position, player A, player B, result, ending,
moves (tab-separated); Quadrille is the player called `search...`. A
benchmark aid only: no test or build reads it.
"""

import argparse
import subprocess
from collections import defaultdict


def trace(fsf, variant, fen, moves):
    """FSF's trace of one position: {term: (mg, eg)} from White's side."""
    commands = ["uci", "setoption name Use NNUE value false"]
    if variant:
        commands.append(f"setoption name UCI_Variant value {variant}")
    commands += ["isready", f"position fen {fen} moves {' '.join(moves)}", "eval", "quit"]
    out = subprocess.run(
        [fsf], input="\n".join(commands) + "\n", capture_output=True, text=True
    ).stdout
    terms = {}
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not line.startswith("|"):
            continue
        try:
            mg, eg = (float(x) for x in cells[3].split())
        except ValueError:
            continue  # the header, or a term FSF leaves blank
        terms[cells[0]] = (mg, eg)
    return terms


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("record", help="a `quadrille match --record` file")
    ap.add_argument("--fsf", required=True, help="Fairy-Stockfish binary")
    ap.add_argument("--variant", help="FSF's UCI_Variant (chess if unset)")
    ap.add_argument("--plies", type=int, nargs="+", default=[10, 20, 30])
    args = ap.parse_args()
    games = [line.split("\t") for line in open(args.record) if line.strip()]
    for ply in args.plies:
        total = defaultdict(lambda: [0.0, 0.0])
        n = 0
        for fen, a, _b, _result, _ending, moves in games:
            moves = moves.split()
            if len(moves) < ply:
                continue
            # The record names the first army's (White's) player first, and
            # FSF's trace is from White's side; we are the `search` one.
            sign = 1 if a.startswith("search") else -1
            for term, (mg, eg) in trace(args.fsf, args.variant, fen, moves[:ply]).items():
                total[term][0] += sign * mg
                total[term][1] += sign * eg
            n += 1
        print(f"after {ply} plies, {n} positions, pawns from our side (mg, eg):")
        for term, (mg, eg) in total.items():
            print(f"  {term:12s} {mg / max(n, 1):6.2f} {eg / max(n, 1):6.2f}")


if __name__ == "__main__":
    main()
