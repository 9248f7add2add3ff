#!/usr/bin/env python3
"""Scores tune data with Fairy-Stockfish's search, for `quadrille tune
--result-share 0` (distillation: our evaluation fitted to a stronger
engine's scores, which are far less noisy than one game's result). Reads
the lines `quadrille tune --save-data` writes (position, result, score,
tab-separated) and writes the same lines with the score replaced by FSF's
at a fixed depth, from White's (the first army's) view; a mate is +-2000.
Positions FSF gives no score for are left out. Several FSF processes share
the work; the output keeps the input's order (the tuner holds out blocks
of consecutive lines, a game's positions together).

A benchmark aid only (FSF is a measuring stick, never a dependency): no
test or build reads it. Chess positions only (`position fen`).

    tools/fsf/label.py fsfpos.txt fsfs10.txt --fsf /tmp/fsf/fsf --depth 10 --jobs 2
"""

import argparse
from concurrent.futures import ThreadPoolExecutor

from uci import Engine, last_score

MATE = 2000


def start(program):
    """One FSF process kept running: classical evaluation, small table."""
    return Engine.start([program], [("Use NNUE", "false"), ("Hash", "16")])


def score(engine, fen, depth):
    """The last reported score of a `go depth` search, side to move's view."""
    engine.send("position fen " + fen)
    engine.send(f"go depth {depth}")
    found = last_score(engine.lines_until("bestmove"))
    if found is None:
        return None
    kind, value = found
    return value if kind == "cp" else (MATE if value > 0 else -MATE)


def label(lines, program, depth):
    engine = start(program)
    out = []
    for line in lines:
        fen, result, _ = line.rstrip("\n").split("\t")
        s = score(engine, fen, depth)
        if s is not None:
            if fen.split()[1] == "b":
                s = -s
            out.append(f"{fen}\t{result}\t{s}\n")
    engine.close()
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--fsf", default="/tmp/fsf/fsf")
    ap.add_argument("--depth", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    with open(args.input) as f:
        lines = [line for line in f if line.strip()]
    # Contiguous shards, so that concatenating them keeps the order.
    size = max(1, -(-len(lines) // args.jobs))
    shards = [lines[i : i + size] for i in range(0, len(lines), size)]
    with ThreadPoolExecutor(max(1, len(shards))) as pool:
        done = list(pool.map(lambda s: label(s, args.fsf, args.depth), shards))
    with open(args.output, "w") as f:
        for part in done:
            f.writelines(part)
    print(f"{sum(map(len, done))} of {len(lines)} positions scored at depth {args.depth}")


if __name__ == "__main__":
    main()
