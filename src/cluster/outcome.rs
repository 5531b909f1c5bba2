//! What became of a forwarded action whose answer was lost: the driver may have committed it
//! and died (or its answer dropped) before the answer came back, so a retry's refusal
//! (`stale_seq` from the next driver, `table_elsewhere` once patience runs out) may only mean
//! that it was applied. The log tells: an action posted at `seq` can only ever be the entry
//! at `seq + 1` (or `seq + 2`, after the reclaim that acting on a bot's seat stages with it).

use crate::{
    games::GameKind,
    rules::Seat,
    store::{LogEntry, LoggedAction, PlayedBy, Store, StoreResult},
    table::{ActOk, TableEntry},
};
use serde_json::Value;
use uuid::Uuid;

/// What the log says of an action posted at `seq`.
#[derive(Debug)]
pub enum Outcome {
    /// It is in the log: the answer the driver gave (or would have).
    Applied(ActOk),
    /// Something else took its place: it never will be applied.
    Refused,
    /// The log has not moved past `seq`.
    NotYet,
    /// The seat's own action took its place, and the log cannot tell whether it is this one
    /// (an entry from before entries stored their state, with another spelling of the move).
    Unknown,
}

/// What the log of table `id` (a game of `game`) says of `seat`'s `action` posted at `seq`.
pub async fn of_action(
    store: &Store,
    game: GameKind,
    id: Uuid,
    seat: Seat,
    action: &Value,
    seq: i64,
) -> StoreResult<Outcome> {
    let entries = store.entries(id, seq - 1, seq + 2).await?;
    Ok(judge(game, seat, action, seq, &entries))
}

/// [`of_action`] over the entries from `seq` (the one the action was posted after) on.
fn judge(game: GameKind, seat: Seat, posted: &Value, seq: i64, entries: &[LogEntry]) -> Outcome {
    let at = |s: i64| entries.iter().find(|e| e.seq == s);
    let (mut before, mut next) = (at(seq), at(seq + 1));
    // Acting on a seat a bot holds takes it back first, in the same append.
    if let Some(entry) = next
        && entry.action == LoggedAction::Table(TableEntry::Reclaim { seat })
    {
        (before, next) = (next, at(seq + 2));
        if next.is_none() {
            return Outcome::Refused;
        }
    }
    let Some(entry) = next else { return Outcome::NotYet };
    let LoggedAction::Engine(logged) = &entry.action else { return Outcome::Refused };
    if entry.actor != PlayedBy::Human || entry.seat != Some(seat) {
        return Outcome::Refused;
    }
    let applied = || Outcome::Applied(ActOk { seq: entry.seq, events: entry.events.events.clone() });
    if logged == posted {
        return applied();
    }
    // The log holds each action as listed, whatever spelling was posted: read the posted one
    // as the table did, against the state it was posted in.
    let state = before.and_then(|b| b.events.state.as_ref());
    match state.map(|state| game.resume(state)) {
        Some(Ok(game)) => match game.legal_action(seat, posted) {
            Ok(listed) if listed == *logged => applied(),
            _ => Outcome::Refused,
        },
        _ => Outcome::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{games::JsonText, rules::dice::ScriptedDice, store::EntryEvents};
    use serde_json::json;

    fn entry(
        seq: i64,
        seat: Option<Seat>,
        actor: PlayedBy,
        action: Value,
        state: Option<JsonText>,
    ) -> LogEntry {
        let events =
            EntryEvents { events: vec![json!({"type": "marker", "seq": seq})], state, ..Default::default() };
        LogEntry { seq, seat, actor, action: LoggedAction::Engine(action), events, at: 0 }
    }

    /// A Backgammon game whose seat to act has a play listed in one order of its steps and
    /// taken in another: its state, the seat, the play as listed and as posted.
    fn backgammon_play() -> (JsonText, Seat, Value, Value) {
        let mut dice = ScriptedDice::new(vec![3, 1]);
        let (game, _) = GameKind::Backgammon.start(&json!({}), 2, &mut dice).unwrap();
        let seat = game.to_act().unwrap();
        for listed in game.legal_actions(seat) {
            let mut reordered = listed.clone();
            let Some(moves) = reordered["moves"].as_array_mut() else { continue };
            moves.reverse();
            if reordered != listed && game.legal_action(seat, &reordered).is_ok_and(|a| a == listed) {
                return (game.state_json(), seat, listed, reordered);
            }
        }
        panic!("no play of the opening 3-1 that can be posted in another order");
    }

    #[test]
    fn the_seats_action_at_the_next_seq_is_answered_as_applied() {
        let action = json!({"type": "roll"});
        let log = [
            entry(4, None, PlayedBy::Bot, json!({}), None),
            entry(5, Some(1), PlayedBy::Human, action.clone(), None),
        ];
        let Outcome::Applied(done) = judge(GameKind::Luddo, 1, &action, 4, &log) else {
            panic!("not applied")
        };
        assert_eq!((done.seq, &done.events), (5, &log[1].events.events), "the entry, as the driver answers");
    }

    #[test]
    fn another_entry_at_the_next_seq_means_refused_and_none_means_not_yet() {
        let action = json!({"type": "roll"});
        let others = entry(5, Some(0), PlayedBy::Human, action.clone(), None);
        assert!(matches!(judge(GameKind::Luddo, 1, &action, 4, &[others]), Outcome::Refused));
        let timeout = entry(5, Some(1), PlayedBy::Timeout, action.clone(), None);
        assert!(matches!(judge(GameKind::Luddo, 1, &action, 4, &[timeout]), Outcome::Refused));
        let quiet = [entry(4, None, PlayedBy::Bot, json!({}), None)];
        assert!(matches!(judge(GameKind::Luddo, 1, &action, 4, &quiet), Outcome::NotYet));
    }

    #[test]
    fn an_action_after_the_reclaim_it_staged_is_found_past_it() {
        let action = json!({"type": "roll"});
        let reclaim = LogEntry {
            action: LoggedAction::Table(TableEntry::Reclaim { seat: 1 }),
            ..entry(5, Some(1), PlayedBy::Server, json!({}), None)
        };
        let played = entry(6, Some(1), PlayedBy::Human, action.clone(), None);
        let applied = judge(GameKind::Luddo, 1, &action, 4, &[reclaim.clone(), played]);
        assert!(matches!(applied, Outcome::Applied(ActOk { seq: 6, .. })), "{applied:?}");
        assert!(matches!(judge(GameKind::Luddo, 1, &action, 4, &[reclaim]), Outcome::Refused));
    }

    #[test]
    fn a_move_posted_in_another_spelling_is_matched_as_the_table_listed_it() {
        let (state, seat, listed, reordered) = backgammon_play();
        let log = [
            entry(4, None, PlayedBy::Server, json!({}), Some(state)),
            entry(5, Some(seat), PlayedBy::Human, listed.clone(), None),
        ];
        let found = judge(GameKind::Backgammon, seat, &reordered, 4, &log);
        assert!(matches!(found, Outcome::Applied(ActOk { seq: 5, .. })), "{found:?}");
        let other = json!({"type": "double"});
        assert!(matches!(judge(GameKind::Backgammon, seat, &other, 4, &log), Outcome::Refused));
        // Without the state it was posted in, another spelling cannot be told apart.
        let stateless = [entry(5, Some(seat), PlayedBy::Human, listed, None)];
        assert!(matches!(judge(GameKind::Backgammon, seat, &reordered, 4, &stateless), Outcome::Unknown));
    }
}
