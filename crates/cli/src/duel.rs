//! `match`: Quadrille against a UCI engine (Fairy-Stockfish) or against
//! another Quadrille configuration, in any variant with two armies.
//! Games come in pairs (one opening from the variant's book, each side
//! playing both colours), every move is judged by our engine, clocks are
//! kept here, and the results are W/D/L, pentanomial pair counts, Elo with
//! a 95 % interval and, if asked, an SPRT that stops the match on its own.

use quadrille_engine::{Position, Variant};
use quadrille_protocol::uci_client::{Go, UciEngine};
use quadrille_search::arena::{random_opening, Kind, Mover};
use quadrille_search::stats::{Decision, Pentanomial, Sprt};
use quadrille_search::{result_for, Clock, Contender, Limits, Searcher, Weights};
use std::cmp::Ordering as CmpOrdering;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A time control.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// Milliseconds per move.
    PerMove(u64),
    /// Fischer clock: milliseconds at the start and added per move.
    Fischer { base_ms: u64, inc_ms: u64 },
    /// Whatever limits each player's own settings give (depth, nodes).
    Own,
    /// The same number of plies for both players: compares evaluations and
    /// trees apart from speed (`depth=N`).
    Depth(u32),
    /// The same number of nodes a move for both players (`nodes=N`; an
    /// external engine by `go nodes N`): like a time per move where the
    /// engines search alike numbers of nodes a second, but the moves do not
    /// depend on the machine's load.
    Nodes(u64),
}

impl TimeControl {
    /// Whether the moves depend on nothing but the position: under a node
    /// or depth bound (and `own`, where the players' own bounds and an
    /// external engine's depth 8 rule) a repeated opening replays the same
    /// two games, which add no information to the score.
    pub fn replays(&self) -> bool {
        matches!(
            self,
            TimeControl::Own | TimeControl::Depth(_) | TimeControl::Nodes(_)
        )
    }

    /// `100ms` (or `movetime=100`), `10+0.1` (seconds + seconds), `own`,
    /// `depth=N`, `nodes=N`.
    pub fn parse(s: &str) -> Result<TimeControl, String> {
        let bad = || {
            format!("time control `{s}`: expected e.g. 100ms, 10+0.1, own, depth=8 or nodes=100000")
        };
        let s = s.trim();
        if s == "own" {
            return Ok(TimeControl::Own);
        }
        if let Some(d) = s.strip_prefix("depth=") {
            return match d.parse() {
                Ok(d) if d > 0 => Ok(TimeControl::Depth(d)),
                _ => Err(bad()),
            };
        }
        if let Some(n) = s.strip_prefix("nodes=") {
            return match n.parse() {
                Ok(n) if n > 0 => Ok(TimeControl::Nodes(n)),
                _ => Err(bad()),
            };
        }
        if let Some(ms) = s.strip_suffix("ms").or_else(|| s.strip_prefix("movetime=")) {
            return ms.parse().map(TimeControl::PerMove).map_err(|_| bad());
        }
        let (base, inc) = s.split_once('+').ok_or_else(bad)?;
        let secs = |x: &str| {
            x.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
                .map(|v| (v * 1000.0).round() as u64)
                .ok_or_else(bad)
        };
        Ok(TimeControl::Fischer {
            base_ms: secs(base)?,
            inc_ms: secs(inc)?,
        })
    }
}

/// A player of the match, as given on the command line: a Quadrille
/// contender (`search:...`, `greedy`, `random`) or `uci:PROGRAM [ARGS]`
/// with its options (`uci:quadrille uci` plays another build of ours).
#[derive(Clone, Debug)]
pub enum PlayerSpec {
    /// Our search, with evaluation weights read from a file where the
    /// spec names one (`search:weights=PATH,...`).
    Quadrille(Contender, Option<Box<Weights>>),
    Uci {
        program: String,
        options: Vec<(String, String)>,
    },
}

impl PlayerSpec {
    /// Reads a player of variant `v` (whose weights a `weights=` file
    /// must fit).
    pub fn parse(spec: &str, options: &[String], v: &Variant) -> Result<PlayerSpec, String> {
        let options = options
            .iter()
            .map(|o| {
                o.split_once('=')
                    .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
                    .ok_or_else(|| format!("engine option `{o}`: expected NAME=VALUE"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        match spec.strip_prefix("uci:") {
            Some(program) => Ok(PlayerSpec::Uci {
                program: program.to_string(),
                options,
            }),
            None if options.is_empty() => {
                // `weights=PATH` is read here (the search crate does no I/O).
                let mut weights = None;
                let mut rest = Vec::new();
                let (kind, settings) = spec.split_once(':').unwrap_or((spec, ""));
                for item in settings.split(',').filter(|s| !s.is_empty()) {
                    match item.strip_prefix("weights=") {
                        Some(path) => {
                            let w = quadrille_protocol::weights_file::read(path, v)
                                .map_err(|e| format!("`{spec}`: {e}"))?;
                            weights = Some(Box::new(w));
                        }
                        None => rest.push(item),
                    }
                }
                let plain = if rest.is_empty() {
                    kind.to_string()
                } else {
                    format!("{kind}:{}", rest.join(","))
                };
                if weights.is_some() && kind != "search" {
                    return Err(format!("`{spec}`: only `search` takes weights"));
                }
                let mut c = Contender::parse(&plain)?;
                c.name = spec.to_string();
                Ok(PlayerSpec::Quadrille(c, weights))
            }
            None => Err(format!("`{spec}`: only a uci: player takes engine options")),
        }
    }

    fn name(&self) -> String {
        match self {
            PlayerSpec::Quadrille(c, _) => c.name.clone(),
            PlayerSpec::Uci { program, .. } => format!("uci:{program}"),
        }
    }
}

/// A player during the match (one per worker thread and side).
enum Player {
    /// The search, with its own limits (the time control is added).
    Search(Box<(Searcher, Limits)>),
    /// A random or greedy baseline.
    Baseline(Box<Mover>),
    Uci(Box<UciEngine>),
}

impl Player {
    fn start(spec: &PlayerSpec) -> Result<Player, String> {
        Ok(match spec {
            PlayerSpec::Quadrille(c, weights) => match &c.kind {
                Kind::Search { options, limits } => {
                    let mut searcher = Searcher::new(**options);
                    searcher.set_weights(weights.as_deref().cloned());
                    Player::Search(Box::new((searcher, limits.clone())))
                }
                _ => Player::Baseline(Box::new(c.mover(1))),
            },
            PlayerSpec::Uci { program, options } => {
                // `uci:PROGRAM ARGS...`, e.g. `uci:quadrille uci`.
                let mut words = program.split_whitespace().map(String::from);
                let path = words.next().ok_or("uci: without a program")?;
                let args: Vec<String> = words.collect();
                Player::Uci(Box::new(UciEngine::start(&path, &args, options)?))
            }
        })
    }

    fn new_game(&mut self) -> Result<(), String> {
        match self {
            Player::Search(q) => {
                q.0.clear();
                Ok(())
            }
            Player::Baseline(_) => Ok(()),
            Player::Uci(e) => e.new_game(),
        }
    }

    /// The move text chosen in `pos` (reached from `start` by `moves`).
    fn choose(
        &mut self,
        start: &Position,
        moves: &[String],
        pos: &Position,
        tc: TimeControl,
        clocks: [u64; 2],
    ) -> Result<String, String> {
        let army = pos.army_to_move() as usize;
        match self {
            Player::Search(q) => {
                let (searcher, own) = &mut **q;
                let mut limits = own.clone();
                match tc {
                    TimeControl::PerMove(ms) => limits.movetime = Some(ms),
                    TimeControl::Fischer { inc_ms, .. } => {
                        limits.clock = Some(Clock {
                            remaining_ms: clocks[army],
                            increment_ms: inc_ms,
                            moves_to_go: None,
                        })
                    }
                    TimeControl::Depth(d) => limits.depth = Some(d),
                    TimeControl::Nodes(n) => limits.nodes = Some(n),
                    TimeControl::Own => {}
                }
                let m = searcher.best_move(pos, &limits).best;
                m.map(|m| pos.move_to_string(m))
                    .ok_or_else(|| "Quadrille found no move".to_string())
            }
            Player::Baseline(mover) => mover
                .choose(pos)
                .map(|m| pos.move_to_string(m))
                .ok_or_else(|| "Quadrille found no move".to_string()),
            Player::Uci(e) => {
                let (go, timeout) = match tc {
                    TimeControl::PerMove(ms) => (Go::MoveTime(ms), ms + 5_000),
                    TimeControl::Fischer { inc_ms, .. } => (
                        Go::Clock {
                            wtime: clocks[0],
                            btime: clocks[1],
                            winc: inc_ms,
                            binc: inc_ms,
                        },
                        clocks[army] + 5_000,
                    ),
                    TimeControl::Depth(d) => (Go::Depth(d), 600_000),
                    TimeControl::Nodes(n) => (Go::Nodes(n), 600_000),
                    TimeControl::Own => (Go::Depth(8), 600_000),
                };
                e.best_move(
                    &start.to_string(),
                    moves,
                    go,
                    Duration::from_millis(timeout),
                )
            }
        }
    }
}

/// How one game ended, for player A.
#[derive(Clone, Debug)]
pub struct GameEnd {
    /// 1, 1/2 or 0 for A.
    pub score: f64,
    pub reason: String,
    pub plies: usize,
    /// A move the engine refused (the mover loses).
    pub illegal: Option<String>,
    /// The moves played.
    pub moves: Vec<String>,
    /// Players A and B's thinking time.
    pub thinking: [Thinking; 2],
}

/// One player's thinking time in a game.
#[derive(Clone, Copy, Debug, Default)]
pub struct Thinking {
    /// Milliseconds spent choosing moves, and the moves chosen.
    pub ms: u64,
    pub moves: u64,
    /// With a clock: milliseconds left on it when the game ended.
    pub clock_left: Option<u64>,
}

/// Settings of a match.
pub struct Settings {
    pub a: PlayerSpec,
    pub b: PlayerSpec,
    pub tc: TimeControl,
    /// Games to play at most (rounded up to whole pairs).
    pub games: usize,
    pub concurrency: usize,
    pub max_plies: usize,
    /// Time a clock may run over before the flag falls (process start-up
    /// and pipe latency of external engines).
    pub margin_ms: u64,
    pub sprt: Option<Sprt>,
    pub openings: Vec<String>,
    pub seed: u64,
    pub quiet: bool,
    /// File to write every game to (a line each).
    pub record: Option<std::path::PathBuf>,
}

/// Plays one game from `start`; `a_army` is the army player A moves.
fn play_game(
    start: &Position,
    players: [&mut Player; 2],
    a_army: u8,
    s: &Settings,
) -> Result<GameEnd, String> {
    let [pa, pb] = players;
    pa.new_game()?;
    pb.new_game()?;
    let mut pos = start.clone();
    let mut moves: Vec<String> = Vec::new();
    let (mut clocks, inc) = match s.tc {
        TimeControl::Fischer { base_ms, inc_ms } => ([base_ms; 2], inc_ms),
        _ => ([u64::MAX / 4; 2], 0),
    };
    let a_score = |result: CmpOrdering| match result {
        CmpOrdering::Less => 1.0,
        CmpOrdering::Equal => 0.5,
        CmpOrdering::Greater => 0.0,
    };
    let mut thinking = [Thinking::default(); 2];
    let (score, reason, illegal) = loop {
        if let Some(o) = pos.outcome() {
            let score = a_score(result_for(&o, pos.variant(), a_army));
            break (score, format!("{:?}", o.reason), None);
        }
        if moves.len() >= s.max_plies {
            break (0.5, "ply limit".into(), None);
        }
        let army = pos.army_to_move();
        let mover_is_a = army == a_army;
        let player = if mover_is_a { &mut *pa } else { &mut *pb };
        let t = Instant::now();
        let text = player.choose(start, &moves, &pos, s.tc, clocks)?;
        let used = t.elapsed().as_millis() as u64;
        let think = &mut thinking[!mover_is_a as usize];
        think.ms += used;
        think.moves += 1;
        let loss_for_mover = if mover_is_a { 0.0 } else { 1.0 };
        if let TimeControl::Fischer { .. } = s.tc {
            let c = &mut clocks[army as usize];
            if used > *c + s.margin_ms {
                break (loss_for_mover, "time forfeit".into(), None);
            }
            *c = c.saturating_sub(used) + inc;
        }
        match pos.parse_move(&text) {
            Ok(m) => {
                moves.push(pos.move_to_string(m));
                pos.make(m);
            }
            Err(e) => {
                let illegal = format!("`{text}` in {pos}: {e}");
                break (loss_for_mover, "illegal move".into(), Some(illegal));
            }
        }
    };
    if let TimeControl::Fischer { .. } = s.tc {
        thinking[0].clock_left = Some(clocks[a_army as usize]);
        thinking[1].clock_left = Some(clocks[1 - a_army as usize]);
    }
    Ok(GameEnd {
        score,
        reason,
        plies: moves.len(),
        illegal,
        moves,
        thinking,
    })
}

/// One line of the record file: the opening, the players of the first
/// and second army, the result for the first army (`1-0`, `1/2-1/2`,
/// `0-1`), how it ended, and the moves.
fn write_game(
    out: &mut impl std::io::Write,
    opening: &Position,
    g: &GameEnd,
    a_army: u8,
    s: &Settings,
) -> Result<(), String> {
    let (first, second, first_score) = if a_army == 0 {
        (s.a.name(), s.b.name(), g.score)
    } else {
        (s.b.name(), s.a.name(), 1.0 - g.score)
    };
    let result = result_text(first_score);
    writeln!(
        out,
        "{opening}\t{first}\t{second}\t{result}\t{}\t{}",
        g.reason,
        g.moves.join(" ")
    )
    .map_err(|e| format!("record: {e}"))
}

/// A game's result as text from one side's score (1, 1/2 or 0).
fn result_text(score: f64) -> &'static str {
    match score {
        x if x > 0.75 => "1-0",
        x if x < 0.25 => "0-1",
        _ => "1/2-1/2",
    }
}

/// The tally of a match.
#[derive(Default)]
struct Tally {
    wins: u64,
    draws: u64,
    losses: u64,
    pairs: Pentanomial,
    illegal: Vec<String>,
    reasons: std::collections::BTreeMap<String, u64>,
    plies: usize,
    games: u64,
    /// Players A and B's thinking over all games: milliseconds, moves, and
    /// the clock left at the ends added up.
    think_ms: [u64; 2],
    think_moves: [u64; 2],
    clock_left_ms: [u64; 2],
    /// The SPRT's first verdict, if it has decided.
    decision: Decision,
}

impl Tally {
    fn add(&mut self, g: &GameEnd) {
        self.games += 1;
        self.plies += g.plies;
        match result_text(g.score) {
            "1-0" => self.wins += 1,
            "0-1" => self.losses += 1,
            _ => self.draws += 1,
        }
        *self.reasons.entry(g.reason.clone()).or_default() += 1;
        self.illegal.extend(g.illegal.clone());
        for (i, t) in g.thinking.iter().enumerate() {
            self.think_ms[i] += t.ms;
            self.think_moves[i] += t.moves;
            self.clock_left_ms[i] += t.clock_left.unwrap_or(0);
        }
    }

    /// Average thinking time per move of each player, and with a clock
    /// what was left of it at the end (to the millisecond: a Fischer clock
    /// keeps at least its increment, which a tenth of a second hides).
    fn time_line(&self, clock: bool) -> String {
        let per_move = |i: usize| self.think_ms[i] / self.think_moves[i].max(1);
        let mut line = format!("time per move: A {} ms, B {} ms", per_move(0), per_move(1));
        if clock {
            let left = |i: usize| self.clock_left_ms[i] as f64 / 1000.0 / self.games.max(1) as f64;
            line += &format!(
                "; clock left at the end: A {:.3} s, B {:.3} s",
                left(0),
                left(1)
            );
        }
        line
    }

    fn line(&self, sprt: Option<&Sprt>) -> String {
        let score = (self.wins as f64 + self.draws as f64 / 2.0) / self.games.max(1) as f64;
        let mut l = format!(
            "games {}: +{} ={} -{}  score {:.1}%  Elo {}  pairs {:?}",
            self.games,
            self.wins,
            self.draws,
            self.losses,
            score * 100.0,
            self.pairs.elo().text(),
            self.pairs.0
        );
        if let Some(t) = sprt {
            let (lo, hi) = t.bounds();
            l.push_str(&format!(
                "  LLR {:.2} ({lo:.2}, {hi:.2}) [{}, {}]",
                self.pairs.llr(t.elo0, t.elo1),
                t.elo0,
                t.elo1
            ));
        }
        l
    }
}

/// Plays the match and prints the running and final results.
pub fn run(start: Position, s: &Settings) -> Result<(), String> {
    let v = start.variant().clone();
    if v.armies.len() != 2 {
        return Err(format!(
            "{}: match needs two armies (use selfplay for four-player games)",
            v.name
        ));
    }
    let openings: Vec<Position> = if s.openings.is_empty() {
        vec![start.clone()]
    } else {
        s.openings
            .iter()
            .enumerate()
            .map(|(i, f)| {
                Position::from_string(v.clone(), f)
                    .map_err(|e| format!("opening {}: `{f}`: {e}", i + 1))
            })
            .collect::<Result<_, _>>()?
    };
    let mut pairs = s.games.div_ceil(2);
    if s.tc.replays() && !s.openings.is_empty() && pairs > openings.len() {
        // Counting a replayed game again would only narrow the interval.
        pairs = openings.len();
        outln!(
            "the book has {pairs} openings and {:?} replays a game exactly: {} games at most (a larger book: `quadrille book --count`)",
            s.tc,
            2 * pairs
        );
    }
    outln!(
        "match {}: {} vs {}, {} pairs, {:?}, {} openings, {} at a time",
        v.name,
        s.a.name(),
        s.b.name(),
        pairs,
        s.tc,
        openings.len(),
        s.concurrency
    );
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let tally = Mutex::new(Tally::default());
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let record = match &s.record {
        Some(path) => Some(Mutex::new(
            std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?,
        )),
        None => None,
    };
    let mut rng = fastrand::Rng::with_seed(s.seed);
    let mut order: Vec<usize> = (0..openings.len()).collect();
    rng.shuffle(&mut order);
    let order = Arc::new(order);
    std::thread::scope(|scope| {
        for _ in 0..s.concurrency.max(1) {
            scope.spawn(|| {
                let worker = || -> Result<(), String> {
                    let mut a = Player::start(&s.a)?;
                    let mut b = Player::start(&s.b)?;
                    loop {
                        let pair = next.fetch_add(1, Ordering::Relaxed);
                        if pair >= pairs || stop.load(Ordering::Relaxed) {
                            return Ok(());
                        }
                        let opening = &openings[order[pair % order.len()]];
                        // With only the start position, vary it a little.
                        let opening = if s.openings.is_empty() {
                            random_opening(opening, 4, s.seed.wrapping_add(pair as u64))
                        } else {
                            opening.clone()
                        };
                        let first = opening.army_to_move();
                        let g1 = play_game(&opening, [&mut a, &mut b], first, s)?;
                        let g2 = play_game(&opening, [&mut a, &mut b], 1 - first, s)?;
                        if let Some(file) = &record {
                            let mut f = file.lock().map_err(|_| "record poisoned")?;
                            for (g, a_army) in [(&g1, first), (&g2, 1 - first)] {
                                write_game(&mut *f, &opening, g, a_army, s)?;
                            }
                        }
                        let mut t = tally.lock().map_err(|_| "tally poisoned")?;
                        t.add(&g1);
                        t.add(&g2);
                        t.pairs.add_pair(g1.score, g2.score);
                        if !s.quiet {
                            eprintln!("{}", t.line(s.sprt.as_ref()));
                        }
                        if let Some(x) = s.sprt {
                            let llr = t.pairs.llr(x.elo0, x.elo1);
                            let games = t.games as usize;
                            if t.decision.note(x.judge(llr), games, llr) {
                                stop.store(true, Ordering::Relaxed);
                            }
                        }
                    }
                };
                if let Err(e) = worker() {
                    stop.store(true, Ordering::Relaxed);
                    if let Ok(mut f) = failure.lock() {
                        f.get_or_insert(e);
                    }
                }
            });
        }
    });
    let t = tally.into_inner().map_err(|_| "tally poisoned")?;
    outln!("{}", t.line(s.sprt.as_ref()));
    outln!(
        "{} (A) scored {:.1}% against {} (B); average length {:.0} plies",
        s.a.name(),
        t.pairs.score() * 100.0,
        s.b.name(),
        t.plies as f64 / t.games.max(1) as f64
    );
    let reasons: Vec<String> = t.reasons.iter().map(|(r, n)| format!("{r} {n}")).collect();
    outln!("endings: {}", reasons.join(", "));
    let clock = matches!(s.tc, TimeControl::Fischer { .. });
    outln!("{}", t.time_line(clock));
    if let Some(sprt) = &s.sprt {
        let verdict = t.decision.describe(sprt.verdict(&t.pairs));
        outln!("SPRT [{}, {}]: {verdict}", sprt.elo0, sprt.elo1);
    }
    outln!("illegal moves: {}", t.illegal.len());
    for i in &t.illegal {
        outln!("illegal: {i}");
    }
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    if !t.illegal.is_empty() {
        return Err(format!("{} illegal moves", t.illegal.len()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        assert_eq!(TimeControl::parse("100ms"), Ok(TimeControl::PerMove(100)));
        assert_eq!(
            TimeControl::parse("movetime=250"),
            Ok(TimeControl::PerMove(250))
        );
        assert_eq!(
            TimeControl::parse("10+0.1"),
            Ok(TimeControl::Fischer {
                base_ms: 10_000,
                inc_ms: 100
            })
        );
        assert_eq!(TimeControl::parse("own"), Ok(TimeControl::Own));
        assert_eq!(TimeControl::parse("depth=9"), Ok(TimeControl::Depth(9)));
        assert!(TimeControl::parse("depth=0").is_err());
        assert!(TimeControl::parse("depth=x").is_err());
        assert_eq!(
            TimeControl::parse("nodes=100000"),
            Ok(TimeControl::Nodes(100_000))
        );
        for bad in ["nodes=0", "nodes=-5", "nodes=1e5", "nodes="] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
        for bad in ["", "10", "x+1", "1+-1", "fastms", "inf+0"] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn player_specs() {
        let v = quadrille_engine::embedded::variant("chess").unwrap();
        let parse = |spec: &str, options: &[String]| PlayerSpec::parse(spec, options, &v);
        let p = parse("uci:/bin/fsf", &["UCI_Variant=magnacarta".into()]).unwrap();
        let PlayerSpec::Uci { program, options } = p else {
            panic!("a UCI player");
        };
        assert_eq!(program, "/bin/fsf");
        assert_eq!(options, vec![("UCI_Variant".into(), "magnacarta".into())]);
        assert!(parse("search:depth=2", &[]).is_ok());
        assert!(parse("search:depth=2", &["Hash=1".into()]).is_err());
        assert!(parse("uci:x", &["novalue".into()]).is_err());
    }
}
