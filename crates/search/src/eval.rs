//! The static evaluation, for any variant: material, piece-square terms
//! (centralisation, the road to promotion), mobility, the safety of royal
//! pieces, and Avon-style royal presence. Each army gets a score; the
//! searches combine them into the point of view they need.

use crate::values::Knowledge;
use crate::weights::Weights;
use quadrille_engine::variant::{PieceType, MAX_ARMIES};
use quadrille_engine::{Activity, Cell, CellSet, Position, Variant};
use std::any::Any;
use std::cell::RefCell;
use std::sync::Arc;

thread_local! {
    /// Each army's attacks by piece type (`[army * types + type]`), for
    /// learnt mobility and threats: scratch space per thread (the search
    /// threads share one evaluation), so that only the sets in use are
    /// cleared, not a table for every possible army and type.
    /// One list per width of cell sets in use (`Vec<CellSet<W>>`).
    static TYPED: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
}

/// Royal presence: no royal piece at home (the player drops out at their
/// next turn), or only one left there.
const PRESENCE_NONE: i32 = -300;
const PRESENCE_ONE: i32 = -80;

/// The parts of the quadratic royal danger ([`Eval::royal_danger`]), in
/// Stockfish's classical units (its king danger, made generic): the danger
/// from one hostile army is their sum, and it costs danger² / 4096 in the
/// middle game, danger / 16 in the end game, times `king_danger` percent.
struct Danger {
    /// Per hostile piece attacking the royal zone.
    attacker: i32,
    /// Per attack on a cell of the zone.
    hit: i32,
    /// Per cell of the zone the hostile army attacks and no other piece of
    /// the royal army defends.
    weak: i32,
    /// Per hostile piece type that can give check from a cell the royal
    /// army does not guard.
    safe_check: i32,
    /// Taken off when the hostile army has lost its strongest piece type.
    no_strongest: i32,
    /// Below this the danger costs nothing.
    threshold: i32,
    /// The middle-game cost is danger × min(danger, cap) / 4096.
    cap: i32,
    // The further parts, scaled by the weights' `danger_more` percent:
    /// Per cell from which a hostile piece could give check, of the types
    /// that have no safe check.
    unsafe_check: i32,
    /// Times the square of the attacks on the royal flank (the cells
    /// within two royal steps; those attacked twice count twice), / 8.
    flank_attack: i32,
    /// Per cell of the royal flank the royal army attacks (taken off).
    flank_defence: i32,
    /// Taken off where a minor piece of the royal army that only leaps
    /// (a Knight: [`Knowledge::outpost_share`] 2) attacks the royal zone.
    leaper_defender: i32,
    /// Added to every danger.
    base: i32,
    /// Per piece alone between a royal piece and a hostile rider
    /// ([`Position::royal_blockers`]), scaled by the weights' `danger_pins`.
    blocker: i32,
    /// With the weights' `danger_attackers`, each piece attacking the
    /// royal zone weighs `attacker_scale / value - attacker_offset`
    /// (Stockfish's 81, 52, 44 and 10 for a Knight, Bishop, Rook and
    /// Queen, made generic: the cheaper the attacker, the more it weighs),
    /// and the danger gains their count times the sum of their weights.
    attacker_scale: i32,
    attacker_offset: i32,
}

const DANGER: Danger = Danger {
    attacker: 50,
    hit: 69,
    weak: 185,
    safe_check: 800,
    no_strongest: 873,
    threshold: 100,
    cap: 3500,
    unsafe_check: 148,
    flank_attack: 3,
    flank_defence: 4,
    leaper_defender: 100,
    base: 37,
    blocker: 98,
    attacker_scale: 24000,
    attacker_offset: 16,
};

/// Which terms the evaluation uses (for measuring them by self-play).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Terms {
    pub mobility: bool,
    /// The variant's learnt weights, if it ships any (else derived ones).
    pub learnt: bool,
    /// The learnt tables among them, piece-square, mobility and threats
    /// (off: the weights without their tables, to measure them).
    pub pst: bool,
}

impl Default for Terms {
    fn default() -> Self {
        Terms {
            mobility: true,
            learnt: true,
            pst: true,
        }
    }
}

/// What the armies attack, gathered while the pieces are counted.
struct AttackMap<const W: usize> {
    /// Cells attacked by each army's pawns and other non-royal pieces.
    attacks: [CellSet<W>; MAX_ARMIES],
    /// Cells attacked twice or more by them.
    attacks2: [CellSet<W>; MAX_ARMIES],
    /// Cells attacked by each army's pawns.
    pawn_attacks: [CellSet<W>; MAX_ARMIES],
    /// Each army's pawns.
    pawns: [CellSet<W>; MAX_ARMIES],
    /// Each army's other non-royal pieces.
    pieces: [CellSet<W>; MAX_ARMIES],
    /// Each army's royal pieces and the cells next to them.
    zone: [CellSet<W>; MAX_ARMIES],
    /// `[attacker][victim]`: attacks on the victim's zone, and the pieces
    /// making them.
    zone_hits: [[i32; MAX_ARMIES]; MAX_ARMIES],
    zone_attackers: [[i32; MAX_ARMIES]; MAX_ARMIES],
    /// The sum of those pieces' attacker weights ([`Eval::attacker_weight`]).
    zone_weight: [[i32; MAX_ARMIES]; MAX_ARMIES],
    /// Each army's middle-game mobility bonus (its non-royal pieces').
    mobility: [i32; MAX_ARMIES],
    /// Per army, the hostile pieces its non-pawn pieces attack that are
    /// worth more than the attacker (Stockfish's threats by minor pieces
    /// and Rooks, made generic), counted with the `lesser_threat` weight.
    lesser: [i32; MAX_ARMIES],
}

impl<const W: usize> AttackMap<W> {
    fn new() -> Self {
        AttackMap {
            attacks: Default::default(),
            attacks2: Default::default(),
            pawn_attacks: Default::default(),
            pawns: Default::default(),
            pieces: Default::default(),
            zone: Default::default(),
            zone_hits: Default::default(),
            zone_attackers: Default::default(),
            zone_weight: Default::default(),
            mobility: Default::default(),
            lesser: Default::default(),
        }
    }

    fn royal_zones(&mut self, pos: &Position<W>, k: &Knowledge, armies: usize) {
        for a in 0..armies {
            for r in pos.royal_cells(a as u8).iter().flat_map(|r| r.iter()) {
                self.zone[a] = self.zone[a].union(&k.neighbours[r as usize].to_width());
                self.zone[a].insert(r);
            }
        }
    }

    /// One more piece of army `a` attacks `attacks`.
    fn attack(&mut self, a: usize, attacks: &CellSet<W>) {
        let twice = self.attacks[a].intersection(attacks);
        self.attacks2[a] = self.attacks2[a].union(&twice);
        self.attacks[a] = self.attacks[a].union(attacks);
    }

    /// A pawn of army `a` on `cell`, attacking `attacks`.
    fn pawn(&mut self, a: usize, attacks: &CellSet<W>, cell: Cell) {
        self.pawn_attacks[a] = self.pawn_attacks[a].union(attacks);
        self.attack(a, attacks);
        self.pawns[a].insert(cell);
    }

    /// Another non-royal piece of army `a` on `cell`, of attacker weight
    /// `weight`, attacking `attacks`.
    fn piece(&mut self, v: &Variant, a: usize, attacks: &CellSet<W>, cell: Cell, weight: i32) {
        self.attack(a, attacks);
        self.pieces[a].insert(cell);
        for e in v.hostile_armies(a as u8) {
            let hits = attacks.intersection(&self.zone[e]).len() as i32;
            self.zone_hits[a][e] += hits;
            self.zone_attackers[a][e] += (hits > 0) as i32;
            self.zone_weight[a][e] += weight * (hits > 0) as i32;
        }
    }
}

/// A piece's moves for mobility: its pseudo-legal ones, less those to
/// `unsafe_cells` with `safe_mobility` (see [`Eval::unsafe_cells`]).
fn safe_moves<const W: usize>(act: &Activity<W>, unsafe_cells: Option<&CellSet<W>>) -> u32 {
    match unsafe_cells {
        Some(cells) => act
            .moves
            .saturating_sub(act.attacks.intersection(cells).len()),
        None => act.moves,
    }
}

/// The evaluation of one variant.
#[derive(Clone, Debug)]
pub struct Eval {
    pub variant: Arc<Variant>,
    pub know: Knowledge,
    pub terms: Terms,
    /// The weights in use.
    pub weights: Weights,
    /// Material of every army's non-pawn, non-royal pieces at the start:
    /// the reference for the game phase.
    start_material: i32,
    /// Each army's most valuable non-pawn, non-royal type at the start
    /// (the queen of chess), for the royal danger.
    strongest: [Option<u8>; MAX_ARMIES],
    /// Each piece type's weight as an attacker of a royal zone (see
    /// [`Danger::attacker_scale`]).
    attacker_weight: Vec<i32>,
}

impl Eval {
    /// The evaluation with the variant's learnt weights if `terms` asks
    /// for them and it has some, else the derived ones.
    pub fn new(variant: &Arc<Variant>, terms: Terms) -> Eval {
        let weights = if terms.learnt {
            Weights::for_variant(variant)
        } else {
            Weights::default()
        };
        Eval::with_weights(variant, terms, weights)
    }

    /// The evaluation with these weights (without their learnt tables
    /// unless `terms.pst`).
    pub fn with_weights(variant: &Arc<Variant>, terms: Terms, mut weights: Weights) -> Eval {
        if !terms.pst {
            weights.clear_tables();
        }
        let know = Knowledge::with_weights(variant, &weights);
        let start = variant.start();
        let start_material = Self::phase_material(&know, &start);
        let mut strongest = [None; MAX_ARMIES];
        for (a, s) in strongest.iter_mut().enumerate().take(variant.armies.len()) {
            let skip = know.pawn_types | know.royal_types[a];
            *s = (0..variant.pieces.len() as u8)
                .filter(|&t| skip >> t & 1 == 0 && !start.type_cells(a as u8, t).is_empty())
                .max_by_key(|&t| know.value[t as usize]);
        }
        let attacker_weight = know
            .value
            .iter()
            .map(|&v| (DANGER.attacker_scale / v.max(1) - DANGER.attacker_offset).max(0))
            .collect();
        Eval {
            variant: variant.clone(),
            know,
            terms,
            weights,
            start_material,
            strongest,
            attacker_weight,
        }
    }

    fn phase_material<const W: usize>(know: &Knowledge, pos: &Position<W>) -> i32 {
        let v = pos.variant();
        let mut m = 0;
        for a in 0..v.armies.len() {
            let skip = know.pawn_types | know.royal_types[a];
            for t in (0..v.pieces.len()).filter(|t| skip >> t & 1 == 0) {
                m += know.value[t] * pos.type_cells(a as u8, t as u8).len() as i32;
            }
        }
        m
    }

    /// Every army's score (armies out of the game included: their pieces
    /// may still stand as obstacles; callers decide whether they count).
    pub fn armies<const W: usize>(&self, pos: &Position<W>) -> [i32; MAX_ARMIES] {
        if !self.know.has_activity() && self.weights.king_danger == 0 {
            return self.armies_with::<false, W>(pos, &mut []);
        }
        TYPED.with_borrow_mut(|lists| {
            let i = match lists.iter().position(|l| l.is::<Vec<CellSet<W>>>()) {
                Some(i) => i,
                None => {
                    lists.push(Box::new(Vec::<CellSet<W>>::new()));
                    lists.len() - 1
                }
            };
            let Some(typed) = lists[i].downcast_mut::<Vec<CellSet<W>>>() else {
                unreachable!("the list found for this width")
            };
            typed.clear();
            typed.resize(self.variant.armies.len() * self.know.ntypes, CellSet::EMPTY);
            self.armies_with::<true, W>(pos, typed)
        })
    }

    /// [`Eval::armies`]; with `ACTIVITY` (learnt mobility and threats, or
    /// the royal danger), gathering each army's attacks by type in `typed`
    /// (cleared). Two copies, so that the evaluation without those terms
    /// pays nothing.
    fn armies_with<const ACTIVITY: bool, const W: usize>(
        &self,
        pos: &Position<W>,
        typed: &mut [CellSet<W>],
    ) -> [i32; MAX_ARMIES] {
        let v = &*self.variant;
        let k = &self.know;
        let w = &self.weights;
        let n = v.armies.len();
        let mut score = [0i32; MAX_ARMIES];
        // Royal pieces seek the centre only once the board empties, and
        // their safety matters while it is full: both wait for the phase.
        let mut royal_centre = [0i32; MAX_ARMIES];
        // Learnt bonuses (piece-square, mobility, threats), middle and end
        // game, per army.
        let mut learnt = [[0i32; 2]; MAX_ARMIES];
        let pst = k.has_pst();
        let learnt_activity = ACTIVITY && k.has_activity();
        let mut material = 0;
        // The terms that need attacks, pawns or royal zones (the variant's
        // weights may leave them all off).
        let extra = w.passed != 0
            || w.supported != 0
            || w.pawn_threat != 0
            || w.hanging != 0
            || w.king_attack != 0
            || w.king_danger != 0
            || w.passed_king != 0
            || w.outpost != 0
            || w.isolated != 0
            || w.doubled != 0
            || w.phalanx != 0
            || w.lesser_threat != 0;
        let mut map = AttackMap::<W>::new();
        // Each army's pieces other than pawns, for the safety of royal ones.
        let mut officers = [CellSet::<W>::EMPTY; MAX_ARMIES];
        if w.king_attack != 0 || w.king_danger != 0 {
            map.royal_zones(pos, k, n);
        }
        let pawns = if w.open_file != 0 {
            self.pawns(pos)
        } else {
            [CellSet::<W>::EMPTY; MAX_ARMIES]
        };
        // With `safe_mobility` only: the evaluation without it pays nothing.
        let unsafe_cells = self.unsafe_cells(pos);
        let safe = unsafe_cells.is_some();
        for (a, s) in score.iter_mut().enumerate().take(n) {
            let army = a as u8;
            let royal_types = k.royal_types[a];
            for c in pos.army_cells(army).iter() {
                let Some(piece) = pos.piece_at(c) else {
                    continue;
                };
                let t = piece.kind;
                let owner = k.owner(army, c);
                let value = k.value[t as usize];
                *s += value;
                if pst {
                    let [mg, eg] = k.pst(owner, t, c);
                    learnt[a][0] += mg as i32;
                    learnt[a][1] += eg as i32;
                }
                let royal = royal_types >> t & 1 != 0;
                let pawn = k.pawn_types >> t & 1 != 0;
                if !pawn {
                    officers[a].insert(c);
                }
                // Learnt mobility and threats need every piece's attacks.
                let act = (!pawn && (ACTIVITY || ((extra || safe) && !royal)))
                    .then(|| pos.piece_activity(c, owner));
                if ACTIVITY {
                    let attacks = match &act {
                        Some(act) => {
                            if learnt_activity {
                                let moves = safe_moves(act, unsafe_cells.as_ref().map(|u| &u[a]));
                                let [mg, eg] = k.learnt(k.mobility_feature(t, moves));
                                learnt[a][0] += mg as i32;
                                learnt[a][1] += eg as i32;
                                if !royal {
                                    map.mobility[a] += mg as i32;
                                }
                            }
                            &act.attacks
                        }
                        None => &k.pawn_attacks(owner, t, c).to_width(),
                    };
                    let set = &mut typed[a * k.ntypes + t as usize];
                    *set = set.union(attacks);
                }
                if royal {
                    royal_centre[a] += k.centre(owner, t, c);
                    continue;
                }
                *s += k.centre(owner, t, c);
                if pawn {
                    *s += k.promotion(owner, t, c);
                    if extra {
                        map.pawn(a, &k.pawn_attacks(owner, t, c).to_width(), c);
                    }
                    continue;
                }
                material += value;
                if w.open_file != 0 && k.file_riders >> t & 1 != 0 {
                    *s += self.open_file(&pawns, a, owner, c);
                }
                let moves = match &act {
                    Some(act) => {
                        if extra {
                            map.piece(v, a, &act.attacks, c, self.attacker_weight[t as usize]);
                            if w.lesser_threat != 0 {
                                map.lesser[a] +=
                                    self.lesser_threats(pos, army, value, &act.attacks);
                            }
                        }
                        safe_moves(act, unsafe_cells.as_ref().map(|u| &u[a]))
                    }
                    None => pos.piece_mobility(c, owner),
                };
                if self.terms.mobility {
                    let bonus = k.mobility_weight[t as usize] * moves as i32 / 16;
                    *s += bonus;
                    map.mobility[a] += bonus;
                }
            }
        }
        if learnt_activity {
            self.threats(pos, typed, |a, f| {
                let [mg, eg] = k.learnt(f);
                learnt[a][0] += mg as i32;
                learnt[a][1] += eg as i32;
            });
        }
        let phase = self.phase(material);
        for a in 0..n {
            if w.pair != 0 {
                score[a] += w.pair * self.pairs(pos, a as u8);
            }
            score[a] += royal_centre[a] * (256 - phase) / 256;
            score[a] += (learnt[a][0] * phase + learnt[a][1] * (256 - phase)) / 256;
            score[a] += self.royal_safety(pos, a as u8, &officers) * phase / 256;
            if extra {
                self.pawns_threats_attacks(pos, a, &map, phase, &mut score);
            }
            if ACTIVITY && w.king_danger != 0 {
                score[a] -= self.royal_danger(pos, a, &map, typed, phase);
            }
        }
        self.add_presence(pos, &mut score);
        score
    }

    /// The game phase, 256 (the start) down to 0 (no pieces but pawns and
    /// royals), from the material of the non-pawn, non-royal pieces.
    fn phase(&self, material: i32) -> i32 {
        if self.start_material > 0 {
            (material * 256 / self.start_material).clamp(0, 256)
        } else {
            0
        }
    }

    /// Every learnt threat ([`Knowledge::threat_feature`]) in `pos`, given
    /// each army's attacks by piece type, with the army it counts for: a
    /// piece attacked by one or more hostile pieces of a type.
    fn threats<const W: usize>(
        &self,
        pos: &Position<W>,
        typed: &[CellSet<W>],
        mut emit: impl FnMut(usize, usize),
    ) {
        let v = &*self.variant;
        let (n, ntypes) = (v.armies.len(), self.know.ntypes);
        let by_type = |a: usize| &typed[a * ntypes..][..ntypes];
        let mut all = [CellSet::<W>::EMPTY; MAX_ARMIES];
        for (a, set) in all.iter_mut().enumerate().take(n) {
            for t in by_type(a) {
                *set = set.union(t);
            }
        }
        let to_move = pos.army_to_move() as usize;
        for b in 0..n {
            let pieces = pos.army_cells(b as u8);
            for e in v.hostile_armies(b as u8) {
                let hit = pieces.intersection(&all[e]);
                if hit.is_empty() {
                    continue;
                }
                for (t, attacks) in by_type(e).iter().enumerate() {
                    for c in attacks.intersection(&hit).iter() {
                        let victim = pos.piece_at(c).map_or(0, |p| p.kind);
                        let kind = Knowledge::threat_kind(e == to_move, all[b].contains(c));
                        emit(e, self.know.threat_feature(t as u8, victim, kind));
                    }
                }
            }
        }
    }

    /// What the learnt tables add to the first army's score (two sides),
    /// as the tuner sees it: the phase, and each feature present
    /// ([`Knowledge::features`]: piece-square entries, and with `activity`
    /// mobility and threats) with its sign (+1 the first army's, -1 the
    /// second's). The score is the sum over them of sign * (mg * phase +
    /// eg * (256 - phase)) / 256.
    pub fn learnt_terms<const W: usize>(
        &self,
        pos: &Position<W>,
        activity: bool,
    ) -> (i32, Vec<(u32, i8)>) {
        let k = &self.know;
        let mut material = 0;
        let mut terms = Vec::new();
        let n = self.variant.armies.len();
        let mut typed = vec![CellSet::EMPTY; n * k.ntypes];
        let unsafe_cells = self.unsafe_cells(pos);
        let sign = |a: usize| if a == 0 { 1 } else { -1 };
        for a in 0..n.min(2) {
            let army = a as u8;
            let skip = k.pawn_types | k.royal_types[a];
            for c in pos.army_cells(army).iter() {
                let Some(piece) = pos.piece_at(c) else {
                    continue;
                };
                let t = piece.kind;
                if skip >> t & 1 == 0 {
                    material += k.value[t as usize];
                }
                let owner = k.owner(army, c);
                terms.push((k.table_index(owner, t, c) as u32, sign(a)));
                if !activity {
                    continue;
                }
                let attacks = if k.pawn_types >> t & 1 != 0 {
                    k.pawn_attacks(owner, t, c).to_width()
                } else {
                    let act = pos.piece_activity(c, owner);
                    let moves = safe_moves(&act, unsafe_cells.as_ref().map(|u| &u[a]));
                    terms.push((k.mobility_feature(t, moves) as u32, sign(a)));
                    act.attacks
                };
                let set = &mut typed[a * k.ntypes + t as usize];
                *set = set.union(&attacks);
            }
        }
        if activity {
            self.threats(pos, &typed, |a, f| terms.push((f as u32, sign(a))));
        }
        (self.phase(material), terms)
    }

    /// Per army, the cells its hostile armies' pawns attack, its own
    /// pieces aside: with the weights' `safe_mobility`, moves there do not
    /// count for mobility (Stockfish's mobility area). None without it (or
    /// without pawns).
    fn unsafe_cells<const W: usize>(&self, pos: &Position<W>) -> Option<[CellSet<W>; MAX_ARMIES]> {
        if self.weights.safe_mobility == 0 || self.know.pawn_types == 0 {
            return None;
        }
        let v = &*self.variant;
        let k = &self.know;
        let n = v.armies.len();
        let pawns = self.pawns(pos);
        let mut pawn_attacks = [CellSet::<W>::EMPTY; MAX_ARMIES];
        for (a, attacks) in pawn_attacks.iter_mut().enumerate().take(n) {
            let army = a as u8;
            for c in pawns[a].iter() {
                if let Some(piece) = pos.piece_at(c) {
                    let owner = k.owner(army, c);
                    *attacks = attacks.union(&k.pawn_attacks(owner, piece.kind, c).to_width());
                }
            }
        }
        let mut cells = [CellSet::<W>::EMPTY; MAX_ARMIES];
        for (a, set) in cells.iter_mut().enumerate().take(n) {
            for e in v.hostile_armies(a as u8) {
                *set = set.union(&pawn_attacks[e]);
            }
            *set = set.difference(&pos.army_cells(a as u8));
        }
        Some(cells)
    }

    /// The terms read from the [`AttackMap`]: `army`'s passed and supported pawns,
    /// its pieces threatened (bonuses to the hostile armies), and its
    /// attacks near hostile royal pieces.
    fn pawns_threats_attacks<const W: usize>(
        &self,
        pos: &Position<W>,
        a: usize,
        map: &AttackMap<W>,
        phase: i32,
        score: &mut [i32; MAX_ARMIES],
    ) {
        let v = &*self.variant;
        let k = &self.know;
        let w = &self.weights;
        let army = a as u8;
        let mut hostile_pawns = CellSet::EMPTY;
        for e in v.hostile_armies(army) {
            hostile_pawns = hostile_pawns.union(&map.pawns[e]);
            // Attacks count more when several pieces make them.
            let pressure = map.zone_hits[a][e] * map.zone_attackers[a][e].min(4);
            score[a] += w.king_attack * pressure * phase / 256;
        }
        // Pawns: supported by a pawn or level with one, isolated or
        // doubled, and passed (the last three count more as the board
        // empties).
        let mut weak = 0;
        for c in map.pawns[a].iter() {
            if map.pawn_attacks[a].contains(c) {
                score[a] += w.supported;
            }
            let t = pos.piece_at(c).map_or(0, |p| p.kind);
            let owner = k.owner(army, c);
            if w.phalanx != 0
                && !k
                    .level(owner, c)
                    .to_width::<W>()
                    .intersection(&map.pawns[a])
                    .is_empty()
            {
                score[a] += w.phalanx;
            }
            if k.beside(owner, c)
                .to_width::<W>()
                .intersection(&map.pawns[a])
                .is_empty()
            {
                weak += w.isolated;
            }
            let span = k.passed_span(owner, t, c);
            let ahead = k.file(owner, c).intersection(span);
            if !ahead.to_width::<W>().intersection(&map.pawns[a]).is_empty() {
                weak += w.doubled;
            }
            if span.to_width::<W>().intersection(&hostile_pawns).is_empty() {
                score[a] += w.passed * k.promotion(owner, t, c) * (512 - phase) / (256 * 100);
                if w.passed_king != 0 {
                    score[a] += self.royal_race(pos, army, owner, t, c) * (256 - phase) / 256;
                }
            }
        }
        score[a] -= weak * (512 - phase) / 256;
        // Threats to this army's pieces (royal ones aside): a non-pawn
        // attacked by a pawn, a piece attacked and not defended.
        let undefended = map.pieces[a]
            .union(&map.pawns[a])
            .difference(&map.attacks[a]);
        for e in v.hostile_armies(army) {
            let by_pawns = map.pieces[a].intersection(&map.pawn_attacks[e]).len() as i32;
            let hanging = undefended.intersection(&map.attacks[e]).len() as i32;
            score[e] += w.pawn_threat * by_pawns + w.hanging * hanging;
        }
        if w.outpost != 0 {
            score[a] += self.outposts(pos, a, map, &hostile_pawns);
        }
        score[a] += w.lesser_threat * map.lesser[a];
    }

    /// How many hostile pieces, royal ones aside, worth more than `value`
    /// a piece of `army` attacking `attacks` attacks.
    fn lesser_threats<const W: usize>(
        &self,
        pos: &Position<W>,
        army: u8,
        value: i32,
        attacks: &CellSet<W>,
    ) -> i32 {
        let k = &self.know;
        let mut count = 0;
        for e in self.variant.hostile_armies(army) {
            for x in pos.army_cells(e as u8).intersection(attacks).iter() {
                let Some(victim) = pos.piece_at(x) else {
                    continue;
                };
                let t = victim.kind as usize;
                count += (k.royal_types[e] >> t & 1 == 0 && k.value[t] > value) as i32;
            }
        }
        count
    }

    /// Stockfish's outposts made generic: army `a`'s minor pieces on cells
    /// near the hostile side ([`Knowledge::outpost`]) that a pawn of theirs
    /// defends and no hostile pawn can ever attack gain `outpost` (a
    /// leaper) or half of it (a slider).
    fn outposts<const W: usize>(
        &self,
        pos: &Position<W>,
        a: usize,
        map: &AttackMap<W>,
        hostile_pawns: &CellSet<W>,
    ) -> i32 {
        let k = &self.know;
        let army = a as u8;
        let mut halves = 0;
        for c in map.pieces[a].intersection(&map.pawn_attacks[a]).iter() {
            let share = pos
                .piece_at(c)
                .map_or(0, |p| k.outpost_share[p.kind as usize]);
            if share == 0 {
                continue;
            }
            let safe = k
                .outpost(k.owner(army, c), c)
                .is_some_and(|span| span.to_width::<W>().intersection(hostile_pawns).is_empty());
            if safe {
                halves += share as i32;
            }
        }
        self.weights.outpost * halves / 2
    }

    /// Each army's pawns.
    fn pawns<const W: usize>(&self, pos: &Position<W>) -> [CellSet<W>; MAX_ARMIES] {
        let mut pawns = [CellSet::<W>::EMPTY; MAX_ARMIES];
        for (a, set) in pawns.iter_mut().enumerate().take(self.variant.armies.len()) {
            for t in (0..self.know.ntypes).filter(|t| self.know.pawn_types >> t & 1 != 0) {
                *set = set.union(&pos.type_cells(a as u8, t as PieceType));
            }
        }
        pawns
    }

    /// Stockfish's Rook on an open file, made generic: a piece of army `a`
    /// sliding along files and not diagonals, on `c`, moved by `owner`,
    /// gains `open_file` if no pawn stands on its file, half if only
    /// hostile ones do.
    fn open_file<const W: usize>(
        &self,
        pawns: &[CellSet<W>; MAX_ARMIES],
        a: usize,
        owner: usize,
        c: Cell,
    ) -> i32 {
        let file = self.know.file(owner, c).to_width::<W>();
        if !file.intersection(&pawns[a]).is_empty() {
            return 0;
        }
        let open = pawns[..self.variant.armies.len()]
            .iter()
            .all(|p| file.intersection(p).is_empty());
        if open {
            self.weights.open_file
        } else {
            self.weights.open_file / 2
        }
    }

    /// How many colour-bound types (a Bishop) `army` has on cells of both
    /// colours.
    fn pairs<const W: usize>(&self, pos: &Position<W>, army: u8) -> i32 {
        let k = &self.know;
        let light = k.light.to_width::<W>();
        (0..k.ntypes)
            .filter(|t| k.colour_bound >> t & 1 != 0)
            .filter(|&t| {
                let cells = pos.type_cells(army, t as PieceType);
                !cells.intersection(&light).is_empty() && !cells.difference(&light).is_empty()
            })
            .count() as i32
    }

    /// Stockfish's king proximity of a passed pawn, made generic: the
    /// pawn of type `t` on `c` gains as the nearest hostile royal piece is
    /// far from it and its own nearest is close (king steps, at most five),
    /// weighted by how near it is to promoting; `passed_king` percent.
    fn royal_race<const W: usize>(
        &self,
        pos: &Position<W>,
        army: u8,
        owner: usize,
        t: PieceType,
        c: Cell,
    ) -> i32 {
        let weight = self.know.race(owner, t, c);
        if weight == 0 {
            return 0;
        }
        let g = &self.variant.geometry;
        let nearest = |a: u8| {
            pos.royal_cells(a)
                .and_then(|cells| cells.iter().map(|r| g.king_steps(r, c)).min())
                .unwrap_or(5)
                .min(5)
        };
        let own = nearest(army);
        let hostile = self
            .variant
            .hostile_armies(army)
            .map(|e| nearest(e as u8))
            .min()
            .unwrap_or(5);
        self.weights.passed_king * weight * (19 * hostile - 8 * own) / (4 * 100)
    }

    /// What the danger to army `a`'s royal pieces costs it (Stockfish's
    /// classical king danger made generic, [`Danger`]): from each hostile
    /// army, the pieces and attacks on the royal zone, its undefended cells,
    /// and the piece types that could check from a cell `a` does not guard
    /// (`typed`: each army's attacks by piece type); with the weights'
    /// `danger_more`, also the checks from guarded cells, the royal flank's
    /// attacks and defence, the mobility difference and a defending Knight;
    /// with `danger_pins`, the pieces alone between it and a hostile rider.
    fn royal_danger<const W: usize>(
        &self,
        pos: &Position<W>,
        a: usize,
        map: &AttackMap<W>,
        typed: &[CellSet<W>],
        phase: i32,
    ) -> i32 {
        let v = &*self.variant;
        let k = &self.know;
        let army = a as u8;
        let Some(royals) = pos.royal_cells(army) else {
            return 0;
        };
        let Some(first) = royals.iter().next() else {
            return 0;
        };
        // Check cells are where a piece would attack the royal one from:
        // for a symmetric piece, where it attacks from the royal cell.
        let owner = k.owner(army, first);
        let more = self.weights.danger_more;
        // The royal flank: the cells within two royal steps.
        let flank = if more != 0 {
            royals.iter().fold(CellSet::<W>::EMPTY, |f, r| {
                f.union(&k.second_ring[r as usize].to_width())
            })
        } else {
            CellSet::EMPTY
        }
        .union(&map.zone[a]);
        let pins = self.weights.danger_pins;
        // Found once, when a danger needs them.
        let mut blockers = None;
        let mut cost = 0;
        for e in v.hostile_armies(army) {
            // As Stockfish: no danger from fewer than two attackers (one
            // with the strongest piece on the board), nor its cost.
            let strongest =
                self.strongest[e].is_some_and(|q| !pos.type_cells(e as u8, q).is_empty());
            if map.zone_attackers[e][a] < 2 - strongest as i32 {
                continue;
            }
            let attackers = match self.weights.danger_attackers {
                0 => DANGER.attacker * map.zone_attackers[e][a],
                pct => map.zone_attackers[e][a] * map.zone_weight[e][a] * pct / 100,
            };
            let mut danger = attackers + DANGER.hit * map.zone_hits[e][a];
            let weak = map.zone[a]
                .intersection(&map.attacks[e])
                .difference(&map.attacks[a]);
            danger += DANGER.weak * weak.len() as i32;
            let mut guarded = pos
                .army_cells(e as u8)
                .union(&map.attacks[a])
                .union(&map.zone[a]);
            if more != 0 {
                // A cell next to the royal piece that only it defends is
                // still safe for a check the hostile army supports.
                let supported = weak.intersection(&map.attacks2[e]);
                guarded = guarded.difference(&supported);
            }
            let mut unsafe_checks = CellSet::<W>::EMPTY;
            let skip = k.pawn_types | k.royal_types[e];
            for t in (0..k.ntypes).filter(|t| skip >> t & 1 == 0) {
                let typed = &typed[e * k.ntypes + t];
                // Without the further parts only safe checks count.
                if typed.is_empty() || more == 0 && typed.difference(&guarded).is_empty() {
                    continue;
                }
                let from = royals.iter().fold(CellSet::<W>::EMPTY, |f, r| {
                    f.union(&pos.activity_as(t as u8, owner, r).attacks)
                });
                let checks = from.intersection(typed);
                if !checks.difference(&guarded).is_empty() {
                    danger += DANGER.safe_check;
                } else if more != 0 {
                    unsafe_checks = unsafe_checks.union(&checks);
                }
            }
            if !strongest {
                danger -= DANGER.no_strongest;
            }
            if pins != 0 {
                let n = *blockers.get_or_insert_with(|| pos.royal_blockers(army).len() as i32);
                danger += DANGER.blocker * n * pins / 100;
            }
            if more != 0 {
                let attacked = flank.intersection(&map.attacks[e]).len()
                    + flank.intersection(&map.attacks2[e]).len();
                let defended = flank.intersection(&map.attacks[a]).len();
                let leaper_defends = (0..k.ntypes).any(|t| {
                    k.outpost_share[t] == 2
                        && !typed[a * k.ntypes + t]
                            .intersection(&map.zone[a])
                            .is_empty()
                });
                let parts = DANGER.unsafe_check * unsafe_checks.len() as i32
                    + DANGER.flank_attack * (attacked * attacked) as i32 / 8
                    - DANGER.flank_defence * defended as i32
                    + map.mobility[e]
                    - map.mobility[a]
                    - DANGER.leaper_defender * leaper_defends as i32
                    + DANGER.base;
                danger += parts * more / 100;
            }
            if danger > DANGER.threshold {
                let cap = if more != 0 { DANGER.cap } else { i32::MAX };
                let (mg, eg) = (danger * danger.min(cap) / 4096, danger / 16);
                cost += (mg * phase + eg * (256 - phase)) / 256;
            }
        }
        cost * self.weights.king_danger / 100
    }

    /// Shelter by own pieces next to each royal piece, and enemy pieces
    /// close to it (`officers`: each army's pieces other than pawns).
    fn royal_safety<const W: usize>(
        &self,
        pos: &Position<W>,
        army: u8,
        officers: &[CellSet<W>; MAX_ARMIES],
    ) -> i32 {
        let Some(royals) = pos.royal_cells(army) else {
            return 0;
        };
        let k = &self.know;
        let v = &*self.variant;
        let own = pos.army_cells(army);
        // Hostile pieces other than pawns: the ones that count as near.
        let mut hostile = CellSet::EMPTY;
        for e in (0..v.armies.len() as u8).filter(|&e| v.hostile(e, army)) {
            hostile = hostile.union(&officers[e as usize]);
        }
        let mut s = 0;
        for r in royals.iter() {
            let next = &k.neighbours[r as usize].to_width();
            s += self.weights.shelter * (next.intersection(&own).len() as i32).min(3);
            // (3 - distance) for each: two next to it, one a step further.
            let near = 2 * next.intersection(&hostile).len()
                + k.second_ring[r as usize]
                    .to_width()
                    .intersection(&hostile)
                    .len();
            s -= self.weights.tropism * near as i32;
            if self.weights.storm != 0 {
                s -= self.weights.storm * self.storm(pos, army, r);
            }
        }
        s
    }

    /// Hostile pawns in front of `army`'s royal piece on `r` (on the span
    /// its own pawn would have there): within three king steps, those
    /// within two counted twice. Stockfish's pawn storm, made generic.
    fn storm<const W: usize>(&self, pos: &Position<W>, army: u8, r: Cell) -> i32 {
        let k = &self.know;
        let v = &*self.variant;
        let owner = k.owner(army, r);
        let [near3, near2] = &k.front[owner * k.ncells + r as usize];
        let mut pawns = CellSet::<W>::EMPTY;
        for e in v.hostile_armies(army) {
            for t in (0..k.ntypes).filter(|t| k.pawn_types >> t & 1 != 0) {
                pawns = pawns.union(&pos.type_cells(e as u8, t as u8));
            }
        }
        (pawns.intersection(&near3.to_width()).len() + pawns.intersection(&near2.to_width()).len())
            as i32
    }

    /// Royal presence (Avon): each player in the game wants royal pieces of
    /// their army in their home, where a move must leave one.
    fn add_presence<const W: usize>(&self, pos: &Position<W>, score: &mut [i32; MAX_ARMIES]) {
        let v = &*self.variant;
        let Some(types) = v.rules.royal_presence else {
            return;
        };
        for p in pos.players_in() {
            let player = &v.players[p];
            let mut at_home = 0;
            for t in (0..v.pieces.len()).filter(|t| types >> t & 1 != 0) {
                at_home += pos
                    .type_cells(player.army, t as u8)
                    .intersection(&player.home.to_width())
                    .len();
            }
            score[player.army as usize] += match at_home {
                0 => PRESENCE_NONE,
                1 => PRESENCE_ONE,
                _ => 0,
            };
        }
    }

    /// Two sides (two armies): the score of the army to move minus the
    /// other's, plus a small bonus for having the move.
    pub fn two_sided<const W: usize>(&self, pos: &Position<W>) -> i32 {
        let s = self.armies(pos);
        let me = pos.army_to_move() as usize;
        s[me] - s[1 - me] + self.weights.tempo
    }

    /// Many armies: `army`'s score minus the average of its opponents', the
    /// armies no longer in the game counting nothing (so that putting an
    /// opponent out is worth its whole army).
    pub fn many_sided<const W: usize>(&self, pos: &Position<W>, army: u8) -> i32 {
        self.many_sided_all(pos)[army as usize]
    }

    /// [`Eval::many_sided`] for every army at once (one evaluation).
    pub fn many_sided_all<const W: usize>(&self, pos: &Position<W>) -> [i32; MAX_ARMIES] {
        let v = &*self.variant;
        let s = self.armies(pos);
        let n = v.armies.len();
        let mut armies_in = 0u8;
        for p in pos.players_in() {
            armies_in |= 1 << v.players[p].army;
        }
        let total_in: i32 = (0..n)
            .filter(|&a| armies_in >> a & 1 != 0)
            .map(|a| s[a])
            .sum();
        let mut out = [0; MAX_ARMIES];
        for (a, x) in out.iter_mut().enumerate().take(n) {
            let others = total_in - if armies_in >> a & 1 != 0 { s[a] } else { 0 };
            *x = s[a] - others / (n as i32 - 1).max(1);
        }
        out
    }
}

/// Recent static scores by position key: a node's score is often asked for
/// again (transpositions, re-searches, quiescence), and computing it walks
/// every piece's moves.
#[derive(Clone, Debug)]
pub struct EvalCache {
    entries: Vec<(u64, i32)>,
}

impl EvalCache {
    /// Entries (a power of two): 1.5 MB.
    const SIZE: usize = 1 << 16;

    pub fn new() -> EvalCache {
        EvalCache {
            entries: vec![(0, 0); Self::SIZE],
        }
    }

    /// The score stored for `key`, if any (a key of 0 is never stored).
    #[inline]
    pub fn get(&self, key: u64) -> Option<i32> {
        let (k, s) = self.entries[key as usize & (Self::SIZE - 1)];
        (k == key && key != 0).then_some(s)
    }

    #[inline]
    pub fn put(&mut self, key: u64, score: i32) {
        self.entries[key as usize & (Self::SIZE - 1)] = (key, score);
    }

    /// Forgets every score (the evaluation changed).
    pub fn clear(&mut self) {
        self.entries.fill((0, 0));
    }
}

impl Default for EvalCache {
    fn default() -> Self {
        EvalCache::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::weights::{Weights, MOBILITY_BUCKETS};
    use quadrille_engine::embedded;

    fn eval(name: &str) -> (Arc<Variant>, Eval) {
        let v = embedded::variant(name).unwrap();
        let e = Eval::new(&v, Terms::default());
        (v, e)
    }

    #[test]
    fn the_start_is_balanced() {
        for name in ["chess", "magna-carta", "caissa-britannia", "avon"] {
            let (v, e) = eval(name);
            let p = v.start();
            let s = e.two_sided(&p) - e.weights.tempo;
            // Magna Carta's armies differ (Fairy-Stockfish puts White
            // about five pawns ahead); the others are mirror images.
            let limit = if name == "magna-carta" { 600 } else { 0 };
            assert!(s.abs() <= limit, "{name}: {s}");
        }
        for name in crate::families::MINI_FIVEQUARTERS {
            let (v, e) = eval(name);
            let p = v.start();
            let s = e.armies(&p);
            assert!(s[..4].iter().all(|&x| x == s[0]), "{name}: {s:?}");
            assert_eq!(e.many_sided(&p, 0), 0);
        }
    }

    #[test]
    fn material_counts() {
        let (v, e) = eval("chess");
        // White without the Queen's Knight, Black to move.
        let p = Position::from_string(
            v.clone(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR b KQkq - 0 1",
        )
        .unwrap();
        let s = e.two_sided(&p);
        assert!(s > 200, "{s}");
    }

    /// The score of `fen` with only the named weight switched on among the
    /// pawn, threat and king-attack terms, minus the score with none.
    fn term(name: &str, fen: &str, weight: i32) -> i32 {
        let v = embedded::variant("chess").unwrap();
        let mut w = Weights {
            passed: 0,
            supported: 0,
            pawn_threat: 0,
            hanging: 0,
            king_attack: 0,
            ..Weights::default()
        };
        let off = Eval::with_weights(&v, Terms::default(), w.clone());
        match name {
            "passed" => w.passed = weight,
            "supported" => w.supported = weight,
            "pawn_threat" => w.pawn_threat = weight,
            "hanging" => w.hanging = weight,
            "king_attack" => w.king_attack = weight,
            "king_danger" => w.king_danger = weight,
            "storm" => w.storm = weight,
            "passed_king" => w.passed_king = weight,
            "pair" => w.pair = weight,
            "open_file" => w.open_file = weight,
            "outpost" => w.outpost = weight,
            "isolated" => w.isolated = weight,
            "doubled" => w.doubled = weight,
            "phalanx" => w.phalanx = weight,
            "lesser_threat" => w.lesser_threat = weight,
            _ => unreachable!(),
        }
        let on = Eval::with_weights(&v, Terms::default(), w);
        let p = Position::from_string(v, fen).unwrap();
        on.two_sided(&p) - off.two_sided(&p)
    }

    #[test]
    fn bishops_on_both_colours_make_a_pair() {
        let pair = |fen: &str| term("pair", &format!("{fen} w - - 0 1"), 40);
        // White's Bishops on c1 and f1: a pair; on c1 and e3 (both dark):
        // none; Black's pair costs White.
        assert_eq!(pair("4k3/8/8/8/8/8/8/2B1KB2"), 40);
        assert_eq!(pair("4k3/8/8/8/8/4B3/8/2B1K3"), 0);
        assert_eq!(pair("2b1kb2/8/8/8/8/8/8/4K3"), -40);
        // Knights do not pair.
        assert_eq!(pair("4k3/8/8/8/8/8/8/1N2K1N1"), 0);
    }

    #[test]
    fn a_rook_gains_on_an_open_file_and_half_on_a_half_open_one() {
        let open = |fen: &str| term("open_file", &format!("{fen} w - - 0 1"), 20);
        // White's Rook on d1: no pawn on the d-file, a Black pawn there,
        // a White one there (in front or behind).
        assert_eq!(open("4k3/8/8/8/8/8/8/3RK3"), 20);
        assert_eq!(open("4k3/3p4/8/8/8/8/8/3RK3"), 10);
        assert_eq!(open("4k3/8/8/8/3P4/8/8/3RK3"), 0);
        assert_eq!(open("4k3/8/8/8/8/8/8/3PK2R"), 20);
        // A Queen, which slides along diagonals too, gains nothing (as in
        // Stockfish), nor Bishops, Knights and Kings.
        assert_eq!(open("4k3/8/8/8/8/8/8/3QK3"), 0);
        assert_eq!(open("4k3/8/8/8/8/8/8/2BNK3"), 0);
        // Black's Rook on an open file costs White.
        assert_eq!(open("3rk3/8/8/8/8/8/8/4K3"), -20);
    }

    #[test]
    fn a_minor_piece_gains_on_an_outpost_no_hostile_pawn_can_attack() {
        let outpost = |fen: &str| term("outpost", &format!("{fen} w - - 0 1"), 30);
        // White's Knight on d5, defended by the e4 pawn: Black's c7 pawn
        // could still drive it away, the c5 pawn has passed it.
        assert_eq!(outpost("4k3/2p5/8/3N4/4P3/8/8/4K3"), 0);
        assert_eq!(outpost("4k3/8/8/2pN4/4P3/8/8/4K3"), 30);
        // A pawn on its own file in front does not attack it.
        assert_eq!(outpost("4k3/3p4/8/3N4/4P3/8/8/4K3"), 30);
        // Undefended, or too near home (d3), or on the last ranks: nothing.
        assert_eq!(outpost("4k3/8/8/3N4/8/4P3/8/4K3"), 0);
        assert_eq!(outpost("4k3/8/8/8/8/3N4/4P3/4K3"), 0);
        assert_eq!(outpost("4k3/3N4/4P3/8/8/8/8/4K3"), 0);
        // A Bishop gains half; a Rook or a Queen nothing.
        assert_eq!(outpost("4k3/8/8/3B4/4P3/8/8/4K3"), 15);
        assert_eq!(outpost("4k3/8/8/3R4/4P3/8/8/4K3"), 0);
        assert_eq!(outpost("4k3/8/8/3Q4/4P3/8/8/4K3"), 0);
        // Black's Knight on e4, defended by d5: it costs White.
        assert_eq!(outpost("4k3/8/8/3p4/4n3/8/8/4K3"), -30);
    }

    #[test]
    fn a_passed_pawn_gains_as_the_kings_race_favours_it() {
        // White's passed d-pawn with White's King beside it; a pawn
        // ending, so the term counts in full.
        let race = |fen: &str| term("passed_king", &format!("{fen} w - - 0 1"), 100);
        // Black's King far from the pawn, White's beside it: a bonus.
        let far = race("8/8/2KP4/8/8/8/8/7k");
        assert!(far > 0, "{far}");
        // Black's King in front of the pawn: less, and the pawn further
        // back counts less again.
        let blocked = race("8/3k4/3P4/2K5/8/8/8/8");
        assert!(blocked < far, "{blocked} against {far}");
        let back = race("8/8/8/8/2KP4/8/8/7k");
        assert!(0 < back && back < far, "{back} against {far}");
        // Too far from promoting (the pawn's first moves): nothing.
        assert_eq!(race("7k/8/8/8/8/2KP4/8/8"), 0);
    }

    #[test]
    fn a_pawn_storm_costs_more_as_it_comes_closer() {
        // Black's g-pawn marches on White's King on g1 (`row`: the FEN of
        // the pawn's `rank`); Black's King on e8 has no White pawn in front.
        let storm = |rank: usize, row: &str| {
            let mut rows = [
                "rnbqkbnr", "pppppp1p", "8", "8", "8", "8", "PPPPPPPP", "RNBQ1RK1",
            ];
            rows[8 - rank] = row;
            term("storm", &format!("{} w kq - 0 1", rows.join("/")), 10)
        };
        assert_eq!(storm(4, "1p6"), 0, "b4");
        let far = storm(4, "6p1");
        assert!(far < 0, "g4: {far}");
        // Two king steps away it counts twice.
        let near = storm(3, "6p1");
        assert!(near < far, "g3: {near}, g4: {far}");
        assert_eq!(storm(3, "7p"), near, "h3");
    }

    #[test]
    fn pawn_structure_threats_and_king_attack_count() {
        // White's d5 is passed; Black's a7 and b7 are not (a2 and b2 face
        // them) and b7 is not supported.
        let passed = "4k3/pp6/8/3P4/8/8/PP6/4K3 w - - 0 1";
        assert!(term("passed", passed, 100) > 0);
        // Black's c6 stops it.
        let stopped = "4k3/pp6/2p5/3P4/8/8/PP6/4K3 w - - 0 1";
        assert_eq!(term("passed", stopped, 100), 0);
        // b3 supports c4 (White, +1) against nothing for Black.
        let chain = "4k3/p7/8/8/2P5/1P6/8/4K3 w - - 0 1";
        assert_eq!(term("supported", chain, 10), 10);
        // The pawn on e4 forks d5 and f5: two threats; the Knights are also
        // undefended and attacked by it.
        let fork = "4k3/8/8/3n1n2/4P3/8/8/4K3 w - - 0 1";
        assert_eq!(term("pawn_threat", fork, 30), 60);
        assert_eq!(term("hanging", fork, 7), 14);
        // White's Queen on h5 bears on h7 and f7 next to Black's King; on
        // a4 it does not.
        let attack = "6k1/5ppp/8/7Q/8/8/5PPP/4R1K1 w - - 0 1";
        let quiet = "6k1/5ppp/8/8/Q7/8/5PPP/4R1K1 w - - 0 1";
        assert!(term("king_attack", attack, 10) > 0);
        assert_eq!(term("king_attack", quiet, 10), 0);
    }

    #[test]
    fn royal_danger_costs_the_attacked_royal_piece() {
        // Queen h5 and Knight g5 both hit h7 and f7 next to Black's King;
        // h7 is defended by the King alone: two attackers, four hits, one
        // weak cell, (50 * 2 + 69 * 4 + 185)² / 4096 = 76 in the middle game.
        let attack = "r4rk1/ppp2ppp/8/6NQ/8/8/PPP2PPP/R5K1 w - - 0 1";
        let danger = term("king_danger", attack, 100);
        assert!((20..=76).contains(&danger), "{danger}");
        // Away from the King: no danger to either side.
        let quiet = "r4rk1/ppp2ppp/8/8/Q7/8/PPP2PPP/RN4K1 w - - 0 1";
        assert_eq!(term("king_danger", quiet, 100), 0);
        // Nor at the start.
        assert_eq!(
            term(
                "king_danger",
                &embedded::variant("chess").unwrap().start().to_string(),
                100
            ),
            0
        );
        // Without its Queen, the Knight alone is no danger.
        let no_queen = "r4rk1/ppp2ppp/8/6N1/8/8/PPP2PPP/R5K1 w - - 0 1";
        assert_eq!(term("king_danger", no_queen, 100), 0);
    }

    /// What a part of the royal danger `set` turns on adds to White's
    /// score in a chess position, the danger at full scale.
    fn danger_added(fen: &str, set: fn(&mut Weights)) -> i32 {
        let v = embedded::variant("chess").unwrap();
        let mut w = Weights {
            king_danger: 100,
            ..Weights::default()
        };
        let off = Eval::with_weights(&v, Terms::default(), w.clone());
        set(&mut w);
        let on = Eval::with_weights(&v, Terms::default(), w);
        let p = Position::from_string(v, fen).unwrap();
        on.two_sided(&p) - off.two_sided(&p)
    }

    /// The royal danger's further parts (`danger_more`).
    fn danger_more_added(fen: &str) -> i32 {
        danger_added(fen, |w| w.danger_more = 100)
    }

    #[test]
    fn a_piece_pinned_to_the_royal_one_adds_to_its_danger() {
        let pins = |fen| danger_added(fen, |w| w.danger_pins = 100);
        // Queen h5 and Knight g5 against the King on g8, and the Bishop on
        // b3 pins the Pawn on f7: 98 more danger for Black.
        let pinned = "r4rk1/ppp2ppp/8/6NQ/8/1B6/PPP2PPP/R5K1 w - - 0 1";
        assert!(pins(pinned) > 0, "{}", pins(pinned));
        // Without the Bishop nothing stands alone in a rider's line.
        let attack = "r4rk1/ppp2ppp/8/6NQ/8/8/PPP2PPP/R5K1 w - - 0 1";
        assert_eq!(pins(attack), 0);
        // A pin without an attack on the King is no danger.
        let quiet = "r4rk1/ppp2ppp/8/8/8/1B6/PPP2PPP/R5K1 w - - 0 1";
        assert_eq!(pins(quiet), 0);
    }

    #[test]
    fn cheaper_attackers_of_the_royal_zone_weigh_more() {
        let v = embedded::variant("chess").unwrap();
        let e = Eval::new(&v, Terms::default());
        let weight = |letter: char| {
            let t = v.pieces.iter().position(|p| p.letter == letter).unwrap();
            e.attacker_weight[t]
        };
        // Stockfish's order: Knight 81, Bishop 52, Rook 44, Queen 10.
        let [n, b, r, q] = ['N', 'B', 'R', 'Q'].map(weight);
        assert!(n >= b && b > r && r > q && q > 0, "{n} {b} {r} {q}");
        // Queen h5 and Knight g5 against the King on g8: two attackers
        // weigh 2 × (Knight + Queen), more than the flat 2 × 50.
        let attack = "r4rk1/ppp2ppp/8/6NQ/8/8/PPP2PPP/R5K1 w - - 0 1";
        let added = danger_added(attack, |w| w.danger_attackers = 100);
        assert!(added > 0, "{added}");
        let quiet = "r4rk1/ppp2ppp/8/8/Q7/8/PPP2PPP/RN4K1 w - - 0 1";
        assert_eq!(danger_added(quiet, |w| w.danger_attackers = 100), 0);
    }

    #[test]
    fn the_royal_dangers_further_parts_weigh_flanks_checks_and_defenders() {
        // Queen h5 and Knight g5 against the King on g8: the attacks on
        // its flank, the base, and the Queen's check on h7, which only the
        // King defends and the Knight supports (safe with the parts, not
        // without), add to the danger.
        let attack = "r4rk1/ppp2ppp/8/6NQ/8/8/PPP2PPP/R5K1 w - - 0 1";
        let added = danger_more_added(attack);
        assert!(added > 0, "{added}");
        // A black Knight on e8 defends g7 next to its King and the flank:
        // less danger than without it.
        let defended = "r3nrk1/ppp2ppp/8/6NQ/8/8/PPP2PPP/R5K1 w - - 0 1";
        let with_knight = danger_more_added(defended);
        assert!(with_knight < added, "{with_knight} {added}");
        // The parts only weigh a danger that is there: none at the start,
        // nor with the attackers away from the King.
        let start = embedded::variant("chess").unwrap().start().to_string();
        assert_eq!(danger_more_added(&start), 0);
        let quiet = "r4rk1/ppp2ppp/8/8/Q7/8/PPP2PPP/RN4K1 w - - 0 1";
        assert_eq!(danger_more_added(quiet), 0);
    }

    /// What learnt tables add to White's score (two sides) in a chess
    /// position: the same entry for the middle and the end game, so the
    /// phase does not matter.
    fn learnt_added(fen: &str, tables: impl Fn(&mut Weights)) -> i32 {
        let v = embedded::variant("chess").unwrap();
        let off = Eval::with_weights(&v, Terms::default(), Weights::default());
        let mut w = Weights::default();
        tables(&mut w);
        assert!(w.fits(&v));
        let on = Eval::with_weights(&v, Terms::default(), w);
        let p = Position::from_string(v, fen).unwrap();
        let white = |e: &Eval| {
            let s = e.armies(&p);
            s[0] - s[1]
        };
        white(&on) - white(&off)
    }

    #[test]
    fn safe_mobility_leaves_out_cells_hostile_pawns_attack() {
        // The Knight on d4 has eight moves; the pawns on c6 and e6 attack
        // two of them (b5, f5; d5 is not one). Black's pawns have no cell
        // White's pawns attack (White has none).
        let v = embedded::variant("chess").unwrap();
        let knight = v.piece_by_letter('N').unwrap();
        let p = Position::from_string(v.clone(), "4k3/8/2p1p3/8/3N4/8/8/4K3 w - - 0 1").unwrap();
        let knight_moves = |safe_mobility| {
            let w = Weights {
                safe_mobility,
                ..Weights::default()
            };
            let e = Eval::with_weights(&v, Terms::default(), w);
            let (_, terms) = e.learnt_terms(&p, true);
            (0..MOBILITY_BUCKETS as u32)
                .filter(|&m| terms.contains(&(e.know.mobility_feature(knight, m) as u32, 1)))
                .collect::<Vec<_>>()
        };
        assert_eq!(knight_moves(0), [8]);
        assert_eq!(knight_moves(1), [6]);
        // The linear term counts the same moves.
        let e = Eval::with_weights(&v, Terms::default(), Weights::default());
        let per_move = e.know.mobility_weight[knight as usize];
        let safe = Weights {
            safe_mobility: 1,
            ..Weights::default()
        };
        let on = Eval::with_weights(&v, Terms::default(), safe);
        assert_eq!(
            on.two_sided(&p) - e.two_sided(&p),
            per_move * 6 / 16 - per_move * 8 / 16
        );
    }

    #[test]
    fn learnt_threats_and_mobility_count_what_they_name() {
        use crate::weights::THREAT_KINDS;
        // Knight takes Rook: the kinds are (waiting, undefended),
        // (waiting, defended), (to move, undefended), (to move, defended).
        let threat = |w: &mut Weights| {
            let per_kind = [1, 10, 100, 1000];
            let table = per_kind.iter().chain(&per_kind).copied().collect();
            w.threats.insert("NR".into(), table);
        };
        assert_eq!(THREAT_KINDS, 4);
        // The Knight on e3 attacks the Rook on d5.
        let hanging = "4k3/8/8/3r4/8/4N3/8/4K3";
        assert_eq!(learnt_added(&format!("{hanging} w - - 0 1"), threat), 100);
        assert_eq!(learnt_added(&format!("{hanging} b - - 0 1"), threat), 1);
        // c6 defends it.
        let defended = "4k3/8/2p5/3r4/8/4N3/8/4K3";
        assert_eq!(learnt_added(&format!("{defended} w - - 0 1"), threat), 1000);
        assert_eq!(learnt_added(&format!("{defended} b - - 0 1"), threat), 10);
        // Black's Rook attacking White's Knight counts for Black.
        let reversed = "4k3/8/8/8/8/3rN3/8/4K3 b - - 0 1";
        let rook = |w: &mut Weights| {
            w.threats.insert("RN".into(), vec![0, 0, 7, 0, 0, 0, 7, 0]);
        };
        assert_eq!(learnt_added(reversed, rook), -7);
        // The Knight on e3 has 8 moves (the capture on d5 among them),
        // the one on a1 two; the Kings' moves are not in the table.
        let mobility = |w: &mut Weights| {
            let mut t = vec![0; 2 * MOBILITY_BUCKETS];
            for m in 0..MOBILITY_BUCKETS {
                t[m] = m as i32 * m as i32;
                t[MOBILITY_BUCKETS + m] = m as i32 * m as i32;
            }
            w.mobility_tables.insert("N".into(), t);
        };
        assert_eq!(learnt_added(&format!("{hanging} w - - 0 1"), mobility), 64);
        assert_eq!(learnt_added("4k3/8/8/8/8/8/8/N3K3 w - - 0 1", mobility), 4);
    }

    #[test]
    fn mobility_share_favours_short_range_moves() {
        let v = embedded::variant("chess").unwrap();
        let w = Weights {
            mobility: 2,
            mobility_share: 40,
            ..Weights::default()
        };
        let k = Knowledge::with_weights(&v, &w);
        let q = v.piece_by_letter('Q').unwrap() as usize;
        let n = v.piece_by_letter('N').unwrap() as usize;
        // Both get the plain 2 cp (32 sixteenths) and a share on top.
        assert!(k.mobility_weight[q] > 32);
        assert!(k.mobility_weight[n] > k.mobility_weight[q]);
    }

    #[test]
    fn putting_an_opponent_out_pays() {
        let (v, e) = eval("ariana");
        let start = v.start().to_string();
        let board = start.split(' ').next().unwrap();
        // Orange out (its army still standing, as in a set-up position).
        let out = Position::from_string(v.clone(), &format!("{board} r - - 0 1 out=o")).unwrap();
        assert!(e.many_sided(&out, 0) > e.many_sided(&v.start(), 0) + 500);
    }

    /// Every army's many-sided score from one evaluation: each as asked
    /// for alone, and (everyone in) summing to zero but for rounding.
    #[test]
    fn many_sided_scores_of_all_armies_agree_and_sum_to_zero() {
        for name in ["ariana", "tor-aikou"] {
            let (v, e) = eval(name);
            let mut pos = v.start();
            for _ in 0..12 {
                let all = e.many_sided_all(&pos);
                for (a, &score) in all.iter().enumerate().take(v.armies.len()) {
                    assert_eq!(score, e.many_sided(&pos, a as u8), "{name} {pos}");
                }
                let sum: i32 = all.iter().sum();
                assert!(sum.abs() <= v.armies.len() as i32, "{name} {pos}: {all:?}");
                let moves = pos.legal_moves();
                pos.make(moves.as_slice()[moves.len() / 2]);
            }
        }
    }

    /// Visits every position of `games` random games of `v` (80 plies
    /// each, fewer where a game ends), from the start.
    fn random_positions(
        v: &Arc<Variant>,
        rng: &mut fastrand::Rng,
        games: usize,
        mut visit: impl FnMut(&Position),
    ) {
        for _ in 0..games {
            let mut pos = v.start();
            for _ in 0..80 {
                visit(&pos);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.make(moves.as_slice()[rng.usize(..moves.len())]);
            }
        }
    }

    /// Every army's score of `pos` in the narrowest cell sets that hold
    /// its board (one word up to 64 cells, two up to 128) is `wide`'s.
    fn assert_narrow_sets_agree(e: &Eval, pos: &Position, wide: &[i32; MAX_ARMIES], what: &str) {
        if let Some(one) = pos.with_width::<1>() {
            assert_eq!(&e.armies(&one), wide, "{what} {pos} (one word)");
        } else if let Some(two) = pos.with_width::<2>() {
            assert_eq!(&e.armies(&two), wide, "{what} {pos} (two words)");
        }
    }

    /// The search evaluates a position in the narrowest cell sets that
    /// hold its board (one word up to 64 cells, two up to 128): every
    /// army's score is the same there, over random games.
    #[test]
    fn narrow_sets_evaluate_the_same() {
        let mut rng = fastrand::Rng::with_seed(11);
        let mut compared = 0;
        for name in embedded::names() {
            let (v, e) = eval(name);
            // And with the pawns' cells left out of mobility.
            let mut w = e.weights.clone();
            w.safe_mobility = 1;
            let safe = Eval::with_weights(&v, Terms::default(), w);
            random_positions(&v, &mut rng, 20, |pos| {
                assert_narrow_sets_agree(&e, pos, &e.armies(pos), name);
                assert_narrow_sets_agree(&safe, pos, &safe.armies(pos), name);
                compared += 1;
            });
        }
        assert!(compared > 10_000, "only {compared} positions compared");
    }

    #[test]
    fn royal_danger_and_storm_only_cost_and_sometimes_do_in_every_variant() {
        only_costs_and_sometimes_does("king_danger", |w, x| w.king_danger = x, false);
        only_costs_and_sometimes_does(
            "king_danger with danger_more, danger_pins and danger_attackers",
            |w, x| {
                w.danger_more = 100;
                w.danger_pins = 100;
                w.danger_attackers = 100;
                w.king_danger = x;
            },
            false,
        );
        only_costs_and_sometimes_does("storm", |w, x| w.storm = x, true);
    }

    #[test]
    fn pieces_attacked_by_lesser_ones_are_threatened() {
        // The Knight on d5 attacks the Rook on c7 and the Queen on f6 (two
        // lesser threats), not the Knight on b6 (as worth) nor the King.
        let fork = "3k4/2r5/1n3q2/3N4/8/8/8/4K3 w - - 0 1";
        assert_eq!(term("lesser_threat", fork, 30), 60);
        // Black's Rook on d8 attacks the Queen on d1: one for Black.
        assert_eq!(
            term("lesser_threat", "3rk3/8/8/8/8/8/8/3QK3 w - - 0 1", 30),
            -30
        );
    }

    /// Random games of every variant: lesser threats count alike in
    /// narrow cell sets, and somewhere in each variant.
    #[test]
    fn lesser_threats_count_in_every_variant() {
        let mut rng = fastrand::Rng::with_seed(7);
        for name in embedded::names() {
            let v = embedded::variant(name).unwrap();
            let (on, off) = on_and_off(&v, |w, x| w.lesser_threat = x);
            let mut threats = 0;
            random_positions(&v, &mut rng, 10, |pos| {
                let a = on.armies(pos);
                assert_narrow_sets_agree(&on, pos, &a, name);
                threats += (a != off.armies(pos)) as usize;
            });
            assert!(threats > 0, "{name}: no lesser threat");
        }
    }

    #[test]
    fn isolated_and_doubled_pawns_only_cost_and_sometimes_do_in_every_variant() {
        only_costs_and_sometimes_does("isolated", |w, x| w.isolated = x, true);
        only_costs_and_sometimes_does("doubled", |w, x| w.doubled = x, true);
    }

    #[test]
    fn isolated_and_doubled_pawns_cost_twice_as_much_in_the_end_game() {
        // White's c2 and c3 have no pawn on the b- or d-file, e2 none on
        // the d- or f-file: three isolated; c2 has c3 ahead: doubled.
        // Pawns alone: the end game, where each costs twice its weight.
        let weak = "4k3/8/8/8/8/2P5/2P1P3/4K3 w - - 0 1";
        assert_eq!(term("isolated", weak, 5), -30);
        assert_eq!(term("doubled", weak, 10), -20);
        // c2, d2, e2 stand beside each other on three files: neither.
        let chain = "4k3/8/8/8/8/8/2PPP3/4K3 w - - 0 1";
        assert_eq!(term("isolated", chain, 5), 0);
        assert_eq!(term("doubled", chain, 10), 0);
        // Black's isolated a7 counts for White.
        assert_eq!(term("isolated", "4k3/p7/8/8/8/8/8/4K3 w - - 0 1", 5), 10);
    }

    #[test]
    fn pawns_level_with_one_beside_make_a_phalanx() {
        // d4 and e4 stand level: two; c3 is behind d4 (it supports it),
        // h4 has no pawn beside: none.
        let fen = "4k3/8/8/8/3PP2P/2P5/8/4K3 w - - 0 1";
        assert_eq!(term("phalanx", fen, 10), 20);
        // Black's f5 and g5 moving down the board: two for Black.
        assert_eq!(term("phalanx", "4k3/8/8/5pp1/8/8/8/4K3 w - - 0 1", 10), -20);
    }

    #[test]
    fn phalanxes_only_gain_and_sometimes_do_in_every_variant_with_pawns() {
        one_way_and_sometimes_does("phalanx", |w, x| w.phalanx = x, true, 1);
    }

    /// Random games of every variant: outposts only add to an army's
    /// score (and do in the small boards' games), the same in narrow cell
    /// sets.
    #[test]
    fn outposts_only_gain_and_sometimes_do_in_every_variant() {
        let mut rng = fastrand::Rng::with_seed(6);
        for name in embedded::names() {
            let v = embedded::variant(name).unwrap();
            let (on, off) = on_and_off(&v, |w, x| w.outpost = x);
            let mut gains = 0;
            random_positions(&v, &mut rng, 10, |pos| {
                let (a, b) = (on.armies(pos), off.armies(pos));
                assert!(a.iter().zip(&b).all(|(a, b)| a >= b), "{name} {pos}");
                assert_narrow_sets_agree(&on, pos, &a, name);
                gains += (a != b) as usize;
            });
            // Random play seldom builds one on larger boards.
            if ["chess", "los-alamos", "ariana"].contains(&name) {
                assert!(gains > 0, "{name}: no outpost");
            }
        }
    }

    /// `v`'s evaluation with its shipped weights and the term `set` sets
    /// at 100, and at 0.
    fn on_and_off(v: &Arc<Variant>, set: fn(&mut Weights, i32)) -> (Eval, Eval) {
        let mut w = Weights::for_variant(v);
        set(&mut w, 0);
        let off = Eval::with_weights(v, Terms::default(), w.clone());
        set(&mut w, 100);
        (Eval::with_weights(v, Terms::default(), w), off)
    }

    /// Random games of every variant, evaluated with the term `set` sets on
    /// and off: it only takes from an army's score, and it does somewhere
    /// in every variant with royal pieces (and pawns, where it `needs_pawns`).
    fn only_costs_and_sometimes_does(term: &str, set: fn(&mut Weights, i32), needs_pawns: bool) {
        one_way_and_sometimes_does(term, set, needs_pawns, -1);
    }

    /// As [`only_costs_and_sometimes_does`], for a term that only moves
    /// an army's score the way of `sign` (-1 down, 1 up).
    fn one_way_and_sometimes_does(
        term: &str,
        set: fn(&mut Weights, i32),
        needs_pawns: bool,
        sign: i32,
    ) {
        let mut rng = fastrand::Rng::with_seed(5);
        for name in embedded::names() {
            let v = embedded::variant(name).unwrap();
            let (on, off) = on_and_off(&v, set);
            let mut moved = 0;
            random_positions(&v, &mut rng, 10, |pos| {
                let (a, b) = (on.armies(pos), off.armies(pos));
                assert!(
                    a.iter().zip(&b).all(|(a, b)| (a - b) * sign >= 0),
                    "{term} {name} {pos}"
                );
                assert_narrow_sets_agree(&on, pos, &a, &format!("{term} {name}"));
                moved += (a != b) as usize;
            });
            let expected = v.rules.royal.is_some() && (!needs_pawns || on.know.pawn_types != 0);
            assert!(!expected || moved > 0, "{term} {name}: never counted");
        }
    }
}
