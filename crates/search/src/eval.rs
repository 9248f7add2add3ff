//! The static evaluation, for any variant: material, piece-square terms
//! (centralisation, the road to promotion), mobility, the safety of royal
//! pieces, and Avon-style royal presence. Each army gets a score; the
//! searches combine them into the point of view they need.

use crate::values::Knowledge;
use crate::weights::Weights;
use quadrille_engine::variant::MAX_ARMIES;
use quadrille_engine::{Position, Variant};
use std::sync::Arc;

/// Royal presence: no royal piece at home (the player drops out at their
/// next turn), or only one left there.
const PRESENCE_NONE: i32 = -300;
const PRESENCE_ONE: i32 = -80;

/// Which terms the evaluation uses (for measuring them by self-play).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Terms {
    pub mobility: bool,
    /// The variant's learnt weights, if it ships any (else derived ones).
    pub learnt: bool,
}

impl Default for Terms {
    fn default() -> Self {
        Terms {
            mobility: true,
            learnt: true,
        }
    }
}

/// The evaluation of one variant.
#[derive(Clone, Debug)]
pub struct Eval {
    pub variant: Arc<Variant>,
    pub know: Knowledge,
    pub terms: Terms,
    /// The weights in use.
    pub weights: Weights,
    /// Material of every army's non-pawn, non-royal pieces at the start:
    /// the reference for the game phase.
    start_material: i32,
}

impl Eval {
    /// The evaluation with the variant's learnt weights if `terms` asks
    /// for them and it has some, else the derived ones.
    pub fn new(variant: &Arc<Variant>, terms: Terms) -> Eval {
        let weights = if terms.learnt {
            Weights::for_variant(variant)
        } else {
            Weights::default()
        };
        Eval::with_weights(variant, terms, weights)
    }

    /// The evaluation with these weights.
    pub fn with_weights(variant: &Arc<Variant>, terms: Terms, weights: Weights) -> Eval {
        let know = Knowledge::with_weights(variant, &weights);
        let start_material = Self::phase_material(&know, &variant.start());
        Eval {
            variant: variant.clone(),
            know,
            terms,
            weights,
            start_material,
        }
    }

    fn phase_material(know: &Knowledge, pos: &Position) -> i32 {
        let v = pos.variant();
        let mut m = 0;
        for a in 0..v.armies.len() {
            let skip = know.pawn_types | know.royal_types[a];
            for t in (0..v.pieces.len()).filter(|t| skip >> t & 1 == 0) {
                m += know.value[t] * pos.type_cells(a as u8, t as u8).len() as i32;
            }
        }
        m
    }

    /// Every army's score (armies out of the game included: their pieces
    /// may still stand as obstacles; callers decide whether they count).
    pub fn armies(&self, pos: &Position) -> [i32; MAX_ARMIES] {
        let v = &*self.variant;
        let k = &self.know;
        let mut score = [0i32; MAX_ARMIES];
        // Royal pieces seek the centre only once the board empties, and
        // their safety matters while it is full: both wait for the phase.
        let mut royal_centre = [0i32; MAX_ARMIES];
        let mut material = 0;
        for (a, s) in score.iter_mut().enumerate().take(v.armies.len()) {
            let army = a as u8;
            let royal_types = k.royal_types[a];
            for c in pos.army_cells(army).iter() {
                let Some(piece) = pos.piece_at(c) else {
                    continue;
                };
                let t = piece.kind;
                let owner = k.owner(army, c);
                let value = k.value[t as usize];
                *s += value;
                if royal_types >> t & 1 != 0 {
                    royal_centre[a] += k.centre(owner, t, c);
                } else if k.pawn_types >> t & 1 != 0 {
                    *s += k.centre(owner, t, c) + k.promotion(owner, t, c);
                } else {
                    material += value;
                    *s += k.centre(owner, t, c);
                    if self.terms.mobility {
                        *s += self.weights.mobility * pos.piece_mobility(c, owner) as i32;
                    }
                }
            }
        }
        let phase = if self.start_material > 0 {
            (material * 256 / self.start_material).clamp(0, 256)
        } else {
            0
        };
        for (a, s) in score.iter_mut().enumerate().take(v.armies.len()) {
            *s += royal_centre[a] * (256 - phase) / 256;
            *s += self.royal_safety(pos, a as u8) * phase / 256;
        }
        self.add_presence(pos, &mut score);
        score
    }

    /// Shelter by own pieces next to each royal piece, and enemy pieces
    /// close to it.
    fn royal_safety(&self, pos: &Position, army: u8) -> i32 {
        let Some(royals) = pos.royal_cells(army) else {
            return 0;
        };
        let k = &self.know;
        let v = &*self.variant;
        let own = pos.army_cells(army);
        let mut s = 0;
        for r in royals.iter() {
            s += self.weights.shelter
                * (k.neighbours[r as usize].intersection(&own).len() as i32).min(3);
            for e in (0..v.armies.len() as u8).filter(|&e| v.hostile(e, army)) {
                for c in pos.army_cells(e).iter() {
                    let d = k.distance(r, c);
                    if d < 3 {
                        let pawn = pos
                            .piece_at(c)
                            .is_some_and(|p| k.pawn_types >> p.kind & 1 != 0);
                        if !pawn {
                            s -= self.weights.tropism * (3 - d);
                        }
                    }
                }
            }
        }
        s
    }

    /// Royal presence (Avon): each player in the game wants royal pieces of
    /// their army in their home, where a move must leave one.
    fn add_presence(&self, pos: &Position, score: &mut [i32; MAX_ARMIES]) {
        let v = &*self.variant;
        let Some(types) = v.rules.royal_presence else {
            return;
        };
        for p in pos.players_in() {
            let player = &v.players[p];
            let mut at_home = 0;
            for t in (0..v.pieces.len()).filter(|t| types >> t & 1 != 0) {
                at_home += pos
                    .type_cells(player.army, t as u8)
                    .intersection(&player.home)
                    .len();
            }
            score[player.army as usize] += match at_home {
                0 => PRESENCE_NONE,
                1 => PRESENCE_ONE,
                _ => 0,
            };
        }
    }

    /// Two sides (two armies): the score of the army to move minus the
    /// other's, plus a small bonus for having the move.
    pub fn two_sided(&self, pos: &Position) -> i32 {
        let s = self.armies(pos);
        let me = pos.army_to_move() as usize;
        s[me] - s[1 - me] + self.weights.tempo
    }

    /// Many armies: `army`'s score minus the average of its opponents', the
    /// armies no longer in the game counting nothing (so that putting an
    /// opponent out is worth its whole army).
    pub fn many_sided(&self, pos: &Position, army: u8) -> i32 {
        let v = &*self.variant;
        let s = self.armies(pos);
        let n = v.armies.len() as i32;
        let mut armies_in = 0u8;
        for p in pos.players_in() {
            armies_in |= 1 << v.players[p].army;
        }
        let others: i32 = (0..v.armies.len())
            .filter(|&a| a != army as usize && armies_in >> a & 1 != 0)
            .map(|a| s[a])
            .sum();
        s[army as usize] - others / (n - 1).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quadrille_engine::embedded;

    fn eval(name: &str) -> (Arc<Variant>, Eval) {
        let v = embedded::variant(name).unwrap();
        let e = Eval::new(&v, Terms::default());
        (v, e)
    }

    #[test]
    fn the_start_is_balanced() {
        for name in ["chess", "magna-carta", "caissa-britannia", "avon"] {
            let (v, e) = eval(name);
            let p = v.start();
            let s = e.two_sided(&p) - e.weights.tempo;
            // Magna Carta's armies differ (Fairy-Stockfish puts White
            // about five pawns ahead); the others are mirror images.
            let limit = if name == "magna-carta" { 600 } else { 0 };
            assert!(s.abs() <= limit, "{name}: {s}");
        }
        for name in [
            "ariana",
            "diana",
            "electra",
            "los-alamos",
            "minerva",
            "sylvia",
        ] {
            let (v, e) = eval(name);
            let p = v.start();
            let s = e.armies(&p);
            assert!(s[..4].iter().all(|&x| x == s[0]), "{name}: {s:?}");
            assert_eq!(e.many_sided(&p, 0), 0);
        }
    }

    #[test]
    fn material_counts() {
        let (v, e) = eval("chess");
        // White without the Queen's Knight, Black to move.
        let p = Position::from_string(
            v.clone(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR b KQkq - 0 1",
        )
        .unwrap();
        let s = e.two_sided(&p);
        assert!(s > 200, "{s}");
    }

    #[test]
    fn putting_an_opponent_out_pays() {
        let (v, e) = eval("ariana");
        let start = v.start().to_string();
        let board = start.split(' ').next().unwrap();
        // Orange out (its army still standing, as in a set-up position).
        let out = Position::from_string(v.clone(), &format!("{board} r - - 0 1 out=o")).unwrap();
        assert!(e.many_sided(&out, 0) > e.many_sided(&v.start(), 0) + 500);
    }
}
