//! Move ordering: the table's move first, then captures by the value of
//! the victim (least valuable attacker first), promotions, two killer moves
//! per ply, and quiet moves by their history; captures that lose
//! material by static exchange (in four-player games: a more valuable
//! piece taking a defended one) go after the killers.

use quadrille_engine::moves::MAX_MOVES;
use quadrille_engine::{Move, MoveKind, MoveList, Position};

const TABLE_MOVE: i32 = 2_000_000_000;
const CAPTURE: i32 = 1_000_000_000;
const PROMOTION: i32 = 900_000_000;
const KILLER: i32 = 800_000_000;
const BAD_CAPTURE: i32 = 700_000_000;
/// History scores stay within plus or minus this.
const HISTORY_MAX: i32 = 1 << 14;

/// The moves of one node and their ordering scores.
pub(crate) struct Frame {
    pub moves: MoveList,
    scores: Vec<i32>,
}

impl Frame {
    fn new() -> Frame {
        Frame {
            moves: MoveList::new(),
            scores: vec![0; MAX_MOVES],
        }
    }

    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Keeps only the tactical moves (for quiescence).
    pub fn keep_tactical(&mut self, pos: &Position, value: &[i32]) {
        self.moves.retain(|m| is_tactical(pos, m, value));
    }

    /// The `i`-th move in order: the best-scored of those not yet taken
    /// (a selection sort that stops early when a cutoff comes early).
    pub fn pick(&mut self, i: usize) -> Move {
        let n = self.moves.len();
        let mut best = i;
        for j in i + 1..n {
            if self.scores[j] > self.scores[best] {
                best = j;
            }
        }
        self.scores.swap(i, best);
        self.moves.as_mut_slice().swap(i, best);
        self.moves.as_slice()[i]
    }
}

/// Is the move a capture?
#[inline]
pub fn is_capture(pos: &Position, m: Move) -> bool {
    match m.kind {
        MoveKind::EnPassant => true,
        // A swap lands on a piece of the mover's own army.
        MoveKind::Castle(_) | MoveKind::DropOut | MoveKind::Swap => false,
        _ => pos.piece_at(m.to).is_some(),
    }
}

/// Is the move a capture, a drop-out, or a promotion worth at least two
/// pawns (the moves quiescence searches)?
#[inline]
pub fn is_tactical(pos: &Position, m: Move, value: &[i32]) -> bool {
    if m.kind == MoveKind::DropOut || is_capture(pos, m) {
        return true;
    }
    let Some(t) = m.promotion else {
        return false;
    };
    let mover = pos.piece_at(m.from).map_or(0, |p| value[p.kind as usize]);
    value[t as usize] - mover >= 200
}

/// Does the capture `m` (`mover` taking `victim`, by value) lose material?
/// With `see`, by static exchange; without (the four-player search), when
/// a piece worth more than the victim plus `margin` takes a defended one.
pub fn losing_capture(
    pos: &Position,
    m: Move,
    (mover, victim): (i32, i32),
    value: &[i32],
    see: bool,
    margin: i32,
) -> bool {
    if see {
        !pos.see_at_least(m, value, 0)
    } else {
        mover > victim + margin && pos.attacked_by_enemies(m.to, pos.army_to_move())
    }
}

/// Killers, history and the per-ply move lists.
pub(crate) struct Ordering {
    killers: Vec<[Option<Move>; 2]>,
    /// `[(player * cells + from) * cells + to]`.
    history: Vec<i32>,
    cells: usize,
    pub frames: Vec<Frame>,
}

impl Ordering {
    pub fn new(max_ply: usize) -> Ordering {
        Ordering {
            killers: vec![[None; 2]; max_ply + 1],
            history: Vec::new(),
            cells: 0,
            frames: (0..=max_ply).map(|_| Frame::new()).collect(),
        }
    }

    /// Sizes the history for a variant and clears it.
    pub fn reset(&mut self, players: usize, cells: usize) {
        self.cells = cells;
        self.history = vec![0; players * cells * cells];
        self.killers.fill([None; 2]);
    }

    /// Between searches: killers are forgotten, history fades.
    pub fn new_search(&mut self) {
        self.killers.fill([None; 2]);
        for h in &mut self.history {
            *h /= 2;
        }
    }

    #[inline]
    fn history_index(&self, player: usize, m: Move) -> usize {
        (player * self.cells + m.from as usize) * self.cells + m.to as usize
    }

    /// Scores the moves of the frame at `ply` (already generated). `see`:
    /// judge captures by static exchange (two sides), else a capture is
    /// bad when a more valuable piece takes a defended one.
    pub fn score(
        &mut self,
        pos: &Position,
        ply: usize,
        table_move: Option<Move>,
        value: &[i32],
        see: bool,
    ) {
        let player = pos.to_move();
        let killers = self.killers[ply];
        let frame = &mut self.frames[ply];
        let n = frame.moves.len();
        for i in 0..n {
            let m = frame.moves.as_slice()[i];
            let s = if Some(m) == table_move {
                TABLE_MOVE
            } else {
                let mover = pos.piece_at(m.from).map_or(0, |p| value[p.kind as usize]);
                let gain = m
                    .promotion
                    .map_or(0, |t| (value[t as usize] - mover).max(0));
                if is_capture(pos, m) {
                    let victim = match m.kind {
                        MoveKind::EnPassant => mover,
                        _ => pos.piece_at(m.to).map_or(0, |p| value[p.kind as usize]),
                    };
                    let order = victim * 64 - mover + gain * 64;
                    if gain == 0 && losing_capture(pos, m, (mover, victim), value, see, 50) {
                        BAD_CAPTURE + order / 64
                    } else {
                        CAPTURE + order
                    }
                } else if gain > 0 {
                    PROMOTION + gain
                } else if killers[0] == Some(m) {
                    KILLER + 1
                } else if killers[1] == Some(m) {
                    KILLER
                } else if self.history.is_empty() {
                    0
                } else {
                    self.history
                        [(player * self.cells + m.from as usize) * self.cells + m.to as usize]
                }
            };
            frame.scores[i] = s;
        }
    }

    /// The history score of a quiet move (0 before any).
    #[inline]
    pub fn history(&self, player: usize, m: Move) -> i32 {
        if self.history.is_empty() {
            0
        } else {
            self.history[self.history_index(player, m)]
        }
    }

    /// Is the move one of the killers at `ply`?
    pub fn is_killer(&self, ply: usize, m: Move) -> bool {
        self.killers[ply].contains(&Some(m))
    }

    /// A quiet move caused a cutoff: it becomes a killer, its history rises
    /// and the quiet moves tried before it fall.
    pub fn cutoff(&mut self, player: usize, ply: usize, depth: i32, m: Move, tried: &[Move]) {
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        if self.history.is_empty() {
            return;
        }
        let bonus = (depth * depth).min(400);
        let i = self.history_index(player, m);
        Self::nudge(&mut self.history[i], bonus);
        for &q in tried {
            let i = self.history_index(player, q);
            Self::nudge(&mut self.history[i], -bonus);
        }
    }

    /// Moves a history score toward the bonus's sign, slower as it nears the
    /// bound.
    fn nudge(h: &mut i32, bonus: i32) {
        *h += 32 * bonus - *h * bonus.abs() / 512;
        *h = (*h).clamp(-HISTORY_MAX, HISTORY_MAX);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quadrille_engine::embedded;

    #[test]
    fn captures_first_most_valuable_victim_first() {
        let v = embedded::variant("chess").unwrap();
        // White can take the Queen on d5 with the pawn or the Knight on b5
        // with the pawn; a quiet move or two besides.
        let pos = Position::from_string(v.clone(), "4k3/8/8/1n1q4/2P5/8/8/4K3 w - - 0 1").unwrap();
        let mut o = Ordering::new(4);
        o.reset(2, v.geometry.size());
        let mut p = pos.clone();
        p.legal_moves_into(&mut o.frames[0].moves);
        let value: Vec<i32> = vec![0, 900, 500, 330, 320, 100];
        o.score(&pos, 0, None, &value, false);
        let f = &mut o.frames[0];
        let first = f.pick(0);
        let second = f.pick(1);
        assert_eq!(pos.move_to_string(first), "c4d5");
        assert_eq!(pos.move_to_string(second), "c4b5");
    }

    #[test]
    fn killers_and_history_order_quiet_moves() {
        let v = embedded::variant("chess").unwrap();
        let mut pos = v.start();
        let mut o = Ordering::new(4);
        o.reset(2, v.geometry.size());
        let g4 = pos.parse_move("g2g4").unwrap();
        let a3 = pos.parse_move("a2a3").unwrap();
        let h3 = pos.parse_move("h2h3").unwrap();
        o.cutoff(0, 1, 5, g4, &[a3]);
        o.cutoff(0, 2, 3, h3, &[]);
        assert!(o.is_killer(1, g4) && !o.is_killer(1, h3));
        pos.legal_moves_into(&mut o.frames[1].moves);
        o.score(&pos, 1, None, &[0; 6], false);
        assert_eq!(o.frames[1].pick(0), g4);
        // h3 is no killer at ply 1 but has history; a3 lost some.
        assert_eq!(o.frames[1].pick(1), h3);
        let n = o.frames[1].len();
        let order: Vec<Move> = (0..n).map(|i| o.frames[1].pick(i)).collect();
        assert_eq!(order[n - 1], a3);
    }
}
