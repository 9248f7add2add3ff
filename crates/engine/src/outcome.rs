//! The end of the game: checkmate, stalemate, extinction of a required
//! type, repetition, the no-progress counter and bare royals; in games
//! where players go out, the last army standing (or the last few players)
//! and the ranking of all players, with series scores where the variant
//! keeps them.

use crate::position::Position;
use crate::variant::{StalemateResult, Winner};

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The player to move has no legal move and a royal piece attacked.
    Checkmate,
    /// The player to move has no legal move and no royal piece attacked.
    Stalemate,
    /// A type the side must retain is gone.
    Extinction,
    /// The same position occurred the variant's number of times.
    Repetition,
    /// No capture, pawn move or player out for the variant's number of moves.
    NoProgress,
    /// Every army has only its royal pieces left.
    BareRoyals,
    /// Every player left in the game moves the same army (the others
    /// dropped out or were eliminated).
    LastArmy,
    /// Only the variant's `players_left` players are left (the Pass games
    /// end with two: no checkmate is possible any more).
    PlayersLeft,
}

impl std::fmt::Display for EndReason {
    /// In words: `checkmate`, `no progress`, `last army`, ...
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::Extinction => "extinction",
            EndReason::Repetition => "repetition",
            EndReason::NoProgress => "no progress",
            EndReason::BareRoyals => "bare royals",
            EndReason::LastArmy => "last army",
            EndReason::PlayersLeft => "players left",
        })
    }
}

/// A finished game: players ranked best first; players in one group share
/// the place (a draw is one group).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Players by place, first place first; players sharing a place are listed together.
    pub ranking: Vec<Vec<usize>>,
    /// Why the game ended.
    pub reason: EndReason,
}

impl Outcome {
    /// The players sharing first place.
    pub fn winners(&self) -> &[usize] {
        &self.ranking[0]
    }
    /// Do all players share first place?
    pub fn is_draw(&self) -> bool {
        self.ranking.len() == 1
    }
}

impl<const W: usize> Position<W> {
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
    /// move). The scan goes back to the last capture or player going out:
    /// before those there were more pieces or players. It does not stop at
    /// a pawn's move, which resets the no-progress counter but need not be
    /// irreversible (a Pass game's Soldier steps back in a far quarter).
    pub fn repetitions(&self) -> usize {
        let mut count = 0;
        for u in self.history.iter().rev() {
            count += (u.key == self.key) as usize;
            if u.captured != 0 || u.out != self.out {
                break;
            }
        }
        count
    }

    /// Can players leave the game one by one (drop-out, elimination)?
    fn players_go_out(&self) -> bool {
        let r = &self.variant.rules;
        r.dropout.is_some() || r.elimination.capturable_royal || r.elimination.empty_army
    }

    /// The players who are out, last out first: they rank below everyone
    /// still in, the first to go out last. Players put out in one step
    /// (checkmated together) share a place: they went out with the same
    /// number of other players still in, which no two steps share.
    fn out_last_first(&self) -> impl Iterator<Item = Vec<usize>> + '_ {
        let mut places: Vec<Vec<usize>> = Vec::new();
        for &p in self.out_order().iter().rev() {
            let others = self.out_others[p as usize];
            match places.last_mut() {
                Some(place) if self.out_others[place[0]] == others => place.push(p as usize),
                _ => places.push(vec![p as usize]),
            }
        }
        for place in &mut places {
            place.sort_unstable();
        }
        places.into_iter()
    }

    /// Is a game where players go out over because few are left: one
    /// army, or the variant's `players_left`?
    pub(crate) fn few_left(&self) -> bool {
        self.one_army_left()
            || self.players_in().count() <= self.variant.rules.players_left as usize
    }

    /// Ranking when few are left: the winner first (by the variant's
    /// `winner`: the player whose move ended the game, or the player about
    /// to move), then the others still in (in turn order), then the
    /// players who went out, the latest first.
    fn standing_outcome(&self) -> Outcome {
        let first = match self.variant.rules.winner {
            Winner::LastMover => self
                .history
                .iter()
                .rev()
                .find(|u| u.mv.kind != crate::moves::MoveKind::DropOut)
                .map(|u| u.to_move as usize)
                .filter(|&p| !self.is_out(p)),
            Winner::ToMove => Some(self.to_move()),
        };
        let mut ranking: Vec<Vec<usize>> = first.map(|p| vec![p]).into_iter().collect();
        ranking.extend(
            self.players_in()
                .filter(|&p| Some(p) != first)
                .map(|p| vec![p]),
        );
        ranking.extend(self.out_last_first());
        let reason = if self.one_army_left() {
            EndReason::LastArmy
        } else {
            EndReason::PlayersLeft
        };
        Outcome { ranking, reason }
    }

    /// A draw in a game where players go out: every player whose army is
    /// still in the game shares first place (a team draw); players whose
    /// army is gone follow, the latest out first.
    fn shared_draw(&self, reason: EndReason) -> Outcome {
        let v = &*self.variant;
        let armies_in: u8 = self.players_in().fold(0, |m, p| m | 1 << v.players[p].army);
        let first: Vec<usize> = (0..v.players.len())
            .filter(|&p| armies_in >> v.players[p].army & 1 != 0)
            .collect();
        let mut ranking = vec![first];
        ranking.extend(
            self.out_last_first()
                .filter(|g| armies_in >> v.players[g[0]].army & 1 == 0),
        );
        Outcome { ranking, reason }
    }

    /// The series scores (indexed by player) of a finished game, when the
    /// variant keeps them (`series_score`): the sole winner scores one less
    /// than the number of players; every other player that number minus
    /// the other players still in when they went out (or at the end, for
    /// those still in). `None` while the game goes on.
    pub fn series_scores(&self) -> Option<Vec<u32>> {
        if !self.variant.rules.series_score {
            return None;
        }
        let o = self.outcome()?;
        let n = self.variant.players.len() as u32;
        let still_in = self.players_in().count() as u32;
        let sole_winner = match &o.ranking[..] {
            [first, _, ..] if first.len() == 1 => Some(first[0]),
            _ => None,
        };
        Some(
            (0..n as usize)
                .map(|p| {
                    if Some(p) == sole_winner {
                        n - 1
                    } else if self.is_out(p) {
                        n - 1 - self.out_others[p] as u32
                    } else {
                        n - still_in
                    }
                })
                .collect(),
        )
    }

    /// Repetition and the no-progress counter. The counter's limit is in
    /// moves per player still in the game.
    fn drawn_by_rule(&self) -> Option<EndReason> {
        let r = &self.variant.rules;
        if r.repetition > 1 && self.repetitions() + 1 >= r.repetition as usize {
            return Some(EndReason::Repetition);
        }
        let limit = r.no_progress_moves as usize * self.players_in().count();
        if limit > 0 && self.halfmove as usize >= limit {
            return Some(EndReason::NoProgress);
        }
        None
    }

    /// The result if the game is over, `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.players_go_out() {
            if self.few_left() {
                return Some(self.standing_outcome());
            }
            return self.drawn_by_rule().map(|r| self.shared_draw(r));
        }
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
        if let Some(reason) = self.drawn_by_rule() {
            return Some(self.draw(reason));
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
