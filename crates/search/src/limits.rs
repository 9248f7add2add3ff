//! What bounds a search (depth, nodes, time per move, a game clock, a stop
//! flag) and how a clock becomes a time budget for one move.

use crate::families;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The time left on the mover's clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Milliseconds left.
    pub remaining_ms: u64,
    /// Milliseconds added after each move.
    pub increment_ms: u64,
    /// Moves until the next time control, if the control has one.
    pub moves_to_go: Option<u32>,
}

/// Bounds for one search. Every bound given applies; with none the search
/// runs until stopped (or to the deepest depth).
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Deepest iteration (plies for two sides; layers for Best-Reply Search).
    pub depth: Option<u32>,
    /// Nodes to visit at most.
    pub nodes: Option<u64>,
    /// Milliseconds for this move.
    pub movetime: Option<u64>,
    /// A game clock to budget from.
    pub clock: Option<Clock>,
    /// Set from another thread to stop the search; it then returns the best
    /// move found so far.
    pub stop: Arc<AtomicBool>,
    /// Centipawns of random error added to every evaluation, at most (0
    /// for full strength): what makes the lowest levels beatable.
    pub noise: u32,
    /// Percent of the root moves hidden from the search, drawn anew each
    /// move (0 for full strength): a weak player overlooks some of its
    /// moves, captures and defences among them.
    pub hidden: u32,
    /// The level these bounds were made for ([`Limits::level`]): a
    /// variant with its own level table replaces `depth`, `noise` and
    /// `hidden` when the search starts ([`Limits::for_variant`]).
    pub level: Option<u8>,
}

/// One strength level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// The deepest iteration (`None`: as deep as the time allows).
    pub depth: Option<u32>,
    /// Random error in the evaluation, centipawns at most.
    pub noise: u32,
    /// Percent of the root moves overlooked ([`Limits::hidden`]).
    pub hidden: u32,
}

/// The levels, weakest first: one table for the web app and the CLI,
/// its steps measured by matches (docs/performance.md, "Levels").
pub const LEVEL_TABLE: [Level; LEVELS as usize] = [
    Level::capped(1, 250),
    Level::capped(2, 150),
    Level::capped(2, 40),
    Level::capped(3, 0),
    Level::capped(4, 0),
    Level::capped(6, 0),
    Level::capped(9, 0),
    Level {
        depth: None,
        noise: 0,
        hidden: 0,
    },
];

impl Level {
    /// A depth cap with up to `noise` centipawns of error, no move hidden.
    const fn capped(depth: u32, noise: u32) -> Level {
        Level {
            depth: Some(depth),
            noise,
            hidden: 0,
        }
    }
}

/// The variants that ship their own level table (measured steps,
/// docs/performance.md): `depth` and optionally `noise` and `hidden`,
/// eight of each; a family of four-player games shares one.
const SHIPPED_LEVELS: &[(&[&str], &str)] = &[
    (&["magna-carta"], include_str!("../levels/magna-carta.toml")),
    (families::PASS, FOUR_PLAYER_LEVELS),
    (families::MINI_FIVEQUARTERS, FOUR_PLAYER_LEVELS),
];

/// The one table of both four-player families (measured in each).
const FOUR_PLAYER_LEVELS: &str = include_str!("../levels/four-player.toml");

/// A level table as written in a variant's file.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct LevelFile {
    depth: [u32; LEVELS as usize],
    #[serde(default)]
    noise: [u32; LEVELS as usize],
    #[serde(default)]
    hidden: [u32; LEVELS as usize],
}

/// Reads a level table (`depth` 0: no cap).
fn parse_levels(text: &str) -> Result<[Level; LEVELS as usize], String> {
    let f: LevelFile = toml::from_str(text).map_err(|e| format!("level table: {e}"))?;
    if let Some(h) = f.hidden.iter().find(|&&h| h >= 100) {
        return Err(format!("level table: hidden {h}: a percent below 100"));
    }
    Ok(std::array::from_fn(|i| Level {
        depth: (f.depth[i] > 0).then_some(f.depth[i]),
        noise: f.noise[i],
        hidden: f.hidden[i],
    }))
}

/// The levels of the variant `name`: its own table if it ships one, else
/// [`LEVEL_TABLE`].
pub fn level_table(name: &str) -> [Level; LEVELS as usize] {
    SHIPPED_LEVELS
        .iter()
        .find(|(names, _)| names.contains(&name))
        .and_then(|(_, text)| parse_levels(text).ok())
        .unwrap_or(LEVEL_TABLE)
}

/// Time per move of a level where no clock or seat time is given (the
/// CLI): the depth bounds the lower levels long before.
pub const LEVEL_MOVETIME_MS: u64 = 2_500;

/// The deepest iteration any search runs.
pub const MAX_DEPTH: u32 = 64;

/// Number of levels of [`Limits::level`].
pub const LEVELS: u8 = 8;

impl Limits {
    /// No bound: search until `stop` is set.
    pub fn infinite() -> Limits {
        Limits::default()
    }

    /// To a fixed depth.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// A fixed number of nodes.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// A fixed time per move in milliseconds.
    pub fn movetime(ms: u64) -> Limits {
        Limits {
            movetime: Some(ms),
            ..Limits::default()
        }
    }

    /// A named strength from 1 (weakest) to 8 (full strength), from
    /// [`LEVEL_TABLE`], with [`LEVEL_MOVETIME_MS`] a move at most;
    /// out-of-range levels are clamped. Callers with their own time (the
    /// web app's seats, a clock) replace `movetime`.
    pub fn level(level: u8) -> Limits {
        let level = level.clamp(1, LEVELS);
        let l = LEVEL_TABLE[level as usize - 1];
        Limits {
            depth: l.depth,
            movetime: Some(LEVEL_MOVETIME_MS),
            noise: l.noise,
            hidden: l.hidden,
            level: Some(level),
            ..Limits::default()
        }
    }

    /// These bounds for the variant `name`: a level's depth, noise and
    /// hidden moves from the variant's own table where it ships one.
    pub fn for_variant(&self, name: &str) -> Limits {
        let mut limits = self.clone();
        if let Some(level) = self.level {
            let l = level_table(name)[level.clamp(1, LEVELS) as usize - 1];
            limits.depth = l.depth;
            limits.noise = l.noise;
            limits.hidden = l.hidden;
        }
        limits
    }

    /// The same bounds with another stop flag.
    pub fn with_stop(mut self, stop: Arc<AtomicBool>) -> Limits {
        self.stop = stop;
        self
    }

    /// Has someone asked the search to stop?
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// Time budget for one search, fixed when it starts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Budget {
    start: Instant,
    /// Do not start another iteration after this.
    soft: Option<Duration>,
    /// Stop searching at once after this.
    hard: Option<Duration>,
}

/// Time kept back for the program's own overhead (and the GUI's).
const OVERHEAD_MS: u64 = 15;

impl Budget {
    pub fn new(limits: &Limits) -> Budget {
        let mut soft: Option<u64> = None;
        let mut hard: Option<u64> = None;
        if let Some(ms) = limits.movetime {
            // A fixed time is used in full; a short one keeps a twentieth
            // back (a tenth left 100 ms a move at 83 ms on average, against
            // Fairy-Stockfish's 95: docs/performance.md, "Clock use").
            let h = ms.saturating_sub(OVERHEAD_MS.min(ms / 20));
            hard = Some(h);
            soft = Some(h);
        }
        if let Some(c) = limits.clock {
            let left = c.remaining_ms.saturating_sub(OVERHEAD_MS);
            let moves = c.moves_to_go.unwrap_or(30).clamp(1, 40) as u64;
            let target = (left / moves + c.increment_ms * 3 / 4).min(left / 2);
            let ceiling = (target * 4).min(left * 2 / 5);
            soft = Some(soft.map_or(target, |s| s.min(target)));
            hard = Some(hard.map_or(ceiling, |h| h.min(ceiling)));
        }
        Budget {
            start: Instant::now(),
            soft: soft.map(Duration::from_millis),
            hard: hard.map(Duration::from_millis),
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Is the hard limit reached?
    pub fn out_of_time(&self) -> bool {
        self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }

    /// Is there time for another iteration? An iteration takes a few times
    /// as long as the last one, so none starts after half the soft budget
    /// (scaled by `percent`: less when the best move has held for several
    /// iterations, more when it has just changed), except with a fixed time
    /// per move, which is spent in full.
    pub fn another_iteration(&self, fixed_time: bool, percent: u32) -> bool {
        match self.soft {
            None => true,
            Some(s) if fixed_time => self.start.elapsed() < s,
            Some(s) => self.start.elapsed() < s * percent / 200,
        }
    }
}

/// The share of the soft budget (percent) to spend when the best move has
/// held for `stable` iterations in a row (0: it changed in the last one).
pub(crate) fn stability_percent(stable: u32) -> u32 {
    match stable {
        0 => 150,
        1 => 115,
        2 => 95,
        _ => 75,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_grow_stronger() {
        let key = |l: Limits| (l.depth, l.noise, l.movetime);
        assert_eq!(key(Limits::level(0)), key(Limits::level(1)));
        assert_eq!(key(Limits::level(200)), key(Limits::level(LEVELS)));
        // The shared table and every variant's own.
        let mut tables = vec![LEVEL_TABLE];
        for (names, text) in SHIPPED_LEVELS {
            let t = parse_levels(text).unwrap_or_else(|e| panic!("{names:?}: {e}"));
            for name in *names {
                assert_eq!(level_table(name), t, "{name}");
            }
            assert_ne!(t, LEVEL_TABLE, "{names:?}");
            tables.push(t);
        }
        for t in tables {
            // Each level searches deeper, or as deep with less error and
            // fewer moves overlooked (a deeper level may overlook more:
            // its step is measured).
            for w in t.windows(2) {
                let depth = |l: &Level| l.depth.unwrap_or(u32::MAX);
                let deeper = depth(&w[1]) > depth(&w[0]);
                let clearer = (w[1].noise, w[1].hidden) != (w[0].noise, w[0].hidden)
                    && w[1].noise <= w[0].noise
                    && w[1].hidden <= w[0].hidden;
                assert!(deeper || depth(&w[1]) == depth(&w[0]) && clearer, "{w:?}");
            }
            assert_eq!(
                t[LEVELS as usize - 1],
                Level {
                    depth: None,
                    noise: 0,
                    hidden: 0
                }
            );
        }
        let top = Limits::level(LEVELS);
        assert_eq!((top.depth, top.noise), (None, 0));
    }

    #[test]
    fn a_variants_own_levels_replace_depth_noise_and_hidden() {
        let weakest = Limits::level(1);
        let mc = weakest.for_variant("magna-carta");
        assert_eq!((mc.depth, mc.noise), (Some(2), 400));
        assert_eq!(mc.movetime, weakest.movetime);
        for name in ["tor-aikou", "sylvia"] {
            let top = Limits::level(LEVELS - 1).for_variant(name);
            assert_eq!(
                (top.depth, top.noise, top.hidden),
                (Some(3), 0, 0),
                "{name}"
            );
            let low = weakest.for_variant(name);
            assert_eq!(
                (low.depth, low.noise, low.hidden),
                (Some(1), 0, 75),
                "{name}"
            );
        }
        let chess = weakest.for_variant("chess");
        assert_eq!((chess.depth, chess.noise), (weakest.depth, weakest.noise));
        // Bounds not made from a level are left alone.
        let d = Limits::depth(1).for_variant("magna-carta");
        assert_eq!((d.depth, d.noise), (Some(1), 0));
        assert!(parse_levels("depth = [1]\nnoise = [0]").is_err());
        // `noise` and `hidden` may be left out (none); `depth` may not.
        let depth_only = parse_levels("depth = [2, 2, 2, 3, 4, 6, 9, 0]").unwrap();
        assert_eq!((depth_only[0].depth, depth_only[0].noise), (Some(2), 0));
        assert_eq!((depth_only[7].depth, depth_only[7].hidden), (None, 0));
        assert!(parse_levels("noise = [0, 0, 0, 0, 0, 0, 0, 0]").is_err());
        let all_hidden = "depth = [1, 1, 1, 1, 1, 1, 1, 0]\nnoise = [0, 0, 0, 0, 0, 0, 0, 0]\n\
            hidden = [100, 0, 0, 0, 0, 0, 0, 0]";
        assert!(parse_levels(all_hidden).unwrap_err().contains("hidden 100"));
    }

    #[test]
    fn clock_budget_stays_inside_the_clock() {
        let limits = Limits {
            clock: Some(Clock {
                remaining_ms: 60_000,
                increment_ms: 1_000,
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        let b = Budget::new(&limits);
        let soft = b.soft.unwrap().as_millis() as u64;
        let hard = b.hard.unwrap().as_millis() as u64;
        assert!((1_000..=5_000).contains(&soft), "{soft}");
        assert!(hard >= soft && hard <= 24_000, "{hard}");
        // Nearly flagged: still a little time, never more than is left.
        let low = Limits {
            clock: Some(Clock {
                remaining_ms: 100,
                ..Clock::default()
            }),
            ..Limits::default()
        };
        let b = Budget::new(&low);
        assert!(b.hard.unwrap().as_millis() <= 100);
    }
}
