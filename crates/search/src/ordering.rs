//! Move ordering: the table's move first, then captures by the value of
//! the victim (least valuable attacker first), promotions, two killer moves
//! per ply (and, where asked, the counter move to the move before), and
//! quiet moves by their history (from-to, and in two-sided games also by
//! the piece and cell of the last two moves, or of the last two and the
//! fourth: continuation history); captures that lose
//! material by static exchange (in four-player games: a more valuable
//! piece taking a defended one) go after the killers, or after the quiet
//! moves where `bad_captures_last` asks (Stockfish's order).

use quadrille_engine::moves::MAX_MOVES;
use quadrille_engine::{Move, MoveKind, MoveList, Position};

const TABLE_MOVE: i32 = 2_000_000_000;
const CAPTURE: i32 = 1_000_000_000;
const PROMOTION: i32 = 900_000_000;
const KILLER: i32 = 800_000_000;
const BAD_CAPTURE: i32 = 700_000_000;
/// Losing captures after every quiet move (below any history score).
const BAD_CAPTURE_LAST: i32 = -1_000_000_000;
/// How far either way from its band's start a losing capture's score may
/// lie (its order within the band).
const BAD_BAND: i32 = 100_000_000;
/// The largest history bonus: [`Ordering::nudge`] moves a score by 32
/// times the bonus, less the score's share `bonus / MAX_BONUS`, so scores
/// settle within [`HISTORY_MAX`] and this bonus sets one to its bound at
/// once.
pub(crate) const MAX_BONUS: i32 = 512;
/// History scores stay within plus or minus this.
const HISTORY_MAX: i32 = 32 * MAX_BONUS;
/// Quiet moves' scores lie within plus or minus this (the history
/// scores and a threat's weight on them); the bands above and below
/// (killers, captures, losing captures) lie beyond it.
const QUIET_BAND: i32 = 100_000_000;
/// A threat or loss counts at most this much (a royal piece's priceless
/// worth in an exchange is cut to it).
const MAX_THREAT: i32 = 2_000;
/// History score per centipawn of a threat escaped or a loss incurred
/// (a Queen's about a third of the three tables' range, as Stockfish's).
const THREAT_WEIGHT: i32 = 16;
/// Continuation history is left out where its table would pass this many
/// entries (piece types times cells, squared).
const CONTINUATION_MAX: usize = 1 << 22;

/// The moves of one node and their ordering scores.
pub(crate) struct Frame {
    pub moves: MoveList,
    scores: Vec<i32>,
    /// Captures scored as good whose static exchange is not yet known:
    /// judged only when one is about to be taken ([`Frame::pick_judged`]),
    /// since most nodes end before they reach most of their captures.
    unjudged: Vec<bool>,
    /// Where losing captures start: [`BAD_CAPTURE`] or
    /// [`BAD_CAPTURE_LAST`] (set by [`Ordering::score`]).
    bad_base: i32,
}

impl Frame {
    fn new() -> Frame {
        Frame {
            moves: MoveList::new(),
            scores: vec![0; MAX_MOVES],
            unjudged: vec![false; MAX_MOVES],
            bad_base: BAD_CAPTURE,
        }
    }

    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Keeps only the tactical moves (for quiescence).
    pub fn keep_tactical<const W: usize>(&mut self, pos: &Position<W>, value: &[i32]) {
        self.moves.retain(|m| is_tactical(pos, m, value));
    }

    /// The `i`-th move in order: the best-scored of those not yet taken
    /// (a selection sort that stops early when a cutoff comes early).
    pub fn pick(&mut self, i: usize) -> Move {
        let best = self.best_from(i);
        self.swap(i, best);
        self.moves.as_slice()[i]
    }

    /// Where the best-scored move from the `i`-th on stands (the first of
    /// equals).
    fn best_from(&self, i: usize) -> usize {
        let mut best = i;
        for j in i + 1..self.moves.len() {
            if self.scores[j] > self.scores[best] {
                best = j;
            }
        }
        best
    }

    fn swap(&mut self, i: usize, j: usize) {
        self.scores.swap(i, j);
        self.unjudged.swap(i, j);
        self.moves.as_mut_slice().swap(i, j);
    }

    /// [`Frame::pick`] where captures wait for their static exchange
    /// ([`Ordering::score`] with `see`): a capture about to be taken is
    /// judged first and, when it loses material, scored among the bad
    /// captures where it stands, before anything moves. The order is the
    /// one judging every capture up front would give.
    pub fn pick_judged<const W: usize>(
        &mut self,
        i: usize,
        pos: &Position<W>,
        value: &[i32],
    ) -> Move {
        loop {
            let b = self.best_from(i);
            if self.unjudged[b] {
                self.unjudged[b] = false;
                if !pos.see_at_least(self.moves.as_slice()[b], value, 0) {
                    self.scores[b] = self.bad_base + (self.scores[b] - CAPTURE) / 64;
                    continue;
                }
            }
            self.swap(i, b);
            return self.moves.as_slice()[i];
        }
    }

    /// Is the `i`-th move taken the table's move, a capture not judged
    /// losing, or a promotion (what comes before the killers)?
    pub fn is_good_tactical(&self, i: usize) -> bool {
        self.scores[i] >= PROMOTION
    }

    /// Was the `i`-th move taken judged a losing capture?
    pub fn is_bad_capture(&self, i: usize) -> bool {
        (self.bad_base - BAD_BAND..self.bad_base + BAD_BAND).contains(&self.scores[i])
    }

    /// The `i`-th move as it stands, unsorted: once late move pruning has
    /// begun, the moves left are quiet ones that are skipped unless they
    /// give check, so their order no longer pays for a scan.
    #[inline]
    pub fn take(&self, i: usize) -> Move {
        self.moves.as_slice()[i]
    }
}

/// Is the move a capture?
#[inline]
pub fn is_capture<const W: usize>(pos: &Position<W>, m: Move) -> bool {
    match m.kind {
        MoveKind::EnPassant => true,
        // A swap lands on a piece of the mover's own army.
        MoveKind::Castle(_) | MoveKind::DropOut | MoveKind::Swap => false,
        _ => pos.piece_at(m.to).is_some(),
    }
}

/// Is `m` a capture or a drop-out (a move that changes material by itself,
/// promotions aside)?
#[inline]
fn is_tactical_kind<const W: usize>(pos: &Position<W>, m: Move) -> bool {
    m.kind == MoveKind::DropOut || is_capture(pos, m)
}

/// Is the move a capture, a drop-out, or a promotion worth at least two
/// pawns (the moves quiescence searches)?
#[inline]
pub fn is_tactical<const W: usize>(pos: &Position<W>, m: Move, value: &[i32]) -> bool {
    if is_tactical_kind(pos, m) {
        return true;
    }
    let Some(t) = m.promotion else {
        return false;
    };
    let mover = pos.piece_at(m.from).map_or(0, |p| value[p.kind as usize]);
    value[t as usize] - mover >= 200
}

/// Does the capture `m` (`mover` taking `victim`, by value) lose material?
/// With `see`, by static exchange; without (the four-player search), when
/// a piece worth more than the victim plus `margin` takes a defended one.
pub fn losing_capture<const W: usize>(
    pos: &Position<W>,
    m: Move,
    (mover, victim): (i32, i32),
    value: &[i32],
    see: bool,
    margin: i32,
) -> bool {
    if see {
        !pos.see_at_least(m, value, 0)
    } else {
        mover > victim + margin && pos.attacked_by_enemies(m.to, pos.army_to_move())
    }
}

/// Killers, history and the per-ply move lists.
pub(crate) struct Ordering {
    killers: Vec<[Option<Move>; 2]>,
    /// `[(player * cells + from) * cells + to]`.
    history: Vec<i32>,
    cells: usize,
    /// Continuation history, `[earlier * pieces_cells + now]` where each is
    /// a move's piece type * cells + target cell; empty where too big.
    continuation: Vec<i16>,
    pieces_cells: usize,
    /// Per ply, the piece type and target of the move made there (`None`
    /// for a null move), for the continuation history of the plies below.
    played: Vec<Option<u32>>,
    /// Use the continuation history (set per search).
    pub use_continuation: bool,
    /// The continuation history also by the move four plies up (set per
    /// search).
    pub continuation_far: bool,
    /// Per piece type and target of the move before (as `played`), the
    /// quiet move that last cut the node after it; empty without the
    /// continuation history.
    counters: Vec<Option<Move>>,
    /// Try the counter move after the killers (set per search).
    pub use_counter: bool,
    /// Capture history, `[(mover * cells + to) * (pieces + 1) + victim]`
    /// (victim `pieces` for none: a promotion); used where
    /// `use_capture_history` (set per search).
    capture_history: Vec<i32>,
    pieces: usize,
    pub use_capture_history: bool,
    /// Losing captures go after the quiet moves (set per search).
    pub bad_captures_last: bool,
    /// A cutoff's history bonus per ply of depth (0: depth squared) and
    /// its cap (set per search from `history_bonus` and `history_cap`).
    pub history_bonus: (i32, i32),
    /// Per ply, the quiet move made there and its mover, for the bonuses
    /// to the move one ply up; kept only where `keep_quiets` (set per
    /// search).
    quiets: Vec<Option<(usize, Move)>>,
    pub keep_quiets: bool,
    pub frames: Vec<Frame>,
}

impl Ordering {
    pub fn new(max_ply: usize) -> Ordering {
        Ordering {
            killers: vec![[None; 2]; max_ply + 1],
            history: Vec::new(),
            cells: 0,
            continuation: Vec::new(),
            pieces_cells: 0,
            played: vec![None; max_ply + 1],
            use_continuation: false,
            continuation_far: false,
            counters: Vec::new(),
            use_counter: false,
            capture_history: Vec::new(),
            pieces: 0,
            use_capture_history: false,
            bad_captures_last: false,
            history_bonus: (0, 400),
            quiets: vec![None; max_ply + 1],
            keep_quiets: false,
            frames: (0..=max_ply).map(|_| Frame::new()).collect(),
        }
    }

    /// Sizes the history for a variant (`pieces` types, `cells` cells) and
    /// clears it; the continuation history only if `use_continuation`.
    pub fn reset(&mut self, players: usize, pieces: usize, cells: usize) {
        self.cells = cells;
        self.history = vec![0; players * cells * cells];
        self.pieces_cells = pieces * cells;
        let size = self.pieces_cells * self.pieces_cells;
        // Only when in use: every pooled searcher of the server has one.
        self.continuation = if self.use_continuation && size <= CONTINUATION_MAX {
            vec![0; size]
        } else {
            Vec::new()
        };
        self.counters = if self.use_continuation {
            vec![None; self.pieces_cells]
        } else {
            Vec::new()
        };
        self.played.fill(None);
        self.killers.fill([None; 2]);
        self.pieces = pieces;
        self.capture_history = vec![0; pieces * cells * (pieces + 1)];
    }

    /// Between searches: killers are forgotten, history fades.
    pub fn new_search(&mut self) {
        self.killers.fill([None; 2]);
        for h in &mut self.history {
            *h /= 2;
        }
        for h in &mut self.continuation {
            *h /= 2;
        }
        for h in &mut self.capture_history {
            *h /= 2;
        }
    }

    /// The piece type and target of a move about to be made at `ply`
    /// (before `pos.make`); `None` for a null move. Nothing without the
    /// continuation history (switching it on resets the record).
    #[inline]
    pub fn record<const W: usize>(&mut self, pos: &Position<W>, ply: usize, m: Option<Move>) {
        if self.use_continuation {
            self.played[ply] = m.and_then(|m| self.piece_to(pos, m));
        }
        if self.keep_quiets {
            self.quiets[ply] = m
                .filter(|&m| m.promotion.is_none() && !is_tactical_kind(pos, m))
                .map(|m| (pos.to_move(), m));
        }
    }

    /// The quiet move made one ply up (at `ply - 1`) moves its
    /// continuation history by `times` a cutoff's bonus at `depth`: the
    /// node after it failed low, so it was good for its mover
    /// (Stockfish's bonus to the prior move).
    pub fn prior_reward(&mut self, ply: usize, depth: i32, times: i32) {
        let Some(before) = ply.checked_sub(1) else {
            return;
        };
        let (Some(_), Some(now)) = (self.quiets[before], self.played[before]) else {
            return;
        };
        if self.continuation.is_empty() {
            return;
        }
        let slots = self.slots_at(before, now);
        self.nudge_slots(slots, self.bonus(depth) * times);
    }

    /// The quiet move made one ply up (at `ply - 1`) moves its from-to
    /// history by `bonus`: how much better the static score after it is
    /// for its mover than the one before (Stockfish's bonus by the static
    /// evaluations' difference). Nothing after a capture or a null move.
    pub fn eval_reward(&mut self, ply: usize, bonus: i32) {
        let Some(Some((player, m))) = ply.checked_sub(1).map(|p| self.quiets[p]) else {
            return;
        };
        if self.history.is_empty() {
            return;
        }
        let i = self.history_index(player, m);
        Self::nudge(&mut self.history[i], bonus);
    }

    #[inline]
    fn piece_to<const W: usize>(&self, pos: &Position<W>, m: Move) -> Option<u32> {
        let kind = pos.piece_at(m.from)?.kind as usize;
        Some((kind * self.cells + m.to as usize) as u32)
    }

    /// The continuation-history entries for `m` at `ply`: one per earlier
    /// move (one and two plies up, and four with `continuation_far`) that
    /// is known.
    #[inline]
    fn continuation_slots<const W: usize>(
        &self,
        pos: &Position<W>,
        ply: usize,
        m: Move,
    ) -> [Option<usize>; 3] {
        if !self.use_continuation || self.continuation.is_empty() {
            return [None; 3];
        }
        self.piece_to(pos, m)
            .map_or([None; 3], |now| self.slots_at(ply, now))
    }

    /// The continuation-history entries of the move `now` (as `played`)
    /// made at `ply`, by the moves before it.
    #[inline]
    fn slots_at(&self, ply: usize, now: u32) -> [Option<usize>; 3] {
        let mut slots = [None; 3];
        let backs: &[usize] = if self.continuation_far {
            &[1, 2, 4]
        } else {
            &[1, 2]
        };
        for (&back, slot) in backs.iter().zip(&mut slots) {
            if let Some(Some(earlier)) = ply.checked_sub(back).map(|p| self.played[p]) {
                *slot = Some(earlier as usize * self.pieces_cells + now as usize);
            }
        }
        slots
    }

    #[inline]
    fn history_index(&self, player: usize, m: Move) -> usize {
        (player * self.cells + m.from as usize) * self.cells + m.to as usize
    }

    /// Scores the moves of the frame at `ply` (already generated). `see`:
    /// judge captures by static exchange (two sides; each when about to
    /// be taken, so take them with [`Frame::pick_judged`]), else a capture
    /// is bad when a more valuable piece takes a defended one.
    pub fn score<const W: usize>(
        &mut self,
        pos: &Position<W>,
        ply: usize,
        table_move: Option<Move>,
        value: &[i32],
        see: bool,
    ) {
        let killers = self.killers[ply];
        let counter = self.counter_at(ply);
        let n = self.frames[ply].moves.len();
        self.frames[ply].unjudged[..n].fill(false);
        let bad_base = if self.bad_captures_last {
            BAD_CAPTURE_LAST
        } else {
            BAD_CAPTURE
        };
        self.frames[ply].bad_base = bad_base;
        for i in 0..n {
            let m = self.frames[ply].moves.as_slice()[i];
            let s = if Some(m) == table_move {
                TABLE_MOVE
            } else {
                let mover = pos.piece_at(m.from).map_or(0, |p| value[p.kind as usize]);
                let gain = m
                    .promotion
                    .map_or(0, |t| (value[t as usize] - mover).max(0));
                if is_capture(pos, m) {
                    let victim = match m.kind {
                        MoveKind::EnPassant => mover,
                        _ => pos.piece_at(m.to).map_or(0, |p| value[p.kind as usize]),
                    };
                    let order = victim * 64 - mover + gain * 64 + self.capture_score(pos, m) / 2;
                    // By static exchange: judged when about to be taken.
                    self.frames[ply].unjudged[i] = see && gain == 0;
                    if !see
                        && gain == 0
                        && losing_capture(pos, m, (mover, victim), value, false, 50)
                    {
                        bad_base + order / 64
                    } else {
                        CAPTURE + order
                    }
                } else if gain > 0 {
                    PROMOTION + gain
                } else if killers[0] == Some(m) {
                    KILLER + 1
                } else if killers[1] == Some(m) {
                    KILLER
                } else if counter == Some(m) {
                    KILLER - 1
                } else {
                    self.quiet_score(pos, ply, m)
                }
            };
            self.frames[ply].scores[i] = s;
        }
    }

    /// Adjusts the history order of the quiet moves scored at `ply`
    /// (killers and the counter move aside) by what they do about
    /// material: a move onto a cell where it loses material by static
    /// exchange falls by the loss, and one that takes a piece hostile
    /// armies could win where it stands to a safe cell rises by that
    /// threat (Stockfish's bonus for escaping capture and malus for
    /// moving en prise, by exchange rather than by attacker type). Costs
    /// an exchange a move: asked at deep nodes only.
    pub fn weigh_threats<const W: usize>(&mut self, pos: &Position<W>, ply: usize, value: &[i32]) {
        let frame = &mut self.frames[ply];
        let army = pos.army_to_move();
        // An exchange only where a hostile piece attacks the cell (on the
        // board before the move, as Stockfish's threat maps are).
        let attacked = |cell| pos.attacked_by_enemies(cell, army);
        let mut threat = None;
        for i in 0..frame.moves.len() {
            if frame.scores[i].abs() >= QUIET_BAND {
                continue;
            }
            let m = frame.moves.as_slice()[i];
            if is_tactical_kind(pos, m) {
                continue;
            }
            // Moves come grouped by their piece: one exchange per piece.
            let on_from = match threat {
                Some((cell, t)) if cell == m.from => t,
                _ => {
                    let t = if attacked(m.from) {
                        pos.threat(m.from, value).min(MAX_THREAT)
                    } else {
                        0
                    };
                    threat = Some((m.from, t));
                    t
                }
            };
            let after = if attacked(m.to) {
                pos.see(m, value).max(-MAX_THREAT)
            } else {
                0
            };
            let change = if after < 0 { after } else { on_from };
            frame.scores[i] += change * THREAT_WEIGHT;
        }
    }

    /// Has the quiet move `m` at `ply` done badly after both earlier moves
    /// (continuation history below zero for each that is known, and at
    /// least one known)?
    #[inline]
    pub fn continuation_bad<const W: usize>(&self, pos: &Position<W>, ply: usize, m: Move) -> bool {
        let slots = self.continuation_slots(pos, ply, m);
        slots.iter().any(Option::is_some)
            && slots
                .into_iter()
                .flatten()
                .all(|i| self.continuation[i] < 0)
    }

    /// The history score of a quiet move at `ply` (0 before any): from-to
    /// history plus the continuation history. (Always inlined: left to
    /// itself the compiler stopped inlining it into the move loop once
    /// it became generic over the cell-set width, 1 % more instructions.)
    #[inline(always)]
    pub fn quiet_score<const W: usize>(&self, pos: &Position<W>, ply: usize, m: Move) -> i32 {
        if self.history.is_empty() {
            return 0;
        }
        let mut s = self.history[self.history_index(pos.to_move(), m)];
        for i in self.continuation_slots(pos, ply, m).into_iter().flatten() {
            s += self.continuation[i] as i32;
        }
        s
    }

    /// Where capture history is in use, the entry of a capture or
    /// promotion.
    #[inline]
    fn capture_slot<const W: usize>(&self, pos: &Position<W>, m: Move) -> Option<usize> {
        if !self.use_capture_history || self.capture_history.is_empty() {
            return None;
        }
        let mover = pos.piece_at(m.from)?.kind as usize;
        let victim = match m.kind {
            MoveKind::EnPassant => mover,
            _ => pos.piece_at(m.to).map_or(self.pieces, |p| p.kind as usize),
        };
        Some((mover * self.cells + m.to as usize) * (self.pieces + 1) + victim)
    }

    /// How a capture or promotion has fared (0 without capture history).
    #[inline]
    fn capture_score<const W: usize>(&self, pos: &Position<W>, m: Move) -> i32 {
        self.capture_slot(pos, m)
            .map_or(0, |i| self.capture_history[i])
    }

    /// A node was cut at `depth` (in `pos`, before the move): the capture
    /// or promotion that cut it, if it was one, rises and the ones `tried`
    /// before it fall.
    pub fn capture_cutoff<const W: usize>(
        &mut self,
        pos: &Position<W>,
        depth: i32,
        m: Option<Move>,
        tried: &[Move],
    ) {
        // Every cutoff comes here: without the history, nothing to walk.
        if !self.use_capture_history {
            return;
        }
        let bonus = self.bonus(depth);
        for (t, b) in m
            .iter()
            .map(|&m| (m, bonus))
            .chain(tried.iter().map(|&t| (t, -bonus)))
        {
            if let Some(i) = self.capture_slot(pos, t) {
                Self::nudge(&mut self.capture_history[i], b);
            }
        }
    }

    /// Where counter moves are in use, the entry of the node at `ply`: the
    /// piece type and target of the move made one ply up.
    #[inline]
    fn counter_slot(&self, ply: usize) -> Option<usize> {
        if !self.use_counter || self.counters.is_empty() {
            return None;
        }
        Some(self.played[ply.checked_sub(1)?]? as usize)
    }

    /// The counter move to the move made one ply up, where in use.
    #[inline]
    fn counter_at(&self, ply: usize) -> Option<Move> {
        self.counters[self.counter_slot(ply)?]
    }

    /// Is the move one of the killers at `ply`?
    pub fn is_killer(&self, ply: usize, m: Move) -> bool {
        self.killers[ply].contains(&Some(m))
    }

    /// A quiet move caused a cutoff at `ply` (in `pos`, before it is
    /// made): it becomes a killer, its history rises and the quiet moves
    /// tried before it fall.
    pub fn cutoff<const W: usize>(
        &mut self,
        pos: &Position<W>,
        ply: usize,
        depth: i32,
        m: Move,
        tried: &[Move],
    ) {
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        if let Some(i) = self.counter_slot(ply) {
            self.counters[i] = Some(m);
        }
        if self.history.is_empty() {
            return;
        }
        let bonus = self.bonus(depth);
        self.reward(pos, ply, m, bonus);
        for &q in tried {
            self.reward(pos, ply, q, -bonus);
        }
    }

    /// A quiet move that failed low at `ply` (judged by the table, not
    /// searched) loses a cutoff's bonus at `depth`.
    pub fn fail_low<const W: usize>(&mut self, pos: &Position<W>, ply: usize, depth: i32, m: Move) {
        if !self.history.is_empty() {
            let bonus = self.bonus(depth);
            self.reward(pos, ply, m, -bonus);
        }
    }

    /// Could `m` be a move of the side to move here? A table's move comes
    /// from a key, which another position (of another variant even) may
    /// share; its cells must index this variant's history.
    pub fn fits<const W: usize>(&self, pos: &Position<W>, m: Move) -> bool {
        (m.from as usize) < self.cells
            && (m.to as usize) < self.cells
            && pos
                .piece_at(m.from)
                .is_some_and(|p| p.army == pos.army_to_move())
    }

    /// A cutoff at `depth`'s bonus (and the tried moves' malus): depth
    /// squared, or linear in depth as Stockfish's where `history_bonus`
    /// is set, which weighs the many shallow cutoffs more.
    fn bonus(&self, depth: i32) -> i32 {
        let (per_ply, cap) = self.history_bonus;
        let b = if per_ply > 0 {
            per_ply * depth
        } else {
            depth * depth
        };
        b.min(cap)
    }

    /// Moves only the continuation history of `m` at `ply`, by a cutoff's
    /// bonus at `depth` in the direction `sign` (+1 or -1): how a move's
    /// re-search after its reduction ended.
    pub fn continuation_reward<const W: usize>(
        &mut self,
        pos: &Position<W>,
        ply: usize,
        depth: i32,
        m: Move,
        sign: i32,
    ) {
        self.nudge_continuation(pos, ply, m, sign * self.bonus(depth));
    }

    /// Moves every history entry of a quiet move by `bonus`.
    fn reward<const W: usize>(&mut self, pos: &Position<W>, ply: usize, m: Move, bonus: i32) {
        let i = self.history_index(pos.to_move(), m);
        Self::nudge(&mut self.history[i], bonus);
        self.nudge_continuation(pos, ply, m, bonus);
    }

    /// Moves the continuation-history entries of a quiet move by `bonus`.
    fn nudge_continuation<const W: usize>(
        &mut self,
        pos: &Position<W>,
        ply: usize,
        m: Move,
        bonus: i32,
    ) {
        let slots = self.continuation_slots(pos, ply, m);
        self.nudge_slots(slots, bonus);
    }

    /// Moves these continuation-history entries by `bonus`.
    fn nudge_slots(&mut self, slots: [Option<usize>; 3], bonus: i32) {
        for i in slots.into_iter().flatten() {
            let mut h = self.continuation[i] as i32;
            Self::nudge(&mut h, bonus);
            self.continuation[i] = h as i16;
        }
    }

    /// Moves a history score toward the bonus's sign, slower as it nears the
    /// bound.
    fn nudge(h: &mut i32, bonus: i32) {
        *h += 32 * bonus - *h * bonus.abs() / MAX_BONUS;
        *h = (*h).clamp(-HISTORY_MAX, HISTORY_MAX);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quadrille_engine::embedded;

    #[test]
    fn the_history_bonus_is_depth_squared_or_linear_and_capped() {
        let mut o = Ordering::new(4);
        assert_eq!((o.bonus(3), o.bonus(30)), (9, 400));
        o.history_bonus = (16, 96);
        assert_eq!((o.bonus(1), o.bonus(3), o.bonus(10)), (16, 48, 96));
    }

    #[test]
    fn captures_first_most_valuable_victim_first() {
        let v = embedded::variant("chess").unwrap();
        // White can take the Queen on d5 with the pawn or the Knight on b5
        // with the pawn; a quiet move or two besides.
        let pos = Position::from_string(v.clone(), "4k3/8/8/1n1q4/2P5/8/8/4K3 w - - 0 1").unwrap();
        let mut o = Ordering::new(4);
        o.reset(2, v.pieces.len(), v.geometry.size());
        let mut p = pos.clone();
        p.legal_moves_into(&mut o.frames[0].moves);
        let value: Vec<i32> = vec![0, 900, 500, 330, 320, 100];
        o.score(&pos, 0, None, &value, false);
        let f = &mut o.frames[0];
        let first = f.pick(0);
        let second = f.pick(1);
        assert_eq!(pos.move_to_string(first), "c4d5");
        assert_eq!(pos.move_to_string(second), "c4b5");
    }

    #[test]
    fn capture_history_orders_captures() {
        let v = embedded::variant("chess").unwrap();
        // The pawn on c4 or the Knight on f4 can take the Queen on d5.
        let pos = Position::from_string(v.clone(), "4k3/8/8/3q4/2P2N2/8/8/4K3 w - - 0 1").unwrap();
        let value: Vec<i32> = vec![0, 900, 500, 330, 320, 100];
        let first = |o: &mut Ordering| {
            let mut p = pos.clone();
            p.legal_moves_into(&mut o.frames[0].moves);
            o.score(&pos, 0, None, &value, false);
            pos.move_to_string(o.frames[0].pick(0))
        };
        let mut o = Ordering::new(4);
        o.use_capture_history = true;
        o.reset(2, v.pieces.len(), v.geometry.size());
        let (cxd5, nxd5) = (
            pos.parse_move("c4d5").unwrap(),
            pos.parse_move("f4d5").unwrap(),
        );
        // The cheaper attacker first, until the Knight's capture cuts
        // nodes where the pawn's failed.
        assert_eq!(first(&mut o), "c4d5");
        o.capture_cutoff(&pos, 6, Some(nxd5), &[cxd5]);
        assert_eq!(first(&mut o), "f4d5");
        // Switched off, the history is not read.
        o.use_capture_history = false;
        assert_eq!(first(&mut o), "c4d5");
    }

    #[test]
    fn losing_captures_go_after_quiet_moves_when_asked() {
        let v = embedded::variant("chess").unwrap();
        // The Queen can take the pawn on d6, which the pawn on e7 defends.
        let pos = Position::from_string(v.clone(), "4k3/4p3/3p4/8/8/8/8/3QK3 w - - 0 1").unwrap();
        let value: Vec<i32> = vec![0, 900, 500, 330, 320, 100];
        let order = |last: bool| {
            let mut o = Ordering::new(4);
            o.bad_captures_last = last;
            o.reset(2, v.pieces.len(), v.geometry.size());
            let mut p = pos.clone();
            p.legal_moves_into(&mut o.frames[0].moves);
            o.score(&pos, 0, None, &value, false);
            let n = o.frames[0].len();
            let moves: Vec<String> = (0..n)
                .map(|i| pos.move_to_string(o.frames[0].pick(i)))
                .collect();
            let bad: Vec<bool> = (0..n).map(|i| o.frames[0].is_bad_capture(i)).collect();
            (moves, bad)
        };
        let (before, bad) = order(false);
        assert_eq!(before[0], "d1d6");
        assert!(bad[0] && !bad[1..].iter().any(|&b| b));
        let (after, bad) = order(true);
        assert_eq!(after.last().map(String::as_str), Some("d1d6"));
        assert!(bad[bad.len() - 1] && !bad[..bad.len() - 1].iter().any(|&b| b));
    }

    #[test]
    fn continuation_history_follows_the_move_before() {
        let v = embedded::variant("chess").unwrap();
        let pos = v.start();
        let mut o = Ordering::new(4);
        o.use_continuation = true;
        o.reset(2, v.pieces.len(), v.geometry.size());
        let e4 = pos.parse_move("e2e4").unwrap();
        let d4 = pos.parse_move("d2d4").unwrap();
        let score_after = |o: &mut Ordering, first: Move| {
            let mut p = v.start();
            o.record(&p, 0, Some(first));
            p.make(first);
            let nf6 = p.parse_move("g8f6").unwrap();
            (o.quiet_score(&p, 1, nf6), o.continuation_bad(&p, 1, nf6))
        };
        // Nf6 refuted e4 once and failed after d4 once: the from-to
        // history is back at zero, the continuation history tells them
        // apart.
        for (first, bonus) in [(e4, 100), (d4, -100)] {
            let mut p = v.start();
            o.record(&p, 0, Some(first));
            p.make(first);
            let nf6 = p.parse_move("g8f6").unwrap();
            o.reward(&p, 1, nf6, bonus);
        }
        let (after_e4, bad_e4) = score_after(&mut o, e4);
        let (after_d4, bad_d4) = score_after(&mut o, d4);
        assert!(after_e4 > 0 && after_d4 < 0, "{after_e4} {after_d4}");
        assert!(!bad_e4 && bad_d4);
        o.use_continuation = false;
        assert_eq!(score_after(&mut o, e4).0, score_after(&mut o, d4).0);
    }

    #[test]
    fn the_move_before_gains_by_static_scores_and_by_fail_lows() {
        let (v, mut o, e4, d4) = chess_after_e4_or_d4(|o| o.keep_quiets = true);
        // Black's quiet move at ply 1 after `first` is recorded and made;
        // its score as the position before it sees it.
        let after = |o: &mut Ordering, first: Move, second: &str| {
            let mut p = v.start();
            o.record(&p, 0, Some(first));
            p.make(first);
            let m = p.parse_move(second).unwrap();
            let score = o.quiet_score(&p, 1, m);
            o.record(&p, 1, Some(m));
            score
        };
        after(&mut o, e4, "g8f6");
        o.eval_reward(2, 30);
        assert!(after(&mut o, d4, "g8f6") > 0, "from-to history for Nf6");
        // A fail-low after e4 Nf6 lifts Nf6's continuation after e4 only.
        after(&mut o, e4, "g8f6");
        o.prior_reward(2, 4, 2);
        let (by_e4, by_d4) = (after(&mut o, e4, "g8f6"), after(&mut o, d4, "g8f6"));
        assert!(by_e4 > by_d4, "{by_e4} {by_d4}");
        // A capture one ply up earns nothing.
        let mut p = Position::from_string(v.clone(), "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1").unwrap();
        let exd5 = p.parse_move("e4d5").unwrap();
        o.record(&p, 2, Some(exd5));
        p.make(exd5);
        let before = o.history.clone();
        o.eval_reward(3, 30);
        assert_eq!(o.history, before);
    }

    #[test]
    fn killers_and_history_order_quiet_moves() {
        let v = embedded::variant("chess").unwrap();
        let mut pos = v.start();
        let mut o = Ordering::new(4);
        o.reset(2, v.pieces.len(), v.geometry.size());
        let g4 = pos.parse_move("g2g4").unwrap();
        let a3 = pos.parse_move("a2a3").unwrap();
        let h3 = pos.parse_move("h2h3").unwrap();
        o.cutoff(&pos, 1, 5, g4, &[a3]);
        o.cutoff(&pos, 2, 3, h3, &[]);
        assert!(o.is_killer(1, g4) && !o.is_killer(1, h3));
        pos.legal_moves_into(&mut o.frames[1].moves);
        o.score(&pos, 1, None, &[0; 6], false);
        assert_eq!(o.frames[1].pick(0), g4);
        // h3 is no killer at ply 1 but has history; a3 lost some.
        assert_eq!(o.frames[1].pick(1), h3);
        let n = o.frames[1].len();
        let order: Vec<Move> = (0..n).map(|i| o.frames[1].pick(i)).collect();
        assert_eq!(order[n - 1], a3);
    }

    #[test]
    fn threats_lift_escapes_and_sink_moves_en_prise() {
        let v = embedded::variant("chess").unwrap();
        // A pawn attacks the Knight on d4; a5 is a pawn's too.
        let mut pos =
            Position::from_string(v.clone(), "4k3/8/1p6/4p3/3N4/8/8/R3K3 w - - 0 1").unwrap();
        let mut o = Ordering::new(4);
        o.reset(2, v.pieces.len(), v.geometry.size());
        pos.legal_moves_into(&mut o.frames[1].moves);
        let values = [0, 900, 500, 330, 320, 100];
        o.score(&pos, 1, None, &values, true);
        o.weigh_threats(&pos, 1, &values);
        let n = o.frames[1].len();
        let order: Vec<Move> = (0..n).map(|i| o.frames[1].pick(i)).collect();
        let d4 = pos.parse_move("d4b5").unwrap().from;
        // Every Knight move to a cell no pawn holds first, the Rook onto
        // a5 last.
        let escapes = order.iter().take_while(|m| m.from == d4).count();
        assert!(escapes >= 6, "{escapes} escapes first");
        assert_eq!(order[n - 1], pos.parse_move("a1a5").unwrap());
    }

    /// Chess with the continuation history (and what `setup` switches on),
    /// and its first moves e4 and d4.
    fn chess_after_e4_or_d4(
        setup: impl FnOnce(&mut Ordering),
    ) -> (
        std::sync::Arc<quadrille_engine::Variant>,
        Ordering,
        Move,
        Move,
    ) {
        let v = embedded::variant("chess").unwrap();
        let mut o = Ordering::new(4);
        o.use_continuation = true;
        setup(&mut o);
        o.reset(2, v.pieces.len(), v.geometry.size());
        let start = v.start();
        let (e4, d4) = (
            start.parse_move("e2e4").unwrap(),
            start.parse_move("d2d4").unwrap(),
        );
        (v, o, e4, d4)
    }

    #[test]
    fn the_counter_move_answers_the_move_before() {
        let (v, mut o, e4, d4) = chess_after_e4_or_d4(|o| o.use_counter = true);
        // The quiet moves at ply 1 after `first`, in order, with the
        // killers of ply 1 forgotten.
        let order_after = |o: &mut Ordering, first: Move| {
            let mut p = v.start();
            o.record(&p, 0, Some(first));
            p.make(first);
            o.killers[1] = [None; 2];
            p.legal_moves_into(&mut o.frames[1].moves);
            o.score(&p, 1, None, &[0; 6], false);
            let n = o.frames[1].len();
            let order: Vec<String> = (0..n)
                .map(|i| p.move_to_string(o.frames[1].pick(i)))
                .collect();
            (p, order)
        };
        // h6 cut the node after e4 once, with a history too small to lift
        // it (a4's after d4 is larger).
        let (p, _) = order_after(&mut o, e4);
        o.cutoff(&p, 1, 1, p.parse_move("h7h6").unwrap(), &[]);
        let (p, _) = order_after(&mut o, d4);
        o.cutoff(&p, 1, 4, p.parse_move("a7a6").unwrap(), &[]);
        let (_, after_e4) = order_after(&mut o, e4);
        assert_eq!(after_e4[0], "h7h6", "{after_e4:?}");
        let (_, after_d4) = order_after(&mut o, d4);
        assert_eq!(after_d4[0], "a7a6", "{after_d4:?}");
        o.use_counter = false;
        let (_, plain) = order_after(&mut o, e4);
        assert_eq!(plain[0], "a7a6", "{plain:?}");
    }

    #[test]
    fn the_far_continuation_reads_the_move_four_plies_up() {
        let v = embedded::variant("chess").unwrap();
        let mut o = Ordering::new(8);
        o.use_continuation = true;
        o.reset(2, v.pieces.len(), v.geometry.size());
        let mut p = v.start();
        for (ply, m) in ["g1f3", "g8f6", "b1c3", "b8c6"].into_iter().enumerate() {
            let m = p.parse_move(m).unwrap();
            o.record(&p, ply, Some(m));
            p.make(m);
        }
        let e4 = p.parse_move("e2e4").unwrap();
        assert_eq!(o.continuation_slots(&p, 4, e4).iter().flatten().count(), 2);
        o.continuation_far = true;
        let slots = o.continuation_slots(&p, 4, e4);
        assert_eq!(slots.iter().flatten().count(), 3);
        // The third entry is the one after Nf3, four plies up.
        let nf3 = o.played[0].unwrap() as usize;
        assert_eq!(
            slots[2],
            Some(nf3 * o.pieces_cells + o.piece_to(&p, e4).unwrap() as usize)
        );
    }
}
