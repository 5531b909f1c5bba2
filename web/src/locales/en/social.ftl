# Players together (docs/social.md): the friends page, a profile's buttons, challenges, the
# report dialog, the lobby's offers and the table's chat.

## Dialogs

dialog-cancel = Cancel

## Friends (#/friends)

friends-title = Friends
friends-add-title = Add a friend
friends-add-id = Player id
friends-add-submit = Send a request
friends-add-hint = A player's id is the end of their profile's address (#/p/…); "Add friend" on a profile does the same.
friends-list-title = Your friends
friends-column-player = Player
friends-column-online = Online
friends-column-table = Table
friends-column-actions = Actions
friends-online = online
friends-offline = offline
# A link to the public table a friend sits at.
friends-watch = Watch ({ $game })
friends-challenge = Challenge
friends-remove = Remove
friends-none = No friends yet: ask someone from their profile or by their id.
friends-incoming-title = Requests to you
friends-outgoing-title = Your requests
friends-accept = Accept
friends-decline = Decline
friends-withdraw = Withdraw
friends-requested = Request sent to { $name }.
friends-now = You and { $name } are friends now.
blocked-title = Blocked players
blocked-unblock = Unblock

## Challenges

challenges-title = Challenges
challenges-incoming = To you
challenges-outgoing = From you
challenge-title = Challenge
# $players: the names of the players challenged.
challenge-to = A private table with { $players }.
challenge-also = Invite more friends
challenge-no-room = This game has no table for so many players: choose another game or fewer players.
challenge-expiry = Waits for an answer
challenge-expiry-minutes = { $minutes ->
    [one] { $minutes } minute
   *[other] { $minutes } minutes
}
challenge-hint = The table opens at the first acceptance and starts when every seat is taken.
challenge-send = Send the challenge
challenge-sent = Challenge sent to { $players }.
challenge-incoming = { $player } challenges you: { $game }, { $seats } seats, until { $until }.
challenge-outgoing = { $game }, { $seats } seats, to { $players }, until { $until }.
challenge-answer-pending = waiting
challenge-answer-accepted = accepted
challenge-answer-declined = declined
challenge-accept = Accept
challenge-decline = Decline
challenge-withdraw = Withdraw
challenge-accepted-by = { $players } accepted your challenge.
challenge-accepted-said = Your challenge was accepted: its table is open.
challenge-open-table = Open the table
# Said in the lobby's live region when a challenge comes.
challenge-received = { $name } challenges you.

## The lobby's offers

lobby-offers = Challenges and rematches
rematch-offer = { $player } wants a rematch.
rematch-offer-said = { $name } wants a rematch.
rematch-open = Open the table

## A profile's buttons for another player

profile-actions = With this player
profile-add-friend = Add friend
profile-block = Block
profile-report = Report
profile-blocked = { $name } is blocked.

## Reports

report-title = Report
report-player = Report { $player } to the moderators.
report-message = Report this message of { $player } to the moderators.
report-reason = Why?
report-send = Send the report
report-sent = Thank you: the moderators will look at it.

## The table's chat

chat-title = Chat
chat-none = No messages yet.
# A message in the live region: a player's name and what they wrote.
chat-said = { $name }: { $text }
chat-report-message = Report the message of { $name }
chat-report-player = Report { $name }
chat-report = Report
chat-spectator = Players chat here; spectators read along when the host allows it.
chat-host-settings = Your table's chat
chat-text-on = Free text
chat-spectators = Spectators may read
chat-emotes = Quick emotes
chat-input = Message
chat-placeholder = Say something…
chat-send = Send
chat-text-off = The host turned free text off: quick emotes only.
chat-players = Players
chat-mute = Mute
chat-unmute = Unmute
chat-muted = Muted: their messages are no longer shown to you.
chat-unmuted = Unmuted.
emote-hello = Hello!
emote-good_luck = Good luck!
emote-well_played = Well played!
emote-good_game = Good game!
emote-thanks = Thanks!
emote-oops = Oops!
emote-wow = Wow!
emote-sorry = Sorry!
emote-hurry_up = Hurry up!
emote-nice_roll = Nice roll!
