#!/usr/bin/env bash
# The measurements of docs/performance.md ("Search"): speed, strength
# against baselines in every variant, BRS+ against Paranoid, and the Elo
# of null move and LMR. Run from the repository root after
# `cargo build --release`; writes one file per measurement to OUT
# (default /tmp/quadrille-measure). Takes about an hour on two cores.
set -euo pipefail
Q=${Q:-target/release/quadrille}
OUT=${OUT:-/tmp/quadrille-measure}
JOBS=${JOBS:-2}
mkdir -p "$OUT"
TWO="chess magna-carta caissa-britannia avon"
FOUR="ariana diana electra los-alamos minerva sylvia"

# Speed: nodes per second and time to depth, 5 s per start position.
$Q bench --search 5000 > "$OUT/bench.txt"

# Strength against baselines: 50 games each, 20 ms a move.
for v in $TWO $FOUR; do
    $Q selfplay "$v" --a search:movetime=20 --b random --games 50 --jobs "$JOBS" \
        --quiet > "$OUT/random-$v.txt"
    $Q selfplay "$v" --a search:movetime=20 --b greedy --games 50 --jobs "$JOBS" \
        --quiet > "$OUT/greedy-$v.txt"
done

# Best-Reply Search against Paranoid: 60 games (every seating of each
# opening), 25 ms a move.
for v in $FOUR; do
    $Q selfplay "$v" --a search:movetime=25 --b search:movetime=25,multi=paranoid \
        --games 60 --max-plies 300 --jobs "$JOBS" --quiet > "$OUT/brs-$v.txt"
done

# Null move and late move reductions in chess: 300 games each, 40 ms a move.
$Q selfplay chess --a search:movetime=40 --b search:movetime=40,null=off \
    --games 300 --jobs "$JOBS" --quiet > "$OUT/null-chess.txt"
$Q selfplay chess --a search:movetime=40 --b search:movetime=40,lmr=off \
    --games 300 --jobs "$JOBS" --quiet > "$OUT/lmr-chess.txt"
