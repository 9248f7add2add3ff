//! A deliberately naive reference move generator for the six Mini
//! Fivequarters games (Ariana, Diana, Electra, Los Alamos, Minerva,
//! Sylvia), written straight from the rules text
//! (rules/mini-fivequarters.md) and independently of the engine, to
//! cross-check it: no other program plays these games.
//!
//! Everything is explicit and slow: a 9x9 array board of which 45 cells
//! exist, direction vectors written out per piece, every candidate move
//! tested by copying the board and playing it out.
//!
//! - Board: `board[rank][file]`, ranks 0-8 (rank 1-9), files 0-8 (a-i);
//!   a cell exists when its file is d-f or its rank is 4-6. A piece is
//!   `(player, upper-case letter)`; each player has its own army.
//! - Players in turn order: 0 Red (`r`, camp d1-f3, forward north),
//!   1 Orange (`o`, g4-i6, west), 2 Green (`g`, d7-f9, south), 3 Blue
//!   (`b`, a4-c6, east). The centre is d4-f6.
//! - The interpretations of the points the rules leave open, as the
//!   project states them: a player with no legal move plays `out` and
//!   leaves, with their army; after every move (`out` included: the rules
//!   say "after every move"), every King the next player could capture is
//!   checkmated, judged on the position the move left, all at once, and
//!   the armies leave; this repeats while armies leaving let the next
//!   player capture another King (rules/README.md, the checkmate ruling);
//!   a move is legal when the mover's own King is never among them;
//!   "could capture" obeys the camp rule and the Pawn's rule like a move
//!   does, but not the capturer's own King safety; a kingless army
//!   (Electra, Minerva) whose last piece is captured is out at once; the
//!   game ends when one player remains.
//! - So a King is never captured by a move, except from a set-up position
//!   that already offers one: that player is then out at once, like a
//!   kingless army that lost its last piece, before the next player is
//!   determined.

/// A cell's content: `(player, upper-case letter)`.
pub type Sq = Option<(usize, char)>;

/// Player tags in turn order.
pub const TAGS: [char; 4] = ['r', 'o', 'g', 'b'];

/// Forward step (file, rank) of each player's Pawns: toward the opposite
/// camp. Red north, Orange west, Green south, Blue east.
pub const FORWARD: [(i32, i32); 4] = [(0, 1), (-1, 0), (0, -1), (1, 0)];

/// The five blocks of the cross.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    Centre,
    /// The camp of a player.
    Camp(usize),
}

/// Does the cross have this cell (0-based file and rank)?
pub fn exists((f, r): (i32, i32)) -> bool {
    (0..9).contains(&f) && (0..9).contains(&r) && ((3..=5).contains(&f) || (3..=5).contains(&r))
}

/// The block of an existing cell.
pub fn region((f, r): (i32, i32)) -> Region {
    assert!(exists((f, r)), "no cell {f},{r}");
    if (3..=5).contains(&f) && (3..=5).contains(&r) {
        Region::Centre
    } else if r <= 2 {
        Region::Camp(0) // Red d1-f3
    } else if f >= 6 {
        Region::Camp(1) // Orange g4-i6
    } else if r >= 6 {
        Region::Camp(2) // Green d7-f9
    } else {
        Region::Camp(3) // Blue a4-c6
    }
}

/// The camp opposite a player's: where its Pawns promote.
pub fn opposite(p: usize) -> usize {
    (p + 2) % 4
}

/// The two camps next to a player's, which its Pawns may not capture into.
pub fn neighbours(p: usize) -> [usize; 2] {
    [(p + 1) % 4, (p + 3) % 4]
}

/// Is the cell on the far rank of the camp opposite `p` (that camp's
/// board edge), where `p`'s Pawns must promote?
pub fn far_rank(p: usize, (f, r): (i32, i32)) -> bool {
    match p {
        0 => r == 8, // Red promotes on rank 9 (Green's rank 1)
        1 => f == 0, // Orange on file a (Blue's rank 1)
        2 => r == 0, // Green on rank 1 (Red's rank 1)
        _ => f == 8, // Blue on file i (Orange's rank 1)
    }
}

/// One of the six games: the camp array from the rules' table, listed
/// from the player's left, and the promotion choices.
#[derive(Debug, PartialEq, Eq)]
pub struct Game {
    pub name: &'static str,
    /// The player's rank 1 (board edge), rank 2, rank 3 (next to the
    /// centre), each from the player's left.
    pub ranks: [&'static str; 3],
    pub promo: &'static str,
}

pub const GAMES: [Game; 6] = [
    Game {
        name: "ariana",
        ranks: ["RKR", "BQB", "PPP"],
        promo: "QRB",
    },
    Game {
        name: "diana",
        ranks: ["RKR", "BNB", "PPP"],
        promo: "RBN",
    },
    Game {
        name: "electra",
        ranks: ["RNR", "BNB", "PPP"],
        promo: "RBN",
    },
    Game {
        name: "los-alamos",
        ranks: ["RKR", "NQN", "PPP"],
        promo: "QRN",
    },
    Game {
        name: "minerva",
        ranks: ["RQR", "BNB", "PPP"],
        promo: "QRBN",
    },
    Game {
        name: "sylvia",
        ranks: ["RKR", "BQB", "NNN"],
        promo: "",
    },
];

pub fn game(name: &str) -> &'static Game {
    GAMES
        .iter()
        .find(|g| g.name == name)
        .unwrap_or_else(|| panic!("no game {name}"))
}

impl Game {
    /// Do the armies have Kings (all but Electra and Minerva)?
    pub fn kings(&self) -> bool {
        self.ranks.iter().any(|r| r.contains('K'))
    }

    /// The start: Red's camp holds the table's ranks (d1 R e1 K f1 R for
    /// Los Alamos); the other camps are Red's turned by 90 degrees about
    /// e5, anticlockwise (Red south, Orange east, Green north, Blue west).
    pub fn start(&'static self) -> Pos {
        let mut board = [[None; 9]; 9];
        for (y, rank) in self.ranks.iter().enumerate() {
            for (x, letter) in rank.chars().enumerate() {
                // Red's cell: file d + x (from Red's left), rank 1 + y.
                let (mut dx, mut dy) = (x as i32 - 1, y as i32 - 4);
                for p in 0..4 {
                    board[(4 + dy) as usize][(4 + dx) as usize] = Some((p, letter));
                    // A quarter turn anticlockwise: (dx, dy) -> (-dy, dx).
                    (dx, dy) = (-dy, dx);
                }
            }
        }
        Pos {
            game: self,
            board,
            to_move: 0,
            out: Vec::new(),
            out_step: Vec::new(),
            bug: Bug::None,
        }
    }
}

/// Planted bugs, to show that the comparison with the engine catches a
/// wrong rule (the reference with a bug must disagree with the engine).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bug {
    None,
    /// Pawns may capture into a neighbour's camp.
    PawnTakesIntoNeighbourCamp,
    /// The camp rule binds slides only: steps and leaps cross freely.
    LeapsBetweenCamps,
    /// Every other player threatens Kings, not only the next one.
    EveryoneThreatens,
    /// A player who drops out leaves their army on the board.
    DropOutLeavesArmy,
    /// Promotion compulsory anywhere in the opposite camp.
    PromotionAlwaysCompulsory,
}

#[derive(Clone, Debug)]
pub struct Pos {
    pub game: &'static Game,
    /// `board[rank][file]`; cells off the cross stay empty.
    pub board: [[Sq; 9]; 9],
    pub to_move: usize,
    /// Players out, in the order they went out.
    pub out: Vec<usize>,
    /// For each player out, the step that put them out: players
    /// checkmated in one step share a place.
    pub out_step: Vec<usize>,
    pub bug: Bug,
}

/// Positions are equal when board, player to move and players out are.
impl PartialEq for Pos {
    fn eq(&self, o: &Pos) -> bool {
        self.board == o.board && self.to_move == o.to_move && self.out == o.out
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mv {
    /// From (file, rank) to (file, rank), optional promotion letter.
    Step {
        from: (i32, i32),
        to: (i32, i32),
        promo: Option<char>,
    },
    /// The drop-out of a player without a legal move.
    Out,
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

/// The movement of a FIDE piece (not the Pawn): vectors and whether it
/// slides along them.
fn piece_dirs(letter: char) -> (Vec<(i32, i32)>, bool) {
    match letter {
        'K' => ([ORTH, DIAG].concat(), false),
        'Q' => ([ORTH, DIAG].concat(), true),
        'R' => (ORTH.to_vec(), true),
        'B' => (DIAG.to_vec(), true),
        'N' => (KNIGHT.to_vec(), false),
        _ => panic!("fivequarters reference: unknown piece {letter}"),
    }
}

/// Where a move ends.
pub fn destination(m: &Mv) -> Option<(i32, i32)> {
    match m {
        Mv::Step { to, .. } => Some(*to),
        Mv::Out => None,
    }
}

pub fn cell_name((f, r): (i32, i32)) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
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
    /// Reads a position string: ranks 9 to 1 listing only the cells that
    /// exist, each piece its player's tag and upper-case letter; the
    /// player to move; `- -` and counters (ignored); optional `out=<tags>`.
    pub fn parse(game: &'static Game, s: &str) -> Result<Pos, String> {
        let fields: Vec<&str> = s.split_whitespace().collect();
        if fields.len() < 2 {
            return Err("too few fields".into());
        }
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != 9 {
            return Err(format!("{} ranks", rows.len()));
        }
        let letters: String = game.ranks.concat() + game.promo;
        let tag = |t: char| TAGS.iter().position(|&x| x == t);
        let mut board = [[None; 9]; 9];
        for (i, row) in rows.iter().enumerate() {
            let r = 8 - i as i32;
            let cells: Vec<i32> = (0..9).filter(|&f| exists((f, r))).collect();
            let mut k = 0;
            let chars: Vec<char> = row.chars().collect();
            let mut j = 0;
            while j < chars.len() {
                if chars[j].is_ascii_digit() {
                    let mut n = 0;
                    while j < chars.len() && chars[j].is_ascii_digit() {
                        n = n * 10 + chars[j].to_digit(10).unwrap() as usize;
                        j += 1;
                    }
                    k += n;
                    continue;
                }
                let p = tag(chars[j]).ok_or(format!("tag {}", chars[j]))?;
                let l = *chars.get(j + 1).ok_or("tag without a piece")?;
                if !letters.contains(l) {
                    return Err(format!("piece {l}"));
                }
                let f = *cells.get(k).ok_or(format!("rank {} too long", r + 1))?;
                board[r as usize][f as usize] = Some((p, l));
                k += 1;
                j += 2;
            }
            if k != cells.len() {
                return Err(format!("rank {} has {k} cells", r + 1));
            }
        }
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
            game,
            board,
            to_move,
            out_step: (0..out.len()).collect(),
            out,
            bug: Bug::None,
        })
    }

    /// The position string (counters not kept: `0 1`).
    pub fn to_fen(&self) -> String {
        let mut ranks = Vec::new();
        for r in (0..9).rev() {
            let mut s = String::new();
            let mut empty = 0;
            for f in (0..9).filter(|&f| exists((f, r))) {
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
            let tags: String = self.out.iter().map(|&p| TAGS[p]).collect();
            fen += &format!(" out={tags}");
        }
        fen
    }

    pub fn at(&self, (f, r): (i32, i32)) -> Sq {
        self.board[r as usize][f as usize]
    }

    fn set(&mut self, (f, r): (i32, i32), sq: Sq) {
        self.board[r as usize][f as usize] = sq;
    }

    pub fn is_out(&self, p: usize) -> bool {
        self.out.contains(&p)
    }

    pub fn players_in(&self) -> Vec<usize> {
        (0..4).filter(|&p| !self.is_out(p)).collect()
    }

    /// The game ends when one player remains.
    pub fn game_over(&self) -> bool {
        self.players_in().len() <= 1
    }

    /// Every existing cell.
    fn cells() -> Vec<(i32, i32)> {
        let mut v = Vec::new();
        for r in 0..9 {
            for f in 0..9 {
                if exists((f, r)) {
                    v.push((f, r));
                }
            }
        }
        v
    }

    /// The cells of a player's pieces.
    pub fn army(&self, p: usize) -> Vec<(i32, i32)> {
        Self::cells()
            .into_iter()
            .filter(|&c| matches!(self.at(c), Some((q, _)) if q == p))
            .collect()
    }

    pub fn kings_of(&self, p: usize) -> Vec<(i32, i32)> {
        Self::cells()
            .into_iter()
            .filter(|&c| self.at(c) == Some((p, 'K')))
            .collect()
    }

    /// The camp rule: a move from one camp to another must be a slide
    /// passing over at least one centre cell. `passed` is the cells a
    /// slide passed over (none for a step or a leap).
    fn camps_ok(
        &self,
        from: (i32, i32),
        to: (i32, i32),
        passed: &[(i32, i32)],
        rider: bool,
    ) -> bool {
        match (region(from), region(to)) {
            (Region::Camp(a), Region::Camp(b)) if a != b => {
                if self.bug == Bug::LeapsBetweenCamps && !rider {
                    return true;
                }
                rider && passed.iter().any(|&c| region(c) == Region::Centre)
            }
            _ => true,
        }
    }

    /// Every move of player `p`'s pieces, before the King test: also what
    /// `p` "could capture".
    pub fn candidates(&self, p: usize) -> Vec<Mv> {
        let mut out = Vec::new();
        for from in self.army(p) {
            let (_, letter) = self.at(from).unwrap();
            if letter == 'P' {
                self.pawn_moves(p, from, &mut out);
                continue;
            }
            let (dirs, rider) = piece_dirs(letter);
            for (dx, dy) in dirs {
                let mut passed = Vec::new();
                let mut to = from;
                loop {
                    to = (to.0 + dx, to.1 + dy);
                    if !exists(to) {
                        break;
                    }
                    let target = self.at(to);
                    if matches!(target, Some((q, _)) if q == p) {
                        break;
                    }
                    if self.camps_ok(from, to, &passed, rider) {
                        out.push(Mv::Step {
                            from,
                            to,
                            promo: None,
                        });
                    }
                    if target.is_some() || !rider {
                        break;
                    }
                    passed.push(to);
                }
            }
        }
        out
    }

    /// A Pawn: one step forward to an empty cell, or one step diagonally
    /// forward capturing, never into a neighbour's camp; promotion in the
    /// opposite camp, optional but on its far rank.
    fn pawn_moves(&self, p: usize, from: (i32, i32), out: &mut Vec<Mv>) {
        let (fx, fy) = FORWARD[p];
        let mut targets = Vec::new();
        let ahead = (from.0 + fx, from.1 + fy);
        if exists(ahead) && self.at(ahead).is_none() && self.camps_ok(from, ahead, &[], false) {
            targets.push(ahead);
        }
        // Diagonally forward: forward plus one step across it.
        for s in [1, -1] {
            let to = (from.0 + fx + s * fy, from.1 + fy + s * fx);
            if !exists(to) {
                continue;
            }
            let enemy = matches!(self.at(to), Some((q, _)) if q != p);
            let into_neighbour = match region(to) {
                Region::Camp(c) => neighbours(p).contains(&c),
                Region::Centre => false,
            };
            let allowed = !into_neighbour || self.bug == Bug::PawnTakesIntoNeighbourCamp;
            if enemy && allowed && self.camps_ok(from, to, &[], false) {
                targets.push(to);
            }
        }
        for to in targets {
            let promotes = region(to) == Region::Camp(opposite(p));
            let must = far_rank(p, to) || (promotes && self.bug == Bug::PromotionAlwaysCompulsory);
            if !promotes || !must {
                out.push(Mv::Step {
                    from,
                    to,
                    promo: None,
                });
            }
            if promotes {
                for c in self.game.promo.chars() {
                    out.push(Mv::Step {
                        from,
                        to,
                        promo: Some(c),
                    });
                }
            }
        }
    }

    /// Could player `p` capture the piece on `cell` (a move of theirs ends
    /// there)?
    pub fn could_capture(&self, p: usize, cell: (i32, i32)) -> bool {
        self.candidates(p)
            .iter()
            .any(|m| destination(m) == Some(cell))
    }

    /// A player leaves: out, and their army leaves the board.
    fn remove(&mut self, p: usize) {
        self.remove_together(&[p]);
    }

    /// Players leave in one step (checkmated together).
    fn remove_together(&mut self, players: &[usize]) {
        let step = self.out_step.last().map_or(0, |s| s + 1);
        for &p in players {
            for c in self.army(p) {
                self.set(c, None);
            }
            self.out.push(p);
            self.out_step.push(step);
        }
    }

    /// The first player after `me` in turn order still in (`me` itself
    /// when alone).
    fn next_after(&self, me: usize) -> Option<usize> {
        (1..=4).map(|k| (me + k) % 4).find(|&q| !self.is_out(q))
    }

    /// The position after `m` (not checked for legality), with the
    /// players it puts out.
    pub fn make(&self, m: &Mv) -> Pos {
        let mut p = self.clone();
        let me = self.to_move;
        let kings = self.game.kings();
        match *m {
            Mv::Step { from, to, promo } => {
                let (q, letter) = self.at(from).expect("a piece to move");
                p.set(from, None);
                p.set(to, Some((q, promo.unwrap_or(letter))));
            }
            Mv::Out if self.bug == Bug::DropOutLeavesArmy => p.out.push(me),
            Mv::Out => p.remove(me),
        }
        // An army that lost its last piece (Electra, Minerva), or its King
        // (by capture), is out at once.
        for k in 1..4 {
            let q = (me + k) % 4;
            if p.is_out(q) {
                continue;
            }
            let gone = if kings {
                p.kings_of(q).is_empty()
            } else {
                p.army(q).is_empty()
            };
            if gone {
                p.remove(q);
            }
        }
        let Some(next) = p.next_after(me) else {
            return p;
        };
        p.to_move = next;
        // Checkmate: every King the next player could capture, judged on
        // this position, all at once; the armies leave, and the test
        // repeats on what is left.
        if kings {
            loop {
                let threats = if self.bug == Bug::EveryoneThreatens {
                    p.players_in()
                } else {
                    vec![next]
                };
                // Where each threatening player's moves could end.
                let reach: Vec<(usize, Vec<(i32, i32)>)> = threats
                    .iter()
                    .map(|&t| (t, p.candidates(t).iter().filter_map(destination).collect()))
                    .collect();
                let mut victims = Vec::new();
                for k in 1..=4 {
                    let q = (next + k) % 4;
                    if q == next || p.is_out(q) {
                        continue;
                    }
                    let hit = p
                        .kings_of(q)
                        .iter()
                        .any(|c| reach.iter().any(|(t, cells)| *t != q && cells.contains(c)));
                    if hit {
                        victims.push(q);
                    }
                }
                if victims.is_empty() {
                    break;
                }
                p.remove_together(&victims);
            }
        }
        p
    }

    /// The legal moves: none once the game is over; `Out` alone when the
    /// player to move has no move. A move is legal when the mover is still
    /// in after it (its King is not capturable by the next player).
    pub fn legal(&self) -> Vec<Mv> {
        if self.game_over() {
            return Vec::new();
        }
        let me = self.to_move;
        if self.game.kings() && self.kings_of(me).is_empty() {
            // A set-up position without the mover's King: no move keeps one.
            return vec![Mv::Out];
        }
        let v: Vec<Mv> = self
            .candidates(me)
            .into_iter()
            .filter(|m| !self.make(m).is_out(me))
            .collect();
        if v.is_empty() {
            vec![Mv::Out]
        } else {
            v
        }
    }

    /// The final ranking once the game is over: the last player in, then
    /// the players out, the last out first; players put out in one step
    /// share a place.
    pub fn ranking(&self) -> Vec<Vec<usize>> {
        let mut places = vec![self.players_in()];
        let mut i = self.out.len();
        while i > 0 {
            let step = self.out_step[i - 1];
            let mut place = Vec::new();
            while i > 0 && self.out_step[i - 1] == step {
                place.push(self.out[i - 1]);
                i -= 1;
            }
            place.sort();
            places.push(place);
        }
        places
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

    /// One player is left: the engine ranks the last player first, then
    /// the players out, the last out first, sharing places as the
    /// reference does.
    fn check_end(&self, eng: &quadrille_engine::Position) -> Result<(), String> {
        super::lockstep::check_outcome(eng, quadrille_engine::EndReason::LastArmy, &self.ranking())
    }
}
