//! Two sides: principal-variation alpha-beta (negamax on the side to
//! move; when the same side moves twice in a row, as in Avon after a
//! drop-out, the score is not negated), with a transposition table, check
//! extension, null-move pruning, late move reductions and pruning, reverse
//! futility, futility and static-exchange pruning, and a quiescence search
//! on captures that do not lose material by static exchange. Options the
//! parameter table switches on: singular extension with multi-cut (and
//! double and negative extensions of the table's move), history
//! and continuation-history pruning, pruning by the depth after reduction,
//! cut-node reductions, reductions of checks (all, or those losing the
//! checking piece), fewer reductions on principal lines the table
//! remembers, the table's score as static score, nodes in check
//! pruned like the others, the static score corrected by the correction
//! history, capture history, the history bonus of a principal line's
//! quiet best move, the table in quiescence, ProbCut, threats in the
//! quiet moves' order, a ply more reduction where the next ply's nodes
//! keep failing high, the null move only where the static score is near
//! beta or where the move before it has a modest history, a second
//! multi-cut by the singular test, quiescence's late captures and futile
//! even trades skipped; the check extension limited to nodes of some
//! depth.

use crate::ordering::{is_capture, is_tactical, losing_capture};
use crate::score::{is_mate, DRAW, INFINITY, MATE};
use crate::searcher::{Probe, RootMoves, Searcher, Step, MAX_PLY};
use crate::tt::Bound;
use quadrille_engine::{CheckingCells, Legality, Move, MoveKind, Position};

/// Quiet moves (and, apart, captures) remembered per node for the
/// history malus.
const MAX_QUIETS: usize = 64;

/// How a node is searched, besides its window.
#[derive(Clone, Copy)]
pub(crate) struct Node {
    /// May it try a null move (not straight after one)?
    pub null_ok: bool,
    /// Is it expected to fail high (a null-window child of a late move)?
    pub cut: bool,
}

/// What the singular-extension test found.
#[derive(PartialEq, Eq)]
enum Singular {
    /// Not tried (no table move, too shallow, ...).
    Untested,
    /// Tried: the table's move is searched this many plies deeper (one,
    /// two when far better than the rest, less than none when it is not
    /// alone but the table expects it to beat beta, or none).
    Extend(i32),
    /// Even without the table's move the node beats beta.
    Cut(i32),
    /// The search was stopped during the test.
    Stopped,
}

impl Searcher {
    /// Late move reduction by depth and move number (the table is built
    /// from the parameters when they change).
    #[inline]
    fn reduction(&self, depth: i32, moves: usize) -> i32 {
        self.reductions[depth.clamp(0, 63) as usize * 64 + moves.min(63)] as i32
    }

    fn static_two<const W: usize>(&mut self, pos: &Position<W>) -> i32 {
        let key = pos.key();
        let s = match self.eval_cache.get(key) {
            Some(s) => s,
            None => {
                let s = self.ev().two_sided(pos);
                self.eval_cache.put(key, s);
                s
            }
        };
        s + self.noise_at(key)
    }

    /// Has quiet move `m` failed here before? After the same moves just
    /// before (continuation pruning, judged by `prune_depth`, the depth
    /// after reduction), or again and again at this ply (history pruning,
    /// judged by the full `depth`). A killer is spared either way.
    fn failed_before<const W: usize>(
        &self,
        pos: &Position<W>,
        ply: usize,
        m: Move,
        depth: i32,
        prune_depth: i32,
    ) -> bool {
        let p = &self.params;
        let continuation =
            prune_depth < p.continuation_prune && self.order.continuation_bad(pos, ply, m);
        let history = || {
            depth <= p.history_prune_depth
                && self.order.quiet_score(pos, ply, m) < -p.history_prune * depth
        };
        (continuation || history()) && !self.order.is_killer(ply, m)
    }

    /// May a node `ply` plies below the root be extended? Within twice the
    /// iteration's depth only.
    #[inline]
    fn may_extend(&self, ply: usize) -> bool {
        (ply as i32) < 2 * self.iteration_depth
    }

    /// Searches one child (`cut`: expected to fail high): negated when the
    /// other side moves next.
    #[inline]
    fn child<const W: usize>(
        &mut self,
        pos: &mut Position<W>,
        depth: i32,
        (alpha, beta): (i32, i32),
        ply: usize,
        cut: bool,
    ) -> i32 {
        let node = Node { null_ok: true, cut };
        if pos.army_to_move() == self.side_at(ply) {
            self.pvs(pos, depth, alpha, beta, ply + 1, node)
        } else {
            -self.pvs(pos, depth, -beta, -alpha, ply + 1, node)
        }
    }

    /// Same for quiescence.
    #[inline]
    fn child_q<const W: usize>(
        &mut self,
        pos: &mut Position<W>,
        alpha: i32,
        beta: i32,
        ply: usize,
        q: usize,
    ) -> i32 {
        if pos.army_to_move() == self.side_at(ply) {
            self.quiescence(pos, alpha, beta, ply + 1, q + 1)
        } else {
            -self.quiescence(pos, -beta, -alpha, ply + 1, q + 1)
        }
    }

    /// The army that moves at `ply` (each node stores it before searching
    /// its children).
    #[inline]
    fn side_at(&self, ply: usize) -> u8 {
        self.sides[ply]
    }

    /// One iteration at the root: the first move with the full window,
    /// the others with a null window first.
    pub(crate) fn root_pvs<const W: usize>(
        &mut self,
        pos: &mut Position<W>,
        root: &mut RootMoves,
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.sides[0] = pos.army_to_move();
        self.tt_pv[0] = true;
        // The root's static score, which the nodes two plies down compare
        // theirs with (`improving`), where `root_eval` says (else 0).
        if self.params.root_eval > 0 {
            let in_check = self.in_check(pos, 0);
            let guarded = self.guarded(in_check);
            self.evals[0] = self.static_scores(pos, guarded).1;
        }
        self.cutoffs[1] = 0;
        self.cutoffs[2] = 0;
        self.move_counts[0] = 0;
        self.root_iteration(
            pos,
            root,
            depth,
            alpha,
            beta,
            |s, pos, d, alpha, beta, m| {
                s.move_counts[0] += 1;
                s.move_histories[0] = m.history;
                if m.index == 0 {
                    return s.child(pos, d, (alpha, beta), 0, false);
                }
                // A late quiet move is reduced as at a principal-line node
                // below, where `root_lmr` says (checks are not), and kept
                // where the reduced search fails low.
                let p = s.params;
                if p.root_lmr > 0
                    && d >= 2
                    && m.index as i32 >= p.root_lmr
                    && !m.tactical
                    && (p.lmr_checks == 1 || !s.in_check(pos, 1))
                {
                    let r = s.reduction(d + 1, m.index)
                        - 1
                        - p.lmr_tt_pv
                        - m.history / p.lmr_history_div;
                    let r = r.clamp(0, d - 1);
                    if r > 0 {
                        let v = s.child(pos, d - r, (alpha, alpha + 1), 0, true);
                        if v <= alpha || s.stopped {
                            return v;
                        }
                    }
                }
                let v = s.child(pos, d, (alpha, alpha + 1), 0, true);
                if v > alpha && v < beta && !s.stopped {
                    s.child(pos, d, (alpha, beta), 0, false)
                } else {
                    v
                }
            },
        )
    }

    /// The checks every two-sided node starts with: `Some` ends the node
    /// at once with that score.
    fn node_start<const W: usize>(&mut self, pos: &Position<W>, ply: usize) -> Option<i32> {
        self.pv[ply].clear();
        if self.tick(ply) {
            return Some(0);
        }
        if pos.repetitions() > 0 {
            return Some(DRAW);
        }
        (ply >= MAX_PLY - 1).then(|| self.static_two(pos))
    }

    /// Does the null move make sense here? Not in games with eliminations
    /// (passing skips the elimination test a real move makes), and only
    /// with a piece besides pawns and royals (zugzwang is then rare).
    fn null_allowed<const W: usize>(&self, pos: &Position<W>, ply: usize) -> bool {
        let v = pos.variant();
        let e = v.rules.elimination;
        if e.capturable_royal || e.empty_army {
            return false;
        }
        // A player left only the drop-out may not pass (the moves of games
        // with drop-outs are listed before the null move).
        if v.rules.dropout.is_some()
            && self.order.frames[ply].moves.as_slice()[0].kind == MoveKind::DropOut
        {
            return false;
        }
        let k = &self.ev().know;
        let army = pos.army_to_move();
        let skip = k.pawn_types | k.royal_types[army as usize];
        (0..v.pieces.len())
            .filter(|t| skip >> t & 1 == 0)
            .any(|t| !pos.type_cells(army, t as u8).is_empty())
    }

    /// Principal-variation search of a node `ply` plies below the root.
    pub(crate) fn pvs<const W: usize>(
        &mut self,
        pos: &mut Position<W>,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        node: Node,
    ) -> i32 {
        if let Some(s) = self.node_start(pos, ply) {
            return s;
        }
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        self.cutoffs[ply + 2] = 0;
        self.move_counts[ply] = 0;
        let in_check = self.in_check(pos, ply);
        // Check extension, within twice the iteration's depth: games with
        // several royal pieces can check on and on. (Mode 2 extends at the
        // parent instead, only checks that do not lose material.)
        if in_check
            && self.params.check_extension == 1
            && depth >= self.params.check_ext_depth
            && self.may_extend(ply)
        {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiescence(pos, alpha, beta, ply, 0);
        }
        let pv_node = beta - alpha > 1;
        // Set while a singular-extension test searches this node without
        // that move: the table may neither end nor record it.
        let excluded = self.excluded[ply];
        let key = pos.key();
        let probe = self.probe(
            key,
            depth,
            (alpha, beta),
            ply,
            !pv_node && excluded.is_none(),
        );
        if let Some(s) = probe.cutoff {
            if self.params.tt_history > 0 {
                self.table_history(pos, (ply, depth), probe.mv, s >= beta);
            }
            return s;
        }
        // A draw by the no-progress rule, unless the mover has no move (a
        // mate or stalemate comes first).
        if Self::no_progress(pos) {
            return self.list_or_end(pos, ply).map_or_else(|end| end, |_| DRAW);
        }
        // Games with drop-outs list the moves before the null move, which
        // a player left only the drop-out may not make.
        let listed_early = pos.variant().rules.dropout.is_some();
        if listed_early {
            if let Err(end) = self.list_or_end(pos, ply) {
                return end;
            }
        }
        let p = self.params;
        // In check the node is searched in full, unless `check_nodes`
        // lets it be pruned like the others.
        let guarded = self.guarded(in_check);
        // The evaluation's score, and that score corrected by what the
        // searches of the same pawns found (the one the pruning uses).
        let (raw_eval, static_eval) = self.static_scores(pos, guarded);
        self.evals[ply] = static_eval;
        // The move that led here, judged by the static scores around it
        // (not the root's moves: the root keeps no static score).
        if p.eval_history > 0 && !guarded && ply > 1 && self.evals[ply - 1] != -INFINITY {
            let gain = -(self.evals[ply - 1] + static_eval) * depth * p.eval_history / 16;
            self.order.eval_reward(ply, gain.clamp(-36, 36));
        }
        // The table's score, where its bound says the truth lies beyond the
        // static score, is the better guess for pruning.
        let eval = if p.tt_eval > 0 && !guarded {
            refined(static_eval, probe.entry)
        } else {
            static_eval
        };
        // Better than two plies ago (the same side's last node)? Pruning is
        // then bolder against beta and more careful below alpha.
        let improving = !guarded
            && (ply < 2 || self.evals[ply - 2] == -INFINITY || static_eval > self.evals[ply - 2]);
        // Reverse futility: far above beta near the leaves.
        if !pv_node
            && !guarded
            && depth <= p.rfp_depth
            && !is_mate(beta)
            && eval - p.rfp_margin * (depth - improving as i32) >= beta
        {
            return eval;
        }
        // Razoring: far below alpha near the leaves, quiescence decides
        // (not where the moves are already listed in this ply's frame,
        // which quiescence would overwrite).
        if p.razor_margin > 0
            && !pv_node
            && !in_check
            && !listed_early
            && excluded.is_none()
            && !is_mate(alpha)
            && eval < alpha - p.razor_margin * depth * depth
        {
            let s = self.quiescence(pos, alpha - 1, alpha, ply, 0);
            if self.stopped {
                return 0;
            }
            if s < alpha {
                return s;
            }
        }
        let side = pos.army_to_move();
        self.sides[ply] = side;
        // On the principal line, or once was (the singular test of the
        // node keeps the node's own flag).
        if excluded.is_none() {
            self.tt_pv[ply] = pv_node || probe.pv;
        }
        if self.options.null_move
            && node.null_ok
            && excluded.is_none()
            && !pv_node
            && !in_check
            && depth >= p.null_depth
            && eval >= beta
            && (p.null_static == 0 || static_eval >= beta - 16 * depth + p.null_static)
            && (p.null_history == 0 || ply == 0 || self.move_histories[ply - 1] < p.null_history)
            && !is_mate(beta)
            && self.null_allowed(pos, ply)
        {
            let r =
                p.null_base + depth / p.null_depth_div + ((eval - beta) / p.null_eval_div).min(3);
            self.order.record(pos, ply, None);
            pos.make_null();
            let s = if pos.army_to_move() == side {
                None
            } else {
                let child = Node {
                    null_ok: false,
                    cut: !node.cut,
                };
                Some(-self.pvs(pos, depth - 1 - r, -beta, -beta + 1, ply + 1, child))
            };
            pos.unmake();
            if self.stopped {
                return 0;
            }
            if let Some(s) = s.filter(|&s| s >= beta) {
                return if is_mate(s) { beta } else { s };
            }
            // The null search used the next ply's frame only.
        }
        // The moves, only now: reverse futility and the null move end many
        // nodes without them (a node without a move to make that they cut
        // is scored by the evaluation, as in Stockfish). Moves are judged
        // one at a time when reached (most nodes end after a move or
        // two), where the rules allow it (never with drop-outs).
        let mut legality = if listed_early {
            None
        } else {
            match self.list_or_end(pos, ply) {
                Ok(legality) => legality,
                Err(end) => return end,
            }
        };
        let n = self.order.frames[ply].len();
        let table_move = self.legal_here(ply, probe.mv);
        // ProbCut: a good capture that beats beta by a margin four plies
        // shallower would beat it at full depth too.
        if p.probcut_margin > 0
            && !pv_node
            && !in_check
            && excluded.is_none()
            && depth >= 5
            && !is_mate(beta)
        {
            let probcut_beta = beta + p.probcut_margin;
            // Not when the table already knows better.
            let known_below =
                matches!(probe.entry, Some((s, _, d)) if d >= depth - 3 && s < probcut_beta);
            if !known_below {
                let found = self.probcut(
                    pos,
                    (ply, depth),
                    (probcut_beta, static_eval),
                    node,
                    (table_move, legality.as_ref()),
                );
                if self.stopped {
                    return 0;
                }
                if let Some((s, m)) = found {
                    self.store(
                        key,
                        Some(m),
                        s,
                        (probcut_beta - 1, probcut_beta),
                        depth - 3,
                        ply,
                    );
                    return s;
                }
            }
        }
        // Without a table move a deep node is likely new: search it
        // shallower (internal iterative reduction), where `iir_nodes` says.
        if table_move.is_none() && p.iir_depth > 0 && depth >= p.iir_depth {
            depth -= match p.iir_nodes {
                0 => 1,
                1 => (pv_node || node.cut) as i32,
                _ => 2 * pv_node as i32,
            };
        }
        let singular_plies =
            match self.singular(pos, ply, depth, (beta, pv_node), node, (table_move, &probe)) {
                Singular::Cut(s) => return s,
                Singular::Stopped => return 0,
                Singular::Untested => 0,
                Singular::Extend(plies) => {
                    // The test searched this node again, in this ply's frame.
                    legality = self.generate(pos, ply, true);
                    plies
                }
            };

        self.order
            .score(pos, ply, table_move, &self.values, p.see_depth > 0);
        if p.quiet_threats > 0 && depth >= p.quiet_threats {
            self.order.weigh_threats(pos, ply, &self.values);
        }
        // Where the table's move captures, quiet moves are reduced more
        // (asked only where the option is on: every node passes here).
        let tt_capture =
            p.lmr_tt_capture > 0 && table_move.is_some_and(|t| is_tactical(pos, t, &self.values));
        // Fewer reductions on a principal line, or one that was, unless the
        // table says this PV node already failed low as deep.
        let likely_fail_low = pv_node
            && table_move.is_some()
            && matches!(probe.entry, Some((_, Bound::Upper | Bound::Exact, d)) if d >= depth);
        let pv_less = p.lmr_tt_pv * (self.tt_pv[ply] && !likely_fail_low) as i32;
        // The other moves of a node whose quiet table move was singular.
        let singular_less = p.lmr_singular
            * (singular_plies > 0 && table_move.is_some_and(|t| !is_tactical(pos, t, &self.values)))
                as i32;
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move: Option<Move> = None;
        let mut quiets = [Move::DROP_OUT; MAX_QUIETS];
        let mut n_quiets = 0;
        let mut captures = [Move::DROP_OUT; MAX_QUIETS];
        let mut n_captures = 0;
        let mut legal = 0;
        // Legal moves reached, where `move_count` counts them.
        let mut reached = 0;
        // Quiet moves tried before the best one so far.
        let mut quiets_before_best = 0;
        // Set when late move pruning skips its first move: every move after
        // it scores lower, so all are quiet (or, with `bad_captures_last`,
        // losing captures, which it does not skip) and are taken unsorted.
        let mut pruning_late = false;
        // Where a late quiet move may give check (found when first asked).
        let mut check_cells = None;
        for k in 0..n {
            let m = if pruning_late {
                self.order.frames[ply].take(k)
            } else {
                self.order.frames[ply].pick_judged(k, pos, &self.values)
            };
            if Some(m) == excluded {
                continue;
            }
            // The move's number, counted from 0: the moves searched before
            // it, or with `move_count` every legal move reached before it,
            // pruned or not (Stockfish's `moveCount`; legality is then
            // judged first, else only for the moves not pruned).
            let i = if p.move_count > 0 {
                if legality.as_ref().is_some_and(|l| !pos.is_legal(l, m)) {
                    continue;
                }
                reached += 1;
                reached - 1
            } else {
                legal
            };
            let tactical = is_tactical(pos, m, &self.values);
            // Moves after the first searched may be pruned (on the
            // principal line too where `pv_prune` says).
            let prunable = (!pv_node || p.pv_prune > 0) && !guarded && legal > 0 && !is_mate(alpha);
            let quiet_prunable = prunable && !tactical;
            // Late move pruning: far down the list of a shallow node, the
            // quiet moves are not worth a look.
            let lmp_count = (p.lmp_base + depth * depth) / if improving { 1 } else { 2 };
            if quiet_prunable && depth <= p.lmp_depth && i as i32 >= lmp_count {
                pruning_late = true;
                let spare_checks = p.lmp_checks > 0 || (pv_node && p.pv_prune >= 2);
                if !spare_checks
                    || !self.gives_check(pos, ply, legality.as_ref(), &mut check_cells, m)
                {
                    continue;
                }
            }
            // The depth the move would be searched to after its late move
            // reduction: what the pruning below judges by, where set.
            let prune_depth = if p.prune_lmr_depth > 0 && !tactical {
                (depth - self.reduction(depth, i)).max(0)
            } else {
                depth
            };
            // Futility: a quiet move cannot lift a hopeless frontier node;
            // continuation and history pruning: nor is one worth a look that
            // has failed here before. With `spare_checks`, none of them
            // skips a check (asked last: it costs the most).
            if quiet_prunable {
                let hopeless = prune_depth <= p.futility_depth
                    && static_eval + p.futility_base + p.futility_margin * prune_depth <= alpha;
                if (hopeless || self.failed_before(pos, ply, m, depth, prune_depth))
                    && (p.spare_checks == 0
                        || !self.gives_check(pos, ply, legality.as_ref(), &mut check_cells, m))
                {
                    continue;
                }
            }
            // Static exchange pruning: near the leaves, a move that loses
            // more material on its cell than the depth can win back.
            if prunable && depth <= p.see_depth && m.promotion.is_none() {
                let limit = if tactical {
                    -p.see_capture_margin * depth
                } else {
                    -p.see_quiet_margin * prune_depth * prune_depth
                };
                if !pos.see_at_least(m, &self.values, limit) {
                    continue;
                }
            }
            if p.move_count == 0 && legality.as_ref().is_some_and(|l| !pos.is_legal(l, m)) {
                continue;
            }
            legal += 1;
            self.move_counts[ply] = legal as u32;
            let killer = self.order.is_killer(ply, m);
            // `bad_captures_last` 2: a losing capture is reduced like a
            // quiet move; `lmr_captures`: any capture at a node expected to
            // fail high, or one whose victim cannot lift the static score
            // to alpha.
            let reducible = !tactical
                || (p.bad_captures_last >= 2 && self.order.frames[ply].is_bad_capture(k))
                || (p.lmr_captures > 0
                    && !guarded
                    && (node.cut || static_eval + self.value_at(pos, m.to) <= alpha));
            let history = if tactical {
                0
            } else {
                self.order.quiet_score(pos, ply, m)
            };
            let mut d = if m.kind == MoveKind::DropOut {
                depth
            } else {
                depth - 1
            };
            // Mode 2: only checks that do not lose material on their cell
            // (tried where royal Queens and Marshals make most attacks
            // checks; it lost in Magna Carta, docs/performance.md).
            let safe = p.check_extension == 2
                && self.may_extend(ply + 1)
                && pos.see_at_least(m, &self.values, 0);
            if Some(m) == table_move {
                d += singular_plies;
            }
            // Late enough in a deep enough node for a late move reduction.
            let late = depth >= 3 && i as i32 >= p.lmr_move;
            // `lmr_checks` 2: a check is reduced only when the checking
            // piece can be taken at a loss (judged before the move).
            let losing =
                p.lmr_checks == 2 && late && !tactical && !pos.see_at_least(m, &self.values, 0);
            // `lmr_escape`: the move takes its piece out of a losing
            // exchange (judged before the move, asked only where it counts).
            let escape = p.lmr_escape > 0
                && !node.cut
                && !tactical
                && late
                && !killer
                && pos.attacked_by_enemies(m.from, side)
                && pos.threat(m.from, &self.values) > 0;
            self.move_histories[ply] = history;
            self.order.record(pos, ply, Some(m));
            pos.make(m);
            if safe && self.in_check(pos, ply + 1) {
                d += 1;
            }
            let mut s;
            // The continuation bonus a re-search after a reduction earned
            // (given once the move is unmade: its slots read the mover).
            let mut post_lmr = 0;
            if legal == 1 {
                s = self.child(pos, d, (alpha, beta), ply, !pv_node && !node.cut);
            } else {
                let mut r = 0;
                // Checks are not reduced unless `lmr_checks` (tested last:
                // it costs the most).
                if self.options.lmr
                    && late
                    && reducible
                    && !guarded
                    && !killer
                    && (p.lmr_checks == 1 || losing || !self.in_check(pos, ply + 1))
                {
                    r = self.reduction(depth, i) - pv_node as i32
                        + !improving as i32
                        + p.lmr_cut_node * node.cut as i32
                        + p.lmr_tt_capture * (tt_capture && !tactical) as i32
                        - pv_less
                        - singular_less
                        + (p.lmr_cutoffs > 0 && self.cutoffs[ply + 1] > p.lmr_cutoffs as u32)
                            as i32
                        - p.lmr_escape * escape as i32
                        - (p.lmr_parent_moves > 0
                            && ply > 0
                            && self.move_counts[ply - 1] > p.lmr_parent_moves as u32)
                            as i32
                        - history / p.lmr_history_div;
                    // Below zero only where `lmr_extend` lets a move of
                    // great history among the first five go a ply deeper.
                    let least = -((p.lmr_extend > 0 && r < -1 && i < 5) as i32);
                    r = r.clamp(least, (d - 1).max(0));
                }
                let reduced = d - r;
                s = self.child(pos, reduced, (alpha, alpha + 1), ply, r > 0 || !node.cut);
                if s > alpha && r > 0 && !self.stopped {
                    // How far the reduced search beat the best so far says
                    // how deep to look again (Stockfish's deeper and
                    // shallower re-search).
                    if p.lmr_deeper > 0 {
                        d += (s > best + p.lmr_deeper + 2 * d) as i32
                            - (s < best + p.lmr_deeper / 5) as i32;
                    }
                    if d > reduced {
                        s = self.child(pos, d, (alpha, alpha + 1), ply, !node.cut);
                    }
                    if p.lmr_post_history > 0 {
                        post_lmr = if s <= alpha { -1 } else { (s >= beta) as i32 };
                    }
                }
                if s > alpha && s < beta && !self.stopped {
                    s = self.child(pos, d, (alpha, beta), ply, false);
                }
            }
            pos.unmake();
            if self.stopped {
                return 0;
            }
            if post_lmr != 0 {
                self.order.continuation_reward(pos, ply, d, m, post_lmr);
            }
            match self.raise(ply, m, s, &mut best, &mut alpha, beta) {
                Step::Cutoff => {
                    best_move = Some(m);
                    self.cutoffs[ply] += 1;
                    if !tactical {
                        self.order.cutoff(pos, ply, depth, m, &quiets[..n_quiets]);
                    }
                    let by_capture = tactical.then_some(m);
                    self.order
                        .capture_cutoff(pos, depth, by_capture, &captures[..n_captures]);
                    break;
                }
                Step::Raised => {
                    best_move = Some(m);
                    quiets_before_best = n_quiets;
                }
                _ => {}
            }
            if !tactical && n_quiets < MAX_QUIETS {
                quiets[n_quiets] = m;
                n_quiets += 1;
            } else if tactical && n_captures < MAX_QUIETS {
                captures[n_captures] = m;
                n_captures += 1;
            }
        }
        if legal == 0 {
            // Without the excluded move nothing is left: no verdict on it.
            if excluded.is_some() {
                return alpha;
            }
            return self.terminal(pos, ply, side);
        }
        // A quiet move that raised alpha and held (no cutoff) is rewarded
        // as a cutoff's.
        if let Some(m) = best_move
            .filter(|&m| p.history_raised > 0 && best < beta && !is_tactical(pos, m, &self.values))
        {
            self.order
                .cutoff(pos, ply, depth, m, &quiets[..quiets_before_best]);
        }
        if excluded.is_none() {
            // A node that failed low below a principal line joins it: the
            // move before it was likely good (Stockfish's).
            if best <= original_alpha {
                self.tt_pv[ply] |= ply > 0 && self.tt_pv[ply - 1] && depth > 3;
                if p.prior_bonus > 0 && (depth >= 3 || pv_node) {
                    let times = p.prior_bonus + (pv_node || node.cut) as i32;
                    self.order.prior_reward(ply, depth, times);
                }
            }
            self.store(key, best_move, best, (original_alpha, beta), depth, ply);
            // The correction learns where the result says which way the
            // static score erred: not from a cut the static score foresaw
            // or a fail-low it did not, nor from captures' results.
            if p.correction > 0
                && !in_check
                && !is_mate(best)
                && best_move.is_none_or(|m| !is_tactical(pos, m, &self.values))
                && !(best >= beta && best <= static_eval)
                && !(best <= original_alpha && best >= static_eval)
            {
                self.correction
                    .update(pos, depth, best - raw_eval, p.correction);
            }
        }
        best
    }

    /// A table cutoff at `ply` and `depth` whose table move `mv` held beta
    /// (`holds`) or failed low: the histories learn as from a search
    /// (`tt_history`).
    fn table_history<const W: usize>(
        &mut self,
        pos: &Position<W>,
        (ply, depth): (usize, i32),
        mv: Option<Move>,
        holds: bool,
    ) {
        let Some(m) = mv.filter(|&m| self.order.fits(pos, m)) else {
            return;
        };
        let quiet = !is_tactical(pos, m, &self.values);
        if holds {
            if quiet {
                self.order.cutoff(pos, ply, depth, m, &[]);
            }
            if self.params.tt_history >= 2 && ply > 0 && self.move_counts[ply - 1] <= 2 {
                self.order.prior_reward(ply, depth + 1, -1);
            }
        } else if quiet {
            self.order.fail_low(pos, ply, depth, m);
        }
    }

    /// Is a node `in_check` searched in full, without a static score
    /// (unless `check_nodes` lets it be pruned like the others)?
    fn guarded(&self, in_check: bool) -> bool {
        in_check && self.params.check_nodes == 0
    }

    /// A node's static score as the evaluation gives it and as corrected
    /// ([`Self::corrected`]); both `-INFINITY` where the node is `guarded`
    /// (in check and searched in full: no static score to go by).
    fn static_scores<const W: usize>(&mut self, pos: &Position<W>, guarded: bool) -> (i32, i32) {
        if guarded {
            (-INFINITY, -INFINITY)
        } else {
            let raw = self.static_two(pos);
            (raw, self.corrected(pos, raw))
        }
    }

    /// The static score `raw` with the correction history's correction,
    /// where the parameters use it.
    fn corrected<const W: usize>(&self, pos: &Position<W>, raw: i32) -> i32 {
        if self.params.correction > 0 && !is_mate(raw) {
            raw + self.correction.get(pos)
        } else {
            raw
        }
    }

    /// Singular extension (Stockfish's step 14): is the table's move much
    /// better than every other move? A search of the node without it, at
    /// half the depth, against the stored score less a margin, says so
    /// when it fails low (and two plies deeper off the principal line when
    /// it fails far low, `singular_double`); when it instead beats beta,
    /// several moves do and the node is cut (multi-cut); when the move is
    /// not alone but its stored score beats beta, it is searched
    /// `singular_negative` plies shallower.
    fn singular<const W: usize>(
        &mut self,
        pos: &mut Position<W>,
        ply: usize,
        depth: i32,
        (beta, pv_node): (i32, bool),
        node: Node,
        (table_move, probe): (Option<Move>, &Probe),
    ) -> Singular {
        let p = self.params;
        let (Some(m), Some((score, bound, stored))) = (table_move, probe.entry) else {
            return Singular::Untested;
        };
        if p.singular_depth == 0
            || depth < p.singular_depth
            || self.excluded[ply].is_some()
            || bound == Bound::Upper
            || stored < depth - 3
            || is_mate(score)
        {
            return Singular::Untested;
        }
        let singular_beta = score - p.singular_margin * depth;
        let s = self.without(pos, (ply, m), (depth - 1) / 2, singular_beta, node);
        if self.stopped {
            Singular::Stopped
        } else if s < singular_beta {
            let double = p.singular_double > 0
                && !pv_node
                && s < singular_beta - p.singular_double
                && self.may_extend(ply + 2);
            Singular::Extend(1 + double as i32)
        } else if singular_beta >= beta {
            Singular::Cut(singular_beta)
        } else if score >= beta {
            if p.singular_recut > 0 {
                let s = self.without(pos, (ply, m), (depth + 3) / 2, beta, node);
                if self.stopped {
                    return Singular::Stopped;
                }
                if s >= beta {
                    return Singular::Cut(beta);
                }
            }
            Singular::Extend(-p.singular_negative)
        } else {
            Singular::Extend(0)
        }
    }

    /// The singular test's search: the node at `ply` again without move
    /// `m`, `depth` plies deep, with a null window below `bound` (no null
    /// move: the node's own search may try one).
    fn without<const W: usize>(
        &mut self,
        pos: &mut Position<W>,
        (ply, m): (usize, Move),
        depth: i32,
        bound: i32,
        node: Node,
    ) -> i32 {
        self.excluded[ply] = Some(m);
        let quiet = Node {
            null_ok: false,
            cut: node.cut,
        };
        let s = self.pvs(pos, depth, bound - 1, bound, ply, quiet);
        self.excluded[ply] = None;
        // Its line is no line of this node.
        self.pv[ply].clear();
        s
    }

    /// ProbCut's searches: the good captures (and promotions) that win at
    /// least `probcut_beta` less the static score by static exchange, each
    /// tried by quiescence and then four plies shallower than `depth`
    /// against `probcut_beta`; the first score that holds and its move.
    fn probcut<const W: usize>(
        &mut self,
        pos: &mut Position<W>,
        (ply, depth): (usize, i32),
        (probcut_beta, static_eval): (i32, i32),
        node: Node,
        (table_move, legality): (Option<Move>, Option<&Legality<W>>),
    ) -> Option<(i32, Move)> {
        let table_move = table_move.filter(|&m| is_tactical(pos, m, &self.values));
        let see = self.params.see_depth > 0;
        self.order.score(pos, ply, table_move, &self.values, see);
        let window = (probcut_beta - 1, probcut_beta);
        for k in 0..self.order.frames[ply].len() {
            let m = self.order.frames[ply].pick_judged(k, pos, &self.values);
            if !self.order.frames[ply].is_good_tactical(k) {
                break;
            }
            if !pos.see_at_least(m, &self.values, probcut_beta - static_eval)
                || legality.is_some_and(|l| !pos.is_legal(l, m))
            {
                continue;
            }
            self.order.record(pos, ply, Some(m));
            pos.make(m);
            let mut s = self.child_q(pos, window.0, window.1, ply, 0);
            if s >= probcut_beta && !self.stopped {
                s = self.child(pos, depth - 4, window, ply, !node.cut);
            }
            pos.unmake();
            if self.stopped {
                return None;
            }
            if s >= probcut_beta {
                return Some((s, m));
            }
        }
        None
    }

    /// Fills the frame at `ply` with the moves to try: pseudo-legal ones and
    /// the position's [`Legality`] to judge each by, in two-player games
    /// without drop-outs (only captures and promotions unless `quiets`);
    /// elsewhere the legal moves and `None`.
    fn generate<const W: usize>(
        &mut self,
        pos: &mut Position<W>,
        ply: usize,
        quiets: bool,
    ) -> Option<Legality<W>> {
        let v = pos.variant();
        if v.players.len() == 2 && v.rules.dropout.is_none() {
            let list = &mut self.order.frames[ply].moves;
            list.clear();
            if quiets {
                pos.pseudo_legal_moves(list);
            } else {
                pos.pseudo_legal_tactical_moves(list);
            }
            Some(pos.legality())
        } else {
            pos.legal_moves_into(&mut self.order.frames[ply].moves);
            None
        }
    }

    /// Lists every move of the node at `ply` ([`Searcher::generate`]); a
    /// node without any is the end of the game, scored as `Err`.
    fn list_or_end<const W: usize>(
        &mut self,
        pos: &mut Position<W>,
        ply: usize,
    ) -> Result<Option<Legality<W>>, i32> {
        let legality = self.generate(pos, ply, true);
        if self.order.frames[ply].len() == 0 {
            let army = pos.army_to_move();
            return Err(self.terminal(pos, ply, army));
        }
        Ok(legality)
    }

    /// Does the (pseudo-legal) move at `ply` give check ([`gives_check`],
    /// the answer remembered for the child)?
    fn gives_check<const W: usize>(
        &mut self,
        pos: &mut Position<W>,
        ply: usize,
        legality: Option<&Legality<W>>,
        cells: &mut Option<CheckingCells<W>>,
        m: Move,
    ) -> bool {
        gives_check(pos, legality, cells, m, |pos| self.in_check(pos, ply + 1))
    }

    /// Is the side to move in check, in the position `ply` plies below the
    /// root? Remembered per ply by position key: a parent asks about the
    /// position after a move (to reduce it, or to spare a check from
    /// pruning) and the child then asks again.
    #[inline]
    fn in_check<const W: usize>(&mut self, pos: &Position<W>, ply: usize) -> bool {
        let key = pos.key();
        let (known, check) = self.checks[ply];
        if known == key && key != 0 {
            return check;
        }
        let check = pos.in_check();
        self.checks[ply] = (key, check);
        check
    }

    /// Quiescence: the side to move may stand on the static score or try
    /// captures and big promotions (every move while in check, for a few
    /// plies), so that the search stops only in quiet positions.
    pub(crate) fn quiescence<const W: usize>(
        &mut self,
        pos: &mut Position<W>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        q: usize,
    ) -> i32 {
        if let Some(s) = self.node_start(pos, ply) {
            return s;
        }
        // With `q_table`, quiescence reads and writes the table too (as
        // depth 0: any stored result is deep enough).
        let key = pos.key();
        let original_alpha = alpha;
        let (table_move, entry) = if self.params.q_table > 0 {
            let probe = self.probe(key, 0, (alpha, beta), ply, beta - alpha == 1);
            if let Some(s) = probe.cutoff {
                return s;
            }
            // Stored again as it was.
            self.tt_pv[ply] = probe.pv;
            (probe.mv, probe.entry)
        } else {
            self.tt_pv[ply] = false;
            (None, None)
        };
        let evasions = q < self.params.q_evasions.max(0) as usize
            && self.params.check_nodes < 2
            && self.in_check(pos, ply);
        let mut best = -INFINITY;
        if !evasions {
            // Most nodes end here, before any move is generated.
            let raw = self.static_two(pos);
            best = self.corrected(pos, raw);
            // `tt_eval` 2: the table's score stands in for the static one
            // where its bound says it is the better guess (Stockfish's).
            if self.params.tt_eval >= 2 {
                best = refined(best, entry);
            }
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        let legality = if evasions {
            // Every move, judged when reached: a cutoff spares the tests
            // of the rest, and none legal is the end of the game (below).
            match self.list_or_end(pos, ply) {
                Ok(legality) => legality,
                Err(s) => return s,
            }
        } else {
            // Standing pat is allowed: no need to know whether any quiet
            // move is legal, only the captures tried (and only they are
            // generated, where moves are judged when reached), and with
            // `q_checks` the quiet checks that lose nothing.
            let checks = q < self.params.q_checks.max(0) as usize;
            let legality = self.generate(pos, ply, checks);
            if legality.is_none() && self.order.frames[ply].len() == 0 {
                let army = pos.army_to_move();
                return self.terminal(pos, ply, army);
            }
            let values = &self.values;
            let mut cells = None;
            self.order.frames[ply].moves.retain(|m| {
                is_tactical(pos, m, values)
                    || (checks
                        && gives_check(pos, legality.as_ref(), &mut cells, m, |p| p.in_check())
                        && pos.see_at_least(m, values, 0))
            });
            legality
        };
        let n = self.order.frames[ply].len();
        if n == 0 {
            return best;
        }
        let see = self.params.see_depth > 0;
        self.order.score(pos, ply, table_move, &self.values, see);
        let army = pos.army_to_move();
        self.sides[ply] = army;
        let mut best_move = None;
        let mut legal = 0;
        let mut check_cells = None;
        for i in 0..n {
            let m = self.order.frames[ply].pick_judged(i, pos, &self.values);
            if !evasions && is_capture(pos, m) && m.promotion.is_none() {
                let victim = self.value_at(pos, m.to);
                let mover = self.value_at(pos, m.from);
                // Delta pruning: even the whole victim is not enough.
                if best + victim.max(100) + self.params.delta_margin <= alpha {
                    continue;
                }
                // A capture that loses material in the exchange (by static
                // exchange, as the ordering judged it; without it, a
                // valuable piece taking a defended, cheaper one).
                let margin = self.params.bad_capture_margin;
                let losing = if see {
                    self.order.frames[ply].is_bad_capture(i)
                } else {
                    losing_capture(pos, m, (mover, victim), &self.values, false, margin)
                };
                // Nor one that wins nothing where even the static score
                // and a margin stay below alpha.
                let futile = self.params.q_futility > 0
                    && best + self.params.q_futility <= alpha
                    && !pos.see_at_least(m, &self.values, 1);
                if losing || futile {
                    continue;
                }
            }
            // Past the first `q_moves` searched, only checks and
            // promotions.
            let late = !evasions
                && self.params.q_moves > 0
                && legal >= self.params.q_moves
                && m.promotion.is_none();
            let in_check = Position::<W>::in_check;
            if late && !gives_check(pos, legality.as_ref(), &mut check_cells, m, in_check) {
                continue;
            }
            if legality.as_ref().is_some_and(|l| !pos.is_legal(l, m)) {
                continue;
            }
            legal += 1;
            self.order.record(pos, ply, Some(m));
            pos.make(m);
            let s = self.child_q(pos, alpha, beta, ply, q);
            pos.unmake();
            if self.stopped {
                return 0;
            }
            match self.raise(ply, m, s, &mut best, &mut alpha, beta) {
                Step::Cutoff => {
                    best_move = Some(m);
                    break;
                }
                Step::Raised => best_move = Some(m),
                _ => {}
            }
        }
        if evasions && legal == 0 {
            let army = pos.army_to_move();
            return self.terminal(pos, ply, army);
        }
        if self.params.q_table > 0 {
            self.store(key, best_move, best, (original_alpha, beta), 0, ply);
        }
        best
    }
}

/// The static score `static_eval`, or the table's stored score where its
/// bound says the truth lies beyond the static score (not a mate score).
fn refined(static_eval: i32, entry: Option<(i32, Bound, i32)>) -> i32 {
    match entry {
        Some((s, bound, _)) if !is_mate(s) => match bound {
            Bound::Lower if s > static_eval => s,
            Bound::Upper if s < static_eval => s,
            Bound::Exact => s,
            _ => static_eval,
        },
        _ => static_eval,
    }
}

/// Does the pseudo-legal move `m` give check? Played and taken back
/// (`in_check` asks about the position after it), unless it is illegal or
/// the position's [`CheckingCells`] (kept in `cells` for the node's other
/// moves) clear it.
fn gives_check<const W: usize>(
    pos: &mut Position<W>,
    legality: Option<&Legality<W>>,
    cells: &mut Option<CheckingCells<W>>,
    m: Move,
    in_check: impl FnOnce(&Position<W>) -> bool,
) -> bool {
    if !cells
        .get_or_insert_with(|| pos.checking_cells())
        .may_check(pos, m)
        || legality.is_some_and(|l| !pos.is_legal(l, m))
    {
        return false;
    }
    pos.make(m);
    let check = in_check(pos);
    pos.unmake();
    check
}

#[cfg(test)]
mod tests {
    use crate::{Limits, Options, Searcher};
    use quadrille_engine::embedded;

    /// Each optional pruning and extension, switched on, changes the tree
    /// of a fixed-depth search (so none is dead code behind its switch).
    #[test]
    fn each_optional_setting_changes_the_tree() {
        let v = embedded::variant("chess").unwrap();
        let pos = quadrille_engine::Position::from_string(
            v,
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        )
        .unwrap();
        let nodes_at = |options: Options, depth: u32| {
            Searcher::new(options)
                .best_move(&pos, &Limits::depth(depth))
                .nodes
        };
        let nodes = |options: Options| nodes_at(options, 8);
        // From the table's defaults, none of chess's own values.
        let plain = Options {
            params: crate::params::Params::default().chosen(),
            ..Options::default()
        };
        // The plain search with the settings (comma-separated) applied.
        let with = |settings: &str| {
            let mut options = plain;
            for s in settings.split(',').filter(|s| !s.is_empty()) {
                options.params.apply(s).unwrap();
            }
            nodes(options)
        };
        let base = with("");
        for setting in [
            "lmp_depth:8",
            "lmr_cut_node:1",
            "tt_eval:1",
            "singular_depth:4",
            "history_prune_depth:3,history_prune:200",
            "check_extension:2",
            "check_ext_depth:4",
            "continuation:1",
            "continuation:1,continuation_prune:4",
            "prune_lmr_depth:1",
            "lmr_checks:1",
            "lmr_checks:2",
            "check_nodes:1",
            "check_nodes:2",
            "correction:64",
            "q_table:1",
            "q_evasions:4",
            "q_checks:1",
            "capture_history:1",
            "probcut_margin:200",
            "bad_captures_last:1",
            "bad_captures_last:2",
            "razor_margin:200",
            "lmr_captures:1",
            "lmr_tt_pv:2",
            "lmr_move:1",
            "continuation:2",
            "continuation:1,counter_move:1",
            "history_raised:1",
            "lmr_deeper:20",
            "quiet_threats:3",
            "lmr_cutoffs:3",
            "null_static:180",
            "lmr_escape:1",
            "lmr_parent_moves:4",
            "iir_depth:0",
            "iir_nodes:1",
            "iir_nodes:2",
            "pv_prune:1",
            "move_count:1",
            "null_depth:1",
            "eval_history:4",
            "continuation:1,prior_bonus:1",
            "root_lmr:3",
            "root_eval:1",
            "q_moves:2",
            "q_futility:120",
            "tt_history:1",
        ] {
            assert_ne!(with(setting), base, "{setting} changed nothing");
        }
        // On top of chess's own values (from this position the plain
        // search never reduces below a capturing table move, and chess's
        // own first does at depth 10).
        let chess_with = |setting: &str| {
            let mut tuned = Options::default();
            tuned.params.apply(setting).unwrap();
            nodes_at(tuned, 10)
        };
        let chess = nodes_at(Options::default(), 10);
        // The plain search's histories never take a reduction below -1
        // among a node's first five moves either.
        for setting in ["lmr_tt_capture:1", "lmr_extend:1"] {
            assert_ne!(chess_with(setting), chess, "{setting} changed nothing");
        }
        // The early move one ply up loses where the table cuts (too
        // rarely to show in the plain search at depth 8).
        assert_ne!(chess_with("tt_history:2"), chess_with("tt_history:1"));
        // Refinements of an option, against that option alone.
        for (option, refinement) in [
            ("singular_depth:4", "singular_double:10"),
            ("singular_depth:4", "singular_negative:1"),
            ("singular_depth:4", "lmr_singular:1"),
            ("singular_depth:4", "singular_recut:1"),
            ("continuation:1", "null_history:8000"),
            ("continuation:1", "lmr_post_history:1"),
            ("q_table:1", "tt_eval:2"),
        ] {
            let refined = with(&format!("{option},{refinement}"));
            assert_ne!(refined, with(option), "{refinement} changed nothing");
        }
    }

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        let s = Searcher::new(Options::default());
        assert_eq!(s.reduction(1, 1), 0);
        assert!(s.reduction(3, 10) >= 1);
        assert!(s.reduction(12, 40) > s.reduction(4, 5));
        assert!(s.reduction(100, 1000) <= 8);
    }

    /// The table marks the principal line's nodes as such, and not a
    /// poor move's refutation off it.
    #[test]
    fn the_principal_line_is_marked_in_the_table() {
        let v = embedded::variant("chess").unwrap();
        let mut s = Searcher::new(Options::default());
        let result = s.best_move(&v.start(), &Limits::depth(8));
        let mut pos = v.start();
        for &m in &result.pv[..4] {
            pos.make(m);
            let e = s.tt.probe(pos.key()).expect("the line's node is stored");
            assert!(e.pv, "{m:?} on the line, not marked");
        }
        // 1. g4, refuted at a null window and never the best.
        let mut pos = v.start();
        pos.make(pos.parse_move("g2g4").unwrap());
        assert_eq!(s.tt.probe(pos.key()).map(|e| e.pv), Some(false));
    }
}
