//! The AI behind one small trait. [`Search`] is the real AI (the
//! `quadrille_search` crate); [`Greedy`] is a cheap one-ply player for
//! tests and load tests.

use quadrille_engine::{Move, Position};
use quadrille_search::{Limits, Options, Searcher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// Lowest and highest AI strength offered by the API and the UI.
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=8;

/// Chooses a move for the player to move.
pub trait MovePicker: Send + Sync {
    /// A legal move of `pos`, or `None` if there is none. `level` is in
    /// [`LEVELS`] and `time_ms` is the seat's time per move; the picker
    /// should return soon after `stop` turns true (the server sets it when
    /// that time has run out).
    fn pick(&self, pos: &Position, level: u8, time_ms: u32, stop: &Arc<AtomicBool>)
        -> Option<Move>;
}

/// The search of `quadrille_search`: a level is a row of
/// [`quadrille_search::LEVEL_TABLE`], or of the variant's own table where
/// it ships one (a depth cap, and at the lowest levels random error in the
/// evaluation or root moves overlooked), and the seat's time bounds every
/// move. Searchers (each with its transposition table) are kept in a pool
/// and reused, one per AI seat thinking at the same time.
#[derive(Default)]
pub struct Search {
    idle: Mutex<Vec<Searcher>>,
}

impl Search {
    pub fn new() -> Search {
        Search::default()
    }
}

impl MovePicker for Search {
    fn pick(
        &self,
        pos: &Position,
        level: u8,
        time_ms: u32,
        stop: &Arc<AtomicBool>,
    ) -> Option<Move> {
        let idle = || self.idle.lock().unwrap_or_else(|e| e.into_inner());
        let mut searcher = idle()
            .pop()
            .unwrap_or_else(|| Searcher::new(Options::default()));
        let limits = Limits {
            movetime: Some(time_ms as u64),
            ..Limits::level(level)
        }
        .with_stop(stop.clone());
        let best = searcher.best_move(pos, &limits).best;
        idle().push(searcher);
        best
    }
}

/// One-ply greedy picker: level 1 plays a random legal move; level 2
/// maximises the material it captures or gains by promotion; level 3 and
/// above also subtract the value of the moved piece when it lands on a
/// cell an enemy attacks. Ties are broken at random.
pub struct Greedy;

impl MovePicker for Greedy {
    fn pick(&self, pos: &Position, level: u8, _: u32, stop: &Arc<AtomicBool>) -> Option<Move> {
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
        let p = Position::from_string(v.clone(), "4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1").unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        for level in 2..=8 {
            let m = Greedy.pick(&p, level, 1000, &stop).unwrap();
            assert_eq!(p.move_to_string(m), "e4d5", "level {level}");
        }
        let legal: Vec<Move> = p.legal_moves().iter().copied().collect();
        for _ in 0..20 {
            assert!(legal.contains(&Greedy.pick(&p, 1, 1000, &stop).unwrap()));
        }
    }

    #[test]
    fn search_takes_the_queen_and_answers_within_its_time() {
        let v = embedded::variant("chess").unwrap();
        let p = Position::from_string(v, "4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1").unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let ai = Search::new();
        for level in [1, 3, 8] {
            // Level 8 has no depth cap: the 200 ms bound ends it.
            let m = ai.pick(&p, level, 200, &stop).unwrap();
            assert_eq!(p.move_to_string(m), "e4d5", "level {level}");
        }
        // A raised stop flag ends even an unbounded search.
        stop.store(true, Ordering::Relaxed);
        let m = ai.pick(&p, 8, 60_000, &stop).unwrap();
        assert!(p.clone().legal_moves().iter().any(|&x| x == m));
    }

    #[test]
    fn no_move_no_pick() {
        let v = embedded::variant("chess").unwrap();
        // Black is checkmated.
        let p = Position::from_string(v, "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1").unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        assert_eq!(Greedy.pick(&p, 3, 1000, &stop), None);
        assert_eq!(Search::new().pick(&p, 3, 1000, &stop), None);
    }
}
