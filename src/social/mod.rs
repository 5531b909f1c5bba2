//! Players together (docs/social.md): what the lobby stream tells a player of their friends,
//! challenges and rematch offers, addressed to them alone
//! ([`Feeds::publish_for_players`](crate::table::feeds::Feeds::publish_for_players)); and
//! `challenges.rs`, the challenge workflow over the lobby's tables.

pub mod challenges;

pub use challenges::{ChallengeAsk, ChallengeError, ChallengeView, Challenges};

use crate::{store::Player, table::feeds::Feeds};
use serde::Serialize;
use uuid::Uuid;

/// A player as the social routes and messages name one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlayerRef {
    pub id: Uuid,
    pub name: String,
}

impl From<&Player> for PlayerRef {
    fn from(p: &Player) -> Self {
        Self { id: p.id, name: p.name.clone() }
    }
}

/// What happened between two players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FriendEvent {
    Requested,
    Accepted,
    Removed,
}

/// A lobby stream message addressed to players.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SocialMessage<'a, C: Serialize, R: Serialize> {
    /// A friend request, its acceptance, or the end of a friendship or request; `player` is
    /// the other player.
    Friend { event: FriendEvent, player: &'a PlayerRef },
    /// A challenge naming the recipient changed.
    Challenge { event: ChallengeEvent, challenge: &'a C },
    /// Another player of a finished table voted for a rematch: `rematch` is the standing.
    Rematch { table_id: Uuid, from: &'a PlayerRef, rematch: &'a R },
}

/// What happened to a challenge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeEvent {
    Received,
    Answered,
    Accepted,
    Declined,
    Cancelled,
    Expired,
}

/// Tells `a` and `b` (each of the other) that `event` happened between them.
pub fn tell_friends(feeds: &Feeds, event: FriendEvent, a: &PlayerRef, b: &PlayerRef) {
    for (to, other) in [(a, b), (b, a)] {
        let message: SocialMessage<'_, (), ()> = SocialMessage::Friend { event, player: other };
        feeds.publish_for_players(&[to.id], &message);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_friend_message_names_the_other_player() {
        let player = PlayerRef { id: Uuid::nil(), name: "Ann".into() };
        let message: SocialMessage<'_, (), ()> =
            SocialMessage::Friend { event: FriendEvent::Accepted, player: &player };
        assert_eq!(
            serde_json::to_value(message).unwrap(),
            json!({"type": "friend", "event": "accepted", "player": {"id": Uuid::nil(), "name": "Ann"}})
        );
    }
}
