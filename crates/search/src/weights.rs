//! The evaluation's weights: piece values and the scale of each term. The
//! defaults are derived from the variant alone (values from mobility); a
//! variant may ship learnt weights (`crates/search/weights/NAME.toml`, made
//! by `quadrille tune`), embedded in the binary. A variant loaded from a
//! user's file without weights plays with the derived ones.
//!
//! File format (TOML), every key optional:
//!
//! ```toml
//! # quadrille tune chess: 40000 positions from 800 games ...
//! centre = 100      # percent of the derived centralisation tables
//! promotion = 100   # percent of the derived road-to-promotion tables
//! mobility = 4      # centipawns per move of a non-pawn, non-royal piece
//! mobility_share = 0 # besides: centipawns for a piece's usual number of
//!                   # moves, so a move counts more for a short-range piece
//! shelter = 12      # per own piece next to a royal piece (three count)
//! tropism = 10      # per enemy piece near a royal piece, times (3 - distance)
//! tempo = 10        # for the player to move (two sides)
//! # The terms below are off (0) unless a file sets them: each was kept
//! # only where a match measured a gain (docs/performance.md).
//! passed = 100      # percent of the road-to-promotion bonus a passed pawn adds
//! supported = 8     # per pawn attacked (defended) by a pawn of its army
//! pawn_threat = 40  # per hostile non-pawn piece attacked by a pawn
//! hanging = 15      # per hostile piece attacked and not defended
//! king_attack = 2   # per attack on the cells around a hostile royal piece,
//!                   # times the number of pieces attacking there (four count)
//! king_danger = 80  # percent of the quadratic royal danger: attackers,
//!                   # attacks and undefended cells near a royal piece, safe
//!                   # checks, less without the hostile strongest piece
//! storm = 10        # per hostile pawn in front of a royal piece (on the
//!                   # span its own pawn would have there) within three
//!                   # king steps, twice within two, in the middle game
//! passed_king = 35  # percent of Stockfish's royal race in the end game:
//!                   # a passed pawn gains as the hostile royal piece is
//!                   # far from it and its own is near, more the closer it
//!                   # is to promoting
//! pair = 40         # per type bound to one colour of cells (a Bishop)
//!                   # that an army has on both colours
//! open_file = 20    # per piece sliding along a file, not a diagonal (a Rook), on a file
//!                   # without pawns; half on one without its own pawns
//! outpost = 30      # per minor piece that only leaps (a Knight) on a cell
//!                   # two to four pawn moves from promoting, defended by a
//!                   # pawn of its army and safe from every hostile pawn's
//!                   # advance; half for a minor piece that slides (a Bishop)
//! isolated = 5      # per pawn without a pawn of its army on the files
//!                   # beside its own, in the middle game; twice in the end
//! doubled = 10      # per pawn with a pawn of its army ahead on its file,
//!                   # in the middle game; twice in the end
//! phalanx = 10      # per pawn with a pawn of its army level with it on a
//!                   # file beside its own (Stockfish's phalanx)
//! lesser_threat = 30 # per hostile piece, royal ones aside, attacked by a
//!                   # non-pawn piece worth less (a Knight on a Rook)
//! danger_more = 100 # percent of the royal danger's further parts (with
//!                   # king_danger): checks from guarded cells, attacks on
//!                   # and defence of the cells within two royal steps, the
//!                   # mobility difference, a Knight defending, a constant
//! danger_pins = 100 # percent of the royal danger's 98 per piece, of any
//!                   # army, alone between a royal piece and a hostile
//!                   # rider (pinned, or able to uncover a check)
//! danger_attackers = 100 # percent of Stockfish's weighing of the pieces
//!                   # attacking a royal zone (their count times the sum
//!                   # of weights that fall with their values) in place of
//!                   # a flat 50 per piece
//! safe_mobility = 1 # moves to cells a hostile pawn attacks do not count
//!                   # for mobility (Stockfish's mobility area); 0 counts them
//! [values]          # centipawns per piece letter
//! P = 100
//! [pst]             # learnt piece-square tables (`tune --pst`): per piece
//!                   # letter and player number, the middle-game bonus of
//!                   # every cell, then the end-game bonus of every cell
//! P0 = [0, 0, ...]
//! [mobility_tables] # learnt mobility (`tune --pst --activity`): per piece
//!                   # letter, the middle-game bonus for 0, 1, ... 31 or more
//!                   # moves, then the end-game bonuses
//! N = [-20, -12, ...]
//! [threats]         # learnt threats: per attacker and victim letter, the
//!                   # middle-game bonus when the attacker's side waits
//!                   # (victim undefended, defended), then when it is to
//!                   # move (undefended, defended), then the same end game
//! NQ = [40, 30, 90, 70, 30, 20, 80, 60]
//! ```

use quadrille_engine::Variant;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Entries per phase of a learnt mobility table: 0 .. 31 moves (more
/// count as 31).
pub const MOBILITY_BUCKETS: usize = 32;
/// Entries per phase of a learnt threat: the attacker's side waiting or
/// to move, times the victim undefended or defended.
pub const THREAT_KINDS: usize = 4;

/// Tunable weights of the evaluation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Weights {
    pub centre: i32,
    pub promotion: i32,
    pub mobility: i32,
    pub mobility_share: i32,
    pub shelter: i32,
    pub tropism: i32,
    pub tempo: i32,
    pub passed: i32,
    pub supported: i32,
    pub pawn_threat: i32,
    pub hanging: i32,
    pub king_attack: i32,
    pub king_danger: i32,
    pub storm: i32,
    pub passed_king: i32,
    pub pair: i32,
    pub open_file: i32,
    pub outpost: i32,
    pub isolated: i32,
    pub doubled: i32,
    pub phalanx: i32,
    pub lesser_threat: i32,
    pub danger_more: i32,
    pub danger_pins: i32,
    pub danger_attackers: i32,
    pub safe_mobility: i32,
    /// Piece values by letter; missing letters keep the derived value.
    /// (Last: a TOML table follows the plain values.)
    pub values: BTreeMap<String, i32>,
    /// Learnt piece-square tables by piece letter and player number
    /// (`"P0"`): the middle-game bonus of each cell, then the end-game
    /// bonus of each cell (centipawns), added to the derived tables and
    /// blended by the game phase. Empty: none.
    pub pst: BTreeMap<String, Vec<i32>>,
    /// Learnt mobility by piece letter: the middle-game bonus for each
    /// number of moves ([`MOBILITY_BUCKETS`]), then the end-game ones.
    pub mobility_tables: BTreeMap<String, Vec<i32>>,
    /// Learnt threats by attacker and victim letters (`"NQ"`): per phase
    /// (middle game first) the [`THREAT_KINDS`] bonuses of the attacker's
    /// army.
    pub threats: BTreeMap<String, Vec<i32>>,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            values: BTreeMap::new(),
            pst: BTreeMap::new(),
            mobility_tables: BTreeMap::new(),
            threats: BTreeMap::new(),
            centre: 100,
            promotion: 100,
            mobility: 4,
            mobility_share: 0,
            shelter: 12,
            tropism: 10,
            tempo: 10,
            passed: 0,
            supported: 0,
            pawn_threat: 0,
            hanging: 0,
            king_attack: 0,
            king_danger: 0,
            storm: 0,
            passed_king: 0,
            pair: 0,
            open_file: 0,
            outpost: 0,
            isolated: 0,
            doubled: 0,
            phalanx: 0,
            lesser_threat: 0,
            danger_more: 0,
            danger_pins: 0,
            danger_attackers: 0,
            safe_mobility: 0,
        }
    }
}

/// The shipped weights files, by variant name.
const SHIPPED: &[(&str, &str)] = &[
    ("chess", include_str!("../weights/chess.toml")),
    ("magna-carta", include_str!("../weights/magna-carta.toml")),
];

impl Weights {
    /// The piece letter a `values` key names (one character).
    pub fn letter(key: &str) -> Option<char> {
        let mut chars = key.chars();
        let c = chars.next()?;
        chars.next().is_none().then_some(c)
    }

    /// The piece letter and player number a `pst` key names (`"P0"`).
    pub fn pst_key(key: &str) -> Option<(char, usize)> {
        let mut chars = key.chars();
        let letter = chars.next()?;
        let player = chars.as_str().parse().ok()?;
        Some((letter, player))
    }

    /// The attacker and victim letters a `threats` key names (`"NQ"`).
    pub fn threat_key(key: &str) -> Option<(char, char)> {
        let mut chars = key.chars();
        let pair = (chars.next()?, chars.next()?);
        chars.next().is_none().then_some(pair)
    }

    /// Drops the learnt tables: piece-square, mobility and threats (what
    /// `Terms::pst` off measures without).
    pub fn clear_tables(&mut self) {
        self.pst.clear();
        self.mobility_tables.clear();
        self.threats.clear();
    }

    /// Does every key name a piece (and player) of `v`, and every table
    /// have its size (piece-square tables: the cells twice)?
    pub fn fits(&self, v: &Variant) -> bool {
        let piece = |c: char| v.piece_by_letter(c).is_some();
        self.values
            .keys()
            .all(|l| Weights::letter(l).is_some_and(piece))
            && self.pst.iter().all(|(key, table)| {
                Weights::pst_key(key).is_some_and(|(c, p)| piece(c) && p < v.players.len())
                    && table.len() == 2 * v.geometry.size()
            })
            && self.mobility_tables.iter().all(|(key, table)| {
                Weights::letter(key).is_some_and(piece) && table.len() == 2 * MOBILITY_BUCKETS
            })
            && self.threats.iter().all(|(key, table)| {
                Weights::threat_key(key).is_some_and(|(a, b)| piece(a) && piece(b))
                    && table.len() == 2 * THREAT_KINDS
            })
    }

    /// The value given for a letter, if any.
    pub fn value(&self, letter: char) -> Option<i32> {
        self.values
            .get(letter.encode_utf8(&mut [0; 4]) as &str)
            .copied()
    }

    /// Reads a weights file.
    pub fn from_toml(text: &str) -> Result<Weights, String> {
        toml::from_str(text).map_err(|e| format!("weights: {e}"))
    }

    /// The file text (with a comment line first).
    pub fn to_toml(&self, comment: &str) -> Result<String, String> {
        let body = toml::to_string(self).map_err(|e| format!("weights: {e}"))?;
        Ok(format!("# {comment}\n{body}"))
    }

    /// The weights a variant ships with, or the defaults. A shipped file
    /// that names a letter the variant lacks (or tables of another size)
    /// is ignored as a whole (a user's variant of the same name is
    /// another game).
    pub fn for_variant(v: &Variant) -> Weights {
        SHIPPED
            .iter()
            .find(|(name, _)| *name == v.name)
            .and_then(|(_, text)| Weights::from_toml(text).ok())
            .filter(|w| w.fits(v))
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quadrille_engine::embedded;

    #[test]
    fn shipped_weights_read_and_fit_their_variants() {
        for (name, text) in SHIPPED {
            let w = Weights::from_toml(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            let v = embedded::variant(name).unwrap();
            assert_eq!(Weights::for_variant(&v), w, "{name}");
        }
        let avon = embedded::variant("avon").unwrap();
        assert_eq!(Weights::for_variant(&avon), Weights::default());
    }

    #[test]
    fn files_round_trip_and_typos_are_refused() {
        let mut w = Weights::default();
        w.values.insert("P".into(), 97);
        w.mobility = 6;
        let text = w.to_toml("test").unwrap();
        assert_eq!(Weights::from_toml(&text).unwrap(), w);
        assert!(Weights::from_toml("mobilty = 3").is_err());
    }

    #[test]
    fn piece_square_tables_round_trip_and_must_fit_the_variant() {
        let chess = embedded::variant("chess").unwrap();
        let mut w = Weights::default();
        w.pst.insert("N1".into(), vec![3; 128]);
        let back = Weights::from_toml(&w.to_toml("test").unwrap()).unwrap();
        assert_eq!(back, w);
        assert!(w.fits(&chess));
        for (key, len) in [("N2", 128), ("Z0", 128), ("N", 128), ("N0", 64)] {
            let mut bad = Weights::default();
            bad.pst.insert(key.into(), vec![0; len]);
            assert!(!bad.fits(&chess), "{key} {len}");
        }
    }

    #[test]
    fn mobility_and_threat_tables_round_trip_and_must_fit_the_variant() {
        let chess = embedded::variant("chess").unwrap();
        let mut w = Weights::default();
        w.mobility_tables
            .insert("Q".into(), vec![2; 2 * MOBILITY_BUCKETS]);
        w.threats.insert("NQ".into(), vec![5; 2 * THREAT_KINDS]);
        let back = Weights::from_toml(&w.to_toml("test").unwrap()).unwrap();
        assert_eq!(back, w);
        assert!(w.fits(&chess));
        let mut bad = w.clone();
        bad.mobility_tables
            .insert("M".into(), vec![0; 2 * MOBILITY_BUCKETS]);
        assert!(!bad.fits(&chess), "no Marshal in chess");
        let mut bad = w.clone();
        bad.mobility_tables
            .insert("R".into(), vec![0; MOBILITY_BUCKETS]);
        assert!(!bad.fits(&chess), "half a table");
        for key in ["N", "NQK", "NZ"] {
            let mut bad = w.clone();
            bad.threats.insert(key.into(), vec![0; 2 * THREAT_KINDS]);
            assert!(!bad.fits(&chess), "{key}");
        }
        w.clear_tables();
        assert_eq!(w, Weights::default());
    }
}
