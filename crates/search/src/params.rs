//! Every margin and constant of the search in one table, so that self-play
//! can vary them (`search:tune=name:value` in `quadrille match` and
//! `selfplay`) and docs/performance.md can say which values were measured.

use crate::ordering::MAX_BONUS;

/// The search's tunable numbers. [`Params::default`] is the engine as
/// shipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// Reverse futility: a node this far above beta per ply of depth (one
    /// ply less when improving) is cut, at depths up to `rfp_depth`.
    pub rfp_margin: i32,
    pub rfp_depth: i32,
    /// Futility: a quiet move is skipped when the static score plus
    /// `futility_base + futility_margin * depth` stays below alpha.
    pub futility_base: i32,
    pub futility_margin: i32,
    pub futility_depth: i32,
    /// Late move pruning: at depth `d` up to `lmp_depth`, quiet moves after
    /// the first `lmp_base + d * d` (halved when not improving) are
    /// skipped. Off (depth 0): it lost in self-play (docs/performance.md).
    pub lmp_base: i32,
    pub lmp_depth: i32,
    /// Late move pruning spares moves that give check (0 no, 1 yes).
    pub lmp_checks: i32,
    /// Futility, history and continuation pruning spare quiet moves that
    /// give check (0 no, 1 yes; Stockfish's futility never prunes a check,
    /// which can mate the side that seemed far ahead).
    pub spare_checks: i32,
    /// Null move: reduction `null_base + depth / null_depth_div`, plus
    /// one per `null_eval_div` centipawns above beta (at most 3).
    pub null_base: i32,
    pub null_depth_div: i32,
    pub null_eval_div: i32,
    /// The null move is tried from this remaining depth on (Stockfish
    /// tries it at every depth; its reduction then drops straight into
    /// quiescence).
    pub null_depth: i32,
    /// Late move reductions: `lmr_base + ln(depth) ln(move) / lmr_div`
    /// (both in hundredths).
    pub lmr_base: i32,
    pub lmr_div: i32,
    /// Late move reductions start at this move (counted from 0, the first
    /// searched; Stockfish's from the second, 1).
    pub lmr_move: i32,
    /// History score (of [`crate::ordering`]'s range) worth one ply of
    /// reduction more or less.
    pub lmr_history_div: i32,
    /// Plies of reduction more at a node expected to fail high (a cut
    /// node: a null-window child of a late move or of a PV node's).
    pub lmr_cut_node: i32,
    /// Moves that give check are reduced like the others (0 no, 1 yes, 2
    /// only those whose piece can be taken at a loss by static exchange).
    pub lmr_checks: i32,
    /// Plies of reduction more for quiet moves where the table's move is a
    /// capture (Stockfish's `ttCapture`: the quiet ones rarely do better).
    pub lmr_tt_capture: i32,
    /// Plies less reduction at a node that is or was on the principal line
    /// (the table remembers which were: Stockfish's `ttPv`), unless a PV
    /// node's table entry already failed low as deep (0 off).
    pub lmr_tt_pv: i32,
    /// Captures and promotions are reduced too where the node is expected
    /// to fail high or even the victim's value leaves the static score
    /// below alpha (Stockfish's; 0 off, 1 on).
    pub lmr_captures: i32,
    /// After a reduced search beat alpha, its re-search goes a ply deeper
    /// where it beat the best score so far by more than `lmr_deeper + 2 *
    /// depth` centipawns and a ply shallower where by less than a fifth of
    /// `lmr_deeper` (Stockfish's `doDeeperSearch`; 0 off).
    pub lmr_deeper: i32,
    /// After that re-search the move's continuation history rises where it
    /// beat beta and falls where it failed low (Stockfish's post-LMR
    /// update; 0 off, 1 on).
    pub lmr_post_history: i32,
    /// Use the table's score, where its bound allows, as a better static
    /// score for the pruning decisions (0 off, 1 on, 2 also for
    /// quiescence's standing pat, where `q_table` reads the table).
    pub tt_eval: i32,
    /// Razoring: a node not on the principal line whose static score lies
    /// more than this many centipawns times depth² below alpha is judged by
    /// quiescence, and left when that stays below alpha (0 off).
    pub razor_margin: i32,
    /// Singular extension from this depth on (0 off): the table's move is
    /// searched a ply deeper when every other move fails low against its
    /// stored score minus `singular_margin` centipawns per ply of depth,
    /// and the node is cut when even without it a move beats beta.
    pub singular_depth: i32,
    pub singular_margin: i32,
    /// A singular table move is searched two plies deeper (off the
    /// principal line) when the others fail this many centipawns below
    /// the test's bound (0 off).
    pub singular_double: i32,
    /// Plies less for a table move the test finds not alone while its
    /// stored score beats beta (Stockfish's negative extension; 0 off).
    pub singular_negative: i32,
    /// History pruning: at depths up to `history_prune_depth`, a quiet
    /// move whose history is below `-history_prune * depth` is skipped.
    pub history_prune_depth: i32,
    pub history_prune: i32,
    /// Continuation history: quiet moves are also ordered by how they
    /// fared after the same piece-and-cell moves one and two plies up
    /// (0 off, 1 on, 2 also four plies up, as Stockfish's).
    pub continuation: i32,
    /// Counter moves (with the continuation history, which records the
    /// moves made): the quiet move that last cut a node reached by the
    /// same piece-and-cell move is tried after the killers (0 off, 1 on).
    pub counter_move: i32,
    /// A quiet best move of a node that raised alpha without a cutoff (a
    /// principal-line node's) earns the history bonus and becomes a
    /// killer, as a cutoff does (Stockfish's; 0 off, 1 on).
    pub history_raised: i32,
    /// Continuation pruning: a quiet move searched (after its reduction)
    /// less than this deep is skipped when its continuation history is
    /// below zero (0 off).
    pub continuation_prune: i32,
    /// History bonus of a cutoff (and malus of the quiet moves tried
    /// before it) per ply of depth (0: depth squared, which gives shallow
    /// cutoffs little weight), at most `history_cap` (at most
    /// [`MAX_BONUS`], which sets a score to its bound at once).
    pub history_bonus: i32,
    pub history_cap: i32,
    /// Futility and static-exchange pruning of quiet moves judge by the
    /// depth left after the move's late move reduction (0 no, 1 yes).
    pub prune_lmr_depth: i32,
    /// Quiescence: delta pruning margin above the victim's value.
    pub delta_margin: i32,
    /// A capturer this much more valuable than a defended victim is a bad
    /// capture.
    pub bad_capture_margin: i32,
    /// Static exchange: at depths up to `see_depth` (0: no static
    /// exchange at all, the older bad-capture test instead), captures
    /// losing more than `see_capture_margin * depth` and quiet moves
    /// losing more than `see_quiet_margin * depth * depth` are skipped.
    pub see_depth: i32,
    pub see_capture_margin: i32,
    pub see_quiet_margin: i32,
    /// Check extension: 0 none, 1 every node in check searched a ply
    /// deeper, 2 only checking moves that do not lose material by static
    /// exchange.
    pub check_extension: i32,
    /// Mode 1 extends a node in check only from this depth on (counted at
    /// the node, before the extension): near the leaves checks are many
    /// where royal Queens and Marshals give them (0: at every depth).
    pub check_ext_depth: i32,
    /// Nodes in check are pruned and reduced like the others (static
    /// score, reverse futility, futility, static exchange and late move
    /// pruning, late move reductions; never the null move): 0 no, 1 yes,
    /// 2 and quiescence stands on the static score in check too.
    /// Where most attacks on a royal piece are checks (Magna Carta's
    /// royal Queen), a quarter of the nodes are in check.
    pub check_nodes: i32,
    /// With a clock, spend less time when the best move has held for
    /// several iterations and more when it has just changed (0 off, 1 on).
    pub time_stability: i32,
    /// With a clock, the share (percent) of the usual time budget to spend
    /// on a move: an iteration starts only before half of it is gone.
    pub time_use: i32,
    /// Correction history ([`crate::correction`]): the static score is
    /// corrected by what searches of positions with the same pawns found,
    /// by this many centipawns at most (0 off).
    pub correction: i32,
    /// Captures are also ordered by how the same piece taking the same
    /// kind on the same cell has fared (capture history; 0 off, 1 on).
    pub capture_history: i32,
    /// Captures that lose material by static exchange are tried after the
    /// quiet moves instead of before them (0 no, 1 yes, 2 and reduced by
    /// late move reductions like quiet moves), as in Stockfish.
    pub bad_captures_last: i32,
    /// Quiescence reads and writes the transposition table (0 no, 1 yes).
    pub q_table: i32,
    /// Quiescence answers a check with every evasion (instead of standing
    /// on the static score) for its first this many plies (eight lost
    /// -109 Elo in Magna Carta, one was even: docs/performance.md).
    pub q_evasions: i32,
    /// Quiescence also tries, in its first this many plies (0 off), the
    /// quiet moves that give check and lose nothing by static exchange
    /// (Stockfish's checks at quiescence's first ply; off: +7 (-17 ..
    /// +31) in 500 chess games, docs/performance.md).
    pub q_checks: i32,
    /// ProbCut: at a node of depth 5 or more not on the principal line, a
    /// capture whose search four plies shallower beats beta by this margin
    /// (centipawns; 0 off) cuts the node.
    pub probcut_margin: i32,
    /// From this depth on, quiet moves are ordered also by the material
    /// they save or lose by moving (`Ordering::weigh_threats`; 0 off).
    pub quiet_threats: i32,
    /// A ply more reduction for late moves where more than this many
    /// nodes of the next ply failed high since the node's parent began
    /// (Stockfish's `cutoffCnt`: the moves here are likely refuted; 0 off).
    pub lmr_cutoffs: i32,
    /// The null move also asks the static score (not only the table's
    /// refinement of it) to be at least `beta - 16 * depth + null_static`
    /// (Stockfish's `staticEval >= beta - 20 * depth + 233` at its Pawn's
    /// scale; 0 off).
    pub null_static: i32,
    /// A late quiet move whose piece stands where the hostile armies win
    /// material by taking it is reduced `lmr_escape` plies less, except at
    /// expected cut nodes (Stockfish's "moves that escape a capture"; 0 off).
    pub lmr_escape: i32,
    /// Late moves are reduced a ply less where the parent node has tried
    /// more than `lmr_parent_moves` moves (Stockfish's `(ss-1)->moveCount >
    /// 14`: the parent's good moves ran out, this node is likely to fail
    /// high; 0 off).
    pub lmr_parent_moves: i32,
    /// Internal iterative reduction: a node without a table move from
    /// depth `iir_depth` on (0 off) is searched shallower, being likely
    /// new. `iir_nodes` says where: 0 every node, a ply; 1 nodes on the
    /// principal line and expected cut nodes, a ply (Stockfish 15's); 2
    /// nodes on the principal line only, two plies (Fairy-Stockfish's).
    pub iir_depth: i32,
    pub iir_nodes: i32,
    /// Late move, futility, history and continuation, and static-exchange
    /// pruning of the moves after the first apply at nodes on the
    /// principal line too, as in Stockfish (0 off: there every move is
    /// searched; 2 and there late move pruning spares moves that give
    /// check, as `lmp_checks` does everywhere: with 1 a defender searched
    /// four plies missed a quiet mate in one against it).
    pub pv_prune: i32,
    /// The quiet move one ply up gains from-to history as the static
    /// score after it is better for its mover than the one before it:
    /// `-(before + after) * depth * eval_history / 16`, at most 36 either
    /// way (Stockfish's `-4 * depth * (before + after)` within 1000 on its
    /// scale; 0 off).
    pub eval_history: i32,
    /// Where a node fails low from depth 3 (any depth on the principal
    /// line), the quiet move one ply up gains continuation history: this
    /// many cutoffs' bonuses, one more at principal-line and expected cut
    /// nodes (Stockfish's 1 and 2; 0 off).
    pub prior_bonus: i32,
    /// The move number late move pruning and reductions go by counts
    /// every legal move reached, the pruned ones too, as Stockfish's
    /// `moveCount` (0: only the moves searched).
    pub move_count: i32,
    /// Late quiet moves at the root, from this one on (counted from 0, the
    /// best of the last iteration), are reduced as at a principal-line
    /// node below, and searched again in full where they beat alpha (0
    /// off: every root move full depth; Fairy-Stockfish's from 3).
    pub root_lmr: i32,
    /// The root keeps its static score for the nodes two plies down to
    /// judge `improving` by (0: it keeps none, and they compare with 0).
    pub root_eval: i32,
    /// Where the table's move is quiet and was extended as singular, the
    /// node's other moves are reduced `lmr_singular` plies less
    /// (Stockfish's `singularQuietLMR`: the node's best is already found,
    /// its alternatives are the principal line's insurance; 0 off).
    pub lmr_singular: i32,
    /// Where the singular test finds the table's move not alone while its
    /// stored score beats beta, the node is searched again without it at
    /// about half depth against beta itself, and cut where another move
    /// holds beta (Fairy-Stockfish's second multi-cut; 0 off).
    pub singular_recut: i32,
    /// The null move is not tried where the quiet move that led to the
    /// node scores above this in history (Stockfish's `(ss-1)->statScore <
    /// 23767`: a move that so often cut is likely a threat; 0 off).
    pub null_history: i32,
    /// Quiescence outside check searches at most this many captures a
    /// node, then only those that give check or promote (Stockfish's
    /// `moveCount > 2`; 0 off: every capture not pruned otherwise).
    pub q_moves: i32,
    /// Quiescence outside check skips the captures that win nothing by
    /// static exchange where the static score plus this margin stays at
    /// or below alpha (Stockfish's `futilityBase <= alpha && !see_ge(move,
    /// 1)`, its margin 155 of its units; 0 off).
    pub q_futility: i32,
    /// A table cutoff teaches the move order as a searched cutoff would
    /// (Stockfish's): a quiet table move whose score holds beta earns a
    /// cutoff's bonus, one that failed low a malus; with 2 also an early
    /// quiet move one ply up (its parent's first or second) loses
    /// continuation history where the table move holds beta (0 off).
    pub tt_history: i32,
    /// A late move whose reduction comes out below -1 (a history far
    /// above the reductions' own) among a node's first five is searched a
    /// ply deeper than the others (Stockfish's `newDepth + (r < -1 &&
    /// moveCount <= 5)`; 0 off: a reduction is never below zero).
    pub lmr_extend: i32,
    /// Aspiration window: first half-width, and the depth it starts at.
    pub aspiration_delta: i32,
    pub aspiration_depth: i32,
    /// Parameters set by the user (bits by index in the name list): a
    /// variant's own values leave them alone.
    explicit: u128,
}

/// How many parameters [`Params::fields`] names: `explicit` keeps a bit
/// for each, so a parameter past 128 needs a wider mask (checked here
/// rather than by a shift that overflows at run time).
const COUNT: usize = 78;
const _: () = assert!(COUNT <= u128::BITS as usize);

/// The variants that ship their own search parameters (measured by
/// self-play, docs/performance.md).
const SHIPPED: &[(&str, &str)] = &[
    ("chess", include_str!("../params/chess.toml")),
    ("magna-carta", include_str!("../params/magna-carta.toml")),
];

impl Default for Params {
    fn default() -> Self {
        Params {
            rfp_margin: 90,
            rfp_depth: 6,
            futility_base: 80,
            futility_margin: 100,
            futility_depth: 5,
            lmp_base: 3,
            lmp_depth: 0,
            lmp_checks: 0,
            spare_checks: 0,
            null_base: 3,
            null_depth_div: 3,
            null_eval_div: 200,
            null_depth: 3,
            lmr_base: 75,
            lmr_div: 225,
            lmr_move: 2,
            lmr_history_div: 8192,
            lmr_cut_node: 0,
            lmr_checks: 0,
            lmr_tt_capture: 0,
            lmr_tt_pv: 0,
            lmr_captures: 0,
            lmr_deeper: 0,
            lmr_post_history: 0,
            tt_eval: 0,
            razor_margin: 0,
            singular_depth: 0,
            singular_margin: 2,
            singular_double: 0,
            singular_negative: 0,
            history_prune_depth: 0,
            history_prune: 2000,
            continuation: 0,
            continuation_prune: 0,
            counter_move: 0,
            history_raised: 0,
            history_bonus: 0,
            history_cap: 400,
            prune_lmr_depth: 0,
            delta_margin: 200,
            bad_capture_margin: 50,
            see_depth: 6,
            see_capture_margin: 100,
            see_quiet_margin: 30,
            check_extension: 1,
            check_ext_depth: 0,
            check_nodes: 0,
            time_stability: 0,
            time_use: 100,
            correction: 0,
            q_table: 0,
            q_evasions: 2,
            q_checks: 0,
            capture_history: 0,
            bad_captures_last: 0,
            probcut_margin: 0,
            quiet_threats: 0,
            lmr_cutoffs: 0,
            null_static: 0,
            lmr_escape: 0,
            lmr_parent_moves: 0,
            iir_depth: 6,
            iir_nodes: 0,
            pv_prune: 0,
            eval_history: 0,
            prior_bonus: 0,
            move_count: 0,
            root_lmr: 0,
            root_eval: 0,
            lmr_singular: 0,
            singular_recut: 0,
            null_history: 0,
            q_moves: 0,
            q_futility: 0,
            tt_history: 0,
            lmr_extend: 0,
            aspiration_delta: 30,
            aspiration_depth: 5,
            explicit: 0,
        }
    }
}

impl Params {
    /// Applies a setting written `name:value`.
    pub fn apply(&mut self, setting: &str) -> Result<(), String> {
        let (name, value) = setting
            .split_once(':')
            .ok_or_else(|| format!("search parameter `{setting}`: expected name:value"))?;
        let value = value.parse().map_err(|_| {
            format!("search parameter `{setting}`: `{value}` is not a whole number")
        })?;
        self.set(name, value)
    }

    /// Every parameter by name (the field's), the one list that names them.
    fn fields(&mut self) -> [(&'static str, &mut i32); COUNT] {
        [
            ("rfp_margin", &mut self.rfp_margin),
            ("rfp_depth", &mut self.rfp_depth),
            ("futility_base", &mut self.futility_base),
            ("futility_margin", &mut self.futility_margin),
            ("futility_depth", &mut self.futility_depth),
            ("lmp_base", &mut self.lmp_base),
            ("lmp_depth", &mut self.lmp_depth),
            ("lmp_checks", &mut self.lmp_checks),
            ("spare_checks", &mut self.spare_checks),
            ("null_base", &mut self.null_base),
            ("null_depth_div", &mut self.null_depth_div),
            ("null_eval_div", &mut self.null_eval_div),
            ("null_depth", &mut self.null_depth),
            ("lmr_base", &mut self.lmr_base),
            ("lmr_div", &mut self.lmr_div),
            ("lmr_move", &mut self.lmr_move),
            ("lmr_history_div", &mut self.lmr_history_div),
            ("lmr_cut_node", &mut self.lmr_cut_node),
            ("lmr_checks", &mut self.lmr_checks),
            ("lmr_tt_capture", &mut self.lmr_tt_capture),
            ("lmr_tt_pv", &mut self.lmr_tt_pv),
            ("lmr_captures", &mut self.lmr_captures),
            ("lmr_deeper", &mut self.lmr_deeper),
            ("lmr_post_history", &mut self.lmr_post_history),
            ("tt_eval", &mut self.tt_eval),
            ("razor_margin", &mut self.razor_margin),
            ("singular_depth", &mut self.singular_depth),
            ("singular_margin", &mut self.singular_margin),
            ("singular_double", &mut self.singular_double),
            ("singular_negative", &mut self.singular_negative),
            ("history_prune_depth", &mut self.history_prune_depth),
            ("history_prune", &mut self.history_prune),
            ("continuation", &mut self.continuation),
            ("continuation_prune", &mut self.continuation_prune),
            ("counter_move", &mut self.counter_move),
            ("history_raised", &mut self.history_raised),
            ("history_bonus", &mut self.history_bonus),
            ("history_cap", &mut self.history_cap),
            ("prune_lmr_depth", &mut self.prune_lmr_depth),
            ("delta_margin", &mut self.delta_margin),
            ("bad_capture_margin", &mut self.bad_capture_margin),
            ("see_depth", &mut self.see_depth),
            ("see_capture_margin", &mut self.see_capture_margin),
            ("see_quiet_margin", &mut self.see_quiet_margin),
            ("check_extension", &mut self.check_extension),
            ("check_ext_depth", &mut self.check_ext_depth),
            ("check_nodes", &mut self.check_nodes),
            ("time_stability", &mut self.time_stability),
            ("time_use", &mut self.time_use),
            ("correction", &mut self.correction),
            ("q_table", &mut self.q_table),
            ("q_evasions", &mut self.q_evasions),
            ("q_checks", &mut self.q_checks),
            ("capture_history", &mut self.capture_history),
            ("bad_captures_last", &mut self.bad_captures_last),
            ("probcut_margin", &mut self.probcut_margin),
            ("quiet_threats", &mut self.quiet_threats),
            ("lmr_cutoffs", &mut self.lmr_cutoffs),
            ("null_static", &mut self.null_static),
            ("lmr_escape", &mut self.lmr_escape),
            ("lmr_parent_moves", &mut self.lmr_parent_moves),
            ("iir_depth", &mut self.iir_depth),
            ("iir_nodes", &mut self.iir_nodes),
            ("pv_prune", &mut self.pv_prune),
            ("eval_history", &mut self.eval_history),
            ("prior_bonus", &mut self.prior_bonus),
            ("move_count", &mut self.move_count),
            ("root_lmr", &mut self.root_lmr),
            ("root_eval", &mut self.root_eval),
            ("lmr_singular", &mut self.lmr_singular),
            ("singular_recut", &mut self.singular_recut),
            ("null_history", &mut self.null_history),
            ("q_moves", &mut self.q_moves),
            ("q_futility", &mut self.q_futility),
            ("tt_history", &mut self.tt_history),
            ("lmr_extend", &mut self.lmr_extend),
            ("aspiration_delta", &mut self.aspiration_delta),
            ("aspiration_depth", &mut self.aspiration_depth),
        ]
    }

    /// Sets the parameter `name` (a field name) to `value`, as the user's
    /// choice (a variant's own value no longer replaces it).
    pub fn set(&mut self, name: &str, value: i32) -> Result<(), String> {
        let i = self.put(name, value)?;
        self.explicit |= 1 << i;
        Ok(())
    }

    /// These values, every one as the user's choice: a variant's own
    /// values replace none of them (to search with the table alone).
    pub fn chosen(mut self) -> Params {
        self.explicit = u128::MAX;
        self
    }

    /// Sets a parameter; its index in [`Params::fields`].
    fn put(&mut self, name: &str, value: i32) -> Result<usize, String> {
        // Divisors must stay positive (a depth of 0 turns a pruning off).
        if value < 1 && name.ends_with("_div") {
            return Err(format!("search parameter `{name}` must be at least 1"));
        }
        // A larger bonus would overshoot the history's bound.
        if matches!(name, "history_bonus" | "history_cap") && !(0..=MAX_BONUS).contains(&value) {
            return Err(format!(
                "search parameter `{name}` must be within 0 ..= {MAX_BONUS}"
            ));
        }
        let (i, (_, field)) = self
            .fields()
            .into_iter()
            .enumerate()
            .find(|(_, (n, _))| *n == name)
            .ok_or_else(|| format!("no search parameter `{name}`"))?;
        *field = value;
        Ok(i)
    }

    /// These parameters with a variant's own values (a file of `name =
    /// value` lines, `crates/search/params/NAME.toml`) where the user did
    /// not choose.
    pub fn for_variant_text(&self, text: &str) -> Result<Params, String> {
        let table: std::collections::BTreeMap<String, i32> =
            toml::from_str(text).map_err(|e| format!("search parameters: {e}"))?;
        let mut p = *self;
        for (name, value) in table {
            let before = p;
            let i = p.put(&name, value)?;
            if self.explicit >> i & 1 != 0 {
                p = before;
            }
        }
        Ok(p)
    }

    /// These parameters with the values the variant ships, if any (see
    /// [`Params::for_variant_text`]).
    pub fn for_variant(&self, name: &str) -> Params {
        SHIPPED
            .iter()
            .find(|(n, _)| *n == name)
            .and_then(|(_, text)| self.for_variant_text(text).ok())
            .unwrap_or(*self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_set_by_name() {
        let mut p = Params::default();
        p.set("lmp_base", 5).unwrap();
        assert_eq!(p.lmp_base, 5);
        assert!(p.set("lmr_div", 0).is_err());
        assert!(p.set("nonsense", 1).is_err());
        assert!(p.set("history_cap", 513).is_err());
        p.apply("rfp_margin:70").unwrap();
        assert_eq!(p.rfp_margin, 70);
        assert!(p.apply("rfp_margin=70").is_err());
        assert!(p.apply("rfp_margin:x").is_err());
        assert_eq!(p.lmr_div, Params::default().lmr_div);
    }

    #[test]
    fn a_variants_values_fill_in_what_the_user_left() {
        let mut p = Params::default();
        p.set("rfp_depth", 4).unwrap();
        let q = p
            .for_variant_text("rfp_depth = 7\nlmp_depth = 8\n")
            .unwrap();
        assert_eq!((q.rfp_depth, q.lmp_depth), (4, 8));
        assert!(p.for_variant_text("lmp_dept = 8").is_err());
        assert!(p.for_variant_text("lmr_div = 0").is_err());
        assert_eq!(Params::default().for_variant("avon"), Params::default());
        let chosen = Params::default().chosen();
        assert_eq!(chosen.for_variant("chess"), chosen);
    }

    #[test]
    fn shipped_parameters_read() {
        for (name, text) in SHIPPED {
            let p = Params::default().for_variant_text(text);
            assert!(p.is_ok_and(|p| p != Params::default()), "{name}");
        }
    }
}
