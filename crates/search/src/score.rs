//! Scores: centipawns from the point of view of the player to move at the
//! root, with won and lost games encoded as a mate distance.

/// Larger than any score.
pub const INFINITY: i32 = 32_000;
/// A game won at the root (a win `n` plies away scores `MATE - n`).
pub const MATE: i32 = 31_000;
/// Scores beyond this are wins or losses at a known distance.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// A drawn game.
pub const DRAW: i32 = 0;

/// Is the score a won or lost game rather than an evaluation?
pub fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// Plies to the end of a won (positive) or lost (negative) game.
pub fn mate_plies(score: i32) -> Option<i32> {
    if !is_mate(score) {
        return None;
    }
    Some(if score > 0 {
        MATE - score
    } else {
        -(MATE + score)
    })
}

/// Moves (of the player to move: a win in 3 plies is "mate in 2") to the
/// end of a won or lost two-player game, UCI style: negative when losing.
pub fn mate_moves(score: i32) -> Option<i32> {
    mate_plies(score).map(|p| if p > 0 { (p + 1) / 2 } else { p / 2 })
}

/// Text for people and logs: `+0.35`, `-1.20`, `win in 3 plies`.
pub fn describe(score: i32) -> String {
    match mate_plies(score) {
        Some(p) if p > 0 => format!("win in {p} plies"),
        Some(p) => format!("loss in {} plies", -p),
        None => format!("{:+.2}", score as f64 / 100.0),
    }
}

/// Stores a score in the transposition table: mate scores become relative
/// to the node (so that they stay true wherever the node is reached).
pub(crate) fn to_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_table`].
pub(crate) fn from_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_distances() {
        assert_eq!(mate_plies(MATE - 1), Some(1));
        assert_eq!(mate_moves(MATE - 1), Some(1));
        assert_eq!(mate_moves(MATE - 3), Some(2));
        assert_eq!(mate_moves(-(MATE - 2)), Some(-1));
        assert_eq!(mate_moves(250), None);
        assert_eq!(describe(-120), "-1.20");
        assert_eq!(describe(MATE - 5), "win in 5 plies");
    }

    #[test]
    fn table_round_trip() {
        for s in [0, 37, -400, MATE - 7, -(MATE - 9)] {
            assert_eq!(from_table(to_table(s, 5), 5), s);
        }
        // A mate 3 plies below a node 4 plies deep is stored as 3 from it.
        assert_eq!(to_table(MATE - 7, 4), MATE - 3);
    }
}
