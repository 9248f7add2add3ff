//! Tables precomputed once per variant: for every piece type, orientation
//! and cell the rays it moves along, and for every player the reverse view
//! ("which pieces could capture on this cell") used by attack tests. Cells
//! that do not exist simply end a ray, so move generation never asks what
//! shape the board has.

use crate::betza::{Atom, Reach};
use crate::geometry::{Cell, CellSet, Geometry, Orientation, WIDE};
use crate::variant::{PieceKind, PieceType, Player, Rules, TypeMask, MAX_TYPES};
use std::any::Any;
use std::sync::{Arc, OnceLock};

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

impl LineAttack {
    /// Does a piece of the `types` attack along this line from the
    /// `index`-th cell of its ray (0: next to the target)?
    #[inline(always)]
    pub fn rides(&self, types: TypeMask, index: usize) -> bool {
        types & self.slide != 0
            || self
                .limited
                .iter()
                .any(|&(m, range)| types & m != 0 && index < range as usize)
    }
}

/// Reverse tables for one player: what attacks a cell.
#[derive(Clone, Debug, Default)]
pub(crate) struct AttackTables {
    /// Per cell: range in `leaps`.
    pub leap_index: Vec<(u32, u32)>,
    pub leaps: Vec<LeapAttack>,
    pub lines: Vec<LineAttack>,
    /// Some leap of this player is lame (a piece on its path blocks it).
    pub lame: bool,
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
    pub ntypes: usize,
    /// `[(player * ntypes + type) * ncells + cell]` -> range in `rays`: the
    /// moves of a piece there (its own Betza facing its player's forward,
    /// or a region's).
    pub piece_rays: Vec<(u32, u32)>,
    /// Per (player, type, cell) as `piece_rays`, for mobility and attacks
    /// (`Position::piece_activity`): the index in [`CellTables::leaps`] of
    /// the cells of its plain leaps (not lame, moving and capturing)
    /// gathered into one set where it has several (`NO_LEAPS` if not), and
    /// the range in `activity_rays` of its other rays, walked one by one.
    pub piece_activity: Vec<(u32, u32, u32)>,
    pub activity_rays: Vec<Ray>,
    /// Per (player, type, cell) as `piece_rays`: the path rules allow
    /// every move of such a piece there (they depend on the cells alone),
    /// so generation and attack tests skip them. Empty without path rules.
    pub path_free: Vec<bool>,
    /// Vectors of the facing lines (`rules.facing`).
    pub facing_lines: Vec<u16>,
    /// Per cell: (start, len) in `cells` of the swap partners' cells.
    pub swap_targets: Vec<(u32, u8)>,
    /// Per player.
    pub attacks: Vec<AttackTables>,
    /// Per player and cell: the orientation of "forward" there.
    pub orientation: Vec<Vec<Orientation>>,
    /// Zobrist keys: `[piece code * ncells + cell]`.
    pub zobrist_piece: Vec<u64>,
    pub zobrist_player: [u64; 8],
    pub zobrist_castling: [u64; 16],
    pub zobrist_ep: Vec<u64>,
    /// The tables' cell sets, at each width a position asks for.
    pub sets: SetsByWidth,
}

/// The tables' cell sets at one width ([`CellSet`]): what attack tests and
/// mobility read. Built at the widest with the other tables, copied to a
/// narrower width for a position of that width ([`SetsByWidth`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct CellTables<const W: usize> {
    ncells: usize,
    /// Per player and cell: the cells from which a leap, and those from
    /// which a line, of that player may attack it on an empty board. No
    /// piece of theirs there, no attack: one set test instead of the walk.
    reach: Vec<Vec<[CellSet<W>; 2]>>,
    /// `[vector * ncells + cell]`: the cells of [`Tables::ray`], for quick
    /// "anything of these on it?".
    vector_ray_sets: Vec<CellSet<W>>,
    /// Plain leaps gathered into sets ([`Tables::activity_rays`]).
    leap_sets: Vec<CellSet<W>>,
}

impl<const W: usize> CellTables<W> {
    /// The same sets at width `V` (which must hold the board).
    fn to_width<const V: usize>(&self) -> CellTables<V> {
        debug_assert!(CellSet::<V>::holds(self.ncells));
        let narrow = |sets: &[CellSet<W>]| sets.iter().map(|s| s.to_width()).collect();
        CellTables {
            ncells: self.ncells,
            reach: self
                .reach
                .iter()
                .map(|cells| {
                    cells
                        .iter()
                        .map(|[l, r]| [l.to_width(), r.to_width()])
                        .collect()
                })
                .collect(),
            vector_ray_sets: narrow(&self.vector_ray_sets),
            leap_sets: narrow(&self.leap_sets),
        }
    }

    /// The cells of [`Tables::ray`] as a set.
    #[inline]
    pub fn ray_set(&self, v: u16, cell: Cell) -> &CellSet<W> {
        &self.vector_ray_sets[v as usize * self.ncells + cell as usize]
    }

    /// The cells from which a leap, and those from which a line, of
    /// `player` may attack `cell`.
    #[inline]
    pub fn reach(&self, player: usize, cell: Cell) -> &[CellSet<W>; 2] {
        &self.reach[player][cell as usize]
    }

    /// A set of gathered leaps ([`Tables::activity_rays`]).
    #[inline]
    pub fn leaps(&self, index: u32) -> &CellSet<W> {
        &self.leap_sets[index as usize]
    }
}

/// The [`CellTables`] of one variant at every width in use: the widest,
/// built with the tables, and each narrower one made from it once, when a
/// position of that width first asks.
#[derive(Clone, Debug, Default)]
pub(crate) struct SetsByWidth {
    wide: Arc<CellTables<WIDE>>,
    /// `[V - 1]`: the `Arc<CellTables<V>>` of `V` words, once made (the
    /// widest from the start).
    made: [OnceLock<Arc<dyn Any + Send + Sync>>; WIDE],
}

impl SetsByWidth {
    fn new(wide: CellTables<WIDE>) -> SetsByWidth {
        let sets = SetsByWidth {
            wide: Arc::new(wide),
            made: Default::default(),
        };
        let _ = sets.made[WIDE - 1].set(sets.wide.clone());
        sets
    }

    /// The sets at width `V` (which must hold the board), shared by every
    /// position of that width.
    pub fn at_width<const V: usize>(&self) -> Arc<CellTables<V>> {
        let make = || Arc::new(self.wide.to_width::<V>());
        let Some(slot) = V.checked_sub(1).and_then(|i| self.made.get(i)) else {
            return make();
        };
        let sets = slot.get_or_init(|| make()).clone();
        sets.downcast()
            .expect("slot V - 1 holds the sets of V words")
    }
}

/// `Tables::piece_activity`'s mark of a piece whose leaps are not gathered.
const NO_LEAPS: u32 = u32::MAX;

/// SplitMix64: a small, well-mixed generator for Zobrist keys.
pub(crate) fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Tables {
    pub fn build(
        g: &Geometry,
        players: &[Player],
        pieces: &[PieceKind],
        rules: &Rules,
    ) -> Result<Tables, String> {
        let n = g.size();
        let mut t = Tables {
            ncells: n,
            ntypes: pieces.len(),
            ..Default::default()
        };
        // Forward per player and cell: the player's own (double steps and
        // en passant use it; region moves carry their own).
        t.orientation = players.iter().map(|p| vec![p.forward; n]).collect();

        // The ways of moving: each piece type's Betza, then each region's.
        let movements: Vec<&[Atom]> = pieces
            .iter()
            .map(|p| &p.atoms[..])
            .chain(rules.region_moves.iter().map(|r| &r.atoms[..]))
            .collect();

        // Every board vector any movement uses in any orientation, and its
        // opposite (attack tests walk backwards); the facing lines.
        let facing = rules.facing.as_ref().map_or(&[][..], |f| &f.vectors[..]);
        for a in movements.iter().flat_map(|m| m.iter()) {
            for &v in &a.vectors {
                for o in Orientation::ALL {
                    let bv = o.rotate(v);
                    t.vector_id(bv);
                    t.vector_id((-bv.0, -bv.1));
                }
            }
        }
        t.facing_lines = facing.iter().map(|&v| t.vector_id(v) as u16).collect();
        t.vector_rays = vec![(0, 0); t.vectors.len() * n];
        let mut sets = CellTables::<WIDE> {
            ncells: n,
            vector_ray_sets: vec![CellSet::EMPTY; t.vectors.len() * n],
            ..Default::default()
        };
        for vi in 0..t.vectors.len() {
            let (dx, dy) = t.vectors[vi];
            for c in 0..n {
                let start = t.cells.len() as u32;
                let mut cur = c as Cell;
                if g.cells.contains(cur) {
                    while let Some(next) = g.offset(cur, dx, dy) {
                        t.cells.push(next);
                        sets.vector_ray_sets[vi * n + c].insert(next);
                        cur = next;
                    }
                }
                let len = (t.cells.len() as u32 - start) as u8;
                t.vector_rays[vi * n + c] = (start, len);
            }
        }

        // Rays per (movement, orientation, cell).
        let mut movement_rays = vec![(0u32, 0u32); movements.len() * 4 * n];
        for (mi, atoms) in movements.iter().enumerate() {
            for o in Orientation::ALL {
                for c in 0..n {
                    let begin = t.rays.len() as u32;
                    if g.cells.contains(c as Cell) {
                        t.push_rays(g, atoms, o, c as Cell);
                    }
                    t.drop_covered_rays(begin as usize);
                    movement_rays[(mi * 4 + o as usize) * n + c] = (begin, t.rays.len() as u32);
                }
            }
        }

        // The movement and orientation of each (player, type, cell).
        let nt = pieces.len();
        let mut movement = Vec::with_capacity(players.len() * nt * n);
        for p in players {
            for ti in 0..nt {
                movement.extend((0..n).map(|_| (ti, p.forward)));
            }
        }
        for (ri, r) in rules.region_moves.iter().enumerate() {
            for ti in (0..nt).filter(|ti| r.pieces >> ti & 1 != 0) {
                for c in r.cells.iter() {
                    movement[(r.player * nt + ti) * n + c as usize] = (nt + ri, r.forward);
                }
            }
        }
        t.piece_rays = movement
            .iter()
            .enumerate()
            .map(|(i, &(mi, o))| movement_rays[(mi * 4 + o as usize) * n + i % n])
            .collect();

        t.split_activity_rays(&mut sets);

        if rules.paths.active {
            t.path_free = (0..players.len() * nt * n)
                .map(|i| {
                    let (pl, ti, from) = (i / (nt * n), i / n % nt, (i % n) as Cell);
                    g.cells.contains(from) && t.moves_free(g, rules, pl, ti as PieceType, from)
                })
                .collect();
        }

        // Reverse (attack) tables per player.
        for (pl, player) in players.iter().enumerate() {
            let at_cell = |ti: usize, from: Cell| {
                let (mi, o) = movement[(pl * nt + ti) * n + from as usize];
                (movements[mi], o)
            };
            let (at, reach) = t.attack_tables(g, player, pieces, at_cell, &sets)?;
            t.attacks.push(at);
            sets.reach.push(reach);
        }

        // Swap partners per cell.
        if let Some(s) = &rules.swap {
            t.swap_targets = vec![(0, 0); n];
            for c in g.cells.iter() {
                let start = t.cells.len() as u32;
                for &(dx, dy) in &s.vectors {
                    if let Some(to) = g.offset(c, dx, dy) {
                        t.cells.push(to);
                    }
                }
                t.swap_targets[c as usize] = (start, (t.cells.len() as u32 - start) as u8);
            }
        }

        // Zobrist keys, from a fixed seed so keys are stable across runs.
        let mut seed = 0x5155_4144_5249_4C4Cu64;
        t.zobrist_piece = (0..(128 + 1) * n).map(|_| splitmix(&mut seed)).collect();
        t.zobrist_player = std::array::from_fn(|_| splitmix(&mut seed));
        t.zobrist_castling = std::array::from_fn(|_| splitmix(&mut seed));
        t.zobrist_ep = (0..n).map(|_| splitmix(&mut seed)).collect();
        debug_assert!(pieces.len() <= MAX_TYPES);
        t.sets = SetsByWidth::new(sets);
        Ok(t)
    }

    /// Fills `piece_activity` and `activity_rays` from `piece_rays`: a
    /// piece's plain leaps, if it has several, become one set (counted
    /// with a few set operations rather than one ray at a time), its other
    /// rays keep their order.
    fn split_activity_rays(&mut self, sets: &mut CellTables<WIDE>) {
        // Below this many plain leaps, the set operations (and gathering
        // the occupied cells for them) cost more than walking the leaps.
        const MIN_LEAPS: u32 = 4;
        self.piece_activity = Vec::with_capacity(self.piece_rays.len());
        // The cell of a plain leap.
        let plain = |cells: &[Cell], r: &Ray| {
            let plain = r.travel == Travel::Leap && r.lame_len == 0 && r.quiet && r.capture;
            cells[r.start as usize..][..r.len as usize]
                .first()
                .filter(|_| plain)
                .copied()
        };
        for &(b, e) in &self.piece_rays {
            let rays = &self.rays[b as usize..e as usize];
            let mut leaps: CellSet = rays.iter().filter_map(|r| plain(&self.cells, r)).collect();
            if leaps.len() < MIN_LEAPS {
                leaps = CellSet::EMPTY;
            }
            // A second leap to a gathered cell stays a ray, as it counted.
            let mut gathered = CellSet::<WIDE>::EMPTY;
            let start = self.activity_rays.len() as u32;
            for r in rays {
                match plain(&self.cells, r) {
                    Some(to) if leaps.contains(to) && !gathered.contains(to) => gathered.insert(to),
                    _ => self.activity_rays.push(*r),
                }
            }
            let end = self.activity_rays.len() as u32;
            let set = if leaps.is_empty() {
                NO_LEAPS
            } else {
                sets.leap_sets.push(leaps);
                sets.leap_sets.len() as u32 - 1
            };
            self.piece_activity.push((set, start, end));
        }
    }

    /// A piece's plain leaps gathered into a set (its index for
    /// [`CellTables::leaps`], if they are) and its other rays, as `piece_activity`
    /// holds them.
    #[inline]
    pub fn activity_rays(&self, player: usize, ty: u8, cell: Cell) -> (Option<u32>, &[Ray]) {
        let (set, b, e) =
            self.piece_activity[(player * self.ntypes + ty as usize) * self.ncells + cell as usize];
        let leaps = (set != NO_LEAPS).then_some(set);
        (leaps, &self.activity_rays[b as usize..e as usize])
    }

    /// Pushes the rays of `atoms` facing `o` from cell `c`: a leap's single
    /// cell with its lame cells, a slide's or hop's cells to the edge.
    fn push_rays(&mut self, g: &Geometry, atoms: &[Atom], o: Orientation, c: Cell) {
        let n = self.ncells;
        for a in atoms {
            for (k, &v) in a.vectors.iter().enumerate() {
                let vi = self.vector_id(o.rotate(v));
                let (start, full) = self.vector_rays[vi * n + c as usize];
                let (travel, len) = match a.reach {
                    Reach::Leap => (Travel::Leap, full.min(1)),
                    Reach::Ride { max: 0 } => (Travel::Slide, full),
                    Reach::Ride { max } => (Travel::Slide, full.min(max)),
                    Reach::Hop => (Travel::Hop, full),
                };
                if len == 0 {
                    continue;
                }
                // A leap's ray is one jump of the vector: its first cell.
                let lame_start = self.cells.len() as u32;
                let Some(lame) = lame_cells(g, a, k, o, c) else {
                    // A path through a missing cell is blocked.
                    continue;
                };
                self.cells.extend_from_slice(&lame);
                self.rays.push(Ray {
                    start,
                    len,
                    travel,
                    quiet: a.modes.quiet,
                    capture: a.modes.capture,
                    lame_start,
                    lame_len: lame.len() as u8,
                });
            }
        }
    }

    /// The reverse tables of one player: for leaps, per target cell the
    /// cells and types that reach it (from the movement on each cell); for
    /// riders and hoppers, per direction the types that capture along it.
    /// Besides, their reach per cell ([`CellTables::reach`]).
    fn attack_tables<'a>(
        &mut self,
        g: &Geometry,
        player: &Player,
        pieces: &[PieceKind],
        at_cell: impl Fn(usize, Cell) -> (&'a [Atom], Orientation),
        sets: &CellTables<WIDE>,
    ) -> Result<(AttackTables, Vec<[CellSet; 2]>), String> {
        let n = self.ncells;
        let mut leaps_at: Vec<Vec<LeapAttack>> = vec![Vec::new(); n];
        let mut lines: Vec<LineAttack> = Vec::new();
        for (ti, p) in pieces.iter().enumerate() {
            let bit: TypeMask = 1 << ti;
            for from in g.cells.iter() {
                let (atoms, o) = at_cell(ti, from);
                for a in atoms
                    .iter()
                    .filter(|a| a.modes.capture && a.reach == Reach::Leap)
                {
                    for (k, &v) in a.vectors.iter().enumerate() {
                        let (dx, dy) = o.rotate(v);
                        let Some(to) = g.offset(from, dx, dy) else {
                            continue;
                        };
                        let Some(lame) = lame_cells(g, a, k, o, from) else {
                            continue;
                        };
                        let existing = leaps_at[to as usize].iter_mut().find(|e| {
                            e.from == from
                                && e.lame_len as usize == lame.len()
                                && self.cells[e.lame_start as usize..][..lame.len()] == lame[..]
                        });
                        match existing {
                            Some(e) => e.types |= bit,
                            None => {
                                let lame_start = self.cells.len() as u32;
                                self.cells.extend_from_slice(&lame);
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
            // Riders and hoppers move the same from every cell (region
            // moves are leaps only): one entry per direction.
            for a in p.atoms.iter().filter(|a| a.modes.capture) {
                if a.reach == Reach::Leap {
                    continue;
                }
                for &v in &a.vectors {
                    let (dx, dy) = player.forward.rotate(v);
                    let back = self.vector_id((-dx, -dy)) as u16;
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
        let mut at = AttackTables::default();
        for list in leaps_at {
            let s = at.leaps.len() as u32;
            at.leaps.extend(list);
            at.leap_index.push((s, at.leaps.len() as u32));
        }
        // Unlimited sliders first: they are the common case.
        lines.sort_by_key(|l| l.hop != 0);
        at.lame = at.leaps.iter().any(|l| l.lame_len != 0);
        let reach = (0..n)
            .map(|c| {
                let (s, e) = at.leap_index[c];
                let leaps = at.leaps[s as usize..e as usize].iter().map(|l| l.from);
                let lines = lines.iter().map(|l| sets.ray_set(l.vector, c as Cell));
                [
                    leaps.collect(),
                    lines.fold(CellSet::EMPTY, |a, b| a.union(b)),
                ]
            })
            .collect();
        at.lines = lines;
        Ok((at, reach))
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

    /// The rays of a piece of `player` of type `ty` standing on `cell`.
    #[inline]
    pub fn piece_rays(&self, player: usize, ty: u8, cell: Cell) -> &[Ray] {
        let (b, e) =
            self.piece_rays[(player * self.ntypes + ty as usize) * self.ncells + cell as usize];
        &self.rays[b as usize..e as usize]
    }

    /// Are all moves of a piece of `player` of type `ty` on `from` (its
    /// rays, its double step) allowed by the path rules?
    fn moves_free(
        &self,
        g: &Geometry,
        rules: &Rules,
        pl: usize,
        ty: PieceType,
        from: Cell,
    ) -> bool {
        let paths = &rules.paths;
        let rays_free = self.piece_rays(pl, ty, from).iter().all(|ray| {
            let cells = &self.cells[ray.start as usize..][..ray.len as usize];
            let (first, last, slides) = match ray.travel {
                Travel::Leap => (0, 1, false),
                Travel::Slide => (0, cells.len(), true),
                Travel::Hop => (1, cells.len(), true),
            };
            (first..last.min(cells.len())).all(|i| {
                let allows =
                    |capture| paths.allows(pl, ty, from, &cells[..i], cells[i], slides, capture);
                (!ray.quiet || allows(false)) && (!ray.capture || allows(true))
            })
        });
        let double_free = rules.double_step.as_ref().is_none_or(|d| {
            if d.pieces >> ty & 1 == 0 || !d.from[pl].contains(from) {
                return true;
            }
            let (dx, dy) = self.orientation[pl][from as usize].rotate((0, 1));
            let Some(mid) = g.offset(from, dx, dy) else {
                return true;
            };
            g.offset(mid, dx, dy)
                .is_none_or(|to| paths.allows(pl, ty, from, &[mid], to, true, false))
        });
        rays_free && double_free
    }

    /// Does the path-rule test of a piece of `player` of type `ty` on
    /// `cell` always pass ([`Tables::path_free`])?
    #[inline]
    pub fn path_free(&self, player: usize, ty: u8, cell: Cell) -> bool {
        self.path_free[(player * self.ntypes + ty as usize) * self.ncells + cell as usize]
    }

    /// The cells where a swap partner of a piece on `cell` may stand.
    #[inline]
    pub fn swap_targets(&self, cell: Cell) -> &[Cell] {
        let (s, l) = self.swap_targets[cell as usize];
        &self.cells[s as usize..][..l as usize]
    }
}

/// The cells a lame leap (vector `k` of atom `a`, facing `o`, from `c`)
/// must find empty: none for a plain leap, `None` if one is off the board.
fn lame_cells(g: &Geometry, a: &Atom, k: usize, o: Orientation, c: Cell) -> Option<Vec<Cell>> {
    let Some(paths) = &a.lame else {
        return Some(Vec::new());
    };
    paths[k]
        .iter()
        .map(|&lv| {
            let (lx, ly) = o.rotate(lv);
            g.offset(c, lx, ly)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::geometry::WIDE;
    use crate::variant::embedded;
    use std::sync::Arc;

    /// Ariana: camps joined only by slides over the centre, Pawns that may
    /// not capture into a neighbour's camp.
    #[test]
    fn path_free_marks_exactly_the_pieces_no_path_rule_can_stop() {
        let v = embedded::variant("ariana").unwrap();
        let (t, g) = (&v.tables, &v.geometry);
        let cell = |s| g.parse_cell(s).unwrap();
        let ty = |l| v.pieces.iter().position(|p| p.letter == l).unwrap() as u8;
        let red = 0;
        // A King in the middle of Red's camp reaches only Red's camp and
        // the centre; on d3 it could step into Blue's camp (c4).
        assert!(t.path_free(red, ty('K'), cell("e2")));
        assert!(!t.path_free(red, ty('K'), cell("d3")));
        // A Pawn on e3 captures into the centre only; on d3 into c4 too.
        assert!(t.path_free(red, ty('P'), cell("e3")));
        assert!(!t.path_free(red, ty('P'), cell("d3")));
        // A Bishop's diagonals from e2 lead out of the camp, then on into
        // the side camps without crossing the centre (d3-c4).
        assert!(!t.path_free(red, ty('B'), cell("e2")));
    }

    /// Each width's sets are made once, shared by every position of that
    /// width, and hold the same cells as the widest (which are the built
    /// ones).
    #[test]
    fn sets_are_made_once_per_width() {
        let v = embedded::variant("magna-carta").unwrap();
        let sets = &v.tables.sets;
        let one = sets.at_width::<1>();
        assert!(Arc::ptr_eq(&one, &sets.at_width::<1>()));
        assert!(Arc::ptr_eq(&sets.wide, &sets.at_width::<WIDE>()));
        assert_eq!(one.ray_set(0, 9).to_width(), *sets.wide.ray_set(0, 9));
        for c in v.geometry.cells.iter() {
            for p in 0..2 {
                let narrowed = one.reach(p, c).each_ref().map(|s| s.to_width());
                assert_eq!(&narrowed, sets.wide.reach(p, c));
            }
        }
        for (i, leaps) in sets.wide.leap_sets.iter().enumerate() {
            assert_eq!(one.leaps(i as u32).to_width(), *leaps);
        }
    }

    /// The reach sets hold every cell an attack may come from.
    #[test]
    fn reach_covers_every_leap_and_line() {
        for name in ["chess", "ariana", "yang-aikou", "avon"] {
            let v = embedded::variant(name).unwrap();
            let t = &v.tables;
            let sets = t.sets.at_width::<WIDE>();
            for (p, at) in t.attacks.iter().enumerate() {
                for c in v.geometry.cells.iter() {
                    let [leaps, lines] = sets.reach(p, c);
                    let (s, e) = at.leap_index[c as usize];
                    for la in &at.leaps[s as usize..e as usize] {
                        assert!(leaps.contains(la.from), "{name}: leap from {}", la.from);
                    }
                    for l in &at.lines {
                        for &r in t.ray(l.vector, c) {
                            assert!(lines.contains(r), "{name}: line cell {r}");
                        }
                    }
                }
            }
        }
    }
}
