//! Move generation: pseudo-legal moves from the precomputed rays, attack
//! tests from the reverse tables, and the legality filter of the royalty
//! rule module.

use crate::geometry::{Cell, CellSet};
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::{army_of, kind_of, Position};
use crate::tables::Travel;
use crate::variant::{PieceType, TypeMask};

impl Position {
    /// Type bit of the piece on `c` if it belongs to `army`, else 0.
    #[inline]
    fn type_bit(&self, c: Cell, army: u8) -> TypeMask {
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
        let v = &*self.variant;
        let t = &v.tables;
        let army = v.players[player].army;
        let at = &t.attacks[player];
        let (s, e) = at.leap_index[cell as usize];
        at.leaps[s as usize..e as usize].iter().any(|la| {
            la.types & types & self.type_bit(la.from, army) != 0
                && self.all_empty(&t.cells[la.lame_start as usize..][..la.lame_len as usize])
        })
    }

    /// Is `cell` attacked by `player`: could one of their pieces capture
    /// there by a capturing move (whether or not that capture is legal)?
    pub fn is_attacked_by(&self, cell: Cell, player: usize) -> bool {
        if self.leap_attackers(cell, player, TypeMask::MAX) {
            return true;
        }
        let v = &*self.variant;
        let t = &v.tables;
        let army = v.players[player].army;
        for l in &t.attacks[player].lines {
            let ray = t.ray(l.vector, cell);
            let mut i = 0;
            while i < ray.len() && self.board[ray[i] as usize] == 0 {
                i += 1;
            }
            if i == ray.len() {
                continue;
            }
            let bit = self.type_bit(ray[i], army);
            if bit & l.slide != 0 || l.limited.iter().any(|&(m, r)| bit & m != 0 && i < r as usize) {
                return true;
            }
            if l.hop != 0 {
                i += 1;
                while i < ray.len() && self.board[ray[i] as usize] == 0 {
                    i += 1;
                }
                if i < ray.len() && self.type_bit(ray[i], army) & l.hop != 0 {
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
    pub fn royal_cells(&self, army: u8) -> Option<CellSet> {
        let Some(royal) = &self.variant.rules.royal else {
            return Some(CellSet::EMPTY);
        };
        let mut set = CellSet::EMPTY;
        let mut m = royal.must_retain[army as usize];
        while m != 0 {
            let t = m.trailing_zeros() as usize;
            m &= m - 1;
            let cells = self.type_cells[army as usize][t];
            match cells.len() {
                0 => return None,
                1 => set = set.union(&cells),
                _ => {}
            }
        }
        Some(set)
    }

    /// Is any royal piece of the army to move attacked?
    pub fn in_check(&self) -> bool {
        let army = self.army_to_move();
        self.royal_cells(army)
            .is_some_and(|r| r.iter().any(|c| self.attacked_by_enemies(c, army)))
    }

    /// Types the army to move may promote to now: the fixed choices plus,
    /// under liberation, types it has fewer of than at the start.
    pub fn promotion_choices(&self) -> Vec<PieceType> {
        let mask = self.promotion_mask();
        (0..self.variant.pieces.len() as u8).filter(|t| mask >> t & 1 != 0).collect()
    }

    fn promotion_mask(&self) -> TypeMask {
        let v = &*self.variant;
        let Some(p) = &v.rules.promotion else {
            return 0;
        };
        let player = self.to_move as usize;
        let army = v.players[player].army as usize;
        let mut mask: TypeMask = p.choices[player].iter().fold(0, |m, &t| m | 1 << t);
        if p.liberate {
            for t in 0..v.pieces.len() {
                if (self.type_cells[army][t].len() as u8) < v.initial_counts[army][t] {
                    mask |= 1 << t;
                }
            }
            mask &= !p.liberate_exclude;
        }
        mask
    }

    /// All pseudo-legal moves of the player to move: what the pieces' rays,
    /// double steps, en passant, castling and promotion allow, before the
    /// royalty test.
    pub fn pseudo_legal_moves(&self, list: &mut MoveList) {
        let v = &*self.variant;
        let t = &v.tables;
        let player = self.to_move as usize;
        let army = v.players[player].army;
        let enemies = v.enemies[army as usize];
        let hostile = |code: u8| enemies >> army_of(code) & 1 != 0;
        let promotion = v.rules.promotion.as_ref();
        let choices = if promotion.is_some() { self.promotion_mask() } else { 0 };
        let ep = if v.rules.en_passant { self.ep } else { None };
        let ds = v.rules.double_step.as_ref();
        let ep_types = ds.map_or(0, |d| d.pieces);

        for from in self.army_cells[army as usize].iter() {
            let kind = kind_of(self.board[from as usize]);
            let o = t.orientation[player][from as usize];
            let zone = match promotion {
                Some(p) if p.pieces >> kind & 1 != 0 => Some(&p.zone[player]),
                _ => None,
            };
            let push = |list: &mut MoveList, to: Cell, kind: MoveKind| match zone {
                Some(z) if z.contains(to) => {
                    let mut m = choices;
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
                _ => list.push(Move {
                    from,
                    to,
                    promotion: None,
                    kind,
                }),
            };
            for ray in t.piece_rays(kind, o, from) {
                let cells = &t.cells[ray.start as usize..][..ray.len as usize];
                match ray.travel {
                    Travel::Leap => {
                        if ray.lame_len != 0
                            && !self.all_empty(&t.cells[ray.lame_start as usize..][..ray.lame_len as usize])
                        {
                            continue;
                        }
                        let to = cells[0];
                        let target = self.board[to as usize];
                        if target == 0 {
                            if ray.quiet {
                                push(list, to, MoveKind::Normal);
                            } else if ray.capture
                                && ep_types >> kind & 1 != 0
                                && ep.is_some_and(|(e, victim)| e == to && hostile(self.board[victim as usize]))
                            {
                                push(list, to, MoveKind::EnPassant);
                            }
                        } else if ray.capture && hostile(target) {
                            push(list, to, MoveKind::Normal);
                        }
                    }
                    Travel::Slide => {
                        for &to in cells {
                            let target = self.board[to as usize];
                            if target == 0 {
                                if ray.quiet {
                                    push(list, to, MoveKind::Normal);
                                }
                            } else {
                                if ray.capture && hostile(target) {
                                    push(list, to, MoveKind::Normal);
                                }
                                break;
                            }
                        }
                    }
                    Travel::Hop => {
                        let mut screen = false;
                        for &to in cells {
                            let target = self.board[to as usize];
                            if !screen {
                                screen = target != 0;
                            } else if target == 0 {
                                if ray.quiet {
                                    push(list, to, MoveKind::Normal);
                                }
                            } else {
                                if ray.capture && hostile(target) {
                                    push(list, to, MoveKind::Normal);
                                }
                                break;
                            }
                        }
                    }
                }
            }
            if let Some(d) = ds {
                if d.pieces >> kind & 1 != 0 && d.from[player].contains(from) {
                    let (dx, dy) = o.rotate((0, 1));
                    let g = &v.geometry;
                    if let Some(mid) = g.offset(from, dx, dy) {
                        if let Some(to) = g.offset(mid, dx, dy) {
                            if self.board[mid as usize] == 0 && self.board[to as usize] == 0 {
                                push(list, to, MoveKind::DoubleStep);
                            }
                        }
                    }
                }
            }
        }

        for (i, c) in v.rules.castling.iter().enumerate() {
            if self.castling >> i & 1 == 0 || c.army != army {
                continue;
            }
            if self.type_bit(c.king, army) == 0 || self.type_bit(c.rook, army) == 0 {
                continue;
            }
            if c.must_be_empty.iter().any(|x| self.board[x as usize] != 0) {
                continue;
            }
            if c.king_path.iter().any(|&x| self.attacked_by_enemies(x, army)) {
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

    /// Where a move of the army to move might expose one of its royal
    /// pieces, when none is attacked now: cells it must not leave without
    /// the full test (the first own piece on an enemy slider's line from a
    /// royal, the first two on a hopper's line, the blocker of a lame leap)
    /// and empty cells it must not enter without it (a new screen in front
    /// of a hopper). Every other ordinary move keeps the royals safe.
    fn exposure_cells(&self, army: u8, royals: CellSet) -> (CellSet, CellSet) {
        let v = &*self.variant;
        let t = &v.tables;
        let (mut leave, mut enter) = (CellSet::EMPTY, CellSet::EMPTY);
        for (p, pl) in v.players.iter().enumerate() {
            if self.out >> p & 1 != 0 || !v.hostile(pl.army, army) {
                continue;
            }
            let at = &t.attacks[p];
            for r in royals.iter() {
                for l in &at.lines {
                    // The first three pieces on the line, with their distance.
                    let ray = t.ray(l.vector, r);
                    let mut found = [(0usize, 0 as Cell); 3];
                    let mut n = 0;
                    for (i, &c) in ray.iter().enumerate() {
                        if self.board[c as usize] != 0 {
                            found[n] = (i, c);
                            n += 1;
                            if n == 3 {
                                break;
                            }
                        }
                    }
                    let own = |k: usize| k < n && army_of(self.board[found[k].1 as usize]) == army;
                    let enemy = |k: usize| if k < n { self.type_bit(found[k].1, pl.army) } else { 0 };
                    // Own piece in front of an enemy slider: pinned.
                    let (d1, _) = found[1];
                    let slides = enemy(1) & l.slide != 0
                        || l.limited.iter().any(|&(m, range)| enemy(1) & m != 0 && d1 < range as usize);
                    if own(0) && slides {
                        leave.insert(found[0].1);
                    }
                    if l.hop != 0 {
                        // An enemy hopper first on the line: a new screen in
                        // front of it would open its attack.
                        if n >= 1 && enemy(0) & l.hop != 0 {
                            for &c in &ray[..found[0].0] {
                                enter.insert(c);
                            }
                        }
                        // An enemy hopper third: moving either of the first
                        // two leaves exactly one screen.
                        if enemy(2) & l.hop != 0 {
                            for k in 0..2 {
                                if own(k) {
                                    leave.insert(found[k].1);
                                }
                            }
                        }
                    }
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
    fn royal_exposed(&self, army: u8) -> bool {
        match self.royal_cells(army) {
            None => true,
            Some(r) => r.iter().any(|c| self.attacked_by_enemies(c, army)),
        }
    }

    /// Is a move of the lone royal piece from `from` to `to` safe: the
    /// destination not attacked and, under `no_passing_attacked`, no cell
    /// it slides over attacked, all judged with the piece lifted from
    /// `from`? Attack tests read only the board array, so lifting the piece
    /// there is enough.
    fn royal_step_safe(&mut self, from: Cell, to: Cell, army: u8, passing: bool) -> bool {
        let code = std::mem::replace(&mut self.board[from as usize], 0);
        let mut safe = !self.attacked_by_enemies(to, army);
        if safe && passing {
            let g = &self.variant.geometry;
            let df = g.file_of(to) as i32 - g.file_of(from) as i32;
            let dr = g.rank_of(to) as i32 - g.rank_of(from) as i32;
            let n = df.abs().max(dr.abs());
            if df == 0 || dr == 0 || df.abs() == dr.abs() {
                let (sf, sr) = (df.signum(), dr.signum());
                safe = (1..n)
                    .filter_map(|k| g.offset(from, sf * k, sr * k))
                    .all(|c| !self.attacked_by_enemies(c, army));
            }
        }
        self.board[from as usize] = code;
        safe
    }

    /// Removes the moves that break the royalty rule.
    pub(crate) fn filter_legal(&mut self, list: &mut MoveList) {
        let Some(royal) = &self.variant.rules.royal else {
            return;
        };
        let passing = royal.no_passing_attacked;
        let army = self.army_to_move();
        let Some(royals) = self.royal_cells(army) else {
            list.clear();
            return;
        };
        let fast = !royals.iter().any(|c| self.attacked_by_enemies(c, army));
        let (leave, enter) = if fast {
            self.exposure_cells(army, royals)
        } else {
            (CellSet::EMPTY, CellSet::EMPTY)
        };
        let lone_royal = royals.len() == 1;
        list.retain(|m| {
            let simple = matches!(m.kind, MoveKind::Normal | MoveKind::DoubleStep);
            let quiet_path = fast && simple && !leave.contains(m.from) && !enter.contains(m.to);
            if royals.contains(m.from) {
                if simple && (lone_royal || quiet_path) {
                    return self.royal_step_safe(m.from, m.to, army, passing);
                }
                if passing && !self.royal_step_safe(m.from, m.to, army, true) {
                    return false;
                }
            } else if quiet_path {
                return true;
            }
            self.make(m);
            let exposed = self.royal_exposed(army);
            self.unmake();
            !exposed
        });
    }

    /// All legal moves of the player to move.
    pub fn legal_moves(&mut self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        list
    }

    /// Legal moves into a caller's list (cleared first).
    pub fn legal_moves_into(&mut self, list: &mut MoveList) {
        list.clear();
        self.pseudo_legal_moves(list);
        self.filter_legal(list);
    }
}
