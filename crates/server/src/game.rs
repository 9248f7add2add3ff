//! One game: its variant, seats, start position and moves, and the current
//! position, which is always the start with every move replayed through
//! the engine. The engine alone decides what is legal.

use crate::picker::LEVELS;
use crate::token;
use crate::variants::Source;
use quadrille_engine::{Move, MoveError, MoveKind, MoveList, Outcome, Position};
use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;

/// Who sits in a player's seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum SeatKind {
    /// A person holding the seat's token.
    Human,
    /// The server's AI, with a strength in [`LEVELS`] and a time per move.
    Ai { level: u8, time_ms: u32 },
}

/// Shortest and longest AI time per move, in milliseconds.
pub const AI_TIME_MS: std::ops::RangeInclusive<u32> = 50..=60_000;

impl SeatKind {
    /// Checks the AI settings.
    pub fn check(self) -> Result<SeatKind, String> {
        if let SeatKind::Ai { level, time_ms } = self {
            if !LEVELS.contains(&level) {
                return Err(format!(
                    "AI level {level} is out of range {}..={}",
                    LEVELS.start(),
                    LEVELS.end()
                ));
            }
            if !AI_TIME_MS.contains(&time_ms) {
                return Err(format!(
                    "AI time per move {time_ms} ms is out of range {}..={} ms",
                    AI_TIME_MS.start(),
                    AI_TIME_MS.end()
                ));
            }
        }
        Ok(self)
    }
}

/// A seat: its kind and, for a human seat, the hash of its token, or of
/// the invitation that will be exchanged for a token.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    #[serde(flatten)]
    pub kind: SeatKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_hash: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invite_hash: Option<String>,
}

/// What dealing the seats hands out, per seat: a token (the seat's key)
/// or an invitation (exchanged once for a token by whoever opens it).
pub struct Dealt {
    pub seats: Vec<Seat>,
    pub tokens: Vec<Option<String>>,
    pub invites: Vec<Option<String>>,
}

impl Seat {
    /// Seats for `kinds`. With no `creator` (hot seat) every human seat
    /// gets a token; otherwise the creator's seat gets one and every other
    /// human seat an invitation, so that the creator never holds another
    /// player's key.
    pub fn deal(kinds: &[SeatKind], creator: Option<usize>) -> Result<Dealt, String> {
        let mut d = Dealt {
            seats: Vec::new(),
            tokens: Vec::new(),
            invites: Vec::new(),
        };
        for (i, &kind) in kinds.iter().enumerate() {
            let human = kind == SeatKind::Human;
            let token = (human && creator.is_none_or(|c| c == i))
                .then(token::new_token)
                .transpose()?;
            let invite = (human && token.is_none())
                .then(token::new_token)
                .transpose()?;
            d.seats.push(Seat {
                kind,
                token_hash: token.as_deref().map(token::hash),
                invite_hash: invite.as_deref().map(token::hash),
            });
            d.tokens.push(token);
            d.invites.push(invite);
        }
        Ok(d)
    }
}

/// A move or a resignation in the game's history, as shown.
#[derive(Clone, Debug)]
pub struct Played {
    pub player: usize,
    /// The move (a drop-out's for a resignation in a game that goes on).
    pub mv: Move,
    /// Coordinates (`e2e4`), or `resign` for a player leaving by
    /// resignation or time in a game that goes on.
    pub text: String,
    /// Readable notation (`Nf3`, `exd8=Q+`).
    pub san: String,
    /// The mover's time left after it, with a clock.
    pub clock_ms: Option<i64>,
}

impl Played {
    /// Is this a player leaving (by resignation or time), not a move?
    pub fn is_resignation(&self) -> bool {
        self.text == RESIGN
    }
}

/// How a resignation in a game that goes on is shown.
pub const RESIGN: &str = "resign";

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The rules ended it.
    Rules(quadrille_engine::EndReason),
    /// A player resigned.
    Resignation,
    /// The players agreed to a draw.
    Agreement,
    /// A player's time ran out.
    Time,
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reason::Rules(r) => write!(f, "{r}"),
            Reason::Resignation => f.write_str("resignation"),
            Reason::Agreement => f.write_str("agreement"),
            Reason::Time => f.write_str("time"),
        }
    }
}

/// A finished game: players ranked best first, groups sharing a place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    pub ranking: Vec<Vec<usize>>,
    pub reason: Reason,
}

impl From<Outcome> for Ending {
    fn from(o: Outcome) -> Ending {
        Ending {
            ranking: o.ranking,
            reason: Reason::Rules(o.reason),
        }
    }
}

/// Where the game stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Playing,
    Over(Ending),
    /// Nobody can move and the rules give no result (a variant without a
    /// drop-out rule in a position it does not decide).
    Stuck,
}

/// What a player asks the others to agree to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OfferKind {
    Draw,
    Takeback,
}

/// An offer waiting for the other players' consent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offer {
    pub kind: OfferKind,
    /// The player who made it.
    pub by: usize,
    /// The players who agree (the offerer first).
    pub agreed: Vec<usize>,
}

/// Something that happens in a game, besides the moves: each is a line of
/// the game's log (`!resign 1`), replayed on loading like the moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A move (from the generator: judged already).
    Move(Move),
    /// The player resigns.
    Resign(usize),
    /// The player's time ran out.
    Flag(usize),
    /// The player offers a draw, or agrees to the one offered.
    Draw(usize),
    /// The player asks to take back their last move, or agrees to it.
    Takeback(usize),
    /// The player declines the offer.
    Decline(usize),
    /// A new game with the seats turned was made: its id.
    Rematch(String),
}

/// What a person asks for, besides a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    Resign,
    Draw,
    Takeback,
    Decline,
}

/// A line of the game's log as stored: a move in coordinates or an event
/// (`!draw 0`), and the mover's time left after a move with a clock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogEntry {
    pub text: String,
    pub clock_ms: Option<i64>,
}

impl LogEntry {
    /// A move without a clock.
    pub fn plain(text: impl Into<String>) -> LogEntry {
        LogEntry {
            text: text.into(),
            clock_ms: None,
        }
    }
}

/// A game in memory.
pub struct Game {
    pub id: String,
    pub source: Source,
    pub seats: Vec<Seat>,
    /// The start position string.
    pub start: String,
    pub pos: Position,
    /// The moves (and resignations) that stand: taken-back moves are gone.
    pub played: Vec<Played>,
    /// Lines in the stored log (moves, taken back or not, and events).
    pub log_len: usize,
    /// Unix seconds.
    pub created: i64,
    pub updated: i64,
    /// An AI move is being computed.
    pub ai_busy: bool,
    /// Live updates: the number of log lines after each change.
    pub events: broadcast::Sender<usize>,
    /// The clocks, if the game has a time control.
    pub clocks: Option<crate::clock::Clocks>,
    /// The offer waiting for consent.
    pub offer: Option<Offer>,
    /// The last offer declined (shown until the next move).
    pub declined: Option<(OfferKind, usize)>,
    /// Players who resigned or lost on time in a game that goes on; each
    /// leaves when their turn comes.
    pub leaving: Vec<usize>,
    /// The rematch's id, once made.
    pub rematch: Option<String>,
    /// How a resignation, an agreement or a flag ended the game.
    ending: Option<Ending>,
    /// The current position's legal moves and status, computed once per
    /// change (every view and check reads these).
    legal: MoveList,
    status: Status,
}

/// Who plays a turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Actor {
    /// A person holding these seats' tokens.
    Seats(Vec<usize>),
    /// The AI in `seat`, which searched the position after `ply` moves.
    Ai { seat: usize, ply: usize },
    /// The server itself, playing a forced drop-out.
    Rules,
}

/// What is played: a move's text (from a person) or a move from the
/// generator (the AI, the rules).
#[derive(Clone, Debug)]
pub enum Input {
    Text(String),
    Move(Move),
}

/// Why a turn is refused. The game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TurnError {
    /// The game is over (or stuck).
    GameOver,
    /// The turn was meant for another ply.
    StalePly { meant: usize, now: usize },
    /// Another player is to move (their name).
    NotYourTurn(String),
    /// The engine refused the move.
    Move { text: String, error: MoveError },
    /// A move from the AI or the rules that is not legal here (never
    /// expected: the generator made it).
    NotLegal(String),
    /// The mover's time has run out.
    TimeOut,
    /// An action that cannot be taken now, and why.
    Refused(String),
}

/// Longest position string accepted.
pub const MAX_POSITION: usize = 2048;

impl Game {
    /// A game from its parts: the start position (the variant's setup if
    /// `None`), the clock, and the log replayed. Errors name the field and
    /// the line.
    pub fn new(
        id: String,
        source: Source,
        seats: Vec<Seat>,
        start: Option<&str>,
        clock: Option<crate::clock::TimeControl>,
        log: &[LogEntry],
    ) -> Result<Game, String> {
        let v = source.variant.clone();
        if seats.len() != v.players.len() {
            return Err(format!(
                "{} has {} players but {} seats were given",
                v.name,
                v.players.len(),
                seats.len()
            ));
        }
        let pos = match start {
            None => v.start(),
            Some(s) if s.len() > MAX_POSITION => {
                return Err(format!(
                    "the position string has {} bytes; at most {MAX_POSITION} are accepted",
                    s.len()
                ))
            }
            Some(s) => Position::from_string(v.clone(), s).map_err(|e| e.to_string())?,
        };
        let now = now();
        let mut g = Game {
            id,
            source,
            seats,
            start: pos.to_string(),
            pos,
            played: Vec::new(),
            log_len: 0,
            created: now,
            updated: now,
            ai_busy: false,
            events: broadcast::channel(16).0,
            clocks: clock.map(|c| crate::clock::Clocks::new(c, v.players.len())),
            offer: None,
            declined: None,
            leaving: Vec::new(),
            rematch: None,
            ending: None,
            legal: MoveList::new(),
            status: Status::Playing,
        };
        g.refresh();
        for (i, entry) in log.iter().enumerate() {
            let e = g.read_entry(&entry.text).map_err(|e| {
                let what = if entry.text.starts_with('!') {
                    "log line"
                } else {
                    "move"
                };
                format!("{what} {} `{}`: {e}", i + 1, entry.text)
            })?;
            g.apply(e, entry.clock_ms);
        }
        Ok(g)
    }

    /// Reads a log line in this game's current state.
    fn read_entry(&self, text: &str) -> Result<Event, String> {
        let Some(rest) = text.strip_prefix('!') else {
            if *self.status() != Status::Playing {
                return Err("the game is already over".into());
            }
            return self
                .pos
                .parse_move(text)
                .map(Event::Move)
                .map_err(|e| e.to_string());
        };
        let (word, arg) = rest.split_once(' ').unwrap_or((rest, ""));
        let player = || {
            arg.parse::<usize>()
                .ok()
                .filter(|&p| p < self.seats.len())
                .ok_or_else(|| format!("`{arg}` is not a player"))
        };
        Ok(match word {
            "resign" => Event::Resign(player()?),
            "flag" => Event::Flag(player()?),
            "draw" => Event::Draw(player()?),
            "takeback" => Event::Takeback(player()?),
            "decline" => Event::Decline(player()?),
            "rematch" if !arg.is_empty() => Event::Rematch(arg.to_string()),
            _ => return Err(format!("unknown event `{word}`")),
        })
    }

    /// The log line of an event.
    pub fn entry_text(&self, e: &Event) -> String {
        match e {
            Event::Move(m) => self.pos.move_to_string(*m),
            Event::Resign(p) => format!("!resign {p}"),
            Event::Flag(p) => format!("!flag {p}"),
            Event::Draw(p) => format!("!draw {p}"),
            Event::Takeback(p) => format!("!takeback {p}"),
            Event::Decline(p) => format!("!decline {p}"),
            Event::Rematch(id) => format!("!rematch {id}"),
        }
    }

    /// Recomputes the legal moves and the status of the current position.
    fn refresh(&mut self) {
        self.pos.legal_moves_into(&mut self.legal);
        self.status = match (&self.ending, self.pos.outcome()) {
            (Some(e), _) => Status::Over(e.clone()),
            (None, Some(o)) => Status::Over(o.into()),
            (None, None) if self.legal.is_empty() => Status::Stuck,
            (None, None) => Status::Playing,
        };
    }

    /// The player who acts, of the seats an actor holds: `wanted` if
    /// given, else the player to move, else the first still in.
    fn acting(&self, seats: &[usize], wanted: Option<usize>) -> Result<usize, TurnError> {
        let p = match wanted {
            Some(p) if seats.contains(&p) => p,
            Some(p) => {
                return Err(TurnError::Refused(format!(
                    "you do not hold {}'s seat",
                    self.name(p)
                )))
            }
            None if seats.contains(&self.pos.to_move()) => self.pos.to_move(),
            None => *seats
                .iter()
                .find(|&&p| !self.pos.is_out(p))
                .ok_or_else(|| TurnError::Refused("all your players are out".into()))?,
        };
        if self.pos.is_out(p) || self.leaving.contains(&p) {
            return Err(TurnError::Refused(format!("{} is out", self.name(p))));
        }
        Ok(p)
    }

    fn name(&self, p: usize) -> &str {
        &self.source.variant.players[p].name
    }

    /// Judges an action of a person holding `seats` (acting for `seat`
    /// when given): the event to log, or why not. Changes nothing.
    pub fn judge_action(
        &self,
        seats: &[usize],
        seat: Option<usize>,
        action: Action,
    ) -> Result<Event, TurnError> {
        if self.status != Status::Playing {
            return Err(TurnError::GameOver);
        }
        let p = self.acting(seats, seat)?;
        let pending = self.offer.as_ref();
        match action {
            Action::Resign => Ok(Event::Resign(p)),
            Action::Draw | Action::Takeback => {
                let kind = if action == Action::Draw {
                    OfferKind::Draw
                } else {
                    OfferKind::Takeback
                };
                if let Some(o) = pending {
                    if o.kind != kind {
                        return Err(TurnError::Refused(format!(
                            "answer the {} offer first",
                            o.kind.word()
                        )));
                    }
                    if o.agreed.contains(&p) {
                        return Err(TurnError::Refused(format!(
                            "{} agreed already; the others have not answered",
                            self.name(p)
                        )));
                    }
                } else if kind == OfferKind::Takeback && self.takeback_to(p).is_none() {
                    return Err(TurnError::Refused(format!(
                        "{} has no move to take back",
                        self.name(p)
                    )));
                }
                Ok(if kind == OfferKind::Draw {
                    Event::Draw(p)
                } else {
                    Event::Takeback(p)
                })
            }
            Action::Decline => match pending {
                Some(o) if !o.agreed.contains(&p) => Ok(Event::Decline(p)),
                _ => Err(TurnError::Refused("there is no offer to decline".into())),
            },
        }
    }

    /// How many of the moves that stand a takeback for `p` removes: back
    /// to before p's last move (never past a resignation); `None` if p has
    /// no move to take back.
    fn takeback_to(&self, p: usize) -> Option<usize> {
        let i = self.played.iter().rposition(|x| x.player == p)?;
        let k = self.played.len() - i;
        (!self.played[i..].iter().any(Played::is_resignation)).then_some(k)
    }

    /// Judges a turn: the game is on, the ply is the one meant, the actor
    /// holds the seat to move, their time is not out, and the engine
    /// accepts the move. Returns the move to play; changes nothing.
    pub fn judge(
        &self,
        actor: &Actor,
        input: &Input,
        ply: Option<usize>,
    ) -> Result<Move, TurnError> {
        if self.status != Status::Playing {
            return Err(TurnError::GameOver);
        }
        let now = self.played.len();
        let meant = match actor {
            Actor::Ai { ply, .. } => Some(*ply),
            _ => ply,
        };
        if let Some(meant) = meant.filter(|&m| m != now) {
            return Err(TurnError::StalePly { meant, now });
        }
        let to_move = self.pos.to_move();
        let turn = match actor {
            Actor::Seats(seats) => seats.contains(&to_move),
            Actor::Ai { seat, .. } => {
                *seat == to_move && matches!(self.seats[to_move].kind, SeatKind::Ai { .. })
            }
            Actor::Rules => self.forced_move().is_some(),
        };
        if !turn {
            let name = self.source.variant.players[to_move].name.clone();
            return Err(TurnError::NotYourTurn(name));
        }
        if self.time_left(to_move) == Some(0) && *actor != Actor::Rules {
            return Err(TurnError::TimeOut);
        }
        match input {
            Input::Text(text) => self.pos.parse_move(text).map_err(|error| TurnError::Move {
                text: text.clone(),
                error,
            }),
            Input::Move(m) if self.legal.iter().any(|l| l == m) => Ok(*m),
            Input::Move(m) => Err(TurnError::NotLegal(self.pos.move_to_string(*m))),
        }
    }

    /// A player's time left now, with a clock.
    pub fn time_left(&self, player: usize) -> Option<i64> {
        let c = self.clocks.as_ref()?;
        Some(c.left_at(player, std::time::Instant::now()))
    }

    /// The mover's time left after a move made now (to store with it).
    pub fn clock_after_move(&self) -> Option<i64> {
        let c = self.clocks.as_ref()?;
        let p = self.pos.to_move();
        Some(
            c.control
                .after_move(c.left_at(p, std::time::Instant::now())),
        )
    }

    /// Plays an event judged already (or read from the log) and tells the
    /// listeners. `clock_ms` is the mover's time left after a move.
    pub fn apply(&mut self, e: Event, clock_ms: Option<i64>) {
        self.log_len += 1;
        // A move refreshes the legal moves and status itself (once per ply).
        let moved = matches!(e, Event::Move(_));
        self.updated = now();
        match e {
            Event::Move(m) => {
                let player = self.pos.to_move();
                self.push_move(player, m, clock_ms);
                self.offer = None;
                self.declined = None;
                self.leave_in_turn();
            }
            Event::Resign(p) | Event::Flag(p) => {
                let reason = if matches!(e, Event::Flag(_)) {
                    Reason::Time
                } else {
                    Reason::Resignation
                };
                self.offer = None;
                let others: Vec<usize> = self.pos.players_in().filter(|&q| q != p).collect();
                let partners = others.iter().all(|&q| {
                    self.source.variant.players[q].army == self.source.variant.players[p].army
                });
                if others.len() <= 1 || partners {
                    // Two players left (or only p's partners): the game ends.
                    let mut ranking = vec![others];
                    ranking.extend(self.out_ranking(&[p]));
                    self.ending = Some(Ending { ranking, reason });
                } else {
                    self.leaving.push(p);
                    self.leave_in_turn();
                }
            }
            Event::Draw(p) | Event::Takeback(p) => {
                let kind = if matches!(e, Event::Draw(_)) {
                    OfferKind::Draw
                } else {
                    OfferKind::Takeback
                };
                let offer = self.offer.get_or_insert(Offer {
                    kind,
                    by: p,
                    agreed: Vec::new(),
                });
                if !offer.agreed.contains(&p) {
                    offer.agreed.push(p);
                }
                self.declined = None;
                self.settle_offer();
            }
            Event::Decline(p) => {
                if let Some(o) = self.offer.take() {
                    self.declined = Some((o.kind, p));
                }
            }
            Event::Rematch(id) => self.rematch = Some(id),
        }
        if !moved {
            self.refresh();
        }
        self.notify();
    }

    /// Plays a move (or a leaving player's resignation) on the position,
    /// and computes the new position's legal moves and status (the move's
    /// notation reads both: the rivals before, the sign after).
    fn push_move(&mut self, player: usize, m: Move, clock_ms: Option<i64>) {
        let resign = m.kind == MoveKind::DropOut && self.leaving.contains(&player);
        let out_before = self.pos.out_order().len();
        let (text, mut san) = if resign {
            (RESIGN.to_string(), RESIGN.to_string())
        } else {
            let san = self.pos.san_plain(m, self.legal.as_slice());
            (self.pos.move_to_string(m), san)
        };
        if resign {
            self.pos.resign();
        } else {
            self.pos.make(m);
        }
        self.refresh();
        if !resign && m.kind != MoveKind::DropOut {
            let ended = match &self.status {
                Status::Over(Ending {
                    reason: Reason::Rules(r),
                    ..
                }) => Some(*r),
                _ => None,
            };
            san.push_str(self.pos.check_sign(ended, out_before));
        }
        self.played.push(Played {
            player,
            mv: m,
            text,
            san,
            clock_ms,
        });
        self.restart_clocks();
    }

    /// Players who resigned leave the game when their turn comes.
    fn leave_in_turn(&mut self) {
        while !matches!(self.status, Status::Over(_)) && self.leaving.contains(&self.pos.to_move())
        {
            let p = self.pos.to_move();
            let left = self.clocks.as_ref().map(|c| c.left[p]);
            self.push_move(p, Move::DROP_OUT, left);
        }
    }

    /// The places after the players still in: `last` (who leave now),
    /// then the players already out, the last to go out first.
    fn out_ranking(&self, last: &[usize]) -> Vec<Vec<usize>> {
        let mut r = vec![last.to_vec()];
        r.extend(self.pos.out_order().iter().rev().map(|&p| vec![p as usize]));
        r.retain(|g| !g.is_empty());
        r
    }

    /// Carries out the offer once every player still in agrees: AI seats
    /// agree to takebacks and decline draws.
    fn settle_offer(&mut self) {
        let Some(o) = self.offer.clone() else {
            return;
        };
        let players: Vec<usize> = self.pos.players_in().collect();
        let ai = |q: usize| matches!(self.seats[q].kind, SeatKind::Ai { .. });
        if o.kind == OfferKind::Draw && players.iter().any(|&q| ai(q)) {
            let q = players.iter().copied().find(|&q| ai(q)).unwrap_or(o.by);
            self.offer = None;
            self.declined = Some((o.kind, q));
            return;
        }
        if !players.iter().all(|&q| o.agreed.contains(&q) || ai(q)) {
            return;
        }
        self.offer = None;
        match o.kind {
            OfferKind::Draw => {
                let mut ranking = vec![players];
                ranking.extend(self.out_ranking(&[]));
                self.ending = Some(Ending {
                    ranking,
                    reason: Reason::Agreement,
                });
            }
            OfferKind::Takeback => {
                for _ in 0..self.takeback_to(o.by).unwrap_or(0) {
                    self.played.pop();
                    self.pos.unmake();
                }
                self.refresh();
                // Each player's clock is back where their last move left it.
                if let Some(c) = self.clocks.as_mut() {
                    for (p, left) in c.left.iter_mut().enumerate() {
                        *left = self
                            .played
                            .iter()
                            .rev()
                            .find(|x| x.player == p)
                            .and_then(|x| x.clock_ms)
                            .unwrap_or(c.control.initial());
                    }
                }
                self.restart_clocks();
            }
        }
    }

    /// Starts the clock of the player to move once every player has made
    /// a first move; stops it when the game is over. Reads the status, so
    /// it comes after [`Game::refresh`].
    fn restart_clocks(&mut self) {
        let n = self.seats.len();
        let ply = self.played.len();
        let p = self.pos.to_move();
        let on = !matches!(self.status, Status::Over(_));
        let now = std::time::Instant::now();
        if let Some(c) = self.clocks.as_mut() {
            // Bank the time the last player used.
            if let Some((q, _)) = c.running {
                c.left[q] = c.left_at(q, now);
            }
            for x in self.played.iter().rev().take(1) {
                if let Some(ms) = x.clock_ms {
                    c.left[x.player] = ms;
                }
            }
            c.running = (on && ply >= n).then_some((p, now));
        }
    }

    /// Tells the listeners that something changed (nobody listening is
    /// fine).
    pub fn notify(&self) {
        let _ = self.events.send(self.log_len);
    }

    /// Where the game stands.
    pub fn status(&self) -> &Status {
        &self.status
    }

    /// The legal moves of the player to move.
    pub fn legal_moves(&self) -> &[Move] {
        self.legal.as_slice()
    }

    /// The forced drop-out, when it is the only move of the player to move.
    pub fn forced_move(&self) -> Option<Move> {
        match self.legal.as_slice() {
            [m] if m.kind == MoveKind::DropOut => Some(*m),
            _ => None,
        }
    }

    /// The seats whose token is one of `tokens`.
    pub fn seats_of(&self, tokens: &[String]) -> Vec<usize> {
        let hashes: Vec<String> = tokens.iter().map(|t| token::hash(t)).collect();
        self.seats
            .iter()
            .enumerate()
            .filter(|(_, s)| s.token_hash.as_ref().is_some_and(|h| hashes.contains(h)))
            .map(|(i, _)| i)
            .collect()
    }

    /// Exchanges an invitation for its seat's token: the seat, and the
    /// new token (shown once). The invitation is used up.
    pub fn join(&mut self, invite: &str) -> Result<(usize, String), String> {
        let h = token::hash(invite);
        let seat = self
            .seats
            .iter()
            .position(|s| s.invite_hash.as_deref() == Some(h.as_str()))
            .ok_or("this invitation is not valid for this game (it may have been used)")?;
        let token = token::new_token()?;
        let s = &mut self.seats[seat];
        s.token_hash = Some(token::hash(&token));
        s.invite_hash = None;
        Ok((seat, token))
    }

    /// The move texts that stand, in order (resignations left out: a
    /// record replays the moves).
    pub fn move_texts(&self) -> Vec<String> {
        self.played
            .iter()
            .filter(|p| !p.is_resignation())
            .map(|p| p.text.clone())
            .collect()
    }
}

impl OfferKind {
    /// The offer in a word.
    pub fn word(self) -> &'static str {
        match self {
            OfferKind::Draw => "draw",
            OfferKind::Takeback => "takeback",
        }
    }
}

/// Unix time in seconds.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}
