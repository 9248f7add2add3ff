//! Static exchange evaluation: what a move wins or loses on its
//! destination if both sides keep recapturing there with their least
//! valuable piece, each free to stop. A search's estimate for ordering
//! and pruning, read from the reverse attack tables on a copy of the
//! board; the path rules and facing lines are not asked.

use crate::geometry::{Cell, MAX_CELLS};
use crate::moves::{Move, MoveKind};
use crate::position::{army_of, kind_of, Position};

/// What a royal piece counts for in an exchange: more than anything it
/// could win, so a side recaptures with it only onto an undefended cell.
const ROYAL: i32 = 1_000_000;

/// Deepest exchange followed (more pieces than any board holds on lines
/// to one cell in practice).
const MAX_EXCHANGE: usize = 32;

impl<const W: usize> Position<W> {
    /// The material the player to move wins by `m` and the exchange on its
    /// destination that may follow (negative: loses), with `value[type]`
    /// per piece type; royal pieces count as priceless. Side "us" is the
    /// mover's army, side "them" every army hostile to it. A drop-out, a
    /// castling or a swap exchanges nothing: 0.
    pub fn see(&self, m: Move, value: &[i32]) -> i32 {
        if matches!(
            m.kind,
            MoveKind::DropOut | MoveKind::Castle(_) | MoveKind::Swap
        ) {
            return 0;
        }
        let us = self.army_to_move();
        let mut board = self.board;
        let worth = |code: u8| self.exchange_worth(code, value);
        let mover = board[m.from as usize];
        let mut gain = [0i32; MAX_EXCHANGE];
        gain[0] = match m.kind {
            MoveKind::EnPassant => self.ep.map_or(0, |(_, victim)| {
                let code = board[victim as usize];
                board[victim as usize] = 0;
                worth(code)
            }),
            _ => worth(board[m.to as usize]),
        };
        let mut on_to = worth(mover);
        if let Some(t) = m.promotion {
            let promoted = value.get(t as usize).copied().unwrap_or(0);
            gain[0] += promoted - on_to;
            on_to = promoted;
        }
        board[m.from as usize] = 0;
        self.exchange(&mut board, m.to, us, false, (&mut gain, on_to), &worth)
    }

    /// What the armies hostile to the piece on `cell` win by capturing it
    /// first, with the exchange that may follow (each side free to stop,
    /// least valuable piece first, as in [`Position::see`]): 0 where no
    /// hostile piece attacks it or taking it loses. A royal piece counts
    /// as priceless.
    pub fn threat(&self, cell: Cell, value: &[i32]) -> i32 {
        let code = self.board[cell as usize];
        if code == 0 {
            return 0;
        }
        let us = army_of(code);
        let worth = |code: u8| self.exchange_worth(code, value);
        let mut board = self.board;
        let Some(first) = self.least_attacker(&board, cell, us, false, &worth) else {
            return 0;
        };
        let mut gain = [0i32; MAX_EXCHANGE];
        gain[0] = worth(code);
        let on_to = worth(board[first as usize]);
        board[first as usize] = 0;
        self.exchange(&mut board, cell, us, true, (&mut gain, on_to), &worth)
            .max(0)
    }

    /// Plays out the exchange on `to` after its first capture (`gain[0]`,
    /// with a piece worth `on_to` left there), the side `ours` to
    /// recapture next, and returns what the first capture wins.
    fn exchange(
        &self,
        board: &mut [u8; MAX_CELLS],
        to: Cell,
        us: u8,
        mut ours: bool,
        (gain, mut on_to): (&mut [i32; MAX_EXCHANGE], i32),
        worth: &impl Fn(u8) -> i32,
    ) -> i32 {
        let mut d = 0;
        while d + 1 < MAX_EXCHANGE {
            let Some(cell) = self.least_attacker(board, to, us, ours, worth) else {
                break;
            };
            d += 1;
            gain[d] = on_to - gain[d - 1];
            // Neither standing pat nor going on can change the outcome.
            if (-gain[d - 1]).max(gain[d]) < 0 {
                break;
            }
            on_to = worth(board[cell as usize]);
            board[cell as usize] = 0;
            ours = !ours;
        }
        while d > 0 {
            gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
            d -= 1;
        }
        gain[0]
    }

    /// Does `m` win at least `threshold` by [`Position::see`]? Answered
    /// without the exchange when the victim less the mover already reaches
    /// it (the mover can always stop after one recapture).
    pub fn see_at_least(&self, m: Move, value: &[i32], threshold: i32) -> bool {
        let worth = |c: Cell| self.exchange_worth(self.board[c as usize], value);
        if m.kind == MoveKind::Normal
            && m.promotion.is_none()
            && worth(m.to) - worth(m.from) >= threshold
        {
            return true;
        }
        self.see(m, value) >= threshold
    }

    /// What the piece `code` counts for in an exchange: nothing for an
    /// empty cell, `ROYAL` for a piece of a type its army must retain,
    /// else `value[type]`.
    fn exchange_worth(&self, code: u8, value: &[i32]) -> i32 {
        if code == 0 {
            return 0;
        }
        let (army, kind) = (army_of(code), kind_of(code));
        let royal = self.variant.rules.royal.as_ref();
        if royal.is_some_and(|r| r.must_retain[army as usize] >> kind & 1 != 0) {
            ROYAL
        } else {
            value.get(kind as usize).copied().unwrap_or(0)
        }
    }

    /// The cell of the least valuable piece of side `ours` (the army `us`,
    /// else the armies hostile to it) that attacks `target` on `board`.
    fn least_attacker(
        &self,
        board: &[u8; MAX_CELLS],
        target: Cell,
        us: u8,
        ours: bool,
        worth: &impl Fn(u8) -> i32,
    ) -> Option<Cell> {
        let v = &*self.variant;
        let t = &v.tables;
        let mut best: Option<(i32, Cell)> = None;
        let mut offer = |c: Cell| {
            let w = worth(board[c as usize]);
            if best.is_none_or(|(b, _)| w < b) {
                best = Some((w, c));
            }
        };
        for p in self.players_in() {
            let army = v.players[p].army;
            if (army == us) != ours || !ours && !v.hostile(us, army) {
                continue;
            }
            let mine = |c: Cell| board[c as usize] != 0 && army_of(board[c as usize]) == army;
            let bit = |c: Cell| 1 << kind_of(board[c as usize]);
            let at = &t.attacks[p];
            // The exchange only takes pieces away: the army's cells on the
            // real board bound those on `board`.
            let cells = &self.army_cells[army as usize];
            let [leaps, lines] = self.sets.reach(p, target);
            let (s, e) = if leaps.intersection(cells).is_empty() {
                (0, 0)
            } else {
                at.leap_index[target as usize]
            };
            for la in &at.leaps[s as usize..e as usize] {
                let lame = &t.cells[la.lame_start as usize..][..la.lame_len as usize];
                if mine(la.from)
                    && la.types & bit(la.from) != 0
                    && lame.iter().all(|&c| board[c as usize] == 0)
                {
                    offer(la.from);
                }
            }
            if lines.intersection(cells).is_empty() {
                continue;
            }
            for l in &at.lines {
                if self
                    .sets
                    .ray_set(l.vector, target)
                    .intersection(cells)
                    .is_empty()
                {
                    continue;
                }
                let ray = t.ray(l.vector, target);
                let Some(i) = ray.iter().position(|&c| board[c as usize] != 0) else {
                    continue;
                };
                let c = ray[i];
                if mine(c) && l.rides(bit(c), i) {
                    offer(c);
                }
                if l.hop != 0 {
                    let beyond = ray[i + 1..].iter().find(|&&c| board[c as usize] != 0);
                    if let Some(&c) = beyond.filter(|&&c| mine(c) && bit(c) & l.hop != 0) {
                        offer(c);
                    }
                }
            }
        }
        best.map(|(_, c)| c)
    }
}

#[cfg(test)]
mod tests {
    use crate::variant::embedded;
    use crate::Position;

    const VALUES: [i32; 6] = [0, 900, 500, 330, 320, 100];

    fn see(fen: &str, mv: &str) -> i32 {
        let v = embedded::variant("chess").unwrap();
        let pos = Position::from_string(v, fen).unwrap();
        let m = pos.parse_move(mv).unwrap();
        pos.see(m, &VALUES)
    }

    #[test]
    fn exchanges_on_one_cell() {
        // An undefended pawn: won.
        assert_eq!(see("4k3/8/8/3p4/8/8/3R4/4K3 w - - 0 1", "d2d5"), 100);
        // A pawn defended by a pawn, taken by a Rook: the Rook is lost.
        assert_eq!(see("4k3/8/2p5/3p4/8/8/3R4/4K3 w - - 0 1", "d2d5"), -400);
        // Knight takes a pawn defended by a Knight, with a Rook behind:
        // N for P, then the Rook retakes the Knight: 100 - 320 + 320.
        assert_eq!(see("4k3/4n3/8/3p4/8/4N3/8/3RK3 w - - 0 1", "e3d5"), 100);
        // The Queen behind the Rook retakes through its cell:
        // RxP pxR QxP = 100 - 500 + 100.
        assert_eq!(see("4k3/8/2p5/3p4/8/8/3R4/3QK3 w - - 0 1", "d2d5"), -300);
        // A quiet move onto a cell a pawn attacks loses the piece.
        assert_eq!(see("4k3/8/2p5/8/8/8/3R4/4K3 w - - 0 1", "d2d5"), -500);
        // The King recaptures only where nothing defends.
        assert_eq!(see("8/8/4k3/8/8/8/3R4/4K3 w - - 0 1", "d2d5"), -500);
        assert_eq!(see("8/8/4k3/8/8/8/3R4/3RK3 w - - 0 1", "d2d5"), 0);
    }

    #[test]
    fn threats_to_a_piece_where_it_stands() {
        let threat = |fen: &str, cell: &str| {
            let v = embedded::variant("chess").unwrap();
            let pos = Position::from_string(v, fen).unwrap();
            let c = pos.variant().geometry.parse_cell(cell).unwrap();
            pos.threat(c, &VALUES)
        };
        // A Rook a pawn attacks, defended or not: the pawn wins 500 - 100
        // (the Rook's side takes back), 500 where nothing defends it.
        assert_eq!(threat("4k3/8/2p5/3R4/8/8/3R4/4K3 b - - 0 1", "d5"), 400);
        assert_eq!(threat("4k3/8/2p5/3R4/8/8/8/4K3 b - - 0 1", "d5"), 500);
        // A Knight defended by a pawn, attacked by a Rook: taking loses.
        assert_eq!(threat("3rk3/8/8/3N4/4P3/8/8/4K3 w - - 0 1", "d5"), 0);
        // Nothing attacks it, or the cell is empty.
        assert_eq!(threat("4k3/8/8/3N4/8/8/8/4K3 w - - 0 1", "d5"), 0);
        assert_eq!(threat("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "d5"), 0);
        // The side to move does not matter: Black's pawn is threatened too.
        assert_eq!(threat("4k3/8/8/3p4/8/8/3R4/4K3 w - - 0 1", "d5"), 100);
    }

    #[test]
    fn en_passant_and_promotion() {
        assert_eq!(see("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), 100);
        // Promotion to a Queen on an undefended cell: 900 - 100.
        assert_eq!(see("7k/3P4/8/8/8/8/8/4K3 w - - 0 1", "d7d8q"), 800);
    }
}
