//! MaxN (Luckhardt and Irani 1986) for more than two sides: every node
//! carries a score per army, each from that army's point of view, and the
//! player to move picks the child best for its own army. No opponent is
//! assumed hostile to the root player (unlike Paranoid and Best-Reply
//! Search), so nothing is cut: the tree is the full width at every ply,
//! which is why the literature finds it the weakest of the three at equal
//! time (Schadd and Winands 2011). It is here to be measured against them.
//!
//! The scores sum to zero while every army is in (each is the army's
//! evaluation less the average of the others'), so a win for one is a
//! loss for the rest. Quiescence tries only captures that do not lose
//! material (by the bad-capture test of [`crate::multi`]), for a few plies: four players capturing in turn at full
//! width would otherwise swamp the search.

use crate::ordering::losing_capture;
use crate::score::{DRAW, INFINITY, MATE};
use crate::searcher::{result_for, RootMoves, Searcher, MAX_PLY};
use quadrille_engine::variant::MAX_ARMIES;
use quadrille_engine::{Move, MoveKind, Position};

/// Every army's score, from its own point of view.
pub(crate) type Scores = [i32; MAX_ARMIES];

/// A draw by repetition or the no-progress rule: a little less than an
/// even game for everyone (as [`crate::multi`]'s searches count it), so
/// that no player repeats unless clearly worse.
const DRAW_CONTEMPT: i32 = DRAW - 60;

/// Quiescence plies at most.
const QUIESCENCE_PLIES: usize = 4;

impl Searcher {
    /// One iteration at the root: the root army's own score of each move.
    pub(crate) fn root_maxn<const W: usize>(
        &mut self,
        pos: &mut Position<W>,
        root: &mut RootMoves,
        depth: i32,
    ) -> i32 {
        let army = self.root_army as usize;
        self.root_iteration(
            pos,
            root,
            depth,
            -INFINITY,
            INFINITY,
            |s, pos, d, _, _, _| s.maxn(pos, d, 1)[army],
        )
    }

    /// Every army's static score (the noise of the weak levels included).
    fn static_maxn<const W: usize>(&self, pos: &Position<W>) -> Scores {
        let noise = self.noise_at(pos.key());
        let mut s = self.ev().many_sided_all(pos);
        for x in s.iter_mut() {
            *x += noise;
        }
        s
    }

    /// The same score for every army.
    fn even(score: i32) -> Scores {
        [score; MAX_ARMIES]
    }

    /// A finished game: a win, draw or loss for each army by its place.
    fn terminal_maxn<const W: usize>(&mut self, pos: &Position<W>, ply: usize) -> Scores {
        let Some(o) = pos.outcome() else {
            return Self::even(DRAW);
        };
        let v = pos.variant();
        let mut s = Self::even(DRAW);
        for (a, x) in s.iter_mut().enumerate().take(v.armies.len()) {
            *x = match result_for(&o, v, a as u8) {
                std::cmp::Ordering::Less => MATE - ply as i32,
                std::cmp::Ordering::Equal => DRAW,
                std::cmp::Ordering::Greater => -MATE + ply as i32,
            };
        }
        s
    }

    /// The checks a node starts with: `Some` ends it with those scores.
    fn node_start_maxn<const W: usize>(&mut self, pos: &Position<W>, ply: usize) -> Option<Scores> {
        self.pv[ply].clear();
        if self.tick(ply) {
            return Some(Self::even(0));
        }
        let v = pos.variant();
        if !pos
            .players_in()
            .any(|p| v.players[p].army == self.root_army)
        {
            // The root army is out: whatever follows, it has lost.
            let mut s = self.static_maxn(pos);
            s[self.root_army as usize] = -MATE + ply as i32;
            return Some(s);
        }
        if pos.repetitions() > 0 {
            return Some(Self::even(DRAW_CONTEMPT));
        }
        (ply >= MAX_PLY - 1).then(|| self.static_maxn(pos))
    }

    /// A node: the player to move takes the child best for its army.
    fn maxn<const W: usize>(&mut self, pos: &mut Position<W>, depth: i32, ply: usize) -> Scores {
        if let Some(s) = self.node_start_maxn(pos, ply) {
            return s;
        }
        if depth <= 0 {
            return self.quiescence_maxn(pos, ply, 0);
        }
        pos.legal_moves_into(&mut self.order.frames[ply].moves);
        let n = self.order.frames[ply].len();
        if n == 0 {
            return self.terminal_maxn(pos, ply);
        }
        if Self::no_progress(pos) {
            return Self::even(DRAW_CONTEMPT);
        }
        if n == 1 && self.order.frames[ply].moves.as_slice()[0].kind == MoveKind::DropOut {
            // A forced drop-out costs no depth.
            return self.maxn_child(pos, Move::DROP_OUT, depth, ply);
        }
        // Order matters only when time runs out inside the node, and for
        // the line reported.
        self.order.score(pos, ply, None, &self.values, false);
        let mover = pos.army_to_move() as usize;
        let mut best: Option<Scores> = None;
        for i in 0..n {
            let m = self.order.frames[ply].pick(i);
            let s = self.maxn_child(pos, m, depth - 1, ply);
            if self.stopped {
                return Self::even(0);
            }
            if best.is_none_or(|b| s[mover] > b[mover]) {
                best = Some(s);
                self.update_pv(ply, m);
            }
        }
        best.unwrap_or_else(|| Self::even(DRAW))
    }

    /// Plays `m`, searches the child to `depth`, takes the move back.
    fn maxn_child<const W: usize>(
        &mut self,
        pos: &mut Position<W>,
        m: Move,
        depth: i32,
        ply: usize,
    ) -> Scores {
        self.order.record(pos, ply, Some(m));
        pos.make(m);
        let s = self.maxn(pos, depth, ply + 1);
        pos.unmake();
        s
    }

    /// Quiescence: the player to move keeps the static scores or makes a
    /// capture that does not lose material, whichever is better for it.
    fn quiescence_maxn<const W: usize>(
        &mut self,
        pos: &mut Position<W>,
        ply: usize,
        q: usize,
    ) -> Scores {
        if let Some(s) = self.node_start_maxn(pos, ply) {
            return s;
        }
        let stand = self.static_maxn(pos);
        if q >= QUIESCENCE_PLIES {
            return stand;
        }
        pos.legal_moves_into(&mut self.order.frames[ply].moves);
        if self.order.frames[ply].len() == 0 {
            return self.terminal_maxn(pos, ply);
        }
        self.order.frames[ply].keep_tactical(pos, &self.values);
        let n = self.order.frames[ply].len();
        self.order.score(pos, ply, None, &self.values, false);
        let mover = pos.army_to_move() as usize;
        let mut best = stand;
        for i in 0..n {
            let m = self.order.frames[ply].pick(i);
            if m.kind != MoveKind::DropOut && m.promotion.is_none() {
                let margin = self.params.bad_capture_margin;
                let pair = (self.value_at(pos, m.from), self.value_at(pos, m.to));
                if losing_capture(pos, m, pair, &self.values, false, margin) {
                    continue;
                }
            }
            pos.make(m);
            let s = self.quiescence_maxn(pos, ply + 1, q + 1);
            pos.unmake();
            if self.stopped {
                return Self::even(0);
            }
            if s[mover] > best[mover] {
                best = s;
            }
        }
        best
    }
}
