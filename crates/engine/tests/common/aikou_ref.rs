//! A deliberately naive reference move generator for the six Pass (Aikou)
//! games (Xiang, Anglis, Gnu, Caliph, Tor, Yang Aikou), written straight
//! from the rules text (rules/pass-aikou.md) and independently of the
//! engine, to cross-check it: no other program plays these games.
//!
//! Everything is explicit and slow: an n x n array board, the rules
//! evaluated in the moving player's own frame (the board turned so that
//! the player's corner is a1: every army is Red's turned about the
//! centre), every candidate move tested by copying the board and playing
//! it out.
//!
//! - Board: `board[rank][file]`, n = 10 (8 for Tor Aikou), quarters of
//!   n/2. Players in turn order: 0 Red (`r`, corner a1), 1 Orange (`o`,
//!   the board turned a quarter anticlockwise: corner j1), 2 Green (`g`,
//!   j10), 3 Blue (`b`, a10).
//! - In a player's frame its quarter is x, y < q; the quarter above (x < q,
//!   y >= q) is its left neighbour's, the one to the right its right
//!   neighbour's, the far corner the opposite player's. The Rivers are the
//!   lines y = q and x = q; its own sections are the parts bordering its
//!   quarter (x <= q of y = q, y <= q of x = q), the far ones the rest. A
//!   move crosses a line where the segment between the cells' centres
//!   meets it; at the Pass (q, q) it crosses both sections of that line.
//! - Pawns (Soldiers) per the rules: toward the nearest all-enemy edge
//!   (north above the diagonal, east below, either on it, with the single
//!   diagonal capture), sideways steps in a neighbouring quarter (not in
//!   Yang Aikou: no River effects), a Wazir in the opposite quarter.
//! - Elimination as in Mini Fivequarters (tests/common/fivequarters_ref.rs,
//!   whose readings this shares): after every move a player whose King is
//!   gone is out at once; then every King the next player could capture is
//!   checkmated, all judged together, and the armies leave; this repeats
//!   while armies leaving let the next player capture another King (the
//!   checkmate ruling, rules/README.md). A move is legal when the mover is
//!   never among them. A player with no legal
//!   move plays `out`. "Could capture" obeys the River, fortress and promotion
//!   rules like a move; Generals facing along an open rank or file could
//!   capture each other. The game ends when two players are left.

/// A cell's content: `(player, upper-case letter)`.
pub type Sq = Option<(usize, char)>;

/// Player tags in turn order.
pub const TAGS: [char; 4] = ['r', 'o', 'g', 'b'];

/// (file, rank), 0-based.
pub type Cell = (i32, i32);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Xiang,
    Anglis,
    Gnu,
    Caliph,
    Tor,
    Yang,
}

/// One game: its board size and Red's array from the rules' table.
#[derive(Debug)]
pub struct Game {
    pub name: &'static str,
    pub kind: Kind,
    pub n: i32,
    pub red: &'static [(&'static str, char)],
}

pub const GAMES: [Game; 6] = [
    Game {
        name: "xiang-aikou",
        kind: Kind::Xiang,
        n: 10,
        red: &[
            ("a1", 'G'),
            ("b1", 'A'),
            ("a2", 'A'),
            ("c1", 'E'),
            ("a3", 'E'),
            ("d1", 'H'),
            ("a4", 'H'),
            ("e1", 'R'),
            ("a5", 'R'),
            ("d3", 'C'),
            ("c4", 'C'),
            ("c5", 'S'),
            ("d5", 'S'),
            ("e5", 'S'),
            ("e4", 'S'),
            ("e3", 'S'),
        ],
    },
    Game {
        name: "anglis-aikou",
        kind: Kind::Anglis,
        n: 10,
        red: &[
            ("a1", 'K'),
            ("b1", 'B'),
            ("a2", 'B'),
            ("c1", 'N'),
            ("a3", 'N'),
            ("d1", 'R'),
            ("a4", 'R'),
            ("b2", 'Q'),
            ("c3", 'P'),
            ("c4", 'P'),
            ("c5", 'P'),
            ("d3", 'P'),
            ("e3", 'P'),
            ("d4", 'P'),
            ("d5", 'P'),
            ("e4", 'P'),
        ],
    },
    Game {
        name: "gnu-aikou",
        kind: Kind::Gnu,
        n: 10,
        red: &[
            ("a1", 'K'),
            ("b1", 'Q'),
            ("a2", 'G'),
            ("c1", 'B'),
            ("a3", 'C'),
            ("d1", 'N'),
            ("a4", 'N'),
            ("e1", 'R'),
            ("a5", 'R'),
            ("c3", 'P'),
            ("c4", 'P'),
            ("c5", 'P'),
            ("d3", 'P'),
            ("e3", 'P'),
            ("d4", 'P'),
            ("d5", 'P'),
            ("e4", 'P'),
            ("e5", 'P'),
        ],
    },
    Game {
        name: "caliph-aikou",
        kind: Kind::Caliph,
        n: 10,
        red: &[
            ("a1", 'K'),
            ("b1", 'Q'),
            ("a2", 'L'),
            ("c1", 'B'),
            ("a3", 'C'),
            ("d1", 'N'),
            ("a4", 'N'),
            ("e1", 'R'),
            ("a5", 'R'),
            ("c3", 'P'),
            ("c4", 'P'),
            ("c5", 'P'),
            ("d3", 'P'),
            ("e3", 'P'),
            ("d4", 'P'),
            ("d5", 'P'),
            ("e4", 'P'),
            ("e5", 'P'),
        ],
    },
    Game {
        name: "tor-aikou",
        kind: Kind::Tor,
        n: 8,
        red: &[
            ("a1", 'K'),
            ("b1", 'Q'),
            ("a2", 'L'),
            ("c1", 'B'),
            ("a3", 'C'),
            ("d1", 'R'),
            ("a4", 'R'),
            ("c3", 'P'),
            ("c4", 'P'),
            ("d3", 'P'),
            ("d4", 'P'),
        ],
    },
    Game {
        name: "yang-aikou",
        kind: Kind::Yang,
        n: 10,
        red: &[
            ("a1", 'K'),
            ("b1", 'A'),
            ("a2", 'A'),
            ("c1", 'B'),
            ("a3", 'B'),
            ("d1", 'N'),
            ("a4", 'N'),
            ("e1", 'R'),
            ("a5", 'R'),
            ("d2", 'C'),
            ("b4", 'C'),
            ("c3", 'P'),
            ("c4", 'P'),
            ("c5", 'P'),
            ("d3", 'P'),
            ("e3", 'P'),
            ("d4", 'P'),
            ("d5", 'P'),
            ("e4", 'P'),
            ("e5", 'P'),
        ],
    },
];

pub fn game(name: &str) -> &'static Game {
    GAMES
        .iter()
        .find(|g| g.name == name)
        .unwrap_or_else(|| panic!("no game {name}"))
}

/// Planted bugs, to show that the comparison with the engine catches a
/// wrong rule (the reference with a bug must disagree with the engine).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bug {
    None,
    /// Elephants (and the other no-cross pieces) cross far sections.
    FarSectionsOpen,
    /// Bishops and Camels cross far sections from or to a bank.
    NoRunningJump,
    /// Crossing at the Pass point counts as crossing nothing far.
    PassIsNotFar,
    /// Generals may face each other.
    NoFacing,
    /// Generals and Advisors leave their fortress.
    NoFortress,
    /// A Pawn on the long diagonal has both diagonal captures.
    DiagonalPawnTwoCaptures,
    /// No sideways steps after crossing a River.
    NoSidewaysSteps,
    /// In the opposite quarter Pawns keep moving as in a neighbouring one.
    NoWazirInOppositeQuarter,
    /// The King swaps even when attacked.
    SwapWhenAttacked,
    /// Yang Pawns promote to any piece, lost or not.
    PromoteToAnything,
    /// Every other player threatens Kings, not only the next one.
    EveryoneThreatens,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mv {
    Step {
        from: Cell,
        to: Cell,
        promo: Option<char>,
        /// The King changes places with its own piece on `to`.
        swap: bool,
    },
    Out,
}

#[derive(Clone, Debug)]
pub struct Pos {
    pub game: &'static Game,
    /// `board[rank][file]`.
    pub board: Vec<Vec<Sq>>,
    pub to_move: usize,
    /// Players out, in the order they went out, with how many other
    /// players were still in at that moment.
    pub out: Vec<(usize, usize)>,
    pub bug: Bug,
}

/// Positions are equal when board, player to move and players out are.
impl PartialEq for Pos {
    fn eq(&self, o: &Pos) -> bool {
        self.board == o.board && self.to_move == o.to_move && self.out_order() == o.out_order()
    }
}

const ORTH: [Cell; 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [Cell; 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// The eight (x, y), (y, x) sign variants of a leap.
fn eight(a: i32, b: i32) -> Vec<Cell> {
    let mut v = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            if !v.contains(&(x * sx, y * sy)) {
                v.push((x * sx, y * sy));
            }
        }
    }
    v
}

pub fn cell_name((f, r): Cell) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

pub fn parse_cell(s: &str) -> Cell {
    let f = (s.as_bytes()[0] - b'a') as i32;
    let r: i32 = s[1..].parse().expect("a rank number");
    (f, r - 1)
}

pub fn move_string(m: &Mv) -> String {
    match m {
        Mv::Out => "out".into(),
        Mv::Step {
            from, to, promo, ..
        } => {
            let mut s = cell_name(*from) + &cell_name(*to);
            if let Some(l) = promo {
                s.push(l.to_ascii_lowercase());
            }
            s
        }
    }
}

/// How a letter moves: vectors, riding or leaping, and how it captures.
enum Way {
    Leap(Vec<Cell>),
    Ride(Vec<Cell>),
    /// Quiet slides, captures by hopping one screen (Cannon, Arrow).
    Cannon(Vec<Cell>),
    /// Elephant: a (2,2) leap over an empty midpoint.
    Elephant,
    /// Horse: a knight leap whose first orthogonal step is empty.
    Horse,
}

impl Game {
    fn q(&self) -> i32 {
        self.n / 2
    }

    /// The ways a (non-Pawn) letter moves in this game.
    fn ways(&self, letter: char) -> Vec<Way> {
        use Way::*;
        let king = || Leap([ORTH, DIAG].concat());
        match (self.kind, letter) {
            (Kind::Xiang, 'G') => vec![Leap(ORTH.to_vec())],
            (Kind::Xiang, 'A') => vec![Leap(DIAG.to_vec())],
            (Kind::Xiang, 'E') => vec![Elephant],
            (Kind::Xiang, 'H') => vec![Horse],
            (Kind::Xiang | Kind::Yang, 'C') => vec![Cannon(ORTH.to_vec())],
            (Kind::Yang, 'A') => vec![Cannon(DIAG.to_vec())],
            (Kind::Gnu, 'G') => vec![Leap(eight(2, 1)), Leap(eight(3, 1))],
            (_, 'C') => vec![Leap(eight(3, 1))],
            (_, 'L') => vec![Ride(DIAG.to_vec()), Leap(eight(3, 1))],
            (_, 'K') => vec![king()],
            (_, 'Q') => vec![Ride([ORTH, DIAG].concat())],
            (_, 'R') => vec![Ride(ORTH.to_vec())],
            (_, 'B') => vec![Ride(DIAG.to_vec())],
            (_, 'N') => vec![Leap(eight(2, 1))],
            _ => panic!("{}: unknown piece {letter}", self.name),
        }
    }

    /// The royal letter.
    fn king(&self) -> char {
        if self.kind == Kind::Xiang {
            'G'
        } else {
            'K'
        }
    }

    fn pawn(&self) -> char {
        if self.kind == Kind::Xiang {
            'S'
        } else {
            'P'
        }
    }

    /// Letters that may not cross a far section.
    fn no_cross(&self) -> &'static str {
        match self.kind {
            Kind::Xiang => "E",
            Kind::Anglis => "KQ",
            Kind::Gnu => "QG",
            _ => "",
        }
    }

    /// Letters that cross a far section only by a running jump.
    fn running_jump(&self) -> &'static str {
        match self.kind {
            Kind::Anglis => "B",
            Kind::Gnu | Kind::Caliph | Kind::Tor => "BC",
            _ => "",
        }
    }

    /// A cell in player `p`'s frame (its corner at a1): the board turned a
    /// quarter clockwise `p` times.
    pub fn to_frame(&self, p: usize, (mut x, mut y): Cell) -> Cell {
        for _ in 0..p {
            (x, y) = (y, self.n - 1 - x);
        }
        (x, y)
    }

    /// Back from player `p`'s frame to the board.
    pub fn board_cell(&self, p: usize, (mut x, mut y): Cell) -> Cell {
        for _ in 0..p {
            (x, y) = (self.n - 1 - y, x);
        }
        (x, y)
    }

    /// A direction in player `p`'s frame, on the board.
    fn board_dir(&self, p: usize, (mut dx, mut dy): Cell) -> Cell {
        for _ in 0..p {
            (dx, dy) = (-dy, dx);
        }
        (dx, dy)
    }

    fn on_board(&self, (f, r): Cell) -> bool {
        (0..self.n).contains(&f) && (0..self.n).contains(&r)
    }

    /// The start: Red's array and its three turned copies.
    pub fn start(&'static self) -> Pos {
        let n = self.n as usize;
        let mut board = vec![vec![None; n]; n];
        for &(c, letter) in self.red {
            for p in 0..4 {
                let (f, r) = self.board_cell(p, parse_cell(c));
                board[r as usize][f as usize] = Some((p, letter));
            }
        }
        Pos {
            game: self,
            board,
            to_move: 0,
            out: Vec::new(),
            bug: Bug::None,
        }
    }

    /// Pieces of each letter an army starts with.
    fn start_count(&self, letter: char) -> usize {
        self.red.iter().filter(|&&(_, l)| l == letter).count()
    }
}

/// Which far sections (in the mover's frame: `e` east, `n` north) the move
/// between two frame cells crosses, by where the segment between the
/// centres meets the lines y = q and x = q (both sections at the Pass).
fn far_crossings(q: i32, a: Cell, b: Cell, bug: Bug) -> (bool, bool) {
    // The line y = q: crossed when the centres lie on either side. The
    // crossing's x, doubled: x1 + 1/2 + (x2 - x1) (q - y1 - 1/2) / (y2 - y1).
    let side = |v: i32| v < q;
    let mut east = false;
    if side(a.1) != side(b.1) {
        let dy = b.1 - a.1;
        // 2 * dy * x_cross compared with 2 * dy * q.
        let num = (2 * a.0 + 1) * dy + (b.0 - a.0) * (2 * q - 2 * a.1 - 1);
        let at = 2 * q * dy;
        let x_cross_ge_q = if dy > 0 { num >= at } else { num <= at };
        let x_cross_eq_q = num == at;
        east = x_cross_ge_q && !(bug == Bug::PassIsNotFar && x_cross_eq_q);
    }
    let mut north = false;
    if side(a.0) != side(b.0) {
        let dx = b.0 - a.0;
        let num = (2 * a.1 + 1) * dx + (b.1 - a.1) * (2 * q - 2 * a.0 - 1);
        let at = 2 * q * dx;
        let ge = if dx > 0 { num >= at } else { num <= at };
        north = ge && !(bug == Bug::PassIsNotFar && num == at);
    }
    (east, north)
}

impl Pos {
    /// Reads a position string: ranks from the top, each piece its player's
    /// tag and upper-case letter; the player to move; `- -` and counters
    /// (ignored); optional `out=<tags>`.
    pub fn parse(game: &'static Game, s: &str) -> Result<Pos, String> {
        let n = game.n as usize;
        let fields: Vec<&str> = s.split_whitespace().collect();
        if fields.len() < 2 {
            return Err("too few fields".into());
        }
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != n {
            return Err(format!("{} ranks", rows.len()));
        }
        let tag = |t: char| TAGS.iter().position(|&x| x == t);
        let mut board = vec![vec![None; n]; n];
        for (i, row) in rows.iter().enumerate() {
            let r = n - 1 - i;
            let chars: Vec<char> = row.chars().collect();
            let (mut j, mut f) = (0, 0);
            while j < chars.len() {
                if chars[j].is_ascii_digit() {
                    let mut k = 0;
                    while j < chars.len() && chars[j].is_ascii_digit() {
                        k = k * 10 + chars[j].to_digit(10).unwrap() as usize;
                        j += 1;
                    }
                    f += k;
                    continue;
                }
                let p = tag(chars[j]).ok_or(format!("tag {}", chars[j]))?;
                let l = *chars.get(j + 1).ok_or("tag without a piece")?;
                if f >= n {
                    return Err(format!("rank {} too long", r + 1));
                }
                board[r][f] = Some((p, l));
                f += 1;
                j += 2;
            }
            if f != n {
                return Err(format!("rank {} has {f} cells", r + 1));
            }
        }
        let to_move = fields[1].chars().next().and_then(tag).ok_or("player tag")?;
        let mut out = Vec::new();
        for fld in &fields[2..] {
            if let Some(tags) = fld.strip_prefix("out=") {
                for t in tags.chars() {
                    let p = tag(t).ok_or("out tag")?;
                    out.push((p, 3 - out.len()));
                }
            }
        }
        let pos = Pos {
            game,
            board,
            to_move,
            out,
            bug: Bug::None,
        };
        if pos.is_out(to_move) {
            return Err("player to move is out".into());
        }
        Ok(pos)
    }

    pub fn to_fen(&self) -> String {
        let n = self.game.n;
        let mut ranks = Vec::new();
        for r in (0..n).rev() {
            let (mut s, mut empty) = (String::new(), 0);
            for f in 0..n {
                match self.at((f, r)) {
                    None => empty += 1,
                    Some((p, l)) => {
                        if empty > 0 {
                            s += &empty.to_string();
                            empty = 0;
                        }
                        s.push(TAGS[p]);
                        s.push(l);
                    }
                }
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            ranks.push(s);
        }
        let mut fen = format!("{} {} - - 0 1", ranks.join("/"), TAGS[self.to_move]);
        if !self.out.is_empty() {
            let tags: String = self.out.iter().map(|&(p, _)| TAGS[p]).collect();
            fen += &format!(" out={tags}");
        }
        fen
    }

    pub fn at(&self, (f, r): Cell) -> Sq {
        self.board[r as usize][f as usize]
    }

    fn set(&mut self, (f, r): Cell, sq: Sq) {
        self.board[r as usize][f as usize] = sq;
    }

    pub fn out_order(&self) -> Vec<usize> {
        self.out.iter().map(|&(p, _)| p).collect()
    }

    pub fn is_out(&self, p: usize) -> bool {
        self.out.iter().any(|&(q, _)| q == p)
    }

    pub fn players_in(&self) -> Vec<usize> {
        (0..4).filter(|&p| !self.is_out(p)).collect()
    }

    /// The game ends when two players are left.
    pub fn game_over(&self) -> bool {
        self.players_in().len() <= 2
    }

    fn cells(&self) -> Vec<Cell> {
        let n = self.game.n;
        (0..n).flat_map(|r| (0..n).map(move |f| (f, r))).collect()
    }

    pub fn army(&self, p: usize) -> Vec<Cell> {
        self.cells()
            .into_iter()
            .filter(|&c| matches!(self.at(c), Some((q, _)) if q == p))
            .collect()
    }

    pub fn king_of(&self, p: usize) -> Option<Cell> {
        let k = self.game.king();
        self.cells()
            .into_iter()
            .find(|&c| self.at(c) == Some((p, k)))
    }

    /// The rules that bind every move of a piece (and so its captures):
    /// the fortress and the Rivers.
    fn allowed(&self, p: usize, letter: char, from: Cell, to: Cell) -> bool {
        let g = self.game;
        if g.kind == Kind::Xiang && "GA".contains(letter) && self.bug != Bug::NoFortress {
            let (x, y) = g.to_frame(p, to);
            if x > 2 || y > 2 {
                return false;
            }
        }
        let (a, b) = (g.to_frame(p, from), g.to_frame(p, to));
        let (east, north) = far_crossings(g.q(), a, b, self.bug);
        if !(east || north) {
            return true;
        }
        if g.no_cross().contains(letter) && self.bug != Bug::FarSectionsOpen {
            return false;
        }
        if g.running_jump().contains(letter) && self.bug != Bug::NoRunningJump {
            let q = g.q();
            // Beside the east section: the two rows along y = q, right of
            // x = q; beside the north one: the two columns along x = q, above.
            let beside_east = |(x, y): Cell| x >= q && (y == q - 1 || y == q);
            let beside_north = |(x, y): Cell| y >= q && (x == q - 1 || x == q);
            if east && (beside_east(a) || beside_east(b)) {
                return false;
            }
            if north && (beside_north(a) || beside_north(b)) {
                return false;
            }
        }
        true
    }

    /// Lost types of player `p` a Yang Pawn may become: those with fewer
    /// pieces on the board than at the start (not King or Pawn).
    fn lost_types(&self, p: usize) -> Vec<char> {
        let mut letters: Vec<char> = self.game.red.iter().map(|&(_, l)| l).collect();
        letters.sort();
        letters.dedup();
        letters
            .into_iter()
            .filter(|&l| l != 'K' && l != 'P')
            .filter(|&l| {
                self.bug == Bug::PromoteToAnything
                    || self
                        .army(p)
                        .iter()
                        .filter(|&&c| self.at(c) == Some((p, l)))
                        .count()
                        < self.game.start_count(l)
            })
            .collect()
    }

    /// The steps of a Pawn (or Soldier) of `p` on `from`, in `p`'s frame:
    /// (direction, may move, may capture).
    fn pawn_steps(&self, p: usize, from: Cell) -> Vec<(Cell, bool, bool)> {
        let g = self.game;
        let q = g.q();
        let (x, y) = g.to_frame(p, from);
        let soldier = g.kind == Kind::Xiang;
        let sideways = g.kind != Kind::Yang && self.bug != Bug::NoSidewaysSteps;
        // A Pawn heading `fwd`: one step there, diagonal captures either
        // side of it; a Soldier steps there, moving or capturing.
        let heading = |fwd: Cell| -> Vec<(Cell, bool, bool)> {
            if soldier {
                vec![(fwd, true, true)]
            } else {
                let (dx, dy) = fwd;
                vec![
                    (fwd, true, false),
                    ((dx - dy, dy + dx), false, true),
                    ((dx + dy, dy - dx), false, true),
                ]
            }
        };
        let along = |a: Cell, b: Cell| vec![(a, true, true), (b, true, true)];
        match (x < q, y < q) {
            // Its own quarter.
            (true, true) => {
                if y > x {
                    heading((0, 1))
                } else if x > y {
                    heading((1, 0))
                } else if soldier {
                    vec![((0, 1), true, true), ((1, 0), true, true)]
                } else {
                    // The long diagonal: either way, one capture along it.
                    let mut v = vec![((0, 1), true, false), ((1, 0), true, false)];
                    v.push(((1, 1), false, true));
                    if self.bug == Bug::DiagonalPawnTwoCaptures {
                        v.push(((-1, 1), false, true));
                    }
                    v
                }
            }
            // A neighbouring quarter: above (reached across y = q heading
            // north) or to the right (across x = q heading east).
            (true, false) | (false, true) => {
                let (fwd, side) = if x < q {
                    ((0, 1), along((1, 0), (-1, 0)))
                } else {
                    ((1, 0), along((0, 1), (0, -1)))
                };
                let mut v = heading(fwd);
                if sideways {
                    v.extend(side);
                }
                v
            }
            // The opposite quarter.
            (false, false) => {
                if self.bug == Bug::NoWazirInOppositeQuarter {
                    heading((0, 1))
                } else {
                    ORTH.iter().map(|&d| (d, true, true)).collect()
                }
            }
        }
    }

    /// Every move of player `p`'s pieces, before the King test: also what
    /// `p` "could capture". Swaps are not captures and are left out.
    pub fn candidates(&self, p: usize) -> Vec<Mv> {
        let g = self.game;
        let mut out = Vec::new();
        for from in self.army(p) {
            let (_, letter) = self.at(from).unwrap();
            let mut targets: Vec<Cell> = Vec::new();
            let free = |c: Cell| g.on_board(c) && self.at(c).is_none();
            let enemy = |c: Cell| g.on_board(c) && matches!(self.at(c), Some((o, _)) if o != p);
            if letter == g.pawn() {
                for (d, quiet, capture) in self.pawn_steps(p, from) {
                    let (dx, dy) = g.board_dir(p, d);
                    let to = (from.0 + dx, from.1 + dy);
                    if (quiet && free(to)) || (capture && enemy(to)) {
                        targets.push(to);
                    }
                }
            } else {
                for way in g.ways(letter) {
                    match way {
                        Way::Leap(vs) => {
                            for (dx, dy) in vs {
                                let to = (from.0 + dx, from.1 + dy);
                                if free(to) || enemy(to) {
                                    targets.push(to);
                                }
                            }
                        }
                        Way::Elephant => {
                            for (dx, dy) in DIAG {
                                let mid = (from.0 + dx, from.1 + dy);
                                let to = (from.0 + 2 * dx, from.1 + 2 * dy);
                                if g.on_board(to) && free(mid) && (free(to) || enemy(to)) {
                                    targets.push(to);
                                }
                            }
                        }
                        Way::Horse => {
                            for (dx, dy) in eight(2, 1) {
                                let leg = if dx.abs() == 2 {
                                    (from.0 + dx / 2, from.1)
                                } else {
                                    (from.0, from.1 + dy / 2)
                                };
                                let to = (from.0 + dx, from.1 + dy);
                                if g.on_board(to) && free(leg) && (free(to) || enemy(to)) {
                                    targets.push(to);
                                }
                            }
                        }
                        Way::Ride(vs) => {
                            for (dx, dy) in vs {
                                let mut to = (from.0 + dx, from.1 + dy);
                                while free(to) {
                                    targets.push(to);
                                    to = (to.0 + dx, to.1 + dy);
                                }
                                if enemy(to) {
                                    targets.push(to);
                                }
                            }
                        }
                        Way::Cannon(vs) => {
                            for (dx, dy) in vs {
                                let mut to = (from.0 + dx, from.1 + dy);
                                while free(to) {
                                    targets.push(to);
                                    to = (to.0 + dx, to.1 + dy);
                                }
                                // `to` is the screen (or off the board).
                                to = (to.0 + dx, to.1 + dy);
                                while free(to) {
                                    to = (to.0 + dx, to.1 + dy);
                                }
                                if enemy(to) {
                                    targets.push(to);
                                }
                            }
                        }
                    }
                }
            }
            for to in targets {
                if !self.allowed(p, letter, from, to) {
                    continue;
                }
                let promotes = g.kind == Kind::Yang && letter == 'P' && {
                    let (x, y) = g.to_frame(p, to);
                    x == g.n - 1 || y == g.n - 1
                };
                if promotes {
                    for l in self.lost_types(p) {
                        out.push(Mv::Step {
                            from,
                            to,
                            promo: Some(l),
                            swap: false,
                        });
                    }
                } else {
                    out.push(Mv::Step {
                        from,
                        to,
                        promo: None,
                        swap: false,
                    });
                }
            }
        }
        out
    }

    /// The cells player `t` could capture on: where a move of theirs ends,
    /// and (Xiang Aikou) the cells of the Generals their General faces
    /// along an open rank or file.
    pub fn reach(&self, t: usize) -> Vec<Cell> {
        let g = self.game;
        let mut cells: Vec<Cell> = self
            .candidates(t)
            .iter()
            .filter_map(|m| match m {
                Mv::Step { to, .. } => Some(*to),
                Mv::Out => None,
            })
            .collect();
        if g.kind == Kind::Xiang && self.bug != Bug::NoFacing {
            for from in self.army(t) {
                if self.at(from) != Some((t, 'G')) {
                    continue;
                }
                for (dx, dy) in ORTH {
                    let mut c = (from.0 + dx, from.1 + dy);
                    while g.on_board(c) && self.at(c).is_none() {
                        c = (c.0 + dx, c.1 + dy);
                    }
                    if g.on_board(c) && matches!(self.at(c), Some((o, 'G')) if o != t) {
                        cells.push(c);
                    }
                }
            }
        }
        cells
    }

    /// Could player `t` capture the piece on `cell`?
    pub fn could_capture(&self, t: usize, cell: Cell) -> bool {
        self.reach(t).contains(&cell)
    }

    /// Yang Aikou: the King, not attacked by any player in the game, swaps
    /// with an adjacent piece of its army that is not a Pawn.
    fn swaps(&self, p: usize) -> Vec<Mv> {
        let g = self.game;
        let mut out = Vec::new();
        if g.kind != Kind::Yang {
            return out;
        }
        let Some(k) = self.king_of(p) else {
            return out;
        };
        let attacked = self
            .players_in()
            .iter()
            .any(|&t| t != p && self.could_capture(t, k));
        if attacked && self.bug != Bug::SwapWhenAttacked {
            return out;
        }
        for (dx, dy) in [ORTH, DIAG].concat() {
            let to = (k.0 + dx, k.1 + dy);
            if g.on_board(to) {
                if let Some((o, l)) = self.at(to) {
                    if o == p && l != 'P' {
                        out.push(Mv::Step {
                            from: k,
                            to,
                            promo: None,
                            swap: true,
                        });
                    }
                }
            }
        }
        out
    }

    /// A player leaves: out (with the count of other players still in),
    /// and their army leaves the board.
    fn remove(&mut self, players: &[usize]) {
        let others = self.players_in().len().saturating_sub(1);
        for &p in players {
            for c in self.army(p) {
                self.set(c, None);
            }
            self.out.push((p, others));
        }
    }

    fn next_after(&self, me: usize) -> Option<usize> {
        (1..=4).map(|k| (me + k) % 4).find(|&q| !self.is_out(q))
    }

    /// The position after `m` (not checked for legality), with the players
    /// it puts out.
    pub fn make(&self, m: &Mv) -> Pos {
        let mut p = self.clone();
        let me = self.to_move;
        match *m {
            Mv::Step {
                from,
                to,
                promo,
                swap,
            } => {
                let moving = self.at(from).expect("a piece to move");
                if swap {
                    p.set(from, self.at(to));
                    p.set(to, Some(moving));
                } else {
                    p.set(from, None);
                    p.set(to, Some((moving.0, promo.unwrap_or(moving.1))));
                }
            }
            Mv::Out => p.remove(&[me]),
        }
        // A player whose King was taken is out at once.
        let taken: Vec<usize> = (1..4)
            .map(|k| (me + k) % 4)
            .filter(|&q| !p.is_out(q) && p.king_of(q).is_none())
            .collect();
        p.remove(&taken);
        let Some(next) = p.next_after(me) else {
            return p;
        };
        p.to_move = next;
        // Checkmate: every King the next player could capture, judged on
        // this position, all at once; the armies leave, and the test
        // repeats on what is left.
        loop {
            let threats = if self.bug == Bug::EveryoneThreatens {
                p.players_in()
            } else {
                vec![next]
            };
            let reach: Vec<(usize, Vec<Cell>)> = threats.iter().map(|&t| (t, p.reach(t))).collect();
            let victims: Vec<usize> = (1..4)
                .map(|k| (next + k) % 4)
                .filter(|&q| !p.is_out(q))
                .filter(|&q| {
                    p.king_of(q)
                        .is_some_and(|c| reach.iter().any(|(t, r)| *t != q && r.contains(&c)))
                })
                .collect();
            if victims.is_empty() {
                break;
            }
            p.remove(&victims);
        }
        p
    }

    /// The legal moves: none once the game is over; `Out` alone when the
    /// player to move has none. A move is legal when the mover is still in
    /// afterwards: its King was capturable by the next player at no step of
    /// the checkmate test.
    pub fn legal(&self) -> Vec<Mv> {
        if self.game_over() {
            return Vec::new();
        }
        let me = self.to_move;
        let mut all = self.candidates(me);
        all.extend(self.swaps(me));
        let v: Vec<Mv> = all
            .into_iter()
            .filter(|m| !self.make(m).is_out(me))
            .collect();
        if v.is_empty() {
            vec![Mv::Out]
        } else {
            v
        }
    }

    /// The ranking once the game is over: the player about to move (whose
    /// threat delivered the last checkmate), the other player in, then the
    /// players out, the last out first; players put out in one step (with
    /// the same number of others still in) share a place.
    pub fn ranking(&self) -> Vec<Vec<usize>> {
        let mut places = vec![vec![self.to_move]];
        places.extend(
            self.players_in()
                .into_iter()
                .filter(|&p| p != self.to_move)
                .map(|p| vec![p]),
        );
        let mut i = self.out.len();
        while i > 0 {
            let others = self.out[i - 1].1;
            let mut place = Vec::new();
            while i > 0 && self.out[i - 1].1 == others {
                place.push(self.out[i - 1].0);
                i -= 1;
            }
            place.sort();
            places.push(place);
        }
        places
    }

    /// Series scores once the game is over: the winner 3, the others 3
    /// minus the other players still in when they were checkmated (the
    /// other survivor: at the end).
    pub fn scores(&self) -> Vec<u32> {
        let mut s = vec![0; 4];
        for p in self.players_in() {
            s[p] = if p == self.to_move { 3 } else { 2 };
        }
        for &(p, others) in &self.out {
            s[p] = 3 - others as u32;
        }
        s
    }
}

impl super::lockstep::Reference for Pos {
    type Move = Mv;
    fn legal_moves(&self) -> Vec<Mv> {
        self.legal()
    }
    fn text(m: &Mv) -> String {
        move_string(m)
    }
    fn after(&self, m: &Mv) -> Pos {
        self.make(m)
    }
    fn differs_from(&self, eng: &quadrille_engine::Position) -> Option<String> {
        let fen = eng.to_string();
        let read = Pos::parse(self.game, &fen)
            .unwrap_or_else(|e| panic!("reference cannot read `{fen}`: {e}"));
        (read != *self).then(|| format!("  engine:    `{fen}`\n  reference: `{}`", self.to_fen()))
    }
}

impl super::lockstep::Walk for Pos {
    fn game_over(&self) -> bool {
        Pos::game_over(self)
    }

    /// Two players are left: the engine's ranking and series scores must
    /// be the reference's.
    fn check_end(&self, eng: &quadrille_engine::Position) -> Result<(), String> {
        super::lockstep::check_outcome(
            eng,
            quadrille_engine::EndReason::PlayersLeft,
            &self.ranking(),
        )?;
        let scores = eng.series_scores().ok_or("no series scores")?;
        if scores != self.scores() {
            return Err(format!(
                "scores: engine {scores:?}, reference {:?}",
                self.scores()
            ));
        }
        Ok(())
    }
}
