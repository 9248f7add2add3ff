//! A position: piece placement, who is to move, and the rule state (castling
//! rights, en passant, counters), with incremental make/unmake and an
//! incrementally updated Zobrist key.

use crate::geometry::{Cell, CellSet, MAX_CELLS, WIDE};
use crate::moves::{Move, MoveKind};
use crate::tables::CellTables;
use crate::variant::{PieceType, Variant, MAX_ARMIES, MAX_PLAYERS, MAX_TYPES};
use std::sync::Arc;

/// A piece on the board: its army and type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The army (index into `Variant::armies`).
    pub army: u8,
    /// The type (index into `Variant::pieces`).
    pub kind: PieceType,
}

impl Piece {
    /// Board encoding: 0 is empty, otherwise `1 + army * 32 + type`.
    #[inline]
    pub(crate) fn code(self) -> u8 {
        1 + self.army * 32 + self.kind
    }
    #[inline]
    pub(crate) fn from_code(code: u8) -> Option<Piece> {
        (code != 0).then(|| Piece {
            army: (code - 1) >> 5,
            kind: (code - 1) & 31,
        })
    }
}

#[inline]
pub(crate) fn army_of(code: u8) -> u8 {
    (code - 1) >> 5
}
#[inline]
pub(crate) fn kind_of(code: u8) -> u8 {
    (code - 1) & 31
}

/// What `unmake` needs to restore.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Undo {
    pub mv: Move,
    pub moved: u8,
    pub captured: u8,
    pub capture_cell: Cell,
    pub castling: u16,
    pub ep: Option<(Cell, Cell)>,
    pub halfmove: u16,
    pub fullmove: u32,
    pub to_move: u8,
    pub key: u64,
    /// Players out before the move.
    pub out: u8,
    /// Length of the effects stack before the move.
    pub effects: u32,
}

/// A game position of any variant, its cell sets `W` words wide
/// ([`CellSet`]): the default holds any board, and
/// [`Position::with_width`] gives the same position in narrower sets
/// where the board fits them (faster to search).
#[derive(Clone)]
pub struct Position<const W: usize = WIDE> {
    pub(crate) variant: Arc<Variant>,
    /// The variant's table sets at this width.
    pub(crate) sets: Arc<CellTables<W>>,
    pub(crate) board: [u8; MAX_CELLS],
    pub(crate) army_cells: [CellSet<W>; MAX_ARMIES],
    pub(crate) type_cells: [[CellSet<W>; MAX_TYPES]; MAX_ARMIES],
    pub(crate) to_move: u8,
    /// Bit set of players who are out of the game.
    pub(crate) out: u8,
    /// Players in the order they went out (the first `out.count_ones()`).
    pub(crate) out_order: [u8; MAX_PLAYERS],
    /// Per player out: how many other players were still in when they went
    /// out (for series scores; meaningless for players in).
    pub(crate) out_others: [u8; MAX_PLAYERS],
    /// Set by the last `make` under `elimination.capturable_royal` when it
    /// checkmated players: whether the mover's own royal piece was
    /// capturable by the player to move after any step of the checkmate
    /// test (the legality test reads it, beside the position the move left).
    pub(crate) mover_exposed: Option<bool>,
    /// Side effects of moves (eliminations, mass promotions): the cell and
    /// the piece code it held before, undone in reverse order.
    pub(crate) effects: Vec<(Cell, u8)>,
    /// Bit i: castling i of the variant is still allowed.
    pub(crate) castling: u16,
    /// En passant: (target cell, cell of the pawn that can be taken).
    pub(crate) ep: Option<(Cell, Cell)>,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u32,
    pub(crate) key: u64,
    pub(crate) history: Vec<Undo>,
}

impl Position {
    /// An empty board, first player to move.
    pub(crate) fn empty(variant: Arc<Variant>) -> Position {
        let mut p = Position {
            sets: variant.tables.sets.at_width(),
            variant,
            board: [0; MAX_CELLS],
            army_cells: Default::default(),
            type_cells: [[CellSet::EMPTY; MAX_TYPES]; MAX_ARMIES],
            to_move: 0,
            out: 0,
            out_order: [0; MAX_PLAYERS],
            out_others: [0; MAX_PLAYERS],
            mover_exposed: None,
            effects: Vec::new(),
            castling: 0,
            ep: None,
            halfmove: 0,
            fullmove: 1,
            key: 0,
            history: Vec::new(),
        };
        p.key = p.compute_key();
        p
    }
}

/// Work done on a position in whatever cell-set width
/// [`Position::narrowest`] picks: a generic method, because a closure
/// cannot be generic over the width.
pub trait AtWidth {
    /// What the work gives back.
    type Output;
    /// Does the work on `pos`, in sets of `W` words.
    fn run<const W: usize>(self, pos: Position<W>) -> Self::Output;
}

impl Position {
    /// Runs `work` on this position in the narrowest cell sets that hold
    /// the board: one word up to 64 cells, two up to 128, else four. The
    /// answers are the same at every width; narrower sets are quicker.
    pub fn narrowest<A: AtWidth>(&self, work: A) -> A::Output {
        if let Some(p) = self.with_width::<1>() {
            work.run(p)
        } else if let Some(p) = self.with_width::<2>() {
            work.run(p)
        } else {
            work.run(self.clone())
        }
    }
}

impl<const W: usize> Position<W> {
    /// The same position (history included) in cell sets of `V` words,
    /// if the board fits them.
    pub fn with_width<const V: usize>(&self) -> Option<Position<V>> {
        if !CellSet::<V>::holds(self.variant.geometry.size()) {
            return None;
        }
        let sets = self.variant.tables.sets.at_width::<V>();
        let narrow = |s: &CellSet<W>| s.to_width::<V>();
        Some(Position {
            variant: self.variant.clone(),
            sets,
            board: self.board,
            army_cells: self.army_cells.each_ref().map(narrow),
            type_cells: self.type_cells.each_ref().map(|t| t.each_ref().map(narrow)),
            to_move: self.to_move,
            out: self.out,
            out_order: self.out_order,
            out_others: self.out_others,
            mover_exposed: self.mover_exposed,
            effects: self.effects.clone(),
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            key: self.key,
            history: self.history.clone(),
        })
    }

    /// A copy without the game's history, for read-only queries that
    /// play moves to judge them (the legality test) and take them back.
    pub(crate) fn scratch(&self) -> Position<W> {
        Position {
            variant: self.variant.clone(),
            sets: self.sets.clone(),
            board: self.board,
            army_cells: self.army_cells,
            type_cells: self.type_cells,
            to_move: self.to_move,
            out: self.out,
            out_order: self.out_order,
            out_others: self.out_others,
            mover_exposed: None,
            effects: Vec::new(),
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            key: self.key,
            history: Vec::new(),
        }
    }

    /// The variant this position belongs to.
    pub fn variant(&self) -> &Arc<Variant> {
        &self.variant
    }

    /// The piece on a cell.
    #[inline]
    pub fn piece_at(&self, c: Cell) -> Option<Piece> {
        Piece::from_code(self.board[c as usize])
    }

    /// The player to move.
    pub fn to_move(&self) -> usize {
        self.to_move as usize
    }

    /// The army moved by the player to move.
    pub fn army_to_move(&self) -> u8 {
        self.variant.players[self.to_move as usize].army
    }

    /// Is the player out of the game?
    pub fn is_out(&self, player: usize) -> bool {
        self.out >> player & 1 != 0
    }

    /// Players who are out, in the order they went out.
    pub fn out_order(&self) -> &[u8] {
        &self.out_order[..self.out.count_ones() as usize]
    }

    /// Players still in the game, in turn order.
    pub fn players_in(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.variant.players.len()).filter(|&p| !self.is_out(p))
    }

    /// Marks a player out (recording the order and how many others were
    /// still in) and updates the key.
    pub(crate) fn set_out(&mut self, player: u8, others: u8) {
        if self.out >> player & 1 == 0 {
            self.out_others[player as usize] = others;
            self.out_order[self.out.count_ones() as usize] = player;
            self.out |= 1 << player;
            self.key ^= self.variant.tables.zobrist_player[4 + player as usize];
        }
    }

    /// Changes the piece on a cell as a side effect, recorded for `unmake`.
    fn effect(&mut self, c: Cell, code: u8) {
        let old = self.board[c as usize];
        self.effects.push((c, old));
        if old != 0 {
            self.take(c);
        }
        if code != 0 {
            self.put(c, code);
        }
    }

    /// Cells holding pieces of an army.
    pub fn army_cells(&self, army: u8) -> CellSet<W> {
        self.army_cells[army as usize]
    }

    /// Cells holding pieces of one type of an army.
    pub fn type_cells(&self, army: u8, kind: PieceType) -> CellSet<W> {
        self.type_cells[army as usize][kind as usize]
    }

    /// Number of pieces of each type per army.
    pub fn piece_counts(&self) -> [[u8; MAX_TYPES]; MAX_ARMIES] {
        std::array::from_fn(|a| std::array::from_fn(|t| self.type_cells[a][t].len() as u8))
    }

    /// The Zobrist key of the position.
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Plies since the last capture or pawn move.
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// Number of moves played since this position was set up.
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// Castling rights still held (bit i = castling i of the variant).
    pub fn castling_rights(&self) -> u16 {
        self.castling
    }

    /// En passant target cell, if any.
    pub fn en_passant(&self) -> Option<Cell> {
        self.ep.map(|(t, _)| t)
    }

    /// Full move number (increases when play returns to the first player).
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    #[inline]
    fn zobrist(&self, code: u8, c: Cell) -> u64 {
        let t = &self.variant.tables;
        t.zobrist_piece[code as usize * t.ncells + c as usize]
    }

    pub(crate) fn compute_key(&self) -> u64 {
        let t = &self.variant.tables;
        let mut k = t.zobrist_player[self.to_move as usize];
        for i in 0..4 {
            if self.out >> i & 1 != 0 {
                k ^= t.zobrist_player[4 + i];
            }
        }
        for c in 0..t.ncells {
            if self.board[c] != 0 {
                k ^= self.zobrist(self.board[c], c as Cell);
            }
        }
        for i in 0..16 {
            if self.castling >> i & 1 != 0 {
                k ^= t.zobrist_castling[i];
            }
        }
        if let Some((e, _)) = self.ep {
            k ^= t.zobrist_ep[e as usize];
        }
        k
    }

    #[inline]
    pub(crate) fn put(&mut self, c: Cell, code: u8) {
        debug_assert!(self.board[c as usize] == 0);
        self.board[c as usize] = code;
        let (a, k) = (army_of(code) as usize, kind_of(code) as usize);
        self.army_cells[a].insert(c);
        self.type_cells[a][k].insert(c);
        self.key ^= self.zobrist(code, c);
    }

    #[inline]
    pub(crate) fn take(&mut self, c: Cell) -> u8 {
        let code = self.board[c as usize];
        debug_assert!(code != 0);
        self.board[c as usize] = 0;
        let (a, k) = (army_of(code) as usize, kind_of(code) as usize);
        self.army_cells[a].remove(c);
        self.type_cells[a][k].remove(c);
        self.key ^= self.zobrist(code, c);
        code
    }

    /// The next player in turn order who is still in the game.
    pub(crate) fn next_player(&self, from: u8) -> u8 {
        let n = self.variant.players.len() as u8;
        let mut p = from;
        for _ in 0..n {
            p = (p + 1) % n;
            if self.out >> p & 1 == 0 {
                return p;
            }
        }
        from
    }

    #[inline]
    pub(crate) fn set_ep(&mut self, ep: Option<(Cell, Cell)>) {
        let t = &self.variant.tables;
        if let Some((e, _)) = self.ep {
            self.key ^= t.zobrist_ep[e as usize];
        }
        if let Some((e, _)) = ep {
            self.key ^= t.zobrist_ep[e as usize];
        }
        self.ep = ep;
    }

    /// Plays a move without checking it. The move must come from this
    /// position's move generator; [`Position::play`] is the checked form.
    pub fn make(&mut self, mv: Move) {
        let (from, to) = (mv.from, mv.to);
        let moved = self.board[from as usize];
        let capture_cell = match mv.kind {
            MoveKind::EnPassant => self.ep.map(|(_, victim)| victim).unwrap_or(to),
            _ => to,
        };
        let captured = match mv.kind {
            // A drop-out's cells are placeholders: nothing is captured.
            MoveKind::Castle(_) | MoveKind::Swap | MoveKind::DropOut => 0,
            _ => self.board[capture_cell as usize],
        };
        self.push_undo(mv, moved, captured, capture_cell);
        if mv.kind == MoveKind::DropOut {
            self.drop_out();
            return;
        }

        if captured != 0 {
            self.take(capture_cell);
        }
        let mut ep = None;
        match mv.kind {
            MoveKind::Castle(i) => {
                let (king, rook, king_to, rook_to) = self.variant.castling_cells(i);
                let rook_code = self.take(rook);
                let king_code = self.take(king);
                self.put(king_to, king_code);
                self.put(rook_to, rook_code);
            }
            MoveKind::Swap => self.swap_pieces(from, to),
            _ => {
                self.take(from);
                let code = match mv.promotion {
                    Some(t) => Piece {
                        army: army_of(moved),
                        kind: t,
                    }
                    .code(),
                    None => moved,
                };
                self.put(to, code);
                if mv.kind == MoveKind::DoubleStep {
                    ep = self.ep_after_double_step(from, to);
                }
            }
        }
        if ep.is_some() || self.ep.is_some() {
            self.set_ep(ep);
        }

        // Castling rights die when their king's or rook's cell is touched.
        if self.castling != 0 {
            let m = &self.variant.castling_mask;
            let keep = m[from as usize] & m[to as usize] & m[capture_cell as usize];
            self.set_castling(self.castling & keep);
        }

        let pawn = self.variant.pawn_types >> kind_of(moved) & 1 != 0;
        self.halfmove = if captured != 0 || pawn {
            0
        } else {
            self.halfmove.saturating_add(1)
        };
        let elimination = self.variant.rules.elimination;
        if elimination.capturable_royal || elimination.empty_army {
            self.eliminate(elimination, captured != 0);
        }
        self.pass_turn();
    }

    /// Exchanges the pieces on two cells.
    fn swap_pieces(&mut self, a: Cell, b: Cell) {
        let (pa, pb) = (self.take(a), self.take(b));
        self.put(a, pb);
        self.put(b, pa);
    }

    /// Records what `unmake` needs to take back a move about to be made.
    #[inline]
    pub(crate) fn push_undo(&mut self, mv: Move, moved: u8, captured: u8, capture_cell: Cell) {
        self.history.push(Undo {
            mv,
            moved,
            captured,
            capture_cell,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            to_move: self.to_move,
            key: self.key,
            out: self.out,
            effects: self.effects.len() as u32,
        });
    }

    /// Hands the turn to the next player still in the game.
    pub(crate) fn pass_turn(&mut self) {
        let next = self.next_player(self.to_move);
        if next <= self.to_move {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.set_to_move(next);
    }

    /// The player to move leaves the game. If another player moves the
    /// same army, they take it over, and its pieces change type as the
    /// `dropout` rule says; if none does, the army may leave the board.
    fn drop_out(&mut self) {
        let me = self.to_move;
        let army = self.variant.players[me as usize].army;
        self.set_out(me, self.players_in().count() as u8 - 1);
        self.halfmove = 0;
        let variant = self.variant.clone();
        if let Some(d) = &variant.rules.dropout {
            if self.army_in_game(army) {
                for c in self.army_cells[army as usize].iter() {
                    let kind = kind_of(self.board[c as usize]);
                    if let Some(&(_, to)) = d.promote.iter().find(|&&(from, _)| from == kind) {
                        self.effect(c, Piece { army, kind: to }.code());
                    }
                }
            } else if d.remove_army {
                self.remove_army(army);
            }
        }
        let elimination = self.variant.rules.elimination;
        if elimination.capturable_royal || elimination.empty_army {
            self.eliminate(elimination, true);
        }
        self.pass_turn();
    }

    /// The player to move resigns (or lost on time) and leaves the game:
    /// their army leaves the board unless a partner still moves it, and
    /// the armies this uncovers are judged as after any move (the
    /// checkmate ruling). A front end's action, not a move of the rules:
    /// [`Position::unmake`] takes it back like a move.
    pub fn resign(&mut self) {
        self.push_undo(Move::DROP_OUT, 0, 0, 0);
        let me = self.to_move;
        self.put_out(&[me]);
        let elimination = self.variant.rules.elimination;
        if elimination.capturable_royal || elimination.empty_army {
            self.eliminate(elimination, true);
        }
        self.pass_turn();
    }

    /// Does a player still in the game move this army?
    fn army_in_game(&self, army: u8) -> bool {
        self.players_in()
            .any(|p| self.variant.players[p].army == army)
    }

    /// Takes every piece of an army off the board (recorded for `unmake`).
    fn remove_army(&mut self, army: u8) {
        for c in self.army_cells[army as usize].iter() {
            self.effect(c, 0);
        }
    }

    /// After a move (a drop-out included): first, players whose army is
    /// gone (`empty_army`) or whose royal type was captured
    /// (`capturable_royal`) are out at once. Then the checkmate ruling
    /// (rules/README.md): every player whose royal piece the next player
    /// could capture is checkmated and their army leaves; armies leaving
    /// can open lines, so this repeats until no royal piece is capturable
    /// by the player to move. Players checkmated in one step share their
    /// place. `mover_exposed` records whether the mover's own royal piece
    /// was capturable after any step that put players out (`None` when
    /// none did: the position the move left is judged by the legality
    /// test itself). `removed`: did pieces leave the board (a capture, a
    /// drop-out, a resignation)? Only then can an army or a type be gone.
    fn eliminate(&mut self, rule: crate::variant::Elimination, removed: bool) {
        self.mover_exposed = None;
        let me = self.to_move;
        let n = self.variant.players.len() as u8;
        let mut dead = [0u8; MAX_PLAYERS];
        let mut n_dead = 0;
        // Only a piece leaving the board can empty an army or end a type.
        let losers = if removed { n } else { 0 };
        for q in (0..losers).filter(|&q| q != me && self.out >> q & 1 == 0) {
            let army = self.variant.players[q as usize].army;
            let gone = (rule.empty_army && self.army_cells[army as usize].is_empty())
                || (rule.capturable_royal && self.royal_cells(army).is_none());
            if gone {
                dead[n_dead] = q;
                n_dead += 1;
            }
        }
        self.put_out(&dead[..n_dead]);
        if !rule.capturable_royal {
            return;
        }
        let next = self.next_player(me);
        let my_army = self.variant.players[me as usize].army;
        let mover_in = self.out >> me & 1 == 0;
        let attackers =
            |pos: &Position<W>| match pos.variant.rules.royal.as_ref().map(|r| r.attackers) {
                Some(crate::variant::Attackers::Next) => 1 << next,
                _ => pos.variant.hostile_players[my_army as usize] & !pos.out,
            };
        // The mover's royal piece is judged at every step that puts players
        // out (before their armies leave) and at the end; when nobody is
        // checkmated the legality test judges the position the move left.
        let mut exposed = None;
        loop {
            n_dead = 0;
            for q in (0..n).filter(|&q| q != me && q != next && self.out >> q & 1 == 0) {
                let army = self.variant.players[q as usize].army;
                let mated = self
                    .royal_cells(army)
                    .is_some_and(|r| r.iter().any(|c| self.is_attacked_by(c, next as usize)));
                if mated {
                    dead[n_dead] = q;
                    n_dead += 1;
                }
            }
            if n_dead == 0 {
                break;
            }
            if mover_in {
                let e = exposed == Some(true) || self.royal_exposed(my_army, attackers(self));
                exposed = Some(e);
            }
            self.put_out(&dead[..n_dead]);
        }
        if exposed == Some(false) {
            exposed = Some(self.royal_exposed(my_army, attackers(self)));
        }
        self.mover_exposed = exposed;
    }

    /// Puts players out of the game; the army of each leaves the board
    /// unless another player still moves it.
    fn put_out(&mut self, players: &[u8]) {
        if players.is_empty() {
            return;
        }
        // Players put out together all count one another as still in.
        let others = (self.players_in().count() as u8).saturating_sub(1);
        for &q in players {
            self.set_out(q, others);
            self.halfmove = 0;
        }
        for &q in players {
            let army = self.variant.players[q as usize].army;
            if !self.army_in_game(army) && !self.army_cells[army as usize].is_empty() {
                self.remove_army(army);
            }
        }
    }

    /// Takes back the last move made.
    pub fn unmake(&mut self) {
        let Some(u) = self.history.pop() else {
            return;
        };
        while self.effects.len() > u.effects as usize {
            let Some((c, old)) = self.effects.pop() else {
                break;
            };
            if self.board[c as usize] != 0 {
                self.take(c);
            }
            if old != 0 {
                self.put(c, old);
            }
        }
        self.out = u.out;
        match u.mv.kind {
            MoveKind::DropOut => {}
            MoveKind::Castle(i) => {
                let (king, rook, king_to, rook_to) = self.variant.castling_cells(i);
                let rook_code = self.take(rook_to);
                let king_code = self.take(king_to);
                self.put(king, king_code);
                self.put(rook, rook_code);
            }
            MoveKind::Swap => self.swap_pieces(u.mv.from, u.mv.to),
            _ => {
                self.take(u.mv.to);
                self.put(u.mv.from, u.moved);
            }
        }
        if u.captured != 0 {
            self.put(u.capture_cell, u.captured);
        }
        self.castling = u.castling;
        self.ep = u.ep;
        self.halfmove = u.halfmove;
        self.fullmove = u.fullmove;
        self.to_move = u.to_move;
        self.key = u.key;
    }

    fn set_castling(&mut self, rights: u16) {
        let changed = self.castling ^ rights;
        if changed != 0 {
            let t = &self.variant.tables;
            for i in 0..16 {
                if changed >> i & 1 != 0 {
                    self.key ^= t.zobrist_castling[i];
                }
            }
            self.castling = rights;
        }
    }

    pub(crate) fn set_to_move(&mut self, p: u8) {
        let t = &self.variant.tables;
        self.key ^= t.zobrist_player[self.to_move as usize] ^ t.zobrist_player[p as usize];
        self.to_move = p;
    }

    /// After a double step from `from` to `to`: the passed cell becomes an
    /// en passant target if an enemy piece that may take en passant could
    /// capture onto it.
    fn ep_after_double_step(&self, from: Cell, to: Cell) -> Option<(Cell, Cell)> {
        let v = &*self.variant;
        let ds = v.rules.double_step.as_ref()?;
        if !v.rules.en_passant {
            return None;
        }
        let g = &v.geometry;
        let mid_f = (g.file_of(from) as i32 + g.file_of(to) as i32) / 2;
        let mid_r = (g.rank_of(from) as i32 + g.rank_of(to) as i32) / 2;
        let mid = g.cell(mid_f, mid_r)?;
        let mover = army_of(self.board[to as usize]);
        for (pi, p) in v.players.iter().enumerate() {
            if !v.hostile(p.army, mover) || self.out >> pi & 1 != 0 {
                continue;
            }
            if self.leap_attackers(mid, pi, ds.pieces) {
                return Some((mid, to));
            }
        }
        None
    }
}
