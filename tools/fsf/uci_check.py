#!/usr/bin/env python3
"""Drive `quadrille uci` the way a UCI match runner would, with
Fairy-Stockfish (pyffish) as the referee: Magna Carta and chess games
against random legal moves from Fairy-Stockfish, where

* the variant is chosen with Fairy-Stockfish's name (`magnacarta`,
  tools/fsf/variants.ini);
* every `position` command is built by Fairy-Stockfish: its start FEN plus
  the game's moves, and every few plies its own FEN of the current
  position (`pyffish.get_fen`);
* every `bestmove` must be one of Fairy-Stockfish's legal moves.

Usage, from the repository root, after `cargo build --release`:

    python3 tools/fsf/uci_check.py [--games N] [--plies N] [--nodes N]

The last line is `uci-check: N games, N engine moves, N illegal`; the exit
status is non-zero if a move was illegal or the engine misbehaved.
"""

import argparse
import os
import random
import sys

import pyffish
from uci import Engine

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
INI = os.path.join(HERE, "variants.ini")
BIN = os.path.join(REPO, "target", "release", "quadrille")

# Fairy-Stockfish variant -> the name sent as UCI_Variant (FSF's own).
VARIANTS = ["magnacarta", "chess"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=2, help="games per variant")
    ap.add_argument("--plies", type=int, default=120, help="plies per game at most")
    ap.add_argument("--nodes", type=int, default=2000, help="engine nodes per move")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    pyffish.load_variant_config(open(INI).read())
    rng = random.Random(args.seed)
    eng = Engine.start([BIN, "uci"])
    games = checked = illegal = 0
    for variant in VARIANTS:
        eng.send("setoption name UCI_Variant value " + variant)
        eng.send("isready")
        eng.until("readyok")
        start = pyffish.start_fen(variant)
        for g in range(args.games):
            eng.send("ucinewgame")
            ours = g % 2  # 0: the engine plays White
            moves = []
            for ply in range(args.plies):
                legal = pyffish.legal_moves(variant, start, moves)
                if not legal:
                    break
                if ply % 2 == ours:
                    if ply % 4 == ours:
                        eng.send("position fen %s moves %s" % (start, " ".join(moves)))
                    else:
                        # The current position as Fairy-Stockfish writes it.
                        eng.send("position fen " + pyffish.get_fen(variant, start, moves))
                    eng.send("go nodes %d" % args.nodes)
                    best = eng.until("bestmove").split()[1]
                    checked += 1
                    if best not in legal:
                        illegal += 1
                        print("illegal: %s after %s from %s (legal: %s)"
                              % (best, " ".join(moves), start, " ".join(sorted(legal))))
                        break
                    moves.append(best)
                else:
                    moves.append(rng.choice(sorted(legal)))
            games += 1
    eng.close()
    print("uci-check: %d games, %d engine moves, %d illegal" % (games, checked, illegal))
    return 1 if illegal else 0


if __name__ == "__main__":
    sys.exit(main())
