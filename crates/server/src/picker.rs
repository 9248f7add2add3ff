//! The AI behind one small trait, so that any search can be plugged in.
//! [`Greedy`] is the built-in stand-in: a random legal move at level 1,
//! the best immediate material gain (random among equals) above it.

use quadrille_engine::{Move, Position};
use std::sync::atomic::{AtomicBool, Ordering};

/// Lowest and highest AI strength offered by the API and the UI.
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=8;

/// Chooses a move for the player to move.
pub trait MovePicker: Send + Sync {
    /// A legal move of `pos`, or `None` if there is none. `level` is in
    /// [`LEVELS`]; the picker should return soon after `stop` turns true
    /// (it is set when the seat's time per move has run out).
    fn pick(&self, pos: &Position, level: u8, stop: &AtomicBool) -> Option<Move>;
}

/// One-ply greedy picker: level 1 plays a random legal move; level 2
/// maximises the material it captures or gains by promotion; level 3 and
/// above also subtract the value of the moved piece when it lands on a
/// cell an enemy attacks. Ties are broken at random.
pub struct Greedy;

impl MovePicker for Greedy {
    fn pick(&self, pos: &Position, level: u8, stop: &AtomicBool) -> Option<Move> {
        let mut p = pos.clone();
        let moves = p.legal_moves();
        let mut rng = fastrand::Rng::new();
        if moves.is_empty() {
            return None;
        }
        if level <= 1 {
            return Some(moves.as_slice()[rng.usize(..moves.len())]);
        }
        let mut best = Vec::new();
        let mut best_score = i64::MIN;
        for &m in moves.iter() {
            if stop.load(Ordering::Relaxed) && !best.is_empty() {
                break;
            }
            let mut score = gain(&p, m);
            if level >= 3 {
                score -= risk(&mut p, m);
            }
            if score > best_score {
                best_score = score;
                best.clear();
            }
            if score == best_score {
                best.push(m);
            }
        }
        Some(best[rng.usize(..best.len())])
    }
}

/// Material value of a piece type: the variant's `value`, else 100 for a
/// pawn type and 300 for others.
fn value(p: &Position, kind: u8) -> i64 {
    let k = &p.variant().pieces[kind as usize];
    k.value
        .map(i64::from)
        .unwrap_or(if k.pawn { 100 } else { 300 })
}

/// What the move wins at once: a captured piece, a promotion.
fn gain(p: &Position, m: Move) -> i64 {
    let v = p.variant();
    let mover = p.army_to_move();
    let captured = match p.piece_at(m.to) {
        Some(pc) if v.hostile(mover, pc.army) => value(p, pc.kind),
        _ => 0,
    };
    let promoted = match (m.promotion, p.piece_at(m.from)) {
        (Some(t), Some(pc)) => value(p, t) - value(p, pc.kind),
        _ => 0,
    };
    captured + promoted
}

/// The value of the moved piece if an enemy attacks it after the move.
fn risk(p: &mut Position, m: Move) -> i64 {
    let army = p.army_to_move();
    p.make(m);
    let v = p.variant().clone();
    let at = p.piece_at(m.to).filter(|pc| pc.army == army);
    let lost = at.map_or(0, |pc| {
        let attacked = p
            .players_in()
            .any(|q| v.hostile(v.players[q].army, army) && p.is_attacked_by(m.to, q));
        if attacked {
            value(p, pc.kind)
        } else {
            0
        }
    });
    p.unmake();
    lost
}

#[cfg(test)]
mod tests {
    use super::*;
    use quadrille_engine::embedded;

    #[test]
    fn greedy_takes_the_queen_and_random_stays_legal() {
        let v = embedded::variant("chess").unwrap();
        // White to move can take the black Queen on d5 with the e4 pawn.
        let mut p = Position::from_string(v.clone(), "4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1").unwrap();
        let stop = AtomicBool::new(false);
        for level in 2..=8 {
            let m = Greedy.pick(&p, level, &stop).unwrap();
            assert_eq!(p.move_to_string(m), "e4d5", "level {level}");
        }
        let legal: Vec<Move> = p.legal_moves().iter().copied().collect();
        for _ in 0..20 {
            assert!(legal.contains(&Greedy.pick(&p, 1, &stop).unwrap()));
        }
    }

    #[test]
    fn no_move_no_pick() {
        let v = embedded::variant("chess").unwrap();
        // Black is checkmated.
        let p = Position::from_string(v, "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(Greedy.pick(&p, 3, &AtomicBool::new(false)), None);
    }
}
