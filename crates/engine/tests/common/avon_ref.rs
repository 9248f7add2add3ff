//! A deliberately naive reference move generator for Avon, written straight
//! from the rules text (rules/avon.md) and independently of the engine, to
//! cross-check it: no other program plays Avon.
//!
//! Everything is explicit and slow: a 10x8 array board, direction vectors
//! written out per piece with the mover's "forward", every candidate move
//! tested by copying the board.
//!
//! - Board: `board[rank][file]`, ranks 0-9, files a-h; a piece is
//!   `(army, letter)` with army 0 White, 1 Black and the upper-case letter.
//! - Players in turn order: 0 White 0-4 (`w`), 1 Black 5-9 (`b`),
//!   2 White 5-9 (`x`), 3 Black 0-4 (`y`). Teams are armies: players 0 and
//!   2 share White, 1 and 3 share Black.

/// A cell's content: `(army, upper-case letter)`.
pub type Sq = Option<(usize, char)>;

pub const FILES: i32 = 8;
pub const RANKS: i32 = 10;

/// One player: position-string tag, army, forward rank step, home ranks.
pub struct Player {
    pub tag: char,
    pub army: usize,
    /// +1: forward is toward rank 9; -1: toward rank 0.
    pub forward: i32,
    /// Home half, inclusive rank range.
    pub home: (i32, i32),
}

pub const PLAYERS: [Player; 4] = [
    Player {
        tag: 'w',
        army: 0,
        forward: 1,
        home: (0, 4),
    },
    Player {
        tag: 'b',
        army: 1,
        forward: -1,
        home: (5, 9),
    },
    Player {
        tag: 'x',
        army: 0,
        forward: -1,
        home: (5, 9),
    },
    Player {
        tag: 'y',
        army: 1,
        forward: 1,
        home: (0, 4),
    },
];

/// The teammate sharing the army.
pub fn partner(p: usize) -> usize {
    (p + 2) % 4
}

fn on_home(player: usize, rank: i32) -> bool {
    let (lo, hi) = PLAYERS[player].home;
    rank >= lo && rank <= hi
}

pub const START: &str = "MKKMmqsm/ABBAyxxy/PPPPpppp/8/8/8/8/ppppPPPP/abbaYXXY/mkkmMQSM w - - 0 1";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pos {
    /// `board[rank][file]`.
    pub board: [[Sq; 8]; 10],
    pub to_move: usize,
    /// Players out, in the order they went out.
    pub out: Vec<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mv {
    /// From (file, rank) to (file, rank), optional promotion letter.
    Step {
        from: (i32, i32),
        to: (i32, i32),
        promo: Option<char>,
    },
    /// The forced drop-out of a player without a legal move.
    Out,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Move or capture.
    Both,
    /// Move to an empty cell only.
    Move,
    /// Capture only.
    Capture,
}

/// One movement component: a vector, whether it slides, what it may do.
struct Dir {
    dx: i32,
    dy: i32,
    rider: bool,
    mode: Mode,
}

fn d(dx: i32, dy: i32, rider: bool) -> Dir {
    Dir {
        dx,
        dy,
        rider,
        mode: Mode::Both,
    }
}

const ORTH: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const DABBABA: [(i32, i32); 4] = [(2, 0), (-2, 0), (0, 2), (0, -2)];

fn all(v: &[(i32, i32)], rider: bool) -> Vec<Dir> {
    v.iter().map(|&(x, y)| d(x, y, rider)).collect()
}

/// The movement of a piece for a player whose forward rank step is `f`.
fn dirs(letter: char, f: i32) -> Vec<Dir> {
    let mut v = Vec::new();
    match letter {
        // Queen Q.
        'Q' => {
            v.extend(all(&ORTH, true));
            v.extend(all(&DIAG, true));
        }
        // Prince K: one step any way.
        'K' => {
            v.extend(all(&ORTH, false));
            v.extend(all(&DIAG, false));
        }
        // Princess fQ: Queen slides in the three forward directions.
        'S' => {
            v.push(d(0, f, true));
            v.push(d(1, f, true));
            v.push(d(-1, f, true));
        }
        // Marshal RN.
        'M' => {
            v.extend(all(&ORTH, true));
            v.extend(all(&KNIGHT, false));
        }
        // Bishop B.
        'B' => v.extend(all(&DIAG, true)),
        // Abbot fBfW: forward diagonal slides, one step straight forward.
        'X' => {
            v.push(d(1, f, true));
            v.push(d(-1, f, true));
            v.push(d(0, f, false));
        }
        // Caryatid fRfF: forward slide, one step diagonally forward.
        'Y' => {
            v.push(d(0, f, true));
            v.push(d(1, f, false));
            v.push(d(-1, f, false));
        }
        // Carpenter ND: unblockable leaps.
        'A' => {
            v.extend(all(&KNIGHT, false));
            v.extend(all(&DABBABA, false));
        }
        // Pawn mfWcfF.
        'P' => {
            v.push(Dir {
                dx: 0,
                dy: f,
                rider: false,
                mode: Mode::Move,
            });
            for dx in [1, -1] {
                v.push(Dir {
                    dx,
                    dy: f,
                    rider: false,
                    mode: Mode::Capture,
                });
            }
        }
        // Chatelaine RF.
        'C' => {
            v.extend(all(&ORTH, true));
            v.extend(all(&DIAG, false));
        }
        // Primate BW.
        'T' => {
            v.extend(all(&DIAG, true));
            v.extend(all(&ORTH, false));
        }
        // Wazir W.
        'W' => v.extend(all(&ORTH, false)),
        _ => panic!("avon reference: unknown piece {letter}"),
    }
    v
}

fn royal(letter: char) -> bool {
    matches!(letter, 'Q' | 'K' | 'S')
}

/// The mass promotion of an army whose player dropped out.
fn mass_promoted(letter: char) -> char {
    match letter {
        'S' => 'Q',
        'Y' => 'C',
        'X' | 'B' => 'T',
        'P' => 'W',
        l => l,
    }
}

/// The d/e boundary: a path (start, cells passed over, end) with cells on
/// both sides of the d/e line needs a cell on each side on ranks 2-7.
fn boundary_ok(path: &[(i32, i32)]) -> bool {
    let bristol = path.iter().any(|&(f, _)| f <= 3);
    let bath = path.iter().any(|&(f, _)| f >= 4);
    if !(bristol && bath) {
        return true;
    }
    let mid = |r: i32| (2..=7).contains(&r);
    path.iter().any(|&(f, r)| f <= 3 && mid(r)) && path.iter().any(|&(f, r)| f >= 4 && mid(r))
}

pub fn cell_name((f, r): (i32, i32)) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r)
}

pub fn move_string(m: &Mv) -> String {
    match m {
        Mv::Out => "out".to_string(),
        Mv::Step { from, to, promo } => {
            let mut s = cell_name(*from) + &cell_name(*to);
            if let Some(l) = promo {
                s.push(l.to_ascii_lowercase());
            }
            s
        }
    }
}

impl Pos {
    /// Reads an Avon position string: board (ranks 9 to 0), player tag,
    /// castling `-`, en passant `-`, counters, optional `out=<tags>`.
    pub fn parse(s: &str) -> Result<Pos, String> {
        let fields: Vec<&str> = s.split_whitespace().collect();
        if fields.len() < 2 {
            return Err("too few fields".into());
        }
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != 10 {
            return Err(format!("{} ranks", rows.len()));
        }
        let mut board = [[None; 8]; 10];
        for (i, row) in rows.iter().enumerate() {
            let r = 9 - i;
            let mut f = 0usize;
            for ch in row.chars() {
                if let Some(n) = ch.to_digit(10) {
                    f += n as usize;
                } else {
                    if f >= 8 {
                        return Err(format!("rank {r} too long"));
                    }
                    let army = if ch.is_ascii_uppercase() { 0 } else { 1 };
                    let l = ch.to_ascii_uppercase();
                    if !"QKSMBXYAPCTW".contains(l) {
                        return Err(format!("piece {ch}"));
                    }
                    board[r][f] = Some((army, l));
                    f += 1;
                }
            }
            if f != 8 {
                return Err(format!("rank {r} has {f} cells"));
            }
        }
        let tag = |t: char| PLAYERS.iter().position(|p| p.tag == t);
        let to_move = fields[1].chars().next().and_then(tag).ok_or("player tag")?;
        let mut out = Vec::new();
        for fld in &fields[2..] {
            if let Some(tags) = fld.strip_prefix("out=") {
                for t in tags.chars() {
                    out.push(tag(t).ok_or("out tag")?);
                }
            }
        }
        if out.contains(&to_move) {
            return Err("player to move is out".into());
        }
        Ok(Pos {
            board,
            to_move,
            out,
        })
    }

    fn at(&self, (f, r): (i32, i32)) -> Sq {
        self.board[r as usize][f as usize]
    }

    pub fn is_out(&self, p: usize) -> bool {
        self.out.contains(&p)
    }

    /// The game is over when both players of a team are out.
    pub fn game_over(&self) -> bool {
        (self.is_out(0) && self.is_out(2)) || (self.is_out(1) && self.is_out(3))
    }

    /// Does `player`'s army have a royal piece on `player`'s home half?
    fn royal_on_half(&self, player: usize) -> bool {
        let army = PLAYERS[player].army;
        (0..RANKS).any(|r| {
            on_home(player, r)
                && (0..FILES)
                    .any(|f| matches!(self.at((f, r)), Some((a, l)) if a == army && royal(l)))
        })
    }

    /// Every move of the player to move, before the royalty test.
    fn candidates(&self) -> Vec<Mv> {
        let me = self.to_move;
        let pl = &PLAYERS[me];
        let restricted = !self.is_out(partner(me));
        let on = |f: i32, r: i32| (0..FILES).contains(&f) && (0..RANKS).contains(&r);
        let mut out = Vec::new();
        for r in 0..RANKS {
            for f in 0..FILES {
                let Some((army, letter)) = self.at((f, r)) else {
                    continue;
                };
                if army != pl.army {
                    continue;
                }
                for dir in dirs(letter, pl.forward) {
                    let mut path = vec![(f, r)];
                    let (mut x, mut y) = (f, r);
                    loop {
                        x += dir.dx;
                        y += dir.dy;
                        if !on(x, y) {
                            break;
                        }
                        // A leaper's path is its start and end only.
                        if !dir.rider {
                            path.truncate(1);
                        }
                        path.push((x, y));
                        let target = self.at((x, y));
                        let ok_mode = match target {
                            None => dir.mode != Mode::Capture,
                            Some((a, _)) if a != army => dir.mode != Mode::Move,
                            Some(_) => false,
                        };
                        let own_half_ok = !restricted || on_home(me, r) || on_home(me, y);
                        if ok_mode && own_half_ok && boundary_ok(&path) {
                            // A Pawn crossing the River becomes a Wazir.
                            let crosses = (r <= 4) != (y <= 4);
                            let promo = (letter == 'P' && crosses).then_some('W');
                            out.push(Mv::Step {
                                from: (f, r),
                                to: (x, y),
                                promo,
                            });
                        }
                        if target.is_some() || !dir.rider {
                            break;
                        }
                    }
                }
            }
        }
        out
    }

    /// The legal moves: none once a team is out; `Out` alone when the
    /// player to move has no move that keeps a royal piece of their army
    /// on their half.
    pub fn legal(&self) -> Vec<Mv> {
        if self.game_over() {
            return Vec::new();
        }
        let me = self.to_move;
        let v: Vec<Mv> = self
            .candidates()
            .into_iter()
            .filter(|m| self.make(m).royal_on_half(me))
            .collect();
        if v.is_empty() {
            vec![Mv::Out]
        } else {
            v
        }
    }

    /// The position after `m` (not checked for legality).
    pub fn make(&self, m: &Mv) -> Pos {
        let mut p = self.clone();
        let me = self.to_move;
        match *m {
            Mv::Step { from, to, promo } => {
                let (army, letter) = self.at(from).expect("a piece to move");
                p.board[from.1 as usize][from.0 as usize] = None;
                p.board[to.1 as usize][to.0 as usize] = Some((army, promo.unwrap_or(letter)));
            }
            Mv::Out => {
                p.out.push(me);
                // The partner, if still in, takes total control: the mass
                // promotion of the army.
                if !self.is_out(partner(me)) {
                    let army = PLAYERS[me].army;
                    for row in p.board.iter_mut() {
                        for sq in row.iter_mut() {
                            if let Some((a, l)) = *sq {
                                if a == army {
                                    *sq = Some((a, mass_promoted(l)));
                                }
                            }
                        }
                    }
                }
            }
        }
        // The next player still in, in turn order.
        if let Some(n) = (1..=4).map(|k| (me + k) % 4).find(|&q| !p.is_out(q)) {
            p.to_move = n;
        }
        p
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
        let read =
            Pos::parse(&fen).unwrap_or_else(|e| panic!("reference cannot read `{fen}`: {e}"));
        (read != *self).then(|| format!("  engine:    {read:?}\n  reference: {self:?}"))
    }
}

impl super::lockstep::Walk for Pos {
    fn game_over(&self) -> bool {
        Pos::game_over(self)
    }

    /// One team is out: the engine reports the last army standing.
    fn check_end(&self, eng: &quadrille_engine::Position) -> Result<(), String> {
        match eng.outcome() {
            Some(o) if o.reason == quadrille_engine::EndReason::LastArmy => Ok(()),
            o => Err(format!(
                "the reference's game is over, the engine says {o:?}"
            )),
        }
    }
}
