//! How XBoard sees a variant: which of its piece types (glyphs) shows each
//! of our pieces, the `setup` and `piece` commands that describe a
//! non-standard variant to it, and its coordinates (on boards of ten or
//! more ranks XBoard numbers ranks from 0).

use quadrille_engine::{Cell, Position, Variant};
use std::sync::Arc;

/// XBoard's piece types in the order of its piece-to-char table (the last
/// is the King), with the moves it knows for each (`None`: none we rely on).
const SLOTS: [(char, Option<&str>); 22] = [
    ('P', None),
    ('N', Some("N")),
    ('B', Some("B")),
    ('R', Some("R")),
    ('Q', Some("Q")),
    ('F', Some("F")),
    ('E', None),
    ('A', Some("BN")),
    ('C', Some("RN")),
    ('W', Some("W")),
    ('M', Some("K")),
    ('O', None),
    ('H', None),
    ('I', None),
    ('J', None),
    ('G', None),
    ('D', None),
    ('V', None),
    ('L', None),
    ('S', None),
    ('U', None),
    ('K', Some("K")),
];
const KING_SLOT: usize = SLOTS.len() - 1;

/// XBoard's view of one of our variants.
#[derive(Clone, Debug)]
pub struct XboardVariant {
    /// Per colour (White = the first player's army), per piece type of
    /// the variant: its slot in [`SLOTS`].
    slot: [Vec<usize>; 2],
    files: u8,
    ranks: u8,
    first_rank: u8,
}

/// Slots for pieces XBoard knows nothing about, fairy types first so that
/// the standard glyphs keep their meaning, and last the types XBoard
/// treats specially whatever their moves (see [`SPECIAL_SLOTS`]).
const FREE_ORDER: [usize; 20] = [
    5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 20, 1, 2, 3, 4, 17, 19, 18,
];

/// XBoard's types with rules of their own even when a `piece` command
/// gives their moves: the Falcon (`V`) and Cobra (`S`) are wild cards when
/// XBoard matches a move to a piece, and the Lance (`L`) promotes on the
/// last rank like a Pawn (XBoard turns a Lance's move there into a
/// promotion to nothing). No piece gets one by its letter.
const SPECIAL_SLOTS: [usize; 3] = [17, 18, 19];

impl XboardVariant {
    /// Maps the variant's pieces to XBoard's types, per colour: the pawn
    /// to the Pawn, the colour's royal (or castling) piece to the King,
    /// pieces whose moves XBoard knows to that type, the rest to free
    /// types. `None` for more than two armies, more piece types than
    /// XBoard has, or a board larger than 16x16.
    pub fn new(v: &Variant) -> Option<XboardVariant> {
        if v.armies.len() != 2 || v.geometry.files > 16 || v.geometry.ranks > 16 {
            return None;
        }
        let white = v.players.first()?.army;
        let slot = [white, 1 - white].map(|army| assign_slots(v, army));
        let [Some(w), Some(b)] = slot else {
            return None;
        };
        Some(XboardVariant {
            slot: [w, b],
            files: v.geometry.files,
            ranks: v.geometry.ranks,
            first_rank: v.geometry.first_rank,
        })
    }

    /// The piece-to-char table: our letters in XBoard's slots, White's
    /// upper case then Black's lower case; `.` for unused types.
    pub fn piece_to_char(&self, v: &Variant) -> String {
        let mut out = String::new();
        for (colour, slots) in self.slot.iter().enumerate() {
            let mut table = vec!['.'; SLOTS.len()];
            for (t, &s) in slots.iter().enumerate() {
                let l = v.pieces[t].letter;
                table[s] = if colour == 0 {
                    l
                } else {
                    l.to_ascii_lowercase()
                };
            }
            out.extend(table);
        }
        out
    }

    /// `setup (TABLE) WxH+0_fairy FEN` for the start position.
    pub fn setup_command(&self, v: &Arc<Variant>) -> String {
        format!(
            "setup ({}) {}x{}+0_fairy {}",
            self.piece_to_char(v),
            self.files,
            self.ranks,
            self.fen_out(&v.start().to_string())
        )
    }

    /// `piece L& BETZA` for every piece whose moves XBoard would not know
    /// from its type (`piece L` or `piece l` when only one colour needs
    /// it).
    pub fn piece_commands(&self, v: &Variant) -> Vec<String> {
        let double_step = v.rules.double_step.as_ref().map_or(0, |d| d.pieces);
        let mut lines = Vec::new();
        for (t, p) in v.pieces.iter().enumerate() {
            let mut betza = xboard_betza(&p.betza);
            let needed = self.slot.clone().map(|slots| {
                let s = slots[t];
                s == 0 || SLOTS[s].1 != Some(betza.as_str())
            });
            if self.slot[0][t] == 0 {
                // XBoard's own pawn steps twice from the second rank only.
                if betza == "mfWcfF" {
                    betza = "fmWfceF".into();
                }
                if double_step >> t & 1 != 0 {
                    betza.push_str("ifmnD");
                }
            }
            match needed {
                [true, true] => lines.push(format!("piece {}& {betza}", p.letter)),
                [true, false] => lines.push(format!("piece {} {betza}", p.letter)),
                [false, true] => {
                    lines.push(format!("piece {} {betza}", p.letter.to_ascii_lowercase()))
                }
                [false, false] => {}
            }
        }
        lines
    }

    /// The name XBoard uses for a cell.
    pub fn cell_name(&self, v: &Variant, c: Cell) -> String {
        let g = &v.geometry;
        let file = (b'a' + g.file_of(c)) as char;
        format!("{file}{}", g.rank_of(c) as u32 + self.rank_base())
    }

    /// XBoard's first rank number: 0 on boards of ten or more ranks.
    fn rank_base(&self) -> u32 {
        if self.ranks > 9 {
            0
        } else {
            1
        }
    }

    /// A move of ours in XBoard's coordinates.
    pub fn move_out(&self, pos: &Position, m: quadrille_engine::Move) -> String {
        let ours = pos.move_to_string(m);
        self.translate(&ours, self.first_rank as i32, self.rank_base() as i32)
    }

    /// A move in XBoard's coordinates in ours (not checked: the position
    /// parses it).
    pub fn move_in(&self, text: &str) -> String {
        self.translate(text, self.rank_base() as i32, self.first_rank as i32)
    }

    /// A position string from XBoard: its en passant cell renumbered.
    pub fn fen_in(&self, fen: &str) -> String {
        self.map_ep(fen, self.rank_base() as i32, self.first_rank as i32)
    }

    /// A position string of ours for XBoard.
    pub fn fen_out(&self, fen: &str) -> String {
        self.map_ep(fen, self.first_rank as i32, self.rank_base() as i32)
    }

    fn map_ep(&self, fen: &str, from: i32, to: i32) -> String {
        let mut fields: Vec<String> = fen.split_whitespace().map(String::from).collect();
        if let Some(ep) = fields.get_mut(3) {
            if ep != "-" {
                *ep = self.translate(ep, from, to);
            }
        }
        fields.join(" ")
    }

    /// Renumbers every rank number in a run of cell names (`e2e4q`,
    /// `b10b9`): each number `n` becomes `n - from + to`.
    fn translate(&self, text: &str, from: i32, to: i32) -> String {
        if from == to {
            return text.to_string();
        }
        let mut out = String::new();
        let mut digits = String::new();
        let flush = |digits: &mut String, out: &mut String| {
            if !digits.is_empty() {
                match digits.parse::<i32>() {
                    Ok(n) => out.push_str(&(n - from + to).to_string()),
                    Err(_) => out.push_str(digits),
                }
                digits.clear();
            }
        };
        for c in text.chars() {
            if c.is_ascii_digit() {
                digits.push(c);
            } else {
                flush(&mut digits, &mut out);
                out.push(c);
            }
        }
        flush(&mut digits, &mut out);
        out
    }
}

/// The slot of each piece type for one colour, or `None` if they do not
/// fit.
fn assign_slots(v: &Variant, army: u8) -> Option<Vec<usize>> {
    let n = v.pieces.len();
    if n > SLOTS.len() {
        return None;
    }
    let mut slot = vec![usize::MAX; n];
    let mut taken = [false; SLOTS.len()];
    let mut assign = |t: usize, s: usize| {
        if slot[t] == usize::MAX && !taken[s] {
            slot[t] = s;
            taken[s] = true;
        }
    };
    if let Some(k) = royal_type(v, army) {
        assign(k, KING_SLOT);
    }
    let pawns = v.rules.promotion.as_ref().map_or(0, |p| p.pieces)
        | v.rules.double_step.as_ref().map_or(0, |d| d.pieces);
    if let Some(p) = (0..n).find(|&t| pawns >> t & 1 != 0 || v.pieces[t].pawn) {
        assign(p, 0);
    }
    for (t, p) in v.pieces.iter().enumerate() {
        let betza = xboard_betza(&p.betza);
        if let Some(s) = SLOTS[..KING_SLOT]
            .iter()
            .position(|(_, known)| *known == Some(betza.as_str()))
        {
            assign(t, s);
        }
    }
    for (t, p) in v.pieces.iter().enumerate() {
        if let Some(s) = SLOTS[..KING_SLOT].iter().position(|(c, _)| *c == p.letter) {
            if !SPECIAL_SLOTS.contains(&s) {
                assign(t, s);
            }
        }
    }
    for t in 0..n {
        for s in FREE_ORDER {
            assign(t, s);
        }
    }
    (!slot.contains(&usize::MAX)).then_some(slot)
}

/// The piece XBoard should treat as an army's King (XBoard judges checks
/// against it and castles with it): the type that castles, or else the
/// first type the army must retain, if it moves exactly like a King.
/// XBoard plays any sideways King move of two or more cells as castling
/// (it also moves the first piece beyond the King's target, rook or not)
/// and refuses promotions to the King, so a royal piece that slides (Magna
/// Carta's Marshal, Caïssa Britannia's Queen) takes an ordinary type: that
/// side then has no King in XBoard, which judges its moves without checks.
fn royal_type(v: &Variant, army: u8) -> Option<usize> {
    let castles = v
        .rules
        .castling
        .iter()
        .filter(|c| c.army == army)
        .find_map(|c| c.pieces)
        .map(|(k, _)| k as usize);
    let k = match castles {
        Some(k) => k,
        None => {
            let m = v.rules.royal.as_ref()?.must_retain[army as usize];
            if m == 0 {
                return None;
            }
            m.trailing_zeros() as usize
        }
    };
    (xboard_betza(&v.pieces[k].betza) == "K").then_some(k)
}

/// Our Betza in XBoard's dialect: a rider written as a doubled atom
/// (`NN`, `AADD`) becomes the atom with range 0 (`N0`, `A0D0`), which is
/// XBoard's "any distance".
pub fn xboard_betza(betza: &str) -> String {
    let chars: Vec<char> = betza.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_uppercase() && chars.get(i + 1) == Some(&c) && !"RBQK".contains(c) {
            out.push(c);
            out.push('0');
            i += 2;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use quadrille_engine::embedded;

    #[test]
    fn chess_pieces_keep_their_types() {
        let v = embedded::variant("chess").unwrap();
        let x = XboardVariant::new(&v).unwrap();
        assert_eq!(
            x.piece_to_char(&v),
            "PNBRQ................Kpnbrq................k"
        );
        assert!(x
            .piece_commands(&v)
            .iter()
            .all(|l| l.starts_with("piece P&")));
    }

    #[test]
    fn magna_carta_sliding_royals_are_not_xboards_king() {
        // White's Marshal (royal while single) slides, so it is XBoard's
        // Chancellor, not its King (XBoard would take its sideways slides
        // for castling and refuse promotions to it); the Cardinal is
        // XBoard's Archbishop. Black's castling King is XBoard's King.
        let v = embedded::variant("magna-carta").unwrap();
        let x = XboardVariant::new(&v).unwrap();
        assert_eq!(
            x.piece_to_char(&v),
            "PNBRQ..CM.K...........pnbrq..cm............k"
        );
        assert_eq!(
            x.setup_command(&v),
            "setup (PNBRQ..CM.K...........pnbrq..cm............k) 8x8+0_fairy \
             rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBMCBNR w kq - 0 1"
        );
        let commands = x.piece_commands(&v);
        assert_eq!(commands, ["piece P& fmWfceFifmnD"]);
    }

    #[test]
    fn caissa_britannia_royal_queen_and_ranks_from_zero() {
        let v = embedded::variant("caissa-britannia").unwrap();
        let x = XboardVariant::new(&v).unwrap();
        let table = x.piece_to_char(&v);
        // The royal Queen slides: XBoard's Queen, and no King. The Prince
        // Consort (mQcK) takes a fairy type; the Lion (L) not XBoard's
        // Lance, which would promote on the last rank.
        assert_eq!(table, "PNBRQKL.........D...U.pnbrqkl.........d...u.");
        let commands = x.piece_commands(&v);
        assert!(
            !commands.iter().any(|c| c.starts_with("piece Q")),
            "{commands:?}"
        );
        assert!(
            commands.contains(&"piece D& A0D0".to_string()),
            "{commands:?}"
        );
        assert!(
            commands.contains(&"piece U& BN0".to_string()),
            "{commands:?}"
        );
        assert!(
            commands.contains(&"piece P& fmWfceFifmnD".to_string()),
            "{commands:?}"
        );
        // XBoard's rank 0 is our rank 1 on a ten-rank board.
        assert_eq!(x.move_in("e2e4"), "e3e5");
        assert_eq!(x.move_in("a8a9n"), "a9a10n");
        let p = v.start();
        let m = p.parse_move("e3e5").unwrap();
        assert_eq!(x.move_out(&p, m), "e2e4");
        assert_eq!(
            x.fen_in("10/10/10/10/10/10/10/10/10/10 w - e2 0 1"),
            "10/10/10/10/10/10/10/10/10/10 w - e3 0 1"
        );
    }
}
