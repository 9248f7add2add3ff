//! The `quadrille` binary as a user runs it: arguments, standard input,
//! standard output, error messages and exit codes.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_quadrille");
const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// What a run of the binary produced.
struct Run {
    ok: bool,
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Run {
    #[track_caller]
    fn success(self) -> Run {
        assert!(
            self.ok,
            "expected success, got {:?}\nstdout:\n{}\nstderr:\n{}",
            self.code, self.stdout, self.stderr
        );
        assert!(!self.stderr.contains("panicked"), "{}", self.stderr);
        self
    }

    /// A refused command: non-zero exit, one `error:` message on stderr
    /// containing every fragment, no panic.
    #[track_caller]
    fn failure(self, fragments: &[&str]) -> Run {
        assert!(
            !self.ok && self.code.is_some_and(|c| c != 0),
            "expected a non-zero exit, got {:?}\nstdout:\n{}",
            self.code,
            self.stdout
        );
        assert!(!self.stderr.contains("panicked"), "{}", self.stderr);
        assert!(
            self.stderr.starts_with("error: "),
            "stderr: {}",
            self.stderr
        );
        for f in fragments {
            assert!(
                self.stderr.contains(f),
                "stderr should contain `{f}`:\n{}",
                self.stderr
            );
        }
        self
    }
}

fn run_with_input(args: &[&str], input: Option<&str>) -> Run {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the quadrille binary runs");
    // Feed standard input from another thread so that a chatty child can
    // never block on a full output pipe while we are still writing.
    let writer = input.map(|text| {
        let mut stdin = child.stdin.take().expect("piped stdin");
        let text = text.to_string();
        std::thread::spawn(move || {
            // The child may quit before reading everything.
            let _ = stdin.write_all(text.as_bytes());
        })
    });
    let out = child.wait_with_output().expect("the binary finishes");
    if let Some(w) = writer {
        w.join().expect("stdin writer");
    }
    Run {
        ok: out.status.success(),
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn run(args: &[&str]) -> Run {
    run_with_input(args, None)
}

fn play(args: &[&str], input: &str) -> Run {
    run_with_input(args, Some(input))
}

/// The `nodes N` total printed by `perft`.
fn nodes(stdout: &str) -> u64 {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("nodes "))
        .unwrap_or_else(|| panic!("no nodes line in:\n{stdout}"));
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// The `move count` lines printed by `perft --divide`.
fn divide_lines(stdout: &str) -> Vec<(String, u64)> {
    stdout
        .lines()
        .filter(|l| !l.starts_with("nodes "))
        .map(|l| {
            let (m, n) = l.split_once(' ').unwrap_or_else(|| panic!("line `{l}`"));
            (m.to_string(), n.parse().unwrap())
        })
        .collect()
}

/// The moves `perft 1 --divide` lists, sorted.
fn legal_moves(args: &[&str]) -> Vec<String> {
    let mut all = vec!["perft"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--divide"]);
    let mut moves: Vec<String> = divide_lines(&run(&all).success().stdout)
        .into_iter()
        .map(|(m, _)| m)
        .collect();
    moves.sort();
    moves
}

fn sorted(moves: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// The position strings printed by the `fen` command of `play`.
fn fens(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter_map(|l| l.rsplit("> ").next())
        .filter(|l| l.contains('/') && l.split_whitespace().count() >= 6)
        .map(str::to_string)
        .collect()
}

/// A scratch directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("quadrille-cli-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        TempDir(dir)
    }

    fn file(&self, name: &str, text: &str) -> String {
        let p = self.0.join(name);
        std::fs::write(&p, text).expect("write temp file");
        p.to_string_lossy().into_owned()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

// ------------------------------------------------------------ help, variants

#[test]
fn help_lists_the_subcommands_with_examples() {
    let r = run(&["--help"]).success();
    for word in [
        "variants",
        "perft",
        "play",
        "show",
        "bench",
        "--variant-file",
    ] {
        assert!(
            r.stdout.contains(word),
            "help lacks `{word}`:\n{}",
            r.stdout
        );
    }
    assert!(r.stdout.contains("Examples:"), "{}", r.stdout);
    let r = run(&["play", "--help"]).success();
    for word in ["--random", "--seed", "--position", "<VARIANT>"] {
        assert!(r.stdout.contains(word), "play help lacks `{word}`");
    }
}

/// Starts `quadrille ARGS` in `dir`, returns its first line of standard
/// output (empty if it ended without one) and its standard error, then
/// stops it.
fn first_line_then_stop(args: &[&str], dir: &Path) -> (String, String) {
    use std::io::{BufRead, Read};
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    child.kill().ok();
    child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (line, err)
}

#[test]
fn serve_listens_and_says_where() {
    let dir = TempDir::new("serve");
    let (line, err) = first_line_then_stop(&["serve", "--port", "0", "--db", "games.db"], &dir.0);
    assert!(line.contains("open http://127.0.0.1:"), "{line}{err}");
    assert!(dir.0.join("games.db").exists());
}

#[test]
fn no_subcommand_serves_the_web_app_on_8080() {
    let dir = TempDir::new("default-serve");
    let (line, err) = first_line_then_stop(&[], &dir.0);
    // Port 8080 may be taken on this machine: then the error names it.
    assert!(
        line.contains("http://127.0.0.1:8080/") || err.contains("127.0.0.1:8080"),
        "stdout: {line}\nstderr: {err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn unknown_subcommand_is_a_usage_error() {
    let r = run(&["frobnicate"]);
    assert!(!r.ok);
    assert!(r.stderr.contains("Usage"), "{}", r.stderr);
}

#[test]
fn variants_lists_the_embedded_games() {
    let out = run(&["variants"]).success().stdout;
    for (name, title) in [
        ("chess", "Chess"),
        ("magna-carta", "Magna Carta Chess"),
        ("caissa-britannia", "Caïssa Britannia"),
    ] {
        let line = out
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("`{name}` not listed:\n{out}"));
        assert!(line.contains(title), "{line}");
        assert!(line.contains("(2 players)"), "{line}");
    }
    // Every embedded variant, and nothing else.
    let listed: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let embedded: Vec<&str> = quadrille_engine::embedded::names().collect();
    assert_eq!(listed, embedded);
}

#[test]
fn unknown_variant_names_the_known_ones() {
    run(&["perft", "chesss", "1"]).failure(&[
        "no embedded variant `chesss`",
        "chess",
        "magna-carta",
        "caissa-britannia",
    ]);
    run(&["show", "nope"]).failure(&["no embedded variant `nope`"]);
    run(&["play", "nope"]).failure(&["no embedded variant `nope`"]);
}

// --------------------------------------------------------------------- perft

#[test]
fn perft_chess_start() {
    let r = run(&["perft", "chess", "3"]).success();
    assert_eq!(nodes(&r.stdout), 8902);
    let line = r.stdout.lines().last().unwrap();
    assert!(line.starts_with("nodes 8902 time "), "{line}");
    assert!(line.contains(" nps "), "{line}");
    assert!(line.contains("bulk-counted"), "{line}");
    assert_eq!(nodes(&run(&["perft", "chess", "1"]).success().stdout), 20);
    assert_eq!(nodes(&run(&["perft", "chess", "0"]).success().stdout), 1);
}

#[test]
fn perft_divide_lines_sum_to_the_total() {
    for (variant, depth, position) in [
        ("chess", "3", CHESS_START),
        ("chess", "2", KIWIPETE),
        ("magna-carta", "2", ""),
        ("caissa-britannia", "2", ""),
    ] {
        let mut args = vec!["perft", variant, depth, "--divide"];
        if !position.is_empty() {
            args.extend(["--position", position]);
        }
        let out = run(&args).success().stdout;
        let lines = divide_lines(&out);
        assert!(!lines.is_empty(), "{out}");
        let sum: u64 = lines.iter().map(|(_, n)| n).sum();
        assert_eq!(sum, nodes(&out), "{variant} {position}");
        // One line per legal first move, each written once.
        let mut moves: Vec<&String> = lines.iter().map(|(m, _)| m).collect();
        moves.sort();
        moves.dedup();
        assert_eq!(moves.len(), lines.len(), "a move listed twice");
    }
    let out = run(&["perft", "chess", "3", "--divide"]).success().stdout;
    assert_eq!(divide_lines(&out).len(), 20);
    assert_eq!(nodes(&out), 8902);
    run(&["perft", "chess", "0", "--divide"]).failure(&["--divide", "depth"]);
}

#[test]
fn perft_from_a_position_string() {
    let r = run(&["perft", "chess", "2", "--position", KIWIPETE]).success();
    assert_eq!(nodes(&r.stdout), 2039);
    // Only the board and the player to move are required.
    let r = run(&["perft", "chess", "1", "--position", "4k3/8/8/8/8/8/8/4K3 w"]).success();
    assert_eq!(nodes(&r.stdout), 5);
}

#[test]
fn malformed_position_strings_name_the_field() {
    for (position, field, detail) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
            "board, rank 1",
            "`X` is not a piece of chess",
        ),
        ("8/8/8 w - - 0 1", "board", "3 ranks given, the board has 8"),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            "board, rank 6",
            "more than 8 cells",
        ),
        (
            "rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            "board, rank 6",
            "7 cells given, the rank has 8",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "to move",
            "`x` is not a player tag",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w KQ - 0 1",
            "castling",
            "needs the king on e1 and the rook on h1",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KZ - 0 1",
            "castling",
            "`Z` is not a castling of chess",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
            "en passant",
            "`e9` is not a cell",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
            "en passant",
            "no pawn that just stepped past e3",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
            "halfmove clock",
            "`x` is not a number",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
            "fullmove number",
            "`0` is not a number from 1",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
            "string",
            "unexpected field `extra`",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
            "string",
            "needs at least the board and the player to move",
        ),
    ] {
        let field_text = format!("position string, {field}: ");
        let r = run(&["perft", "chess", "1", "--position", position])
            .failure(&[field_text.as_str(), detail]);
        assert!(r.stdout.is_empty(), "no count for a bad position");
        play(&["play", "chess", "--position", position], "").failure(&[field_text.as_str()]);
    }
}

// ------------------------------------------------------------ variant files

/// Gardner's 5x5 minichess: FIDE pieces, no double step, no castling.
const GARDNER: &str = r#"
name = "gardner"
title = "Gardner minichess"
description = "FIDE pieces on a 5x5 board."
setup = "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1"

[board]
files = 5
ranks = 5

[[armies]]
name = "White"
tag = "w"

[[armies]]
name = "Black"
tag = "b"

[[players]]
name = "White"
tag = "w"
army = "White"
forward = "north"

[[players]]
name = "Black"
tag = "b"
army = "Black"
forward = "south"

[[pieces]]
letter = "K"
name = "King"
betza = "K"

[[pieces]]
letter = "Q"
name = "Queen"
betza = "Q"

[[pieces]]
letter = "R"
name = "Rook"
betza = "R"

[[pieces]]
letter = "B"
name = "Bishop"
betza = "B"

[[pieces]]
letter = "N"
name = "Knight"
betza = "N"

[[pieces]]
letter = "P"
name = "Pawn"
betza = "mfWcfF"
pawn = true

[rules]
royal.must_retain = { White = "K", Black = "K" }
promotion = { pieces = "P", zone = { White = "a5-e5", Black = "a1-e1" }, choices = { White = "QRBN", Black = "QRBN" } }
"#;

#[test]
fn variant_file_gardner_minichess() {
    let dir = TempDir::new("gardner");
    let path = dir.file("gardner.toml", GARDNER);
    // The same counts as Fairy-Stockfish's built-in `gardner` variant.
    for (depth, expected) in [("1", 7), ("2", 53), ("3", 506), ("4", 4775)] {
        let r = run(&["--variant-file", &path, "perft", "gardner", depth]).success();
        assert_eq!(nodes(&r.stdout), expected, "depth {depth}");
    }
    // The option may also follow the subcommand.
    let r = run(&["perft", "gardner", "1", "--variant-file", &path]).success();
    assert_eq!(nodes(&r.stdout), 7);
    let show = run(&["--variant-file", &path, "show", "gardner"])
        .success()
        .stdout;
    assert!(show.starts_with("Gardner minichess (gardner)"), "{show}");
    assert!(show.contains("Board: 5 files x 5 ranks"), "{show}");
    let out = play(
        &["--variant-file", &path, "play", "gardner"],
        "b2b3\nfen\nquit\n",
    )
    .success()
    .stdout;
    assert_eq!(fens(&out), ["rnbqk/ppppp/1P3/P1PPP/RNBQK b - - 0 1"]);
}

/// Writes GARDNER with one edit and returns the error `perft` prints.
#[track_caller]
fn broken(dir: &TempDir, name: &str, from: &str, to: &str, fragments: &[&str]) {
    assert!(GARDNER.contains(from), "`{from}` not in the file");
    let path = dir.file(name, &GARDNER.replacen(from, to, 1));
    let mut all = vec![path.as_str()];
    all.extend_from_slice(fragments);
    run(&["--variant-file", &path, "perft", "gardner", "1"]).failure(&all);
    run(&["--variant-file", &path, "show", "gardner"]).failure(&[path.as_str()]);
}

#[test]
fn malformed_variant_files_name_the_file_the_place_and_the_problem() {
    let dir = TempDir::new("broken");
    // TOML syntax: the line and column of the mistake.
    broken(
        &dir,
        "syntax.toml",
        "ranks = 5",
        "ranks = = 5",
        &["line 9, column 9", "invalid string"],
    );
    broken(
        &dir,
        "unclosed.toml",
        "name = \"King\"",
        "name = \"King",
        &["line 33", "invalid basic string"],
    );
    // A key the format does not have.
    broken(
        &dir,
        "unknown-key.toml",
        "pawn = true",
        "pawn = true\ncolour = \"red\"",
        &["line 61, column 1", "unknown field `colour`", "`pawn`"],
    );
    broken(
        &dir,
        "unknown-table.toml",
        "[rules]",
        "[rulez]",
        &["unknown field `rulez`", "`rules`"],
    );
    broken(
        &dir,
        "missing-key.toml",
        "files = 5\n",
        "",
        &["missing field `files`"],
    );
    broken(
        &dir,
        "wrong-type.toml",
        "files = 5",
        "files = \"five\"",
        &[
            "line 8, column 9",
            "invalid type: string \"five\", expected u8",
        ],
    );
    // Betza: the piece, the character and its place.
    broken(
        &dir,
        "betza.toml",
        "betza = \"N\"",
        "betza = \"Nx\"",
        &[
            "pieces[4].betza",
            "piece N (Knight)",
            "character 2",
            "`x` is not a Betza atom or supported modifier",
        ],
    );
    broken(
        &dir,
        "betza-dangling.toml",
        "betza = \"mfWcfF\"",
        "betza = \"mfWcf\"",
        &[
            "pieces[5].betza",
            "piece P (Pawn)",
            "modifiers without an atom",
        ],
    );
    broken(
        &dir,
        "betza-hop.toml",
        "betza = \"N\"",
        "betza = \"pN\"",
        &["pieces[4].betza", "`p` needs a rider line"],
    );
    // Cells: the key and the cell.
    broken(
        &dir,
        "cell.toml",
        "a5-e5",
        "a5-e9",
        &[
            "rules.promotion.zone.White",
            "`e9` is not a cell of this board",
        ],
    );
    broken(
        &dir,
        "cell-file.toml",
        "a1-e1",
        "z1",
        &[
            "rules.promotion.zone.Black",
            "`z1` is not a cell of this board",
        ],
    );
    // Names that refer to nothing.
    broken(
        &dir,
        "army.toml",
        "army = \"Black\"",
        "army = \"Blue\"",
        &["players[1].army", "no army named `Blue`"],
    );
    broken(
        &dir,
        "player.toml",
        "choices = { White = \"QRBN\"",
        "choices = { Wite = \"QRBN\"",
        &["rules.promotion.choices.Wite", "no player named `Wite`"],
    );
    broken(
        &dir,
        "letter.toml",
        "White = \"K\", Black = \"K\"",
        "White = \"K\", Black = \"X\"",
        &["rules.royal.must_retain.Black", "no piece with letter `X`"],
    );
    broken(
        &dir,
        "forward.toml",
        "forward = \"south\"",
        "forward = \"down\"",
        &["players[1].forward", "north, east, south or west"],
    );
    // The setup is a position string of the variant.
    broken(
        &dir,
        "setup.toml",
        "RNBQK w",
        "RNBQX w",
        &[
            "setup",
            "position string, board, rank 1",
            "`X` is not a piece",
        ],
    );
    // No such file.
    let missing = dir.0.join("missing.toml").to_string_lossy().into_owned();
    run(&["--variant-file", &missing, "perft", "x", "1"])
        .failure(&[missing.as_str(), "No such file"]);
}

#[test]
fn three_armies_write_each_piece_with_its_army_tag() {
    let dir = TempDir::new("three");
    let path = dir.file(
        "three.toml",
        r#"
name = "three"
setup = "2rK2/5/gK3uK/5/5 r"
[board]
files = 5
ranks = 5
[[armies]]
name = "Red"
tag = "r"
[[armies]]
name = "Green"
tag = "g"
[[armies]]
name = "Blue"
tag = "u"
[[players]]
name = "Red"
tag = "r"
army = "Red"
forward = "south"
[[players]]
name = "Green"
tag = "g"
army = "Green"
forward = "east"
[[players]]
name = "Blue"
tag = "u"
army = "Blue"
forward = "west"
[[pieces]]
letter = "K"
name = "King"
betza = "K"
[rules]
royal.must_retain = { Red = "K", Green = "K", Blue = "K" }
"#,
    );
    // The Red King on c5 may not step next to the Green or Blue King.
    assert_eq!(
        legal_moves(&["x", "1", "--variant-file", &path]),
        sorted(&["c5b5", "c5c4", "c5d5"])
    );
    let out = play(&["--variant-file", &path, "play", "x"], "c5c4\nfen\n")
        .success()
        .stdout;
    assert_eq!(fens(&out), ["5/2rK2/gK3uK/5/5 g - - 1 1"]);
    assert!(out.contains("rK"), "the board shows army tags:\n{out}");
}

// -------------------------------------------- the worked example of the docs

const CANNON_COURT: &str = "cannon-court.toml";

fn court(args: &[&str]) -> Vec<String> {
    let path = fixture(CANNON_COURT);
    let mut all = vec!["cannon-court", "1", "--variant-file", path.as_str()];
    all.extend_from_slice(args);
    legal_moves(&all)
}

#[test]
fn worked_example_is_the_fixture_verbatim() {
    let text = std::fs::read_to_string(fixture(CANNON_COURT)).unwrap();
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/variants.md");
    let docs = std::fs::read_to_string(docs).unwrap();
    assert!(
        docs.contains(&format!("```toml\n{text}```")),
        "docs/variants.md must quote tests/fixtures/{CANNON_COURT} whole, in one toml block"
    );
}

#[test]
fn worked_example_loads_and_counts() {
    let path = fixture(CANNON_COURT);
    // Counted by hand in docs/variants.md: twelve Pawn moves and the
    // Cannon's capture on e5, then Black's replies.
    assert_eq!(
        court(&[]),
        sorted(&[
            "a2a3", "a2a4", "b2b3", "b2b4", "c2c3", "c2c4", "d2d3", "d2d4", "e2e3", "e2e4", "f2f3",
            "f2f4", "e1e5",
        ])
    );
    let r = run(&["--variant-file", &path, "perft", "cannon-court", "2"]).success();
    assert_eq!(nodes(&r.stdout), 160);
    let show = run(&["--variant-file", &path, "show", "cannon-court"])
        .success()
        .stdout;
    for line in [
        "Cannon Court (cannon-court)",
        "Board: 6 files x 6 ranks (ranks from 1), 32 cells: b1-e1 a2-f5 b6-e6",
        "  H Horse (nN)",
        "leaps as a (2,1) leaper unless blocked on the way",
        "  C Cannon (mRcpR)",
        "captures only: hops orthogonally over exactly one piece",
        "  N Nightrider (NN)",
        "White promotes P to RHCN on a5 f5 b6-e6 (optional on b5-e5)",
        "stalemate: loss",
    ] {
        assert!(show.contains(line), "show lacks `{line}`:\n{show}");
    }
}

#[test]
fn worked_example_rules_behave_as_documented() {
    // The Horse is lame: the Pawn on c4 blocks c3-b5 and c3-d5.
    assert_eq!(
        court(&["--position", "1k2/6/2P3/2H3/6/1K2 w"])
            .into_iter()
            .filter(|m| m.starts_with("c3"))
            .collect::<Vec<_>>(),
        sorted(&["c3a2", "c3a4", "c3b1", "c3d1", "c3e2", "c3e4"])
    );
    // a1 does not exist: no Horse move lands there.
    assert_eq!(
        court(&["--position", "1k2/6/6/1H4/6/2K1 w"])
            .into_iter()
            .filter(|m| m.starts_with("b3"))
            .collect::<Vec<_>>(),
        sorted(&["b3a5", "b3c1", "b3c5", "b3d2", "b3d4"])
    );
    // a5 is the end of the a-file (a6 does not exist): promotion there is
    // compulsory; on b5 it is optional.
    assert_eq!(
        court(&["--position", "2k1/6/P5/6/6/1K2 w"])
            .into_iter()
            .filter(|m| m.starts_with("a4"))
            .collect::<Vec<_>>(),
        sorted(&["a4a5c", "a4a5h", "a4a5n", "a4a5r"])
    );
    assert_eq!(
        court(&["--position", "2k1/6/1P4/6/6/1K2 w"])
            .into_iter()
            .filter(|m| m.starts_with("b4"))
            .collect::<Vec<_>>(),
        sorted(&["b4b5", "b4b5c", "b4b5h", "b4b5n", "b4b5r"])
    );
    // Double step and en passant, and stalemate loses.
    let path = fixture(CANNON_COURT);
    let out = play(
        &[
            "--variant-file",
            &path,
            "play",
            "cannon-court",
            "--position",
            "2k1/3p2/6/2P3/6/1K2 b - - 0 1",
        ],
        "d5d3\nfen\nc3d4\nfen\nquit\n",
    )
    .success()
    .stdout;
    assert_eq!(
        fens(&out),
        [
            "2k1/6/6/2Pp2/6/1K2 w - d4 0 2",
            "2k1/6/3P2/6/6/1K2 b - - 0 2"
        ]
    );
    let out = play(
        &[
            "--variant-file",
            &path,
            "play",
            "cannon-court",
            "--position",
            "k3/6/K5/6/6/1R2 b - - 0 1",
        ],
        "",
    )
    .success()
    .stdout;
    assert!(out.contains("Game over: White wins (stalemate)."), "{out}");
}

// ---------------------------------------------------------------------- show

#[test]
fn show_describes_every_piece_of_every_variant() {
    for name in quadrille_engine::embedded::names() {
        let v = quadrille_engine::embedded::variant(name).unwrap();
        let out = run(&["show", name]).success().stdout;
        assert!(out.contains(&v.setup), "{name}: setup missing");
        assert!(out.contains("Rules:"), "{name}");
        let lines: Vec<&str> = out.lines().collect();
        for p in &v.pieces {
            let head = format!("  {} {} ({})", p.letter, p.name, p.betza);
            let i = lines
                .iter()
                .position(|l| *l == head)
                .unwrap_or_else(|| panic!("{name}: no line `{head}`:\n{out}"));
            // Then one description per move atom.
            let described = lines[i + 1..]
                .iter()
                .take_while(|l| l.starts_with("      "))
                .count();
            assert_eq!(described, p.atoms.len(), "{name} {}", p.name);
        }
    }
}

#[test]
fn show_chess_in_words() {
    let out = run(&["show", "chess"]).success().stdout;
    for line in [
        "Chess (chess)",
        "Board: 8 files x 8 ranks (ranks from 1), 64 cells: a1-h8",
        "  White [tag w, army White, forward north]",
        "  N Knight (N)\n      moves or captures: jumps as a (2,1) leaper\n",
        "  P Pawn (mfWcfF)\n      moves (no capture): steps orthogonally, forward (1 of 4 directions)\n      captures only: steps diagonally, forward (2 of 4 directions)\n",
        "  castling K: White king e1-g1, rook h1-f1",
        "  White promotes P to QRBN on a8-h8",
        "  double step for P, with en passant",
        "stalemate: draw; repetition: 3-fold; no progress: 50 moves per player; bare royals draw",
    ] {
        assert!(out.contains(line), "show chess lacks `{line}`:\n{out}");
    }
    let out = run(&["show", "caissa-britannia"]).success().stdout;
    assert!(out.contains("  L Lion (mQcpQ)"), "{out}");
    assert!(out.contains("captures only: hops orthogonally over exactly one piece"));
    assert!(out.contains("a royal piece may not pass over an attacked cell"));
    let out = run(&["show", "avon"]).success().stdout;
    assert!(out.contains("home a0-h4"), "{out}");
    assert!(out.contains("drops out"), "{out}");
}

// ---------------------------------------------------------------------- play

#[test]
fn play_human_against_human() {
    let r = play(&["play", "chess"], "e2e4\ne7e5\ng1f3\nfen\nquit\n").success();
    assert_eq!(
        fens(&r.stdout),
        ["rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"]
    );
    // The board is drawn with coordinates and whose turn it is.
    assert!(r.stdout.contains("    a b c d e f g h"), "{}", r.stdout);
    assert!(r.stdout.contains("  1 R N B Q K B N R"), "{}", r.stdout);
    assert!(r.stdout.contains("White to move"), "{}", r.stdout);
    assert!(r.stdout.contains("Black> "), "{}", r.stdout);
}

#[test]
fn play_refuses_bad_moves_and_goes_on() {
    let r = play(
        &["play", "chess"],
        "e2e5\ne7e5\nzz\ne2e4\ne2e4q\ne7e5\nfen\n",
    )
    .success();
    for message in [
        "move `e2e5`: the piece cannot move there",
        "move `e7e5`: the piece on e7 is not yours to move",
        "move `zz`: does not start with a cell such as e2",
        "move `e2e4q`: no piece on e2",
    ] {
        assert!(r.stdout.contains(message), "no `{message}`:\n{}", r.stdout);
    }
    assert!(r.stdout.contains("type `moves` for the legal moves"));
    assert_eq!(
        fens(&r.stdout),
        ["rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"]
    );
}

#[test]
fn play_promotion_needs_a_choice() {
    let r = play(
        &[
            "play",
            "chess",
            "--position",
            "7k/4P3/8/8/8/8/8/K7 w - - 0 1",
        ],
        "e7e8\ne7e8x\ne7e8n\nfen\n",
    )
    .success();
    assert!(
        r.stdout
            .contains("move `e7e8`: choose a promotion: q, r, b, n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("`x` is not a piece letter"),
        "{}",
        r.stdout
    );
    assert_eq!(fens(&r.stdout), ["4N2k/8/8/8/8/8/8/K7 b - - 0 1"]);
}

#[test]
fn play_commands_moves_undo_help() {
    let r = play(&["play", "chess"], "moves\ne2e4\nundo\nundo\nhelp\nfen\n").success();
    let moves = r
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("White> ").filter(|m| m.contains("e2e4")))
        .unwrap_or_else(|| panic!("no move list:\n{}", r.stdout));
    assert_eq!(moves.split_whitespace().count(), 20, "{moves}");
    assert!(r.stdout.contains("nothing to undo"), "{}", r.stdout);
    assert_eq!(r.stdout.matches("Enter a move like").count(), 2);
    assert_eq!(fens(&r.stdout), [CHESS_START]);
}

#[test]
fn play_to_checkmate() {
    let r = play(&["play", "chess"], "f2f3\ne7e5\ng2g4\nd8h4\n").success();
    assert!(r.stdout.contains("White to move (White army), in check"));
    assert!(
        r.stdout
            .trim_end()
            .ends_with("Game over: Black wins (checkmate)."),
        "{}",
        r.stdout
    );
}

#[test]
fn play_quit_and_end_of_input_leave_quietly() {
    for input in ["quit\n", "exit\n", "", "e2e4\n", "e2e4"] {
        let r = play(&["play", "chess"], input).success();
        assert!(r.stderr.is_empty(), "{input:?}: {}", r.stderr);
        assert!(!r.stdout.contains("Game over"), "{input:?}");
    }
    // Nothing after `quit` is read.
    let r = play(&["play", "chess"], "quit\ne2e4\nfen\n").success();
    assert!(fens(&r.stdout).is_empty());
}

#[test]
fn play_against_a_random_mover() {
    let args = ["play", "chess", "--random", "b", "--seed", "11"];
    let r = play(&args, "e2e4\nfen\nundo\nfen\nquit\n").success();
    assert!(r.stdout.contains("Black plays "), "{}", r.stdout);
    let f = fens(&r.stdout);
    assert_eq!(f.len(), 2);
    assert!(f[0].contains(" w KQkq"), "Black has replied: {}", f[0]);
    // `undo` takes back the random reply and the human move.
    assert_eq!(f[1], CHESS_START);
    // The same seed, the same game.
    assert_eq!(
        play(&args, "e2e4\nquit\n").stdout,
        play(&args, "e2e4\nquit\n").stdout
    );
}

#[test]
fn random_movers_finish_every_game_without_panic() {
    for name in quadrille_engine::embedded::names() {
        let v = quadrille_engine::embedded::variant(name).unwrap();
        let seats: Vec<String> = v.players.iter().map(|p| p.tag.to_string()).collect();
        let seats = seats.join(",");
        for seed in ["1", "2"] {
            let args = ["play", name, "--random", &seats, "--seed", seed];
            let r = play(&args, "").success();
            assert!(r.stdout.contains("Game over: "), "{name} seed {seed}");
            assert_eq!(
                play(&args, "").stdout,
                r.stdout,
                "{name}: seeded games repeat"
            );
            if v.players.len() > 2 {
                assert!(r.stdout.contains("  1. "), "{name}: players are ranked");
            }
        }
    }
}

#[test]
fn play_rejects_unknown_random_seats() {
    play(&["play", "chess", "--random", "q"], "")
        .failure(&["--random: `q` is not a player tag of chess", "tags: w, b"]);
}

// ------------------------------------------------------------- Pass (Aikou)

#[test]
fn perft_and_divide_of_xiang_aikou() {
    assert_eq!(
        nodes(&run(&["perft", "xiang-aikou", "3"]).success().stdout),
        17526
    );
    let moves = legal_moves(&["xiang-aikou", "1"]);
    assert_eq!(moves.len(), 26, "{moves:?}");
    assert!(
        moves.contains(&"e5f5".to_string()),
        "the diagonal Soldier goes east"
    );
    assert!(moves.contains(&"d3d6".to_string()), "the Cannon hops d5");
}

#[test]
fn show_describes_the_pass_rules() {
    let out = run(&["show", "xiang-aikou"]).success().stdout;
    for line in [
        "Board: 10 files x 10 ranks (ranks from 1), 100 cells: a1-j10",
        "  River sections: west (a5-e5 | a6-e6), east (f5-j5 | f6-j6), south (e1-e5 | f1-f5), north (e6-e10 | f6-f10)",
        "  far sections of Red: east north",
        "  E may not cross a far section",
        "  GA of Red must end their moves on a1-c3",
        "  S of Red moves as frW facing north on a1 b2 c3 d4 e5",
        "  S of Red moves as W facing north on f6-j10",
        "  G of different armies attack each other along open R lines (facing)",
        "  the game ends when 2 players are left",
        "  series score: the winner 3, the others 3 minus the other players still in when they went out",
    ] {
        assert!(out.contains(line), "show xiang-aikou lacks `{line}`:\n{out}");
    }
    let out = run(&["show", "gnu-aikou"]).success().stdout;
    assert!(
        out.contains(
            "  BC cross a far section only by a move that neither starts nor ends beside it"
        ),
        "{out}"
    );
    let out = run(&["show", "yang-aikou"]).success().stdout;
    for line in [
        "  K may instead swap places with its own ABNRC within K reach, unless attacked",
        "  Red promotes P to a captured type (not K) on j1-j9 a10-j10",
    ] {
        assert!(out.contains(line), "show yang-aikou lacks `{line}`:\n{out}");
    }
    assert!(!out.contains("River sections"), "Yang Aikou has no Rivers");
}

#[test]
fn play_yang_aikou_swap_and_the_end_with_series_scores() {
    // Red's King b2 swaps with its Arrow a1 (written as the King's move).
    let fen = "bK8gK/10/10/10/10/10/10/1rBrP7/1rKrN7/rA8oK r - - 0 1";
    let r = play(
        &["play", "yang-aikou", "--position", fen],
        "b2a1\nfen\nquit\n",
    )
    .success();
    let f = fens(&r.stdout);
    assert_eq!(f.len(), 1, "{}", r.stdout);
    assert!(f[0].ends_with("/1rArN7/rK8oK o - - 1 1"), "{}", f[0]);
    // Anglis Aikou, Blue out: Red's Knight j7 uncovers Orange's Rook j5 on
    // Green's King j10. Green is checkmated, two players are left: Orange,
    // whose threat it was, wins.
    let fen = "9gK/10/10/9rN/10/9oR/10/10/10/rK7oK1 r - - 0 1 out=b";
    let r = play(&["play", "anglis-aikou", "--position", fen], "j7h6\n").success();
    for line in [
        "Game over: Orange wins (players left).",
        "  1. Orange",
        "  2. Red",
        "  3. Green",
        "  4. Blue",
        "Series scores: Red 2, Orange 3, Green 1, Blue 0",
    ] {
        assert!(r.stdout.contains(line), "lacks `{line}`:\n{}", r.stdout);
    }
}
