#!/usr/bin/env python3
"""Cross-check Quadrille's move generator against Fairy-Stockfish (pyffish).

Usage, from the repository root:

    python3 tools/fsf/crosscheck.py [--quick] [--live] [--variant NAME]...
    python3 tools/fsf/crosscheck.py --regen [--variant NAME]...

Data: tools/fsf/positions/<variant>.txt, one line per position and depth,

    FEN;depth;count;label

where `count` is Fairy-Stockfish's perft (with the adjustments below).  The
files are written by --regen and then only read, so a normal run needs no
pyffish.  A run invokes our binary (default target/release/quadrille) as

    quadrille [--variant-file F] perft VARIANT DEPTH --position FEN --divide

for the deepest stored depth of each position (--quick: depth <= 3 for the
start position, Caissa 2, and <= 2 for the others) and compares the `nodes N`
total.
--live recomputes every selected count with pyffish and fails if a stored
count is stale (CI uses --quick --live).  When a total differs and pyffish
is available, the script prints the divide diff against FSF (moves only in
ours / only in FSF / counts that differ) and descends into the first move
whose counts differ, until the difference is a missing or extra move or
depth 1.  The last line is `crosscheck: N passed, N failed`; the exit status
is non-zero if anything failed.

Variants (VARIANTS below; FSF definitions in tools/fsf/variants.ini):
  chess             FSF's built-in chess (sanity baseline).
  magna-carta       [magnacarta].
  caissa-nodragon   [caissanodragon]; ours is Caissa Britannia without
                    Dragons, tools/fsf/caissa-nodragon.toml, loaded with
                    --variant-file (derived from variants/caissa-britannia.toml:
                    no Dragon piece, none in the setup, hence none to
                    liberate by promotion).
  caissa-britannia  [caissa], the embedded variant WITH Dragons, start
                    position to depth 2 only.  FSF cannot define the Dragon
                    (AADD: FSF riders exist only for rook, bishop and
                    nightrider lines, "AADD" gives a piece without moves), so
                    variants.ini has the single-leap "AD".  That is exact for
                    two plies from the start: White's Dragons cannot move
                    (their first landings a3, c3, c1, j3, h3, h1 hold White
                    pieces); a black Dragon can at most take a White Lion
                    that has just captured on c8 or h8 (one leap either way);
                    and no White Dragon line reaches e10, d9, e9 or f9, the
                    only cells Black's Queen can stand on or step to.
                    Dragons are otherwise covered by the Rust tests.

Rules FSF cannot express, and how they are handled (exactly):
* Caissa, the Queen's pass-through rule (a royal Queen may not cross a cell
  it could not legally stop on).  Emulated on FSF's move list: a Queen move
  o->t crossing cells c is kept only if every o->c is in FSF's legal list.
  FSF judges a royal move o->c by "c not attacked, with the Queen on c and
  o empty" - exactly the rule's test.  (Crossed cells are empty, so o->c is
  a plain move.)  The regen log counts the moves this removed.
* Magna Carta, castling while Black holds a spare King.  FSF tests the
  King's path for attacks only when the castling King is (pseudo-)royal;
  the rules demand the FIDE test always.  When Black has two or more Kings
  and FSF offers e8g8/e8c8, those moves are replaced by FSF's castling moves
  in the same position with the other black Kings turned into Knights (same
  occupancy, the e8 King alone and so royal; Black's own pieces attack
  nothing of Black's, and castling cannot expose the Queen).

Positions (--regen): the start position at depths 1..start_depth, the
hand-written positions in tricky() (all checked with FSF to be valid and
legal: the side not to move is not in check) to depth 3 where perft(2) is
small and depth 2 otherwise, and RANDOM_POSITIONS positions per variant
reached by seeded random playouts (random.Random("quadrille-<variant>"),
10-80 plies, moves chosen uniformly from the sorted FSF list) with the same
depth rule.  pyffish is slow (a few ms per call, i.e. per interior node),
so --regen takes minutes; it uses --jobs processes.
"""

import argparse
import multiprocessing
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

# name -> fsf: variant in variants.ini (or an FSF built-in); ours: our
# variant name, file: our variant file (--variant-file) if not embedded;
# start_depth: deepest start-position line stored, quick_depth: the one
# --quick runs (pyffish is slowest on the 10x10 board); start_only: no
# other positions.
VARIANTS = {
    "chess": dict(fsf="chess", ours="chess", start_depth=4, quick_depth=3),
    "magna-carta": dict(fsf="magnacarta", ours="magna-carta", start_depth=5, quick_depth=3),
    "caissa-nodragon": dict(fsf="caissanodragon", ours="caissa-britannia",
                            file=os.path.join(HERE, "caissa-nodragon.toml"), start_depth=4,
                            quick_depth=2),
    "caissa-britannia": dict(fsf="caissa", ours="caissa-britannia", start_depth=2,
                             quick_depth=2, start_only=True),
}
QUICK_OTHER_DEPTH = 2        # --quick: depth of all other positions
RANDOM_POSITIONS = 30
RANDOM_PLIES = (10, 80)
DEPTH3_LIMIT = 3000          # store depth 3 when perft(2) <= this

MOVE_RE = re.compile(r"^([a-z])(\d+)([a-z])(\d+)([a-z]?)$")
CASTLES = ("e8g8", "e8c8")


# ---------------------------------------------------------------------------
# Boards: FEN placement <-> {(file, rank): letter}, files/ranks from 0
# ---------------------------------------------------------------------------
def sq(f, r):
    return "%s%d" % (chr(97 + f), r + 1)


def parse_placement(placement):
    rows = placement.split("/")
    cells = {}
    for i, row in enumerate(rows):
        r, f = len(rows) - 1 - i, 0
        for tok in re.findall(r"\d+|.", row):
            if tok.isdigit():
                f += int(tok)
            else:
                cells[(f, r)] = tok
                f += 1
    return cells, f, len(rows)


def make_placement(cells, nf, nr):
    rows = []
    for r in range(nr - 1, -1, -1):
        row, empty = "", 0
        for f in range(nf):
            p = cells.get((f, r))
            if p is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + p
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


def build_fen(spec, nf, nr, side="w", castling="-", ep="-"):
    """'Qe1 kf10 pd8 ...' (piece letter + cell) -> FEN."""
    cells = {}
    for tok in spec.split():
        f, r = ord(tok[1]) - 97, int(tok[2:]) - 1
        assert 0 <= f < nf and 0 <= r < nr and (f, r) not in cells, tok
        cells[(f, r)] = tok[0]
    return "%s %s %s %s 0 1" % (make_placement(cells, nf, nr), side, castling, ep)


# ---------------------------------------------------------------------------
# Fairy-Stockfish perft (pyffish has no perft: walk legal_moves)
# ---------------------------------------------------------------------------
_LOADED = []     # variants.ini loaded into pyffish (once per process)


class Fsf:
    def __init__(self, key):
        import pyffish
        self.sf = pyffish
        if not _LOADED:
            pyffish.load_variant_config(open(INI).read())
            _LOADED.append(INI)
        self.key, self.v = key, VARIANTS[key]["fsf"]
        self.caissa = self.v.startswith("caissa")
        self.removed = 0        # moves removed by the pass-through emulation

    def root_state(self, fen):
        """(white to move, white Queen cell, black Queen cell); the Queens
        matter only in Caissa, where they are royal and never captured."""
        cells, _, _ = parse_placement(fen.split()[0])
        q = {p: sq(*c) for c, p in cells.items() if p in "Qq"} if self.caissa else {}
        return (fen.split()[1] == "w", q.get("Q"), q.get("q"))

    @staticmethod
    def child_state(st, move):
        white, wq, bq = st
        m = MOVE_RE.match(move)
        frm, to = m.group(1) + m.group(2), m.group(3) + m.group(4)
        if white and frm == wq:
            wq = to
        elif not white and frm == bq:
            bq = to
        return (not white, wq, bq)

    def moves(self, root, path, st):
        ms = self.sf.legal_moves(self.v, root, path)
        if self.caissa:
            ms = self._passthrough(ms, st[1] if st[0] else st[2])
        elif self.v == "magnacarta" and not st[0] and any(m in CASTLES for m in ms):
            ms = self._spare_king_castling(root, path, ms)
        return ms

    def _passthrough(self, ms, q):
        legal = set(ms)
        out = []
        for m in ms:
            mm = MOVE_RE.match(m)
            if mm.group(1) + mm.group(2) != q:
                out.append(m)
                continue
            f0, r0 = ord(mm.group(1)) - 97, int(mm.group(2)) - 1
            f1, r1 = ord(mm.group(3)) - 97, int(mm.group(4)) - 1
            n = max(abs(f1 - f0), abs(r1 - r0))
            df, dr = (f1 > f0) - (f1 < f0), (r1 > r0) - (r1 < r0)
            if all(q + sq(f0 + k * df, r0 + k * dr) in legal for k in range(1, n)):
                out.append(m)
            else:
                self.removed += 1
        return out

    def _spare_king_castling(self, root, path, ms):
        fen = self.sf.get_fen(self.v, root, path).split()
        cells, nf, nr = parse_placement(fen[0])
        if cells.get((4, 7)) != "k" or list(cells.values()).count("k") < 2:
            return ms
        for c, p in cells.items():
            if p == "k" and c != (4, 7):
                cells[c] = "n"
        fen[0] = make_placement(cells, nf, nr)
        ok = [m for m in self.sf.legal_moves(self.v, " ".join(fen), []) if m in CASTLES]
        return [m for m in ms if m not in CASTLES] + ok

    def counts(self, root, path, st, depth):
        """[perft(1), ..., perft(depth)] below root + path."""
        ms = self.moves(root, path, st)
        out = [len(ms)] + [0] * (depth - 1)
        if depth > 1:
            for m in ms:
                for i, c in enumerate(self.counts(root, path + [m], self.child_state(st, m),
                                                  depth - 1)):
                    out[i + 1] += c
        return out

    def divide(self, fen, depth, pool=None):
        """{move: [perft(1..depth-1) below it]} (empty lists at depth 1)."""
        st = self.root_state(fen)
        ms = self.moves(fen, [], st)
        jobs = [(self.key, fen, [m], self.child_state(st, m), depth - 1) for m in ms]
        res = (pool.map(_subtree, jobs) if pool and depth > 2 else map(_subtree, jobs))
        out = {}
        for m, (c, removed) in zip(ms, res):
            out[m] = c
            self.removed += removed
        return out

    def perft(self, fen, depth, pool=None):
        """[perft(1), ..., perft(depth)] from fen."""
        div = self.divide(fen, depth, pool)
        return [len(div)] + [sum(c[i] for c in div.values()) for i in range(depth - 1)]


_FSF = {}


def _fsf(key):
    """This process's Fsf for key (for pool workers)."""
    if key not in _FSF:
        _FSF[key] = Fsf(key)
    return _FSF[key]


def _subtree(job):
    key, root, path, st, depth = job
    fsf = _fsf(key)
    before = fsf.removed
    c = fsf.counts(root, path, st, depth) if depth > 0 else []
    return c, fsf.removed - before


def _perft(job):
    key, fen, depth = job
    return _fsf(key).perft(fen, depth)[-1]


# ---------------------------------------------------------------------------
# Hand-written positions: (label, FEN).  Counts come from FSF; the comments
# say what each position is meant to exercise.
# ---------------------------------------------------------------------------
def tricky(key):
    if key == "chess":
        return [
            ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
            ("cpw-pos3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
            ("cpw-pos4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"),
            ("cpw-pos5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"),
            ("ep-pinned-on-rank", "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1"),
            ("castle-through-check", "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1"),
            ("promotions", "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"),
        ]
    if key == "magna-carta":
        def B(spec, **kw):
            return build_fen(spec, 8, 8, **kw)
        return [
            # Castling: f8 covered by the c5 Bishop (no O-O), d8 by the d1
            # Marshal (no O-O-O).
            ("castle-through-attacked", B("ra8 ke8 rh8 pa7 pb7 pc7 pf7 pg7 ph7 qh6 "
                                          "Bc5 Md1 Ce1 Ra1 Rh1 Pa2 Pb2 Pc2 Pf2 Pg2 Ph2",
                                          side="b", castling="kq")),
            # g8 on the open g-file of the g1 Rook: O-O-O only.
            ("castle-into-check", B("ra8 ke8 rh8 pa7 pb7 pf7 ph7 qa6 Rg1 Mh3 Ce3 Pa2 Pb2 Ph2",
                                    side="b", castling="kq")),
            # The e2 Marshal checks the King: no castling.
            ("castle-out-of-check", B("ra8 ke8 rh8 pa7 ph7 qh6 Rg2 Me2 Cc3 Pa2 Ph3",
                                      side="b", castling="kq")),
            # Black holds a spare King (no King is royal); castling still
            # needs an unattacked path: f8 is covered, so O-O-O only.
            ("spare-king-castling", B("ra8 ke8 rh8 pa7 ph7 qa5 kb2 Bc5 Mg1 Ch1 Pg2",
                                      side="b", castling="kq")),
            # Two Marshals: neither is royal, the a1 one may stay attacked.
            ("two-marshals", B("ke8 qd4 Ma1 Ce1 Mh1 Pb3 Pg2")),
            # Black may take one of two Marshals (h1); the survivor is royal.
            ("capture-one-marshal", B("ke8 rh8 qd4 Ma1 Ce1 Mh1 Pb3 Pg2", side="b")),
            # Royal fork of the lone Marshal and Cardinal by a non-royal
            # Queen (Black has two): Rxd4 is the only answer.
            ("royal-fork", B("ke8 qh8 qd4 Rh4 Pg2 Ma1 Cd1")),
            # Royal fork without an answer: checkmate.
            ("royal-fork-mate", B("ke8 qh8 qd4 Pg2 Ph3 Ma1 Cd1")),
            # The lone King is in check; promoting to a second King answers
            # it (no King is royal any more), promoting to anything else not.
            ("promote-king-out-of-check", B("qa8 ke8 pb2 Re2 Mh3 Ch4", side="b")),
            # The lone Marshal is attacked; only b8=M (a second Marshal) helps.
            ("promote-marshal-out-of-check", B("ke8 qh8 Pb7 Md1 Cf1 ra1")),
            # Black promotes to Q, K, R, B, N, also by capture.
            ("black-promotions", B("ke8 qh2 pb2 pg2 Ra1 Md1 Ce1 Pa4", side="b")),
            # White promotes to M, C, R, B, N, also by capture.
            ("white-promotions", B("ra8 rc8 ke8 qh3 Pb7 Pg7 Md5 Ce5")),
            # En passant that would expose the lone Cardinal a5 on rank 5.
            ("ep-pinned", B("ke8 qh8 pd5 rh5 Pe5 Ca5 Md1 Pb2", ep="d6")),
            ("ep-legal", B("ke8 qh8 pd5 Pe5 Ca3 Md1 Pb2", ep="d6")),
            # Two Kings, one attacked by the b1 Marshal (allowed).
            ("two-kings", B("ke8 kb4 qh5 Mb1 Cc1 Pa2 Ph2", side="b")),
            # The e4 Rook is pinned to the lone Cardinal e1 by the e8 Rook.
            ("pinned-rook", B("kh8 qa7 re8 Re4 Ce1 Mc4 Pf2 Pg2")),
        ]
    if key == "caissa-nodragon":
        def B(spec, **kw):
            return build_fen(spec, 10, 10, **kw)
        return [
            # Lions slide without capturing and capture only by hopping one
            # screen of either colour, landing on the first piece beyond.
            ("lion-hops", B("qe10 pe8 pd8 pg8 ph8 nf6 pf4 rh4 "
                            "Qe1 Pe3 Ld4 Pd6 Bd1 Lg2 Ng5 Pb3")),
            ("lion-hops-black", B("qf10 pf8 ld7 pe6 ld2 pd5 Pg4 Pg7 Rb7 Nc9 Qe1 Pa3", side="b")),
            # Check by a Lion hop over the e3 Knight: moving the screen away
            # or adding a second screen answers it.
            ("lion-check", B("qe10 le7 pa8 Qe1 Ne3 Pb3 Ph3 Rj2")),
            # Unicorn (bishop + nightrider) lines, blocked and free.
            ("unicorn-lines", B("qe10 pc8 nh8 Ue5 Uc2 Pg6 Qf1 Pd3")),
            # Check by a nightrider leap of the c6 Unicorn (e5 empty).
            ("unicorn-check", B("qg10 pg8 uc6 Qg4 Ra1 Pb3")),
            # Prince Consort: slides without capturing, captures one step.
            ("prince-consort", B("qe10 ra9 pf6 bd4 Ke5 Kb2 Qh1 Pe4")),
            # Anglican Bishop: diagonal slider plus one orthogonal step to
            # an empty cell.
            ("anglican-bishop", B("qe10 pd6 pe4 Bd5 Bb1 Qj1 Pc5")),
            # Facing Queens: the c5 Bishop between them is pinned to the
            # c-file (only its steps to c4 and c6 remain).
            ("facing-queens", B("qc10 pf9 Bc5 Qc1 Pe3")),
            # A Queen may not step onto an open line to the other (a1, a3,
            # c8, c10 are on lines from a10).
            ("queens-open-line", B("qa10 pb8 Qc1 Pe3")),
            # Queen pass-through: the d-file Rook and the g9 Bishop cover
            # cells the a1 Queen would cross.
            ("passthrough", B("qh10 rd9 bg9 Qa1 Pb3 Pa2")),
            ("passthrough-black", B("qa10 Rj8 Qh1 Bd5 pb8", side="b")),
            # Pass-through over cells covered by a Knight and a Lion hop.
            # Pass-through over cells covered by a Knight (b3) and by a Lion
            # hop over the f5 Pawn (c5).
            ("passthrough-leap-hop", B("qj10 nd4 lj5 pj7 Qa3 Pf5 Pb2 Ph2")),
            # The Queen may not capture the a5 Rook: it would cross b5, which
            # the Rook attacks.
            ("passthrough-capture", B("qj10 ra5 pj8 Qc5 Pb2")),
            # Liberation: White lacks a Rook, a Lion and the Prince Consort,
            # so c9 promotes to N, R, L or K (two Unicorns and two Bishops
            # are on the board).
            ("liberation-white", B("qe10 pe8 rb10 pd8 Pc9 Ph9 Qe1 Pe3 Ra1 Lb2 "
                                   "Ub1 Ui1 Bd1 Bg1")),
            ("liberation-black", B("qe10 kf10 ld9 pe8 pc2 pg2 Qe1 Pe3 Rf1 Rh1 Pa3", side="b")),
            # En passant: Black's d-pawn has just made its double step d8-d6.
            ("ep-white", B("qe10 pd6 Pe6 Qa1 Rb3", ep="d7")),
            # ... and would expose the White Queen on rank 6 to the j6 Rook.
            ("ep-pinned", B("qe10 rj6 pd6 Pe6 Qb6 Pb3", ep="d7")),
            # White's e-pawn has just made its double step e3-e5.
            ("ep-black", B("qf10 pd5 Pe5 Qa1 Rb3", side="b", ep="e4")),
            # Black double steps from rank 8 beside White pawns on rank 6.
            ("double-step-then-ep", B("qe10 pd8 pf8 Pe6 Qe1 Rb4", side="b")),
        ]
    return []


# ---------------------------------------------------------------------------
# positions files
# ---------------------------------------------------------------------------
def pos_file(key):
    return os.path.join(POS_DIR, key + ".txt")


def read_positions(key):
    out = []
    if os.path.exists(pos_file(key)):
        for line in open(pos_file(key)):
            line = line.strip()
            if line and not line.startswith("#"):
                fen, depth, count, label = line.split(";", 3)
                out.append(dict(fen=fen, depth=int(depth), count=int(count), label=label))
    return out


def regen(key, pool, log):
    cfg = VARIANTS[key]
    fsf = Fsf(key)
    sf = fsf.sf
    t0 = time.time()
    lines = []

    def store(label, fen, max_depth):
        t = time.time()
        removed = fsf.removed
        counts = fsf.perft(fen, 2 if max_depth >= 2 else 1, pool)
        if max_depth > 2 and counts[-1] <= DEPTH3_LIMIT:
            counts = fsf.perft(fen, max_depth, pool)
        for d, c in enumerate(counts, 1):
            lines.append("%s;%d;%d;%s" % (fen, d, c, label))
        extra = "  pass-through removed %d" % (fsf.removed - removed) if fsf.removed > removed else ""
        log("  %-30s %s  (%.1fs)%s" % (label, " ".join(map(str, counts)), time.time() - t, extra))

    start = sf.start_fen(cfg["fsf"])
    t = time.time()
    counts = fsf.perft(start, cfg["start_depth"], pool)
    lines += ["%s;%d;%d;start" % (start, d, c) for d, c in enumerate(counts, 1)]
    log("  %-30s %s  (%.1fs)" % ("start", " ".join(map(str, counts)), time.time() - t))

    for label, fen in tricky(key):
        # FSF's validator rejects two black Kings with castling rights,
        # although FSF plays the position as intended.
        if "spare-king" not in label and sf.validate_fen(fen, cfg["fsf"]) != 1:
            raise SystemExit("%s %s: FSF rejects %s" % (key, label, fen))
        p = fen.split()
        flipped = " ".join([p[0], "b" if p[1] == "w" else "w", p[2], "-"] + p[4:])
        if sf.gives_check(cfg["fsf"], flipped, []):
            raise SystemExit("%s %s: side not to move is in check: %s" % (key, label, fen))
        store("tricky-" + label, fen, 3)

    if not cfg.get("start_only"):
        rng = random.Random("quadrille-" + key)
        n = 0
        while n < RANDOM_POSITIONS:
            plies = rng.randint(*RANDOM_PLIES)
            path, st = [], fsf.root_state(start)
            for _ in range(plies):
                ms = sorted(fsf.moves(start, path, st))
                if not ms:
                    break
                m = rng.choice(ms)
                path.append(m)
                st = fsf.child_state(st, m)
            else:
                n += 1
                store("random-%02d-ply%d" % (n, plies), sf.get_fen(cfg["fsf"], start, path), 3)

    with open(pos_file(key), "w") as fh:
        fh.write("# Fairy-Stockfish perft counts for Quadrille variant '%s' (FSF variant '%s'\n"
                 "# of tools/fsf/variants.ini; %s, pyffish %s).\n"
                 "# Generated by: python3 tools/fsf/crosscheck.py --regen --variant %s\n"
                 "# Format: FEN;depth;count;label\n"
                 % (key, cfg["fsf"], sf.info().strip(), ".".join(map(str, sf.version())), key))
        fh.write("".join(line + "\n" for line in lines))
    log("  wrote %s: %d lines, %.0fs" % (os.path.relpath(pos_file(key), REPO), len(lines),
                                         time.time() - t0))


# ---------------------------------------------------------------------------
# our engine
# ---------------------------------------------------------------------------
class OursError(Exception):
    pass


def run_ours(binary, key, fen, depth):
    """(total, {move: count}) from `quadrille perft --divide`."""
    cfg = VARIANTS[key]
    cmd = [binary] + (["--variant-file", cfg["file"]] if "file" in cfg else []) + [
        "perft", cfg["ours"], str(depth), "--position", fen, "--divide"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if p.returncode != 0:
        raise OursError("exit %d: %s\n%s" % (p.returncode, " ".join(cmd), p.stderr.strip()))
    total, div = None, {}
    for line in p.stdout.splitlines():
        w = line.split()
        if len(w) >= 2 and w[0] == "nodes":
            total = int(w[1])
        elif len(w) == 2 and MOVE_RE.match(w[0]):
            div[w[0]] = int(w[1])
    if total is None:
        raise OursError("no `nodes N` line from: %s" % " ".join(cmd))
    return total, div


def diagnose(binary, key, fen, depth, ours, pool, log):
    """Print divide diffs against FSF, descending into the first differing move."""
    try:
        fsf = Fsf(key)
    except ImportError:
        log("    (no pyffish: cannot show the divide diff)")
        return
    path = []
    while True:
        theirs = {m: (c[-1] if c else 1) for m, c in fsf.divide(fen, depth, pool).items()}
        log("    depth %d after [%s]: %s" % (depth, " ".join(path), fen))
        log("      ours %d, FSF %d" % (sum(ours.values()), sum(theirs.values())))
        only_ours = sorted(set(ours) - set(theirs))
        only_fsf = sorted(set(theirs) - set(ours))
        differ = sorted(m for m in set(ours) & set(theirs) if ours[m] != theirs[m])
        if only_ours:
            log("      only in ours: " + " ".join(only_ours))
        if only_fsf:
            log("      only in FSF:  " + " ".join(only_fsf))
        for m in differ[:12]:
            log("      %-8s ours %d  FSF %d" % (m, ours[m], theirs[m]))
        if len(differ) > 12:
            log("      ... and %d more moves with different counts" % (len(differ) - 12))
        if only_ours or only_fsf or not differ or depth == 1:
            return
        path.append(differ[0])
        fen = fsf.sf.get_fen(fsf.v, fen, [differ[0]])
        depth -= 1
        try:
            ours = run_ours(binary, key, fen, depth)[1]
        except OursError as e:
            log("      " + str(e))
            return


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=os.path.join(REPO, "target", "release", "quadrille"))
    ap.add_argument("--variant", action="append", choices=list(VARIANTS),
                    help="only this variant (repeatable)")
    ap.add_argument("--quick", action="store_true",
                    help="start position to depth 3 (Caissa 2), others to depth %d"
                    % QUICK_OTHER_DEPTH)
    ap.add_argument("--live", action="store_true",
                    help="recompute the FSF counts with pyffish (fail on stale stored ones)")
    ap.add_argument("--regen", action="store_true", help="rewrite the positions files")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="pyffish worker processes")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    keys = args.variant or list(VARIANTS)

    def log(msg):
        print(msg, flush=True)

    # pyffish workers: regen, --live and the divide diff of a failure
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
    if args.regen:
        for key in keys:
            log("regen " + key)
            regen(key, pool, log)
        return 0

    if not os.path.exists(args.bin):
        log("crosscheck: %s not found (cargo build --release, or --bin)" % args.bin)
        return 2
    t0 = time.time()
    passed = failed = 0
    for key in keys:
        best = {}
        for e in read_positions(key):
            quick = VARIANTS[key]["quick_depth"] if e["label"] == "start" else QUICK_OTHER_DEPTH
            if args.quick and e["depth"] > quick:
                continue
            g = (e["fen"], e["label"])
            if g not in best or best[g]["depth"] < e["depth"]:
                best[g] = e
        if not best:
            log("FAIL %s: no positions (run --regen)" % key)
            failed += 1
            continue
        entries = list(best.values())
        live = None
        if args.live:
            jobs = [(key, e["fen"], e["depth"]) for e in entries]
            live = list(pool.map(_perft, jobs) if pool else map(_perft, jobs))
        log("== %s: %d positions" % (key, len(entries)))
        for i, e in enumerate(entries):
            fen, depth, expected, label = e["fen"], e["depth"], e["count"], e["label"]
            what = "%s %s depth %d" % (key, label, depth)
            if live and live[i] != expected:
                log("FAIL %s: stored count %d, pyffish now %d (--regen?)" % (what, expected, live[i]))
                failed += 1
                continue
            try:
                total, div = run_ours(args.bin, key, fen, depth)
            except OursError as ex:
                log("FAIL %s: %s" % (what, ex))
                failed += 1
                continue
            if total == expected:
                passed += 1
                if args.verbose:
                    log("ok   %s: %d" % (what, total))
            else:
                failed += 1
                log("FAIL %s: ours %d, FSF %d" % (what, total, expected))
                log("    %s" % fen)
                diagnose(args.bin, key, fen, depth, div, pool, log)
    log("time %.1fs" % (time.time() - t0))
    log("crosscheck: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
