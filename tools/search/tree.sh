#!/usr/bin/env bash
# Tree size at a fixed depth: the total nodes of `quadrille analyze` over
# the start and three lines of the variant's book (2, 20 and 50), with any
# search settings. Deterministic, so a pruning's effect on the tree can be
# read before a match measures its strength. From the repository root
# after `cargo build --release`:
#
#   tools/search/tree.sh chess 12 --tune lmp_depth:8
set -euo pipefail
Q=${Q:-target/release/quadrille}
v=$1
depth=$2
shift 2
book=crates/cli/books/$v.txt
total=0
for line in 0 2 20 50; do
    if [ "$line" = 0 ]; then
        out=$("$Q" analyze "$v" --depth "$depth" "$@" | tail -1)
    else
        out=$("$Q" analyze "$v" --position "$(sed -n "${line}p" "$book")" --depth "$depth" "$@" | tail -1)
    fi
    total=$((total + $(echo "$out" | awk '{print $8}')))
done
echo "$total $*"
