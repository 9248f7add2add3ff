//! Perft: the published chess numbers, the Caïssa Britannia depth-1
//! verification from its rules file, Magna Carta counts checked by hand
//! reasoning, and agreement with an independent naive reference generator
//! (tests/common, written from the rules texts) on the fairy variants.
//!
//! The counts themselves live in tests/perft/*.perft, one harness below.
//!
//! Run with `cargo test --release`: the deep counts take a few seconds.

mod common;

use common::reference;
use common::{first_difference, mover_letter, pos, variant};
use std::collections::BTreeMap;

// ---------------------------------------------------------------- FIDE chess
// Numbers from the chessprogramming wiki "Perft Results" page.

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POS3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const POS4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
const POS4_MIRROR: &str = "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1";
const POS5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
const POS6: &str = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

#[test]
fn chess_start_via_variant_start() {
    let mut p = variant("chess").start();
    assert_eq!(p.to_string(), START);
    assert_eq!(p.perft(3), 8902);
}

// ------------------------------------------------------ suites from data
// tests/perft/*.perft: one harness for every variant's counts.

/// One case of a suite file.
#[derive(Debug)]
struct Case {
    file: String,
    line: usize,
    id: String,
    variant: String,
    position: String,
    counts: Vec<(u32, u64)>,
}

/// Reads a suite file; a malformed line fails with its file and line.
fn read_suite(file: &str, text: &str) -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    let mut open = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            open = false;
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        let at = format!("{file}:{}", i + 1);
        if key == "id" {
            cases.push(Case {
                file: file.to_string(),
                line: i + 1,
                id: value.to_string(),
                variant: String::new(),
                position: String::new(),
                counts: Vec::new(),
            });
            open = true;
            continue;
        }
        assert!(open, "{at}: `{key}` outside a case (start one with `id`)");
        let case = cases.last_mut().expect("a case");
        match key {
            "variant" => case.variant = value.to_string(),
            "position" => case.position = value.to_string(),
            "perft" => {
                let nums: Vec<u64> = value
                    .split_whitespace()
                    .map(|n| {
                        n.parse()
                            .unwrap_or_else(|_| panic!("{at}: `{n}` is no number"))
                    })
                    .collect();
                assert_eq!(nums.len(), 2, "{at}: `perft DEPTH NODES`");
                case.counts.push((nums[0] as u32, nums[1]));
            }
            _ => panic!("{at}: unknown key `{key}`"),
        }
    }
    cases
}

#[test]
fn perft_suites_from_data_files() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("tests/perft")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "perft"))
        .collect();
    files.sort();
    let (mut checked, mut checked_one, mut checked_two) = (0, 0, 0);
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).expect("readable");
        for case in read_suite(&name, &text) {
            let at = format!("{}:{} ({})", case.file, case.line, case.id);
            assert!(!case.counts.is_empty(), "{at}: no perft line");
            let mut p = if case.position == "start" {
                variant(&case.variant).start()
            } else {
                pos(&case.variant, &case.position)
            };
            let before = p.to_string();
            // Boards are searched in the narrowest cell sets that hold
            // them (one word up to 64 cells, two up to 128): the same
            // counts there.
            let mut one = p.with_width::<1>();
            let mut two = p.with_width::<2>().filter(|_| one.is_none());
            for &(d, n) in &case.counts {
                assert_eq!(p.perft(d), n, "{at}: perft({d})");
                checked += 1;
                if let Some(one) = &mut one {
                    assert_eq!(one.perft(d), n, "{at}: perft({d}) in one-word sets");
                    checked_one += 1;
                }
                if let Some(two) = &mut two {
                    assert_eq!(two.perft(d), n, "{at}: perft({d}) in two-word sets");
                    checked_two += 1;
                }
            }
            assert_eq!(p.to_string(), before, "{at}: perft changed the position");
        }
    }
    // The suites are there: a missing folder or emptied files fail.
    assert!(checked >= 100, "only {checked} counts checked");
    assert!(
        checked_one >= 30,
        "only {checked_one} counts checked in one-word sets"
    );
    assert!(
        checked_two >= 30,
        "only {checked_two} counts checked in two-word sets"
    );
}

#[test]
fn a_malformed_suite_line_is_reported_with_its_place() {
    let r = std::panic::catch_unwind(|| read_suite("x.perft", "id a\nvariant chess\nperft 1\n"));
    let msg = *r
        .expect_err("refused")
        .downcast::<String>()
        .expect("a message");
    assert!(msg.contains("x.perft:3"), "{msg}");
}

#[test]
fn divide_sums_to_perft_and_lists_every_legal_move() {
    let mut p = pos("chess", KIWIPETE);
    let div = p.divide(3);
    assert_eq!(div.len(), 48);
    assert_eq!(div.iter().map(|&(_, n)| n).sum::<u64>(), 97_862);
    let mut names: Vec<String> = div.iter().map(|&(m, _)| p.move_to_string(m)).collect();
    names.sort();
    assert_eq!(names, common::legal(&mut p));
    // Two well-known lines of the Kiwipete divide.
    let e1g1 = div
        .iter()
        .find(|&&(m, _)| p.move_to_string(m) == "e1g1")
        .unwrap()
        .1;
    assert_eq!(e1g1, 2059);
    let e1c1 = div
        .iter()
        .find(|&&(m, _)| p.move_to_string(m) == "e1c1")
        .unwrap()
        .1;
    assert_eq!(e1c1, 1887);
}

// ------------------------------------------------------- the reference model
// The reference generator must reproduce the published chess numbers before
// its counts for the fairy variants mean anything.

#[test]
fn reference_generator_reproduces_chess_numbers() {
    let g = reference::chess();
    let cases: &[(&str, &[u64])] = &[
        (START, &[20, 400, 8902]),
        (KIWIPETE, &[48, 2039]),
        (POS3, &[14, 191, 2812]),
        (POS4, &[6, 264, 9467]),
        (POS4_MIRROR, &[6, 264, 9467]),
        (POS5, &[44, 1486]),
        (POS6, &[46, 2079]),
    ];
    for (fen, counts) in cases {
        let p = g.parse(fen).unwrap();
        for (i, &n) in counts.iter().enumerate() {
            assert_eq!(
                g.perft(&p, i as u32 + 1),
                n,
                "reference chess `{fen}` depth {}",
                i + 1
            );
        }
    }
}

#[track_caller]
fn agree(name: &str, game: &reference::Game, fen: &str, depth: u32) {
    let mut p = pos(name, fen);
    if let Some(d) = first_difference(&mut p, game, depth) {
        panic!("{name}: engine and reference disagree after: {d}");
    }
}

#[test]
fn engine_agrees_with_reference_chess() {
    let g = reference::chess();
    agree("chess", &g, KIWIPETE, 2);
    agree("chess", &g, POS4, 2);
}

// --------------------------------------------------------------- Magna Carta

const MC_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBMCBNR w kq - 0 1";

#[test]
fn magna_carta_start_depth_1_to_3() {
    let mut p = variant("magna-carta").start();
    assert_eq!(p.to_string(), MC_START);
    // Depth 1, by hand: 16 pawn moves (8 single + 8 double steps), 4 knight
    // moves (a3 c3 f3 h3), the Marshal's two knight jumps (d1-c3, d1-e3;
    // its rook lines are blocked by c1, e1 and d2) and the Cardinal's two
    // (e1-d3, e1-f3; its diagonals are blocked by d2, f2): 24.
    assert_eq!(p.perft(1), 24);
    // Depth 2, by hand: after any White first move Black has its own 20
    // (16 pawn + 4 knight) moves. No White first move attacks e8 or d8 or a
    // cell that could matter to Black, and no Black first move can be
    // illegal: the only lines to d8/e8 that a Black pawn move opens
    // (d8-a5, e8-a4, e8-h5, d8-h4, the d and e files) hold no White piece
    // after one White move (the Marshal and Cardinal reach only c3, e3, d3,
    // f3 or stay home behind their pawns). No capture is possible. 24 * 20.
    assert_eq!(p.perft(2), 480);
    // Depth 3: computed by the engine and confirmed by the independent
    // reference generator (see `magna_carta_agrees_with_reference_from_start`).
    // Unlike chess, 24 * 20 * n does not hold: the royal Marshal and
    // Cardinal may not move onto a cell Black attacks.
    let d3 = p.perft(3);
    let g = reference::magna_carta();
    assert_eq!(d3, g.perft(&g.parse(MC_START).unwrap(), 3));
    assert_eq!(d3, MAGNA_CARTA_PERFT_3);
}

/// Engine and reference agree on it (checked when this test was written);
/// kept literal so a regression in both cannot go unnoticed.
const MAGNA_CARTA_PERFT_3: u64 = 12_811;

#[test]
fn magna_carta_agrees_with_reference_from_start() {
    agree("magna-carta", &reference::magna_carta(), MC_START, 3);
}

#[test]
fn magna_carta_agrees_with_reference_on_special_positions() {
    let g = reference::magna_carta();
    for fen in [
        // Black castles both ways, White pieces around.
        "r3k2r/pppq1ppp/2n1bn2/3pp3/2B1P3/2NP1N2/PPP2PPP/R2MC2R b kq - 0 1",
        // Two White Marshals (neither royal), a Black Queen hunting them.
        "r3k3/4q3/8/8/N2M4/8/8/M5C1 w - - 0 1",
        // Promotions both sides (Black may make a spare King).
        "4k2q/P7/8/8/8/8/1p6/3MC3 w - - 0 1",
        // Black with two Kings (spare from promotion) and castling rights.
        "r3k2r/3k4/8/1q6/8/8/8/M3M2C w kq - 0 1",
        // En passant with royal pieces on the fifth rank.
        "4k3/8/8/M2pP2q/8/8/8/2C5 w - d6 0 2",
    ] {
        agree("magna-carta", &g, fen, 3);
    }
}

// ---------------------------------------------------------- Caïssa Britannia

#[test]
fn caissa_start_depth_1_is_56_with_the_published_breakdown() {
    let mut p = variant("caissa-britannia").start();
    assert_eq!(p.to_string(), reference::CAISSA_SETUP);
    assert_eq!(p.perft(1), 56);
    let list = p.legal_moves();
    let mut by: BTreeMap<char, usize> = BTreeMap::new();
    for &m in list.iter() {
        *by.entry(mover_letter(&p, m)).or_insert(0) += 1;
    }
    let want: BTreeMap<char, usize> =
        [('P', 20), ('B', 6), ('U', 6), ('L', 18), ('K', 3), ('Q', 3)]
            .into_iter()
            .collect();
    assert_eq!(by, want);
    // Black's side of the symmetric start gives the same breakdown.
    let black = pos(
        "caissa-britannia",
        "drubqkburd/1l6l1/pppppppppp/10/10/10/10/PPPPPPPPPP/1L6L1/DRUBQKBURD b - - 0 1",
    );
    let list = black.legal_moves();
    let mut by: BTreeMap<char, usize> = BTreeMap::new();
    for &m in list.iter() {
        *by.entry(mover_letter(&black, m)).or_insert(0) += 1;
    }
    assert_eq!(by, want);
}

#[test]
fn caissa_reference_breakdown_matches_the_rules_file() {
    let g = reference::caissa();
    let p = g.parse(reference::CAISSA_SETUP).unwrap();
    let by = g.by_letter(&p);
    assert_eq!(g.legal(&p).len(), 56);
    for (l, n) in [('P', 20), ('B', 6), ('U', 6), ('L', 18), ('K', 3), ('Q', 3)] {
        assert_eq!(by.get(&l).copied().unwrap_or(0), n, "reference {l}");
    }
}

#[test]
fn caissa_agrees_with_reference_from_start() {
    agree(
        "caissa-britannia",
        &reference::caissa(),
        reference::CAISSA_SETUP,
        2,
    );
}

#[test]
fn caissa_agrees_with_reference_on_special_positions() {
    let g = reference::caissa();
    for fen in [
        // Queen pass-through, Lions, Dragons, Unicorns in the open.
        "d3q4d/1l2r3l1/p1p1pp1p1p/1u3b4/3K1L4/4U1D3/2D5B1/P1P1Q1P2P/1L4R3/3R6 w - - 0 1",
        // Promotion with liberation (White lacks a Unicorn, a Rook and the
        // Prince Consort).
        "drubqkburd/1lP5l1/pppppppppp/10/10/10/10/PP1PPPPPPP/1L6L1/D2BQ1BURD w - - 0 1",
        // Queens on the same file with one piece between.
        "4q5/10/10/2l7/4B5/10/10/10/10/4Q5 w - - 0 1",
    ] {
        agree("caissa-britannia", &g, fen, 2);
    }
}
