//! More than two sides (every player for themself): scores are from the
//! root player's army's point of view; the root player maximises and the
//! opponents minimise.
//!
//! - **Paranoid**: every opponent's move is searched, one ply each.
//! - **Best-Reply Search** (Schadd & Winands 2011) with the BRS+ fix
//!   (Esser et al. 2013): between two moves of the root player only one
//!   opponent's move is searched - the strongest reply of any opponent -
//!   while the other opponents play their best move by move ordering
//!   instead of passing, so every line is a legal game. A "layer" of
//!   opponents counts as one ply of depth, as the root player's move does.
//!
//! Eliminations and drop-outs happen inside `make`; a forced drop-out is
//! played without counting depth; the root player going out is a loss.

use crate::ordering::{is_tactical, losing_capture};
use crate::score::{DRAW, INFINITY, MATE};
use crate::searcher::{Algorithm, RootMoves, Searcher, Step, MAX_PLY};
use quadrille_engine::{Move, MoveKind, Position};

/// A draw by repetition or the no-progress rule, for the root army. It
/// shares first place among everyone still in, which is not bad, but
/// pessimistic searches (every opponent against you) would then repeat
/// moves forever: a draw counts a little less than an even game, so the
/// search plays on unless it is clearly worse.
const DRAW_CONTEMPT: i32 = DRAW - 60;

/// Quiescence plies at most (four players capture in turn).
const QUIESCENCE_PLIES: usize = 8;

/// Keys differ by root army and by whether the opponents' layer has made
/// its searched move, which change what a stored score means.
fn salt(root_army: u8, branched: bool) -> u64 {
    let army = (root_army as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    if branched {
        army ^ 0xD1B5_4A32_D192_ED03
    } else {
        army
    }
}

impl Searcher {
    fn static_multi<const W: usize>(&self, pos: &Position<W>) -> i32 {
        self.ev().many_sided(pos, self.root_army) + self.noise_at(pos.key())
    }

    /// Has every player of the root army gone out?
    fn root_out<const W: usize>(&self, pos: &Position<W>) -> bool {
        let v = pos.variant();
        !pos.players_in()
            .any(|p| v.players[p].army == self.root_army)
    }

    /// One iteration at the root (the root player moves).
    pub(crate) fn root_multi<const W: usize>(
        &mut self,
        pos: &mut Position<W>,
        root: &mut RootMoves,
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.root_iteration(
            pos,
            root,
            depth,
            alpha,
            beta,
            |s, pos, d, alpha, beta, _| s.multi(pos, d, alpha, beta, 1, false),
        )
    }

    /// The checks every many-sided node starts with: `Some` ends the node
    /// at once with that score.
    fn node_start_multi<const W: usize>(&mut self, pos: &Position<W>, ply: usize) -> Option<i32> {
        self.pv[ply].clear();
        if self.tick(ply) {
            return Some(0);
        }
        if self.root_out(pos) {
            return Some(-MATE + ply as i32);
        }
        if pos.repetitions() > 0 {
            return Some(DRAW_CONTEMPT);
        }
        (ply >= MAX_PLY - 1).then(|| self.static_multi(pos))
    }

    /// A node of the many-sided search. `branched`: the current layer of
    /// opponents has had its searched move (Best-Reply Search only).
    pub(crate) fn multi<const W: usize>(
        &mut self,
        pos: &mut Position<W>,
        depth: i32,
        alpha: i32,
        mut beta: i32,
        ply: usize,
        branched: bool,
    ) -> i32 {
        if let Some(s) = self.node_start_multi(pos, ply) {
            return s;
        }
        if depth <= 0 {
            return self.quiescence_multi(pos, alpha, beta, ply, 0);
        }
        let key = pos.key() ^ salt(self.root_army, branched);
        let probe = self.probe(key, depth, (alpha, beta), ply, true);
        let (table_move, cutoff) = (probe.mv, probe.cutoff);
        if let Some(s) = cutoff {
            return s;
        }
        pos.legal_moves_into(&mut self.order.frames[ply].moves);
        let n = self.order.frames[ply].len();
        if n == 0 {
            return self.terminal(pos, ply, self.root_army);
        }
        if Self::no_progress(pos) {
            return DRAW_CONTEMPT;
        }
        if n == 1 && self.order.frames[ply].moves.as_slice()[0].kind == MoveKind::DropOut {
            pos.make(Move::DROP_OUT);
            let s = self.multi(pos, depth, alpha, beta, ply + 1, branched);
            pos.unmake();
            if !self.stopped {
                self.update_pv(ply, Move::DROP_OUT);
            }
            return s;
        }
        let table_move = self.legal_here(ply, table_move);
        self.order.score(pos, ply, table_move, &self.values, false);

        let (original_alpha, original_beta) = (alpha, beta);
        let maximizing = pos.army_to_move() == self.root_army;
        let mut best_move = None;
        let best = if maximizing {
            self.multi_max(pos, depth, alpha, beta, ply, n, &mut best_move)
        } else if self.algorithm == Algorithm::Paranoid || branched {
            // Paranoid searches every opponent's moves; under BRS an
            // opponent after the searched one plays its ordered best.
            let count = if self.algorithm == Algorithm::Paranoid {
                n
            } else {
                1
            };
            let d = if self.algorithm == Algorithm::Paranoid {
                depth - 1
            } else {
                depth
            };
            self.multi_min(pos, d, alpha, beta, ply, count, branched, &mut best_move)
        } else {
            // BRS+: this opponent makes the layer's searched move...
            let mut best =
                self.multi_min(pos, depth - 1, alpha, beta, ply, n, true, &mut best_move);
            // ...or plays its ordered best and leaves the searched move to a
            // later opponent (if one comes before the root player again).
            if best > alpha && !self.stopped {
                beta = beta.min(best);
                let m = self.order.frames[ply].pick(0);
                pos.make(m);
                if pos.army_to_move() != self.root_army {
                    let s = self.multi(pos, depth, alpha, beta, ply + 1, false);
                    if s < best && !self.stopped {
                        best = s;
                        best_move = Some(m);
                        self.update_pv(ply, m);
                    }
                }
                pos.unmake();
            }
            best
        };
        if self.stopped {
            return 0;
        }
        self.store(
            key,
            best_move,
            best,
            (original_alpha, original_beta),
            depth,
            ply,
        );
        best
    }

    /// The root army moves: the best of all its moves.
    #[allow(clippy::too_many_arguments)]
    fn multi_max<const W: usize>(
        &mut self,
        pos: &mut Position<W>,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        n: usize,
        best_move: &mut Option<Move>,
    ) -> i32 {
        let mut best = -INFINITY;
        let mut tried = Vec::new();
        for i in 0..n {
            let m = self.order.frames[ply].pick(i);
            let tactical = is_tactical(pos, m, &self.values);
            pos.make(m);
            let s = self.multi(pos, depth - 1, alpha, beta, ply + 1, false);
            pos.unmake();
            if self.stopped {
                return 0;
            }
            let step = self.raise(ply, m, s, &mut best, &mut alpha, beta);
            if matches!(step, Step::Raised | Step::Cutoff) {
                *best_move = Some(m);
            }
            if step == Step::Cutoff {
                if !tactical {
                    self.order.cutoff(pos, ply, depth, m, &tried);
                }
                break;
            }
            if !tactical {
                tried.push(m);
            }
        }
        best
    }

    /// An opponent moves: the worst for the root army of its first `count`
    /// moves in order, the children searched at `depth` with `branched`.
    #[allow(clippy::too_many_arguments)]
    fn multi_min<const W: usize>(
        &mut self,
        pos: &mut Position<W>,
        depth: i32,
        alpha: i32,
        mut beta: i32,
        ply: usize,
        count: usize,
        branched: bool,
        best_move: &mut Option<Move>,
    ) -> i32 {
        let mut best = INFINITY;
        let mut tried = Vec::new();
        for i in 0..count {
            let m = self.order.frames[ply].pick(i);
            let tactical = is_tactical(pos, m, &self.values);
            pos.make(m);
            let s = self.multi(pos, depth, alpha, beta, ply + 1, branched);
            pos.unmake();
            if self.stopped {
                return 0;
            }
            let step = self.lower(ply, m, s, &mut best, alpha, &mut beta);
            if matches!(step, Step::Raised | Step::Cutoff) {
                *best_move = Some(m);
            }
            if step == Step::Cutoff {
                if !tactical {
                    self.order.cutoff(pos, ply, depth.max(1), m, &tried);
                }
                break;
            }
            if !tactical {
                tried.push(m);
            }
        }
        best
    }

    /// Quiescence for many sides: whoever is to move may stop (the static
    /// score) or capture, the root army maximising, the others minimising.
    fn quiescence_multi<const W: usize>(
        &mut self,
        pos: &mut Position<W>,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        q: usize,
    ) -> i32 {
        if let Some(s) = self.node_start_multi(pos, ply) {
            return s;
        }
        let stand = self.static_multi(pos);
        if q >= QUIESCENCE_PLIES {
            return stand;
        }
        let maximizing = pos.army_to_move() == self.root_army;
        if maximizing {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
        } else {
            if stand <= alpha {
                return stand;
            }
            beta = beta.min(stand);
        }
        pos.legal_moves_into(&mut self.order.frames[ply].moves);
        if self.order.frames[ply].len() == 0 {
            return self.terminal(pos, ply, self.root_army);
        }
        self.order.frames[ply].keep_tactical(pos, &self.values);
        let n = self.order.frames[ply].len();
        if n == 0 {
            return stand;
        }
        self.order.score(pos, ply, None, &self.values, false);
        let mut best = stand;
        for i in 0..n {
            let m = self.order.frames[ply].pick(i);
            if m.kind != MoveKind::DropOut && m.promotion.is_none() {
                let pair = (self.value_at(pos, m.from), self.value_at(pos, m.to));
                let margin = self.params.bad_capture_margin;
                if losing_capture(pos, m, pair, &self.values, false, margin) {
                    continue;
                }
            }
            pos.make(m);
            let s = self.quiescence_multi(pos, alpha, beta, ply + 1, q + 1);
            pos.unmake();
            if self.stopped {
                return 0;
            }
            let step = if maximizing {
                self.raise(ply, m, s, &mut best, &mut alpha, beta)
            } else {
                self.lower(ply, m, s, &mut best, alpha, &mut beta)
            };
            if step == Step::Cutoff {
                break;
            }
        }
        best
    }
}
