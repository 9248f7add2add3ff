//! Which moves may give check: a cheap test before playing a move to see
//! (a search that spares checks from pruning asks it of many quiet moves).

use crate::geometry::{Cell, CellSet, WIDE};
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::variant::{PieceType, MAX_TYPES};

/// The cells through which a move of the side to move may attack an
/// enemy royal piece ([`Position::checking_cells`]). A superset: a move it
/// clears ([`CheckingCells::may_check`] false) gives no check; one it does
/// not clear may or may not.
pub struct CheckingCells<const W: usize = WIDE> {
    /// Every move may give check (rules this test does not follow).
    all: bool,
    /// A piece leaving one of these may uncover an attack: the first three
    /// pieces on each line from an enemy royal piece, and the cells that
    /// would stop a lame leap to one.
    from: CellSet<W>,
    /// A piece arriving on one of these may give a hopper its screen.
    to_any: CellSet<W>,
    /// Per piece type: the cells from which a piece of that type would
    /// attack an enemy royal piece.
    to_type: [CellSet<W>; MAX_TYPES],
}

impl<const W: usize> CheckingCells<W> {
    /// May the pseudo-legal move `m` of `pos` (the position these cells
    /// were found in) give check?
    #[inline]
    pub fn may_check(&self, pos: &Position<W>, m: Move) -> bool {
        if self.all || !matches!(m.kind, MoveKind::Normal | MoveKind::DoubleStep) {
            return true;
        }
        let Some(piece) = pos.piece_at(m.from) else {
            return true;
        };
        let kind: PieceType = m.promotion.unwrap_or(piece.kind);
        self.from.contains(m.from)
            || self.to_any.contains(m.to)
            || self.to_type[kind as usize].contains(m.to)
    }
}

impl<const W: usize> Position<W> {
    /// The cells that may let a move of the side to move give check (see
    /// [`CheckingCells`]), in two-player games without path rules; elsewhere
    /// every move may.
    pub fn checking_cells(&self) -> CheckingCells<W> {
        let mut out = CheckingCells {
            all: false,
            from: CellSet::EMPTY,
            to_any: CellSet::EMPTY,
            to_type: [CellSet::EMPTY; MAX_TYPES],
        };
        let v = &*self.variant;
        if v.rules.royal.is_none() || v.rules.extended || v.players.len() != 2 {
            out.all = true;
            return out;
        }
        let t = &v.tables;
        let me = self.to_move as usize;
        let at = &t.attacks[me];
        let add = |set: &mut [CellSet<W>; MAX_TYPES], mut types: u32, cells: &[Cell]| {
            while types != 0 {
                let k = types.trailing_zeros() as usize;
                types &= types - 1;
                for &c in cells {
                    set[k].insert(c);
                }
            }
        };
        for (p, pl) in v.players.iter().enumerate() {
            if p == me {
                continue;
            }
            let Some(royals) = self.royal_cells(pl.army) else {
                out.all = true;
                return out;
            };
            for r in royals.iter() {
                if self.is_attacked_by(r, me) {
                    // Already attacked: not the usual position; play it.
                    out.all = true;
                    return out;
                }
                let (s, e) = at.leap_index[r as usize];
                for la in &at.leaps[s as usize..e as usize] {
                    add(&mut out.to_type, la.types, &[la.from]);
                    for &c in &t.cells[la.lame_start as usize..][..la.lame_len as usize] {
                        out.from.insert(c);
                    }
                }
                for l in &at.lines {
                    let ray = t.ray(l.vector, r);
                    let pieces = self.first_pieces(ray);
                    for &c in pieces.iter().filter_map(|&i| ray.get(i)) {
                        out.from.insert(c);
                    }
                    let upto = |k: usize| &ray[..(pieces[k] + 1).min(ray.len())];
                    add(&mut out.to_type, l.slide, upto(0));
                    for &(types, range) in &l.limited {
                        let cells = upto(0);
                        add(
                            &mut out.to_type,
                            types,
                            &cells[..cells.len().min(range as usize)],
                        );
                    }
                    if l.hop != 0 {
                        let second = upto(1);
                        for &c in second {
                            out.to_any.insert(c);
                        }
                        add(&mut out.to_type, l.hop, second);
                    }
                }
            }
        }
        out
    }
}
