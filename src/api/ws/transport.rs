//! Moving messages on a WebSocket, whichever it is: one bounded write at a time, pings and the
//! idle close, closing and draining, and the relay of a broadcast to a socket while its
//! client's messages are answered.

use super::protocol::{MessageAnswer, Received};
use crate::{chat::feed::ChatFollow, revocations::TokenWatch, table::Broadcast};
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes};
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use std::{sync::Arc, time::Duration};
use tokio::sync::broadcast::{
    self,
    error::{RecvError, TryRecvError},
};

/// How often the server pings a socket.
pub(super) const PING_EVERY: Duration = Duration::from_secs(20);
/// A socket silent (no message, no pong) this long is closed.
const IDLE_TIMEOUT: Duration = Duration::from_secs(60);
/// Close code for a subscriber that fell too far behind: reconnect with `since`.
pub(super) const CLOSE_LAGGING: u16 = 4008;
/// Longest one write to a socket may wait for the client to read. A client that stops reading
/// fills the TCP buffers and the write blocks; past this the connection is dropped (counted as
/// a disconnect, so the seat's presence and away clock go on), rather than holding its task,
/// its connection slot and the seat's presence forever.
pub(in crate::api) const SEND_TIMEOUT: Duration = Duration::from_secs(10);
/// Longest the server waits for a client to answer its close frame (see [`drain`]).
const CLOSE_WAIT: Duration = Duration::from_secs(5);

/// What serving a WebSocket needs of it: messages from the client in, messages to it out.
/// axum's `WebSocket` is one; the tests drive the sockets through an in-memory one, without
/// a network (as axum's testing-websockets example does).
pub(super) trait Socket:
    Stream<Item = Result<Message, axum::Error>> + Sink<Message, Error = axum::Error> + Unpin
{
}

impl<S> Socket for S where
    S: Stream<Item = Result<Message, axum::Error>> + Sink<Message, Error = axum::Error> + Unpin
{
}

/// Relays live messages to the socket and answers the client's messages with `answer`, until
/// either side ends it; a closed broadcast (the actor stopped) closes the socket with 1012.
pub(super) async fn relay<F, A>(
    socket: &mut impl Socket,
    receiver: &mut broadcast::Receiver<Arc<Broadcast>>,
    since: i64,
    token: &mut TokenWatch,
    chat: &mut ChatFollow,
    answer: F,
) where
    F: FnMut(Received) -> A,
    A: Future<Output = MessageAnswer>,
{
    let mut last = since.max(0);
    if let Relayed::SourceClosed = relay_until(socket, receiver, &mut last, false, token, chat, answer).await
    {
        send(socket, Message::Close(Some(close(1012, "table restarting; reconnect with since")))).await;
    }
}

/// Why [`relay_until`] returned.
pub(super) enum Relayed {
    /// The connection is over (closed, idle, lagging or failed).
    Ended,
    /// The broadcast closed; nothing was sent about it.
    SourceClosed,
    /// (`in_order` only) an entry came after a gap, or a nudge ([`Broadcast::Nudge`]) came,
    /// and nothing was sent: `last` is the latest sent, and what follows it is in the store.
    Gap,
}

/// Relays live messages to the socket, skipping entries up to `last` (and moving it on), and
/// answers the client's messages with `answer`, each read once ([`Received::parse`]), until
/// either side ends it, or the socket's token is revoked or expires (closed with
/// [`CLOSE_TOKEN_ENDED`](crate::revocations::CLOSE_TOKEN_ENDED), or 4403 for a ban). `in_order`: an entry beyond `last + 1` ends it ([`Relayed::Gap`])
/// rather than being sent. What the broadcast already holds for the socket goes out with the
/// message that woke it (and with an answer), in one write ([`write_ready`]).
pub(super) async fn relay_until<F, A>(
    socket: &mut impl Socket,
    receiver: &mut broadcast::Receiver<Arc<Broadcast>>,
    last: &mut i64,
    in_order: bool,
    token: &mut TokenWatch,
    chat: &mut ChatFollow,
    mut answer: F,
) -> Relayed
where
    F: FnMut(Received) -> A,
    A: Future<Output = MessageAnswer>,
{
    // The first ping one period from now. (Not `interval` and a first `tick().await`: that tick
    // is due "now", which a timer only sees pass once the clock moves on, so under tokio's
    // paused clock in tests a new socket relayed nothing until time was advanced.)
    let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + PING_EVERY, PING_EVERY);
    let mut last_heard = tokio::time::Instant::now();
    // The chat the socket missed, once, before anything live.
    for text in chat.take_replay() {
        if !send(socket, Message::Text(text.into())).await {
            return Relayed::Ended;
        }
    }
    // One wait on the token for the whole loop: made anew at every turn, it registered with
    // (and left) the token's watch at every message.
    let ended = token.ended();
    tokio::pin!(ended);
    loop {
        let written = tokio::select! {
            message = receiver.recv() => write_ready(socket, None, Some(message), receiver, last, in_order).await,
            incoming = socket.next() => {
                last_heard = tokio::time::Instant::now();
                let reply = match incoming {
                    // Boxed: an answer may forward the action to another process, a future
                    // of KiBs that every idle socket's task would otherwise carry inline.
                    Some(Ok(Message::Text(text))) => Box::pin(answer(Received::parse(&text))).await,
                    Some(Ok(Message::Binary(_))) => MessageAnswer::invalid_message("send JSON text"),
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => continue,
                };
                // The entries an accepted action made are broadcast before it is answered:
                // they go out with the reply.
                write_ready(socket, Some(reply.to_message()), None, receiver, last, in_order).await
            }
            text = chat.next() => {
                let message = Message::Text(Utf8Bytes::from(text.as_ref()));
                write_ready(socket, Some(message), None, receiver, last, in_order).await
            }
            _ = ping.tick() => if keep_alive(socket, last_heard).await { continue } else { break },
            ended = &mut ended => {
                if send(socket, Message::Close(Some(close(ended.code(), ended.reason())))).await {
                    drain(socket).await;
                }
                break;
            }
        };
        match written {
            Written::Ready => {}
            Written::Failed => break,
            Written::Gap => return Relayed::Gap,
            Written::SourceClosed => return Relayed::SourceClosed,
            Written::Lagging => {
                if send(
                    socket,
                    Message::Close(Some(close(CLOSE_LAGGING, "too far behind; reconnect with since"))),
                )
                .await
                {
                    drain(socket).await;
                }
                break;
            }
        }
    }
    Relayed::Ended
}

/// At most this many bytes of messages go out in one write of [`write_ready`] (the rest wait
/// for the next): what a socket's write buffer holds at most, beyond one message larger than it.
const BATCH_BYTES: usize = 16 * 1024;

/// How [`write_ready`] ended.
enum Written {
    /// Everything ready was sent (or [`BATCH_BYTES`] of it: the rest is still in the broadcast).
    Ready,
    /// The connection is to be dropped: a write failed, or the client stopped reading.
    Failed,
    /// (`in_order` only) the next entry came after a gap, or a nudge came: see [`Relayed::Gap`].
    Gap,
    /// The broadcast closed.
    SourceClosed,
    /// The socket fell [`SUBSCRIBER_QUEUE`](crate::table) messages behind the broadcast.
    Lagging,
}

/// Writes `first` (an answer to the client), then `received` and every message the broadcast
/// already holds for the socket (up to [`BATCH_BYTES`]), skipping entries up to `last` and
/// moving it on, in order, in one flush: one write to the connection, not one a message (an
/// action's entries are broadcast together, and each write is a system call and a TCP segment).
/// The whole write is bounded by [`SEND_TIMEOUT`], as [`send`]'s.
async fn write_ready(
    socket: &mut impl Socket,
    first: Option<Message>,
    received: Option<Result<Arc<Broadcast>, RecvError>>,
    receiver: &mut broadcast::Receiver<Arc<Broadcast>>,
    last: &mut i64,
    in_order: bool,
) -> Written {
    let batch = async {
        let mut fed = false;
        if let Some(message) = first {
            socket.feed(message).await?;
            fed = true;
        }
        let mut bytes = 0;
        let mut next = received;
        let ended = loop {
            let message = match next.take() {
                Some(message) => message,
                None => match receiver.try_recv() {
                    Ok(b) => Ok(b),
                    Err(TryRecvError::Empty) => break Written::Ready,
                    Err(TryRecvError::Lagged(n)) => Err(RecvError::Lagged(n)),
                    Err(TryRecvError::Closed) => Err(RecvError::Closed),
                },
            };
            let b = match message {
                Ok(b) => b,
                Err(RecvError::Lagged(_)) => break Written::Lagging,
                Err(RecvError::Closed) => break Written::SourceClosed,
            };
            let text = match &*b {
                Broadcast::Entry { seq, .. } | Broadcast::Nudge { seq } if *seq <= *last => continue,
                // A nudge (the entries are in the store) ends it too.
                Broadcast::Nudge { .. } if in_order => break Written::Gap,
                Broadcast::Entry { seq, .. } if in_order && *seq > *last + 1 => break Written::Gap,
                // Nothing to send: only the sockets that read the store follow nudges.
                Broadcast::Nudge { .. } => continue,
                Broadcast::Entry { text, .. } | Broadcast::Unlogged(text) => text,
            };
            socket.feed(Message::Text(Utf8Bytes::from(text.as_ref()))).await?;
            fed = true;
            *last = b.seq().unwrap_or(*last);
            bytes += text.len();
            if bytes >= BATCH_BYTES {
                break Written::Ready;
            }
        };
        if fed {
            socket.flush().await?;
        }
        Ok::<_, axum::Error>(ended)
    };
    match tokio::time::timeout(SEND_TIMEOUT, batch).await {
        Ok(Ok(written)) => written,
        Ok(Err(_)) => Written::Failed,
        Err(_) => {
            tracing::debug!("websocket write timed out; dropping the connection");
            Written::Failed
        }
    }
}

/// A ping period has passed: closes the socket with 1001 if the client has been silent for
/// [`IDLE_TIMEOUT`] (since `last_heard`), else pings it. False if the connection is over.
pub(super) async fn keep_alive(socket: &mut impl Socket, last_heard: tokio::time::Instant) -> bool {
    if last_heard.elapsed() > IDLE_TIMEOUT {
        send(socket, Message::Close(Some(close(1001, "idle")))).await;
        return false;
    }
    send(socket, Message::Ping(Default::default())).await
}

/// Sends one message and flushes it, for at most [`SEND_TIMEOUT`]; false if the connection is
/// to be dropped (it failed, or the client stopped reading).
///
/// Every write goes through here or [`write_ready`], one at a time: the relay loop neither reads
/// the client nor takes the next broadcast while a write waits, so what a slow client can make
/// the server hold is one write in the socket's write buffer (one message, or [`BATCH_BYTES`]
/// and one message more), the shared broadcast ring (it is dropped with 4008 once it falls
/// `SUBSCRIBER_QUEUE` messages behind) and the kernel's TCP buffers.
pub(super) async fn send(socket: &mut impl Socket, message: Message) -> bool {
    match tokio::time::timeout(SEND_TIMEOUT, socket.send(message)).await {
        Ok(Ok(())) => true,
        Ok(Err(_)) => false,
        Err(_) => {
            tracing::debug!("websocket write timed out; dropping the connection");
            false
        }
    }
}

/// After our close frame: reads (and drops) what the client still sends until it answers the
/// close, for at most [`CLOSE_WAIT`]. Dropping a socket with unread input makes the kernel
/// reset the connection, and a reset discards what the client has not read yet, close frame
/// included: a client that lagged while it kept sending would never learn to resume with `since`.
pub(super) async fn drain(socket: &mut impl Socket) {
    let _ = tokio::time::timeout(CLOSE_WAIT, async { while let Some(Ok(_)) = socket.next().await {} }).await;
}

/// Sends a close frame with `code` and `reason`; false if the connection is to be dropped.
pub(super) async fn send_close(socket: &mut impl Socket, code: u16, reason: &'static str) -> bool {
    send(socket, Message::Close(Some(close(code, reason)))).await
}

fn close(code: u16, reason: &'static str) -> CloseFrame {
    CloseFrame { code, reason: Utf8Bytes::from_static(reason) }
}

/// An in-memory socket for the tests of every socket: what the client sends comes from a
/// channel; what the server sends is kept, unless the client has stopped reading, when every
/// send waits forever.
#[cfg(test)]
pub(super) mod testing {
    use super::*;
    use std::{
        pin::Pin,
        sync::Mutex,
        task::{Context, Poll},
    };
    use tokio::sync::mpsc;

    pub struct TestSocket {
        incoming: mpsc::UnboundedReceiver<Message>,
        pub sent: Arc<Mutex<Vec<Message>>>,
        /// How many messages had been sent at each flush (each flush is one write).
        pub flushes: Arc<Mutex<Vec<usize>>>,
        reading: bool,
    }

    /// A socket, the client's end of its input, and what the server sent on it.
    pub fn socket(reading: bool) -> (TestSocket, mpsc::UnboundedSender<Message>, Arc<Mutex<Vec<Message>>>) {
        let (client, incoming) = mpsc::unbounded_channel();
        let sent = Arc::default();
        (TestSocket { incoming, sent: Arc::clone(&sent), flushes: Arc::default(), reading }, client, sent)
    }

    impl Stream for TestSocket {
        type Item = Result<Message, axum::Error>;
        fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
            self.incoming.poll_recv(cx).map(|m| m.map(Ok))
        }
    }

    impl Sink<Message> for TestSocket {
        type Error = axum::Error;
        fn poll_ready(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            // A client that stopped reading: the TCP buffers are full and the write never ends.
            if self.reading { Poll::Ready(Ok(())) } else { Poll::Pending }
        }
        fn start_send(self: Pin<&mut Self>, message: Message) -> Result<(), Self::Error> {
            self.sent.lock().unwrap().push(message);
            Ok(())
        }
        fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            self.flushes.lock().unwrap().push(self.sent.lock().unwrap().len());
            Poll::Ready(Ok(()))
        }
        fn poll_close(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Ready(Ok(()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{testing::socket, *};
    use serde_json::{Value, json};
    use std::sync::Mutex;
    use tokio::time::Instant;

    fn entry(seq: i64) -> Arc<Broadcast> {
        Arc::new(Broadcast::Entry { seq, text: format!(r#"{{"type":"entry","seq":{seq}}}"#).into() })
    }

    /// The relay's client-message answers are not under test here.
    async fn no_answer(_: Received) -> MessageAnswer {
        unreachable!("the client sends nothing")
    }

    fn close_code(message: &Message) -> Option<u16> {
        match message {
            Message::Close(Some(frame)) => Some(frame.code),
            _ => None,
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_subscriber_that_falls_behind_is_closed_with_4008_and_drained() {
        let (mut socket, _client, sent) = socket(true);
        let (tx, mut rx) = broadcast::channel(2);
        for seq in 1..=3 {
            tx.send(entry(seq)).unwrap();
        }
        let start = Instant::now();
        relay(&mut socket, &mut rx, 0, &mut TokenWatch::none(), &mut ChatFollow::none(), no_answer).await;
        let sent = sent.lock().unwrap();
        assert_eq!(sent.len(), 1, "{sent:?}");
        assert_eq!(close_code(&sent[0]), Some(CLOSE_LAGGING));
        // The client never answered the close: the server read on for CLOSE_WAIT, then gave up.
        assert_eq!(start.elapsed(), CLOSE_WAIT);
    }

    #[tokio::test(start_paused = true)]
    async fn a_silent_client_is_pinged_then_closed_as_idle() {
        let (mut socket, _client, sent) = socket(true);
        let (_tx, mut rx) = broadcast::channel::<Arc<Broadcast>>(2);
        let start = Instant::now();
        relay(&mut socket, &mut rx, 0, &mut TokenWatch::none(), &mut ChatFollow::none(), no_answer).await;
        let sent = sent.lock().unwrap();
        let pings = sent.iter().filter(|m| matches!(m, Message::Ping(_))).count();
        // Pings at 20, 40 and 60 s (60 s of silence is not yet over the limit), the close at 80 s.
        assert_eq!(pings, 3, "{sent:?}");
        assert_eq!(sent.len(), 4);
        assert_eq!(close_code(&sent[3]), Some(1001));
        assert_eq!(start.elapsed(), PING_EVERY * 4);
    }

    #[tokio::test(start_paused = true)]
    async fn a_client_that_stops_reading_is_dropped_after_the_send_timeout() {
        let (mut socket, _client, sent) = socket(false);
        let (tx, mut rx) = broadcast::channel(2);
        tx.send(entry(1)).unwrap();
        let start = Instant::now();
        relay(&mut socket, &mut rx, 0, &mut TokenWatch::none(), &mut ChatFollow::none(), no_answer).await;
        assert!(sent.lock().unwrap().is_empty());
        assert_eq!(start.elapsed(), SEND_TIMEOUT);
    }

    fn texts(sent: &Mutex<Vec<Message>>) -> Vec<Value> {
        let sent = sent.lock().unwrap();
        sent.iter()
            .filter_map(|m| match m {
                Message::Text(t) => Some(serde_json::from_str(t).unwrap()),
                _ => None,
            })
            .collect()
    }

    #[tokio::test(start_paused = true)]
    async fn entries_up_to_since_are_skipped_and_a_restart_closes_with_1012() {
        let (mut socket, _client, sent) = socket(true);
        let (tx, mut rx) = broadcast::channel(4);
        tx.send(entry(1)).unwrap();
        tx.send(entry(2)).unwrap();
        drop(tx);
        relay(&mut socket, &mut rx, 1, &mut TokenWatch::none(), &mut ChatFollow::none(), no_answer).await;
        assert_eq!(texts(&sent), [json!({"type": "entry", "seq": 2})]);
        assert_eq!(sent.lock().unwrap().last().and_then(close_code), Some(1012));
    }

    #[tokio::test(start_paused = true)]
    async fn the_entries_ready_together_go_out_in_one_write() {
        let (mut socket, _client, sent) = socket(true);
        let flushes = Arc::clone(&socket.flushes);
        let (tx, mut rx) = broadcast::channel(8);
        for seq in 1..=3 {
            tx.send(entry(seq)).unwrap();
        }
        drop(tx);
        relay(&mut socket, &mut rx, 0, &mut TokenWatch::none(), &mut ChatFollow::none(), no_answer).await;
        let seqs: Vec<_> = texts(&sent).iter().map(|t| t["seq"].clone()).collect();
        assert_eq!(seqs, [json!(1), json!(2), json!(3)]);
        // The three entries in one write, then the close (1012) in another.
        assert_eq!(*flushes.lock().unwrap(), [3, 4]);
    }

    #[tokio::test(start_paused = true)]
    async fn an_answer_goes_out_with_the_entries_ready_behind_it() {
        let (mut socket, client, sent) = socket(true);
        let flushes = Arc::clone(&socket.flushes);
        let (tx, mut rx) = broadcast::channel(8);
        client.send(Message::Text(r#"{"type":"ping"}"#.into())).unwrap();
        // What an action's answer finds: its entries broadcast before it is answered.
        let answer = async |_| {
            tx.send(entry(1)).unwrap();
            tx.send(entry(2)).unwrap();
            MessageAnswer::Pong
        };
        let mut last = 0;
        let relayed = tokio::time::timeout(
            PING_EVERY / 2,
            relay_until(
                &mut socket,
                &mut rx,
                &mut last,
                false,
                &mut TokenWatch::none(),
                &mut ChatFollow::none(),
                answer,
            ),
        )
        .await;
        assert!(relayed.is_err(), "the relay goes on");
        assert_eq!(
            texts(&sent),
            [json!({"type": "pong"}), json!({"type": "entry", "seq": 1}), json!({"type": "entry", "seq": 2})]
        );
        assert_eq!(*flushes.lock().unwrap(), [3]);
        assert_eq!(last, 2);
    }

    #[tokio::test(start_paused = true)]
    async fn what_comes_before_a_gap_is_sent_and_the_gap_stops_the_relay() {
        let (mut socket, _client, sent) = socket(true);
        let (tx, mut rx) = broadcast::channel(8);
        for seq in [1, 2, 4] {
            tx.send(entry(seq)).unwrap();
        }
        let mut last = 0;
        let relayed = relay_until(
            &mut socket,
            &mut rx,
            &mut last,
            true,
            &mut TokenWatch::none(),
            &mut ChatFollow::none(),
            no_answer,
        )
        .await;
        assert!(matches!(relayed, Relayed::Gap));
        assert_eq!(last, 2);
        assert_eq!(texts(&sent).len(), 2);
        assert_eq!(*socket.flushes.lock().unwrap(), [2]);
    }

    #[tokio::test(start_paused = true)]
    async fn one_write_holds_at_most_batch_bytes_and_one_message_more() {
        let (mut socket, _client, sent) = socket(true);
        let flushes = Arc::clone(&socket.flushes);
        let (tx, mut rx) = broadcast::channel(8);
        let padding = "x".repeat(BATCH_BYTES / 2);
        for seq in 1..=5 {
            let text = format!(r#"{{"type":"entry","seq":{seq},"padding":"{padding}"}}"#);
            tx.send(Arc::new(Broadcast::Entry { seq, text: text.into() })).unwrap();
        }
        drop(tx);
        relay(&mut socket, &mut rx, 0, &mut TokenWatch::none(), &mut ChatFollow::none(), no_answer).await;
        assert_eq!(texts(&sent).len(), 5);
        // Two messages reach the bound: a write of two, another of two, the last alone, the close.
        assert_eq!(*flushes.lock().unwrap(), [2, 4, 5, 6]);
    }

    #[tokio::test(start_paused = true)]
    async fn each_client_message_gets_one_answer_until_the_client_closes() {
        let (mut socket, client, sent) = socket(true);
        let (_tx, mut rx) = broadcast::channel::<Arc<Broadcast>>(4);
        client.send(Message::Text(r#"{"type":"ping"}"#.into())).unwrap();
        client.send(Message::Binary(Default::default())).unwrap();
        client.send(Message::Close(None)).unwrap();
        relay(&mut socket, &mut rx, 0, &mut TokenWatch::none(), &mut ChatFollow::none(), async |_| {
            MessageAnswer::Pong
        })
        .await;
        assert_eq!(
            texts(&sent),
            [
                json!({"type": "pong"}),
                json!({"type": "error", "code": "invalid_message", "detail": "send JSON text"})
            ]
        );
    }
}
