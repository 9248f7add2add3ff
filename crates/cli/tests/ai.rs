//! The AI's subcommands as a user runs them: `analyze`, `selfplay`,
//! `play --ai`, `uci`, `xboard`, `bench --search`.

use quadrille_engine::embedded;
use quadrille_search::Weights;
use std::io::Write;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_quadrille");

/// Runs the binary with `input` on standard input.
fn quadrille(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("piped");
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("it finishes");
    writer.join().expect("input written");
    out
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn analyze_prints_iterations_and_the_best_move() {
    let out = quadrille(
        &["analyze", "chess", "--depth", "4", "--moves", "e2e4 e7e5"],
        "",
    );
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("piece values: K="), "{stdout}");
    let rows: Vec<&str> = stdout
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    assert_eq!(rows.len(), 4, "{stdout}");
    let best = stdout.lines().last().unwrap();
    assert!(
        best.starts_with("best ") && best.contains("nodes/s"),
        "{best}"
    );
}

/// `--weights`: the evaluation reads the file's weights (its piece value
/// shows); a file that is not weights is an error naming the option.
#[test]
fn analyze_with_a_weights_file() {
    let dir = std::env::temp_dir().join(format!("quadrille-analyze-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("queen.toml");
    std::fs::write(&good, "[values]\nQ = 2000\n").unwrap();
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "bogus = 1\n").unwrap();
    let (good, bad) = (good.to_str().unwrap(), bad.to_str().unwrap());
    let out = quadrille(&["analyze", "chess", "--depth", "2", "--weights", good], "");
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("Q=2000 (file)"), "{stdout}");
    let out = quadrille(&["analyze", "chess", "--depth", "2", "--weights", bad], "");
    let (_, stderr) = text(&out);
    assert!(!out.status.success());
    assert!(
        stderr.starts_with(&format!("error: --weights: {bad}:")) && stderr.contains("bogus"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn analyze_refuses_an_illegal_move_first() {
    let out = quadrille(&["analyze", "chess", "--moves", "e2e5"], "");
    let (_, stderr) = text(&out);
    assert!(!out.status.success());
    assert!(
        stderr.starts_with("error: --moves: move `e2e5`"),
        "{stderr}"
    );
}

/// `--multi` picks the four-player search; `auto` (the default) is the
/// one measured the stronger in both families: Paranoid.
#[test]
fn analyze_names_the_four_player_search() {
    for (variant, args, algorithm) in [
        ("tor-aikou", &[][..], "(paranoid)"),
        ("sylvia", &[][..], "(paranoid)"),
        ("sylvia", &["--multi", "brs"][..], "(brs+)"),
        ("tor-aikou", &["--multi", "maxn"][..], "(maxn)"),
    ] {
        let mut all = vec!["analyze", variant, "--depth", "1"];
        all.extend_from_slice(args);
        let out = quadrille(&all, "");
        let (stdout, stderr) = text(&out);
        assert!(out.status.success(), "{stderr}");
        let best = stdout.lines().last().unwrap();
        assert!(best.ends_with(algorithm), "{variant} {args:?}: {best}");
    }
    let out = quadrille(&["analyze", "tor-aikou", "--multi", "minimax"], "");
    let (_, stderr) = text(&out);
    assert!(!out.status.success());
    assert!(
        stderr.contains("'minimax'") && stderr.contains("auto, brs, paranoid, maxn"),
        "{stderr}"
    );
}

#[test]
fn selfplay_prints_a_table_with_elo() {
    let out = quadrille(
        &[
            "selfplay",
            "chess",
            "--a",
            "search:depth=2",
            "--b",
            "random",
            "--games",
            "2",
            "--quiet",
        ],
        "",
    );
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("Elo (95% interval)"), "{stdout}");
    assert!(stdout.contains("search:depth=2"), "{stdout}");
    assert!(stdout.contains("illegal moves: 0"), "{stdout}");
    // Each row: name, games, score, won, drawn, lost, firsts, Elo. In a
    // two-player game the first places are the wins plus half the draws.
    for line in stdout
        .lines()
        .filter(|l| l.starts_with("search:") || l.starts_with("random"))
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let num = |i: usize| f[i].parse::<f64>().unwrap_or_else(|_| panic!("{line}"));
        assert_eq!(num(6), num(3) + num(4) / 2.0, "{line}");
        assert!(
            f[7].starts_with('+') || f[7].starts_with('-') || f[7] == "0",
            "{line}"
        );
    }
}

#[test]
fn a_four_player_sprt_stops_when_it_decides() {
    // A random mover against the one-ply player: a clear loss, decided
    // long before the 120 games allowed.
    let args = ["selfplay", "xiang-aikou", "--a", "random", "--b", "greedy"];
    let more = ["--games", "120", "--max-plies", "200", "--sprt", "0,50"];
    let out = quadrille(&[&args[..], &more, &["--quiet"]].concat(), "");
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    let verdict = stdout.lines().last().unwrap();
    assert!(verdict.starts_with("SPRT [0, 50]: LLR -"), "{stdout}");
    assert!(verdict.contains("H0 accepted"), "{verdict}");
    let games: usize = stdout
        .lines()
        .find(|l| l.starts_with("random "))
        .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        .expect("a row for the first contender");
    assert!((6..120).contains(&games), "{stdout}");
    // Reversed bounds are refused, naming the option.
    let out = quadrille(&[&args[..], &["--sprt", "10,0"]].concat(), "");
    let (_, stderr) = text(&out);
    assert!(!out.status.success());
    assert!(
        stderr.contains("--sprt") && stderr.contains("`10,0`"),
        "{stderr}"
    );
}

#[test]
fn selfplay_refuses_an_unknown_contender() {
    let out = quadrille(&["selfplay", "chess", "--b", "search:speed=9"], "");
    let (_, stderr) = text(&out);
    assert!(!out.status.success());
    assert!(stderr.contains("unknown setting `speed`"), "{stderr}");
}

#[test]
fn play_against_the_ai() {
    let out = quadrille(
        &["play", "chess", "--ai", "b", "--depth", "2"],
        "e2e4\nquit\n",
    );
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    let reply = stdout
        .lines()
        .find(|l| l.starts_with("Black plays "))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(reply.contains("depth 2"), "{reply}");
    let bad = quadrille(&["play", "chess", "--ai", "z"], "");
    assert!(!bad.status.success());
    assert!(text(&bad).1.contains("`z` is not a player tag"));
    let both = quadrille(&["play", "chess", "--ai", "b", "--random", "b"], "");
    assert!(text(&both).1.contains("both --random and --ai"));
}

#[test]
fn uci_and_xboard_on_standard_input() {
    let out = quadrille(&["uci"], "uci\nposition startpos\ngo depth 2\nbogus\n");
    let (stdout, _) = text(&out);
    assert!(out.status.success());
    assert!(
        stdout.contains("uciok") && stdout.contains("bestmove "),
        "{stdout}"
    );
    assert!(stdout.contains("info string error: unknown command `bogus`"));
    let out = quadrille(
        &["xboard"],
        "xboard\nprotover 2\nnew\nsd 2\nusermove e2e4\nping 1\n",
    );
    let (stdout, _) = text(&out);
    assert!(out.status.success());
    assert!(
        stdout.contains("feature done=1") && stdout.contains("\nmove "),
        "{stdout}"
    );
    assert!(stdout.trim_end().ends_with("pong 1"), "{stdout}");
}

#[test]
fn bench_search_measures_each_variant() {
    let out = quadrille(&["bench", "--search", "200", "chess", "ariana"], "");
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout
        .lines()
        .any(|l| l.starts_with("chess") && l.contains(" pvs ")));
    assert!(stdout
        .lines()
        .any(|l| l.starts_with("ariana") && l.contains(" paranoid ")));
}

/// Replays every game of a `match --record` file with the engine: each
/// move must be legal where it was played. Returns the number of games.
fn replay_record(variant: &str, record: &str) -> usize {
    let v = quadrille_engine::embedded::variant(variant).expect("embedded");
    let mut games = 0;
    for line in record.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 6, "{line}");
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&f[3]), "{line}");
        let mut pos = quadrille_engine::Position::from_string(v.clone(), f[0]).expect(line);
        for text in f[5].split_whitespace() {
            let m = pos
                .parse_move(text)
                .unwrap_or_else(|e| panic!("{text} in {pos}: {e}"));
            pos.make(m);
        }
        games += 1;
    }
    games
}

/// Runs `quadrille match VARIANT ARGS... --games 2 --record FILE`; checks
/// that it succeeds with no illegal move and that the record replays.
/// Returns standard output and the record.
fn recorded_match(variant: &str, args: &[&str]) -> (String, String) {
    // A directory per call: tests run at once, and two may match in the
    // same variant (one removing its directory while the other writes).
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "quadrille-match-{variant}-{}-{call}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("games.txt");
    let mut all = vec!["match", variant, "--games", "2"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--record", record.to_str().unwrap()]);
    let out = quadrille(&all, "");
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("illegal moves: 0"), "{stdout}");
    let games = std::fs::read_to_string(&record).unwrap();
    assert_eq!(replay_record(variant, &games), 2);
    std::fs::remove_dir_all(&dir).ok();
    (stdout, games)
}

#[test]
fn match_against_a_uci_engine_plays_legal_recorded_games() {
    let uci = format!("uci:{BIN} uci");
    let args = ["--a", "search:movetime=5", "--b", &uci, "--tc", "5ms"];
    let (stdout, games) = recorded_match("chess", &[&args[..], &["--sprt", "0,10"]].concat());
    assert!(stdout.contains("games 2:"), "{stdout}");
    assert!(stdout.contains("SPRT [0, 10]"), "{stdout}");
    // Each opening is played once with each colour, A first with White.
    let lines: Vec<Vec<&str>> = games.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(lines[0][0], lines[1][0]);
    assert_eq!(lines[0][1], "search:movetime=5");
    assert_eq!(lines[1][2], "search:movetime=5");
}

#[test]
fn match_at_equal_depth_against_a_uci_engine() {
    let uci = format!("uci:{BIN} uci");
    let args = ["--a", "search", "--b", &uci, "--tc", "depth=2"];
    let (stdout, _) = recorded_match("chess", &args);
    assert!(stdout.contains("Depth(2)"), "{stdout}");
    assert!(stdout.contains("games 2:"), "{stdout}");
}

#[test]
fn match_at_equal_nodes_does_not_depend_on_the_load() {
    let uci = format!("uci:{BIN} uci");
    let args = ["--a", "search", "--b", &uci, "--tc", "nodes=500"];
    let (stdout, first) = recorded_match("chess", &args);
    assert!(stdout.contains("Nodes(500)"), "{stdout}");
    // Both players stop at a count of nodes, not a clock: the same games
    // again, move for move.
    let (_, second) = recorded_match("chess", &args);
    assert_eq!(first, second);
}

#[test]
fn a_match_bound_by_nodes_plays_each_opening_once() {
    // Under a node bound an opening played again replays its two games:
    // a book of one opening gives one pair, however many games are asked.
    let dir = std::env::temp_dir().join(format!("quadrille-once-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("book.txt");
    std::fs::write(
        &book,
        "# one opening\nrnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n",
    )
    .unwrap();
    let book = book.to_str().unwrap();
    let args = [
        "match", "chess", "--b", "search", "--games", "6", "--book", book,
    ];
    let out = quadrille(&[&args[..], &["--tc", "nodes=300"]].concat(), "");
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("2 games at most"), "{stdout}");
    assert!(
        stdout.contains("games 2:") && !stdout.contains("games 4:"),
        "{stdout}"
    );
    // A clock does not replay: all the games asked for are played.
    let out = quadrille(&[&args[..], &["--tc", "2ms"]].concat(), "");
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("games 6:"), "{stdout}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn match_with_a_clock_between_two_configurations() {
    let args = [
        "--b",
        "search:tune=check_extension:2",
        "--tc",
        "0.5+0.01",
        "--quiet",
    ];
    let (stdout, _) = recorded_match("magna-carta", &args);
    // Both players thought and left time on their clocks: no flag fell, and
    // each clock keeps at least its increment after every move.
    assert!(!stdout.contains("time forfeit"), "{stdout}");
    let line = stdout
        .lines()
        .find(|l| l.starts_with("time per move: A "))
        .unwrap_or_else(|| panic!("no time line in {stdout}"));
    let numbers: Vec<f64> = line
        .split(|c: char| !c.is_ascii_digit() && c != '.')
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(numbers.len(), 4, "{line}");
    assert!(numbers[..2].iter().all(|&x| x > 0.0), "{line}");
    assert!(numbers[2..].iter().all(|&x| x >= 0.01), "{line}");
    assert!(numbers[2] <= 0.5 + 0.01 * 200.0, "{line}");
}

/// The tuning pipeline as a user runs it: self-play data saved, piece-square
/// tables fitted into a weights file, the same data fitted again from the
/// file, a match with the written weights, a fit from that match's record,
/// a fit started from a weights file; a bad data line is named.
#[test]
fn tune_fits_piece_square_tables_from_saved_data() {
    let dir = std::env::temp_dir().join(format!("quadrille-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let (data, first, second) = (path("data.txt"), path("w1.toml"), path("w2.toml"));
    let fit = |args: &[&str]| {
        let mut all = vec!["tune", "chess", "--pst", "--epochs", "20", "--jobs", "2"];
        all.extend_from_slice(args);
        let out = quadrille(&all, "");
        let (stdout, stderr) = text(&out);
        assert!(out.status.success(), "{stdout}{stderr}");
        stderr
    };
    let log = fit(&[
        "--games",
        "4",
        "--nodes",
        "200",
        "--save-data",
        &data,
        "--out",
        &first,
    ]);
    assert!(log.contains("quiet positions"), "{log}");
    let lines = std::fs::read_to_string(&data).unwrap();
    assert!(lines.lines().count() > 20, "{lines}");
    let written = std::fs::read_to_string(&first).unwrap();
    assert!(
        written.starts_with("# quadrille tune chess --games 4"),
        "{written}"
    );
    assert!(
        written.contains("[pst]") && written.contains("N0 = ["),
        "{written}"
    );
    // The refit learns mobility and threats as well.
    fit(&["--data", &data, "--activity", "--out", &second]);
    let refit = std::fs::read_to_string(&second).unwrap();
    assert!(
        refit.contains("--data") && refit.contains("--activity"),
        "{refit}"
    );
    assert!(
        refit.contains("[mobility_tables]") && refit.contains("[threats]"),
        "{refit}"
    );
    let weights = format!("search:depth=2,weights={second}");
    let (stdout, games) = recorded_match(
        "chess",
        &["--a", &weights, "--b", "search:depth=1", "--tc", "own"],
    );
    assert!(stdout.contains("weights="), "{stdout}");
    // The match's record is data too: its games' quiet positions, each by
    // its game's result.
    let record = path("games.txt");
    std::fs::write(&record, &games).unwrap();
    let log = fit(&["--records", &record, "--out", &first]);
    let kept: usize = log
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{log}"));
    assert!(kept > 0 && log.contains("--records"), "{log}");
    let written = std::fs::read_to_string(&first).unwrap();
    assert!(
        written.contains(&format!("--records {record}")),
        "{written}"
    );
    // The plain weights, only the one named moving; a name that is no
    // weight is refused before any work.
    let only = |names: &str| {
        let args = [
            "tune", "chess", "--data", &data, "--only", names, "--out", &second,
        ];
        quadrille(&args, "")
    };
    let out = only("hanging");
    assert!(out.status.success(), "{:?}", text(&out));
    let refit = std::fs::read_to_string(&second).unwrap();
    assert!(refit.contains("--only hanging"), "{refit}");
    let shipped = Weights::for_variant(&embedded::variant("chess").unwrap());
    let learnt = Weights::from_toml(&refit).unwrap();
    let others = Weights {
        hanging: shipped.hanging,
        ..learnt
    };
    assert_eq!(others, shipped);
    // From a weights file instead of the shipped weights, the data's
    // scores alone as targets: the file's weights are where the fit starts.
    let third = path("w3.toml");
    let args = [
        "tune",
        "chess",
        "--data",
        &data,
        "--start",
        &first,
        "--only",
        "hanging",
        "--result-share",
        "0",
        "--out",
        &third,
    ];
    let out = quadrille(&args, "");
    assert!(out.status.success(), "{:?}", text(&out));
    let started = Weights::from_toml(&std::fs::read_to_string(&first).unwrap()).unwrap();
    let refit = std::fs::read_to_string(&third).unwrap();
    assert!(
        refit.contains(&format!("--start {first}")) && refit.contains("--result-share 0"),
        "{refit}"
    );
    let learnt = Weights::from_toml(&refit).unwrap();
    let others = Weights {
        hanging: started.hanging,
        ..learnt
    };
    assert_eq!(others, started);
    // A command that fails, saying `message`.
    let refused = |args: &[&str], message: &str| {
        let out = quadrille(args, "");
        assert!(!out.status.success());
        assert!(text(&out).1.contains(message), "{:?}", text(&out));
    };
    refused(
        &["tune", "chess", "--data", &data, "--start", "nowhere.toml"],
        "nowhere.toml",
    );
    // Weights that do not fit the variant (half a mobility table) are
    // refused, naming the file.
    let half = path("half.toml");
    std::fs::write(&half, "[mobility_tables]\nR = [0]\n").unwrap();
    refused(
        &["tune", "chess", "--data", &data, "--start", &half],
        &format!("{half}: these weights do not fit chess"),
    );
    // So are they by a match, before any game (the search would quietly
    // play with the derived weights instead).
    let spec = format!("search:depth=1,weights={half}");
    let args = [
        "match",
        "chess",
        "--a",
        &spec,
        "--b",
        "search:depth=1",
        "--games",
        "2",
    ];
    refused(
        &args,
        &format!("`{spec}`: {half}: these weights do not fit chess"),
    );
    let out = only("hangin");
    assert!(!out.status.success());
    assert!(
        text(&out).1.contains("no weight `hangin`"),
        "{:?}",
        text(&out)
    );
    // A line that is no sample: the file and the line are named.
    let position = lines.split('\t').next().unwrap();
    std::fs::write(&data, format!("{position}\t0.7\t3\n")).unwrap();
    let out = quadrille(&["tune", "chess", "--pst", "--data", &data], "");
    let (_, stderr) = text(&out);
    assert!(!out.status.success());
    assert!(
        stderr.contains(&format!("{data}:1: result `0.7`")),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
