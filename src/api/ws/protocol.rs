//! What a client says on a WebSocket and what the server answers: one protocol for every
//! socket (a table's in play, a table's before the start, the lobby stream), each client
//! message parsed once into a closed type ([`Received`]) and given one answer
//! ([`MessageAnswer`]). Log entries and presence changes are the table's, built in
//! `table::messages`.

use crate::api::{
    actions::{PlayRequest, play, play_elsewhere},
    body,
    error::{ApiError, ApiResult, ErrorCode},
    state::AppState,
};
use crate::{
    chat::feed::ChatView,
    table::{ActOk, TableHandle},
};
use axum::{extract::ws::Message, http::HeaderValue};
use serde::{
    Deserialize, Deserializer, Serialize,
    de::{IgnoredAny, Visitor},
};
use serde_json::Value;
use std::fmt;
use uuid::Uuid;

/// A client message, as the spec's `ClientMessage` says, field for field. Each gets one answer.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub(super) enum ClientMessage {
    /// `{"type":"action","id","seq","action"}`: one of the legal actions, if `seq` is the
    /// table's latest (the rule of `POST /actions`).
    Action {
        id: Option<Value>,
        #[serde(deserialize_with = "body::whole")]
        seq: i64,
        action: Value,
        /// Fresh dice: the seat's next dice-chain link (the rule of `POST /actions`).
        #[serde(default, deserialize_with = "body::some")]
        reveal: Option<String>,
    },
    /// `{"type":"reclaim","id"}`: the seat back from a bot.
    Reclaim { id: Option<Value> },
    /// `{"type":"chat","id","text"}` or `{"type":"chat","id","emote"}`: a message to the
    /// table's chat (the rule of `POST /v1/tables/{id}/chat`).
    Chat {
        id: Option<Value>,
        #[serde(default, deserialize_with = "body::some")]
        text: Option<String>,
        #[serde(default, deserialize_with = "body::some")]
        emote: Option<String>,
    },
    /// `{"type":"ping"}`.
    Ping,
}

/// A client's text message, read once for whichever socket it came on.
#[derive(Debug)]
pub(super) enum Received {
    Message(ClientMessage),
    /// Not one of the protocol's messages.
    Unreadable(Unreadable),
}

/// A text message that is not a [`ClientMessage`], and what can still be told of it.
#[derive(Debug)]
pub(super) struct Unreadable {
    /// Why it is not one, in the client's words.
    detail: String,
    /// What it says it is; `Err` with JSON's reason if it is not JSON at all.
    claim: Result<Claim, String>,
}

/// What a message says it is, read leniently: the sockets that take less than a table in play
/// (an open table's, the lobby's) answer by this alone, whatever else the message holds.
#[derive(Debug, Default, Deserialize)]
struct Claim {
    /// Its `type`.
    #[serde(rename = "type", default)]
    kind: Kind,
    /// Its `id`, quoted in a reply.
    #[serde(default)]
    id: Option<Value>,
}

/// The `type` a message names: one of the protocol's, or anything else.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Action,
    Reclaim,
    Chat,
    Ping,
    /// Another name, no name, or no `type` at all.
    #[default]
    Other,
}

impl<'de> Deserialize<'de> for Kind {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        /// Only a name says what a message is (serde's derive would take `0` for the first).
        struct Name;
        impl Visitor<'_> for Name {
            type Value = Kind;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a message type")
            }
            fn visit_str<E>(self, name: &str) -> Result<Kind, E> {
                Ok(match name {
                    "action" => Kind::Action,
                    "reclaim" => Kind::Reclaim,
                    "chat" => Kind::Chat,
                    "ping" => Kind::Ping,
                    _ => Kind::Other,
                })
            }
        }
        deserializer.deserialize_str(Name)
    }
}

impl Received {
    /// Reads a client's text message: a [`ClientMessage`] if it is one, else why not and what
    /// it says it is.
    pub(super) fn parse(text: &str) -> Self {
        let refused = match serde_json::from_str(text) {
            Ok(message) => return Received::Message(message),
            Err(e) => e,
        };
        let claim = match serde_json::from_str::<IgnoredAny>(text) {
            // JSON, but not a message (a `type` that is not a name, an array, a number…): it
            // claims to be nothing.
            Ok(_) => Ok(serde_json::from_str(text).unwrap_or_default()),
            Err(not_json) => Err(not_json.to_string()),
        };
        Received::Unreadable(Unreadable { detail: crate::wording::plain(&refused.to_string()), claim })
    }

    /// What the message says it is; `Err` with the reason if it is not JSON.
    fn claim(self) -> Result<Claim, String> {
        match self {
            Received::Message(ClientMessage::Action { id, .. }) => Ok(Claim { kind: Kind::Action, id }),
            Received::Message(ClientMessage::Reclaim { id }) => Ok(Claim { kind: Kind::Reclaim, id }),
            Received::Message(ClientMessage::Chat { id, .. }) => Ok(Claim { kind: Kind::Chat, id }),
            Received::Message(ClientMessage::Ping) => Ok(Claim { kind: Kind::Ping, id: None }),
            Received::Unreadable(unreadable) => unreadable.claim,
        }
    }
}

/// Where a socket's actions and reclaims go.
#[derive(Clone, Copy)]
pub(super) enum ActionTarget<'a> {
    /// This process's actor of table `table`.
    Actor { table: Uuid, handle: &'a TableHandle },
    /// Whichever process drives the table, on behalf of these credentials (cluster mode).
    Elsewhere { table: Uuid, authorization: Option<&'a HeaderValue> },
}

/// The answer of a table's socket in play: actions and reclaims are played by `target` for
/// `player` (refused to a spectator), pings answered.
pub(super) async fn answer_in_play(
    state: &AppState,
    target: ActionTarget<'_>,
    player: Option<Uuid>,
    received: Received,
) -> MessageAnswer {
    let message = match received {
        Received::Message(message) => message,
        Received::Unreadable(unreadable) => return MessageAnswer::invalid_message(unreadable.detail),
    };
    let (id, result) = match (message, player) {
        (ClientMessage::Ping, _) => return MessageAnswer::Pong,
        (ClientMessage::Chat { id, text, emote }, player) => {
            let table = match target {
                ActionTarget::Actor { table, .. } | ActionTarget::Elsewhere { table, .. } => table,
            };
            return MessageAnswer::chat_reply(id, chat(state, table, player, text, emote).await);
        }
        (ClientMessage::Action { id, .. } | ClientMessage::Reclaim { id }, None) => {
            (id, Err(ApiError::unauthorized("connect with a token to play")))
        }
        (ClientMessage::Action { id, seq, action, reveal }, Some(p)) => match target {
            ActionTarget::Actor { table, handle } => {
                state.cluster.served_directly(table);
                (id, play(state, handle, p, action, seq, reveal).await)
            }
            ActionTarget::Elsewhere { table, authorization } => {
                let what = PlayRequest::Act { action, seq, reveal };
                (id, play_elsewhere(state, table, authorization, p, what).await)
            }
        },
        (ClientMessage::Reclaim { id }, Some(p)) => match target {
            ActionTarget::Actor { table, handle } => {
                state.cluster.served_directly(table);
                (id, handle.reclaim(p).await.map_err(ApiError::from))
            }
            ActionTarget::Elsewhere { table, authorization } => {
                (id, play_elsewhere(state, table, authorization, p, PlayRequest::Reclaim).await)
            }
        },
    };
    MessageAnswer::reply(id, result)
}

/// Posts a socket's chat message at `table` for `player` (refused to a spectator).
async fn chat(
    state: &AppState,
    table: Uuid,
    player: Option<Uuid>,
    text: Option<String>,
    emote: Option<String>,
) -> ApiResult<Value> {
    let player = player.ok_or_else(|| ApiError::unauthorized("connect with a token to chat"))?;
    let said = crate::api::chat::ChatBody::new(text, emote).said()?;
    let table = state.store.table(table).await?.ok_or_else(ApiError::table_not_found)?;
    let message = state.chat.post(&table, player, said).await?;
    serde_json::to_value(ChatView::of(&message)).map_err(ApiError::internal)
}

/// The answer of a table's socket before the start: pings are answered, chat posted, actions
/// and reclaims refused (409 `table_not_started`), as the HTTP routes refuse them.
pub(super) async fn answer_waiting(
    state: &AppState,
    table: Uuid,
    player: Option<Uuid>,
    received: Received,
) -> MessageAnswer {
    if let Received::Message(ClientMessage::Chat { id, text, emote }) = received {
        return MessageAnswer::chat_reply(id, chat(state, table, player, text, emote).await);
    }
    answer_waiting_alone(received)
}

/// [`answer_waiting`] of what needs no state: all but chat.
fn answer_waiting_alone(received: Received) -> MessageAnswer {
    match received.claim() {
        Ok(Claim { kind: Kind::Ping, .. }) => MessageAnswer::Pong,
        Ok(Claim { kind: Kind::Action | Kind::Reclaim, id }) => MessageAnswer::reply(
            id,
            Err(ApiError::conflict(ErrorCode::TableNotStarted, "the game has not started")),
        ),
        Ok(Claim { kind: Kind::Other | Kind::Chat, .. }) => {
            MessageAnswer::invalid_message("before the start a table's socket takes only pings and chat")
        }
        Err(not_json) => MessageAnswer::invalid_message(not_json),
    }
}

/// The answer of the lobby stream: pings, and nothing else.
pub(super) fn answer_lobby(received: Received) -> MessageAnswer {
    match received.claim() {
        Ok(Claim { kind: Kind::Ping, .. }) => MessageAnswer::Pong,
        Ok(_) => MessageAnswer::invalid_message("the lobby stream takes only pings"),
        Err(not_json) => MessageAnswer::invalid_message(not_json),
    }
}

/// What the server sends of its own accord on a socket: the answer to each client message.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(super) enum MessageAnswer {
    /// The outcome of an `action` or `reclaim`.
    Reply(Reply),
    /// A client message the server cannot read (or this socket does not take).
    Error { code: ErrorCode, detail: String },
    /// The answer to a `ping`.
    Pong,
}

/// `{"type":"reply","id","ok"}` with `seq` and `events` when it worked, `error` when not.
#[derive(Debug, Serialize)]
pub(super) struct Reply {
    /// The client's `id` of the message answered, `null` if it gave none.
    id: Option<Value>,
    ok: bool,
    #[serde(flatten)]
    done: Option<ActOk>,
    /// The message posted, for a `chat`.
    #[serde(skip_serializing_if = "Option::is_none")]
    chat: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<ReplyError>,
}

impl Reply {
    fn refused(id: Option<Value>, e: ApiError) -> Self {
        let error = ReplyError { status: e.status.as_u16(), code: e.code, detail: e.detail };
        Reply { id, ok: false, done: None, chat: None, error: Some(error) }
    }
}

/// Why an action or reclaim was refused: the status, code and detail its HTTP form answers with.
#[derive(Debug, Serialize)]
struct ReplyError {
    status: u16,
    code: ErrorCode,
    detail: String,
}

impl MessageAnswer {
    fn reply(id: Option<Value>, result: ApiResult<ActOk>) -> Self {
        MessageAnswer::Reply(match result {
            Ok(done) => Reply { id, ok: true, done: Some(done), chat: None, error: None },
            Err(e) => Reply::refused(id, e),
        })
    }

    fn chat_reply(id: Option<Value>, result: ApiResult<Value>) -> Self {
        MessageAnswer::Reply(match result {
            Ok(message) => Reply { id, ok: true, done: None, chat: Some(message), error: None },
            Err(e) => Reply::refused(id, e),
        })
    }

    pub(super) fn invalid_message(detail: impl Into<String>) -> Self {
        MessageAnswer::Error { code: ErrorCode::InvalidMessage, detail: detail.into() }
    }

    pub(super) fn to_message(&self) -> Message {
        let text = serde_json::to_string(self).expect("answers serialize");
        Message::Text(text.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The typed answers are the JSON the server always sent (built with `json!` before).
    #[test]
    fn answers_keep_their_wire_form() {
        let value = |a: MessageAnswer| serde_json::to_value(a).unwrap();
        let done = ActOk { seq: 7, events: vec![json!({"type": "rolled", "seat": 0, "dice": [6]})] };
        assert_eq!(
            value(MessageAnswer::reply(Some(json!("a1")), Ok(done))),
            json!({"type": "reply", "id": "a1", "ok": true, "seq": 7, "events": [{"type": "rolled", "seat": 0, "dice": [6]}]})
        );
        let refused = ApiError::conflict(ErrorCode::NotYourTurn, "seat 2 is to act");
        assert_eq!(
            value(MessageAnswer::reply(None, Err(refused))),
            json!({"type": "reply", "id": null, "ok": false,
                "error": {"status": 409, "code": "not_your_turn", "detail": "seat 2 is to act"}})
        );
        assert_eq!(
            value(MessageAnswer::invalid_message("send JSON text")),
            json!({"type": "error", "code": "invalid_message", "detail": "send JSON text"})
        );
        assert_eq!(value(MessageAnswer::Pong), json!({"type": "pong"}));
    }

    fn answer(answer: fn(Received) -> MessageAnswer, text: &str) -> Value {
        serde_json::to_value(answer(Received::parse(text))).unwrap()
    }

    fn invalid(detail: &str) -> Value {
        json!({"type": "error", "code": "invalid_message", "detail": detail})
    }

    /// Before the start a table's socket answers by what a message says it is: a ping (even
    /// with fields a ping has not) is answered, an action or reclaim (whatever its fields) is
    /// refused quoting its `id`, anything else is not taken; text that is not JSON is told why.
    #[test]
    fn before_the_start_a_socket_answers_pings_and_refuses_actions() {
        let not_started = |id: Value| {
            json!({"type": "reply", "id": id, "ok": false,
                "error": {"status": 409, "code": "table_not_started", "detail": "the game has not started"}})
        };
        assert_eq!(answer(answer_waiting_alone, r#"{"type":"ping"}"#), json!({"type": "pong"}));
        assert_eq!(answer(answer_waiting_alone, r#"{"type":"ping","id":1}"#), json!({"type": "pong"}));
        let action = r#"{"type":"action","id":"early","seq":1,"action":{"type":"roll"}}"#;
        assert_eq!(answer(answer_waiting_alone, action), not_started(json!("early")));
        assert_eq!(answer(answer_waiting_alone, r#"{"type":"action","id":[2]}"#), not_started(json!([2])));
        assert_eq!(answer(answer_waiting_alone, r#"{"type":"reclaim"}"#), not_started(Value::Null));
        let only_pings = invalid("before the start a table's socket takes only pings and chat");
        for other in [r#"{"type":"nonsense","id":1}"#, r#"{"type":0}"#, r#"{"id":1}"#, "[1]", "5"] {
            assert_eq!(answer(answer_waiting_alone, other), only_pings, "{other}");
        }
        assert_eq!(
            answer(answer_waiting_alone, "{"),
            invalid("EOF while parsing an object at line 1 column 1")
        );
    }

    #[test]
    fn the_lobby_stream_answers_pings_alone() {
        assert_eq!(answer(answer_lobby, r#"{"type":"ping"}"#), json!({"type": "pong"}));
        let only_pings = invalid("the lobby stream takes only pings");
        for other in [r#"{"type":"action"}"#, r#"{"type":"reclaim","id":1}"#, "[]", r#"{"type":null}"#] {
            assert_eq!(answer(answer_lobby, other), only_pings, "{other}");
        }
        assert_eq!(answer(answer_lobby, "ping"), invalid("expected value at line 1 column 1"));
    }

    /// A table in play takes the protocol's messages alone, field for field, and says why
    /// another is not one in the client's words.
    #[test]
    fn in_play_a_message_is_read_field_for_field() {
        let read = |text: &str| match Received::parse(text) {
            Received::Message(message) => Ok(message),
            Received::Unreadable(unreadable) => Err(unreadable.detail),
        };
        assert!(matches!(
            read(r#"{"type":"action","id":"a","seq":3,"action":{"type":"roll"}}"#),
            Ok(ClientMessage::Action { seq: 3, .. })
        ));
        assert!(matches!(read(r#"{"type":"reclaim"}"#), Ok(ClientMessage::Reclaim { id: None })));
        assert!(matches!(read(r#"{"type":"ping"}"#), Ok(ClientMessage::Ping)));
        let extra = read(r#"{"type":"action","seq":1,"action":{},"to":2}"#).unwrap_err();
        assert!(extra.starts_with("unknown field `to`"), "{extra}");
        let unknown = read(r#"{"type":"nonsense"}"#).unwrap_err();
        assert!(unknown.starts_with("unknown value `nonsense`"), "{unknown}");
        let fraction = read(r#"{"type":"action","seq":1.5,"action":{}}"#).unwrap_err();
        assert!(!fraction.contains("i64"), "{fraction}");
    }
}
