//! Helpers shared by the integration tests, and a small, deliberately naive
//! reference move generator (`reference`) written from the rules texts
//! independently of the engine, used to cross-check perft counts of the
//! fairy variants where no published numbers exist.

#![allow(dead_code)]

use quadrille_engine::{embedded, Position, Variant};
use std::sync::Arc;

pub mod aikou_ref;
pub mod avon_ref;
pub mod fivequarters_ref;
pub mod lockstep;

/// An embedded variant.
pub fn variant(name: &str) -> Arc<Variant> {
    embedded::variant(name).unwrap_or_else(|e| panic!("variant {name}: {e}"))
}

/// A position of an embedded variant from a position string.
pub fn pos(name: &str, fen: &str) -> Position {
    Position::from_string(variant(name), fen).unwrap_or_else(|e| panic!("{name} `{fen}`: {e}"))
}

/// Sorted legal moves, as strings.
pub fn legal(p: &mut Position) -> Vec<String> {
    let list = p.legal_moves();
    let mut v: Vec<String> = list.iter().map(|&m| p.move_to_string(m)).collect();
    v.sort();
    v
}

/// Sorted legal moves of the piece on `cell` (compared by cell, not by
/// text prefix: `a1` is not a prefix match for `a10`).
pub fn moves_from(p: &mut Position, cell: &str) -> Vec<String> {
    let c = p
        .variant()
        .geometry
        .parse_cell(cell)
        .unwrap_or_else(|| panic!("bad cell {cell}"));
    let list = p.legal_moves();
    let mut v: Vec<String> = list
        .iter()
        .filter(|m| m.from == c)
        .map(|&m| p.move_to_string(m))
        .collect();
    v.sort();
    v
}

/// A sorted list of move strings.
pub fn sorted(xs: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = xs.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// Asserts the exact legal moves of the piece on `cell`.
#[track_caller]
pub fn assert_moves(p: &mut Position, cell: &str, expected: &[&str]) {
    let got = moves_from(p, cell);
    let want = sorted(expected);
    assert_eq!(
        got,
        want,
        "\nposition {}\nmoves of {cell}\n  engine only:   {:?}\n  expected only: {:?}",
        p,
        got.iter().filter(|m| !want.contains(m)).collect::<Vec<_>>(),
        want.iter().filter(|m| !got.contains(m)).collect::<Vec<_>>()
    );
}

/// Asserts the exact list of all legal moves.
#[track_caller]
pub fn assert_all_moves(p: &mut Position, expected: &[&str]) {
    let got = legal(p);
    let want = sorted(expected);
    assert_eq!(
        got,
        want,
        "\nposition {}\n  engine only:   {:?}\n  expected only: {:?}",
        p,
        got.iter().filter(|m| !want.contains(m)).collect::<Vec<_>>(),
        want.iter().filter(|m| !got.contains(m)).collect::<Vec<_>>()
    );
}

/// A position string from (cell, piece) pairs such as ("a1", "rK") on a
/// board of (files, ranks, number of the first rank), listing the cells
/// `exists` keeps (file and rank from 0), with the player to move and the
/// players out, in the order they went out.
pub fn board_fen<S: AsRef<str>>(
    (files, ranks, first): (usize, usize, usize),
    exists: impl Fn(usize, usize) -> bool,
    pieces: &[(&str, S)],
    to_move: char,
    out: &str,
) -> String {
    let mut board: Vec<Vec<Option<&str>>> = vec![vec![None; files]; ranks];
    for (cell, piece) in pieces {
        let f = (cell.as_bytes()[0] - b'a') as usize;
        let r = cell[1..].parse::<usize>().unwrap() - first;
        assert!(
            f < files && r < ranks && exists(f, r),
            "{cell} is not on the board"
        );
        assert!(board[r][f].is_none(), "{cell} given twice");
        board[r][f] = Some(piece.as_ref());
    }
    let text: Vec<String> = (0..ranks)
        .rev()
        .map(|r| {
            let (mut s, mut empty) = (String::new(), 0);
            for f in (0..files).filter(|&f| exists(f, r)) {
                let Some(p) = board[r][f] else {
                    empty += 1;
                    continue;
                };
                if empty > 0 {
                    s += &empty.to_string();
                    empty = 0;
                }
                s += p;
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            s
        })
        .collect();
    let mut fen = format!("{} {to_move} - - 0 1", text.join("/"));
    if !out.is_empty() {
        fen += &format!(" out={out}");
    }
    fen
}

/// `board_fen` on a full n x n board with ranks from 1.
pub fn square_fen(n: usize, pieces: &[(&str, &str)], to_move: char, out: &str) -> String {
    board_fen((n, n, 1), |_, _| true, pieces, to_move, out)
}

/// Plays a sequence of moves, panicking with context on failure.
#[track_caller]
pub fn play_all(p: &mut Position, moves: &[&str]) {
    for m in moves {
        if let Err(e) = p.play(m) {
            panic!("playing {m} in {p}: {e}");
        }
    }
}

/// Letter (upper case) of the piece on the from-cell of a move.
pub fn mover_letter(p: &Position, m: quadrille_engine::Move) -> char {
    let piece = p.piece_at(m.from).expect("a move starts on a piece");
    p.variant().pieces[piece.kind as usize].letter
}

/// Walks the game tree to `depth` comparing the engine's legal moves with
/// the reference generator's at every node; returns the first difference
/// (the move path, the position and both move lists' differences).
pub fn first_difference(eng: &mut Position, game: &reference::Game, depth: u32) -> Option<String> {
    let fen = eng.to_string();
    let rp = game
        .parse(&fen)
        .unwrap_or_else(|e| panic!("reference cannot read `{fen}`: {e}"));
    let em = legal(eng);
    let mut rm = game.legal_strings(&rp);
    rm.sort();
    if em != rm {
        return Some(format!(
            "at `{fen}`:\n  engine only:    {:?}\n  reference only: {:?}",
            em.iter().filter(|m| !rm.contains(m)).collect::<Vec<_>>(),
            rm.iter().filter(|m| !em.contains(m)).collect::<Vec<_>>()
        ));
    }
    if depth <= 1 {
        return None;
    }
    for m in &em {
        eng.play(m).unwrap_or_else(|e| panic!("{m} in {fen}: {e}"));
        let d = first_difference(eng, game, depth - 1);
        eng.unmake();
        if let Some(d) = d {
            return Some(format!("{m} {d}"));
        }
    }
    None
}

/// A naive reference move generator for two-player games on a rectangle,
/// written from the rules texts only. Slow (it copies the board for every
/// legality test) but short enough to check by reading.
pub mod reference {
    use std::collections::HashMap;

    /// What a move component may do.
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub enum Mode {
        /// Move to an empty cell or capture.
        Both,
        /// Move to an empty cell only.
        Move,
        /// Capture only.
        Capture,
        /// Capture only, by hopping over exactly one screen (cannon style).
        HopCapture,
    }

    /// A set of vectors travelled as a leap or as a rider.
    #[derive(Clone, Debug)]
    pub struct Comp {
        pub vecs: Vec<(i32, i32)>,
        pub rider: bool,
        pub mode: Mode,
    }

    /// All sign and axis variants of a leap (a, b).
    pub fn sym(a: i32, b: i32) -> Vec<(i32, i32)> {
        let mut v = Vec::new();
        for (x, y) in [(a, b), (b, a)] {
            for sx in [1, -1] {
                for sy in [1, -1] {
                    let p = (x * sx, y * sy);
                    if !v.contains(&p) {
                        v.push(p);
                    }
                }
            }
        }
        v
    }

    pub fn leap(a: i32, b: i32, mode: Mode) -> Comp {
        Comp {
            vecs: sym(a, b),
            rider: false,
            mode,
        }
    }
    pub fn ride(a: i32, b: i32, mode: Mode) -> Comp {
        Comp {
            vecs: sym(a, b),
            rider: true,
            mode,
        }
    }

    #[derive(Clone, Debug)]
    pub struct Castle {
        pub symbol: char,
        pub side: usize,
        pub king: &'static str,
        pub rook: &'static str,
        pub king_to: &'static str,
        pub rook_to: &'static str,
    }

    /// A game: board size, pieces, royalty, pawns, castling.
    pub struct Game {
        pub files: i32,
        pub ranks: i32,
        /// Piece letter (upper case) and its moves; `P` is the pawn and is
        /// handled by the pawn code (its entry is ignored).
        pub pieces: Vec<(char, Vec<Comp>)>,
        /// Per side: letters of the types that side must retain.
        pub must_retain: [&'static str; 2],
        /// A lone royal may not pass over a cell where it would be attacked.
        pub no_passing: bool,
        /// Per side: 0-based rank index a pawn double-steps from.
        pub double_step_rank: [i32; 2],
        /// Per side: always-available promotion letters.
        pub promo: [&'static str; 2],
        /// Liberation: (setup string, excluded letters). A type the side
        /// has fewer of than in the setup may be chosen (never the pawn).
        pub liberate: Option<(&'static str, &'static str)>,
        pub castling: Vec<Castle>,
    }

    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct Pos {
        /// (side, letter) per cell, index rank * files + file.
        pub b: Vec<Option<(usize, char)>>,
        pub side: usize,
        pub rights: Vec<bool>,
        /// (target cell, cell of the pawn to take).
        pub ep: Option<(usize, usize)>,
    }

    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct Mv {
        pub from: usize,
        pub to: usize,
        pub promo: Option<char>,
        pub ep: bool,
        pub double: bool,
        pub castle: Option<usize>,
    }

    impl Game {
        fn idx(&self, f: i32, r: i32) -> Option<usize> {
            (f >= 0 && r >= 0 && f < self.files && r < self.ranks)
                .then(|| (r * self.files + f) as usize)
        }
        fn fr(&self, c: usize) -> (i32, i32) {
            (c as i32 % self.files, c as i32 / self.files)
        }
        pub fn name(&self, c: usize) -> String {
            let (f, r) = self.fr(c);
            format!("{}{}", (b'a' + f as u8) as char, r + 1)
        }
        pub fn cell(&self, s: &str) -> Option<usize> {
            let mut ch = s.chars();
            let f = ch.next()? as i32 - 'a' as i32;
            let r: i32 = ch.as_str().parse().ok()?;
            self.idx(f, r - 1)
        }
        fn comps(&self, letter: char) -> &[Comp] {
            &self
                .pieces
                .iter()
                .find(|(l, _)| *l == letter)
                .unwrap_or_else(|| panic!("reference: unknown piece {letter}"))
                .1
        }

        /// Reads a position string (board, side, castling, en passant).
        pub fn parse(&self, s: &str) -> Result<Pos, String> {
            let f: Vec<&str> = s.split_whitespace().collect();
            if f.len() < 4 {
                return Err("fields".into());
            }
            let mut b = vec![None; (self.files * self.ranks) as usize];
            let rows: Vec<&str> = f[0].split('/').collect();
            if rows.len() as i32 != self.ranks {
                return Err("ranks".into());
            }
            for (i, row) in rows.iter().enumerate() {
                let r = self.ranks - 1 - i as i32;
                let mut file = 0;
                let mut num = 0;
                for ch in row.chars() {
                    if let Some(d) = ch.to_digit(10) {
                        num = num * 10 + d as i32;
                        continue;
                    }
                    file += num;
                    num = 0;
                    let side = if ch.is_ascii_uppercase() { 0 } else { 1 };
                    let c = self.idx(file, r).ok_or("file")?;
                    b[c] = Some((side, ch.to_ascii_uppercase()));
                    file += 1;
                }
                file += num;
                if file != self.files {
                    return Err(format!("rank {}", r + 1));
                }
            }
            let side = match f[1] {
                "w" => 0,
                "b" => 1,
                _ => return Err("side".into()),
            };
            let mut rights = vec![false; self.castling.len()];
            if f[2] != "-" {
                for ch in f[2].chars() {
                    let i = self
                        .castling
                        .iter()
                        .position(|c| c.symbol == ch)
                        .ok_or("castling")?;
                    rights[i] = true;
                }
            }
            let ep = if f[3] == "-" {
                None
            } else {
                let t = self.cell(f[3]).ok_or("ep")?;
                let (tf, tr) = self.fr(t);
                // The pawn that just moved belongs to the other side.
                let dr = if side == 0 { -1 } else { 1 };
                Some((t, self.idx(tf, tr + dr).ok_or("ep")?))
            };
            Ok(Pos {
                b,
                side,
                rights,
                ep,
            })
        }

        fn count(&self, p: &Pos, side: usize, letter: char) -> usize {
            p.b.iter().filter(|x| **x == Some((side, letter))).count()
        }

        /// The royal cells of a side: the lone piece of each required type;
        /// `None` when a required type is gone.
        pub fn royals(&self, p: &Pos, side: usize) -> Option<Vec<usize>> {
            let mut v = Vec::new();
            for t in self.must_retain[side].chars() {
                let cells: Vec<usize> = (0..p.b.len())
                    .filter(|&c| p.b[c] == Some((side, t)))
                    .collect();
                match cells.len() {
                    0 => return None,
                    1 => v.push(cells[0]),
                    _ => {}
                }
            }
            Some(v)
        }

        fn promo_choices(&self, p: &Pos, side: usize) -> Vec<char> {
            let mut v: Vec<char> = self.promo[side].chars().collect();
            if let Some((setup, exclude)) = self.liberate {
                let start = self.parse(setup).expect("setup");
                for (l, _) in &self.pieces {
                    if *l == 'P' || exclude.contains(*l) || v.contains(l) {
                        continue;
                    }
                    if self.count(p, side, *l) < self.count(&start, side, *l) {
                        v.push(*l);
                    }
                }
            }
            v
        }

        /// Pseudo-legal moves of `side` (without castling).
        pub fn pseudo(&self, p: &Pos, side: usize) -> Vec<Mv> {
            let mut out = Vec::new();
            let last = if side == 0 { self.ranks - 1 } else { 0 };
            let choices = self.promo_choices(p, side);
            let mk = |from, to| Mv {
                from,
                to,
                promo: None,
                ep: false,
                double: false,
                castle: None,
            };
            for from in 0..p.b.len() {
                let Some((s, letter)) = p.b[from] else {
                    continue;
                };
                if s != side {
                    continue;
                }
                let (f, r) = self.fr(from);
                if letter == 'P' {
                    let dir = if side == 0 { 1 } else { -1 };
                    let mut targets = Vec::new();
                    if let Some(t) = self.idx(f, r + dir) {
                        if p.b[t].is_none() {
                            targets.push(mk(from, t));
                            if r == self.double_step_rank[side] {
                                if let Some(t2) = self.idx(f, r + 2 * dir) {
                                    if p.b[t2].is_none() {
                                        out.push(Mv {
                                            double: true,
                                            ..mk(from, t2)
                                        });
                                    }
                                }
                            }
                        }
                    }
                    for df in [-1, 1] {
                        if let Some(t) = self.idx(f + df, r + dir) {
                            match p.b[t] {
                                Some((s2, _)) if s2 != side => targets.push(mk(from, t)),
                                None if p.ep.map(|e| e.0) == Some(t) => {
                                    out.push(Mv {
                                        ep: true,
                                        ..mk(from, t)
                                    });
                                }
                                _ => {}
                            }
                        }
                    }
                    for m in targets {
                        if self.fr(m.to).1 == last {
                            for &c in &choices {
                                out.push(Mv {
                                    promo: Some(c),
                                    ..m.clone()
                                });
                            }
                        } else {
                            out.push(m);
                        }
                    }
                    continue;
                }
                for comp in self.comps(letter) {
                    for &(dx, dy) in &comp.vecs {
                        let mut k = 1;
                        let mut screen = false;
                        while let Some(t) = self.idx(f + k * dx, r + k * dy) {
                            match (comp.mode, p.b[t]) {
                                (Mode::HopCapture, None) => {}
                                (Mode::HopCapture, Some((s2, _))) => {
                                    if screen {
                                        if s2 != side {
                                            out.push(mk(from, t));
                                        }
                                        break;
                                    }
                                    screen = true;
                                }
                                (m, None) => {
                                    if m != Mode::Capture {
                                        out.push(mk(from, t));
                                    }
                                }
                                (m, Some((s2, _))) => {
                                    if m != Mode::Move && s2 != side {
                                        out.push(mk(from, t));
                                    }
                                    break;
                                }
                            }
                            if !comp.rider && comp.mode != Mode::HopCapture {
                                break;
                            }
                            k += 1;
                        }
                    }
                }
            }
            out
        }

        /// Could `by` capture on `cell` (a stand-in enemy piece is put
        /// there if the cell is empty)?
        pub fn attacked(&self, p: &Pos, cell: usize, by: usize) -> bool {
            let mut q = p.clone();
            if q.b[cell].is_none() {
                q.b[cell] = Some((1 - by, '?'));
            }
            q.ep = None;
            self.pseudo(&q, by).iter().any(|m| m.to == cell)
        }

        pub fn make(&self, p: &Pos, m: &Mv) -> Pos {
            let mut q = p.clone();
            if let Some(i) = m.castle {
                let c = &self.castling[i];
                let (k, r) = (self.cell(c.king).unwrap(), self.cell(c.rook).unwrap());
                let (kt, rt) = (self.cell(c.king_to).unwrap(), self.cell(c.rook_to).unwrap());
                let king = q.b[k].take();
                let rook = q.b[r].take();
                q.b[kt] = king;
                q.b[rt] = rook;
            } else {
                let piece = q.b[m.from].take();
                if m.ep {
                    let victim = p.ep.expect("ep").1;
                    q.b[victim] = None;
                }
                q.b[m.to] = match m.promo {
                    Some(l) => Some((p.side, l)),
                    None => piece,
                };
            }
            for (i, c) in self.castling.iter().enumerate() {
                let cells = [self.cell(c.king).unwrap(), self.cell(c.rook).unwrap()];
                if cells.contains(&m.from) || cells.contains(&m.to) {
                    q.rights[i] = false;
                }
            }
            q.ep = None;
            if m.double {
                let mid = (m.from + m.to) / 2;
                q.ep = Some((mid, m.to));
            }
            q.side = 1 - p.side;
            q
        }

        fn castles(&self, p: &Pos) -> Vec<Mv> {
            let mut out = Vec::new();
            let side = p.side;
            for (i, c) in self.castling.iter().enumerate() {
                if !p.rights[i] || c.side != side {
                    continue;
                }
                let (k, r) = (self.cell(c.king).unwrap(), self.cell(c.rook).unwrap());
                let (kt, rt) = (self.cell(c.king_to).unwrap(), self.cell(c.rook_to).unwrap());
                if p.b[k] != Some((side, 'K')) || p.b[r] != Some((side, 'R')) {
                    continue;
                }
                let (kf, rank) = self.fr(k);
                let (rf, _) = self.fr(r);
                let (ktf, _) = self.fr(kt);
                let (rtf, _) = self.fr(rt);
                let lo = kf.min(rf).min(ktf).min(rtf);
                let hi = kf.max(rf).max(ktf).max(rtf);
                let clear = (lo..=hi).all(|x| {
                    let c = self.idx(x, rank).unwrap();
                    c == k || c == r || p.b[c].is_none()
                });
                if !clear {
                    continue;
                }
                let step = (ktf - kf).signum();
                let mut x = kf;
                let mut safe = true;
                loop {
                    if self.attacked(p, self.idx(x, rank).unwrap(), 1 - side) {
                        safe = false;
                    }
                    if x == ktf {
                        break;
                    }
                    x += step;
                }
                if safe {
                    out.push(Mv {
                        from: k,
                        to: kt,
                        promo: None,
                        ep: false,
                        double: false,
                        castle: Some(i),
                    });
                }
            }
            out
        }

        /// Legal moves of the side to move.
        pub fn legal(&self, p: &Pos) -> Vec<Mv> {
            let side = p.side;
            let Some(royals) = self.royals(p, side) else {
                return Vec::new();
            };
            let mut all = self.pseudo(p, side);
            all.extend(self.castles(p));
            all.into_iter()
                .filter(|m| {
                    if self.no_passing && m.castle.is_none() && royals.contains(&m.from) {
                        let (f0, r0) = self.fr(m.from);
                        let (f1, r1) = self.fr(m.to);
                        let (df, dr) = (f1 - f0, r1 - r0);
                        if df == 0 || dr == 0 || df.abs() == dr.abs() {
                            let n = df.abs().max(dr.abs());
                            for k in 1..n {
                                let c = self
                                    .idx(f0 + k * df.signum(), r0 + k * dr.signum())
                                    .unwrap();
                                let mut q = p.clone();
                                q.b[c] = q.b[m.from].take();
                                if self.attacked(&q, c, 1 - side) {
                                    return false;
                                }
                            }
                        }
                    }
                    let q = self.make(p, m);
                    match self.royals(&q, side) {
                        None => false,
                        Some(rs) => rs.iter().all(|&c| !self.attacked(&q, c, 1 - side)),
                    }
                })
                .collect()
        }

        pub fn move_string(&self, m: &Mv) -> String {
            let mut s = self.name(m.from) + &self.name(m.to);
            if let Some(l) = m.promo {
                s.push(l.to_ascii_lowercase());
            }
            s
        }

        pub fn legal_strings(&self, p: &Pos) -> Vec<String> {
            self.legal(p).iter().map(|m| self.move_string(m)).collect()
        }

        pub fn perft(&self, p: &Pos, depth: u32) -> u64 {
            let moves = self.legal(p);
            if depth <= 1 {
                return if depth == 0 { 1 } else { moves.len() as u64 };
            }
            moves
                .iter()
                .map(|m| self.perft(&self.make(p, m), depth - 1))
                .sum()
        }

        /// Moves grouped by the moving piece's letter.
        pub fn by_letter(&self, p: &Pos) -> HashMap<char, usize> {
            let mut h = HashMap::new();
            for m in self.legal(p) {
                *h.entry(p.b[m.from].unwrap().1).or_insert(0) += 1;
            }
            h
        }
    }

    fn fide_castling() -> Vec<Castle> {
        vec![
            Castle {
                symbol: 'K',
                side: 0,
                king: "e1",
                rook: "h1",
                king_to: "g1",
                rook_to: "f1",
            },
            Castle {
                symbol: 'Q',
                side: 0,
                king: "e1",
                rook: "a1",
                king_to: "c1",
                rook_to: "d1",
            },
            Castle {
                symbol: 'k',
                side: 1,
                king: "e8",
                rook: "h8",
                king_to: "g8",
                rook_to: "f8",
            },
            Castle {
                symbol: 'q',
                side: 1,
                king: "e8",
                rook: "a8",
                king_to: "c8",
                rook_to: "d8",
            },
        ]
    }

    fn fide_pieces() -> Vec<(char, Vec<Comp>)> {
        use Mode::Both;
        vec![
            ('K', vec![leap(1, 0, Both), leap(1, 1, Both)]),
            ('Q', vec![ride(1, 0, Both), ride(1, 1, Both)]),
            ('R', vec![ride(1, 0, Both)]),
            ('B', vec![ride(1, 1, Both)]),
            ('N', vec![leap(2, 1, Both)]),
            ('P', vec![]),
        ]
    }

    /// FIDE chess.
    pub fn chess() -> Game {
        Game {
            files: 8,
            ranks: 8,
            pieces: fide_pieces(),
            must_retain: ["K", "K"],
            no_passing: false,
            double_step_rank: [1, 6],
            promo: ["QRBN", "QRBN"],
            liberate: None,
            castling: fide_castling(),
        }
    }

    /// Magna Carta Chess, from magna-carta.md.
    pub fn magna_carta() -> Game {
        use Mode::Both;
        let mut pieces = fide_pieces();
        pieces.push(('M', vec![ride(1, 0, Both), leap(2, 1, Both)]));
        pieces.push(('C', vec![ride(1, 1, Both), leap(2, 1, Both)]));
        Game {
            files: 8,
            ranks: 8,
            pieces,
            must_retain: ["MC", "KQ"],
            no_passing: false,
            double_step_rank: [1, 6],
            promo: ["MCRBN", "QKRBN"],
            liberate: None,
            castling: fide_castling()
                .into_iter()
                .filter(|c| c.side == 1)
                .collect(),
        }
    }

    pub const CAISSA_SETUP: &str =
        "drubqkburd/1l6l1/pppppppppp/10/10/10/10/PPPPPPPPPP/1L6L1/DRUBQKBURD w - - 0 1";

    /// Caïssa Britannia, from caissa-britannia.md.
    pub fn caissa() -> Game {
        use Mode::*;
        Game {
            files: 10,
            ranks: 10,
            pieces: vec![
                ('Q', vec![ride(1, 0, Both), ride(1, 1, Both)]),
                // Prince Consort mQcK.
                (
                    'K',
                    vec![
                        ride(1, 0, Move),
                        ride(1, 1, Move),
                        leap(1, 0, Capture),
                        leap(1, 1, Capture),
                    ],
                ),
                // Lion: quiet Queen moves, captures by hopping one screen.
                (
                    'L',
                    vec![
                        ride(1, 0, Move),
                        ride(1, 1, Move),
                        ride(1, 0, HopCapture),
                        ride(1, 1, HopCapture),
                    ],
                ),
                // Unicorn BNN.
                ('U', vec![ride(1, 1, Both), ride(2, 1, Both)]),
                // Dragon AADD.
                ('D', vec![ride(2, 2, Both), ride(2, 0, Both)]),
                ('R', vec![ride(1, 0, Both)]),
                // Anglican Bishop BmW.
                ('B', vec![ride(1, 1, Both), leap(1, 0, Move)]),
                ('N', vec![leap(2, 1, Both)]),
                ('P', vec![]),
            ],
            must_retain: ["Q", "Q"],
            no_passing: true,
            double_step_rank: [2, 7],
            promo: ["N", "N"],
            liberate: Some((CAISSA_SETUP, "Q")),
            castling: Vec::new(),
        }
    }
}
