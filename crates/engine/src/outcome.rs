//! The end of the game: checkmate, stalemate, extinction of a required
//! type, repetition, the no-progress counter and bare royals.

use crate::position::Position;
use crate::variant::StalemateResult;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    Checkmate,
    Stalemate,
    /// A type the side must retain is gone.
    Extinction,
    Repetition,
    NoProgress,
    BareRoyals,
}

/// A finished game: players ranked best first; players in one group share
/// the place (a draw is one group).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub ranking: Vec<Vec<usize>>,
    pub reason: EndReason,
}

impl Outcome {
    /// The players sharing first place.
    pub fn winners(&self) -> &[usize] {
        &self.ranking[0]
    }
    pub fn is_draw(&self) -> bool {
        self.ranking.len() == 1
    }
}

impl Position {
    fn all_players(&self) -> Vec<usize> {
        (0..self.variant.players.len())
            .filter(|&p| !self.is_out(p))
            .collect()
    }

    /// The player to move loses (or wins): the others share the other place.
    fn decided(&self, mover_wins: bool, reason: EndReason) -> Outcome {
        let me = self.to_move();
        let others: Vec<usize> = self
            .all_players()
            .into_iter()
            .filter(|&p| p != me)
            .collect();
        let ranking = if mover_wins {
            vec![vec![me], others]
        } else {
            vec![others, vec![me]]
        };
        Outcome { ranking, reason }
    }

    fn draw(&self, reason: EndReason) -> Outcome {
        Outcome {
            ranking: vec![self.all_players()],
            reason,
        }
    }

    /// How many times the current position occurred before (same player to
    /// move, within the moves since the last irreversible one).
    pub fn repetitions(&self) -> usize {
        let n = self.history.len();
        let window = (self.halfmove as usize).min(n);
        self.history[n - window..]
            .iter()
            .filter(|u| u.key == self.key)
            .count()
    }

    /// The result if the game is over, `None` while it goes on.
    pub fn outcome(&mut self) -> Option<Outcome> {
        let v = self.variant.clone();
        let army = self.army_to_move();
        if self.royal_cells(army).is_none() {
            return Some(self.decided(false, EndReason::Extinction));
        }
        if self.legal_moves().is_empty() {
            return Some(if self.in_check() {
                self.decided(false, EndReason::Checkmate)
            } else {
                match v.rules.stalemate {
                    StalemateResult::Draw => self.draw(EndReason::Stalemate),
                    StalemateResult::Loss => self.decided(false, EndReason::Stalemate),
                    StalemateResult::Win => self.decided(true, EndReason::Stalemate),
                }
            });
        }
        if v.rules.repetition > 1 && self.repetitions() + 1 >= v.rules.repetition as usize {
            return Some(self.draw(EndReason::Repetition));
        }
        let limit = v.rules.no_progress_moves as usize * v.players.len();
        if limit > 0 && self.halfmove as usize >= limit {
            return Some(self.draw(EndReason::NoProgress));
        }
        if v.rules.bare_royals_draw {
            if let Some(royal) = &v.rules.royal {
                let bare = (0..v.armies.len()).all(|a| {
                    (0..v.pieces.len())
                        .filter(|&t| royal.must_retain[a] >> t & 1 == 0)
                        .all(|t| self.type_cells(a as u8, t as u8).is_empty())
                });
                if bare {
                    return Some(self.draw(EndReason::BareRoyals));
                }
            }
        }
        None
    }
}
