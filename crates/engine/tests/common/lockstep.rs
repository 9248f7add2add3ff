//! Walking the engine and an independent reference generator in lockstep
//! (the Avon, Mini Fivequarters and Pass comparisons): at every node the
//! positions both reached and their sorted legal move lists must agree.

use quadrille_engine::Position;

/// A reference generator's position, as the walk needs it.
pub trait Reference: Sized {
    type Move;
    /// The legal moves.
    fn legal_moves(&self) -> Vec<Self::Move>;
    /// A move written as the engine writes it.
    fn text(m: &Self::Move) -> String;
    /// The position after a legal move.
    fn after(&self, m: &Self::Move) -> Self;
    /// How the engine's position differs from this one; `None` when they
    /// are the same.
    fn differs_from(&self, eng: &Position) -> Option<String>;

    /// The legal moves as sorted texts.
    fn legal_texts(&self) -> Vec<String> {
        let mut v: Vec<String> = self.legal_moves().iter().map(Self::text).collect();
        v.sort();
        v
    }

    /// The position after the legal move written `text`, if there is one.
    fn play(&self, text: &str) -> Option<Self> {
        self.legal_moves()
            .iter()
            .find(|m| Self::text(m) == text)
            .map(|m| self.after(m))
    }

    /// Number of legal move sequences of `depth` plies.
    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|m| self.after(m).perft(depth - 1)).sum()
    }
}

/// Compares the positions and the legal moves at one node; `None` when
/// they agree.
pub fn node_difference<R: Reference>(eng: &mut Position, rp: &R) -> Option<String> {
    let fen = eng.to_string();
    if let Some(d) = rp.differs_from(eng) {
        return Some(format!("at `{fen}`: positions differ\n{d}"));
    }
    let em = super::legal(eng);
    let rm = rp.legal_texts();
    if em != rm {
        return Some(format!(
            "at `{fen}`:\n  engine only:    {:?}\n  reference only: {:?}",
            em.iter().filter(|m| !rm.contains(m)).collect::<Vec<_>>(),
            rm.iter().filter(|m| !em.contains(m)).collect::<Vec<_>>()
        ));
    }
    None
}

/// Walks both trees to `depth`, comparing every node; returns the move
/// path to the first difference and the difference. Counts the nodes
/// compared in `nodes`.
pub fn first_difference<R: Reference>(
    eng: &mut Position,
    rp: &R,
    depth: u32,
    nodes: &mut u64,
) -> Option<String> {
    *nodes += 1;
    if let Some(d) = node_difference(eng, rp) {
        return Some(d);
    }
    if depth <= 1 {
        return None;
    }
    for m in rp.legal_moves() {
        let text = R::text(&m);
        eng.play(&text)
            .unwrap_or_else(|e| panic!("{text} in {eng}: {e}"));
        let d = first_difference(eng, &rp.after(&m), depth - 1, nodes);
        eng.unmake();
        if let Some(d) = d {
            return Some(format!("{text} {d}"));
        }
    }
    None
}

/// SplitMix64: a small deterministic generator for random games.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// What a family's random games need beyond [`Reference`]: when the game
/// is over, and what the engine must then say.
pub trait Walk: Reference + Clone {
    /// The reference's game is over.
    fn game_over(&self) -> bool;
    /// Compares the engine's outcome at the end with the reference's
    /// (reason, ranking, scores); `Err` with the difference.
    fn check_end(&self, eng: &Position) -> Result<(), String>;
}

/// The engine's outcome must be over by `reason` with this ranking.
pub fn check_outcome(
    eng: &Position,
    reason: quadrille_engine::EndReason,
    ranking: &[Vec<usize>],
) -> Result<(), String> {
    let o = eng.outcome().ok_or("the engine's game is not over")?;
    if o.reason != reason {
        return Err(format!("the engine ends it by {:?}", o.reason));
    }
    if o.ranking != ranking {
        return Err(format!(
            "ranking: engine {:?}, reference {ranking:?}",
            o.ranking
        ));
    }
    Ok(())
}

/// One random game's settings: its seed, length and how often perft is
/// compared (depth 2 every `perft_every` plies from `perft_from`, depth 3
/// where the ply is also a multiple of `deep_every`).
pub struct Game {
    pub seed: u64,
    pub max_plies: usize,
    pub perft_every: usize,
    pub perft_from: usize,
    pub deep_every: usize,
}

/// What every family counts.
#[derive(Debug, Default, Clone, Copy)]
pub struct Counts {
    pub games: u64,
    pub plies: u64,
    pub perft_checks: u64,
    pub perft_nodes: u64,
    pub games_ended: u64,
    /// Games where the engine's draw rules (repetition, the no-progress
    /// counter: not in the rules texts) would have ended the game; the
    /// game goes on, the move lists do not depend on them.
    pub draws_by_rule: u64,
}

impl Counts {
    pub fn add(&mut self, o: &Counts) {
        self.games += o.games;
        self.plies += o.plies;
        self.perft_checks += o.perft_checks;
        self.perft_nodes += o.perft_nodes;
        self.games_ended += o.games_ended;
        self.draws_by_rule += o.draws_by_rule;
    }
}

/// Picks a random game's next move from the reference's legal moves;
/// `None` ends the game.
pub type Chooser<'a, R> =
    dyn FnMut(&R, &[<R as Reference>::Move], &mut Rng) -> Option<<R as Reference>::Move> + 'a;

/// Plays one seeded random game in the engine and the reference in
/// lockstep from their starts, comparing every position and move list,
/// perft as `game` says, and the outcome at the end. `choose` picks the
/// next move from the reference's legal moves (`None` ends the game
/// early); `played` sees each move with the positions before and after
/// (for the family's own counters). Returns the first difference, with the
/// game's seed and moves.
pub fn random_game<R: Walk>(
    label: &str,
    mut eng: Position,
    mut rp: R,
    game: &Game,
    counts: &mut Counts,
    choose: &mut Chooser<'_, R>,
    played: &mut dyn FnMut(&R, &R::Move, &R),
) -> Option<String> {
    let mut rng = Rng(game.seed);
    let mut line: Vec<String> = Vec::new();
    let ctx =
        |line: &[String]| format!("{label} game seed {}, moves {}", game.seed, line.join(" "));
    counts.games += 1;
    let mut drawn = false;
    for ply in 0..=game.max_plies {
        if let Some(d) = node_difference(&mut eng, &rp) {
            return Some(format!("{}:\n{d}", ctx(&line)));
        }
        if ply % game.perft_every == game.perft_from {
            let depth = if ply % game.deep_every == 0 { 3 } else { 2 };
            let (e, r) = (eng.perft(depth), rp.perft(depth));
            if e != r {
                return Some(format!(
                    "{}: perft({depth}) at `{eng}`: engine {e}, reference {r}",
                    ctx(&line)
                ));
            }
            counts.perft_checks += 1;
            counts.perft_nodes += r;
        }
        if rp.game_over() {
            if let Err(d) = rp.check_end(&eng) {
                return Some(format!("{}: {d}", ctx(&line)));
            }
            counts.games_ended += 1;
            return None;
        }
        if let Some(o) = eng.outcome() {
            if !matches!(
                o.reason,
                quadrille_engine::EndReason::Repetition | quadrille_engine::EndReason::NoProgress
            ) {
                return Some(format!(
                    "{}: unexpected outcome {o:?} at `{eng}`",
                    ctx(&line)
                ));
            }
            if !drawn {
                counts.draws_by_rule += 1;
                drawn = true;
            }
        }
        if ply == game.max_plies {
            return None;
        }
        let moves = rp.legal_moves();
        let m = choose(&rp, &moves, &mut rng)?;
        let text = R::text(&m);
        if let Err(e) = eng.play(&text) {
            return Some(format!(
                "{}: engine refuses {text} at `{eng}`: {e}",
                ctx(&line)
            ));
        }
        let next = rp.after(&m);
        played(&rp, &m, &next);
        rp = next;
        line.push(text);
        counts.plies += 1;
    }
    None
}
