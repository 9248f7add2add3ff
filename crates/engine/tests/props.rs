//! Property tests: the parsers never panic and report errors that say where,
//! position strings round-trip, and random playouts keep every invariant of
//! make/unmake, notation and the incremental Zobrist key.
//!
//! The proptest cases run from a fixed seed, so a run is reproducible. To
//! explore further: `PROPTEST_RNG_SEED=<n> PROPTEST_CASES=<n> cargo test
//! --release -p quadrille-engine --test props`; `QUADRILLE_PLAYOUTS=<n>`
//! sets the number of random games per variant of the playout test.

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::RngSeed;
use quadrille_engine::variant::embedded::FILES;
use quadrille_engine::{betza, embedded, Move, MoveKind, MoveList, Position, Variant};
use std::collections::HashSet;
use std::sync::{Arc, OnceLock};

// ---------------------------------------------------------------------------
// Shared helpers
// ---------------------------------------------------------------------------

/// Proptest configuration: `cases` unless PROPTEST_CASES says otherwise, a
/// fixed seed unless PROPTEST_RNG_SEED says otherwise, no regression files.
fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(cases);
    let mut c = ProptestConfig::with_cases(cases);
    if c.rng_seed == RngSeed::Random {
        c.rng_seed = RngSeed::Fixed(0x5155_4144_5249_4C4C);
    }
    c.failure_persistence = None;
    c
}

/// The embedded variants, compiled once.
fn variants() -> &'static [Arc<Variant>] {
    static V: OnceLock<Vec<Arc<Variant>>> = OnceLock::new();
    V.get_or_init(|| {
        FILES
            .iter()
            .map(|(name, _)| {
                embedded::variant(name).unwrap_or_else(|e| panic!("embedded {name}: {e}"))
            })
            .collect()
    })
}

/// SplitMix64: a tiny deterministic generator for the playouts.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Checks a position string against the parser: an error must say which
/// field and what; a success must write a string that reads back to the
/// same string and the same key.
fn check_string(v: &Arc<Variant>, s: &str) -> Result<Option<Position>, String> {
    match Position::from_string(v.clone(), s) {
        Err(e) => {
            if e.field.is_empty() || e.message.is_empty() {
                return Err(format!(
                    "{}: {s:?}: error without field or message: {e:?}",
                    v.name
                ));
            }
            Ok(None)
        }
        Ok(p) => {
            let t = p.to_string();
            let q = Position::from_string(v.clone(), &t).map_err(|e| {
                format!(
                    "{}: {s:?} was accepted, but its output {t:?} is rejected: {e}",
                    v.name
                )
            })?;
            if q.to_string() != t {
                return Err(format!("{}: {s:?} -> {t:?} -> {:?}", v.name, q.to_string()));
            }
            if q.key() != p.key() {
                return Err(format!(
                    "{}: {s:?}: key changes on re-reading {t:?}",
                    v.name
                ));
            }
            Ok(Some(p))
        }
    }
}

/// Every invariant checked at one ply of a playout:
/// - the position string round-trips, with the same key;
/// - every legal move's text parses back to that move;
/// - after make, the incremental key equals the key of the position read
///   from the new string (which must round-trip too);
/// - make + unmake restores the string and the key;
/// - `outcome()` does not panic.
///
/// `distinct`: also require the legal moves to be pairwise distinct.
fn check_ply(pos: &mut Position, distinct: bool) -> Result<(), String> {
    let v = pos.variant().clone();
    let s = pos.to_string();
    let k = pos.key();
    let q = Position::from_string(v.clone(), &s)
        .map_err(|e| format!("{s:?} does not read back: {e}"))?;
    if q.to_string() != s {
        return Err(format!("{s:?} reads back as {:?}", q.to_string()));
    }
    if q.key() != k {
        return Err(format!(
            "{s:?}: incremental key {k:#x}, key of the string {:#x}",
            q.key()
        ));
    }
    let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    if distinct {
        let set: HashSet<Move> = moves.iter().copied().collect();
        if set.len() != moves.len() {
            return Err(format!(
                "{s:?}: the legal move list has duplicates: {moves:?}"
            ));
        }
    }
    for &m in &moves {
        let text = pos.move_to_string(m);
        match pos.parse_move(&text) {
            Ok(back) if back == m => {}
            Ok(back) => {
                return Err(format!(
                    "{s:?}: move {m:?} is written {text:?}, which reads back as {back:?}"
                ))
            }
            Err(e) => {
                return Err(format!(
                    "{s:?}: move {m:?} is written {text:?}, which is rejected: {e}"
                ))
            }
        }
        // Readable notation names exactly this move too.
        let san = pos.san(m);
        if pos.parse_san(&san) != Ok(m) {
            return Err(format!(
                "{s:?}: move {m:?} is written {san:?}, which reads back as {:?}",
                pos.parse_san(&san)
            ));
        }
        if pos.to_string() != s || pos.key() != k {
            return Err(format!("{s:?}: parse_move({text:?}) changed the position"));
        }
        pos.make(m);
        let after = pos.to_string();
        let fresh = Position::from_string(v.clone(), &after)
            .map_err(|e| format!("{s:?}: after {text} the string {after:?} is rejected: {e}"))?;
        if fresh.to_string() != after {
            return Err(format!(
                "{s:?}: after {text}: {after:?} reads back as {:?}",
                fresh.to_string()
            ));
        }
        if fresh.key() != pos.key() {
            return Err(format!(
                "{s:?}: after {text} ({m:?}): incremental key {:#x}, key of {after:?} {:#x}",
                pos.key(),
                fresh.key()
            ));
        }
        pos.unmake();
        if pos.to_string() != s {
            return Err(format!(
                "{s:?}: make+unmake of {text} gives {:?}",
                pos.to_string()
            ));
        }
        if pos.key() != k {
            return Err(format!("{s:?}: make+unmake of {text} changes the key"));
        }
    }
    let _ = pos.outcome();
    if pos.to_string() != s || pos.key() != k {
        return Err(format!("{s:?}: outcome() changed the position"));
    }
    Ok(())
}

/// A random game from `pos` of at most `plies` plies, checking every ply.
/// Returns the position strings seen. At the end every move is taken back
/// and the start must come back exactly.
fn playout(
    pos: &mut Position,
    rng: &mut Rng,
    plies: usize,
    distinct: bool,
) -> Result<Vec<String>, String> {
    let start = pos.to_string();
    let start_key = pos.key();
    let mut seen = vec![start.clone()];
    let mut played = Vec::new();
    for ply in 0..plies {
        check_ply(pos, distinct).map_err(|e| format!("ply {ply} after {played:?}: {e}"))?;
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves.as_slice()[rng.below(moves.len())];
        let text = pos.move_to_string(m);
        // Half the time through the checked entry point.
        if rng.next() & 1 == 0 {
            pos.play(&text)
                .map_err(|e| format!("ply {ply} after {played:?}: play({text}): {e}"))?;
        } else {
            pos.make(m);
        }
        played.push(text);
        seen.push(pos.to_string());
    }
    for _ in 0..played.len() {
        pos.unmake();
    }
    if pos.to_string() != start || pos.key() != start_key {
        return Err(format!(
            "after {played:?} and as many unmakes: {:?}, expected {start:?}",
            pos.to_string()
        ));
    }
    Ok(seen)
}

/// Position strings met in a few random games of each embedded variant:
/// material for the mutation tests (castling rights lost, en passant
/// targets, promoted pieces, ...).
fn corpus() -> &'static [(usize, Vec<String>)] {
    static C: OnceLock<Vec<(usize, Vec<String>)>> = OnceLock::new();
    C.get_or_init(|| {
        let mut out = Vec::new();
        for (vi, v) in variants().iter().enumerate() {
            let strings = (0..4)
                .flat_map(|game| random_game(v, 0xC0FFEE + game, 200))
                .map(|pos| pos.to_string())
                .collect();
            out.push((vi, strings));
        }
        out
    })
}

/// The positions of a random game of at most `plies` moves from the
/// start (the start included), by `seed`.
fn random_game(v: &Arc<Variant>, seed: u64, plies: usize) -> Vec<Position> {
    let mut rng = Rng(seed);
    let mut pos = v.start();
    let mut positions = vec![pos.clone()];
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.make(moves.as_slice()[rng.below(moves.len())]);
        positions.push(pos.clone());
    }
    positions
}

/// Applies character edits (0 delete, 1 insert, 2 replace) to a string.
fn mutate_chars(s: &str, edits: &[(u8, Index, char)]) -> String {
    let mut chars: Vec<char> = s.chars().collect();
    for (op, at, c) in edits {
        let c = *c;
        match op % 3 {
            0 if !chars.is_empty() => {
                chars.remove(at.index(chars.len()));
            }
            1 => chars.insert(at.index(chars.len() + 1), c),
            _ if !chars.is_empty() => {
                let i = at.index(chars.len());
                chars[i] = c;
            }
            _ => chars.push(c),
        }
    }
    chars.into_iter().collect()
}

const POSITION_ALPHABET: &str = "pnbrqkmcludPNBRQKMCLUDX0123456789/ -wbabcdefghij=out";

fn position_char() -> impl Strategy<Value = char> {
    let alphabet: Vec<char> = POSITION_ALPHABET.chars().collect();
    prop_oneof![
        4 => prop::sample::select(alphabet),
        1 => any::<char>(),
    ]
}

fn char_edits(max: usize) -> impl Strategy<Value = Vec<(u8, Index, char)>> {
    prop::collection::vec((0u8..3, any::<Index>(), position_char()), 1..=max)
}

// ---------------------------------------------------------------------------
// Betza parser
// ---------------------------------------------------------------------------

const BETZA_ALPHABET: &str = "WFDNAHCZGKRBQLJmcfblrsvpni0123456789";

fn betza_string() -> impl Strategy<Value = String> {
    let alphabet: Vec<char> = BETZA_ALPHABET.chars().collect();
    prop::collection::vec(prop::sample::select(alphabet), 0..12)
        .prop_map(|v| v.into_iter().collect())
}

/// Mostly well-formed Betza: one to three atoms with modifiers.
fn plausible_betza() -> impl Strategy<Value = String> {
    "([mc]?(f|b|l|r|s|v|fs|fl|fr|bs|bl|br|ff|bb|ss|vv)?[pn]?([WFDNAHCZGKRBQ]|NN|AA|DD|WW|FF|HH)[1-3]?){1,3}"
}

fn check_betza(s: &str) -> Result<(), TestCaseError> {
    match betza::parse(s) {
        Ok(atoms) => {
            prop_assert!(!atoms.is_empty(), "{s:?}: no atoms but no error");
            for a in &atoms {
                prop_assert!(
                    !a.vectors.is_empty(),
                    "{s:?}: an atom without vectors: {a:?}"
                );
                if let Some(l) = &a.lame {
                    prop_assert_eq!(
                        l.len(),
                        a.vectors.len(),
                        "{:?}: lame paths do not match vectors",
                        s
                    );
                }
            }
            let described = betza::describe(&atoms);
            prop_assert_eq!(described.len(), atoms.len());
        }
        Err(e) => {
            prop_assert!(
                e.at < s.len() || (s.is_empty() && e.at == 0),
                "{:?}: error index {} outside the string: {}",
                s,
                e.at,
                e
            );
            prop_assert!(
                s.is_char_boundary(e.at),
                "{s:?}: error index {} inside a character",
                e.at
            );
            prop_assert!(!e.message.is_empty(), "{s:?}: empty error message");
            prop_assert_eq!(&e.betza, s);
            prop_assert!(!e.to_string().is_empty());
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn betza_any_unicode_never_panics(s in any::<String>()) {
        check_betza(&s)?;
    }

    #[test]
    fn betza_alphabet_never_panics(s in betza_string()) {
        check_betza(&s)?;
    }

    #[test]
    fn betza_plausible_never_panics(s in plausible_betza()) {
        check_betza(&s)?;
    }
}

#[test]
fn betza_errors_name_the_character() {
    // (string, byte index of the culprit, text the message must contain)
    let cases: &[(&str, usize, &str)] = &[
        ("mQx", 2, "`x`"),
        ("K!", 1, "`!`"),
        ("X", 0, "`X`"),
        ("fmE", 2, "`E`"),
        ("Ré", 1, "`é`"),
        ("N中", 1, "`中`"),
        ("WW3B", 2, "`3`"),
        ("mfWcfF?", 6, "`?`"),
        ("W0", 1, "range 0"),
        ("pN", 1, "`N`"),
        ("nR", 1, "`R`"),
        ("nC", 1, "`C`"),
        ("fsK?", 3, "`?`"),
        ("bfrl", 3, "without an atom"),
    ];
    for &(s, at, text) in cases {
        let e = betza::parse(s).expect_err(s);
        assert_eq!(e.at, at, "{s:?}: {e}");
        assert!(
            e.message.contains(text) || e.to_string().contains(text),
            "{s:?}: {e} should mention {text}"
        );
        assert!(
            e.to_string().contains(s),
            "{s:?}: the error should quote the string: {e}"
        );
    }
    for s in ["", "fm", "mc", "f"] {
        let e = betza::parse(s).expect_err(s);
        assert!(e.at <= s.len() && !e.message.is_empty(), "{s:?}: {e:?}");
    }
}

// ---------------------------------------------------------------------------
// Position strings
// ---------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(600))]

    #[test]
    fn position_any_string_never_panics(vi in 0..3usize, s in any::<String>()) {
        let v = &variants()[vi];
        check_string(v, &s).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn position_alphabet_string_never_panics(
        vi in 0..3usize,
        s in prop::collection::vec(position_char(), 0..90).prop_map(|v| v.into_iter().collect::<String>()),
    ) {
        let v = &variants()[vi];
        check_string(v, &s).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn position_mutated_start_never_panics(vi in 0..3usize, edits in char_edits(4)) {
        let v = &variants()[vi];
        let s = mutate_chars(&v.setup, &edits);
        check_string(v, &s).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn position_mutated_game_positions_never_panic(
        ci in 0..3usize,
        pick in any::<Index>(),
        edits in char_edits(3),
    ) {
        let (vi, strings) = &corpus()[ci];
        let v = &variants()[*vi];
        let s = mutate_chars(pick.get::<String>(strings), &edits);
        check_string(v, &s).map_err(TestCaseError::fail)?;
    }

    /// Whatever the parser accepts can be played: legal moves, notation,
    /// make/unmake and keys hold together for a few random plies.
    #[test]
    fn position_accepted_strings_are_playable(
        ci in 0..3usize,
        pick in any::<Index>(),
        edits in char_edits(3),
        seed in any::<u64>(),
    ) {
        let (vi, strings) = &corpus()[ci];
        let v = &variants()[*vi];
        let s = mutate_chars(pick.get::<String>(strings), &edits);
        if let Some(mut pos) = check_string(v, &s).map_err(TestCaseError::fail)? {
            playout(&mut pos, &mut Rng(seed), 4, false)
                .map_err(|e| TestCaseError::fail(format!("{}: from {s:?}: {e}", v.name)))?;
        }
    }
}

#[test]
fn position_errors_name_the_field() {
    let chess = embedded::variant("chess").unwrap();
    let cases: &[(&str, &str)] = &[
        ("", "string"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "string"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "board"),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
            "board, rank 1",
        ),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "board, rank 6",
        ),
        (
            "rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "board, rank 6",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "to move",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1",
            "castling",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
            "castling",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
            "en passant",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
            "en passant",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
            "halfmove clock",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
            "fullmove number",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x",
            "string",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 out=x",
            "out",
        ),
    ];
    for &(s, field) in cases {
        let e = Position::from_string(chess.clone(), s).expect_err(s);
        assert_eq!(e.field, field, "{s:?}: {e}");
        assert!(!e.message.is_empty());
        assert!(e.to_string().contains(field), "{s:?}: {e}");
    }
}

#[test]
fn position_strings_round_trip_with_optional_fields() {
    for v in variants() {
        let start = v.start().to_string();
        assert_eq!(start, v.setup, "{}", v.name);
        let board_and_side: Vec<&str> = v.setup.split_whitespace().take(2).collect();
        let short = board_and_side.join(" ");
        let p =
            Position::from_string(v.clone(), &short).unwrap_or_else(|e| panic!("{short:?}: {e}"));
        check_string(v, &short).unwrap();
        assert_eq!(
            p.castling_rights(),
            0,
            "{short:?}: castling defaults to none"
        );
        // Extra whitespace is accepted and normalised.
        let spaced = format!("  {}  ", v.setup.replace(' ', "   "));
        let q = Position::from_string(v.clone(), &spaced).unwrap();
        assert_eq!(q.to_string(), v.setup);
    }
}

/// The fullmove number is part of the string: playing on from its largest
/// accepted value must neither panic nor write a string the parser then
/// rejects.
#[test]
fn fullmove_number_at_its_limit_survives_a_move() {
    let chess = embedded::variant("chess").unwrap();
    let s = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 4294967295";
    let mut pos = Position::from_string(chess.clone(), s).unwrap();
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        pos.play("g8f6").unwrap();
        pos.to_string()
    }));
    let after = r.unwrap_or_else(|_| panic!("{s:?}: g8f6 panics"));
    Position::from_string(chess, &after)
        .unwrap_or_else(|e| panic!("{s:?}: after g8f6, {after:?} is rejected: {e}"));
}

/// The halfmove clock at its largest accepted value: a quiet knight move
/// must neither panic nor turn the clock back (which would reset the
/// no-progress rule).
#[test]
fn halfmove_clock_at_its_limit_survives_a_move() {
    let chess = embedded::variant("chess").unwrap();
    let s = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 65535 1";
    let mut pos = Position::from_string(chess.clone(), s).unwrap();
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        pos.play("g1f3").unwrap();
        pos.halfmove_clock()
    }));
    let clock = r.unwrap_or_else(|_| panic!("{s:?}: g1f3 panics"));
    assert!(
        clock == 65535,
        "{s:?}: after g1f3 the halfmove clock is {clock}"
    );
    check_string(&chess, &pos.to_string()).unwrap();
}

/// Castling is written as the king's move. When the piece on the king's
/// cell could also reach the king's target by an ordinary move, the two
/// moves must still be told apart by their text (here: the parser accepts
/// castling rights with a rook on e1).
#[test]
fn castling_text_is_unambiguous_in_accepted_positions() {
    let chess = embedded::variant("chess").unwrap();
    let s = "4k3/8/8/8/8/8/8/K3R2R w K - 0 1";
    let mut pos = match Position::from_string(chess.clone(), s) {
        Err(_) => return, // rejecting the rights is a fine answer too
        Ok(p) => p,
    };
    check_ply(&mut pos, true).unwrap_or_else(|e| panic!("{e}"));
}

// ---------------------------------------------------------------------------
// Variant files
// ---------------------------------------------------------------------------

/// Values substituted for a value in a variant file.
const VALUES: &[&str] = &[
    "\"x\"",
    "\"\"",
    "0",
    "-1",
    "1",
    "2",
    "3",
    "16",
    "17",
    "255",
    "256",
    "99999999999",
    "true",
    "false",
    "[]",
    "{}",
    "\"Q\"",
    "\"K\"",
    "\"P\"",
    "\"Z\"",
    "\"q\"",
    "\"a9\"",
    "\"z1\"",
    "\"e1\"",
    "\"e4\"",
    "\"a1-h1\"",
    "\"a1-p16\"",
    "\"mfWcfF\"",
    "\"Nx\"",
    "\"pN\"",
    "\"NN\"",
    "\"mRcpR\"",
    "\"nN\"",
    "\"north\"",
    "\"east\"",
    "\"up\"",
    "\"White\"",
    "\"Black\"",
    "\"Nobody\"",
    "\"draw\"",
    "\"loss\"",
    "\"win\"",
    "\"maybe\"",
    "1.5",
    "\"é\"",
    "\"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"",
    "\"8/8/8/8/8/8/8/8 w - - 0 1\"",
];

/// Lines inserted into a variant file.
const GARBAGE: &[&str] = &[
    "[board]",
    "[[pieces]]",
    "[[players]]",
    "[[armies]]",
    "[rules]",
    "letter = \"X\"",
    "foo = 1",
    "=",
    "\"",
    "[[",
    "]]",
    "name = \"again\"",
    "files = 9",
    "betza = \"K\"",
    "[rules.royal]",
    "x = [1, 2",
    "# comment",
    "setup = \"8/8 w\"",
    "tag = \"w\"",
    "{",
    "\u{0}",
    "ü = 1",
    "[regions]\nzone = \"a1-b2\"",
];

/// One edit of a variant file.
#[derive(Clone, Debug)]
enum FileEdit {
    DeleteLine(Index),
    DuplicateLine(Index),
    SwapLines(Index, Index),
    ChangeValue(Index, Index, String),
    InsertLine(Index, String),
    Chars(Vec<(u8, Index, char)>),
}

fn file_edit() -> impl Strategy<Value = FileEdit> {
    let value = prop_oneof![
        4 => prop::sample::select(VALUES).prop_map(str::to_string),
        1 => any::<String>().prop_map(|s| format!("{s:?}")),
        1 => any::<i64>().prop_map(|n| n.to_string()),
    ];
    let garbage = prop_oneof![
        4 => prop::sample::select(GARBAGE).prop_map(str::to_string),
        1 => any::<String>(),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(f, l)| {
            let text = f.get(FILES).1;
            let lines: Vec<&str> = text.lines().collect();
            l.get(&lines).to_string()
        }),
    ];
    prop_oneof![
        3 => any::<Index>().prop_map(FileEdit::DeleteLine),
        1 => any::<Index>().prop_map(FileEdit::DuplicateLine),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| FileEdit::SwapLines(a, b)),
        6 => (any::<Index>(), any::<Index>(), value).prop_map(|(l, k, v)| FileEdit::ChangeValue(l, k, v)),
        3 => (any::<Index>(), garbage).prop_map(|(l, g)| FileEdit::InsertLine(l, g)),
        2 => char_edits(3).prop_map(FileEdit::Chars),
    ]
}

/// Byte spans of the values in a line: what follows each `=` up to a `,`,
/// `}` or the end, a quoted string as a whole.
fn value_spans(line: &str) -> Vec<(usize, usize)> {
    let b = line.as_bytes();
    let mut spans = Vec::new();
    for (i, &c) in b.iter().enumerate() {
        if c != b'=' {
            continue;
        }
        let mut s = i + 1;
        while s < b.len() && b[s] == b' ' {
            s += 1;
        }
        let mut e = s;
        if e < b.len() && b[e] == b'"' {
            e += 1;
            while e < b.len() && b[e] != b'"' {
                e += 1;
            }
            e = (e + 1).min(b.len());
        } else {
            while e < b.len() && !matches!(b[e], b',' | b'}') {
                e += 1;
            }
            while e > s && b[e - 1] == b' ' {
                e -= 1;
            }
        }
        spans.push((s, e));
    }
    spans
}

fn apply_edit(text: &str, edit: &FileEdit) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    match edit {
        FileEdit::DeleteLine(i) if !lines.is_empty() => {
            lines.remove(i.index(lines.len()));
        }
        FileEdit::DuplicateLine(i) if !lines.is_empty() => {
            let i = i.index(lines.len());
            lines.insert(i, lines[i].clone());
        }
        FileEdit::SwapLines(a, b) if !lines.is_empty() => {
            let (a, b) = (a.index(lines.len()), b.index(lines.len()));
            lines.swap(a, b);
        }
        FileEdit::ChangeValue(l, k, value) => {
            let with_values: Vec<usize> = (0..lines.len())
                .filter(|&i| !value_spans(&lines[i]).is_empty())
                .collect();
            if !with_values.is_empty() {
                let li = *l.get(&with_values);
                let spans = value_spans(&lines[li]);
                let (s, e) = *k.get(&spans);
                lines[li].replace_range(s..e, value);
            }
        }
        FileEdit::InsertLine(i, g) => {
            let i = i.index(lines.len() + 1);
            lines.insert(i, g.clone());
        }
        FileEdit::Chars(edits) => return mutate_chars(text, edits),
        _ => {}
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// A variant file's compile result must be a well-formed error or a
/// variant whose start position works.
fn check_variant_text(text: &str) -> Result<(), String> {
    match Variant::from_toml(text) {
        Err(e) => {
            if e.location.is_empty() || e.message.is_empty() {
                return Err(format!("error without location or message: {e:?}"));
            }
            if e.file.is_some() {
                return Err(format!("from_toml names a file: {e:?}"));
            }
            let shown = e.to_string();
            if !shown.contains(&e.location) || !shown.contains(&e.message) {
                return Err(format!(
                    "Display {shown:?} omits the location or message of {e:?}"
                ));
            }
            let shown = e.clone().in_file("x.toml").to_string();
            if !shown.starts_with("x.toml") || !shown.contains(&e.location) {
                return Err(format!("in_file: {shown:?}"));
            }
            Ok(())
        }
        Ok(v) => {
            let v = Arc::new(v);
            let mut pos = v.start();
            let s = pos.to_string();
            check_string(&v, &s)?;
            pos.perft(2);
            if pos.to_string() != s {
                return Err(format!(
                    "{s:?}: perft changed the position to {:?}",
                    pos.to_string()
                ));
            }
            Ok(())
        }
    }
}

proptest! {
    #![proptest_config(config(400))]

    #[test]
    fn variant_any_string_never_panics(s in any::<String>()) {
        check_variant_text(&s).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn variant_mutated_files_never_panic(
        f in any::<Index>(),
        edits in prop::collection::vec(file_edit(), 1..4),
    ) {
        let (_, original) = f.get(FILES);
        let mut text = original.to_string();
        for e in &edits {
            text = apply_edit(&text, e);
        }
        check_variant_text(&text).map_err(|e| TestCaseError::fail(format!("{e}\n--- file ---\n{text}")))?;
    }
}

proptest! {
    #![proptest_config(config(250))]

    /// A chess variant with the Knight and the Pawn replaced by random
    /// (mostly valid) Betza pieces: compiling never panics, random games
    /// keep all the playout invariants, and overlapping atoms (`WR`, `KQ`)
    /// never list a move twice.
    #[test]
    fn variant_random_betza_pieces_play_consistently(
        knight in plausible_betza(),
        pawn in plausible_betza(),
        seed in any::<u64>(),
    ) {
        let chess = FILES.iter().find(|(n, _)| *n == "chess").unwrap().1;
        let text = chess
            .replacen("betza = \"N\"", &format!("betza = \"{knight}\""), 1)
            .replacen("betza = \"mfWcfF\"", &format!("betza = \"{pawn}\""), 1);
        let v = match Variant::from_toml(&text) {
            Ok(v) => Arc::new(v),
            Err(e) => {
                // A piece that attacks the other King from the setup
                // makes a setup no game can start from: refused as such.
                let unreachable_setup =
                    e.location == "setup" && e.to_string().contains("in check");
                prop_assert!(
                    e.location.starts_with("pieces") || unreachable_setup,
                    "knight {knight:?}, pawn {pawn:?}: unexpected error {e}"
                );
                return Ok(());
            }
        };
        let mut pos = v.start();
        playout(&mut pos, &mut Rng(seed), 12, true)
            .map_err(|e| TestCaseError::fail(format!("knight {knight:?}, pawn {pawn:?}: {e}")))?;
    }
}

/// A pawn whose Betza already has the initial double step as an ordinary
/// move (a lame forward Dabbaba, as in `mfnD`), in a variant that also has
/// the double step rule: the two ways to a2-a4 must not both be listed
/// (perft would count the move twice, and its text names only one).
#[test]
fn betza_double_step_and_double_step_rule_do_not_duplicate_moves() {
    let chess = FILES.iter().find(|(n, _)| *n == "chess").unwrap().1;
    let text = chess.replacen("betza = \"mfWcfF\"", "betza = \"mfWmfnDcfF\"", 1);
    let v = Arc::new(Variant::from_toml(&text).unwrap());
    let mut pos = v.start();
    check_ply(&mut pos, true).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(pos.perft(1), 20);
}

/// Overlapping atoms give each move once: a Rook that is also a Wazir
/// (`WR`), a Queen written `KQ`, a Rook with a shorter capturing range
/// (`mRcR2R`): the same counts as the plain pieces.
#[test]
fn overlapping_atoms_do_not_duplicate_moves() {
    let chess = FILES.iter().find(|(n, _)| *n == "chess").unwrap().1;
    let base = Arc::new(Variant::from_toml(chess).unwrap());
    let fen = "4k3/8/8/8/3Q4/8/8/R3K2R w KQ - 0 1";
    let want = quadrille_engine::Position::from_string(base, fen)
        .unwrap()
        .perft(2);
    for (piece, betza) in [("R", "WR"), ("Q", "KQ"), ("R", "mRcR2R"), ("Q", "QWF")] {
        let text = chess.replacen(
            &format!("betza = \"{piece}\""),
            &format!("betza = \"{betza}\""),
            1,
        );
        let v = Arc::new(Variant::from_toml(&text).unwrap());
        let mut pos = quadrille_engine::Position::from_string(v, fen).unwrap();
        check_ply(&mut pos, true).unwrap_or_else(|e| panic!("{betza}: {e}"));
        assert_eq!(pos.perft(2), want, "{betza}");
    }
}

/// The text of an embedded file with one line replaced (the first line
/// that starts with `from`), and the 1-based number of that line.
fn replace_line(name: &str, from: &str, to: &str) -> (String, usize) {
    let text = FILES.iter().find(|(n, _)| *n == name).unwrap().1;
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let i = lines
        .iter()
        .position(|l| l.trim_start().starts_with(from))
        .unwrap_or_else(|| panic!("{name}: no line starts with {from:?}"));
    lines[i] = to.to_string();
    (lines.join("\n"), i + 1)
}

fn compile_err(text: &str) -> quadrille_engine::VariantError {
    match Variant::from_toml(text) {
        Ok(_) => panic!("compiled:\n{text}"),
        Err(e) => e,
    }
}

#[test]
fn embedded_files_compile() {
    for (name, text) in FILES {
        let v = Variant::from_toml(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(v.name, *name);
    }
}

/// A key without a value: the TOML parser's own message is empty, so the
/// error must still say something.
#[test]
fn missing_value_has_a_message() {
    for text in ["A=", "name = \"chess\"\nfiles = "] {
        let e = compile_err(text);
        assert!(e.location.starts_with("line "), "{text:?}: {e:?}");
        assert!(
            !e.message.trim().is_empty(),
            "{text:?}: empty message in {e:?}"
        );
    }
    let (text, line) = replace_line("chess", "files = 8", "files =");
    let e = compile_err(&text);
    assert!(e.location.starts_with(&format!("line {line},")), "{e:?}");
    assert!(!e.message.trim().is_empty(), "empty message in {e:?}");
}

#[test]
fn unknown_key_names_its_line() {
    // At the top level.
    let (text, line) = replace_line("chess", "title =", "colour = \"red\"");
    let e = compile_err(&text);
    assert!(e.location.starts_with(&format!("line {line},")), "{e}");
    assert!(e.message.contains("colour"), "{e}");
    // Inside a table.
    let (text, line) = replace_line("magna-carta", "ranks =", "rank = 8");
    let e = compile_err(&text);
    assert!(e.location.starts_with(&format!("line {line},")), "{e}");
    assert!(e.message.contains("rank"), "{e}");
    // Inside an array of tables.
    let (text, line) = replace_line("caissa-britannia", "name = \"Lion\"", "nom = \"Lion\"");
    let e = compile_err(&text);
    assert!(e.location.starts_with(&format!("line {line},")), "{e}");
    assert!(e.message.contains("nom"), "{e}");
}

#[test]
fn bad_betza_names_the_piece_and_the_character() {
    let (text, _) = replace_line("chess", "betza = \"N\"", "betza = \"Nx\"");
    let e = compile_err(&text);
    assert_eq!(e.location, "pieces[4].betza", "{e}");
    assert!(e.message.contains("piece N"), "{e}");
    assert!(e.message.contains("Knight"), "{e}");
    assert!(e.message.contains("`x`"), "{e}");
    assert!(e.message.contains("character 2"), "{e}");

    let (text, _) = replace_line(
        "caissa-britannia",
        "betza = \"mQcpQ\"",
        "betza = \"mQcpQ!\"",
    );
    let e = compile_err(&text);
    assert_eq!(e.location, "pieces[2].betza", "{e}");
    assert!(
        e.message.contains("piece L") && e.message.contains("`!`"),
        "{e}"
    );
}

#[test]
fn unknown_piece_in_setup_is_named() {
    let chess = FILES[0].1;
    let text = chess.replacen("RNBQKBNR w", "RNBQKBNX w", 1);
    let e = compile_err(&text);
    assert_eq!(e.location, "setup", "{e}");
    assert!(e.message.contains("`X`"), "{e}");
    assert!(e.message.contains("rank 1"), "{e}");
}

#[test]
fn setup_with_wrong_rank_count_is_named() {
    let chess = FILES[0].1;
    let text = chess.replacen("pppppppp/8/8/8/8/", "pppppppp/8/8/8/", 1);
    let e = compile_err(&text);
    assert_eq!(e.location, "setup", "{e}");
    assert!(e.message.contains("7 ranks"), "{e}");
    let text = chess.replacen("pppppppp/8/8/8/8/", "pppppppp/8/8/8/8/8/", 1);
    let e = compile_err(&text);
    assert_eq!(e.location, "setup", "{e}");
    assert!(e.message.contains("9 ranks"), "{e}");
}

#[test]
fn bad_castling_cell_is_named() {
    let chess = FILES[0].1;
    for (bad, key) in [
        ("king = \"e9\"", "rules.castling[0].king"),
        ("king = \"z1\"", "rules.castling[0].king"),
        ("king = \"e\"", "rules.castling[0].king"),
    ] {
        let text = chess.replacen("king = \"e1\"", bad, 1);
        let e = compile_err(&text);
        assert_eq!(e.location, key, "{bad}: {e}");
        let cell = bad.split('"').nth(1).unwrap();
        assert!(e.message.contains(&format!("`{cell}`")), "{bad}: {e}");
    }
    let text = chess.replacen("rook_to = \"d8\"", "rook_to = \"d0\"", 1);
    let e = compile_err(&text);
    assert_eq!(e.location, "rules.castling[3].rook_to", "{e}");
    assert!(e.message.contains("`d0`"), "{e}");
}

#[test]
fn out_of_range_board_is_named() {
    for (from, to) in [
        ("files = 8", "files = 17"),
        ("files = 8", "files = 0"),
        ("ranks = 8", "ranks = 20"),
    ] {
        let (text, _) = replace_line("chess", from, to);
        let e = compile_err(&text);
        assert_eq!(e.location, "board", "{to}: {e}");
        assert!(e.message.contains("16"), "{to}: {e}");
    }
    // Too large for the file format's integer: the parser names the line.
    for bad in ["files = 300", "files = -1"] {
        let (text, line) = replace_line("chess", "files = 8", bad);
        let e = compile_err(&text);
        assert!(
            e.location.starts_with(&format!("line {line},")),
            "{bad}: {e}"
        );
    }
    let (text, _) = replace_line("chess", "ranks = 8", "first_rank = 2\nranks = 8");
    let e = compile_err(&text);
    assert_eq!(e.location, "board.first_rank", "{e}");
}

#[test]
fn other_broken_files_are_named() {
    let chess = FILES[0].1;
    let cases: &[(&str, &str, &str)] = &[
        ("army = \"Black\"", "army = \"Red\"", "players[1].army"),
        (
            "forward = \"south\"",
            "forward = \"down\"",
            "players[1].forward",
        ),
        ("letter = \"Q\"", "letter = \"q\"", "pieces[1].letter"),
        ("letter = \"Q\"", "letter = \"K\"", "pieces[1].letter"),
        (
            "White = \"K\", Black = \"K\"",
            "White = \"K\", Black = \"Y\"",
            "rules.royal.must_retain.Black",
        ),
        (
            "White = \"a2-h2\"",
            "White = \"a2-h9\"",
            "rules.double_step.from.White",
        ),
        (
            "stalemate = \"draw\"",
            "stalemate = \"maybe\"",
            "rules.stalemate",
        ),
        (
            "choices = { White = \"QRBN\"",
            "choices = { White = \"QRBNX\"",
            "rules.promotion.choices.White",
        ),
        ("name = \"chess\"", "name = \"chess game\"", "name"),
    ];
    for &(from, to, key) in cases {
        assert!(chess.contains(from), "{from}");
        let e = compile_err(&chess.replacen(from, to, 1));
        assert_eq!(e.location, key, "{to}: {e}");
    }
}

// ---------------------------------------------------------------------------
// Random playouts of the embedded variants
// ---------------------------------------------------------------------------

#[test]
fn random_playouts_keep_every_invariant() {
    let games: u64 = std::env::var("QUADRILLE_PLAYOUTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(8);
    for v in variants() {
        let mut lengths = Vec::new();
        for game in 0..games {
            let seed = 0x5EED_0000 + game;
            let mut rng = Rng(seed);
            let mut pos = v.start();
            let seen = playout(&mut pos, &mut rng, 150, true)
                .unwrap_or_else(|e| panic!("{} game {game} (seed {seed:#x}): {e}", v.name));
            lengths.push(seen.len() - 1);
            // A game stops early only when it is over.
            if seen.len() - 1 < 150 {
                let last = seen.last().expect("the start at least");
                let end = Position::from_string(v.clone(), last).unwrap();
                assert!(
                    end.outcome().is_some(),
                    "{} game {game}: no move and no outcome at `{last}`",
                    v.name
                );
            }
        }
        // Enough plies checked: one long game, or (where games end quickly,
        // as the Pass games do when two players are left) many short ones.
        assert!(
            lengths.iter().any(|&n| n >= 100) || lengths.iter().sum::<usize>() >= 300,
            "{}: games too short: {lengths:?}",
            v.name
        );
    }
}

#[test]
fn perft_matches_known_counts() {
    let chess = embedded::variant("chess").unwrap();
    assert_eq!(chess.start().perft(3), 8902);
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let mut pos = Position::from_string(chess.clone(), kiwipete).unwrap();
    assert_eq!(pos.perft(1), 48);
    assert_eq!(pos.perft(2), 2039);
    assert_eq!(pos.perft(3), 97862);
    check_ply(&mut pos, true).unwrap();
    let ep = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
    let mut pos = Position::from_string(chess, ep).unwrap();
    assert_eq!(pos.perft(4), 43238);
}

/// The quiescence search's generator: the captures and promotions of the
/// full pseudo-legal list, in its order, and no castling, double step or
/// swap, in positions from random games of every variant.
#[test]
fn tactical_moves_are_the_captures_and_promotions_of_the_full_list() {
    let tactical = |pos: &Position, m: &Move| {
        m.promotion.is_some()
            || m.kind == MoveKind::EnPassant
            || (m.kind == MoveKind::Normal && pos.piece_at(m.to).is_some())
    };
    let mut checked = 0;
    for (vi, strings) in corpus() {
        let v = &variants()[*vi];
        for s in strings {
            let pos = Position::from_string(v.clone(), s).unwrap();
            let (mut full, mut some) = (MoveList::new(), MoveList::new());
            pos.pseudo_legal_moves(&mut full);
            pos.pseudo_legal_tactical_moves(&mut some);
            // An order-preserving part of the full list ...
            let mut rest = full.iter();
            for m in some.iter() {
                assert!(
                    rest.any(|f| f == m),
                    "{} {s}: {m:?} not in the full list's order",
                    v.name
                );
                assert!(
                    matches!(m.kind, MoveKind::Normal | MoveKind::EnPassant),
                    "{} {s}: {m:?}",
                    v.name
                );
            }
            // ... holding all its captures and promotions.
            let want: Vec<Move> = full.iter().copied().filter(|m| tactical(&pos, m)).collect();
            let got: Vec<Move> = some.iter().copied().filter(|m| tactical(&pos, m)).collect();
            assert_eq!(got, want, "{} {s}", v.name);
            checked += want.len();
        }
    }
    assert!(checked > 1000, "only {checked} tactical moves met");
}

/// In check from a lame leaper (a Knight that a piece beside it stops,
/// `nN`), blocking its path is an answer: the legality test's shortcut
/// for moves that touch no attack must count the blocking cell.
#[test]
fn a_lame_leapers_check_is_answered_by_blocking_its_path() {
    let chess = FILES.iter().find(|(n, _)| *n == "chess").unwrap().1;
    let text = chess.replacen("betza = \"N\"", "betza = \"nN\"", 1);
    let v = Arc::new(Variant::from_toml(&text).unwrap());
    // The Knight on d3 attacks e1 over d2; the Rook can step in front.
    let mut pos =
        quadrille_engine::Position::from_string(v, "4k3/8/8/8/8/3n4/R7/4K3 w - - 0 1").unwrap();
    assert!(pos.in_check());
    let moves: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&m| pos.move_to_string(m))
        .collect();
    assert!(moves.contains(&"a2d2".to_string()), "{moves:?}");
    assert!(!moves.contains(&"a2a3".to_string()), "{moves:?}");
    check_ply(&mut pos, true).unwrap_or_else(|e| panic!("{e}"));
}

/// `checking_cells` clears only moves that give no check: in positions
/// from random games of every variant (and chess with a lame Knight),
/// every legal move it clears leaves the other side out of check.
#[test]
fn moves_cleared_by_checking_cells_give_no_check() {
    let chess = FILES.iter().find(|(n, _)| *n == "chess").unwrap().1;
    let lame = Arc::new(
        Variant::from_toml(&chess.replacen("betza = \"N\"", "betza = \"nN\"", 1)).unwrap(),
    );
    let mut positions: Vec<Position> = Vec::new();
    for (vi, strings) in corpus() {
        let v = &variants()[*vi];
        positions.extend(
            strings
                .iter()
                .map(|s| Position::from_string(v.clone(), s).unwrap()),
        );
    }
    for game in 0..4 {
        positions.extend(random_game(&lame, 0xBEEF + game, 120));
    }
    let (mut cleared, mut checks) = (0, 0);
    for mut pos in positions {
        let cells = pos.checking_cells();
        let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
        for m in moves {
            let may = cells.may_check(&pos, m);
            pos.make(m);
            let check = pos.in_check();
            pos.unmake();
            assert!(may || !check, "{pos}: {m:?} gives check but was cleared");
            cleared += !may as usize;
            checks += check as usize;
        }
    }
    assert!(
        cleared > 10_000 && checks > 500,
        "{cleared} cleared, {checks} checks"
    );
}
