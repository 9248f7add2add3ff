//! Move notation: coordinates (`e2e4`, `e7e8q`, `b10b9`, castling as the
//! king's move `e8g8`), and `out` for the forced drop-out of a player with
//! no legal move.
//!
//! Reading a move and judging it are separate steps (as in shakmaty):
//! [`MoveText`] parses a text without any position or board, and
//! [`Position::judge`] decides whether it is a legal move here. Both fail
//! with an enum, so every front end maps the error to its own message or
//! status code.

use crate::moves::{Move, MoveKind};
use crate::position::Position;
use std::fmt;
use std::str::FromStr;

/// The text of the drop-out move.
pub const DROP_OUT: &str = "out";

/// The longest move text read (two cells of three characters, a letter).
pub const MAX_MOVE_TEXT: usize = 16;

/// A cell as written, before any board is known: a file letter (`a` = 0)
/// and the rank number as written (boards may number ranks from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CellName {
    /// File index, `a` = 0.
    pub file: u8,
    /// Rank number as written.
    pub rank: u8,
}

impl fmt::Display for CellName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file) as char, self.rank)
    }
}

/// A move as written: read without a position (`e2e4`, `e7e8q`, `out`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveText {
    /// The drop-out of a player who has no legal move.
    DropOut,
    /// From one cell to another, with an optional promotion letter (any
    /// case as written; judged against the variant's letters).
    Cells {
        /// The start cell.
        from: CellName,
        /// The destination cell.
        to: CellName,
        /// The promotion letter, if any.
        promotion: Option<char>,
    },
}

/// Why a move text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SyntaxError {
    /// Nothing but white space.
    Empty,
    /// Longer than any move text.
    TooLong,
    /// It does not start with a cell such as `e2`.
    NoFromCell,
    /// The second cell is missing or malformed.
    NoToCell,
    /// Something other than one promotion letter follows the cells.
    Trailing(String),
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyntaxError::Empty => write!(f, "no move given"),
            SyntaxError::TooLong => write!(f, "too long for a move"),
            SyntaxError::NoFromCell => write!(f, "does not start with a cell such as e2"),
            SyntaxError::NoToCell => write!(f, "the second cell is missing or malformed"),
            SyntaxError::Trailing(t) => write!(f, "unexpected `{t}` after the cells"),
        }
    }
}

impl std::error::Error for SyntaxError {}

/// Reads a cell name at the start of `s`: a lower-case letter and one or
/// two digits. Returns it and the bytes read.
fn cell_prefix(s: &[u8]) -> Option<(CellName, usize)> {
    let f = *s.first()?;
    if !f.is_ascii_lowercase() {
        return None;
    }
    let digits = s[1..].iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || digits > 2 {
        return None;
    }
    let rank = s[1..1 + digits]
        .iter()
        .fold(0u8, |n, d| n * 10 + (d - b'0'));
    Some((
        CellName {
            file: f - b'a',
            rank,
        },
        1 + digits,
    ))
}

impl FromStr for MoveText {
    type Err = SyntaxError;

    fn from_str(text: &str) -> Result<MoveText, SyntaxError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(SyntaxError::Empty);
        }
        if t.len() > MAX_MOVE_TEXT {
            return Err(SyntaxError::TooLong);
        }
        if t.eq_ignore_ascii_case(DROP_OUT) {
            return Ok(MoveText::DropOut);
        }
        let b = t.as_bytes();
        let (from, n1) = cell_prefix(b).ok_or(SyntaxError::NoFromCell)?;
        let (to, n2) = cell_prefix(&b[n1..]).ok_or(SyntaxError::NoToCell)?;
        let rest = &t[n1 + n2..];
        let mut chars = rest.chars();
        let promotion = match (chars.next(), chars.next()) {
            (None, _) => None,
            (Some(c), None) if c.is_ascii_alphabetic() => Some(c),
            _ => return Err(SyntaxError::Trailing(rest.to_string())),
        };
        Ok(MoveText::Cells {
            from,
            to,
            promotion,
        })
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveText::DropOut => f.write_str(DROP_OUT),
            MoveText::Cells {
                from,
                to,
                promotion,
            } => {
                write!(f, "{from}{to}")?;
                match promotion {
                    Some(c) => write!(f, "{}", c.to_ascii_lowercase()),
                    None => Ok(()),
                }
            }
        }
    }
}

/// Why a move is not legal in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The piece cannot move there (its moves, the board, the path rules).
    Unreachable,
    /// The move would leave the mover's royal piece capturable (check),
    /// or no royal piece at home (royal presence).
    ExposesRoyal,
}

/// A move that cannot be played here, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move.
    Syntax(SyntaxError),
    /// A cell that is not on this board.
    NoSuchCell(CellName),
    /// The game is over: nobody moves.
    GameOver,
    /// No piece stands on the start cell.
    NoPiece(CellName),
    /// The piece belongs to an army the player to move does not move.
    NotYourPiece(CellName),
    /// The promotion letter names no piece of this variant.
    UnknownPiece(char),
    /// The move reaches a promotion: one of these letters must be given.
    PromotionNeeded(Vec<char>),
    /// A promotion letter was given where the move does not promote, or
    /// promotes only to other types (listed; empty when none).
    PromotionNotAllowed(Vec<char>),
    /// `out` while the player has a legal move.
    DropOutNotAllowed,
    /// Not a legal move, with the reason.
    Illegal(Illegal),
    /// Readable notation that names no legal move here.
    NoSuchMove,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letters = |v: &[char]| {
            v.iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            MoveError::Syntax(e) => write!(f, "{e}"),
            MoveError::NoSuchCell(c) => write!(f, "there is no cell {c} on this board"),
            MoveError::GameOver => write!(f, "the game is over"),
            MoveError::NoPiece(c) => write!(f, "no piece on {c}"),
            MoveError::NotYourPiece(c) => write!(f, "the piece on {c} is not yours to move"),
            MoveError::UnknownPiece(l) => write!(f, "`{l}` is not a piece letter"),
            MoveError::PromotionNeeded(v) => write!(f, "choose a promotion: {}", letters(v)),
            MoveError::PromotionNotAllowed(v) if v.is_empty() => {
                write!(f, "this move does not promote")
            }
            MoveError::PromotionNotAllowed(v) => {
                write!(f, "this move promotes only to {}", letters(v))
            }
            MoveError::DropOutNotAllowed => {
                write!(f, "a player drops out only when they have no legal move")
            }
            MoveError::Illegal(Illegal::Unreachable) => write!(f, "the piece cannot move there"),
            MoveError::Illegal(Illegal::ExposesRoyal) => {
                write!(f, "it would leave your royal piece capturable")
            }
            MoveError::NoSuchMove => write!(f, "no legal move is written so here"),
        }
    }
}

impl std::error::Error for MoveError {}

impl From<SyntaxError> for MoveError {
    fn from(e: SyntaxError) -> MoveError {
        MoveError::Syntax(e)
    }
}

impl Position {
    /// Writes a move in coordinate notation.
    pub fn move_to_string(&self, m: Move) -> String {
        if m.kind == MoveKind::DropOut {
            return DROP_OUT.to_string();
        }
        let v = &*self.variant;
        let g = &v.geometry;
        let mut s = g.name(m.from) + &g.name(m.to);
        if let Some(t) = m.promotion {
            s.push(v.pieces[t as usize].letter.to_ascii_lowercase());
        }
        s
    }

    /// Judges a move read by [`MoveText`]: the legal move it names here,
    /// or why there is none. Changes nothing.
    pub fn judge(&self, text: &MoveText) -> Result<Move, MoveError> {
        let legal = self.legal_moves();
        if legal.is_empty() {
            return Err(MoveError::GameOver);
        }
        let (from, to, promotion) = match *text {
            MoveText::DropOut => {
                return if legal.iter().any(|m| m.kind == MoveKind::DropOut) {
                    Ok(Move::DROP_OUT)
                } else {
                    Err(MoveError::DropOutNotAllowed)
                };
            }
            MoveText::Cells {
                from,
                to,
                promotion,
            } => (from, to, promotion),
        };
        let v = &*self.variant;
        let g = &v.geometry;
        let cell = |c: CellName| {
            g.cell(c.file as i32, c.rank as i32 - g.first_rank as i32)
                .ok_or(MoveError::NoSuchCell(c))
        };
        let (f, t) = (cell(from)?, cell(to)?);
        let promotion = match promotion {
            None => None,
            Some(l) => Some(
                v.piece_by_letter(l.to_ascii_uppercase())
                    .ok_or(MoveError::UnknownPiece(l))?,
            ),
        };
        if let Some(&m) = legal
            .iter()
            .find(|m| m.from == f && m.to == t && m.promotion == promotion)
        {
            return Ok(m);
        }
        let same_cells: Vec<&Move> = legal.iter().filter(|m| m.from == f && m.to == t).collect();
        if !same_cells.is_empty() {
            let choices: Vec<char> = same_cells
                .iter()
                .filter_map(|m| m.promotion)
                .map(|p| v.pieces[p as usize].letter.to_ascii_lowercase())
                .collect();
            return Err(if promotion.is_none() {
                MoveError::PromotionNeeded(choices)
            } else {
                MoveError::PromotionNotAllowed(choices)
            });
        }
        match self.piece_at(f) {
            None => Err(MoveError::NoPiece(from)),
            Some(p) if p.army != self.army_to_move() => Err(MoveError::NotYourPiece(from)),
            Some(_) => {
                let mut pseudo = crate::moves::MoveList::new();
                self.pseudo_legal_moves(&mut pseudo);
                let reachable = pseudo.iter().any(|m| m.from == f && m.to == t);
                Err(MoveError::Illegal(if reachable {
                    Illegal::ExposesRoyal
                } else {
                    Illegal::Unreachable
                }))
            }
        }
    }

    /// Reads a move in coordinate notation and returns it if it is legal.
    /// Changes nothing.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        self.judge(&text.parse::<MoveText>()?)
    }

    /// Parses and plays a move, or leaves the position unchanged.
    pub fn play(&mut self, text: &str) -> Result<Move, MoveError> {
        let m = self.parse_move(text)?;
        self.make(m);
        Ok(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_texts_read_without_a_position() {
        let m: MoveText = "e7e8q".parse().unwrap();
        assert_eq!(
            m,
            MoveText::Cells {
                from: CellName { file: 4, rank: 7 },
                to: CellName { file: 4, rank: 8 },
                promotion: Some('q')
            }
        );
        assert_eq!(m.to_string(), "e7e8q");
        assert_eq!("b10b9".parse::<MoveText>().unwrap().to_string(), "b10b9");
        assert_eq!("OUT".parse::<MoveText>(), Ok(MoveText::DropOut));
        assert_eq!("".parse::<MoveText>(), Err(SyntaxError::Empty));
        assert_eq!("9e2e4".parse::<MoveText>(), Err(SyntaxError::NoFromCell));
        assert_eq!("e2".parse::<MoveText>(), Err(SyntaxError::NoToCell));
        assert_eq!("e2e444".parse::<MoveText>(), Err(SyntaxError::NoToCell));
        assert_eq!(
            "e2e4qq".parse::<MoveText>(),
            Err(SyntaxError::Trailing("qq".into()))
        );
        assert_eq!(
            "e2e4é".parse::<MoveText>(),
            Err(SyntaxError::Trailing("é".into()))
        );
        assert_eq!(
            "a1a2a3a4a5a6a7a8a9".parse::<MoveText>(),
            Err(SyntaxError::TooLong)
        );
    }
}
