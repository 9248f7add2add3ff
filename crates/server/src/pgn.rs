//! PGN for the two-player games: export with the moves in readable
//! notation and a `Variant` tag (and `FEN` when the game did not start
//! from the setup); import of the same, and of PGN from other programs
//! (move numbers, comments, variations and annotations are skipped).

use crate::game::{Game, SeatKind, Status};
use crate::state::clip;
use crate::variants::Variants;
use quadrille_engine::Position;
use std::fmt::Write;

/// A game as PGN; `None` for games of more than two players.
pub fn write(g: &Game) -> Option<String> {
    let v = &g.source.variant;
    if v.players.len() != 2 {
        return None;
    }
    let result = match g.status() {
        Status::Over(e) if e.ranking.len() == 1 => "1/2-1/2",
        Status::Over(e) if e.ranking[0] == [0] => "1-0",
        Status::Over(_) => "0-1",
        _ => "*",
    };
    let name = |i: usize| match g.seats[i].kind {
        SeatKind::Human => v.players[i].name.clone(),
        SeatKind::Ai { level, .. } => format!("Quadrille AI level {level}"),
    };
    let date = chrono_date(g.created);
    let mut s = String::new();
    let tags = [
        ("Event", format!("Quadrille game {}", g.id)),
        ("Site", "Quadrille".to_string()),
        ("Date", date),
        ("White", name(0)),
        ("Black", name(1)),
        ("Result", result.to_string()),
        ("Variant", v.name.clone()),
    ];
    for (k, val) in tags {
        let _ = writeln!(
            s,
            "[{k} \"{}\"]",
            val.replace('\\', "\\\\").replace('"', "\\\"")
        );
    }
    if g.start != v.start().to_string() {
        let _ = writeln!(s, "[SetUp \"1\"]\n[FEN \"{}\"]", g.start);
    }
    if let Status::Over(e) = g.status() {
        let _ = writeln!(s, "[Termination \"{}\"]", e.reason);
    }
    s.push('\n');
    let start = Position::from_string(v.clone(), &g.start).ok()?;
    let mut number = start.fullmove();
    let mut line = String::new();
    for (i, p) in g.played.iter().enumerate() {
        if p.player == 0 {
            let _ = write!(line, "{number}. ");
        } else if i == 0 {
            let _ = write!(line, "{number}... ");
        }
        line += &p.san;
        line.push(' ');
        if p.player == 1 {
            number += 1;
        }
    }
    line += result;
    // Lines of at most 80 characters.
    let mut width = 0;
    for word in line.split(' ') {
        if width > 0 && width + word.len() + 1 > 80 {
            s.push('\n');
            width = 0;
        } else if width > 0 {
            s.push(' ');
            width += 1;
        }
        s += word;
        width += word.len();
    }
    s.push('\n');
    Some(s)
}

/// A PGN game read: the variant's name, the start position (if a `FEN`
/// tag gives one) and the moves in coordinates.
#[derive(Debug, PartialEq, Eq)]
pub struct Imported {
    pub variant: String,
    pub start: Option<String>,
    pub moves: Vec<String>,
}

/// Does this text look like PGN (it starts with a tag)?
pub fn is_pgn(text: &str) -> bool {
    text.trim_start().starts_with('[')
}

/// Reads the first game of a PGN text; errors name the tag or the move.
pub fn parse(text: &str, variants: &Variants) -> Result<Imported, String> {
    let mut tags = Vec::new();
    let mut body = String::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if let Some(tag) = line.strip_prefix('[') {
            let tag = tag
                .strip_suffix(']')
                .ok_or_else(|| format!("PGN line {}: a tag must end with `]`", i + 1))?;
            let (key, value) = tag.split_once(' ').ok_or_else(|| {
                format!(
                    "PGN line {}: `{}` is not `[Key \"value\"]`",
                    i + 1,
                    clip(line)
                )
            })?;
            let value = value.trim().trim_matches('"').replace("\\\"", "\"");
            tags.push((key.to_string(), value));
        } else if !line.starts_with('%') {
            body += line;
            body.push('\n');
        }
    }
    let tag = |k: &str| {
        tags.iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(k))
            .map(|(_, v)| v.as_str())
    };
    let wanted = tag("Variant").unwrap_or("chess");
    let source = variants
        .list()
        .into_iter()
        .find(|s| {
            let v = &s.variant;
            v.name.eq_ignore_ascii_case(wanted)
                || v.title.eq_ignore_ascii_case(wanted)
                || (v.name == "chess" && wanted.eq_ignore_ascii_case("standard"))
        })
        .ok_or_else(|| format!("PGN: no variant `{}` here", clip(wanted)))?;
    let v = source.variant.clone();
    if v.players.len() != 2 {
        return Err(format!("PGN: {} is not a two-player game", v.name));
    }
    let start = tag("FEN").map(String::from);
    let mut pos = match &start {
        Some(f) => Position::from_string(v.clone(), f).map_err(|e| format!("PGN FEN: {e}"))?,
        None => v.start(),
    };
    let mut moves = Vec::new();
    for token in tokens(&body)? {
        let m = pos
            .parse_san(&token)
            .map_err(|e| format!("PGN move {} `{}`: {e}", moves.len() + 1, clip(&token)))?;
        moves.push(pos.move_to_string(m));
        pos.make(m);
    }
    Ok(Imported {
        variant: v.name.clone(),
        start,
        moves,
    })
}

/// The move texts of a PGN body: comments (`{...}`, `;` to the end of the
/// line), variations (`(...)`), move numbers, annotations (`$1`) and the
/// result are left out.
fn tokens(body: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut chars = body.chars().peekable();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut Vec<String>| {
        let w = std::mem::take(word);
        // A move number (`12.`, `12...`) may be glued to the move.
        let digits = w.len() - w.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let w = if digits > 0 && w[digits..].starts_with('.') {
            w[digits..].trim_start_matches('.')
        } else {
            &w
        };
        let skip =
            w.is_empty() || w.starts_with('$') || matches!(w, "1-0" | "0-1" | "1/2-1/2" | "*");
        if !skip {
            out.push(w.to_string());
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                flush(&mut word, &mut out);
                for d in chars.by_ref() {
                    if d == '}' {
                        break;
                    }
                }
            }
            ';' => {
                flush(&mut word, &mut out);
                for d in chars.by_ref() {
                    if d == '\n' {
                        break;
                    }
                }
            }
            '(' => {
                flush(&mut word, &mut out);
                depth += 1;
            }
            ')' => {
                word.clear();
                depth = depth.checked_sub(1).ok_or("PGN: `)` without its `(`")?;
            }
            c if c.is_whitespace() => {
                if depth == 0 {
                    flush(&mut word, &mut out);
                } else {
                    word.clear();
                }
            }
            c if depth == 0 => word.push(c),
            _ => {}
        }
        if out.len() > crate::record::MAX_MOVES {
            return Err(format!("PGN: more than {} moves", crate::record::MAX_MOVES));
        }
    }
    flush(&mut word, &mut out);
    Ok(out)
}

/// `YYYY.MM.DD` of a Unix time (UTC).
fn chrono_date(unix: i64) -> String {
    // Days to civil date (Howard Hinnant's algorithm).
    let z = unix.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_tokens() {
        assert_eq!(chrono_date(0), "1970.01.01");
        assert_eq!(chrono_date(1_795_000_000), "2026.11.18");
        assert_eq!(
            tokens("1. e4 {best} e5 (1... c5 2. Nf3) 2.Nf3 $1 Nc6; note\n3. Bb5 a6 4. 0-0 1-0")
                .unwrap(),
            ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "0-0"]
        );
        assert!(tokens("1. e4 )").is_err());
    }
}
