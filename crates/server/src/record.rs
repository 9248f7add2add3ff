//! Game records as text: the variant, the seats, the start position and
//! the moves, one `key: value` per line (docs/api.md shows an example).
//! A variant that is not embedded travels with the record as its file's
//! text, each line prefixed with `| `.

use crate::clock::TimeControl;
use crate::game::{Game, SeatKind};
use crate::state::clip;
use std::fmt::Write;

/// First line of every record written.
pub const HEADER: &str = "Quadrille game record";
/// Most moves a record may hold.
pub const MAX_MOVES: usize = 20_000;
/// Moves written per `moves:` line.
const MOVES_PER_LINE: usize = 16;

/// A record read from text, not yet checked against the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub variant: String,
    pub variant_file: Option<String>,
    /// Seats by player tag; players not listed get a human seat.
    pub seats: Vec<(char, SeatKind)>,
    pub start: Option<String>,
    /// The time control (`clock: fischer 300000 3000`, `clock: move 30000`).
    pub clock: Option<TimeControl>,
    pub moves: Vec<String>,
}

/// Writes a game's record (without tokens).
pub fn write(g: &Game) -> String {
    let v = &g.source.variant;
    let mut s = format!("{HEADER}\nvariant: {}\n", v.name);
    for (i, seat) in g.seats.iter().enumerate() {
        let p = &v.players[i];
        let _ = match seat.kind {
            SeatKind::Human => writeln!(s, "seat {}: human", p.tag),
            SeatKind::Ai { level, time_ms } => {
                writeln!(s, "seat {}: ai level {level} time {time_ms}", p.tag)
            }
        };
    }
    let _ = writeln!(s, "start: {}", g.start);
    let _ = match g.clocks.as_ref().map(|c| c.control) {
        Some(TimeControl::Fischer { base_ms, inc_ms }) => {
            writeln!(s, "clock: fischer {base_ms} {inc_ms}")
        }
        Some(TimeControl::Move { move_ms }) => writeln!(s, "clock: move {move_ms}"),
        None => Ok(()),
    };
    for chunk in g.move_texts().chunks(MOVES_PER_LINE) {
        let _ = writeln!(s, "moves: {}", chunk.join(" "));
    }
    if let Some(file) = &g.source.file {
        s += "variant-file:\n";
        for line in file.lines() {
            s += if line.is_empty() { "|" } else { "| " };
            s += line;
            s.push('\n');
        }
    }
    s
}

/// Reads a record; errors name the line.
pub fn parse(text: &str) -> Result<Record, String> {
    let mut variant = None;
    let mut file: Option<String> = None;
    let mut seats = Vec::new();
    let mut start = None;
    let mut clock = None;
    let mut moves = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let err = |m: String| format!("record, line {}: {m}", i + 1);
        let line = raw.trim_end_matches('\r');
        if let Some(rest) = line.strip_prefix('|') {
            let f = file
                .as_mut()
                .ok_or_else(|| err("`|` line outside a variant-file block".into()))?;
            f.push_str(rest.strip_prefix(' ').unwrap_or(rest));
            f.push('\n');
            continue;
        }
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line == HEADER {
            continue;
        }
        let (key, value) = line
            .split_once(':')
            .ok_or_else(|| err(format!("`{}` is not `key: value`", clip(line))))?;
        let value = value.trim();
        match key.trim() {
            "variant" => variant = Some(value.to_string()),
            "start" => start = Some(value.to_string()),
            "clock" => clock = Some(parse_clock(value).map_err(err)?),
            "moves" => {
                moves.extend(value.split_whitespace().map(String::from));
                if moves.len() > MAX_MOVES {
                    return Err(err(format!("more than {MAX_MOVES} moves")));
                }
            }
            "variant-file" => {
                if file.is_some() {
                    return Err(err("a second variant-file block".into()));
                }
                file = Some(String::new());
            }
            k if k.starts_with("seat ") => {
                let tag = k[5..].trim();
                let mut chars = tag.chars();
                let (Some(t), None) = (chars.next(), chars.next()) else {
                    return Err(err(format!("`{}` is not a player tag", clip(tag))));
                };
                seats.push((t, parse_seat(value).map_err(err)?));
            }
            k => return Err(err(format!("unknown key `{}`", clip(k)))),
        }
    }
    Ok(Record {
        variant: variant.ok_or("record: no `variant:` line")?,
        variant_file: file,
        seats,
        start,
        clock,
        moves,
    })
}

/// `fischer BASE_MS INC_MS` or `move MS`, within the bounds of a game's clock.
fn parse_clock(s: &str) -> Result<TimeControl, String> {
    let n = |w: &str| {
        w.parse::<u64>()
            .map_err(|_| format!("clock: `{}` is not a number", clip(w)))
    };
    let words: Vec<&str> = s.split_whitespace().collect();
    match words.as_slice() {
        ["fischer", base, inc] => TimeControl::Fischer {
            base_ms: n(base)?,
            inc_ms: n(inc)?,
        }
        .check(),
        ["move", ms] => TimeControl::Move { move_ms: n(ms)? }.check(),
        _ => Err(format!(
            "clock `{}`: expected `fischer BASE_MS INC_MS` or `move MS`",
            clip(s)
        )),
    }
}

/// `human` or `ai level 3 time 1000` (both settings optional).
fn parse_seat(s: &str) -> Result<SeatKind, String> {
    let words: Vec<&str> = s.split_whitespace().collect();
    match words.as_slice() {
        ["human"] => Ok(SeatKind::Human),
        ["ai", rest @ ..] => {
            let (mut level, mut time_ms) = (crate::api::DEFAULT_LEVEL, crate::api::DEFAULT_TIME_MS);
            for pair in rest.chunks(2) {
                match pair {
                    ["level", n] => level = n.parse().map_err(|_| format!("level `{n}`"))?,
                    ["time", n] => time_ms = n.parse().map_err(|_| format!("time `{n}`"))?,
                    _ => {
                        return Err(format!(
                            "`{}`: expected `level N` or `time MS`",
                            pair.join(" ")
                        ))
                    }
                }
            }
            SeatKind::Ai { level, time_ms }.check()
        }
        _ => Err(format!(
            "seat `{}`: expected `human` or `ai level N time MS`",
            clip(s)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_keys_seats_and_blocks() {
        let r = parse(
            "Quadrille game record\nvariant: x\nseat w: human\nseat b: ai level 5 time 200\n\
             start: 8/8 w\nclock: fischer 60000 2000\nmoves: e2e4 e7e5\nmoves: g1f3\nvariant-file:\n| name = \"x\"\n|\n| a = 1\n",
        )
        .unwrap();
        assert_eq!(r.variant, "x");
        assert_eq!(
            r.seats[1],
            (
                'b',
                SeatKind::Ai {
                    level: 5,
                    time_ms: 200
                }
            )
        );
        assert_eq!(r.moves, vec!["e2e4", "e7e5", "g1f3"]);
        assert_eq!(r.variant_file.as_deref(), Some("name = \"x\"\n\na = 1\n"));
        assert_eq!(r.start.as_deref(), Some("8/8 w"));
        assert_eq!(
            r.clock,
            Some(TimeControl::Fischer {
                base_ms: 60000,
                inc_ms: 2000
            })
        );
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse("variant: chess\nbogus line\n").unwrap_err();
        assert!(e.contains("line 2"), "{e}");
        let e = parse("variant: chess\nseat w: ai level 9\n").unwrap_err();
        assert!(e.contains("line 2") && e.contains("level 9"), "{e}");
        let e = parse("variant: chess\nseat ww: human\n").unwrap_err();
        assert!(e.contains("not a player tag"), "{e}");
        assert!(parse("moves: e2e4\n")
            .unwrap_err()
            .contains("no `variant:`"));
        let e = parse("variant: chess\nclock: move 5\n").unwrap_err();
        assert!(e.contains("line 2") && e.contains("1 s"), "{e}");
        let e = parse("variant: chess\nclock: blitz\n").unwrap_err();
        assert!(e.contains("line 2") && e.contains("expected"), "{e}");
        assert!(parse("variant: chess\n| stray\n")
            .unwrap_err()
            .contains("line 2"));
    }
}
