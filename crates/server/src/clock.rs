//! Game clocks, kept by the server: a time control chosen when the game is
//! created, each player's time left, and whose clock runs since when. A
//! player's clock starts after every player has made a first move (as on
//! lichess), so nobody loses time while the others take their seats.
//!
//! Each move's log entry stores the mover's time left after it: the
//! clocks are rebuilt from the log on loading, and the clock of the
//! player to move restarts then (a server restart costs nobody time).

use serde::{Deserialize, Serialize};
use std::time::Instant;

/// A time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum TimeControl {
    /// Fischer: a base time, and an increment added after each move.
    Fischer { base_ms: u64, inc_ms: u64 },
    /// A fixed time for every move; what is left over is not kept.
    Move { move_ms: u64 },
}

impl TimeControl {
    /// Checks the bounds: 10 s to 3 h base, increment up to 60 s, 1 s to
    /// 1 h per move.
    pub fn check(self) -> Result<TimeControl, String> {
        match self {
            TimeControl::Fischer { base_ms, inc_ms } => {
                if !(10_000..=3 * 3_600_000).contains(&base_ms) {
                    return Err(format!(
                        "clock base {base_ms} ms is out of range 10 s to 3 h"
                    ));
                }
                if inc_ms > 60_000 {
                    return Err(format!("clock increment {inc_ms} ms is over 60 s"));
                }
            }
            TimeControl::Move { move_ms } => {
                if !(1_000..=3_600_000).contains(&move_ms) {
                    return Err(format!(
                        "time per move {move_ms} ms is out of range 1 s to 1 h"
                    ));
                }
            }
        }
        Ok(self)
    }

    /// Time on a clock at the start.
    pub fn initial(self) -> i64 {
        match self {
            TimeControl::Fischer { base_ms, .. } => base_ms as i64,
            TimeControl::Move { move_ms } => move_ms as i64,
        }
    }

    /// Time left after a move made with `left` on the clock.
    pub fn after_move(self, left: i64) -> i64 {
        match self {
            TimeControl::Fischer { inc_ms, .. } => left + inc_ms as i64,
            TimeControl::Move { move_ms } => move_ms as i64,
        }
    }

    /// How long an AI may think with `left` on its clock: a share of the
    /// time left plus most of the increment, keeping a safety margin.
    pub fn ai_budget_ms(self, left: i64) -> i64 {
        let budget = match self {
            TimeControl::Fischer { inc_ms, .. } => left / 30 + inc_ms as i64 * 3 / 4,
            TimeControl::Move { .. } => left * 3 / 4,
        };
        budget.min(left - 300).max(50)
    }
}

/// Every player's clock.
#[derive(Clone, Debug)]
pub struct Clocks {
    pub control: TimeControl,
    /// Time left per player, when their clock last stopped.
    pub left: Vec<i64>,
    /// The player whose clock runs, and since when.
    pub running: Option<(usize, Instant)>,
}

impl Clocks {
    /// Clocks at the start of a game of `players`.
    pub fn new(control: TimeControl, players: usize) -> Clocks {
        Clocks {
            control,
            left: vec![control.initial(); players],
            running: None,
        }
    }

    /// A player's time left at `now` (never below zero).
    pub fn left_at(&self, player: usize, now: Instant) -> i64 {
        let left = self.left[player];
        match self.running {
            Some((p, since)) if p == player => {
                (left - now.saturating_duration_since(since).as_millis() as i64).max(0)
            }
            _ => left,
        }
    }

    /// When the running clock reaches zero.
    pub fn deadline(&self) -> Option<(usize, Instant)> {
        let (p, since) = self.running?;
        Some((
            p,
            since + std::time::Duration::from_millis(self.left[p].max(0) as u64),
        ))
    }
}
