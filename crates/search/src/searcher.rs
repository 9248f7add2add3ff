//! The searcher: the public entry point. It picks the algorithm for the
//! variant (two sides: PVS; more: Best-Reply Search or Paranoid), runs
//! iterative deepening within the limits and reports each iteration.

use crate::correction::Correction;
use crate::eval::{Eval, EvalCache, Terms};
use crate::limits::{stability_percent, Budget, Limits, MAX_DEPTH};
use crate::ordering::{is_tactical, Ordering};
use crate::params::Params;
use crate::score::{self, from_table, to_table, DRAW, INFINITY, MATE};
use crate::tt::{Bound, Table};
use crate::weights::Weights;
use quadrille_engine::{AtWidth, Cell, Move, MoveKind, Outcome, Position, Variant};
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::sync::Arc;
use std::time::Duration;

/// Deepest ply a search line may reach (quiescence included).
pub(crate) const MAX_PLY: usize = 128;

/// How games of more than two sides are searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MultiAlgorithm {
    /// The one measured the stronger: Paranoid, which beat BRS+ at 1 s a
    /// move in both four-player families (SPRTs in Tor Aikou and Sylvia;
    /// docs/performance.md, "MaxN, and a four-player SPRT at 1 s a move").
    Auto,
    /// Best-Reply Search with BRS+'s ordered moves for the other opponents.
    BestReply,
    /// Every opponent against the player to move.
    Paranoid,
    /// Every player for their own army's score (MaxN).
    MaxN,
}

impl MultiAlgorithm {
    /// The names [`MultiAlgorithm::from_str`] reads, one per algorithm
    /// (`brs+` and `best-reply` are also read as `brs`).
    pub const NAMES: [&'static str; 4] = ["auto", "brs", "paranoid", "maxn"];
}

impl std::str::FromStr for MultiAlgorithm {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        match name {
            "auto" => Ok(MultiAlgorithm::Auto),
            "brs" | "brs+" | "best-reply" => Ok(MultiAlgorithm::BestReply),
            "paranoid" => Ok(MultiAlgorithm::Paranoid),
            "maxn" => Ok(MultiAlgorithm::MaxN),
            _ => Err(format!(
                "unknown four-player search `{name}` (expected {})",
                Self::NAMES.join(", ")
            )),
        }
    }
}

/// The algorithm a search used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Principal-variation alpha-beta on two sides (two armies, however
    /// many players move them).
    Pvs,
    BestReply,
    Paranoid,
    MaxN,
}

impl Algorithm {
    /// Short lower-case name: `pvs`, `brs+`, `paranoid`, `maxn`.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Pvs => "pvs",
            Algorithm::BestReply => "brs+",
            Algorithm::Paranoid => "paranoid",
            Algorithm::MaxN => "maxn",
        }
    }

    /// The algorithm the searcher uses for a variant.
    pub fn for_variant(variant: &Variant, multi: MultiAlgorithm) -> Algorithm {
        if variant.armies.len() == 2 {
            Algorithm::Pvs
        } else {
            match multi {
                MultiAlgorithm::BestReply => Algorithm::BestReply,
                MultiAlgorithm::Auto | MultiAlgorithm::Paranoid => Algorithm::Paranoid,
                MultiAlgorithm::MaxN => Algorithm::MaxN,
            }
        }
    }
}

/// Settings of the search (the defaults are the full-strength engine).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Null-move pruning (two-sided games without eliminations).
    pub null_move: bool,
    /// Late move reductions (two-sided games).
    pub lmr: bool,
    /// The algorithm for games of more than two sides.
    pub multi: MultiAlgorithm,
    /// Transposition table size.
    pub hash_mb: usize,
    /// Threads searching at once (Lazy SMP).
    pub threads: usize,
    /// Evaluation terms.
    pub terms: Terms,
    /// Margins and constants of the search.
    pub params: Params,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            null_move: true,
            lmr: true,
            multi: MultiAlgorithm::Auto,
            hash_mb: 16,
            threads: 1,
            terms: Terms::default(),
            params: Params::default(),
        }
    }
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play; `None` only when the game is over (no legal move).
    pub best: Option<Move>,
    /// Centipawns for the player to move (see [`crate::score`] for wins).
    pub score: i32,
    /// The last iteration completed (or partly searched, if it improved
    /// the move).
    pub depth: u32,
    /// The deepest ply reached (quiescence included).
    pub seldepth: u32,
    pub nodes: u64,
    pub time: Duration,
    /// The expected line, starting with `best`.
    pub pv: Vec<Move>,
    pub algorithm: Algorithm,
    /// Per mille of the transposition table in use.
    pub hashfull: u32,
}

impl SearchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-6)) as u64
    }
}

/// The AI. One searcher keeps its transposition table and move-ordering
/// history between moves; it is `Send`, so it can run on any thread.
pub struct Searcher {
    pub(crate) options: Options,
    pub(crate) tt: Arc<Table>,
    pub(crate) eval: Option<Eval>,
    /// The evaluation's piece values (a copy, for borrowing beside
    /// `order`).
    pub(crate) values: Vec<i32>,
    pub(crate) order: Ordering,
    /// Two sides: what searches found beyond the static score, by pawns.
    pub(crate) correction: Correction,
    /// Triangular table of principal variations, by ply.
    pub(crate) pv: Vec<Vec<Move>>,
    pub(crate) nodes: u64,
    pub(crate) seldepth: usize,
    pub(crate) stopped: bool,
    pub(crate) budget: Option<Budget>,
    node_limit: Option<u64>,
    stop: Arc<AtomicBool>,
    /// Stop checks are off until depth 1 has a move.
    pub(crate) armed: bool,
    /// The player and army to move at the root.
    pub(crate) root_player: usize,
    pub(crate) root_army: u8,
    /// The algorithm of the current search.
    pub(crate) algorithm: Algorithm,
    /// Two sides: per ply, the army that moves there.
    pub(crate) sides: Vec<u8>,
    /// Depth of the current iteration.
    pub(crate) iteration_depth: i32,
    /// Two sides: per ply, the static score (`-INFINITY` in check).
    pub(crate) evals: Vec<i32>,
    /// Two sides: per ply, a position key and whether its side to move is
    /// in check.
    pub(crate) checks: Vec<(u64, bool)>,
    /// Two sides: per ply, the move a singular-extension test leaves out.
    pub(crate) excluded: Vec<Option<Move>>,
    /// Two sides: per ply, whether the node is or was on the principal
    /// line (Stockfish's `ttPv`), stored with its result.
    pub(crate) tt_pv: Vec<bool>,
    /// Two sides: per ply, the nodes there that failed high since the
    /// node two plies up began (Stockfish's `cutoffCnt`).
    pub(crate) cutoffs: Vec<u32>,
    /// Moves searched so far at each ply's node (read by its children).
    pub(crate) move_counts: Vec<u32>,
    /// The history score of the move each ply's node is searching (0 for
    /// captures; read by its child).
    pub(crate) move_histories: Vec<i32>,
    /// Late move reductions by depth * 64 + move number.
    pub(crate) reductions: Vec<u8>,
    /// The parameters in use: the options' with the variant's own values
    /// where the options leave them (see [`Params::for_variant`]).
    pub(crate) params: Params,
    /// Two sides: recent static scores.
    pub(crate) eval_cache: EvalCache,
    /// The current search's random error in the evaluation (centipawns at
    /// most) and its seed (new for every search).
    noise: i32,
    noise_seed: u64,
    /// Lazy SMP: the helper searchers (kept between searches for their
    /// history), and this searcher's number among them (0: the main one).
    helpers: Vec<Searcher>,
    helper: usize,
    /// Evaluation weights to use instead of the variant's own, where they
    /// fit it (to measure a weights file before it ships).
    weights: Option<Weights>,
}

/// The late move reductions for the parameters.
fn reductions(p: &Params) -> Vec<u8> {
    let mut table = vec![0u8; 64 * 64];
    for d in 1..64 {
        for m in 1..64 {
            let r = (p.lmr_base as f64
                + (d as f64).ln() * (m as f64).ln() * 100.0 * 100.0 / p.lmr_div as f64)
                / 100.0;
            table[d * 64 + m] = r.clamp(0.0, 32.0) as u8;
        }
    }
    table
}

/// What the transposition table knows of a node.
#[derive(Clone, Copy, Default)]
pub(crate) struct Probe {
    /// The best move stored.
    pub mv: Option<Move>,
    /// The stored score, when it ends the node.
    pub cutoff: Option<i32>,
    /// The stored score (from this ply), its bound and depth.
    pub entry: Option<(i32, Bound, i32)>,
    /// The stored node was on the principal line (see [`crate::tt::Entry::pv`]).
    pub pv: bool,
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new(Options::default())
    }
}

impl Searcher {
    pub fn new(options: Options) -> Searcher {
        Searcher::with_table(options, Arc::new(Table::new(options.hash_mb)))
    }

    /// A searcher using `tt` (Lazy SMP's helpers share the main one's).
    fn with_table(options: Options, tt: Arc<Table>) -> Searcher {
        Searcher {
            tt,
            options,
            eval: None,
            values: Vec::new(),
            order: Ordering::new(MAX_PLY),
            correction: Correction::default(),
            pv: vec![Vec::new(); MAX_PLY + 1],
            nodes: 0,
            seldepth: 0,
            stopped: false,
            budget: None,
            node_limit: None,
            stop: Arc::new(AtomicBool::new(false)),
            armed: false,
            root_player: 0,
            root_army: 0,
            algorithm: Algorithm::Pvs,
            sides: vec![0; MAX_PLY + 1],
            iteration_depth: 0,
            evals: vec![0; MAX_PLY + 1],
            excluded: vec![None; MAX_PLY + 1],
            tt_pv: vec![false; MAX_PLY + 2],
            cutoffs: vec![0; MAX_PLY + 3],
            move_counts: vec![0; MAX_PLY + 3],
            move_histories: vec![0; MAX_PLY + 3],
            checks: vec![(0, false); MAX_PLY + 2],
            reductions: reductions(&options.params),
            params: options.params,
            eval_cache: EvalCache::new(),
            noise: 0,
            noise_seed: 0,
            helpers: Vec::new(),
            helper: 0,
            weights: None,
        }
    }

    /// Evaluates with these weights (where they fit the variant) instead
    /// of the variant's own; `None`: the variant's own again.
    pub fn set_weights(&mut self, weights: Option<Weights>) {
        self.weights = weights;
        self.eval = None;
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Changes the settings (a new table size clears the table).
    pub fn set_options(&mut self, options: Options) {
        if options.hash_mb != self.options.hash_mb {
            self.tt = Arc::new(Table::new(options.hash_mb));
        }
        if options.terms != self.options.terms {
            // Rebuilt, with an empty cache, at the next search.
            self.eval = None;
        }
        let params_changed = options.params != self.options.params;
        self.options = options;
        if params_changed {
            let name = self.eval.as_ref().map(|e| e.variant.name.clone());
            let params = match name {
                Some(n) => self.options.params.for_variant(&n),
                None => self.options.params,
            };
            self.use_params(params);
        }
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.helpers.clear();
        self.tt.clear();
        self.forget_history();
    }

    /// Empties the move-ordering history and the correction history, sized
    /// for the evaluation's variant.
    fn forget_history(&mut self) {
        if let Some(e) = &self.eval {
            let v = e.variant.clone();
            self.correction.reset(e.know.pawn_types);
            self.order
                .reset(v.players.len(), v.pieces.len(), v.geometry.size());
        }
    }

    /// The evaluation for this position's variant (built on first use).
    pub fn evaluation<const W: usize>(&mut self, pos: &Position<W>) -> &Eval {
        let v = pos.variant();
        let fresh = self
            .eval
            .as_ref()
            .is_some_and(|e| Arc::ptr_eq(&e.variant, v));
        if !fresh {
            let eval = match self.weights.as_ref().filter(|w| w.fits(v)) {
                Some(w) => Eval::with_weights(v, self.options.terms, w.clone()),
                None => Eval::new(v, self.options.terms),
            };
            self.use_params(self.options.params.for_variant(&v.name));
            self.values = eval.know.value.clone();
            self.eval = Some(eval);
            self.forget_history();
            if self.helper == 0 {
                self.tt.clear();
            }
            self.eval_cache.clear();
        }
        self.eval.as_ref().expect("just built")
    }

    /// Searches with these parameters from now on.
    fn use_params(&mut self, params: Params) {
        if params != self.params {
            self.reductions = reductions(&params);
            self.params = params;
        }
        self.order.use_capture_history = params.capture_history > 0;
        self.order.bad_captures_last = params.bad_captures_last > 0;
        self.order.history_bonus = (params.history_bonus, params.history_cap);
        self.order.continuation_far = params.continuation >= 2;
        self.order.use_counter = params.counter_move > 0;
        self.order.keep_quiets =
            params.eval_history > 0 || params.prior_bonus > 0 || params.tt_history >= 2;
        let continuation = params.continuation > 0;
        if continuation != self.order.use_continuation {
            self.order.use_continuation = continuation;
            // The table is made (or dropped) with the history.
            if let Some(v) = self.eval.as_ref().map(|e| e.variant.clone()) {
                self.order
                    .reset(v.players.len(), v.pieces.len(), v.geometry.size());
            }
        }
    }

    /// The random error for a position, the same for the whole search
    /// (transpositions agree), within plus or minus the search's noise.
    #[inline]
    pub(crate) fn noise_at(&self, key: u64) -> i32 {
        if self.noise == 0 {
            return 0;
        }
        fastrand::Rng::with_seed(key ^ self.noise_seed).i32(-self.noise..=self.noise)
    }

    /// The evaluation of the current search's variant.
    pub(crate) fn ev(&self) -> &Eval {
        self.eval
            .as_ref()
            .expect("built at the start of each search")
    }

    /// The value of the piece on `cell` (0 for none: an en passant
    /// capture's victim stands elsewhere).
    pub(crate) fn value_at<const W: usize>(&self, pos: &Position<W>, cell: Cell) -> i32 {
        pos.piece_at(cell)
            .map_or(0, |p| self.values[p.kind as usize])
    }

    /// The best move within the limits.
    pub fn best_move(&mut self, pos: &Position, limits: &Limits) -> SearchResult {
        self.search(pos, limits, &mut |_| {})
    }

    /// Like [`Searcher::best_move`], calling `report` after every completed
    /// iteration (for thinking output). With `threads` above one, helper
    /// threads search the same position at once and share the table (Lazy
    /// SMP): what they find reaches this search through it.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        report: &mut dyn FnMut(&SearchResult),
    ) -> SearchResult {
        // A level means what the variant's own level table says.
        let limits = &limits.for_variant(&pos.variant().name);
        let threads = self.options.threads.max(1);
        if threads == 1 {
            return self.search_one(pos, limits, report);
        }
        let mut helpers = std::mem::take(&mut self.helpers);
        helpers.truncate(threads - 1);
        let options = Options {
            threads: 1,
            ..self.options
        };
        while helpers.len() < threads - 1 {
            let mut h = Searcher::with_table(options, self.tt.clone());
            h.helper = helpers.len() + 1;
            helpers.push(h);
        }
        let done = Arc::new(AtomicBool::new(false));
        let helper_limits = Limits {
            depth: limits.depth,
            ..Limits::infinite()
        }
        .with_stop(done.clone());
        let mut result = std::thread::scope(|scope| {
            for h in helpers.iter_mut() {
                h.options = options;
                if h.weights != self.weights {
                    h.set_weights(self.weights.clone());
                }
                h.tt = self.tt.clone();
                let (pos, limits) = (pos.clone(), helper_limits.clone());
                scope.spawn(move || h.search_one(&pos, &limits, &mut |_| {}));
            }
            let r = self.search_one(pos, limits, report);
            done.store(true, AtomicOrdering::Relaxed);
            r
        });
        result.nodes += helpers.iter().map(|h| h.nodes).sum::<u64>();
        self.helpers = helpers;
        result
    }

    /// One thread's search, in the narrowest cell sets that hold the
    /// board ([`Position::narrowest`]: fewer instructions, the same tree).
    fn search_one(
        &mut self,
        pos: &Position,
        limits: &Limits,
        report: &mut dyn FnMut(&SearchResult),
    ) -> SearchResult {
        struct Search<'a> {
            searcher: &'a mut Searcher,
            limits: &'a Limits,
            report: &'a mut dyn FnMut(&SearchResult),
        }
        impl AtWidth for Search<'_> {
            type Output = SearchResult;
            fn run<const W: usize>(self, pos: Position<W>) -> SearchResult {
                self.searcher.search_width(pos, self.limits, self.report)
            }
        }
        pos.narrowest(Search {
            searcher: self,
            limits,
            report,
        })
    }

    /// [`Searcher::search_one`] in cell sets of `W` words.
    fn search_width<const W: usize>(
        &mut self,
        mut pos: Position<W>,
        limits: &Limits,
        report: &mut dyn FnMut(&SearchResult),
    ) -> SearchResult {
        // The clock runs from the request: building a variant's evaluation
        // and clearing the table for it (the first search) is spent from
        // the budget, not on top of it.
        self.budget = Some(Budget::new(limits));
        self.evaluation(&pos);
        let v = pos.variant().clone();
        let algorithm = Algorithm::for_variant(&v, self.options.multi);
        self.algorithm = algorithm;
        if self.helper == 0 {
            self.tt.new_search();
        }
        self.order.new_search();
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.armed = false;
        self.node_limit = limits.nodes;
        self.stop = limits.stop.clone();
        self.noise = limits.noise.min(10_000) as i32;
        if self.noise > 0 {
            self.noise_seed = fastrand::u64(..);
        }
        self.root_player = pos.to_move();
        self.root_army = pos.army_to_move();

        let mut root = RootMoves::new(&mut pos, self);
        root.hide(limits.hidden, &mut fastrand::Rng::new());
        let mut result = SearchResult {
            best: root.moves.first().map(|r| r.mv),
            score: 0,
            depth: 0,
            seldepth: 0,
            nodes: 0,
            time: Duration::ZERO,
            pv: root.moves.first().map(|r| vec![r.mv]).unwrap_or_default(),
            algorithm,
            hashfull: 0,
        };
        if root.moves.is_empty() {
            result.score = self.terminal(&mut pos, 0, self.root_army);
            return result;
        }
        let fixed_time = limits.movetime.is_some() && limits.clock.is_none();
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        // A forced move needs no thought beyond a score.
        let max_depth = if root.moves.len() == 1 && limits.depth.is_none() {
            1
        } else {
            max_depth
        };
        let mut last_score = 0;
        // Iterations in a row that kept the best move.
        let mut stable = 0;
        for depth in 1..=max_depth {
            // Every other helper skips every other depth, so that the
            // threads spread over more than one iteration.
            if self.helper % 2 == 1 && depth % 2 == 1 && depth > 1 && depth < max_depth {
                continue;
            }
            let score = match algorithm {
                Algorithm::Pvs => self.aspiration(&mut pos, &mut root, depth as i32, last_score),
                Algorithm::MaxN => self.root_maxn(&mut pos, &mut root, depth as i32),
                _ => self.root_multi(&mut pos, &mut root, depth as i32, -INFINITY, INFINITY),
            };
            let complete = !self.stopped;
            // An interrupted iteration counts if a move was finished in it.
            if complete || root.finished > 0 {
                let best = &root.moves[0];
                stable = if result.best == Some(best.mv) {
                    stable + 1
                } else {
                    0
                };
                result.best = Some(best.mv);
                result.score = if complete { score } else { best.score };
                result.pv = best.pv.clone();
                result.depth = depth;
                last_score = result.score;
            }
            self.fill_stats(&mut result);
            if !complete {
                break;
            }
            report(&result);
            if score::is_mate(score) && score::mate_plies(score).unwrap_or(0).abs() < depth as i32 {
                break;
            }
            if !self
                .budget
                .as_ref()
                .is_some_and(|b| b.another_iteration(fixed_time, self.time_percent(stable)))
            {
                break;
            }
        }
        self.fill_stats(&mut result);
        result
    }

    /// The share of the soft time budget to use (percent), from the best
    /// move's stability where the parameters ask for it, scaled by
    /// `time_use`.
    fn time_percent(&self, stable: u32) -> u32 {
        let share = if self.params.time_stability > 0 {
            stability_percent(stable)
        } else {
            100
        };
        share * self.params.time_use.clamp(1, 1000) as u32 / 100
    }

    fn fill_stats(&self, result: &mut SearchResult) {
        result.nodes = self.nodes;
        result.seldepth = self.seldepth as u32;
        result.time = self.budget.as_ref().map_or(Duration::ZERO, |b| b.elapsed());
        result.hashfull = self.tt.permille_full();
    }

    /// Two sides: a narrow window around the last score from depth 5 on,
    /// widened on failure.
    fn aspiration<const W: usize>(
        &mut self,
        pos: &mut Position<W>,
        root: &mut RootMoves,
        depth: i32,
        last: i32,
    ) -> i32 {
        let mut delta = self.params.aspiration_delta;
        let start = self.params.aspiration_depth;
        let (mut alpha, mut beta) = if depth >= start && !score::is_mate(last) {
            (last - delta, last + delta)
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let s = self.root_pvs(pos, root, depth, alpha, beta);
            if self.stopped {
                return s;
            }
            if s <= alpha {
                alpha = (alpha - delta).max(-INFINITY);
            } else if s >= beta {
                beta = (beta + delta).min(INFINITY);
            } else {
                return s;
            }
            delta *= 3;
            if delta > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// One iteration at the root: each root move is made and scored by
    /// `score_child` (given the depth left, the window, and what
    /// [`RootChild`] tells of the move); a move that raises the best score
    /// goes to the front of `root`.
    pub(crate) fn root_iteration<const W: usize>(
        &mut self,
        pos: &mut Position<W>,
        root: &mut RootMoves,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        score_child: impl Fn(&mut Searcher, &mut Position<W>, i32, i32, i32, RootChild) -> i32,
    ) -> i32 {
        root.finished = 0;
        self.iteration_depth = depth;
        self.pv[0].clear();
        let mut best = -INFINITY;
        for i in 0..root.moves.len() {
            let m = root.moves[i].mv;
            let d = if m.kind == MoveKind::DropOut {
                depth
            } else {
                depth - 1
            };
            let tactical = is_tactical(pos, m, &self.values);
            let child = RootChild {
                index: i,
                tactical,
                history: if tactical {
                    0
                } else {
                    self.order.quiet_score(pos, 0, m)
                },
            };
            self.order.record(pos, 0, Some(m));
            pos.make(m);
            let s = score_child(self, pos, d, alpha, beta, child);
            pos.unmake();
            if self.stopped {
                break;
            }
            self.armed = true;
            if s > best {
                best = s;
                if s > alpha || i == 0 {
                    self.update_pv(0, m);
                    root.promote(i, s, self.pv[0].clone());
                    root.finished += 1;
                }
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Looks the node up in the transposition table: the stored move, the
    /// stored score if it ends the node (deep enough, and its bound decides
    /// against the window; only where `cut` allows), and the entry's score
    /// and bound (for a better static score).
    pub(crate) fn probe(
        &self,
        key: u64,
        depth: i32,
        (alpha, beta): (i32, i32),
        ply: usize,
        cut: bool,
    ) -> Probe {
        let Some(e) = self.tt.probe(key) else {
            return Probe::default();
        };
        let s = from_table(e.score, ply);
        let decided = match e.bound {
            Bound::Exact => true,
            Bound::Lower => s >= beta,
            Bound::Upper => s <= alpha,
        };
        Probe {
            mv: e.mv,
            cutoff: (cut && e.depth as i32 >= depth && decided).then_some(s),
            entry: Some((s, e.bound, e.depth as i32)),
            pv: e.pv,
        }
    }

    /// The table's move if it is among the node's legal moves (another
    /// position may share the key).
    pub(crate) fn legal_here(&self, ply: usize, m: Option<Move>) -> Option<Move> {
        m.filter(|t| self.order.frames[ply].moves.iter().any(|m| m == t))
    }

    /// Stores a node's result, its bound from the window it was searched
    /// with, and whether the node is on the principal line (`tt_pv`).
    pub(crate) fn store(
        &mut self,
        key: u64,
        mv: Option<Move>,
        best: i32,
        (alpha, beta): (i32, i32),
        depth: i32,
        ply: usize,
    ) {
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            mv,
            to_table(best, ply),
            (depth, bound),
            self.tt_pv[ply],
        );
    }

    /// A child of a maximising node scored `s` after `m`: the best score,
    /// the window's lower bound and the line follow it.
    pub(crate) fn raise(
        &mut self,
        ply: usize,
        m: Move,
        s: i32,
        best: &mut i32,
        alpha: &mut i32,
        beta: i32,
    ) -> Step {
        if s <= *best {
            return Step::Worse;
        }
        *best = s;
        if s <= *alpha {
            return Step::Better;
        }
        *alpha = s;
        self.update_pv(ply, m);
        if s >= beta {
            Step::Cutoff
        } else {
            Step::Raised
        }
    }

    /// The mirror of [`Searcher::raise`] for a minimising node.
    pub(crate) fn lower(
        &mut self,
        ply: usize,
        m: Move,
        s: i32,
        best: &mut i32,
        alpha: i32,
        beta: &mut i32,
    ) -> Step {
        if s >= *best {
            return Step::Worse;
        }
        *best = s;
        if s >= *beta {
            return Step::Better;
        }
        *beta = s;
        self.update_pv(ply, m);
        if s <= alpha {
            Step::Cutoff
        } else {
            Step::Raised
        }
    }

    /// Counts a node and checks the limits; true when the search must stop.
    #[inline]
    pub(crate) fn tick(&mut self, ply: usize) -> bool {
        self.nodes += 1;
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if self.armed {
            if self.node_limit.is_some_and(|n| self.nodes >= n) {
                self.stopped = true;
            }
            if self.nodes & 1023 == 0
                && (self.stop.load(AtomicOrdering::Relaxed)
                    || self.budget.as_ref().is_some_and(|b| b.out_of_time()))
            {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// The score of a finished game for `army`'s side, `ply` plies from the
    /// root: a win is better the sooner, a loss the later.
    pub(crate) fn terminal<const W: usize>(
        &mut self,
        pos: &mut Position<W>,
        ply: usize,
        army: u8,
    ) -> i32 {
        match pos.outcome() {
            Some(o) => match result_for(&o, pos.variant(), army) {
                std::cmp::Ordering::Less => MATE - ply as i32,
                std::cmp::Ordering::Equal => DRAW,
                std::cmp::Ordering::Greater => -MATE + ply as i32,
            },
            None => DRAW,
        }
    }

    /// Is the position drawn by the no-progress counter?
    pub(crate) fn no_progress<const W: usize>(pos: &Position<W>) -> bool {
        let limit = pos.variant().rules.no_progress_moves as usize * pos.players_in().count();
        limit > 0 && pos.halfmove_clock() as usize >= limit
    }

    /// Records `m` followed by the line below it as the line at `ply`.
    pub(crate) fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        if let Some(below) = tail.first() {
            line.extend_from_slice(below);
        }
    }
}

/// What a child's score did to its node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// Not better than the best so far.
    Worse,
    /// The best so far, but outside the window.
    Better,
    /// A new best move inside the window.
    Raised,
    /// A refutation: the node is decided.
    Cutoff,
}

/// What a root move's scorer is told of it, judged before it is made.
#[derive(Clone, Copy)]
pub(crate) struct RootChild {
    /// Its place in this iteration's order (0: the best of the last).
    pub index: usize,
    /// A capture or promotion ([`is_tactical`]).
    pub tactical: bool,
    /// A quiet move's history score, 0 for a tactical one.
    pub history: i32,
}

/// The root moves, best first, with the score and line each last got.
pub(crate) struct RootMoves {
    pub moves: Vec<RootMove>,
    /// Moves finished in the current iteration.
    pub finished: usize,
}

pub(crate) struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub pv: Vec<Move>,
}

impl RootMoves {
    fn new<const W: usize>(pos: &mut Position<W>, s: &mut Searcher) -> RootMoves {
        pos.legal_moves_into(&mut s.order.frames[0].moves);
        let value = s
            .eval
            .as_ref()
            .expect("evaluation built")
            .know
            .value
            .clone();
        s.order.score(pos, 0, None, &value, false);
        let n = s.order.frames[0].len();
        let moves = (0..n)
            .map(|i| {
                let mv = s.order.frames[0].pick(i);
                RootMove {
                    mv,
                    score: -INFINITY,
                    pv: vec![mv],
                }
            })
            .collect();
        RootMoves { moves, finished: 0 }
    }

    /// Hides `percent` of the moves, each by chance, keeping at least one:
    /// what a weak level overlooks ([`Limits::hidden`]).
    pub fn hide(&mut self, percent: u32, rng: &mut fastrand::Rng) {
        if percent == 0 || self.moves.is_empty() {
            return;
        }
        let mut seen: Vec<bool> = self
            .moves
            .iter()
            .map(|_| rng.u32(0..100) >= percent)
            .collect();
        if !seen.contains(&true) {
            let one = rng.usize(0..seen.len());
            seen[one] = true;
        }
        let mut seen = seen.into_iter();
        self.moves.retain(|_| seen.next() == Some(true));
    }

    /// The move at `i` finished with a new best score: it moves to the
    /// front, the others keep their order.
    pub fn promote(&mut self, i: usize, score: i32, pv: Vec<Move>) {
        let mut m = self.moves.remove(i);
        m.score = score;
        m.pv = pv;
        self.moves.insert(0, m);
    }
}

/// How a finished game went for an army, comparing its best place with
/// the best place of any hostile army: `Less` is a win (ranked ahead),
/// `Equal` a draw, `Greater` a loss.
pub fn result_for(o: &Outcome, variant: &Variant, army: u8) -> std::cmp::Ordering {
    let place = |mine: bool| {
        o.ranking
            .iter()
            .position(|g| g.iter().any(|&p| (variant.players[p].army == army) == mine))
            .unwrap_or(usize::MAX)
    };
    place(true).cmp(&place(false))
}

#[cfg(test)]
mod tests {
    use super::*;
    use quadrille_engine::embedded;
    use std::collections::HashSet;

    /// Every listed name reads back as a different algorithm; the aliases
    /// read as BRS+; anything else is refused with the names listed.
    #[test]
    fn four_player_searches_by_name() {
        let read: Vec<MultiAlgorithm> = MultiAlgorithm::NAMES
            .iter()
            .map(|n| n.parse().unwrap())
            .collect();
        assert_eq!(
            read,
            [
                MultiAlgorithm::Auto,
                MultiAlgorithm::BestReply,
                MultiAlgorithm::Paranoid,
                MultiAlgorithm::MaxN
            ]
        );
        for alias in ["brs+", "best-reply"] {
            assert_eq!(alias.parse(), Ok(MultiAlgorithm::BestReply));
        }
        let err = "minimax".parse::<MultiAlgorithm>().unwrap_err();
        assert!(err.contains("`minimax`") && err.contains("auto, brs, paranoid, maxn"));
    }

    /// Paranoid is the default in every four-player game, an explicit
    /// choice still wins over it, and two armies (Avon's teams) are PVS
    /// whatever is asked.
    #[test]
    fn paranoid_by_default_in_the_four_player_games() {
        let families = crate::families::PASS
            .iter()
            .chain(crate::families::MINI_FIVEQUARTERS);
        for name in families {
            let v = embedded::variant(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            let auto = Algorithm::for_variant(&v, MultiAlgorithm::Auto);
            assert_eq!(auto, Algorithm::Paranoid, "{name}");
            let brs = Algorithm::for_variant(&v, MultiAlgorithm::BestReply);
            assert_eq!(brs, Algorithm::BestReply, "{name}");
        }
        let avon = embedded::variant("avon").unwrap();
        let brs = Algorithm::for_variant(&avon, MultiAlgorithm::BestReply);
        assert_eq!(brs, Algorithm::Pvs);
    }

    /// The weakest level's random error makes it vary its moves; without
    /// noise the same search plays the same move; the error stays within
    /// its bound.
    #[test]
    fn noise_varies_the_weak_levels_within_its_bound() {
        let v = embedded::variant("chess").unwrap();
        let pos = v.start();
        let mut s = Searcher::new(Options::default());
        let weakest: HashSet<_> = (0..20)
            .map(|_| s.best_move(&pos, &Limits::level(1)).best)
            .collect();
        assert!(weakest.len() > 1, "{weakest:?}");
        assert!(weakest.iter().all(Option::is_some));
        let plain: HashSet<_> = (0..5)
            .map(|_| {
                s.clear();
                s.best_move(&pos, &Limits::depth(3)).best
            })
            .collect();
        assert_eq!(plain.len(), 1);
        s.noise = 40;
        let errors: Vec<i32> = (0..2000u64).map(|k| s.noise_at(k * 7919)).collect();
        assert!(errors.iter().all(|e| e.abs() <= 40));
        assert!(errors.iter().any(|&e| e > 30) && errors.iter().any(|&e| e < -30));
    }

    /// Hidden moves: about the share asked for is hidden, never every move,
    /// and a search that hides moves still plays one (a varied one).
    #[test]
    fn hidden_moves_are_overlooked_but_one_stays() {
        let v = embedded::variant("chess").unwrap();
        let mut pos = v.start();
        let mut s = Searcher::new(Options::default());
        s.evaluation(&pos);
        let mut rng = fastrand::Rng::with_seed(7);
        let all = RootMoves::new(&mut pos, &mut s).moves.len();
        let mut kept = 0;
        for _ in 0..200 {
            let mut root = RootMoves::new(&mut pos, &mut s);
            root.hide(75, &mut rng);
            assert!((1..=all).contains(&root.moves.len()));
            kept += root.moves.len();
            root.hide(99, &mut rng);
            assert!(!root.moves.is_empty());
        }
        let share = kept as f64 / (200 * all) as f64;
        assert!((0.2..0.3).contains(&share), "{share}");
        let mut root = RootMoves::new(&mut pos, &mut s);
        root.hide(0, &mut rng);
        assert_eq!(root.moves.len(), all);
        let blind = Limits {
            hidden: 90,
            ..Limits::depth(2)
        };
        let moves: HashSet<_> = (0..20).map(|_| s.best_move(&pos, &blind).best).collect();
        assert!(
            moves.len() > 1 && moves.iter().all(Option::is_some),
            "{moves:?}"
        );
    }

    /// A position is searched in the narrowest cell sets that hold its
    /// board (one word up to 64 cells, two up to 128): the same tree,
    /// node for node, as in the widest sets (two and four players, from
    /// the start and after a few moves).
    #[test]
    fn narrow_sets_search_the_same_tree() {
        // The Magna Carta position is one where the correction history's
        // index, once hashed by the set's width, changed the tree at depth 7.
        let cases = [
            ("magna-carta", None, 6),
            (
                "magna-carta",
                Some("rnbqkb1r/1pp1pppp/7n/p2p4/8/N2C1N2/PPPPPPPP/R1BM1B1R w kq - 0 4"),
                8,
            ),
            ("chess", None, 6),
            ("tor-aikou", None, 2),
            ("caissa-britannia", None, 4),
            ("avon", None, 3),
        ];
        for (name, fen, depth) in cases {
            let v = embedded::variant(name).unwrap();
            let mut pos = match fen {
                Some(fen) => Position::from_string(v.clone(), fen).unwrap(),
                None => v.start(),
            };
            for _ in 0..3 {
                let limits = Limits::depth(depth);
                let wide = Searcher::new(Options::default()).search_width(
                    pos.clone(),
                    &limits,
                    &mut |_| {},
                );
                let narrow =
                    Searcher::new(Options::default()).search_one(&pos, &limits, &mut |_| {});
                let at = format!("{name} {pos}");
                assert!(wide.nodes > 100, "{at}: {} nodes", wide.nodes);
                assert_eq!(narrow.nodes, wide.nodes, "{at}");
                assert_eq!(
                    (narrow.best, narrow.score, narrow.pv),
                    (wide.best, wide.score, wide.pv),
                    "{at}"
                );
                let moves = pos.legal_moves();
                pos.make(moves.as_slice()[moves.len() / 3]);
            }
        }
    }
}
