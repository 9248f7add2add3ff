#!/usr/bin/env python3
"""How much do the moves of each engine lose, judged by a deep search? For
chess positions (the first field of each line of a positions file, e.g.
the `quadrille tune` data or a match record's openings), the moves of
Fairy-Stockfish (classical evaluation) at N nodes and of Quadrille at N
and at larger multiples of N are each scored by a deep search of every
judge: Fairy-Stockfish (`searchmoves`) and Quadrille (the position after
the move, negated), beside FSF's own choice at the judge's depth. A
move's loss is the best candidate's score less its own, in centipawns,
capped at 500.

Each judge prefers the moves its own evaluation likes, so read the two
together: if both judges find Quadrille's moves at 16 N no better than
Fairy-Stockfish's at N, more nodes alone will not close the gap. A
benchmark aid only; no test or build reads it.

    tools/fsf/move_loss.py positions.txt --fsf /tmp/fsf/fsf \\
        [--count 150] [--nodes 60000] [--multiples 1,4,16] [--judge-nodes 1500000]
"""

import argparse
import collections
import random
from concurrent.futures import ThreadPoolExecutor

from uci import Engine, last_score

MATE = 10000


def go(e, position, limit):
    """The best move and the last score (centipawns, side to move) of a
    fresh search of `position` (a UCI `position` argument)."""
    e.send("ucinewgame")
    e.send("position " + position)
    e.send("go " + limit)
    lines = e.lines_until("bestmove")
    found = last_score(lines)
    score = None
    if found is not None:
        kind, n = found
        score = n if kind == "cp" else (MATE - abs(n)) * (1 if n > 0 else -1)
    return lines[-1].split()[1], score


def positions(path, count, seed, min_pieces):
    fens = [line.split("\t")[0].strip() for line in open(path)]
    fens = [f for f in fens if sum(c.isalpha() for c in f.split()[0]) >= min_pieces]
    random.Random(seed).shuffle(fens)
    return fens[:count]


def worker(args, fens):
    fsf = Engine.start([args.fsf], [("Use NNUE", "false"), ("Threads", 1), ("Hash", 64)])
    ours = Engine.start([args.quadrille, "uci"], [("Hash", 64)])
    rows = []
    for fen in fens:
        moves = {"fsf": go(fsf, "fen " + fen, f"nodes {args.nodes}")[0]}
        for k in args.multiples:
            moves[f"ours{k}"] = go(ours, "fen " + fen, f"nodes {args.nodes * k}")[0]
        judged = {}
        j = f"nodes {args.judge_nodes}"
        # FSF's own choice at the judge's depth is a candidate too.
        best, score = go(fsf, "fen " + fen, j)
        candidates = sorted(set(moves.values()) | {best})
        judged["fsf"] = {
            m: score if m == best else go(fsf, "fen " + fen, f"{j} searchmoves {m}")[1]
            for m in candidates
        }
        if not args.fsf_judge_only:
            judged["ours"] = {m: -go(ours, f"fen {fen} moves {m}", j)[1] for m in candidates}
        rows.append((fen, moves, judged))
        print(fen, " ".join(f"{k}={m}" for k, m in moves.items()), flush=True)
    fsf.close()
    ours.close()
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("positions")
    ap.add_argument("--fsf", required=True)
    ap.add_argument("--quadrille", default="target/release/quadrille")
    ap.add_argument("--count", type=int, default=150)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--min-pieces", type=int, default=14, help="pieces and pawns on the board at least")
    ap.add_argument("--nodes", type=int, default=60000)
    ap.add_argument("--multiples", default="1,4,16", help="Quadrille's nodes, in multiples of --nodes")
    ap.add_argument("--judge-nodes", type=int, default=1500000)
    ap.add_argument("--fsf-judge-only", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    args.multiples = [int(k) for k in args.multiples.split(",")]
    fens = positions(args.positions, args.count, args.seed, args.min_pieces)
    with ThreadPoolExecutor(args.jobs) as pool:
        parts = pool.map(lambda i: worker(args, fens[i :: args.jobs]), range(args.jobs))
        rows = [r for part in parts for r in part]
    for judge in ("fsf", "ours"):
        losses = collections.defaultdict(list)
        for _, moves, judged in rows:
            if judge not in judged or None in judged[judge].values():
                continue
            scores = judged[judge]
            top = max(scores.values())
            for who, m in moves.items():
                losses[who].append(min(500, top - scores[m]))
        for who, v in losses.items():
            print(f"judge {judge}: {who:8s} {len(v)} positions, mean loss {sum(v) / len(v):5.1f} cp, "
                  f"best move {sum(x == 0 for x in v)}, losing 100 or more {sum(x >= 100 for x in v)}")


if __name__ == "__main__":
    main()
