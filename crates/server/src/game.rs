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

/// A move made in the game.
#[derive(Clone, Debug)]
pub struct Played {
    pub player: usize,
    pub mv: Move,
    pub text: String,
}

/// Where the game stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Playing,
    Over(Outcome),
    /// Nobody can move and the rules give no result (a variant without a
    /// drop-out rule in a position it does not decide).
    Stuck,
}

/// A game in memory.
pub struct Game {
    pub id: String,
    pub source: Source,
    pub seats: Vec<Seat>,
    /// The start position string.
    pub start: String,
    pub pos: Position,
    pub played: Vec<Played>,
    /// Unix seconds.
    pub created: i64,
    pub updated: i64,
    /// An AI move is being computed.
    pub ai_busy: bool,
    /// Live updates: the number of moves after each change.
    pub events: broadcast::Sender<usize>,
    /// The current position's legal moves and status, computed once per
    /// move (every view and check reads these).
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
}

/// Longest position string accepted.
pub const MAX_POSITION: usize = 2048;

impl Game {
    /// A game from its parts: the start position (the variant's setup if
    /// `None`) and the moves replayed. Errors name the field and the move.
    pub fn new(
        id: String,
        source: Source,
        seats: Vec<Seat>,
        start: Option<&str>,
        moves: &[String],
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
            created: now,
            updated: now,
            ai_busy: false,
            events: broadcast::channel(16).0,
            legal: MoveList::new(),
            status: Status::Playing,
        };
        g.refresh();
        for (i, text) in moves.iter().enumerate() {
            if *g.status() != Status::Playing {
                return Err(format!("move {} `{text}`: the game is already over", i + 1));
            }
            let m = g
                .pos
                .parse_move(text)
                .map_err(|e| format!("move {} `{text}`: {e}", i + 1))?;
            g.apply(m);
        }
        Ok(g)
    }

    /// Recomputes the legal moves and the status of the current position.
    fn refresh(&mut self) {
        self.pos.legal_moves_into(&mut self.legal);
        self.status = match self.pos.outcome() {
            Some(o) => Status::Over(o),
            None if self.legal.is_empty() => Status::Stuck,
            None => Status::Playing,
        };
    }

    /// Judges a turn: the game is on, the ply is the one meant, the actor
    /// holds the seat to move, and the engine accepts the move. Returns the
    /// move to play; changes nothing.
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
        match input {
            Input::Text(text) => self.pos.parse_move(text).map_err(|error| TurnError::Move {
                text: text.clone(),
                error,
            }),
            Input::Move(m) if self.legal.iter().any(|l| l == m) => Ok(*m),
            Input::Move(m) => Err(TurnError::NotLegal(self.pos.move_to_string(*m))),
        }
    }

    /// Plays a legal move (one [`Game::judge`] returned) and tells the
    /// listeners.
    pub fn apply(&mut self, mv: Move) {
        let player = self.pos.to_move();
        let text = self.pos.move_to_string(mv);
        self.pos.make(mv);
        self.played.push(Played { player, mv, text });
        self.updated = now();
        self.refresh();
        self.notify();
    }

    /// Tells the listeners that something changed (nobody listening is
    /// fine).
    pub fn notify(&self) {
        let _ = self.events.send(self.played.len());
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

    /// The move texts, in order.
    pub fn move_texts(&self) -> Vec<String> {
        self.played.iter().map(|p| p.text.clone()).collect()
    }
}

/// Unix time in seconds.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}
