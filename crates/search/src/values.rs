//! What the evaluation knows about a variant, derived once from its file:
//! piece values from mobility, piece-square tables (centralisation and the
//! road to promotion), which player moves an army's pieces on each cell,
//! and the royal types.

use crate::weights::{Weights, MOBILITY_BUCKETS, THREAT_KINDS};
use quadrille_engine::variant::PieceType;
use quadrille_engine::{Cell, CellSet, RayKind, Variant};
use std::collections::VecDeque;

/// The chance that a cell is occupied, for derived values: roughly a
/// middle game (the empty board overrates long-range pieces).
pub const DENSITY: f64 = 0.3;
/// Centipawns per expected move of a piece: sets the unit (a chess Knight
/// comes out near 315, a Pawn near 70).
pub const VALUE_PER_MOVE: f64 = 60.0;
/// How much of a piece's value its cell's mobility moves it up or down.
const CENTRE_WEIGHT: f64 = 0.15;
/// Share of the promotion gain a piece one move from promoting is worth.
const PROMOTION_WEIGHT: f64 = 0.8;

/// Derived knowledge about one variant.
#[derive(Clone, Debug)]
pub struct Knowledge {
    pub ncells: usize,
    pub ntypes: usize,
    /// Per piece type, centipawns: the variant file's `value`, or derived.
    pub value: Vec<i32>,
    /// Per piece type: was the value derived (not given in the file)?
    pub derived: Vec<bool>,
    /// Per piece type, sixteenths of a centipawn per move: the weights'
    /// `mobility` plus its `mobility_share` spread over the type's usual
    /// number of moves.
    pub mobility_weight: Vec<i32>,
    /// `[(player * ntypes + type) * ncells + cell]`: centralisation bonus.
    centre: Vec<i16>,
    /// Same index: bonus for being close to promotion.
    promotion: Vec<i16>,
    /// Same index: how much the royal pieces' distances to a passed pawn
    /// there count (Stockfish's rank weight `5 * rank - 13`, by the moves
    /// left to promote: 17 one move away, 12, 7, 2, then none).
    race: Vec<i8>,
    /// The learnt tables, a middle- and an end-game bonus per feature:
    /// piece-square entries ([`Knowledge::table_index`]), then mobility
    /// ([`Knowledge::mobility_feature`]), then threats
    /// ([`Knowledge::threat_feature`]). Empty when the weights have none.
    learnt: Vec<[i16; 2]>,
    /// Does `learnt` hold piece-square entries, mobility or threats?
    has_pst: bool,
    has_activity: bool,
    nplayers: usize,
    /// `[army * ncells + cell]`: whose forward applies to the army's piece
    /// there (the player of that army whose home holds the cell).
    owner: Vec<u8>,
    /// Per cell: the cells one king step away.
    pub neighbours: Vec<CellSet>,
    /// Per cell: the cells two king steps away (and not one).
    pub second_ring: Vec<CellSet>,
    /// `[player * ncells + cell]`: the cells in front of a royal piece
    /// there, where a hostile pawn storms it: the span of the variant's
    /// first pawn type from the cell, moved by the player (see
    /// `passed_span`), within three king steps, and within two.
    pub front: Vec<[CellSet; 2]>,
    /// Per army: types that are royal (must be retained, or must stay home).
    pub royal_types: Vec<u32>,
    /// Types that promote (their value grows on the way) or are pawns.
    pub pawn_types: u32,
    /// Types (neither pawns nor royal) that never leave the colour of
    /// their cell, as a Bishop: a pair on both colours covers the board.
    pub colour_bound: u32,
    /// The cells of one colour (file plus rank even).
    pub light: CellSet,
    /// Types (neither pawns nor royal) that slide along a file, as a Rook.
    pub file_riders: u32,
    /// `[player * ncells + cell]`: the file through the cell, moved by the
    /// player (see [`files`]).
    file: Vec<CellSet>,
    /// `[player * ncells + cell]`: the files beside the cell's (those
    /// through the cells a pawn of the variant's first pawn type there
    /// attacks), moved by the player: no pawn of its army there, the pawn
    /// on the cell is isolated.
    beside: Vec<CellSet>,
    /// `[player * ncells + cell]`: the cells next to the cell on the files
    /// beside its own and neither ahead of it nor behind (by the first
    /// pawn type's attacks), moved by the player: a pawn of its army there
    /// makes a phalanx.
    level: Vec<CellSet>,
    /// Per pawn type: its slot in `passed_span` (`u8::MAX` for others).
    pawn_slot: Vec<u8>,
    /// How many types are pawn types.
    pawn_kinds: usize,
    /// `[(player * pawn kinds + slot) * ncells + cell]`: the cells where a
    /// hostile pawn would stop this pawn's road to promotion (it stands on
    /// the road or attacks the road or the pawn). No hostile pawn there:
    /// the pawn is passed.
    passed_span: Vec<CellSet>,
    /// Same index: the cells the pawn attacks (on an empty board: pawns
    /// leap, so the board changes nothing).
    pawn_attacks: Vec<CellSet>,
    /// Per type: its share of the weights' `outpost` in halves, 2 for a
    /// minor piece that only leaps (a Knight), 1 for one that slides (a
    /// Bishop), 0 for the others (pawns, royal types, and types worth more
    /// than five and a half of the first pawn type).
    pub outpost_share: Vec<u8>,
    /// `[player * ncells + cell]`: where a hostile pawn could one day
    /// attack a piece on the cell (the span of the variant's first pawn
    /// type from it, its own file aside); `None` where the cell is no
    /// outpost (not two to four pawn moves from promoting).
    outpost: Vec<Option<CellSet>>,
}

impl Knowledge {
    /// With the derived values (and the file's `value`s).
    pub fn new(v: &Variant) -> Knowledge {
        Knowledge::with_weights(v, &Weights::default())
    }

    /// With `w`'s values where it gives them, and its scales for the
    /// centralisation and promotion tables.
    pub fn with_weights(v: &Variant, w: &Weights) -> Knowledge {
        let ncells = v.geometry.size();
        let ntypes = v.pieces.len();
        let nplayers = v.players.len();
        let mobility: Vec<f64> = (0..ntypes)
            .map(|t| v.mobility(t as PieceType, DENSITY))
            .collect();
        let value: Vec<i32> = v
            .pieces
            .iter()
            .zip(&mobility)
            .map(|(p, m)| {
                w.value(p.letter)
                    .or(p.value)
                    .unwrap_or((m * VALUE_PER_MOVE).round() as i32)
            })
            .collect();
        let derived = v
            .pieces
            .iter()
            .map(|p| p.value.is_none() && w.value(p.letter).is_none())
            .collect();
        let mobility_weight = mobility
            .iter()
            .map(|&m| {
                let share = if m > 0.0 {
                    w.mobility_share as f64 / m
                } else {
                    0.0
                };
                ((w.mobility as f64 + share) * 16.0).round() as i32
            })
            .collect();
        let centre_weight = CENTRE_WEIGHT * w.centre as f64 / 100.0;
        let promotion_weight = PROMOTION_WEIGHT * w.promotion as f64 / 100.0;
        let promoting = v.rules.promotion.as_ref().map_or(0, |p| p.pieces);
        let pawn_types = v
            .pieces
            .iter()
            .enumerate()
            .filter(|(t, p)| p.pawn || promoting >> t & 1 != 0)
            .fold(0, |m, (t, _)| m | 1 << t);

        let mut centre = vec![0i16; nplayers * ntypes * ncells];
        for p in 0..nplayers {
            for t in 0..ntypes {
                if mobility[t] <= 0.0 {
                    continue;
                }
                for c in v.geometry.cells.iter() {
                    let m = v.cell_mobility(t as PieceType, p, c, DENSITY);
                    let bonus = value[t] as f64 * centre_weight * (m / mobility[t] - 1.0);
                    let cap = value[t] as f64 / 4.0;
                    centre[(p * ntypes + t) * ncells + c as usize] =
                        bonus.clamp(-cap, cap).round() as i16;
                }
            }
        }

        let mut promotion = vec![0i16; nplayers * ntypes * ncells];
        let mut race = vec![0i8; nplayers * ntypes * ncells];
        if let Some(rule) = &v.rules.promotion {
            for p in 0..nplayers {
                let gain_to = promotion_target(v, &value, p);
                for t in (0..ntypes).filter(|t| rule.pieces >> t & 1 != 0) {
                    let gain = (gain_to - value[t]).max(0) as f64;
                    let steps = steps_to(v, t as PieceType, p, &rule.any_zone[p]);
                    for (c, d) in steps.iter().enumerate() {
                        if let Some(d) = d {
                            let bonus = gain * promotion_weight / ((d + 1) * (d + 1)) as f64;
                            promotion[(p * ntypes + t) * ncells + c] = bonus.round() as i16;
                            race[(p * ntypes + t) * ncells + c] = (22 - 5 * *d as i32).max(0) as i8;
                        }
                    }
                }
            }
        }

        let owner = (0..v.armies.len())
            .flat_map(|a| {
                let players: Vec<usize> = (0..nplayers)
                    .filter(|&p| v.players[p].army as usize == a)
                    .collect();
                (0..ncells).map(move |c| {
                    players
                        .iter()
                        .copied()
                        .find(|&p| v.players[p].home.contains(c as Cell))
                        .or(players.first().copied())
                        .unwrap_or(0) as u8
                })
            })
            .collect();

        let g = &v.geometry;
        let neighbours: Vec<CellSet> = (0..ncells)
            .map(|c| {
                let mut set = CellSet::EMPTY;
                for (dx, dy) in KING_STEPS {
                    if let Some(n) = g.offset(c as Cell, dx, dy) {
                        set.insert(n);
                    }
                }
                set
            })
            .collect();
        let second_ring = (0..ncells)
            .map(|c| {
                (0..ncells)
                    .filter(|&b| g.king_steps(c as Cell, b as Cell) == 2)
                    .map(|b| b as Cell)
                    .collect()
            })
            .collect();
        let presence = v.rules.royal_presence.unwrap_or(0);
        let royal_types: Vec<u32> = (0..v.armies.len())
            .map(|a| v.rules.royal.as_ref().map_or(0, |r| r.must_retain[a]) | presence)
            .collect();
        let (pawn_slot, passed_span, pawn_attacks) = passed_spans(v, pawn_types);
        // Pawns and royal types: no Bishop pair, no Rook on a file.
        let pawn_or_royal = royal_types.iter().fold(pawn_types, |m, r| m | r);
        let (colour_bound, light) = colour_bound_types(v, pawn_or_royal);
        let (file, file_riders) = files(v, pawn_types, pawn_or_royal);
        let pawn_kinds = pawn_types.count_ones() as usize;
        let beside = files_beside(nplayers, ncells, pawn_kinds, &file, &pawn_attacks);
        let level = cells_level(ncells, pawn_kinds, &beside, &neighbours, &pawn_attacks);
        let front = (0..nplayers * ncells)
            .map(|i| {
                let (p, c) = (i / ncells, i % ncells);
                let mut sets = [CellSet::EMPTY, CellSet::EMPTY];
                if pawn_kinds == 0 {
                    return sets;
                }
                // Slot 0: the variant's first pawn type.
                for b in passed_span[p * pawn_kinds * ncells + c].iter() {
                    let d = g.king_steps(c as Cell, b);
                    for (set, reach) in sets.iter_mut().zip([3, 2]) {
                        if d <= reach {
                            set.insert(b);
                        }
                    }
                }
                sets
            })
            .collect();
        let (outpost_share, outpost) =
            outposts(v, &value, pawn_or_royal, (pawn_types, &passed_span), &file);
        let mut k = Knowledge {
            ncells,
            ntypes,
            value,
            derived,
            mobility_weight,
            centre,
            promotion,
            race,
            learnt: Vec::new(),
            has_pst: !w.pst.is_empty(),
            has_activity: !w.mobility_tables.is_empty() || !w.threats.is_empty(),
            nplayers,
            owner,
            neighbours,
            second_ring,
            front,
            royal_types,
            pawn_types,
            colour_bound,
            light,
            file_riders,
            file,
            beside,
            level,
            pawn_kinds,
            pawn_slot,
            passed_span,
            pawn_attacks,
            outpost_share,
            outpost,
        };
        k.learnt = learnt_tables(v, &k, w);
        k
    }

    /// The file through `cell`, moved by `player` (see [`files`]).
    #[inline]
    pub fn file(&self, player: usize, cell: Cell) -> &CellSet {
        &self.file[player * self.ncells + cell as usize]
    }

    /// The files beside the one through `cell`, moved by `player`: no pawn
    /// of its army there, a pawn on `cell` is isolated.
    #[inline]
    pub fn beside(&self, player: usize, cell: Cell) -> &CellSet {
        &self.beside[player * self.ncells + cell as usize]
    }

    /// The cells level with `cell` on the files beside its own, moved by
    /// `player`: a pawn of its army there makes a phalanx with one on
    /// `cell`.
    #[inline]
    pub fn level(&self, player: usize, cell: Cell) -> &CellSet {
        &self.level[player * self.ncells + cell as usize]
    }

    /// The cells where a hostile pawn stops the pawn of type `kind` on
    /// `cell`, moved by `player` (see `passed_span`).
    #[inline]
    pub fn passed_span(&self, player: usize, kind: PieceType, cell: Cell) -> &CellSet {
        let slot = self.pawn_slot[kind as usize] as usize;
        &self.passed_span[(player * self.pawn_kinds + slot) * self.ncells + cell as usize]
    }

    /// The cells the pawn of type `kind` on `cell` attacks, moved by
    /// `player`.
    #[inline]
    pub fn pawn_attacks(&self, player: usize, kind: PieceType, cell: Cell) -> &CellSet {
        let slot = self.pawn_slot[kind as usize] as usize;
        &self.pawn_attacks[(player * self.pawn_kinds + slot) * self.ncells + cell as usize]
    }

    /// The player whose forward applies to `army`'s piece on `cell`.
    #[inline]
    pub fn owner(&self, army: u8, cell: Cell) -> usize {
        self.owner[army as usize * self.ncells + cell as usize] as usize
    }

    /// Centralisation bonus of a piece type on a cell, moved by `player`.
    #[inline]
    pub fn centre(&self, player: usize, kind: PieceType, cell: Cell) -> i32 {
        self.centre[self.table_index(player, kind, cell)] as i32
    }

    /// Are there learnt piece-square tables?
    #[inline]
    pub fn has_pst(&self) -> bool {
        self.has_pst
    }

    /// Are there learnt mobility or threat tables (the evaluation then
    /// walks every piece's attacks, royal pieces' too)?
    #[inline]
    pub fn has_activity(&self) -> bool {
        self.has_activity
    }

    /// How many learnt features there are: piece-square entries, mobility
    /// entries and threats.
    pub fn features(&self) -> usize {
        self.threats_start() + self.ntypes * self.ntypes * THREAT_KINDS
    }

    /// How many piece-square entries there are (every player, type and
    /// cell): the first features, before mobility and threats.
    #[inline]
    pub fn pst_entries(&self) -> usize {
        self.nplayers * self.ntypes * self.ncells
    }

    /// Where mobility and threats start among the features.
    #[inline]
    fn mobility_start(&self) -> usize {
        self.pst_entries()
    }

    #[inline]
    fn threats_start(&self) -> usize {
        self.mobility_start() + self.ntypes * MOBILITY_BUCKETS
    }

    /// The learnt feature of a piece type with `moves` moves.
    #[inline]
    pub fn mobility_feature(&self, kind: PieceType, moves: u32) -> usize {
        self.mobility_start()
            + kind as usize * MOBILITY_BUCKETS
            + (moves as usize).min(MOBILITY_BUCKETS - 1)
    }

    /// The kind of a threat, as the weights file orders them: the
    /// attacker's side waiting (0, 1) or to move (2, 3), the victim
    /// undefended (0, 2) or defended (1, 3).
    #[inline]
    pub fn threat_kind(mover: bool, defended: bool) -> usize {
        2 * mover as usize + defended as usize
    }

    /// The learnt feature of a piece of type `attacker` attacking one of
    /// type `victim`, of kind `kind` ([`Knowledge::threat_kind`]).
    #[inline]
    pub fn threat_feature(&self, attacker: PieceType, victim: PieceType, kind: usize) -> usize {
        self.threats_start()
            + (attacker as usize * self.ntypes + victim as usize) * THREAT_KINDS
            + kind
    }

    /// The learnt middle- and end-game bonus of a feature (only when the
    /// weights have tables).
    #[inline]
    pub fn learnt(&self, feature: usize) -> [i16; 2] {
        self.learnt[feature]
    }

    /// The index of a piece type on a cell, moved by `player`, in the
    /// per-player tables (centre, promotion, learnt).
    #[inline]
    pub fn table_index(&self, player: usize, kind: PieceType, cell: Cell) -> usize {
        (player * self.ntypes + kind as usize) * self.ncells + cell as usize
    }

    /// The learnt middle- and end-game bonus of a piece type on a cell,
    /// moved by `player` (only when [`Knowledge::has_pst`]).
    #[inline]
    pub fn pst(&self, player: usize, kind: PieceType, cell: Cell) -> [i16; 2] {
        self.learnt[self.table_index(player, kind, cell)]
    }

    /// Bonus of a promoting piece on a cell, moved by `player`.
    #[inline]
    pub fn promotion(&self, player: usize, kind: PieceType, cell: Cell) -> i32 {
        self.promotion[self.table_index(player, kind, cell)] as i32
    }

    /// Where a hostile pawn could one day attack a piece on `cell`, moved
    /// by `player`; `None` where the cell is no outpost.
    #[inline]
    pub fn outpost(&self, player: usize, cell: Cell) -> Option<&CellSet> {
        self.outpost[player * self.ncells + cell as usize].as_ref()
    }

    /// How much the royal race to a passed pawn of type `kind` on `cell`,
    /// moved by `player`, counts (0: too far from promoting).
    #[inline]
    pub fn race(&self, player: usize, kind: PieceType, cell: Cell) -> i32 {
        self.race[self.table_index(player, kind, cell)] as i32
    }
}

/// The types other than `skip` whose every move ray, for every player
/// and from every cell, keeps to the colour of its cell (and that move at
/// all), and the cells of one colour.
fn colour_bound_types(v: &Variant, skip: u32) -> (u32, CellSet) {
    let g = &v.geometry;
    let colour = |c: Cell| (g.file_of(c) + g.rank_of(c)) % 2;
    let mut light = CellSet::EMPTY;
    for c in g.cells.iter().filter(|&c| colour(c) == 0) {
        light.insert(c);
    }
    let bound = (0..v.pieces.len())
        .filter(|t| skip >> t & 1 == 0)
        .filter(|&t| {
            let mut moves = false;
            let keeps = (0..v.players.len()).all(|p| {
                g.cells.iter().all(|c| {
                    v.rays(t as PieceType, p, c).all(|r| {
                        moves |= !r.cells.is_empty();
                        r.cells.iter().all(|&to| colour(to) == colour(c))
                    })
                })
            });
            keeps && moves
        })
        .fold(0, |m, t| m | 1 << t);
    (bound, light)
}

/// The cells where a pawn of player `p` can promote (none without promotion).
fn promotion_zone(v: &Variant, p: usize) -> CellSet {
    v.rules
        .promotion
        .as_ref()
        .map_or(CellSet::EMPTY, |r| r.any_zone[p])
}

/// Per player and cell, the file through the cell: the cell, the road of
/// the variant's first pawn type from it, and the cells from whose road it
/// is (all empty without pawns); and the types, none in `skip`, with a
/// slide of two cells or more along a file and none along a diagonal (a
/// Rook, not a Queen: Stockfish gives a Queen nothing on an open file).
fn files(v: &Variant, pawn_types: u32, skip: u32) -> (Vec<CellSet>, u32) {
    let n = v.geometry.size();
    let mut file = vec![CellSet::EMPTY; v.players.len() * n];
    let Some(pawn) = (0..v.pieces.len()).find(|t| pawn_types >> t & 1 != 0) else {
        return (file, 0);
    };
    for p in 0..v.players.len() {
        let zone = promotion_zone(v, p);
        for c in v.geometry.cells.iter() {
            file[p * n + c as usize].insert(c);
            for x in road(v, pawn as PieceType, p, c, &zone).iter() {
                file[p * n + c as usize].insert(x);
                file[p * n + x as usize].insert(c);
            }
        }
    }
    let g = &v.geometry;
    // A slide from `c` of two cells or more, all of them in `line`.
    let slides_on = |t: usize, p: usize, c: Cell, line: &dyn Fn(Cell) -> bool| {
        v.rays(t as PieceType, p, c).any(|r| {
            r.kind == RayKind::Slide && r.cells.len() >= 2 && r.cells.iter().all(|&x| line(x))
        })
    };
    // `x` lies on a diagonal through `c`: as many files away as ranks.
    let diagonal = |c: Cell, x: Cell| {
        let files = g.file_of(x).abs_diff(g.file_of(c));
        files != 0 && files == g.rank_of(x).abs_diff(g.rank_of(c))
    };
    let riders = (0..v.pieces.len())
        .filter(|t| skip >> t & 1 == 0)
        .filter(|&t| {
            (0..v.players.len()).any(|p| {
                g.cells.iter().any(|c| {
                    let line = &file[p * n + c as usize];
                    slides_on(t, p, c, &|x| line.contains(x))
                })
            })
        })
        .filter(|&t| {
            (0..v.players.len()).all(|p| {
                g.cells
                    .iter()
                    .all(|c| !slides_on(t, p, c, &|x| diagonal(c, x)))
            })
        })
        .fold(0, |m, t| m | 1 << t);
    (file, riders)
}

/// Per player and cell, the files beside the cell's
/// ([`Knowledge::beside`]): the `file`s through the cells the variant's
/// first pawn type (slot 0 of `pawn_attacks`) attacks from the cell, less
/// the cell's own file (all empty without pawns).
fn files_beside(
    nplayers: usize,
    ncells: usize,
    pawn_kinds: usize,
    file: &[CellSet],
    pawn_attacks: &[CellSet],
) -> Vec<CellSet> {
    let mut beside = vec![CellSet::EMPTY; nplayers * ncells];
    if pawn_kinds == 0 {
        return beside;
    }
    for p in 0..nplayers {
        for c in 0..ncells {
            let set = &mut beside[p * ncells + c];
            for x in pawn_attacks[p * pawn_kinds * ncells + c].iter() {
                *set = set.union(&file[p * ncells + x as usize]);
            }
            *set = set.difference(&file[p * ncells + c]);
        }
    }
    beside
}

/// Per player and cell, the cells level with it ([`Knowledge::level`]):
/// its `neighbours` on the files `beside` its own, less those the first
/// pawn type attacks from the cell (ahead of it) and those it attacks the
/// cell from (behind it). (Not by `passed_span`: with four players it
/// holds the cells level with a pawn too, where a sideways-moving hostile
/// pawn would attack its road.)
fn cells_level(
    ncells: usize,
    pawn_kinds: usize,
    beside: &[CellSet],
    neighbours: &[CellSet],
    pawn_attacks: &[CellSet],
) -> Vec<CellSet> {
    if pawn_kinds == 0 {
        return vec![CellSet::EMPTY; beside.len()];
    }
    let attacks = |p: usize, c: usize| &pawn_attacks[p * pawn_kinds * ncells + c];
    (0..beside.len())
        .map(|i| {
            let (p, c) = (i / ncells, i % ncells);
            neighbours[c]
                .intersection(&beside[i])
                .difference(attacks(p, c))
                .iter()
                .filter(|&x| !attacks(p, x as usize).contains(c as Cell))
                .collect()
        })
        .collect()
}

/// Stockfish's outposts made generic: each type's share of the bonus
/// ([`Knowledge::outpost_share`]), and per player and cell the span
/// hostile pawns must leave empty ([`Knowledge::outpost`]), from the
/// variant's first pawn type (`pawns`: the pawn types and their
/// `passed_span`s) and the `files`. Nothing without pawns.
fn outposts(
    v: &Variant,
    value: &[i32],
    skip: u32,
    (pawn_types, passed_span): (u32, &[CellSet]),
    file: &[CellSet],
) -> (Vec<u8>, Vec<Option<CellSet>>) {
    let n = v.geometry.size();
    let mut spans = vec![None; v.players.len() * n];
    let Some(pawn) = (0..v.pieces.len()).find(|t| pawn_types >> t & 1 != 0) else {
        return (vec![0; v.pieces.len()], spans);
    };
    let kinds = pawn_types.count_ones() as usize;
    for p in 0..v.players.len() {
        let steps = steps_to(v, pawn as PieceType, p, &promotion_zone(v, p));
        for c in v.geometry.cells.iter() {
            if steps[c as usize].is_some_and(|d| (2..=4).contains(&d)) {
                // Slot 0 of `passed_span`: the first pawn type.
                let span = &passed_span[p * kinds * n + c as usize];
                spans[p * n + c as usize] = Some(span.difference(&file[p * n + c as usize]));
            }
        }
    }
    let others = || (0..v.pieces.len()).filter(|t| skip >> t & 1 == 0);
    let slides = |t: usize| {
        (0..v.players.len()).any(|p| {
            v.geometry.cells.iter().any(|c| {
                v.rays(t as PieceType, p, c)
                    .any(|r| r.kind == RayKind::Slide && r.cells.len() >= 2)
            })
        })
    };
    let mut share = vec![0; v.pieces.len()];
    for t in others().filter(|&t| 2 * value[t] <= 11 * value[pawn]) {
        share[t] = if slides(t) { 1 } else { 2 };
    }
    (share, spans)
}

/// The weights' learnt tables laid out as [`Knowledge::learnt`] reads
/// them (empty when there are none; entries that do not fit the variant
/// are left out).
fn learnt_tables(v: &Variant, k: &Knowledge, w: &Weights) -> Vec<[i16; 2]> {
    if !k.has_pst && !k.has_activity {
        return Vec::new();
    }
    let mut learnt = vec![[0i16; 2]; k.features()];
    let clamp = |x: i32| x.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
    // A table of `n` entries per phase: entry i goes to feature `at(i)`.
    let mut lay = |table: &[i32], n: usize, at: &dyn Fn(usize) -> usize| {
        if table.len() == 2 * n {
            for i in 0..n {
                learnt[at(i)] = [clamp(table[i]), clamp(table[n + i])];
            }
        }
    };
    let piece = |c: char| v.piece_by_letter(c);
    for (key, table) in &w.pst {
        if let Some((t, player)) = Weights::pst_key(key)
            .and_then(|(c, p)| Some((piece(c)?, p)))
            .filter(|&(_, p)| p < k.nplayers)
        {
            lay(table, k.ncells, &|c| k.table_index(player, t, c as Cell));
        }
    }
    for (key, table) in &w.mobility_tables {
        if let Some(t) = Weights::letter(key).and_then(piece) {
            lay(table, MOBILITY_BUCKETS, &|m| {
                k.mobility_feature(t, m as u32)
            });
        }
    }
    for (key, table) in &w.threats {
        if let Some((a, b)) =
            Weights::threat_key(key).and_then(|(a, b)| Some((piece(a)?, piece(b)?)))
        {
            lay(table, THREAT_KINDS, &|i| k.threat_feature(a, b, i));
        }
    }
    learnt
}

const KING_STEPS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// The value a promoting piece of `player` can hope to become: the best of
/// the fixed choices, or, under liberation, the average type it may regain.
fn promotion_target(v: &Variant, value: &[i32], player: usize) -> i32 {
    let Some(rule) = &v.rules.promotion else {
        return 0;
    };
    let best_choice = rule.choices[player]
        .iter()
        .map(|&t| value[t as usize])
        .max()
        .unwrap_or(0);
    if !rule.liberate {
        return best_choice;
    }
    let army = v.players[player].army as usize;
    let freed: Vec<i32> = (0..v.pieces.len())
        .filter(|&t| {
            v.initial_counts[army][t] > 0 && (rule.liberate_exclude | rule.pieces) >> t & 1 == 0
        })
        .map(|t| value[t])
        .collect();
    let average = freed.iter().sum::<i32>() / freed.len().max(1) as i32;
    best_choice.max(average)
}

/// Per type, its pawn slot; and per player, pawn type (by slot) and cell,
/// the cells where a hostile pawn stops it ([`Knowledge::passed_span`])
/// and the cells it attacks.
fn passed_spans(v: &Variant, pawn_types: u32) -> (Vec<u8>, Vec<CellSet>, Vec<CellSet>) {
    let n = v.geometry.size();
    let kinds: Vec<PieceType> = (0..v.pieces.len() as PieceType)
        .filter(|t| pawn_types >> t & 1 != 0)
        .collect();
    let mut slot = vec![u8::MAX; v.pieces.len()];
    for (i, &t) in kinds.iter().enumerate() {
        slot[t as usize] = i as u8;
    }
    // What each pawn type attacks from each cell, moved by each player
    // (`[(player * kinds + slot) * n + cell]`, as in `Knowledge`).
    let index = |p: usize, i: usize, c: Cell| (p * kinds.len() + i) * n + c as usize;
    let mut attacks = vec![CellSet::EMPTY; v.players.len() * kinds.len() * n];
    for p in 0..v.players.len() {
        for (i, &t) in kinds.iter().enumerate() {
            for c in v.geometry.cells.iter() {
                let set = &mut attacks[index(p, i, c)];
                for r in v.rays(t, p, c).filter(|r| r.capture) {
                    let reach = match r.kind {
                        RayKind::Leap => &r.cells[..1.min(r.cells.len())],
                        RayKind::Slide => r.cells,
                        RayKind::Hop => r.cells.get(1..).unwrap_or(&[]),
                    };
                    reach.iter().for_each(|&x| set.insert(x));
                }
            }
        }
    }
    // The cells from which a pawn of one of the `hostile` players attacks
    // one of the `guarded` cells.
    let stoppers = |hostile: u8, guarded: &CellSet| {
        let mut set = CellSet::EMPTY;
        for q in (0..v.players.len()).filter(|q| hostile >> q & 1 != 0) {
            for (u, x) in
                (0..kinds.len()).flat_map(|u| v.geometry.cells.iter().map(move |x| (u, x)))
            {
                if !attacks[index(q, u, x)].intersection(guarded).is_empty() {
                    set.insert(x);
                }
            }
        }
        set
    };
    let mut spans = vec![CellSet::EMPTY; attacks.len()];
    for p in 0..v.players.len() {
        let zone = promotion_zone(v, p);
        let hostile = v.hostile_players[v.players[p].army as usize];
        for (i, &t) in kinds.iter().enumerate() {
            for c in v.geometry.cells.iter() {
                let road = road(v, t, p, c, &zone);
                let guarded = road.union(&CellSet::single(c));
                spans[index(p, i, c)] = road.union(&stoppers(hostile, &guarded));
            }
        }
    }
    (slot, spans, attacks)
}

/// The cells a piece reaches from `cell` by its moves that do not capture,
/// one after another on an empty board, stopping in `zone` (where it
/// promotes).
fn road(v: &Variant, kind: PieceType, player: usize, cell: Cell, zone: &CellSet) -> CellSet {
    let mut seen = CellSet::EMPTY;
    let mut queue = vec![cell];
    while let Some(c) = queue.pop() {
        if c != cell && zone.contains(c) {
            continue;
        }
        for r in v.rays(kind, player, c).filter(|r| r.quiet) {
            let reach: &[Cell] = match r.kind {
                RayKind::Leap => &r.cells[..1.min(r.cells.len())],
                RayKind::Slide => r.cells,
                RayKind::Hop => &[],
            };
            for &x in reach {
                if x != cell && !seen.contains(x) {
                    seen.insert(x);
                    queue.push(x);
                }
            }
        }
    }
    seen
}

/// Per cell: the fewest moves (at least one) a piece of this type, moved by
/// `player` on an empty board, needs to land in `zone`; `None` if it never
/// can.
fn steps_to(v: &Variant, kind: PieceType, player: usize, zone: &CellSet) -> Vec<Option<u32>> {
    let n = v.geometry.size();
    // Reverse edges: who reaches whom in one move.
    let mut from: Vec<Vec<Cell>> = vec![Vec::new(); n];
    for c in v.geometry.cells.iter() {
        for r in v.rays(kind, player, c) {
            let targets: &[Cell] = match r.kind {
                RayKind::Leap => &r.cells[..1.min(r.cells.len())],
                RayKind::Slide => r.cells,
                RayKind::Hop => r.cells.get(1..).unwrap_or(&[]),
            };
            for &to in targets {
                from[to as usize].push(c);
            }
        }
    }
    let mut steps = vec![None; n];
    let mut queue = VecDeque::new();
    for z in zone.iter() {
        for &c in &from[z as usize] {
            if steps[c as usize].is_none() {
                steps[c as usize] = Some(1);
                queue.push_back(c);
            }
        }
    }
    while let Some(c) = queue.pop_front() {
        let d = steps[c as usize].unwrap_or(0);
        for &p in &from[c as usize] {
            if steps[p as usize].is_none() {
                steps[p as usize] = Some(d + 1);
                queue.push_back(p);
            }
        }
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;
    use quadrille_engine::embedded;

    fn values(name: &str) -> (std::sync::Arc<Variant>, Knowledge) {
        let v = embedded::variant(name).unwrap();
        let k = Knowledge::new(&v);
        (v, k)
    }

    #[test]
    fn minor_pieces_share_an_outpost_by_how_they_move() {
        // Derived values and the shipped weights' alike: a Knight whole,
        // a Bishop half, a Rook, Queen, King or Pawn nothing.
        let v = embedded::variant("chess").unwrap();
        for k in [
            Knowledge::new(&v),
            Knowledge::with_weights(&v, &Weights::for_variant(&v)),
        ] {
            let share = |l| k.outpost_share[v.piece_by_letter(l).unwrap() as usize];
            let shares: Vec<u8> = "NBRQKP".chars().map(share).collect();
            assert_eq!(shares, [2, 1, 0, 0, 0, 0], "{:?}", k.value);
        }
        // A White piece on d4, d5, d6 may stand on an outpost, not on d3
        // or d7; on d5 hostile pawns on c6, c7, e6, e7 could attack it.
        let (v, k) = values("chess");
        let cell = |name: &str| v.geometry.parse_cell(name).unwrap();
        for (name, outpost) in [("d3", false), ("d4", true), ("d6", true), ("d7", false)] {
            assert_eq!(k.outpost(0, cell(name)).is_some(), outpost, "{name}");
        }
        let span = k.outpost(0, cell("d5")).unwrap();
        for name in ["c6", "c7", "e6", "e7"] {
            assert!(span.contains(cell(name)), "{name}");
        }
        for name in ["d6", "d7", "c5", "e5", "c4"] {
            assert!(!span.contains(cell(name)), "{name}");
        }
    }

    #[test]
    fn chess_values_come_out_in_the_usual_order() {
        let (v, k) = values("chess");
        let val = |l| k.value[v.piece_by_letter(l).unwrap() as usize];
        assert!(val('P') < val('N'), "{:?}", k.value);
        assert!(val('N') <= val('B') && val('B') < val('R') && val('R') < val('Q'));
        assert!((250..=400).contains(&val('N')), "{}", val('N'));
        assert!((700..=1000).contains(&val('Q')), "{}", val('Q'));
        assert!(k.derived.iter().all(|&d| d));
    }

    #[test]
    fn a_value_in_the_file_overrides() {
        let (_, chess) = embedded::FILES.iter().find(|(n, _)| *n == "chess").unwrap();
        let text = chess.replace(
            "letter = \"N\"\nname = \"Knight\"\nbetza = \"N\"",
            "letter = \"N\"\nname = \"Knight\"\nbetza = \"N\"\nvalue = 123",
        );
        let v = Variant::from_toml(&text).unwrap();
        let k = Knowledge::new(&v);
        let n = v.piece_by_letter('N').unwrap() as usize;
        assert_eq!(k.value[n], 123);
        assert!(!k.derived[n]);
    }

    /// The letters of the piece types in a mask, in the file's order.
    fn letters(v: &Variant, mask: u32) -> String {
        v.pieces
            .iter()
            .enumerate()
            .filter(|(t, _)| mask >> t & 1 != 0)
            .map(|(_, p)| p.letter)
            .collect()
    }

    #[test]
    fn only_colour_bound_pieces_can_pair() {
        for (name, bound) in [("chess", "B"), ("magna-carta", "B"), ("los-alamos", "")] {
            let v = embedded::variant(name).unwrap();
            let k = Knowledge::new(&v);
            assert_eq!(letters(&v, k.colour_bound), bound, "{name}");
        }
    }

    #[test]
    fn files_follow_each_players_pawns_and_rooks_ride_them() {
        let (v, k) = values("chess");
        let g = &v.geometry;
        let mut riders: Vec<char> = letters(&v, k.file_riders).chars().collect();
        riders.sort_unstable();
        assert_eq!(riders, ['R']);
        let d4 = g.parse_cell("d4").unwrap();
        let d_file: CellSet = g.cells.iter().filter(|&c| g.file_of(c) == 3).collect();
        assert_eq!(k.file(0, d4), &d_file);
        assert_eq!(k.file(1, d4), &d_file);
        // Avon (four players): each player's file through a cell is part
        // of a straight line, its file or its rank: the cells his pawns
        // walk, up to his promotion zone.
        let (v, k) = values("avon");
        let g = &v.geometry;
        let c = g.parse_cell("e5").unwrap();
        let file: CellSet = g
            .cells
            .iter()
            .filter(|&x| g.file_of(x) == g.file_of(c))
            .collect();
        let rank: CellSet = g
            .cells
            .iter()
            .filter(|&x| g.rank_of(x) == g.rank_of(c))
            .collect();
        for p in 0..v.players.len() {
            let line = k.file(p, c);
            let straight = line.difference(&file).is_empty() || line.difference(&rank).is_empty();
            assert!(
                straight && line.contains(c) && line.len() >= 3,
                "player {p}: {line:?}"
            );
        }
    }

    #[test]
    fn the_files_beside_a_pawn_are_its_neighbours_whole() {
        let (v, k) = values("chess");
        let g = &v.geometry;
        let on_files = |files: &[u32]| -> CellSet {
            g.cells
                .iter()
                .filter(|&c| files.contains(&(g.file_of(c) as u32)))
                .collect()
        };
        for p in 0..2 {
            assert_eq!(k.beside(p, g.parse_cell("d4").unwrap()), &on_files(&[2, 4]));
            assert_eq!(k.beside(p, g.parse_cell("a2").unwrap()), &on_files(&[1]));
            assert_eq!(k.beside(p, g.parse_cell("h7").unwrap()), &on_files(&[6]));
        }
        // Avon: on a player's own half, where his pawns walk their whole
        // file, the files on either side, as long, and nothing else.
        let (v, k) = values("avon");
        let g = &v.geometry;
        for p in 0..v.players.len() {
            let home = if p == 0 || p == 3 { "e3" } else { "e6" };
            let c = g.parse_cell(home).unwrap();
            let (beside, file) = (k.beside(p, c), k.file(p, c));
            assert_eq!(beside.len(), 2 * file.len(), "player {p}: {beside:?}");
            assert!(
                beside
                    .iter()
                    .all(|x| g.file_of(x).abs_diff(g.file_of(c)) == 1),
                "player {p}: {beside:?}"
            );
        }
    }

    #[test]
    fn the_cells_level_with_a_pawn_are_beside_it_across_its_forward() {
        let cells = |v: &Variant, names: &[&str]| -> CellSet {
            names
                .iter()
                .map(|n| v.geometry.parse_cell(n).unwrap())
                .collect()
        };
        let level = |v: &Variant, k: &Knowledge, p: usize, c: &str| {
            *k.level(p, v.geometry.parse_cell(c).unwrap())
        };
        let (v, k) = values("chess");
        for p in 0..2 {
            assert_eq!(level(&v, &k, p, "d4"), cells(&v, &["c4", "e4"]));
            assert_eq!(level(&v, &k, p, "a2"), cells(&v, &["b2"]));
        }
        // Avon: on a player's own half, the cells beside on its rank.
        let (v, k) = values("avon");
        for p in 0..v.players.len() {
            let (c, sides) = if p == 0 || p == 3 {
                ("e3", ["d3", "f3"])
            } else {
                ("e6", ["d6", "f6"])
            };
            assert_eq!(level(&v, &k, p, c), cells(&v, &sides), "player {p}");
        }
        // Ariana: Orange moves west, so level runs along its file.
        let (v, k) = values("ariana");
        assert_eq!(level(&v, &k, 1, "h5"), cells(&v, &["h4", "h6"]));
        assert_eq!(level(&v, &k, 0, "e2"), cells(&v, &["d2", "f2"]));
    }

    #[test]
    fn a_rider_leaping_two_cells_along_files_rides_them() {
        // The Knight made a Dabbaba rider (two cells a leap, straight) and
        // the Bishop an Alfil rider (two cells a leap, diagonally): both
        // keep their cell's colour, only the first rides along files.
        let (_, chess) = embedded::FILES.iter().find(|(n, _)| *n == "chess").unwrap();
        let text = chess
            .replace(
                "letter = \"N\"\nname = \"Knight\"\nbetza = \"N\"",
                "letter = \"N\"\nname = \"Knight\"\nbetza = \"DD\"",
            )
            .replace(
                "letter = \"B\"\nname = \"Bishop\"\nbetza = \"B\"",
                "letter = \"B\"\nname = \"Bishop\"\nbetza = \"AA\"",
            );
        let v = Variant::from_toml(&text).unwrap();
        assert_eq!(
            v.pieces[v.piece_by_letter('B').unwrap() as usize].betza,
            "AA"
        );
        let k = Knowledge::new(&v);
        let mut riders: Vec<char> = letters(&v, k.file_riders).chars().collect();
        riders.sort_unstable();
        assert_eq!(riders, ['N', 'R']);
    }

    #[test]
    fn pawns_gain_on_the_way_to_promotion() {
        let (v, k) = values("chess");
        let p = v.piece_by_letter('P').unwrap();
        let g = &v.geometry;
        let at = |player, cell: &str| k.promotion(player, p, g.parse_cell(cell).unwrap());
        assert!(at(0, "e7") > at(0, "e6") && at(0, "e6") > at(0, "e3"));
        assert!(at(1, "e2") > at(1, "e5"));
        assert_eq!(at(0, "e7"), at(1, "e2"));
        // Knights are more central in the middle than in a corner.
        let n = v.piece_by_letter('N').unwrap();
        assert!(k.centre(0, n, g.parse_cell("d4").unwrap()) > 0);
        assert!(k.centre(0, n, g.parse_cell("a1").unwrap()) < 0);
    }

    #[test]
    fn a_pawn_is_stopped_by_hostile_pawns_ahead_or_beside_its_road() {
        let (v, k) = values("chess");
        let p = v.piece_by_letter('P').unwrap();
        let g = &v.geometry;
        let cell = |n: &str| g.parse_cell(n).unwrap();
        let names = |set: &CellSet| {
            let mut n: Vec<String> = set.iter().map(|c| g.name(c).to_string()).collect();
            n.sort();
            n
        };
        // White's e5: the road e6 e7 e8, and the cells from which Black's
        // pawns attack e5, e6 or e7.
        assert_eq!(
            names(k.passed_span(0, p, cell("e5"))),
            ["d6", "d7", "d8", "e6", "e7", "e8", "f6", "f7", "f8"]
        );
        // Black's d4 looks the other way.
        assert_eq!(
            names(k.passed_span(1, p, cell("d4"))),
            ["c1", "c2", "c3", "d1", "d2", "d3", "e1", "e2", "e3"]
        );
    }

    #[test]
    fn avon_armies_face_the_way_of_the_player_at_home() {
        let (v, k) = values("avon");
        let g = &v.geometry;
        // White is moved by White 0-4 (player 0) on ranks 0-4 and by White
        // 5-9 (player 2) on ranks 5-9.
        assert_eq!(k.owner(0, g.parse_cell("e1").unwrap()), 0);
        assert_eq!(k.owner(0, g.parse_cell("e8").unwrap()), 2);
        // Queen, Prince and Princess are royal for both armies.
        let royal = k.royal_types[0];
        for l in ['Q', 'K', 'S'] {
            assert!(royal >> v.piece_by_letter(l).unwrap() & 1 != 0);
        }
    }
}
