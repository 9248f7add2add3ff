//! Readable move notation (SAN, extended to any variant): the piece's
//! letter (none for a pawn), the start file, rank or cell when another
//! piece of the same type could go to the same cell, `x` for a capture,
//! the destination, `=Q` for a promotion, `+` for check and `#` for a
//! checkmate (in four-player games: a move that checkmates any player).
//! Castling is `O-O` (the rook nearer the king) or `O-O-O`; a swap is
//! `K~e1`; the forced drop-out is `out`.
//!
//! Reading ([`Position::parse_san`]) matches the text against the legal
//! moves' notation, ignoring `+`, `#`, `!`, `?`, a missing `=` and `0-0`
//! written with zeros; coordinate notation (`e2e4`) is accepted too.

use crate::moves::{Move, MoveKind};
use crate::notation::{MoveError, DROP_OUT};
use crate::outcome::EndReason;
use crate::position::Position;

impl Position {
    /// The move in readable notation, with its check or mate sign.
    /// The move must be legal here.
    pub fn san(&self, m: Move) -> String {
        let mut s = self.san_plain(m, self.legal_moves().as_slice());
        if m.kind == MoveKind::DropOut {
            return s;
        }
        let mut after = self.clone();
        let out_before = after.out_order().len();
        after.make(m);
        s.push_str(after.check_sign(after.outcome().map(|o| o.reason), out_before));
        s
    }

    /// The notation without `+` or `#`, given this position's legal
    /// moves (a caller that keeps them saves generating them again).
    pub fn san_plain(&self, m: Move, legal: &[Move]) -> String {
        let v = &*self.variant;
        let g = &v.geometry;
        match m.kind {
            MoveKind::DropOut => return DROP_OUT.to_string(),
            MoveKind::Castle(i) => {
                let c = &v.rules.castling[i as usize];
                let dist = |a, b| {
                    let (fa, ra) = (g.file_of(a) as i32, g.rank_of(a) as i32);
                    let (fb, rb) = (g.file_of(b) as i32, g.rank_of(b) as i32);
                    (fa - fb).abs().max((ra - rb).abs())
                };
                return if dist(c.king, c.rook) <= 3 {
                    "O-O".into()
                } else {
                    "O-O-O".into()
                };
            }
            _ => {}
        }
        let Some(piece) = self.piece_at(m.from) else {
            return self.move_to_string(m);
        };
        let kind = &v.pieces[piece.kind as usize];
        let dest = g.name(m.to);
        if m.kind == MoveKind::Swap {
            return format!("{}~{dest}", kind.letter);
        }
        let capture = m.kind == MoveKind::EnPassant
            || self.piece_at(m.to).is_some_and(|p| p.army != piece.army);
        // Other pieces of this type that can go to the same cell.
        let rivals: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|o| {
                o.to == m.to
                    && o.from != m.from
                    && !matches!(o.kind, MoveKind::Castle(_) | MoveKind::Swap)
                    && self.piece_at(o.from) == Some(piece)
            })
            .collect();
        let name = g.name(m.from);
        let split = name
            .find(|ch: char| ch.is_ascii_digit())
            .unwrap_or(name.len());
        let other_files = rivals
            .iter()
            .all(|o| g.file_of(o.from) != g.file_of(m.from));
        let other_ranks = rivals
            .iter()
            .all(|o| g.rank_of(o.from) != g.rank_of(m.from));
        let mut s = String::new();
        if kind.pawn {
            // A pawn's capture names its file; a fairy pawn that another
            // pawn rivals in a way the file does not settle names its cell.
            if rivals.is_empty() || (capture && other_files) {
                if capture {
                    s.push_str(&name[..split]);
                }
            } else {
                s.push_str(&name);
            }
        } else {
            s.push(kind.letter);
            s.push_str(match () {
                _ if rivals.is_empty() => "",
                _ if other_files => &name[..split],
                _ if other_ranks => &name[split..],
                _ => &name,
            });
        }
        if capture {
            s.push('x');
        }
        s.push_str(&dest);
        if let Some(t) = m.promotion {
            s.push('=');
            s.push(v.pieces[t as usize].letter);
        }
        s
    }

    /// The sign that ends the notation of the move that led here: `#`
    /// if it checkmated (`ended`, why this position ends the game, is a
    /// checkmate, or a player went out: `out_before` were out before it),
    /// `+` if the player to move is in check, else nothing.
    pub fn check_sign(&self, ended: Option<EndReason>, out_before: usize) -> &'static str {
        if ended == Some(EndReason::Checkmate) || self.out_order().len() > out_before {
            "#"
        } else if self.royal_in_check() {
            "+"
        } else {
            ""
        }
    }

    /// Does an enemy attack a royal piece of the player to move?
    pub fn royal_in_check(&self) -> bool {
        let army = self.army_to_move();
        self.royal_cells(army)
            .unwrap_or_default()
            .iter()
            .any(|c| self.attacked_by_enemies(c, army))
    }

    /// Reads a move in readable notation (or coordinates) and returns it
    /// if it is legal here. Changes nothing.
    pub fn parse_san(&self, text: &str) -> Result<Move, MoveError> {
        let want = normalise(text);
        if want.is_empty() {
            return Err(MoveError::Syntax(crate::notation::SyntaxError::Empty));
        }
        let legal = self.legal_moves();
        let list = legal.as_slice();
        if let Some(&m) = list
            .iter()
            .find(|&&m| normalise(&self.san_plain(m, list)) == want)
        {
            return Ok(m);
        }
        // Coordinates, or an error that says why.
        match self.parse_move(text.trim().trim_end_matches(['+', '#', '!', '?'])) {
            Err(MoveError::Syntax(_)) => Err(MoveError::NoSuchMove),
            other => other,
        }
    }
}

/// The text compared when reading: no check or mate signs, no
/// annotations, no `=` before a promotion, castling with letters.
fn normalise(text: &str) -> String {
    let t = text.trim().trim_end_matches(['+', '#', '!', '?']);
    match t {
        "0-0" => "O-O".into(),
        "0-0-0" => "O-O-O".into(),
        _ => t.replace('=', ""),
    }
}

#[cfg(test)]
mod tests {
    use crate::embedded;
    use crate::position::Position;

    fn sans(fen: &str, moves: &[&str]) -> Vec<String> {
        let mut pos = Position::from_string(embedded::variant("chess").unwrap(), fen).unwrap();
        moves
            .iter()
            .map(|t| {
                let m = pos.parse_move(t).unwrap();
                let s = pos.san(m);
                assert_eq!(pos.parse_san(&s), Ok(m), "{s} reads back");
                pos.make(m);
                s
            })
            .collect()
    }

    #[test]
    fn chess_moves_read_as_in_a_book() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(
            sans(
                start,
                &["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"]
            ),
            ["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "O-O"]
        );
        // Scholar's mate: capture and mate sign.
        assert_eq!(
            sans(
                start,
                &["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"]
            ),
            ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]
        );
    }

    #[test]
    fn disambiguation_promotion_en_passant_and_long_castling() {
        // Knights on b1 and f1 both reach d2: by file. Rooks a1, a5 to a3: by rank.
        let fen = "r3k3/1P6/8/R2Pp3/8/8/8/RN2KN2 w q e6 0 1";
        assert_eq!(sans(fen, &["b1d2"]), ["Nbd2"]);
        assert_eq!(sans(fen, &["a1a3"]), ["R1a3"]);
        assert_eq!(sans(fen, &["d5e6"]), ["dxe6"]);
        assert_eq!(sans(fen, &["b7a8q"]), ["bxa8=Q+"]);
        assert_eq!(sans(fen, &["b7b8n"]), ["b8=N"]);
        let black = "r3k3/8/8/8/8/8/8/4K3 b q - 0 1";
        assert_eq!(sans(black, &["e8c8"]), ["O-O-O"]);
    }

    #[test]
    fn reading_is_lenient_about_signs_and_strict_about_moves() {
        let pos = embedded::variant("chess").unwrap().start();
        assert_eq!(pos.parse_san("Nf3!?"), pos.parse_move("g1f3"));
        assert_eq!(pos.parse_san("e2e4"), pos.parse_move("e2e4"));
        assert_eq!(pos.parse_san("Ke2"), Err(crate::MoveError::NoSuchMove));
        assert!(pos.parse_san("").is_err());
    }
}
