#!/usr/bin/env bash
# The measurements of docs/performance.md: perft and search speed,
# strength against baselines in every variant, BRS+ against Paranoid, and
# the Elo of null move and LMR. Run from the repository root after
# `cargo build --release`:
#
#   tools/search/measure.sh [speed] [baselines] [brs] [pruning]
#
# (all four when none is named). Writes one file per measurement to OUT
# (default /tmp/quadrille-measure). Speed wants a quiet machine; the
# whole set takes about an hour and a half on two cores.
set -euo pipefail
Q=${Q:-target/release/quadrille}
OUT=${OUT:-/tmp/quadrille-measure}
JOBS=${JOBS:-2}
GAMES=${GAMES:-40}
mkdir -p "$OUT"
TWO="chess magna-carta caissa-britannia avon"
FOUR="ariana diana electra los-alamos minerva sylvia
      xiang-aikou anglis-aikou gnu-aikou caliph-aikou tor-aikou yang-aikou"
PARTS=${*:-speed baselines brs pruning}

for part in $PARTS; do
    case $part in
    speed)
        # Perft (bulk-counted leaves) and search: nodes per second and time
        # to depth, 5 s per start position.
        $Q bench > "$OUT/perft.txt"
        $Q perft chess 6 > "$OUT/perft-chess-6.txt"
        $Q perft magna-carta 5 > "$OUT/perft-magna-carta-5.txt"
        $Q bench --search 5000 > "$OUT/search.txt"
        ;;
    baselines)
        # The full search against a random mover and a one-ply greedy
        # player, 20 ms a move.
        for v in $TWO $FOUR; do
            for b in random greedy; do
                $Q selfplay "$v" --a search:movetime=20 --b "$b" --games "$GAMES" \
                    --jobs "$JOBS" --quiet > "$OUT/$b-$v.txt"
            done
        done
        ;;
    brs)
        # Best-Reply Search against Paranoid, 25 ms a move.
        for v in $FOUR; do
            $Q selfplay "$v" --a search:movetime=25 --b search:movetime=25,multi=paranoid \
                --games "$GAMES" --max-plies 300 --jobs "$JOBS" --quiet > "$OUT/brs-$v.txt"
        done
        ;;
    pruning)
        # Null move and late move reductions in chess, 40 ms a move.
        for off in null lmr; do
            $Q selfplay chess --a search:movetime=40 --b "search:movetime=40,$off=off" \
                --games "${PRUNING_GAMES:-300}" --jobs "$JOBS" --quiet > "$OUT/$off-chess.txt"
        done
        ;;
    *)
        echo "measure.sh: unknown part '$part' (speed, baselines, brs, pruning)" >&2
        exit 2
        ;;
    esac
done
