#!/usr/bin/env python3
"""Cross-check Quadrille's perft counts against Fairy-Stockfish (pyffish).

Usage (from the repository root):
    python3 tools/fsf/crosscheck.py [--bin target/release/quadrille]
        [--quick] [--variant NAME ...] [--live] [--fsf-only] [--regen]

What is compared
----------------
For every variant in VARIANTS below there is a positions file
tools/fsf/positions/<variant>.txt with lines

    FEN;depth;count;label

(`count` = Fairy-Stockfish's perft, adjusted as described below).  Those
files are produced by `--regen` (needs pyffish) and are plain data, so they
can also serve as Rust regression tests without pyffish.  A normal run
invokes

    QUADRILLE perft <variant args> DEPTH --position FEN --divide

for each selected line and compares the `nodes N` total with `count`.  The
expected counts come from the positions file (fast, no pyffish needed);
`--live` recomputes them with pyffish instead (and reports any stored count
that no longer agrees).  When a total differs and pyffish is importable the
script prints the divide diff (moves only in ours / only in FSF / different
counts), then descends into the first move whose counts differ (printing the
move path and the FEN) until the difference is pinned to a missing/extra
move or to depth 1.  The last line is `crosscheck: N passed, N failed`
(`, N skipped` is added when lines were skipped); exit status 0 only if
nothing failed.

Selection: by default every position is run at the deepest depth stored for
it.  --quick runs the start positions at the variant's "quick" depth and
every other position at depth <= 2 (CI; a few seconds of our engine).
--fsf-only checks the stored counts against pyffish without our binary.

Positions (see --regen): the start position (depths 1..N), hand-written
"tricky" positions (castling through/into check, en passant incl. pinned en
passant, promotions to every allowed type, Magna Carta royalty changes and
royal forks, Lion hops, Unicorn nightrider lines, Prince Consort, facing
Queens, liberation promotions, Queen pass-through) and 30 positions per
variant reached by seeded random playouts from the start (plies 10..80,
`random.Random("quadrille-crosscheck-<variant>")`, moves chosen uniformly
from the sorted adjusted legal-move list), at depth 3 when perft(2) is small
enough and depth 2 otherwise.  Each hand-written position is checked to be
legal (the side not to move is not in check) before it is stored.

Rules FSF cannot express, and how this script deals with them
--------------------------------------------------------------
* Caissa Britannia, Queen pass-through rule (a royal Queen may not cross a
  cell it could not legally stop on).  It is EMULATED exactly on top of
  FSF's move list: for a Queen move o->t of length >= 2, every crossed cell
  c must itself be a legal Queen destination o->c in FSF's (unfiltered) list
  (FSF's king legality = "c not attacked with the Queen on c and o empty",
  which is precisely the rule's test).  Moves failing it are removed before
  counting and recursing.  Positions where this removed something carry the
  label suffix "+passthrough".
* Caissa Britannia, Dragon (AADD).  FSF's rider tables only know rook,
  bishop and nightrider lines; "AADD" yields a piece with no moves at all.
  variants.ini therefore defines the Dragon as the single-leap piece "AD".
  That is exact as long as no Dragon can make a second leap.  During every
  FSF perft of variant caissa-britannia the script checks (a) at each node
  where moves are generated, that no Dragon of the side to move has a free
  first landing with a second landing on the board, and (b) for every
  generated move, that the mover's Queen is not reachable by a second or
  later leap of an enemy Dragon.  If either fails the position is "not
  comparable": regen skips it (and lists it as a comment in the positions
  file).  Dragon rides themselves are only covered by Rust unit tests.
* Magna Carta, castling by a non-royal King (Black holds a spare King).
  FSF only tests "not on / through / onto an attacked cell" for a
  pseudo-royal castling piece; the rules demand the FIDE test always.  When
  Black has >= 2 Kings and FSF offers castling, the castling moves are taken
  from the same position with every other black King replaced by a black
  Knight (same occupancy, e8-King alone and therefore royal in FSF).
* Not compared at all: draws by repetition / move counters (perft ignores
  them), and Dragon rides (see above).

Variant mapping: see VARIANTS (our name, FSF section in variants.ini, the
argv words that select the variant in our binary).
"""

import argparse
import os
import random
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
INI = os.path.join(HERE, "variants.ini")
POS_DIR = os.path.join(HERE, "positions")

# ---------------------------------------------------------------------------
# Variant table: our name <-> FSF variant name.
#   fsf:    section name in variants.ini (or a built-in FSF variant)
#   ours:   argv words selecting the variant in `quadrille perft` (they take
#           the place of VARIANT); "{variant_file}" is replaced by the value of
#           --variant-file (default given by variant_file).
#   files/ranks: board size; start_depth / quick_depth: start position depth
#   rules:  which adjustment layer the FSF perft uses (see module doc)
# ---------------------------------------------------------------------------
VARIANTS = {
    "chess": dict(fsf="chess", ours=["chess"], files=8, ranks=8,
                  start_depth=4, quick_depth=3, rules="none"),
    "magna-carta": dict(fsf="magnacarta", ours=["magna-carta"], files=8, ranks=8,
                        start_depth=4, quick_depth=3, rules="magnacarta"),
    "caissa-britannia": dict(fsf="caissa", ours=["caissa-britannia"], files=10, ranks=10,
                             start_depth=2, quick_depth=2, rules="caissa-dragon"),
    "caissa-nodragon": dict(fsf="caissanodragon",
                            ours=["caissa-britannia", "--variant-file", "{variant_file}"],
                            variant_file="variants/caissa-nodragon.toml",
                            files=10, ranks=10, start_depth=3, quick_depth=2,
                            rules="caissa"),
}
ALIASES = {"magnacarta": "magna-carta", "caissa": "caissa-britannia",
           "caissanodragon": "caissa-nodragon", "caissa-no-dragon": "caissa-nodragon"}

RANDOM_POSITIONS = 30
RANDOM_PLY_RANGE = (10, 80)
DEEP_LIMIT = 2500          # store depth 3 when perft(2) <= this
TRICKY_DEEP_LIMIT = 4000   # same for hand-written positions
QUICK_OTHER_DEPTH = 2


class NotComparable(Exception):
    """FSF cannot reproduce our rules for this position (Dragon rides)."""


# ---------------------------------------------------------------------------
# A tiny board tracker, enough for the rule adjustments (piece placement
# only; castling rights / ep square are taken from FSF when needed).
# ---------------------------------------------------------------------------
MOVE_RE = re.compile(r"^([a-z])(\d+)([a-z])(\d+)([a-z]?)$")


def sq_name(f, r):
    return "%s%d" % (chr(ord("a") + f), r + 1)


def parse_sq(s):
    return ord(s[0]) - ord("a"), int(s[1:]) - 1


class Board:
    __slots__ = ("nf", "nr", "cells", "stm", "castlers")

    def __init__(self, fen, nf, nr, castlers="Kk"):
        self.nf, self.nr = nf, nr
        self.castlers = castlers
        parts = fen.split()
        rows = parts[0].split("/")
        if len(rows) != nr:
            raise ValueError("bad rank count in FEN %r" % fen)
        cells = [None] * (nf * nr)
        for i, row in enumerate(rows):
            r = nr - 1 - i
            f = 0
            for tok in re.findall(r"\d+|.", row):
                if tok.isdigit():
                    f += int(tok)
                else:
                    if tok in "~+[]":
                        continue
                    cells[r * nf + f] = tok
                    f += 1
            if f != nf:
                raise ValueError("bad file count in FEN %r" % fen)
        self.cells = cells
        self.stm = parts[1] if len(parts) > 1 else "w"

    def at(self, f, r):
        return self.cells[r * self.nf + f]

    def on_board(self, f, r):
        return 0 <= f < self.nf and 0 <= r < self.nr

    def find(self, piece):
        nf = self.nf
        return [(i % nf, i // nf) for i, p in enumerate(self.cells) if p == piece]

    def count(self, piece):
        return self.cells.count(piece)

    def apply(self, move):
        m = MOVE_RE.match(move)
        if not m:
            raise ValueError("cannot parse move %r" % move)
        ff, fr = ord(m.group(1)) - 97, int(m.group(2)) - 1
        tf, tr = ord(m.group(3)) - 97, int(m.group(4)) - 1
        promo = m.group(5)
        b = Board.__new__(Board)
        b.nf, b.nr, b.castlers = self.nf, self.nr, self.castlers
        cells = list(self.cells)
        nf = self.nf
        pc = cells[fr * nf + ff]
        if pc is None:
            raise ValueError("no piece on %s for move %s" % (sq_name(ff, fr), move))
        white = pc.isupper()
        if pc in self.castlers and fr == tr and abs(tf - ff) == 2:
            # castling written as the king's two-cell move
            if tf > ff:
                rf, rt = nf - 1, tf - 1
            else:
                rf, rt = 0, tf + 1
            rook = cells[fr * nf + rf]
            cells[fr * nf + rf] = None
            cells[fr * nf + rt] = rook
        elif pc in "Pp" and ff != tf and cells[tr * nf + tf] is None:
            cells[fr * nf + tf] = None  # en passant
        cells[fr * nf + ff] = None
        if promo:
            pc = promo.upper() if white else promo.lower()
        cells[tr * nf + tf] = pc
        b.cells = cells
        b.stm = "b" if self.stm == "w" else "w"
        return b

    def placement(self):
        rows = []
        for r in range(self.nr - 1, -1, -1):
            row, empty = "", 0
            for f in range(self.nf):
                p = self.at(f, r)
                if p is None:
                    empty += 1
                else:
                    if empty:
                        row += str(empty)
                        empty = 0
                    row += p
            if empty:
                row += str(empty)
            rows.append(row)
        return "/".join(rows)


def build_fen(spec, nf, nr, side="w", castling="-", ep="-", half=0, full=1):
    """spec: whitespace separated tokens like 'Qe1 kf10 pd8' -> FEN."""
    cells = {}
    for tok in spec.split():
        piece, sq = tok[0], tok[1:]
        f, r = parse_sq(sq)
        if not (0 <= f < nf and 0 <= r < nr):
            raise ValueError("square off board: %s" % tok)
        if (f, r) in cells:
            raise ValueError("square used twice: %s" % tok)
        cells[(f, r)] = piece
    rows = []
    for r in range(nr - 1, -1, -1):
        row, empty = "", 0
        for f in range(nf):
            p = cells.get((f, r))
            if p is None:
                empty += 1
            else:
                if empty:
                    row += str(empty)
                    empty = 0
                row += p
        if empty:
            row += str(empty)
        rows.append(row)
    return "%s %s %s %s %d %d" % ("/".join(rows), side, castling, ep, half, full)


# ---------------------------------------------------------------------------
# FSF perft with rule adjustments
# ---------------------------------------------------------------------------
QUEEN_DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
DRAGON_DIRS = [(2 * dx, 2 * dy) for dx, dy in QUEEN_DIRS]


class Fsf:
    def __init__(self, key):
        import pyffish
        self.sf = pyffish
        load_ini(pyffish)
        self.key = key
        cfg = VARIANTS[key]
        self.v = cfg["fsf"]
        self.nf, self.nr = cfg["files"], cfg["ranks"]
        self.rules = cfg["rules"]
        self.castlers = {"chess": "Kk", "magnacarta": "k"}.get(self.v, "")
        self.calls = 0
        self.passthrough_removed = 0

    def start_fen(self):
        return self.sf.start_fen(self.v)

    def board(self, fen):
        return Board(fen, self.nf, self.nr, self.castlers)

    def fen_after(self, fen, moves):
        self.calls += 1
        return self.sf.get_fen(self.v, fen, list(moves))

    def in_check(self, fen):
        return self.sf.gives_check(self.v, fen, [])

    # -- move generation with adjustments --------------------------------
    def moves(self, root, path, board, dragon_checks=True):
        self.calls += 1
        raw = self.sf.legal_moves(self.v, root, path)
        if self.rules == "none" or board is None:
            return raw
        if self.rules == "magnacarta":
            return self._magnacarta(root, path, board, raw)
        if self.rules in ("caissa", "caissa-dragon"):
            if self.rules == "caissa-dragon" and dragon_checks:
                self._dragon_checks(board, raw, path)
            return self._passthrough(board, raw)
        raise ValueError(self.rules)

    def _magnacarta(self, root, path, board, raw):
        if board.stm != "b" or board.count("k") < 2 or board.at(4, 7) != "k":
            return raw
        castles = [m for m in raw if m in ("e8g8", "e8c8")]
        if not castles:
            return raw
        # Black holds a spare King: FSF castles the (non-royal) e8 King
        # without the attack test.  Ask FSF again with the other Kings
        # replaced by Knights (same occupancy, e8 King royal).
        fen = self.fen_after(root, path)
        mod = Board(fen, self.nf, self.nr, self.castlers)
        for i, p in enumerate(mod.cells):
            if p == "k" and i != 7 * self.nf + 4:
                mod.cells[i] = "n"
        parts = fen.split()
        mod_fen = " ".join([mod.placement()] + parts[1:])
        self.calls += 1
        good = [m for m in self.sf.legal_moves(self.v, mod_fen, []) if m in ("e8g8", "e8c8")]
        return [m for m in raw if m not in castles] + good

    def _passthrough(self, board, raw):
        qs = board.find("Q" if board.stm == "w" else "q")
        if len(qs) != 1:
            return raw
        qf, qr = qs[0]
        origin = sq_name(qf, qr)
        rawset = set(raw)
        out = []
        for m in raw:
            mm = MOVE_RE.match(m)
            if not mm or mm.group(1) + mm.group(2) != origin:
                out.append(m)
                continue
            tf, tr = ord(mm.group(3)) - 97, int(mm.group(4)) - 1
            dx, dy = tf - qf, tr - qr
            n = max(abs(dx), abs(dy))
            ok = True
            if n >= 2 and (dx == 0 or dy == 0 or abs(dx) == abs(dy)):
                sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
                for k in range(1, n):
                    if origin + sq_name(qf + k * sx, qr + k * sy) not in rawset:
                        ok = False
                        break
            if ok:
                out.append(m)
            else:
                self.passthrough_removed += 1
        return out

    def _dragon_checks(self, board, raw, path):
        us_d = "D" if board.stm == "w" else "d"
        for (f, r) in board.find(us_d):
            for dx, dy in DRAGON_DIRS:
                f1, r1, f2, r2 = f + dx, r + dy, f + 2 * dx, r + 2 * dy
                if board.on_board(f1, r1) and board.at(f1, r1) is None and board.on_board(f2, r2):
                    raise NotComparable("Dragon on %s could ride %s-%s-%s (after %s)" % (
                        sq_name(f, r), sq_name(f, r), sq_name(f1, r1), sq_name(f2, r2),
                        " ".join(path) or "root"))
        them_d = "d" if board.stm == "w" else "D"
        our_q = "Q" if board.stm == "w" else "q"
        if board.count(them_d) == 0 and not any(m[-1] == "d" for m in raw):
            return
        for m in raw:
            child = board.apply(m)
            qs = child.find(our_q)
            if not qs:
                continue
            q = qs[0]
            for (f, r) in child.find(them_d):
                for dx, dy in DRAGON_DIRS:
                    k = 1
                    while True:
                        s = (f + k * dx, r + k * dy)
                        if not child.on_board(*s):
                            break
                        if k >= 2 and s == q:
                            raise NotComparable(
                                "after %s the Queen on %s is hit by a Dragon ride from %s" % (
                                    " ".join(path + [m]), sq_name(*q), sq_name(f, r)))
                        if child.at(*s) is not None:
                            break
                        k += 1

    # -- perft -------------------------------------------------------------
    def perft_all(self, fen, depth):
        """Return [perft(1), ..., perft(depth)] (free by-product of the walk)."""
        acc = [0] * (depth + 1)
        board = self.board(fen) if self.rules != "none" else None

        def rec(path, board, d):
            ms = self.moves(fen, path, board)
            acc[depth - d + 1] += len(ms)
            if d > 1:
                for m in ms:
                    rec(path + [m], board.apply(m) if board else None, d - 1)

        rec([], board, depth)
        return acc[1:]

    def divide(self, fen, depth):
        board = self.board(fen) if self.rules != "none" else None
        out = {}
        for m in self.moves(fen, [], board):
            if depth == 1:
                out[m] = 1
                continue
            total = [0]

            def rec(path, b, d):
                ms = self.moves(fen, path, b)
                if d == 1:
                    total[0] += len(ms)
                    return
                for mm in ms:
                    rec(path + [mm], b.apply(mm) if b else None, d - 1)

            rec([m], board.apply(m) if board else None, depth - 1)
            out[m] = total[0]
        return out


_INI_LOADED = [False]


def load_ini(sf):
    if not _INI_LOADED[0]:
        with open(INI) as fh:
            sf.load_variant_config(fh.read())
        _INI_LOADED[0] = True


# ---------------------------------------------------------------------------
# Hand-written positions (spec tokens: piece letter + square; see build_fen)
# ---------------------------------------------------------------------------
def tricky_positions(key):
    """Return a list of (label, fen)."""
    if key == "chess":
        return [
            ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
            ("cpw-pos3-ep-pins", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
            ("cpw-pos4-promo", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"),
            ("cpw-pos5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"),
            ("ep-pinned-on-rank", "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1"),
            ("castle-rooks-only", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
            ("castle-through-check", "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1"),
            ("promo-both-sides", "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"),
        ]
    if key == "magna-carta":
        B = lambda spec, **kw: build_fen(spec, 8, 8, **kw)
        return [
            # Black castling: c5 Bishop covers f8 (no O-O), Marshal d1 covers d8
            # (no O-O-O); Black's lone King and lone Queen are both royal.
            ("castle-through-attacked", B("ra8 ke8 rh8 pa7 pb7 pc7 pf7 pg7 ph7 qh6 "
                                          "Bc5 Md1 Ce1 Ra1 Rh1 Pa2 Pb2 Pc2 Pf2 Pg2 Ph2",
                                          side="b", castling="kq")),
            # Castling into check (g8 on the open g-file of the g1 Rook) is
            # illegal, queenside castling is legal.
            ("castle-into-check", B("ra8 ke8 rh8 pa7 pb7 pf7 ph7 qa6 "
                                    "Rg1 Mh3 Ce3 Pa2 Pb2 Ph2", side="b", castling="kq")),
            # Black King in check from the e2 Marshal: no castling at all.
            ("castle-out-of-check", B("ra8 ke8 rh8 pa7 ph7 qh6 Rg2 Me2 Cc3 Pa2 Ph3",
                                      side="b", castling="kq")),
            # Two Marshals: neither is royal, the a1 Marshal may be left attacked.
            ("two-marshals-none-royal", B("ke8 qd4 Ma1 Ce1 Mh1 Pb3 Pg2", side="w")),
            # Black may capture one of two Marshals; the survivor (h1, on the
            # h-file of Black's rook) becomes royal and stands in check.
            ("capture-one-marshal", B("ke8 rh8 qd4 Ma1 Ce1 Mh1 Pb3 Pg2", side="b")),
            # Royal fork: lone Marshal a1 (diagonal) and lone Cardinal d1 (file)
            # both attacked by a non-royal Queen (Black holds two); Rxd4 only.
            ("royal-fork-one-answer", B("ke8 qh8 qd4 Rh4 Pg2 Ma1 Cd1", side="w")),
            # Royal fork with no answer: checkmate, perft(1) = 0.
            ("royal-fork-mate", B("ke8 qh8 qd4 Pg2 Ph3 Ma1 Cd1", side="w")),
            # Black promotes (Q, K, R, B, N), incl. to a spare King, and by capture.
            ("black-promotions", B("ke8 qh2 pb2 pg2 Ra1 Md1 Ce1 Pa4", side="b")),
            # White promotes (M, C, R, B, N), to a second Marshal/Cardinal too.
            ("white-promotions", B("ra8 rc8 ke8 qh3 Pb7 Pg7 Md5 Ce5", side="w")),
            # En passant that would expose the lone Cardinal on a5 along rank 5.
            ("ep-pinned-cardinal", B("ke8 qh8 pd5 rh5 Pe5 Ca5 Md1 Pb2", side="w", ep="d6")),
            ("ep-legal", B("ke8 qh8 pd5 Pe5 Ca3 Md1 Pb2", side="w", ep="d6")),
            # Black holds a spare King (so no King is royal): castling still
            # needs e8/f8/g8 (d8, c8) unattacked; f8 covered by the c5 Bishop,
            # so only O-O-O.  (FSF alone would allow O-O here.)
            ("spare-king-castling", B("ra8 ke8 rh8 pa7 ph7 qa5 kb2 Bc5 Mg1 Ch1 Pg2",
                                      side="b", castling="kq")),
            # Black King captured down to one: after ...Kxb3?? etc.; two kings, one
            # attacked by a Marshal (allowed, not royal), queen royal.
            ("two-kings-one-attacked", B("ke8 kb4 qh5 Mb1 Cc1 Pa2 Ph2", side="b")),
            # The e4 Rook is pinned by the e8 Rook against the lone (royal)
            # Cardinal e1: it may only move along the e-file.
            ("pinned-rook", B("kh8 qa7 re8 Re4 Ce1 Mc4 Pf2 Pg2", side="w")),
        ]
    if key in ("caissa-britannia", "caissa-nodragon"):
        B = lambda spec, **kw: build_fen(spec, 10, 10, **kw)
        out = [
            # Lions: quiet Queen slides; capture only by hopping exactly one
            # screen of either colour (d6 own pawn, f4 / f6 enemy), landing on
            # the first piece beyond it.
            ("lion-hops", B("qe10 pe8 pd8 pg8 ph8 nf6 pf4 rh4 "
                            "Qe1 Pe3 Ld4 Pd6 Bd1 Lg2 Ng5 Pb3", side="w")),
            ("lion-hops-black", B("qf10 pf8 ld7 pe6 ld2 pd5 Pg4 Pg7 Rb7 Nc9 Qe1 Pa3", side="b")),
            # Lion check through a screen (the e3 Knight): evasions include
            # moving the screen away or adding a second screen.
            ("lion-check", B("qe10 le7 pa8 Qe1 Ne3 Pb3 Ph3 Rj2", side="w")),
            # Unicorn: bishop + nightrider lines with blocked/free landings.
            ("unicorn-lines", B("qe10 pc8 nh8 Ue5 Uc2 Pg6 Qf1 Pd3", side="w")),
            # Prince Consort: slides without capturing, captures one step.
            ("prince-consort", B("qe10 ra9 pf6 bd4 Ke5 Kb2 Qh1 Pe4", side="w")),
            # Anglican Bishop: diagonal slider plus one orthogonal step to an
            # empty cell (not capturing).
            ("anglican-bishop", B("qe10 pd6 pe4 Bd5 Bb1 Qj1 Pc5", side="w")),
            # Facing Queens: the c5 Bishop is pinned between the Queens (its
            # orthogonal steps along the file stay legal); a Queen may not
            # step onto an open line to the other Queen.
            ("facing-queens-pin", B("qc10 pf9 Bc5 Qc1 Pe3", side="w")),
            # Queen pass-through: cells crossed by a Queen slide must not be
            # attacked (d-file Rook, g9 Bishop lines).
            ("passthrough", B("qh10 rd9 bg9 Qa1 Pb3 Pa2", side="w")),
            ("passthrough-black", B("qa10 Rj8 Qh1 Bd5 pb8", side="b")),
            # Liberation promotion: White lacks a Rook, a Lion and the Prince
            # Consort: c9 may promote to N, R, L, K (not U, B: two on board).
            ("liberation-white", B("qe10 pe8 rb10 pd8 Pc9 Ph9 Qe1 Pe3 Ra1 Lb2 "
                                   "Ub1 Ui1 Bd1 Bg1", side="w")),
            ("liberation-black", B("qe10 kf10 ld9 pe8 pc2 pg2 Qe1 Pe3 Rf1 Rh1 Pa3", side="b")),
            # En passant, and en passant that would expose the Queen.
            ("ep-legal", B("qe10 pd5 Pe5 Qa1 Ra3", side="w", ep="d6")),
            ("ep-pinned", B("qe10 rj5 pd5 Pe5 Qa5 Pb3", side="w", ep="d6")),
            ("ep-double-step", B("qe10 pd8 pf8 Pe6 Qe1 Rb4", side="b")),
        ]
        if key == "caissa-britannia":
            out += [
                # Dragons boxed in: no Dragon has a second leap available.
                ("dragons-boxed", B("qe10 pe8 da10 pa8 pc8 pb9 rc10 Qe1 Pe3 Dj1 Pj3 Ph3 "
                                    "Ri2 Ri1 Ph1 Pc4", side="w")),
                # Promotion to a (liberated) Dragon.
                ("dragon-promotion", B("qe10 pe8 bd10 rh10 dj10 pj8 ph8 pi9 Pb9 Qe1 Pe3 "
                                       "Da1 Pa3 Pc3 Pb2 Rb1 Nc1 Ph2", side="w")),
            ]
        return out
    return []


# ---------------------------------------------------------------------------
# positions files
# ---------------------------------------------------------------------------
def pos_file(key):
    return os.path.join(POS_DIR, "%s.txt" % key)


def read_positions(key):
    """Return list of dicts: fen, depth, count, label, order (group index)."""
    path = pos_file(key)
    if not os.path.exists(path):
        return []
    out = []
    with open(path) as fh:
        for line in fh:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fen, depth, count, label = line.split(";", 3)
            out.append(dict(fen=fen.strip(), depth=int(depth), count=int(count),
                            label=label.strip()))
    return out


def regen(key, log):
    cfg = VARIANTS[key]
    fsf = Fsf(key)
    sf = fsf.sf
    lines, skipped = [], []
    t0 = time.time()

    def run(label, fen, max_depth, limit, min_depth=1):
        """Store perft(1..d): d = 2, or max_depth when perft(2) <= limit.
        A depth FSF cannot judge (Dragon) falls back to the depth below."""
        before = fsf.passthrough_removed
        counts, why = [], None
        for d in range(1, max_depth + 1):
            if d > 2 and counts[-1] > limit:
                break
            try:
                counts = fsf.perft_all(fen, d)
            except NotComparable as e:
                why = str(e)
                break
        if len(counts) < min_depth:
            raise NotComparable(why)
        if fsf.passthrough_removed > before:
            label += "+passthrough"
        for d, c in enumerate(counts, 1):
            lines.append("%s;%d;%d;%s" % (fen, d, c, label))
        log("  %-34s %s%s" % (label, " ".join(str(c) for c in counts),
                              "  (deeper not comparable: %s)" % why if why else ""))

    # start position
    start = fsf.start_fen()
    t = time.time()
    try:
        counts = fsf.perft_all(start, cfg["start_depth"])
        for d, c in enumerate(counts, 1):
            lines.append("%s;%d;%d;%s" % (start, d, c, "start"))
        log("  %-34s %s  (%.1fs)" % ("start", " ".join(str(c) for c in counts), time.time() - t))
    except NotComparable as e:
        skipped.append((start, "start", str(e)))

    # hand-written positions
    for label, fen in tricky_positions(key):
        # (FSF's validator insists on a single castling King, so it rejects
        # the spare-King position although FSF plays it fine.)
        if sf.validate_fen(fen, fsf.v) != 1 and "spare-king" not in label:
            raise SystemExit("invalid FEN for %s/%s: %s" % (key, label, fen))
        parts = fen.split()
        flipped = " ".join([parts[0], "b" if parts[1] == "w" else "w", parts[2], "-"] + parts[4:])
        if fsf.in_check(flipped):
            raise SystemExit("illegal position (side not to move in check) %s/%s: %s" % (key, label, fen))
        try:
            run("tricky-" + label, fen, 3, TRICKY_DEEP_LIMIT)
        except NotComparable as e:
            skipped.append((fen, "tricky-" + label, str(e)))
            log("  %-34s SKIPPED: %s" % ("tricky-" + label, e))

    # random playouts
    rng = random.Random("quadrille-crosscheck-%s" % key)
    got, attempts = 0, 0
    while got < RANDOM_POSITIONS and attempts < RANDOM_POSITIONS * 40:
        attempts += 1
        plies = rng.randint(*RANDOM_PLY_RANGE)
        path, board, ok = [], fsf.board(start), True
        for _ in range(plies):
            ms = sorted(fsf.moves(start, path, board, dragon_checks=False))
            if not ms:
                ok = False
                break
            m = rng.choice(ms)
            path.append(m)
            board = board.apply(m)
        if not ok:
            continue
        fen = fsf.fen_after(start, path)
        if fsf.board(fen).cells != board.cells:
            raise SystemExit("internal error: board tracker disagrees with FSF after %s" % path)
        label = "random-%02d-ply%d" % (got + 1, plies)
        try:
            run(label, fen, 3, DEEP_LIMIT, min_depth=2)
            got += 1
        except NotComparable as e:
            skipped.append((fen, label, str(e)))
    if got < RANDOM_POSITIONS:
        log("  only %d random positions found in %d attempts" % (got, attempts))

    with open(pos_file(key), "w") as fh:
        fh.write("# Fairy-Stockfish perft counts for Quadrille variant '%s'\n" % key)
        fh.write("# (FSF variant '%s' from tools/fsf/variants.ini, %s,\n" % (cfg["fsf"], sf.info().strip()))
        fh.write("#  pyffish %s; rule adjustments '%s', see tools/fsf/crosscheck.py).\n"
                 % (".".join(map(str, sf.version())), cfg["rules"]))
        fh.write("# Generated by: python3 tools/fsf/crosscheck.py --regen --variant %s\n" % key)
        fh.write("# Format: FEN;depth;perft count;label   (one line per depth)\n")
        for fen, label, why in skipped:
            fh.write("# skipped (not comparable) %s: %s -- %s\n" % (label, fen, why))
        for line in lines:
            fh.write(line + "\n")
    log("  wrote %s: %d lines, %d skipped, %.1fs, %d pyffish calls" % (
        os.path.relpath(pos_file(key), REPO), len(lines), len(skipped), time.time() - t0, fsf.calls))


# ---------------------------------------------------------------------------
# our engine
# ---------------------------------------------------------------------------
LINE_RE = re.compile(r"^([a-z]\d+[a-z]\d+[a-z]?)\s*:?\s+(\d+)\s*$")
NODES_RE = re.compile(r"^nodes (\d+)")


class OursError(Exception):
    pass


def run_ours(args, key, fen, depth):
    cfg = VARIANTS[key]
    vargs = [a.replace("{variant_file}", args.variant_file or cfg.get("variant_file", ""))
             for a in cfg["ours"]]
    cmd = [args.bin, "perft"] + vargs + [str(depth), "--position", fen, "--divide"]
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        raise OursError("timeout after %ss: %s" % (args.timeout, " ".join(cmd)))
    except OSError as e:
        raise OursError("cannot run %s: %s" % (args.bin, e))
    if p.returncode != 0:
        raise OursError("exit %d: %s\n%s" % (p.returncode, " ".join(cmd), p.stderr.strip()[-2000:]))
    div, total = {}, None
    for line in p.stdout.splitlines():
        line = line.strip()
        m = NODES_RE.match(line)
        if m:
            total = int(m.group(1))
            continue
        m = LINE_RE.match(line)
        if m:
            if m.group(1) in div:
                raise OursError("move %s listed twice for %s" % (m.group(1), fen))
            div[m.group(1)] = int(m.group(2))
    if total is None:
        raise OursError("no 'nodes N' line in output of: %s\n%s" % (" ".join(cmd), p.stdout[-2000:]))
    return total, div


def fsf_to_ours(move):
    # pyffish (chess960 off) writes castling as the king's two-cell move and
    # promotions with a lowercase suffix, ranks >= 10 as two digits -- the
    # same as our notation, so this is the identity.
    return move


def diagnose(args, key, fen, depth, ours_div, log, path=()):
    try:
        fsf = Fsf(key)
    except ImportError:
        log("    (pyffish not importable: no divide diagnosis)")
        return
    level = 0
    while True:
        try:
            fdiv = {fsf_to_ours(m): c for m, c in fsf.divide(fen, depth).items()}
        except NotComparable as e:
            log("    FSF cannot judge this position: %s" % e)
            return
        only_ours = sorted(set(ours_div) - set(fdiv))
        only_fsf = sorted(set(fdiv) - set(ours_div))
        differ = sorted(m for m in set(ours_div) & set(fdiv) if ours_div[m] != fdiv[m])
        log("    at %s (depth %d, path: %s)" % (fen, depth, " ".join(path) or "-"))
        log("      ours %d, FSF %d" % (sum(ours_div.values()), sum(fdiv.values())))
        if only_ours:
            log("      only in ours: %s" % " ".join(only_ours))
        if only_fsf:
            log("      only in FSF:  %s" % " ".join(only_fsf))
        for m in differ:
            log("      %-8s ours %d  FSF %d" % (m, ours_div[m], fdiv[m]))
        if not differ or depth <= 1 or level >= args.diag_levels:
            return
        m = differ[0]
        child = fsf.fen_after(fen, [m])
        path = tuple(path) + (m,)
        depth -= 1
        level += 1
        try:
            _, ours_div = run_ours(args, key, child, depth)
        except OursError as e:
            log("      ours failed on child: %s" % e)
            return
        fen = child


# ---------------------------------------------------------------------------
def select(entries, key, quick, max_depth):
    """Keep, per (fen,label) group, the deepest allowed line."""
    cfg = VARIANTS[key]
    best = {}
    order = []
    for e in entries:
        g = (e["fen"], e["label"])
        if g not in best:
            order.append(g)
        lim = max_depth or 99
        if quick:
            lim = min(lim, cfg["quick_depth"] if e["label"] == "start" else QUICK_OTHER_DEPTH)
        if e["depth"] <= lim and (g not in best or best[g]["depth"] < e["depth"]):
            best[g] = e
    return [best[g] for g in order if g in best]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=os.path.join(REPO, "target", "release", "quadrille"),
                    help="our binary (default target/release/quadrille)")
    ap.add_argument("--variant", action="append",
                    help="restrict to this variant (ours or FSF name); repeatable")
    ap.add_argument("--variant-file", default=None,
                    help="TOML file passed for caissa-nodragon (default %s)"
                    % VARIANTS["caissa-nodragon"]["variant_file"])
    ap.add_argument("--quick", action="store_true", help="CI subset (small depths)")
    ap.add_argument("--max-depth", type=int, default=0, help="cap every depth")
    ap.add_argument("--live", action="store_true",
                    help="recompute FSF counts with pyffish instead of trusting the files")
    ap.add_argument("--fsf-only", action="store_true",
                    help="only recompute FSF counts and compare with the files (no binary)")
    ap.add_argument("--regen", action="store_true", help="regenerate positions files (pyffish)")
    ap.add_argument("--diag-levels", type=int, default=8,
                    help="how deep the mismatch diagnosis may descend")
    ap.add_argument("--timeout", type=float, default=600, help="per invocation of our binary")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()

    keys = list(VARIANTS)
    if args.variant:
        keys = []
        for name in args.variant:
            k = ALIASES.get(name, name)
            if k not in VARIANTS:
                ap.error("unknown variant %r (known: %s)" % (name, ", ".join(VARIANTS)))
            keys.append(k)

    def log(msg):
        print(msg, flush=True)

    if args.regen:
        for k in keys:
            log("regen %s" % k)
            regen(k, log)
        return 0

    if args.bin and not args.fsf_only and not os.path.exists(args.bin):
        log("crosscheck: binary %s not found (build with cargo build --release, or pass --bin)" % args.bin)
        return 2

    passed = failed = skipped = 0
    t_start = time.time()
    fsf_time = 0.0
    for k in keys:
        entries = select(read_positions(k), k, args.quick, args.max_depth)
        if not entries:
            log("%s: no positions file (run --regen)" % k)
            skipped += 1
            continue
        fsf = None
        if args.live or args.fsf_only:
            try:
                fsf = Fsf(k)
            except ImportError:
                log("crosscheck: --live/--fsf-only need pyffish (pip install pyffish)")
                return 2
        log("== %s (FSF %s): %d positions" % (k, VARIANTS[k]["fsf"], len(entries)))
        for e in entries:
            fen, depth, expected, label = e["fen"], e["depth"], e["count"], e["label"]
            if fsf is not None:
                t = time.time()
                try:
                    live = fsf.perft_all(fen, depth)[-1]
                except NotComparable as ex:
                    log("SKIP %s %s d%d: %s" % (k, label, depth, ex))
                    skipped += 1
                    continue
                fsf_time += time.time() - t
                if live != expected:
                    log("NOTE %s %s d%d: stored %d but pyffish now gives %d" % (
                        k, label, depth, expected, live))
                    if args.fsf_only:
                        failed += 1
                        continue
                expected = live
                if args.fsf_only:
                    passed += 1
                    if args.verbose:
                        log("ok   %s %s d%d %d" % (k, label, depth, expected))
                    continue
            try:
                total, div = run_ours(args, k, fen, depth)
            except OursError as ex:
                failed += 1
                log("FAIL %s %s d%d: %s" % (k, label, depth, ex))
                continue
            if total == expected and sum(div.values()) in (total, 0):
                passed += 1
                if args.verbose:
                    log("ok   %s %s d%d %d" % (k, label, depth, total))
            else:
                failed += 1
                log("FAIL %s %s d%d: ours %d, FSF %d  %s" % (k, label, depth, total, expected, fen))
                if sum(div.values()) != total:
                    log("    (our divide sums to %d, not %d)" % (sum(div.values()), total))
                diagnose(args, k, fen, depth, div, log)
    log("time %.1fs (FSF side %.1fs)" % (time.time() - t_start, fsf_time))
    tail = ", %d skipped" % skipped if skipped else ""
    log("crosscheck: %d passed, %d failed%s" % (passed, failed, tail))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
