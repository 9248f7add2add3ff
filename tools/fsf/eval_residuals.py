#!/usr/bin/env python3
"""Where does our static evaluation disagree with Fairy-Stockfish's? For the
quiet positions (every fourth ply from ply 8, no capture just made, not in
check) of a chess match record, asks both programs' `eval` (UCI) and fits
FSF's classical evaluation by least squares on ours and on a few chess
features (White minus Black): material, pawns per rank, isolated and
doubled pawns, the King's rank and file, open files at the King, attacks
on the hostile King's zone, Rooks on open files, mobility, hanging pieces.
A feature with a large t value is one FSF weighs and we do not. A
benchmark aid only (needs `pip install numpy chess`); no test or build
reads it, and a feature it names still has to win a match to be kept.

    tools/fsf/eval_residuals.py games.tsv --fsf /tmp/fsf/fsf \
        --quadrille target/release/quadrille
"""

import argparse

import chess
import numpy as np
from uci import Engine


def add(f, name, x):
    f[name] = f.get(name, 0) + x


def features(b):
    f = {}
    for colour, sign in ((chess.WHITE, 1), (chess.BLACK, -1)):
        for pt, n in ((chess.PAWN, "P"), (chess.KNIGHT, "N"), (chess.BISHOP, "B"),
                      (chess.ROOK, "R"), (chess.QUEEN, "Q")):
            add(f, "n" + n, sign * len(b.pieces(pt, colour)))
        pawns, theirs = b.pieces(chess.PAWN, colour), b.pieces(chess.PAWN, not colour)
        files = [chess.square_file(x) for x in pawns]
        their_files = [chess.square_file(x) for x in theirs]
        for x in pawns:
            rank = chess.square_rank(x) if colour else 7 - chess.square_rank(x)
            add(f, f"pawn_rank{rank}", sign)
            fl = chess.square_file(x)
            if files.count(fl) > 1:
                add(f, "doubled", sign / files.count(fl))
            if fl - 1 not in files and fl + 1 not in files:
                add(f, "isolated", sign)
        k = b.king(colour)
        kf = chess.square_file(k)
        krank = chess.square_rank(k) if colour else 7 - chess.square_rank(k)
        add(f, "king_rank", sign * min(krank, 4))
        add(f, "king_central_file", sign * (2 <= kf <= 5))
        add(f, "king_open_files",
            sign * sum(1 for d in (-1, 0, 1) if 0 <= kf + d < 8 and kf + d not in files))
        for x in b.pieces(chess.ROOK, colour):
            fl = chess.square_file(x)
            if fl not in files:
                add(f, "rook_half_open" if fl in their_files else "rook_open", sign)
        zone = chess.SquareSet(chess.BB_KING_ATTACKS[b.king(not colour)])
        hits, attackers = 0, set()
        for sq in zone:
            for a in b.attackers(colour, sq):
                if b.piece_type_at(a) not in (chess.PAWN, chess.KING):
                    hits += 1
                    attackers.add(a)
        add(f, "zone_hits", sign * hits)
        add(f, "zone_hits_x_attackers", sign * hits * min(len(attackers), 4))
        mover = b.copy()
        mover.turn = colour
        add(f, "mobility", sign * sum(
            1 for m in mover.pseudo_legal_moves
            if mover.piece_type_at(m.from_square) not in (chess.PAWN, chess.KING)))
        add(f, "hanging", sign * sum(
            1 for x in chess.SquareSet(b.occupied_co[colour])
            if b.piece_type_at(x) != chess.KING and b.attackers(not colour, x)
            and not b.attackers(colour, x)))
    return f


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("record")
    ap.add_argument("--fsf", required=True)
    ap.add_argument("--quadrille", default="target/release/quadrille")
    ap.add_argument("--min-pieces", type=int, default=10,
                    help="Knights, Bishops, Rooks and Queens on the board at least (the middle game)")
    args = ap.parse_args()
    fsf = Engine.start([args.fsf], [("Use NNUE", "false")])
    ours = Engine([args.quadrille, "uci"])
    rows = []
    for line in open(args.record):
        cells = line.rstrip("\n").split("\t")
        board = chess.Board(cells[0])
        for i, uci in enumerate(cells[5].split()):
            move = chess.Move.from_uci(uci)
            capture = board.is_capture(move)
            board.push(move)
            if i < 8 or i % 4 or capture or board.is_check() or board.is_game_over():
                continue
            pieces = sum(len(board.pieces(pt, c)) for pt in range(2, 6) for c in (0, 1))
            if pieces < args.min_pieces:
                continue
            fen = board.fen()
            theirs = fsf.ask([f"position fen {fen}", "eval"], "Final evaluation")
            if not theirs or "none" in theirs:
                continue
            mine = ours.ask([f"position fen {fen}", "eval"], "static eval")
            mine = float(mine.split()[4]) * 100 * (1 if board.turn == chess.WHITE else -1)
            rows.append((float(theirs.split()[2]) * 100, mine, features(board)))
    names = sorted({n for r in rows for n in r[2]})
    x = np.array([[r[2].get(n, 0) for n in names] + [r[1], 1.0] for r in rows])
    y = np.array([r[0] for r in rows])
    coef, *_ = np.linalg.lstsq(x, y, rcond=None)
    residual = y - x @ coef
    var = residual.var() * len(y) / max(len(y) - len(coef), 1)
    se = np.sqrt(np.diag(var * np.linalg.pinv(x.T @ x)))
    print(f"{len(rows)} positions; FSF's eval: spread {y.std():.0f}, unexplained {residual.std():.0f}"
          f" (FSF's units, x100); correlation with ours {np.corrcoef(y, x[:, -2])[0, 1]:.2f}")
    for n, c, e in sorted(zip(names + ["ours", "constant"], coef, se), key=lambda t: -abs(t[1] / t[2])):
        print(f"  {n:24s} {c:9.1f}  t = {c / e:6.1f}")


if __name__ == "__main__":
    main()
