//! The table options of an Uckers game (RULES.md §5, "Options beyond the basics").

use serde::{Deserialize, Serialize};

/// Options chosen when the table is created. Unknown fields are refused; every field has the
/// house default, so `{}` is a valid table.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct UckersOptions {
    /// What snake eyes (double 1) on a player's first throw does.
    #[schemars(title = "Snake eyes")]
    pub snake_eyes: SnakeEyes,
    /// Three or more pieces of one colour on a track square cannot move.
    #[schemars(title = "superblobs")]
    pub superblobs: bool,
    /// A mixed blob is a stack: only the piece that arrived last may move.
    #[schemars(title = "mixed blob stacking")]
    pub mixed_blob_stacking: bool,
    /// WAFU: a piece at the mouth of an opponent's pipe may try to suck a piece out of it.
    #[schemars(title = "suck back")]
    pub suck_back: bool,
    /// WAFU: a piece in the pipe may try to blow away an opponent at the pipe's mouth.
    #[schemars(title = "blow back")]
    pub blow_back: bool,
    /// A player needing one throw to win may declare a stand-up finish.
    #[schemars(title = "stand up finish")]
    pub stand_up_finish: bool,
}

/// The snake-eyes rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SnakeEyes {
    /// Double 1 is an ordinary throw.
    Off,
    /// On a player's first throw: all the player's and the partner's pieces come out; snake
    /// eyes again on the player's second throw sends the player's pieces back to base.
    #[default]
    Navy,
    /// As navy, but only for a player who called "snake eyes" before the first throw, and only
    /// the player's own pieces come out.
    Wafu,
}
