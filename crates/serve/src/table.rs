//! A table: who plays each seat of a game (issue #61). A game made with
//! `players` seats at each seat a person (optionally named) or the
//! engine at a level; it is kept with the game in the database and shown
//! to every viewer. A game made without is an analysis board: no table,
//! anyone may move any seat, and the engine moves only when asked.
//!
//! Each person seat has a secret token (128 random bits, as game ids
//! are): only a request carrying it (`X-Seat-Token`) acts for the seat —
//! moves, resigns, asks to take back or answers such a request. The
//! creator's own seats are joined at once; an invited seat's token is
//! the one in its join link until someone joins by it, who then gets a
//! fresh token that only they hold, so that the creator, who saw the
//! link, cannot play for them. Tokens are stored as they are: whoever can
//! read the database file can also write it (and so move for anyone), so
//! hashing them would guard only a copy of the file; they are random and
//! used nowhere else (no password is reused), and a copy of the file
//! should be kept as privately as the server's own.
//!
//! While a take-back asked for by one person waits for the others'
//! consent, it is kept here too ([`Proposal`]).

use super::error::ApiError;
use super::levels;
use axum::http::StatusCode;
use catchess_game::SeatInfo;
use rand::rngs::OsRng;
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// The longest player's name, in bytes (a record's tag takes it).
pub const MAX_NAME: usize = 100;

/// A seat's secret: 32 hex digits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Token(String);

impl Token {
    /// 128 random bits from the operating system's generator.
    pub fn new() -> Token {
        Token(format!("{:032x}", OsRng.gen::<u128>()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether `given` is this token, compared in time that does not
    /// depend on where they differ.
    fn matches(&self, given: &str) -> bool {
        let (a, b) = (self.0.as_bytes(), given.as_bytes());
        a.len() == b.len() && a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
    }
}

/// A person's seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Person {
    pub name: Option<String>,
    pub token: Token,
    /// Someone holds the seat: the creator (at once), or whoever joined
    /// by its link.
    pub joined: bool,
    /// The seat was given to someone else (by its link, or open), not
    /// kept by the creator: the creator's seats are one person's, whose
    /// consent is asked once and who need not consent to themselves.
    #[serde(default)]
    pub invited: bool,
    /// Until it is joined, the seat is listed in the open games
    /// (`GET /api/games?open=true`), where anyone may take it without its
    /// link.
    #[serde(default)]
    pub open: bool,
}

/// Who plays a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum Player {
    Person(Person),
    /// The engine at a level 1..=8 (`levels.rs`), played by the server.
    Engine {
        level: u8,
    },
}

/// A request that waits for the other people's consent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Proposal {
    pub kind: ProposalKind,
    /// The seat that asked.
    pub by: usize,
    /// The moves played when it was asked: any move since withdraws it.
    pub at_ply: usize,
    /// The seats whose consent is still awaited.
    pub waiting: Vec<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProposalKind {
    /// Take back `plies` moves (`takeback.rs`).
    TakeBack { plies: usize },
    /// End the game in a draw by agreement (`draw.rs`).
    Draw,
}

impl ProposalKind {
    /// The request in words: "take-back", "draw offer".
    pub fn noun(self) -> &'static str {
        match self {
            ProposalKind::TakeBack { .. } => "take-back",
            ProposalKind::Draw => "draw offer",
        }
    }
}

/// Who plays each seat of a game, as kept in the database.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table {
    /// One per seat, in the game's turn order.
    pub seats: Vec<Player>,
    /// The engine's thinking (analysis, its search's lines, the endgame
    /// tables' verdict) shown to the players during the game; hidden by
    /// default (the creator's choice).
    pub show_thinking: bool,
    pub proposal: Option<Proposal>,
    /// When the game was made (the server's time, ms since the epoch).
    pub created_ms: u64,
}

/// How a person seat is given to someone else.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Invite {
    /// By its join link only.
    Link,
    /// By its link, and listed in the open games for anyone to take.
    Open,
}

/// A seat's player as `POST /api/games` takes it.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum PlayerRequest {
    Person {
        name: Option<String>,
        /// The seat is someone else's, joined when they open its link (or,
        /// `open`, take it from the open games); without, it is the
        /// creator's own, joined at once.
        invite: Option<Invite>,
    },
    Engine {
        level: u8,
    },
}

/// A seat's player as every viewer sees it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum PlayerView {
    /// `open`: waiting in the open games for anyone to take it.
    Person {
        name: Option<String>,
        joined: bool,
        open: bool,
    },
    Engine {
        level: u8,
    },
}

/// A waiting request as every viewer sees it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ProposalView {
    /// `takeback` or `draw`.
    pub kind: &'static str,
    pub by: &'static str,
    /// A take-back's moves, and the moves it leaves.
    pub plies: Option<usize>,
    pub to_ply: Option<usize>,
    pub waiting_for: Vec<&'static str>,
}

fn forbidden(message: String) -> ApiError {
    ApiError::new(StatusCode::FORBIDDEN, message)
}

/// Why a request without a token (a watcher's) may not do `what`.
fn no_token(what: &str) -> ApiError {
    forbidden(format!(
        "{what} needs a seat's token (X-Seat-Token): this game's seats belong to their players, and without one you watch"
    ))
}

/// A name as given: trimmed, empty as none, within [`MAX_NAME`] bytes and
/// without control characters.
pub fn checked_name(name: Option<&str>) -> Result<Option<String>, ApiError> {
    let Some(name) = name.map(str::trim).filter(|n| !n.is_empty()) else { return Ok(None) };
    if name.len() > MAX_NAME {
        return Err(ApiError::bad_request(format!("a player's name has {} bytes, more than {MAX_NAME}", name.len())));
    }
    if name.chars().any(char::is_control) {
        return Err(ApiError::bad_request("a player's name may not hold control characters"));
    }
    Ok(Some(name.to_string()))
}

impl Table {
    /// The table `players` asks for (by seat name; a seat left out is the
    /// creator's, a person), with its tokens made; the seat names must be
    /// the game's (`seats`).
    pub fn new(
        seats: &[SeatInfo],
        players: &HashMap<String, PlayerRequest>,
        show_thinking: bool,
        now: u64,
    ) -> Result<Table, ApiError> {
        if let Some(name) = players.keys().find(|k| !seats.iter().any(|s| s.name == k.as_str())) {
            let names: Vec<&str> = seats.iter().map(|s| s.name).collect();
            return Err(ApiError::bad_request(format!(
                "players: {name:?} is not a seat of this game ({})",
                names.join(", ")
            )));
        }
        let seats = seats
            .iter()
            .map(|s| match players.get(s.name) {
                Some(PlayerRequest::Engine { level }) => {
                    levels::skill(*level).map_err(|e| ApiError::bad_request(format!("players: {}: {e}", s.name)))?;
                    Ok(Player::Engine { level: *level })
                }
                Some(PlayerRequest::Person { name, invite }) => Ok(Player::Person(Person {
                    name: checked_name(name.as_deref())?,
                    token: Token::new(),
                    joined: invite.is_none(),
                    invited: invite.is_some(),
                    open: *invite == Some(Invite::Open),
                })),
                None => Ok(Player::Person(Person {
                    name: None,
                    token: Token::new(),
                    joined: true,
                    invited: false,
                    open: false,
                })),
            })
            .collect::<Result<_, ApiError>>()?;
        Ok(Table { seats, show_thinking, proposal: None, created_ms: now })
    }

    fn person(&self, seat: usize) -> Option<&Person> {
        match self.seats.get(seat) {
            Some(Player::Person(p)) => Some(p),
            _ => None,
        }
    }

    /// The engine's level at `seat`, if the engine plays it.
    pub fn engine_level(&self, seat: usize) -> Option<u8> {
        match self.seats.get(seat) {
            Some(Player::Engine { level }) => Some(*level),
            _ => None,
        }
    }

    /// The seat whose token `given` is.
    pub fn seat_of(&self, given: &str) -> Option<usize> {
        // Every seat is compared, whichever matches.
        let matches: Vec<bool> =
            (0..self.seats.len()).map(|i| self.person(i).is_some_and(|p| p.token.matches(given))).collect();
        matches.iter().position(|&m| m)
    }

    /// The seat whose token `token` is, joined or not: 403 saying what is
    /// wrong for a request without a token (a watcher) or with a token of
    /// no seat of this game. `what`: the act, for the message ("a move").
    fn holder(&self, token: Option<&str>, what: &str) -> Result<usize, ApiError> {
        let Some(token) = token else { return Err(no_token(what)) };
        self.seat_of(token).ok_or_else(|| {
            forbidden(
                "the X-Seat-Token is not the token of a seat of this game (a join link someone has used is spent)"
                    .to_string(),
            )
        })
    }

    /// The seat a request acts for, from its token ([`Table::holder`]):
    /// a seat whose player has not joined yet does nothing but join, so
    /// that whoever saw its link before its player did (the creator) has
    /// no say for it.
    pub fn seat_acting(&self, token: Option<&str>, what: &str) -> Result<usize, ApiError> {
        let seat = self.holder(token, what)?;
        match self.person(seat) {
            Some(p) if p.joined => Ok(seat),
            _ => Err(forbidden(format!(
                "{what}: this token's seat waits for its player, and its link only joins it (POST join)"
            ))),
        }
    }

    /// Refuses a request to act for `seat` (its name, `what` the act)
    /// unless `token` is that seat's: another seat's token, none, or the
    /// engine's seat (the server plays it).
    pub fn check_seat(&self, seats: &[SeatInfo], seat: usize, token: Option<&str>, what: &str) -> Result<(), ApiError> {
        let name = seats[seat].name;
        if let Some(level) = self.engine_level(seat) {
            return Err(forbidden(format!(
                "{name} is the engine's seat (level {level}), played by the server: no request {what}s for it"
            )));
        }
        let acting = self.seat_acting(token, &format!("a {what} for {name}"))?;
        if acting != seat {
            return Err(forbidden(format!("this {what} is {name}'s; your token is {}'s", seats[acting].name)));
        }
        Ok(())
    }

    /// Joins a seat: the one whose token is `given`, or else `open`, a
    /// seat waiting in the open games, which anyone may take. A seat
    /// waiting for its player gets a new token, which only the joiner
    /// holds (the link's is spent); a seat joined already keeps its token
    /// (its player on another device). `name`, if given, names the
    /// player. Returns the seat, its token and whether anything changed.
    pub fn join(
        &mut self,
        seats: &[SeatInfo],
        given: Option<&str>,
        open: Option<usize>,
        name: Option<String>,
    ) -> Result<(usize, Token, bool), ApiError> {
        let seat = match (given, open) {
            (Some(_), _) => {
                let seat = self.holder(given, "joining a seat")?;
                if let Some(asked) = open.filter(|&asked| asked != seat) {
                    return Err(forbidden(format!(
                        "this token is {}'s, not {}'s",
                        seats[seat].name, seats[asked].name
                    )));
                }
                seat
            }
            (None, Some(seat)) => match self.person(seat) {
                Some(p) if p.open && !p.joined => seat,
                Some(p) if p.joined => {
                    return Err(forbidden(format!("{} is taken: its player has joined", seats[seat].name)))
                }
                Some(_) => {
                    return Err(forbidden(format!(
                        "{} is not open to anyone: it is joined by its link only",
                        seats[seat].name
                    )))
                }
                None => return Err(forbidden(format!("{} is the engine's seat", seats[seat].name))),
            },
            (None, None) => return Err(no_token("joining a seat (other than an open one)")),
        };
        let Some(Player::Person(p)) = self.seats.get_mut(seat) else { unreachable!("a token is a person's") };
        let mut changed = false;
        if !p.joined {
            p.joined = true;
            p.open = false;
            p.token = Token::new();
            changed = true;
        }
        if name.is_some() && p.name != name {
            p.name = name;
            changed = true;
        }
        Ok((seat, p.token.clone(), changed))
    }

    /// Whether seats `a` and `b` are one person's: the same seat, or two
    /// the creator kept.
    pub fn same_person(&self, a: usize, b: usize) -> bool {
        let creators = |i| self.person(i).is_some_and(|p| !p.invited);
        a == b || (creators(a) && creators(b))
    }

    /// The seats whose consent a request of `by` needs: every seat
    /// another person has joined, unless it forfeited (`passes`).
    pub fn others(&self, by: usize, passes: impl Fn(usize) -> bool) -> Vec<usize> {
        (0..self.seats.len())
            .filter(|&i| !self.same_person(i, by) && self.person(i).is_some_and(|p| p.joined) && !passes(i))
            .collect()
    }

    /// Whether a person other than the holder of `by` has joined: a game
    /// others play in is not one person's to delete.
    pub fn others_joined(&self, by: usize) -> bool {
        !self.others(by, |_| false).is_empty()
    }

    /// The seats waiting for their player.
    pub fn waiting(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.seats.len()).filter(|&i| self.person(i).is_some_and(|p| !p.joined))
    }

    /// Whether a person seat waits for its player: the clocks are held
    /// until every player has come (`AnyGame::hold_clocks`).
    pub fn awaits_players(&self) -> bool {
        self.waiting().next().is_some()
    }

    /// The seats waiting in the open games for anyone to take.
    pub fn open_seats(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.seats.len()).filter(|&i| self.person(i).is_some_and(|p| p.open && !p.joined))
    }

    /// Whether one person plays every person seat (the creator kept them
    /// all, none given to anyone else): alone against the engine, or
    /// playing every side.
    pub fn one_person(&self) -> bool {
        (0..self.seats.len()).all(|i| self.person(i).is_none_or(|p| !p.invited))
    }

    /// Whether a person plays any seat.
    pub fn has_person(&self) -> bool {
        (0..self.seats.len()).any(|i| self.person(i).is_some())
    }

    /// Each person seat's token, by seat name.
    pub fn tokens(&self, seats: &[SeatInfo]) -> BTreeMap<&'static str, String> {
        (0..self.seats.len())
            .filter_map(|i| Some((seats[i].name, self.person(i)?.token.as_str().to_string())))
            .collect()
    }

    /// The players as every viewer sees them (no token).
    pub fn view(&self, seats: &[SeatInfo]) -> BTreeMap<&'static str, PlayerView> {
        self.seats
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let view = match p {
                    Player::Person(p) => PlayerView::Person { name: p.name.clone(), joined: p.joined, open: p.open },
                    Player::Engine { level } => PlayerView::Engine { level: *level },
                };
                (seats[i].name, view)
            })
            .collect()
    }

    /// The waiting request as every viewer sees it.
    pub fn proposal_view(&self, seats: &[SeatInfo]) -> Option<ProposalView> {
        let p = self.proposal.as_ref()?;
        let (kind, plies) = match p.kind {
            ProposalKind::TakeBack { plies } => ("takeback", Some(plies)),
            ProposalKind::Draw => ("draw", None),
        };
        Some(ProposalView {
            kind,
            by: seats[p.by].name,
            plies,
            to_ply: plies.map(|n| p.at_ply.saturating_sub(n)),
            waiting_for: p.waiting.iter().map(|&i| seats[i].name).collect(),
        })
    }

    /// Each seat's player as the record names it: the person's name (or
    /// `Person`), the engine's level (`catchess level 3`).
    pub fn record_names(&self, seats: &[SeatInfo]) -> HashMap<String, String> {
        self.seats
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let name = match p {
                    Player::Person(p) => p.name.clone().unwrap_or_else(|| "Person".to_string()),
                    Player::Engine { level } => levels::player_name(*level),
                };
                (seats[i].name.to_string(), name)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use catchess_game::Game;
    use catchess_games::CatChess;

    fn table(players: serde_json::Value) -> Result<Table, ApiError> {
        let players: HashMap<String, PlayerRequest> = serde_json::from_value(players).unwrap();
        Table::new(CatChess::SEATS, &players, false, 7)
    }

    #[test]
    fn a_table_seats_people_and_engines_and_refuses_what_is_no_seat() {
        let t = table(serde_json::json!({
            "black": {"kind": "person", "name": " Bea ", "invite": "link"},
            "cats": {"kind": "engine", "level": 3}
        }))
        .unwrap();
        assert_eq!(t.engine_level(2), Some(3));
        assert_eq!(t.waiting().collect::<Vec<_>>(), [1], "the invited seat waits");
        let view = t.view(CatChess::SEATS);
        assert_eq!(
            view["white"],
            PlayerView::Person { name: None, joined: true, open: false },
            "a seat left out is the creator's"
        );
        assert_eq!(view["black"], PlayerView::Person { name: Some("Bea".into()), joined: false, open: false });
        let tokens = t.tokens(CatChess::SEATS);
        assert_eq!(tokens.keys().copied().collect::<Vec<_>>(), ["black", "white"]);
        assert!(tokens.values().all(|t| t.len() == 32 && t.chars().all(|c| c.is_ascii_hexdigit())));
        assert_ne!(tokens["black"], tokens["white"]);
        assert_eq!(t.seat_of(&tokens["black"]), Some(1));
        assert_eq!(t.seat_of("0123"), None);

        for (bad, says) in [
            (serde_json::json!({"red": {"kind": "person"}}), "not a seat of this game"),
            (serde_json::json!({"cats": {"kind": "engine", "level": 9}}), "level must be 1..=8"),
            (serde_json::json!({"white": {"kind": "person", "name": "x".repeat(101)}}), "more than 100"),
            (serde_json::json!({"white": {"kind": "person", "name": "a\u{7}b"}}), "control characters"),
        ] {
            let refused = table(bad.clone()).expect_err(&bad.to_string());
            assert!(refused.message.contains(says), "{bad}: {}", refused.message);
        }
    }

    #[test]
    fn only_a_seat_s_token_acts_for_it_and_a_join_link_is_spent_by_its_first_use() {
        let mut t = table(
            serde_json::json!({"black": {"kind": "person", "invite": "link"}, "cats": {"kind": "engine", "level": 1}}),
        )
        .unwrap();
        let seats = CatChess::SEATS;
        let tokens = t.tokens(seats);
        assert!(t.check_seat(seats, 0, Some(&tokens["white"]), "move").is_ok());
        let e = t.check_seat(seats, 1, Some(&tokens["white"]), "move").unwrap_err();
        assert_eq!(
            (e.status, e.message.as_str()),
            (StatusCode::FORBIDDEN, "this move is black's; your token is white's")
        );
        let e = t.check_seat(seats, 0, None, "move").unwrap_err();
        assert!(e.message.contains("needs a seat's token") && e.message.contains("you watch"), "{}", e.message);
        let e = t.check_seat(seats, 2, Some(&tokens["white"]), "move").unwrap_err();
        assert!(e.message.contains("cats is the engine's seat (level 1)"), "{}", e.message);

        // Before black joins, its link's token only joins: whoever saw it
        // (the creator) cannot play for black.
        let e = t.seat_acting(Some(&tokens["black"]), "a move").unwrap_err();
        assert!(e.message.contains("waits for its player"), "{}", e.message);
        // Black joins by the link: a new token; the link's no longer acts.
        let e = t.join(seats, Some(&tokens["black"]), Some(0), None).unwrap_err();
        assert_eq!(e.message, "this token is black's, not white's");
        let e = t.join(seats, None, Some(1), None).unwrap_err();
        assert_eq!(e.message, "black is not open to anyone: it is joined by its link only");
        let (seat, token, changed) = t.join(seats, Some(&tokens["black"]), None, Some("Bea".into())).unwrap();
        assert_eq!((seat, changed), (1, true));
        assert_ne!(token.as_str(), tokens["black"]);
        assert!(t.check_seat(seats, 1, Some(&tokens["black"]), "move").is_err());
        assert!(t.check_seat(seats, 1, Some(token.as_str()), "move").is_ok());
        // Joined again with the new token (another device): the same token.
        let (_, again, changed) = t.join(seats, Some(token.as_str()), None, None).unwrap();
        assert_eq!((again, changed), (token, false));
        assert_eq!(t.others(0, |_| false), [1]);
        assert!(t.others(0, |s| s == 1).is_empty(), "a seat that forfeited is not asked");
    }

    #[test]
    fn an_open_seat_is_anyone_s_to_take_once() {
        let mut t = table(serde_json::json!({"cats": {"kind": "person", "invite": "open"}})).unwrap();
        let seats = CatChess::SEATS;
        assert_eq!(t.open_seats().collect::<Vec<_>>(), [2]);
        assert_eq!(t.view(seats)["cats"], PlayerView::Person { name: None, joined: false, open: true });
        let e = t.join(seats, None, None, None).unwrap_err();
        assert!(e.message.contains("needs a seat's token"), "{}", e.message);
        let e = t.join(seats, None, Some(0), None).unwrap_err();
        assert_eq!(e.message, "white is taken: its player has joined");
        let (seat, token, changed) = t.join(seats, None, Some(2), Some("Cy".into())).unwrap();
        assert_eq!((seat, changed), (2, true));
        assert!(t.check_seat(seats, 2, Some(token.as_str()), "move").is_ok());
        assert_eq!(t.open_seats().count(), 0, "taken, it is no longer open");
        let e = t.join(seats, None, Some(2), None).unwrap_err();
        assert_eq!(e.message, "cats is taken: its player has joined");
    }
}
