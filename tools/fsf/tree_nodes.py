#!/usr/bin/env python3
"""How many nodes does an engine search to a fixed depth in the positions
of real games? Replays a match record and, every other ply of each game's
first 80, asks a UCI program for `go depth D`; prints the searches, their
nodes in all and on average, the time and the nodes a second. The table
is kept from move to move as in a game (or, with `--fresh`, cleared by
`ucinewgame` before each search), so the two modes say how much a search
gains from the one before.

    quadrille match chess --a search --b uci:/tmp/fsf/fsf --b-option "Use NNUE=false" \\
        --tc depth=8 --games 8 --book b120.txt --record games.tsv
    tools/fsf/tree_nodes.py games.tsv --engine /tmp/fsf/fsf --option "Use NNUE=false" --depth 9
    tools/fsf/tree_nodes.py games.tsv --engine "target/release/quadrille uci" --depth 10

A benchmark aid only: no test or build reads it. Timing wants a quiet
machine; node counts do not.
"""

import argparse
import time

from uci import Engine


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("record", help="a `quadrille match --record` file")
    ap.add_argument("--engine", required=True, help="the UCI program and its arguments")
    ap.add_argument("--depth", type=int, required=True)
    ap.add_argument("--games", type=int, default=8, help="games of the record to replay")
    ap.add_argument("--fresh", action="store_true", help="clear the table before each search")
    ap.add_argument("--option", action="append", default=[], help="a UCI option, NAME=VALUE")
    args = ap.parse_args()

    options = [o.split("=", 1) for o in args.option]
    engine = Engine.start(args.engine.split(), options)
    searches = nodes = 0
    start = time.time()
    with open(args.record) as f:
        games = [line.rstrip("\n").split("\t") for line in f if line.strip()][: args.games]
    for fields in games:
        fen, moves = fields[0], fields[5].split()
        engine.ask(["ucinewgame"], "readyok")
        for k in range(0, min(len(moves), 80), 2):
            if args.fresh:
                engine.ask(["ucinewgame"], "readyok")
            engine.send(f"position fen {fen} moves {' '.join(moves[:k])}")
            engine.send(f"go depth {args.depth}")
            lines = engine.lines_until("bestmove")
            last = [w.split() for w in lines if w.startswith("info depth") and " nodes " in w]
            if last:
                words = last[-1]
                nodes += int(words[words.index("nodes") + 1])
                searches += 1
    seconds = time.time() - start
    engine.close()
    mode = "fresh" if args.fresh else "kept"
    print(
        f"{mode}: {searches} searches, {nodes} nodes, {nodes // max(searches, 1)} a search, "
        f"{seconds:.1f} s, {nodes / max(seconds, 1e-9) / 1000:.0f} k nodes/s"
    )


if __name__ == "__main__":
    main()
