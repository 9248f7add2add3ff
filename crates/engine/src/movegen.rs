//! Move generation: pseudo-legal moves from the precomputed rays, attack
//! tests from the reverse tables, and the legality filter of the royalty
//! rule module.

use crate::geometry::{Cell, CellSet, WIDE};
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::{army_of, kind_of, Position};
use crate::tables::Travel;
use crate::variant::{Attackers, DoubleStep, PieceType, TypeMask};

/// Per-position facts for judging moves one at a time
/// ([`Position::legality`], [`Position::is_legal`]).
pub struct Legality<const W: usize = WIDE> {
    presence: Option<Presence<W>>,
    /// A required type is extinct: no move is legal.
    extinct: bool,
    royal: Option<RoyalRules<W>>,
}

/// Royal presence: the types that count, the mover's home and how many
/// stand there now.
struct Presence<const W: usize> {
    types: TypeMask,
    home: CellSet<W>,
    at_home: i32,
}

struct RoyalRules<const W: usize> {
    passing: bool,
    no_royal_capture: bool,
    army: u8,
    royals: CellSet<W>,
    attackers: u8,
    /// No royal piece is attacked now: most moves need no test.
    fast: bool,
    leave: CellSet<W>,
    enter: CellSet<W>,
    /// In check (without path rules): the cells a move of a non-royal
    /// piece must leave or enter to change any attack on a royal piece.
    evade: Option<CellSet<W>>,
    lone_royal: bool,
    decisive: CellSet<W>,
    ruling: bool,
    mates: Option<MateCells<W>>,
    royal_shields: bool,
    next: usize,
    next_army: u8,
}

/// Which moves may checkmate another player (see `mate_exposure`).
#[derive(Default)]
struct MateCells<const W: usize> {
    /// Another player's royal piece is capturable by the next player
    /// already: every move that does not block checkmates them.
    every_move: bool,
    leave: CellSet<W>,
    enter: CellSet<W>,
}

impl<const W: usize> MateCells<W> {
    /// Might this move put a player out by checkmate? Special moves are
    /// not judged here: they may.
    fn may_mate(&self, m: Move, simple: bool) -> bool {
        self.every_move || !simple || self.leave.contains(m.from) || self.enter.contains(m.to)
    }
}

/// What the moves of every piece of the player to move share.
struct PieceGen<'a> {
    /// Bit set of the armies the mover may capture.
    enemies: u8,
    ep: Option<(Cell, Cell)>,
    ep_types: TypeMask,
    double_step: Option<&'a DoubleStep>,
}

/// What `push_special` needs to know about the piece being moved.
struct PushSite {
    player: usize,
    home_rule: bool,
    /// The path rules allow every move from here (`Tables::path_free`).
    free: bool,
    kind: PieceType,
    from: Cell,
    choices: TypeMask,
}

/// Pushes the moves of one piece: the common case inline, path rules and
/// promotion through `push_special`. A struct with an `inline(always)`
/// method rather than a closure, so that the hot path is always inlined.
struct Pusher<'a, const PATHS: bool, const W: usize> {
    pos: &'a Position<W>,
    site: &'a PushSite,
    promoting: Option<&'a CellSet>,
}

impl<const PATHS: bool, const W: usize> Pusher<'_, PATHS, W> {
    /// Does a move to `to` promote?
    #[inline(always)]
    fn promotes_at(&self, to: Cell) -> bool {
        self.promoting.is_some_and(|z| z.contains(to))
    }

    /// `passed`: the cells a slide or hop crosses before `to`.
    #[inline(always)]
    fn push(
        &self,
        list: &mut MoveList,
        to: Cell,
        kind: MoveKind,
        passed: &[Cell],
        slides: bool,
        capture: bool,
    ) {
        if PATHS || self.promoting.is_some_and(|z| z.contains(to)) {
            self.pos
                .push_special(list, self.site, to, kind, passed, slides, capture);
        } else {
            list.push(Move {
                from: self.site.from,
                to,
                promotion: None,
                kind,
            });
        }
    }
}

impl<const W: usize> Position<W> {
    /// Type bit of the piece on `c` if it belongs to `army`, else 0.
    #[inline]
    pub(crate) fn type_bit(&self, c: Cell, army: u8) -> TypeMask {
        let code = self.board[c as usize];
        if code != 0 && army_of(code) == army {
            1 << kind_of(code)
        } else {
            0
        }
    }

    #[inline]
    fn all_empty(&self, cells: &[Cell]) -> bool {
        cells.iter().all(|&c| self.board[c as usize] == 0)
    }

    /// Could a piece of `player` of one of `types` capture on `cell` by a
    /// leap?
    pub(crate) fn leap_attackers(&self, cell: Cell, player: usize, types: TypeMask) -> bool {
        if self.variant.rules.extended {
            self.leap_attack::<true>(cell, player, types)
        } else {
            self.leap_attack::<false>(cell, player, types)
        }
    }

    fn leap_attack<const PATHS: bool>(&self, cell: Cell, player: usize, types: TypeMask) -> bool {
        let v = &*self.variant;
        let t = &v.tables;
        let army = v.players[player].army;
        let at = &t.attacks[player];
        let (s, e) = at.leap_index[cell as usize];
        at.leaps[s as usize..e as usize].iter().any(|la| {
            la.types & types & self.type_bit(la.from, army) != 0
                && self.all_empty(&t.cells[la.lame_start as usize..][..la.lame_len as usize])
                && (!PATHS || self.capture_allowed(player, la.from, &[], cell, false))
        })
    }

    /// Under the path rules (camps, boundaries, ...): may the piece on
    /// `from` of `player` capture on `to` over `passed`? Not if it would
    /// have to promote there with nothing to become (Yang Aikou's Pawns).
    fn capture_allowed(
        &self,
        player: usize,
        from: Cell,
        passed: &[Cell],
        to: Cell,
        slides: bool,
    ) -> bool {
        let v = &*self.variant;
        let kind = kind_of(self.board[from as usize]);
        if v.rules.capture_needs_choice {
            if let Some(p) = &v.rules.promotion {
                if p.pieces >> kind & 1 != 0
                    && p.zone[player].contains(to)
                    && self.promotion_mask(player) == 0
                {
                    return false;
                }
            }
        }
        !v.rules.paths.active
            || v.tables.path_free(player, kind, from)
            || self.path_allowed(player, false, kind, from, passed, to, slides, true)
    }

    /// Is `cell` attacked by `player`: could one of their pieces capture
    /// there by a capturing move (whether or not that capture is legal)?
    /// Path rules (camps, boundaries, Rivers) are obeyed: a piece that may
    /// not make the capture does not attack. Under `facing`, a facing piece
    /// on `cell` is also attacked by one of `player`'s along an open line.
    pub fn is_attacked_by(&self, cell: Cell, player: usize) -> bool {
        if self.variant.rules.extended {
            self.attacked::<true>(cell, player)
        } else {
            self.attacked::<false>(cell, player)
        }
    }

    fn attacked<const PATHS: bool>(&self, cell: Cell, player: usize) -> bool {
        let v = &*self.variant;
        let t = &v.tables;
        let army = v.players[player].army;
        let mine = &self.army_cells[army as usize];
        // No piece of theirs where a leap (a line) could come from: the
        // common case far from the attacker's army, one set test.
        let [leaps, lines] = self.sets.reach(player, cell);
        if !leaps.intersection(mine).is_empty()
            && self.leap_attack::<PATHS>(cell, player, TypeMask::MAX)
        {
            return true;
        }
        if PATHS {
            if let Some(f) = &v.rules.facing {
                if self.faced(cell, player, f.pieces) {
                    return true;
                }
            }
        }
        if lines.intersection(mine).is_empty() {
            return false;
        }
        for l in &t.attacks[player].lines {
            // A ray with no piece of the attacker's army on it holds no
            // attacker: skip it without walking it.
            if self
                .sets
                .ray_set(l.vector, cell)
                .intersection(mine)
                .is_empty()
            {
                continue;
            }
            let ray = t.ray(l.vector, cell);
            let mut i = 0;
            while i < ray.len() && self.board[ray[i] as usize] == 0 {
                i += 1;
            }
            if i == ray.len() {
                continue;
            }
            let bit = self.type_bit(ray[i], army);
            if l.rides(bit, i)
                && (!PATHS || self.capture_allowed(player, ray[i], &ray[..i], cell, true))
            {
                return true;
            }
            if l.hop != 0 {
                i += 1;
                while i < ray.len() && self.board[ray[i] as usize] == 0 {
                    i += 1;
                }
                if i < ray.len()
                    && self.type_bit(ray[i], army) & l.hop != 0
                    && (!PATHS || self.capture_allowed(player, ray[i], &ray[..i], cell, true))
                {
                    return true;
                }
            }
        }
        false
    }

    /// Is `cell` attacked by any player in the game who is hostile to `army`?
    pub fn attacked_by_enemies(&self, cell: Cell, army: u8) -> bool {
        let v = &*self.variant;
        v.players.iter().enumerate().any(|(p, pl)| {
            self.out >> p & 1 == 0 && v.hostile(pl.army, army) && self.is_attacked_by(cell, p)
        })
    }

    /// The royal pieces of an army under the "must retain" rule: the lone
    /// piece of each required type. `None` if a required type is extinct.
    pub fn royal_cells(&self, army: u8) -> Option<CellSet<W>> {
        let Some(royal) = &self.variant.rules.royal else {
            return Some(CellSet::EMPTY);
        };
        let mut set = CellSet::EMPTY;
        let mut m = royal.must_retain[army as usize];
        while m != 0 {
            let t = m.trailing_zeros() as usize;
            m &= m - 1;
            let cells = &self.type_cells[army as usize][t];
            if cells.is_empty() {
                return None;
            }
            if cells.is_single() {
                set = set.union(cells);
            }
        }
        Some(set)
    }

    /// Is any royal piece of the army to move attacked?
    pub fn in_check(&self) -> bool {
        let army = self.army_to_move();
        let attackers = self.royal_attackers();
        self.variant.rules.royal.is_some()
            && self
                .royal_cells(army)
                .is_some_and(|r| r.iter().any(|c| self.attacked_by_set(c, attackers)))
    }

    /// Types the army to move may promote to now: the fixed choices plus,
    /// under liberation, types it has fewer of than at the start.
    pub fn promotion_choices(&self) -> Vec<PieceType> {
        let mask = self.promotion_mask(self.to_move as usize);
        (0..self.variant.pieces.len() as u8)
            .filter(|t| mask >> t & 1 != 0)
            .collect()
    }

    /// Types `player` may promote to now.
    fn promotion_mask(&self, player: usize) -> TypeMask {
        let v = &*self.variant;
        let Some(p) = &v.rules.promotion else {
            return 0;
        };
        let army = v.players[player].army as usize;
        let mut mask: TypeMask = p.choices[player].iter().fold(0, |m, &t| m | 1 << t);
        if p.liberate {
            for t in 0..v.pieces.len() {
                if (self.type_cells[army][t].len() as u8) < v.initial_counts[army][t] {
                    mask |= 1 << t;
                }
            }
            // Never the promoting types themselves (a Pawn to a Pawn).
            mask &= !(p.liberate_exclude | p.pieces);
        }
        mask
    }

    /// Pushes a move subject to the path rules, with its promotions.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn push_special(
        &self,
        list: &mut MoveList,
        site: &PushSite,
        to: Cell,
        kind: MoveKind,
        passed: &[Cell],
        slides: bool,
        capture: bool,
    ) {
        let from = site.from;
        // `free` holds when no path rule is in force.
        if !site.free
            && !self.path_allowed(
                site.player,
                site.home_rule,
                site.kind,
                from,
                passed,
                to,
                slides,
                capture,
            )
        {
            return;
        }
        let (promote, optional) = match &self.variant.rules.promotion {
            Some(p) if p.pieces >> site.kind & 1 != 0 => (
                p.zone[site.player].contains(to),
                p.optional_zone[site.player].contains(to),
            ),
            _ => (false, false),
        };
        if promote || optional {
            let mut m = site.choices;
            while m != 0 {
                list.push(Move {
                    from,
                    to,
                    promotion: Some(m.trailing_zeros() as PieceType),
                    kind,
                });
                m &= m - 1;
            }
        }
        if !promote {
            list.push(Move {
                from,
                to,
                promotion: None,
                kind,
            });
        }
    }

    /// Is another player of the same army still in the game?
    pub(crate) fn teammate_in(&self, player: usize) -> bool {
        let army = self.variant.players[player].army;
        self.players_in()
            .any(|p| p != player && self.variant.players[p].army == army)
    }

    /// The path rules of the variant: may `player` move a piece of type
    /// `kind` from `from` over `passed` to `to`? ([`PathRules::allows`]
    /// and the home rule, which depends on who is still in the game.)
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn path_allowed(
        &self,
        player: usize,
        home_rule: bool,
        kind: PieceType,
        from: Cell,
        passed: &[Cell],
        to: Cell,
        slides: bool,
        capture: bool,
    ) -> bool {
        let v = &*self.variant;
        let home = &v.players[player].home;
        if home_rule && !home.contains(from) && !home.contains(to) {
            return false;
        }
        v.rules
            .paths
            .allows(player, kind, from, passed, to, slides, capture)
    }

    /// The players who threaten the royal pieces of the player to move.
    pub(crate) fn royal_attackers(&self) -> u8 {
        let v = &*self.variant;
        let hostile = v.hostile_players[self.army_to_move() as usize] & !self.out;
        match v.rules.royal.as_ref().map(|r| r.attackers) {
            Some(Attackers::Next) => hostile & 1 << self.next_player(self.to_move),
            _ => hostile,
        }
    }

    /// Is `cell` attacked by any player in the bit set?
    #[inline]
    fn attacked_by_set(&self, cell: Cell, players: u8) -> bool {
        let mut m = players;
        while m != 0 {
            let p = m.trailing_zeros() as usize;
            m &= m - 1;
            if self.is_attacked_by(cell, p) {
                return true;
            }
        }
        false
    }

    /// All pseudo-legal moves of the player to move: what the pieces' rays,
    /// double steps, en passant, castling and promotion allow, before the
    /// royalty test. They are added to `list` (not cleared first).
    pub fn pseudo_legal_moves(&self, list: &mut MoveList) {
        if self.variant.rules.extended {
            self.generate::<true, true>(list)
        } else {
            self.generate::<false, true>(list)
        }
    }

    /// The pseudo-legal moves that capture or promote (what a quiescence
    /// search tries), in the order [`Position::pseudo_legal_moves`] lists
    /// them; no castling, double step or swap. Added to `list`.
    pub fn pseudo_legal_tactical_moves(&self, list: &mut MoveList) {
        if self.variant.rules.extended {
            self.generate::<true, false>(list)
        } else {
            self.generate::<false, false>(list)
        }
    }

    /// `pseudo_legal_moves`, compiled once with the path rules (and swaps)
    /// and once without, so that games without them pay nothing for them;
    /// without `QUIETS`, only captures and promotions.
    fn generate<const PATHS: bool, const QUIETS: bool>(&self, list: &mut MoveList) {
        let v = &*self.variant;
        let t = &v.tables;
        let player = self.to_move as usize;
        let army = v.players[player].army;
        let enemies = v.enemies[army as usize];
        let promotion = v.rules.promotion.as_ref();
        let choices = if promotion.is_some() {
            self.promotion_mask(player)
        } else {
            0
        };
        let ep = if v.rules.en_passant { self.ep } else { None };
        let ds = v.rules.double_step.as_ref();
        let ep_types = ds.map_or(0, |d| d.pieces);
        let home_rule = v.rules.paths.home_moves && self.teammate_in(player);
        let gen = PieceGen {
            enemies,
            ep,
            ep_types,
            double_step: ds,
        };

        for from in self.army_cells[army as usize].iter() {
            let first = list.len();
            let kind = kind_of(self.board[from as usize]);
            let promoting = match promotion {
                Some(p) if p.pieces >> kind & 1 != 0 => Some(&p.any_zone[player]),
                _ => None,
            };
            // Path rules and promotion are the rare case: keep the common
            // push small enough to inline.
            let site = PushSite {
                player,
                home_rule,
                free: !v.rules.paths.active || !home_rule && t.path_free(player, kind, from),
                kind,
                from,
                choices,
            };
            // A piece the path rules may stop takes the general push for
            // every move; any other the inlined one (promotion aside).
            if PATHS && !site.free {
                let pusher = Pusher::<true, W> {
                    pos: self,
                    site: &site,
                    promoting,
                };
                self.piece_moves::<true, QUIETS>(list, &pusher, &gen, first);
            } else {
                let pusher = Pusher::<false, W> {
                    pos: self,
                    site: &site,
                    promoting,
                };
                self.piece_moves::<false, QUIETS>(list, &pusher, &gen, first);
            }
        }

        if !QUIETS {
            return;
        }
        if PATHS {
            if let Some(s) = &v.rules.swap {
                self.push_swaps(list, s);
            }
        }

        for (i, c) in v.rules.castling.iter().enumerate() {
            if self.castling >> i & 1 == 0 || c.army != army {
                continue;
            }
            let Some((king, rook)) = c.pieces else {
                continue;
            };
            if self.type_bit(c.king, army) != 1 << king || self.type_bit(c.rook, army) != 1 << rook
            {
                continue;
            }
            if c.must_be_empty.iter().any(|x| self.board[x as usize] != 0) {
                continue;
            }
            if c.king_path
                .iter()
                .any(|&x| self.attacked_by_enemies(x, army))
            {
                continue;
            }
            list.push(Move {
                from: c.king,
                to: c.king_to,
                promotion: None,
                kind: MoveKind::Castle(i as u8),
            });
        }
    }

    /// The moves of one piece (`pusher.site`): its rays, then its double
    /// step. `first`: where its moves begin in `list`.
    #[inline(always)]
    fn piece_moves<const PATHS: bool, const QUIETS: bool>(
        &self,
        list: &mut MoveList,
        pusher: &Pusher<PATHS, W>,
        gen: &PieceGen,
        first: usize,
    ) {
        let v = &*self.variant;
        let t = &v.tables;
        let (player, kind, from) = (pusher.site.player, pusher.site.kind, pusher.site.from);
        let (ep, ep_types, ds) = (gen.ep, gen.ep_types, gen.double_step);
        let hostile = |code: u8| gen.enemies >> army_of(code) & 1 != 0;
        for ray in t.piece_rays(player, kind, from) {
            let cells = &t.cells[ray.start as usize..][..ray.len as usize];
            match ray.travel {
                Travel::Leap => {
                    if ray.lame_len != 0
                        && !self
                            .all_empty(&t.cells[ray.lame_start as usize..][..ray.lame_len as usize])
                    {
                        continue;
                    }
                    let to = cells[0];
                    let target = self.board[to as usize];
                    if target == 0 {
                        if ray.quiet {
                            if QUIETS || pusher.promotes_at(to) {
                                pusher.push(list, to, MoveKind::Normal, &[], false, false);
                            }
                        } else if ray.capture
                            && ep_types >> kind & 1 != 0
                            && ep.is_some_and(|(e, victim)| {
                                e == to && hostile(self.board[victim as usize])
                            })
                        {
                            pusher.push(list, to, MoveKind::EnPassant, &[], false, true);
                        }
                    } else if ray.capture && hostile(target) {
                        pusher.push(list, to, MoveKind::Normal, &[], false, true);
                    }
                }
                Travel::Slide => {
                    for (i, &to) in cells.iter().enumerate() {
                        let target = self.board[to as usize];
                        if target == 0 {
                            if ray.quiet && (QUIETS || pusher.promotes_at(to)) {
                                pusher.push(list, to, MoveKind::Normal, &cells[..i], true, false);
                            }
                        } else {
                            if ray.capture && hostile(target) {
                                pusher.push(list, to, MoveKind::Normal, &cells[..i], true, true);
                            }
                            break;
                        }
                    }
                }
                Travel::Hop => {
                    let mut screen = false;
                    for (i, &to) in cells.iter().enumerate() {
                        let target = self.board[to as usize];
                        if !screen {
                            screen = target != 0;
                        } else if target == 0 {
                            if ray.quiet && (QUIETS || pusher.promotes_at(to)) {
                                pusher.push(list, to, MoveKind::Normal, &cells[..i], true, false);
                            }
                        } else {
                            if ray.capture && hostile(target) {
                                pusher.push(list, to, MoveKind::Normal, &cells[..i], true, true);
                            }
                            break;
                        }
                    }
                }
            }
        }
        if let Some(d) = ds.filter(|_| QUIETS) {
            if d.pieces >> kind & 1 != 0 && d.from[player].contains(from) {
                let (dx, dy) = t.orientation[player][from as usize].rotate((0, 1));
                let g = &v.geometry;
                if let Some(mid) = g.offset(from, dx, dy) {
                    if let Some(to) = g.offset(mid, dx, dy) {
                        if self.board[mid as usize] == 0 && self.board[to as usize] == 0 {
                            // A piece whose own moves include this step
                            // (a `DD` pawn, say) already has the move:
                            // make that one the double step, no twin.
                            let own = d.twins >> kind & 1 != 0
                                && list.as_mut_slice()[first..]
                                    .iter_mut()
                                    .filter(|m| m.to == to && m.kind == MoveKind::Normal)
                                    .fold(false, |_, m| {
                                        m.kind = MoveKind::DoubleStep;
                                        true
                                    });
                            if !own {
                                pusher.push(list, to, MoveKind::DoubleStep, &[mid], true, false);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Where the first three pieces on `ray` stand (indices into it,
    /// `ray.len()` for each one missing): what attacks, pins and screens
    /// along a line depend on.
    #[inline]
    pub(crate) fn first_pieces(&self, ray: &[Cell]) -> [usize; 3] {
        let mut found = [ray.len(); 3];
        let mut n = 0;
        for (i, &c) in ray.iter().enumerate() {
            if self.board[c as usize] != 0 {
                found[n] = i;
                n += 1;
                if n == 3 {
                    break;
                }
            }
        }
        found
    }

    /// Where a move of the army to move might expose one of its royal
    /// pieces, when none is attacked now: cells it must not leave without
    /// the full test (the first own piece on an enemy slider's line from a
    /// royal, the first two on a hopper's line, the blocker of a lame leap)
    /// and empty cells it must not enter without it (a new screen in front
    /// of a hopper). Every other ordinary move keeps the royals safe.
    #[inline(always)]
    fn exposure_cells(
        &self,
        army: u8,
        royals: CellSet<W>,
        attackers: u8,
    ) -> (CellSet<W>, CellSet<W>) {
        let v = &*self.variant;
        let t = &v.tables;
        let (mut leave, mut enter) = (CellSet::EMPTY, CellSet::EMPTY);
        for (p, pl) in v.players.iter().enumerate() {
            if attackers >> p & 1 == 0 {
                continue;
            }
            let at = &t.attacks[p];
            for r in royals.iter() {
                for l in &at.lines {
                    let ray = t.ray(l.vector, r);
                    let found = self.first_pieces(ray);
                    let cell = |k: usize| ray.get(found[k]).copied();
                    let own =
                        |k: usize| cell(k).is_some_and(|c| army_of(self.board[c as usize]) == army);
                    let enemy = |k: usize| cell(k).map_or(0, |c| self.type_bit(c, pl.army));
                    // Own piece in front of an enemy slider: pinned.
                    if own(0) && l.rides(enemy(1), found[1]) {
                        leave.insert(ray[found[0]]);
                    }
                    if l.hop != 0 {
                        // An enemy hopper first on the line: a new screen in
                        // front of it would open its attack.
                        if enemy(0) & l.hop != 0 {
                            for &c in &ray[..found[0]] {
                                enter.insert(c);
                            }
                        }
                        // An enemy hopper third: moving either of the first
                        // two leaves exactly one screen.
                        if enemy(2) & l.hop != 0 {
                            for k in 0..2 {
                                if own(k) {
                                    leave.insert(ray[found[k]]);
                                }
                            }
                        }
                    }
                }
                if let Some(f) = &v.rules.facing {
                    self.facing_exposure(r, army, pl.army, f.pieces, &mut leave);
                }
                let (s, e) = at.leap_index[r as usize];
                for la in &at.leaps[s as usize..e as usize] {
                    if la.lame_len != 0 && la.types & self.type_bit(la.from, pl.army) != 0 {
                        for &c in &t.cells[la.lame_start as usize..][..la.lame_len as usize] {
                            leave.insert(c);
                        }
                    }
                }
            }
        }
        (leave, enter)
    }

    /// After the mover's move: is one of its royal pieces attacked, or is a
    /// required type gone?
    pub(crate) fn royal_exposed(&self, army: u8, attackers: u8) -> bool {
        match self.royal_cells(army) {
            None => true,
            Some(r) => r.iter().any(|c| self.attacked_by_set(c, attackers)),
        }
    }

    /// Is a move of the lone royal piece from `from` to `to` safe: the
    /// destination not attacked and, under `no_passing_attacked`, no cell
    /// it slides over attacked, all judged with the piece lifted from
    /// `from`? Attack tests read only the board array, so lifting the piece
    /// there is enough; it stands on `to` for the destination's test
    /// (facing pieces attack only each other).
    fn royal_step_safe(&mut self, from: Cell, to: Cell, attackers: u8, passing: bool) -> bool {
        let code = std::mem::replace(&mut self.board[from as usize], 0);
        let held = std::mem::replace(&mut self.board[to as usize], code);
        let mut safe = !self.attacked_by_set(to, attackers);
        self.board[to as usize] = held;
        if safe && passing {
            let g = &self.variant.geometry;
            let df = g.file_of(to) as i32 - g.file_of(from) as i32;
            let dr = g.rank_of(to) as i32 - g.rank_of(from) as i32;
            let n = df.abs().max(dr.abs());
            if df == 0 || dr == 0 || df.abs() == dr.abs() {
                let (sf, sr) = (df.signum(), dr.signum());
                safe = (1..n)
                    .filter_map(|k| g.offset(from, sf * k, sr * k))
                    .all(|c| !self.attacked_by_set(c, attackers));
            }
        }
        self.board[from as usize] = code;
        safe
    }

    /// Removes the moves that break the royalty rules: check (a royal
    /// piece left attacked) and royal presence (no royal piece left in the
    /// mover's home).
    pub(crate) fn filter_legal(&mut self, list: &mut MoveList) {
        let ctx = self.legality();
        match (&ctx.presence, &ctx.royal) {
            _ if ctx.extinct => list.clear(),
            // The usual case, with the fewest tests per move.
            (None, Some(r)) => list.retain(|m| self.royal_legal(r, m)),
            (None, None) => {}
            _ => list.retain(|m| self.is_legal(&ctx, m)),
        }
    }

    /// What judging this position's moves needs, computed once: see
    /// [`Position::is_legal`]. (Inlined into `filter_legal`, where the
    /// compiler keeps its fields in registers: perft's speed.)
    #[inline(always)]
    pub fn legality(&self) -> Legality<W> {
        let presence = self.variant.rules.royal_presence.map(|types| {
            let player = self.to_move as usize;
            let army = self.army_to_move() as usize;
            let home = self.variant.players[player].home.to_width();
            let mut at_home = 0;
            for t in 0..self.variant.pieces.len() {
                if types >> t & 1 != 0 {
                    at_home += self.type_cells[army][t].intersection(&home).len() as i32;
                }
            }
            Presence {
                types,
                home,
                at_home,
            }
        });
        let mut ctx = Legality {
            presence,
            extinct: false,
            royal: None,
        };
        let Some(royal) = &self.variant.rules.royal else {
            return ctx;
        };
        let army = self.army_to_move();
        let Some(royals) = self.royal_cells(army) else {
            ctx.extinct = true;
            return ctx;
        };
        let attackers = self.royal_attackers();
        let fast = !royals.iter().any(|c| self.attacked_by_set(c, attackers));
        let (leave, enter) = if fast {
            self.exposure_cells(army, royals, attackers)
        } else {
            (CellSet::EMPTY, CellSet::EMPTY)
        };
        let evade = if fast || self.variant.rules.extended {
            None
        } else {
            Some(self.evasion_cells(royals, attackers))
        };
        // Under elimination a capture of a royal piece or of an army's last
        // piece puts its player out at once and may change who moves next
        // (the attacker): such moves take the full test.
        let next_only = royal.attackers == Attackers::Next;
        let decisive = if next_only || self.variant.rules.capture_needs_choice {
            self.decisive_cells(army, attackers)
        } else {
            CellSet::EMPTY
        };
        let mates = self.mate_exposure(army, royals);
        // A royal piece that moves may stand where a checkmated army's
        // leaving exposes it, whatever shielded it where it stood: judged
        // at its destination.
        let royal_shields =
            self.variant.rules.elimination.capturable_royal && self.players_in().count() > 2;
        let next = if royal_shields {
            self.next_player(self.to_move) as usize
        } else {
            0
        };
        ctx.royal = Some(RoyalRules {
            passing: royal.no_passing_attacked,
            no_royal_capture: royal.attackers == Attackers::Enemies,
            army,
            royals,
            attackers,
            fast,
            leave,
            enter,
            evade,
            lone_royal: royals.is_single(),
            decisive,
            // Any checkmate-ruling work at all in this position? One test
            // per move when not (every game but the four-player royal ones).
            ruling: royal_shields || mates.is_some(),
            mates,
            royal_shields,
            next,
            next_army: self.variant.players[next].army,
        });
        ctx
    }

    /// Is a pseudo-legal move of this position (one
    /// [`Position::pseudo_legal_moves`] listed) legal? `ctx` is this
    /// position's [`Position::legality`]. The search judges moves one at a
    /// time this way, only those it gets to; the position is used as
    /// scratch space and left as it was. A drop-out is never judged here
    /// ([`Position::legal_moves_into`] adds it when nothing else is legal).
    #[inline(always)]
    pub fn is_legal(&mut self, ctx: &Legality<W>, m: Move) -> bool {
        if let Some(p) = &ctx.presence {
            if m.kind != MoveKind::DropOut {
                let kind = kind_of(self.board[m.from as usize]);
                let after = m.promotion.unwrap_or(kind);
                let mut n = p.at_home;
                if p.types >> kind & 1 != 0 && p.home.contains(m.from) {
                    n -= 1;
                }
                if p.types >> after & 1 != 0 && p.home.contains(m.to) {
                    n += 1;
                }
                if n <= 0 {
                    return false;
                }
            }
        }
        if ctx.extinct {
            return false;
        }
        match &ctx.royal {
            Some(r) => self.royal_legal(r, m),
            None => true,
        }
    }

    /// The royal part of [`Position::is_legal`].
    #[inline(always)]
    fn royal_legal(&mut self, r: &RoyalRules<W>, m: Move) -> bool {
        let simple =
            matches!(m.kind, MoveKind::Normal | MoveKind::DoubleStep) && !r.decisive.contains(m.to);
        let quiet_path = r.fast && simple && !r.leave.contains(m.from) && !r.enter.contains(m.to);
        let royal_move = r.royals.contains(m.from);
        if r.ruling {
            let full = if royal_move {
                r.royal_shields
                    && self.shield_of_others(r.army, r.next_army, CellSet::single(m.to), r.next)
            } else {
                r.mates
                    .as_ref()
                    .is_some_and(|mates| mates.may_mate(m, simple))
            };
            if full {
                if r.passing && !self.royal_step_safe(m.from, m.to, r.attackers, true) {
                    return false;
                }
                return self.full_test(m, r.royals, r.attackers, false);
            }
        }
        if royal_move {
            // A royal piece never takes an enemy royal piece ("a Queen may
            // never capture the other Queen"): only a set-up position can
            // offer it.
            let t = self.board[m.to as usize];
            if r.no_royal_capture
                && t != 0
                && army_of(t) != r.army
                && self
                    .royal_cells(army_of(t))
                    .is_some_and(|c| c.contains(m.to))
            {
                return false;
            }
            if simple && (r.lone_royal || quiet_path) {
                return self.royal_step_safe(m.from, m.to, r.attackers, r.passing);
            }
            if r.passing && !self.royal_step_safe(m.from, m.to, r.attackers, true) {
                return false;
            }
        } else if quiet_path {
            return true;
        } else if simple
            && m.promotion.is_none()
            && r.evade
                .is_some_and(|e| !e.contains(m.from) && !e.contains(m.to))
        {
            // In check, and the move touches no attack on a royal piece.
            // (The engine's tests run with debug assertions: every move
            // turned away here is checked against the full test.)
            debug_assert!(!self.full_test(m, r.royals, r.attackers, true), "{m:?}");
            return false;
        }
        self.full_test(m, r.royals, r.attackers, true)
    }

    /// In check, without path rules (`rules.extended`): every cell whose
    /// piece leaving, arriving or being taken may change an attack on one
    /// of the `royals` that is attacked now. A superset: the attacking
    /// leapers with the cells that would stop a lame one, and along each
    /// line from the royal piece every cell up to the second piece on it
    /// where one of the first two is an attacker's (a slider first, or a
    /// hopper behind its screen). A move of a non-royal piece that
    /// neither leaves nor enters one leaves the check as it is.
    /// (Promotion may change which pieces are royal: not judged by these
    /// cells.)
    fn evasion_cells(&self, royals: CellSet<W>, attackers: u8) -> CellSet<W> {
        let v = &*self.variant;
        let t = &v.tables;
        let mut cells = CellSet::EMPTY;
        for (p, pl) in v.players.iter().enumerate() {
            if attackers >> p & 1 == 0 {
                continue;
            }
            let theirs = &self.army_cells[pl.army as usize];
            for r in royals.iter() {
                if !self.is_attacked_by(r, p) {
                    continue;
                }
                let at = &t.attacks[p];
                // Leapers: their cells, and the cells that would stop a
                // lame one.
                let (s, e) = at.leap_index[r as usize];
                for la in &at.leaps[s as usize..e as usize] {
                    if la.types & self.type_bit(la.from, pl.army) != 0 {
                        cells.insert(la.from);
                        for &c in &t.cells[la.lame_start as usize..][..la.lame_len as usize] {
                            cells.insert(c);
                        }
                    }
                }
                let [_, lines] = self.sets.reach(p, r);
                if lines.intersection(theirs).is_empty() {
                    continue;
                }
                for l in &at.lines {
                    if self
                        .sets
                        .ray_set(l.vector, r)
                        .intersection(theirs)
                        .is_empty()
                    {
                        continue;
                    }
                    let ray = t.ray(l.vector, r);
                    let end = (self.first_pieces(ray)[1] + 1).min(ray.len());
                    if ray[..end].iter().any(|&c| theirs.contains(c)) {
                        for &c in &ray[..end] {
                            cells.insert(c);
                        }
                    }
                }
            }
        }
        cells
    }

    /// Under the checkmate ruling (`elimination.capturable_royal`): a move
    /// that checkmates another player makes their army leave, which may
    /// open a line to the mover's own royal piece. `None` when no army
    /// leaving can expose the mover (the usual case: no third army's piece
    /// stands between the mover's royal pieces and the next player's line
    /// pieces); otherwise the cells whose leaving or entering may checkmate
    /// someone, so that those moves take the full test.
    fn mate_exposure(&self, army: u8, royals: CellSet<W>) -> Option<MateCells<W>> {
        let v = &*self.variant;
        // With two players left nobody else can be checkmated.
        if !v.rules.elimination.capturable_royal || self.players_in().count() <= 2 {
            return None;
        }
        let next = self.next_player(self.to_move) as usize;
        let next_army = v.players[next].army;
        if !self.shield_of_others(army, next_army, royals, next) {
            return None;
        }
        let mut mates = MateCells::default();
        for q in self.players_in() {
            let q_army = v.players[q].army;
            if q == self.to_move as usize || q == next || q_army == army {
                continue;
            }
            let Some(theirs) = self.royal_cells(q_army) else {
                continue;
            };
            if theirs.iter().any(|c| self.is_attacked_by(c, next)) {
                mates.every_move = true;
                return Some(mates);
            }
            let (leave, enter) = self.exposure_cells(army, theirs, 1 << next);
            mates.leave = mates.leave.union(&leave);
            mates.enter = mates.enter.union(&enter);
        }
        Some(mates)
    }

    /// Could removing the pieces of armies other than `army` and
    /// `next_army` open an attack of `next` on one of `royals`? A cautious
    /// answer (`line_shield` for lines and facing lines): a third army's
    /// piece before one of `next`'s riders with nothing else between but
    /// third armies' pieces and at most one of `army`'s (the one that may
    /// move), likewise before a hopper with at most two other pieces
    /// between (one screen, one that may move); or a third army's piece on
    /// the blocking cell of one of `next`'s lame leaps.
    fn shield_of_others(&self, army: u8, next_army: u8, royals: CellSet<W>, next: usize) -> bool {
        let v = &*self.variant;
        let t = &v.tables;
        let at = &t.attacks[next];
        // A line can only matter with a third army's piece and one of
        // `next`'s on it: two set tests before any walk.
        let theirs = self.army_cells[next_army as usize];
        let mut third = CellSet::EMPTY;
        for a in 0..v.armies.len() {
            if a as u8 != army && a as u8 != next_army {
                third = third.union(&self.army_cells[a]);
            }
        }
        let worth = |vector: u16, r: Cell| {
            let set = self.sets.ray_set(vector, r);
            !set.intersection(&third).is_empty() && !set.intersection(&theirs).is_empty()
        };
        for r in royals.iter() {
            for l in &at.lines {
                let riders = l.slide | l.limited[0].0 | l.limited[1].0;
                if worth(l.vector, r)
                    && self.line_shield(t.ray(l.vector, r), army, next_army, riders, l.hop)
                {
                    return true;
                }
            }
            let (s, e) = if at.lame {
                at.leap_index[r as usize]
            } else {
                (0, 0)
            };
            for la in &at.leaps[s as usize..e as usize] {
                let lame = &t.cells[la.lame_start as usize..][..la.lame_len as usize];
                if la.lame_len != 0
                    && la.types & self.type_bit(la.from, next_army) != 0
                    && lame.iter().any(|&c| {
                        let code = self.board[c as usize];
                        code != 0 && army_of(code) != army && army_of(code) != next_army
                    })
                {
                    return true;
                }
            }
            if let Some(f) = &v.rules.facing {
                for &l in &t.facing_lines {
                    if worth(l, r) && self.line_shield(t.ray(l, r), army, next_army, f.pieces, 0) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Along `ray` from a royal piece of `army`: could a rider (`riders`)
    /// or hopper (`hops`) of `next_army` attack it once third armies'
    /// pieces leave and one piece of `army` moves? See `shield_of_others`.
    fn line_shield(
        &self,
        ray: &[Cell],
        army: u8,
        next_army: u8,
        riders: TypeMask,
        hops: TypeMask,
    ) -> bool {
        let (mut shielded, mut others) = (false, 0);
        for &c in ray {
            let code = self.board[c as usize];
            if code == 0 {
                continue;
            }
            let a = army_of(code);
            if a != army && a != next_army {
                shielded = true;
                continue;
            }
            if a == next_army && shielded {
                let bit = 1 << kind_of(code);
                if bit & riders != 0 && others <= 1 || bit & hops != 0 && others <= 2 {
                    return true;
                }
            }
            others += 1;
            if others > 2 || (others > 1 && hops == 0) {
                return false;
            }
        }
        false
    }

    /// The legality test of the moves no shortcut decides: a swap on the
    /// board alone (`board_swap`: when no checkmate can follow it),
    /// anything else made, tested and unmade. Kept out of
    /// line: the filter's loop stays small for the common moves.
    #[inline(never)]
    fn full_test(&mut self, m: Move, royals: CellSet<W>, attackers: u8, board_swap: bool) -> bool {
        if board_swap && m.kind == MoveKind::Swap {
            return self.swap_safe(m, royals, attackers);
        }
        let army = self.army_to_move();
        let r = &self.variant.rules;
        let next_only = r.royal.as_ref().map(|r| r.attackers) == Some(Attackers::Next);
        let eliminating = r.elimination.capturable_royal;
        let hostile = self.variant.hostile_players[army as usize];
        self.make(m);
        // After the move the player to move is the next player still in:
        // the one who threatens under `attackers = "next"`. If the move
        // checkmated players, the mover was judged with them.
        let after = if next_only {
            hostile & 1 << self.to_move
        } else {
            attackers
        };
        let exposed = match self.mover_exposed {
            Some(e) if eliminating => e,
            _ => self.royal_exposed(army, after),
        };
        self.unmake();
        !exposed
    }

    /// Cells of the pieces whose capture needs the full legality test:
    /// the royal pieces of other armies and the last piece of an army,
    /// whose capture puts their player out at once; and the pieces of a
    /// threatening player who has lost nothing yet when promotion has no
    /// fixed choice: a capture gives them one, and so captures into their
    /// promotion zone (Yang Aikou).
    fn decisive_cells(&self, army: u8, attackers: u8) -> CellSet<W> {
        let v = &*self.variant;
        let mut set = CellSet::EMPTY;
        for a in 0..v.armies.len() as u8 {
            if a == army {
                continue;
            }
            let cells = self.army_cells[a as usize];
            if cells.is_single() {
                set = set.union(&cells);
            }
            if let Some(r) = self.royal_cells(a) {
                set = set.union(&r);
            }
        }
        if v.rules.capture_needs_choice {
            for (p, pl) in v.players.iter().enumerate() {
                if attackers >> p & 1 != 0 && self.promotion_mask(p) == 0 {
                    set = set.union(&self.army_cells[pl.army as usize]);
                }
            }
        }
        set
    }

    /// Is a swap legal: after it, judged on the board alone (a swap
    /// captures nothing, so nobody is out at once and the next player
    /// stays the same), is no royal piece of the mover attacked?
    fn swap_safe(&mut self, m: Move, royals: CellSet<W>, attackers: u8) -> bool {
        let (a, b) = (m.from as usize, m.to as usize);
        self.board.swap(a, b);
        let exposed = royals.iter().any(|c| {
            let c = match c {
                c if c == m.from => m.to,
                c if c == m.to => m.from,
                c => c,
            };
            self.attacked_by_set(c, attackers)
        });
        self.board.swap(a, b);
        !exposed
    }

    /// Is the game over because every player left in it moves one army?
    pub(crate) fn one_army_left(&self) -> bool {
        let v = &*self.variant;
        let mut armies = self.players_in().map(|p| v.players[p].army);
        let first = armies.next();
        armies.all(|a| Some(a) == first)
    }

    /// All legal moves of the player to move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.scratch().legal_moves_into(&mut list);
        list
    }

    /// Legal moves into a caller's list (cleared first): the fast form for
    /// search and perft. Some moves are judged by playing them, so it
    /// borrows the position mutably as scratch space; it leaves it exactly
    /// as it was. [`Position::legal_moves`] is the read-only form.
    pub fn legal_moves_into(&mut self, list: &mut MoveList) {
        list.clear();
        if self.variant.players.len() > 2 && self.few_left() {
            return;
        }
        self.pseudo_legal_moves(list);
        self.filter_legal(list);
        if list.is_empty() && self.variant.rules.dropout.is_some() {
            list.push(Move::DROP_OUT);
        }
    }
}
