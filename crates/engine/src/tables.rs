//! Tables precomputed once per variant: for every piece type, orientation
//! and cell the rays it moves along, and for every player the reverse view
//! ("which pieces could capture on this cell") used by attack tests. Cells
//! that do not exist simply end a ray, so move generation never asks what
//! shape the board has.

use crate::betza::Reach;
use crate::geometry::{Cell, Geometry, Orientation};
use crate::variant::{PieceKind, Player, TypeMask, MAX_TYPES};

/// How a ray is travelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Travel {
    Leap,
    Slide,
    Hop,
}

/// One way a piece can move from one cell: a list of cells in `Tables::cells`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ray {
    pub start: u32,
    pub len: u8,
    pub travel: Travel,
    pub quiet: bool,
    pub capture: bool,
    /// Lame leap: cells (in `Tables::cells`) that must be empty.
    pub lame_start: u32,
    pub lame_len: u8,
}

/// A leap that reaches a given cell: from where, which types, which cells
/// must be empty.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LeapAttack {
    pub from: Cell,
    pub types: TypeMask,
    pub lame_start: u32,
    pub lame_len: u8,
}

/// Riders of some types attack along this ray (from the target outwards).
#[derive(Clone, Copy, Debug)]
pub(crate) struct LineAttack {
    /// Index of the vector (pointing from the target toward the attacker).
    pub vector: u16,
    /// Types that slide along it without range limit.
    pub slide: TypeMask,
    /// Types that hop along it.
    pub hop: TypeMask,
    /// Types with a limited range, with their range.
    pub limited: [(TypeMask, u8); 2],
}

/// Reverse tables for one player: what attacks a cell.
#[derive(Clone, Debug, Default)]
pub(crate) struct AttackTables {
    /// Per cell: range in `leaps`.
    pub leap_index: Vec<(u32, u32)>,
    pub leaps: Vec<LeapAttack>,
    pub lines: Vec<LineAttack>,
    /// Some attack can be opened or closed by a piece that is not on its
    /// line (hoppers, lame leaps): pin shortcuts do not apply.
    pub tricky: bool,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct Tables {
    pub ncells: usize,
    /// Flat storage of cell lists.
    pub cells: Vec<Cell>,
    /// Distinct board vectors in use.
    pub vectors: Vec<(i32, i32)>,
    /// `[vector * ncells + cell]` -> (start, len) of the full ray in `cells`.
    pub vector_rays: Vec<(u32, u8)>,
    pub rays: Vec<Ray>,
    /// `[(type * 4 + orientation) * ncells + cell]` -> range in `rays`.
    pub piece_rays: Vec<(u32, u32)>,
    /// Per player.
    pub attacks: Vec<AttackTables>,
    /// Per player and cell: the orientation of "forward" there.
    pub orientation: Vec<Vec<Orientation>>,
    /// Zobrist keys: `[piece code * ncells + cell]`.
    pub zobrist_piece: Vec<u64>,
    pub zobrist_player: [u64; 8],
    pub zobrist_castling: [u64; 16],
    pub zobrist_ep: Vec<u64>,
}

/// SplitMix64: a small, well-mixed generator for Zobrist keys.
pub(crate) fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Tables {
    pub fn build(g: &Geometry, players: &[Player], pieces: &[PieceKind]) -> Result<Tables, String> {
        let n = g.size();
        let mut t = Tables {
            ncells: n,
            ..Default::default()
        };
        // Forward per player and cell: constant per player for now; the
        // table lets a rule make it depend on the cell.
        t.orientation = players.iter().map(|p| vec![p.forward; n]).collect();

        // Every board vector any piece uses in any orientation, and its
        // opposite (attack tests walk backwards).
        for p in pieces {
            for a in &p.atoms {
                for &v in &a.vectors {
                    for o in Orientation::ALL {
                        let bv = o.rotate(v);
                        t.vector_id(bv);
                        t.vector_id((-bv.0, -bv.1));
                    }
                }
            }
        }
        t.vector_rays = vec![(0, 0); t.vectors.len() * n];
        for vi in 0..t.vectors.len() {
            let (dx, dy) = t.vectors[vi];
            for c in 0..n {
                let start = t.cells.len() as u32;
                let mut cur = c as Cell;
                if g.cells.contains(cur) {
                    while let Some(next) = g.offset(cur, dx, dy) {
                        t.cells.push(next);
                        cur = next;
                    }
                }
                let len = (t.cells.len() as u32 - start) as u8;
                t.vector_rays[vi * n + c] = (start, len);
            }
        }

        // Forward rays per (type, orientation, cell).
        t.piece_rays = vec![(0, 0); pieces.len() * 4 * n];
        for (ti, p) in pieces.iter().enumerate() {
            for o in Orientation::ALL {
                for c in 0..n {
                    let begin = t.rays.len() as u32;
                    if g.cells.contains(c as Cell) {
                        for a in &p.atoms {
                            for (k, &v) in a.vectors.iter().enumerate() {
                                let bv = o.rotate(v);
                                let vi = t.vector_id(bv);
                                let (start, full) = t.vector_rays[vi * n + c];
                                let (travel, len) = match a.reach {
                                    Reach::Leap => (Travel::Leap, full.min(1)),
                                    Reach::Ride { max: 0 } => (Travel::Slide, full),
                                    Reach::Ride { max } => (Travel::Slide, full.min(max)),
                                    Reach::Hop => (Travel::Hop, full),
                                };
                                if len == 0 {
                                    continue;
                                }
                                // A leap's single cell is the first of its ray
                                // only for the vector itself: rays of leaps are
                                // one jump of the vector, which is what we want.
                                let lame_start = t.cells.len() as u32;
                                let mut lame_len = 0;
                                if let Some(paths) = &a.lame {
                                    for &lv in &paths[k] {
                                        let (lx, ly) = o.rotate(lv);
                                        match g.offset(c as Cell, lx, ly) {
                                            Some(lc) => {
                                                t.cells.push(lc);
                                                lame_len += 1;
                                            }
                                            // A path through a missing cell is blocked.
                                            None => {
                                                lame_len = u8::MAX;
                                                break;
                                            }
                                        }
                                    }
                                }
                                if lame_len == u8::MAX {
                                    continue;
                                }
                                t.rays.push(Ray {
                                    start,
                                    len,
                                    travel,
                                    quiet: a.modes.quiet,
                                    capture: a.modes.capture,
                                    lame_start,
                                    lame_len,
                                });
                            }
                        }
                    }
                    t.drop_covered_rays(begin as usize);
                    t.piece_rays[(ti * 4 + o as usize) * n + c] = (begin, t.rays.len() as u32);
                }
            }
        }

        // Reverse (attack) tables per player.
        for (pl, player) in players.iter().enumerate() {
            let mut leaps_at: Vec<Vec<LeapAttack>> = vec![Vec::new(); n];
            let mut lines: Vec<LineAttack> = Vec::new();
            for (ti, p) in pieces.iter().enumerate() {
                let bit: TypeMask = 1 << ti;
                for a in p.atoms.iter().filter(|a| a.modes.capture) {
                    match a.reach {
                        Reach::Leap => {
                            for from in g.cells.iter() {
                                let o = t.orientation[pl][from as usize];
                                for (k, &v) in a.vectors.iter().enumerate() {
                                    let (dx, dy) = o.rotate(v);
                                    let Some(to) = g.offset(from, dx, dy) else {
                                        continue;
                                    };
                                    let mut lame = Vec::new();
                                    let mut ok = true;
                                    if let Some(paths) = &a.lame {
                                        for &lv in &paths[k] {
                                            let (lx, ly) = o.rotate(lv);
                                            match g.offset(from, lx, ly) {
                                                Some(lc) => lame.push(lc),
                                                None => ok = false,
                                            }
                                        }
                                    }
                                    if !ok {
                                        continue;
                                    }
                                    let lame_start = t.cells.len() as u32;
                                    let existing = leaps_at[to as usize].iter_mut().find(|e| {
                                        e.from == from
                                            && e.lame_len as usize == lame.len()
                                            && t.cells[e.lame_start as usize..][..lame.len()]
                                                == lame[..]
                                    });
                                    match existing {
                                        Some(e) => e.types |= bit,
                                        None => {
                                            t.cells.extend_from_slice(&lame);
                                            leaps_at[to as usize].push(LeapAttack {
                                                from,
                                                types: bit,
                                                lame_start,
                                                lame_len: lame.len() as u8,
                                            });
                                        }
                                    }
                                }
                            }
                        }
                        Reach::Ride { .. } | Reach::Hop => {
                            let o = player.forward;
                            for &v in &a.vectors {
                                let (dx, dy) = o.rotate(v);
                                let back = t.vector_id((-dx, -dy)) as u16;
                                let i = match lines.iter().position(|l| l.vector == back) {
                                    Some(i) => i,
                                    None => {
                                        lines.push(LineAttack {
                                            vector: back,
                                            slide: 0,
                                            hop: 0,
                                            limited: [(0, 0); 2],
                                        });
                                        lines.len() - 1
                                    }
                                };
                                let l = &mut lines[i];
                                match a.reach {
                                    Reach::Hop => l.hop |= bit,
                                    Reach::Ride { max: 0 } => l.slide |= bit,
                                    Reach::Ride { max } => {
                                        let slot = l
                                            .limited
                                            .iter()
                                            .position(|&(m, r)| r == max || m == 0)
                                            .ok_or("too many different ranges on one line")?;
                                        l.limited[slot].0 |= bit;
                                        l.limited[slot].1 = max;
                                    }
                                    Reach::Leap => unreachable!(),
                                }
                            }
                        }
                    }
                }
            }
            let mut at = AttackTables::default();
            for list in leaps_at {
                let s = at.leaps.len() as u32;
                at.leaps.extend(list);
                at.leap_index.push((s, at.leaps.len() as u32));
            }
            // Unlimited sliders first: they are the common case.
            lines.sort_by_key(|l| l.hop != 0);
            at.tricky =
                lines.iter().any(|l| l.hop != 0) || at.leaps.iter().any(|l| l.lame_len != 0);
            at.lines = lines;
            t.attacks.push(at);
        }

        // Zobrist keys, from a fixed seed so keys are stable across runs.
        let mut seed = 0x5155_4144_5249_4C4Cu64;
        t.zobrist_piece = (0..(128 + 1) * n).map(|_| splitmix(&mut seed)).collect();
        t.zobrist_player = std::array::from_fn(|_| splitmix(&mut seed));
        t.zobrist_castling = std::array::from_fn(|_| splitmix(&mut seed));
        t.zobrist_ep = (0..n).map(|_| splitmix(&mut seed)).collect();
        debug_assert!(pieces.len() <= MAX_TYPES);
        Ok(t)
    }

    /// Overlapping atoms (`WR`, `KQ`, `mRcR2`...) would give the same move
    /// twice. Among the rays of one piece on one cell from `begin` on,
    /// takes from each ray the modes of every other ray that reaches all
    /// its cells as easily, and drops rays left with no mode.
    fn drop_covered_rays(&mut self, begin: usize) {
        let n = self.rays.len() - begin;
        for i in 0..n {
            for j in 0..n {
                let (a, b) = (self.rays[begin + i], self.rays[begin + j]);
                if i != j && (b.quiet || b.capture) && self.covers(&b, &a) {
                    let r = &mut self.rays[begin + i];
                    r.quiet &= !b.quiet;
                    r.capture &= !b.capture;
                }
            }
        }
        let mut k = begin;
        for i in begin..self.rays.len() {
            if self.rays[i].quiet || self.rays[i].capture {
                self.rays[k] = self.rays[i];
                k += 1;
            }
        }
        self.rays.truncate(k);
    }

    /// Does ray `b` reach every cell of ray `a` under conditions no harder
    /// than `a`'s?
    fn covers(&self, b: &Ray, a: &Ray) -> bool {
        let first = |r: &Ray| self.cells[r.start as usize];
        let lame = |r: &Ray| &self.cells[r.lame_start as usize..][..r.lame_len as usize];
        match (a.travel, b.travel) {
            // A leap is reached by an unobstructed leap or the first cell
            // of a slide, neither needing more empty cells than it does.
            (Travel::Leap, Travel::Leap) => {
                first(a) == first(b) && (b.lame_len == 0 || lame(a) == lame(b))
            }
            (Travel::Leap, Travel::Slide) => first(a) == first(b),
            (Travel::Slide, Travel::Leap) => a.len == 1 && b.lame_len == 0 && first(a) == first(b),
            // The same line (same first cell), at least as far.
            (Travel::Slide, Travel::Slide) | (Travel::Hop, Travel::Hop) => {
                a.start == b.start && b.len >= a.len
            }
            _ => false,
        }
    }

    fn vector_id(&mut self, v: (i32, i32)) -> usize {
        match self.vectors.iter().position(|&w| w == v) {
            Some(i) => i,
            None => {
                self.vectors.push(v);
                self.vectors.len() - 1
            }
        }
    }

    /// The full ray from `cell` along vector `v` (by index).
    #[inline]
    pub fn ray(&self, v: u16, cell: Cell) -> &[Cell] {
        let (s, l) = self.vector_rays[v as usize * self.ncells + cell as usize];
        &self.cells[s as usize..s as usize + l as usize]
    }

    /// The rays of a piece type standing on `cell` facing `o`.
    #[inline]
    pub fn piece_rays(&self, ty: u8, o: Orientation, cell: Cell) -> &[Ray] {
        let (b, e) = self.piece_rays[(ty as usize * 4 + o as usize) * self.ncells + cell as usize];
        &self.rays[b as usize..e as usize]
    }
}
