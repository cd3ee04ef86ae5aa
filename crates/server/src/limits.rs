//! What one client may ask of the server, so that no stranger can take it
//! from the others: games created per client address, actions and chat
//! lines per seat, connections per address, and how long a connection may
//! sit idle. Past a rate limit a request gets `429 Too Many Requests` with
//! `Retry-After`; the defaults never bother a person playing (docs/deploy.md
//! has the figures and the `chesskit serve` flags that change them).

use std::collections::HashMap;
use std::hash::Hash;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, FromRef, FromRequestParts};
use axum::http::request::Parts;
use chesskit_core::session::SAY;
use chesskit_core::Seat;
use tokio::sync::Semaphore;

use crate::error::ApiError;

/// So many events per period, refilled evenly (a token bucket that holds
/// `count`): a burst of `count` passes at once, then one per `period / count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    pub count: u32,
    pub period: Duration,
}

impl Rate {
    pub const fn per_second(count: u32) -> Rate {
        Rate { count, period: Duration::from_secs(1) }
    }

    pub const fn per_minute(count: u32) -> Rate {
        Rate { count, period: Duration::from_secs(60) }
    }

    /// How long one event takes to grow back.
    fn refill(self) -> Duration {
        self.period / self.count.max(1)
    }
}

/// The limits a server enforces. [`Limits::default`] is what `chesskit
/// serve` uses unless told otherwise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Games created from one client address.
    pub games_created: Rate,
    /// Moves and other game actions of one seat, per second and per minute.
    pub actions: [Rate; 2],
    /// Chat lines of one seat, per second and per minute.
    pub chat: [Rate; 2],
    /// Open connections (HTTP and WebSocket) from one client address.
    pub connections_per_address: usize,
    /// Open connections in all; past it new ones are turned away at once.
    pub connections: usize,
    /// How long a client may take to send a request's headers, and how
    /// long a kept-alive connection may wait for its next request.
    pub header_timeout: Duration,
    /// How long a request refused with 429 waits for its answer, its
    /// connection held meanwhile (and counted against its address's
    /// cap): a client that keeps asking past a limit gets a few answers a
    /// second per connection instead of thousands, each costing the
    /// server a request's work, while a person who meets a limit loses
    /// nothing (its `Retry-After` asks for a longer wait anyway).
    pub refusal_delay: Duration,
    /// How long a WebSocket may stay silent (a ping is sent at a third of
    /// it; a browser answers pings by itself).
    pub socket_idle: Duration,
    /// Games in which every seat is a computer's, playing at once; others
    /// wait for a place (and every such game pauses while nobody watches).
    pub computer_games: usize,
    /// Computer players thinking at once, in all games; the others wait
    /// their turn. By default one fewer than the processor's cores (at
    /// least one), so that a core is always left for people's actions.
    pub thinkers: usize,
    /// How long a game may go unused (no action, no look, no socket, no
    /// computer thinking, no clock running) before it leaves memory; it is
    /// read back from the store when next asked for.
    pub idle_game: Duration,
    /// Whether the client's address is read from `X-Forwarded-For` when
    /// the connection comes from this computer (a reverse proxy here).
    pub trust_proxy: bool,
    /// Analyses of finished games' deals searched for one client address
    /// (an answer already cached is not counted: it costs nothing).
    pub analyses: Rate,
    /// The most nodes the analysis of one deal may search: the server's
    /// own bound, which no request can raise, so that an analysis takes
    /// a few seconds of one thinker's place at most.
    pub analysis_nodes: u64,
    /// Seats of open challenges taken from one client address (docs/api.md,
    /// "The lobby"): each take hands out a seat, so a stranger cannot empty
    /// the lobby in one go.
    pub seats_taken: Rate,
    /// How long an open challenge waits in the lobby for its players; an
    /// older one is no longer listed (its creator has most likely gone).
    pub challenge_wait: Duration,
}

/// The default node bound of an analysis: about 1.4 s of one core's
/// time (10 million nodes of the Neighbour solver took 1.39 s of CPU on
/// the team's 2-core machine on 2026-11-28, release build; 16 s by the
/// wall clock with the machine's load at 19). Most deals are proven far
/// sooner (seeds 1, 2, 5, 6, 7 within 400 000 nodes).
pub const ANALYSIS_NODES: u64 = 10_000_000;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            games_created: Rate::per_minute(30),
            actions: [Rate::per_second(10), Rate::per_minute(300)],
            chat: [Rate::per_second(3), Rate::per_minute(30)],
            connections_per_address: 64,
            connections: 4096,
            header_timeout: Duration::from_secs(10),
            refusal_delay: Duration::from_secs(1),
            socket_idle: Duration::from_secs(90),
            computer_games: 8,
            thinkers: std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).max(1)),
            idle_game: Duration::from_secs(600),
            trust_proxy: false,
            analyses: Rate::per_minute(6),
            analysis_nodes: ANALYSIS_NODES,
            seats_taken: Rate::per_minute(20),
            challenge_wait: Duration::from_secs(3600),
        }
    }
}

impl Limits {
    /// These limits with the rates and connection caps lifted, for a
    /// load generator that plays ten thousand games from one address
    /// (the benchmarks); the timeouts stay.
    pub fn lifted(self) -> Limits {
        let many = Rate::per_second(u32::MAX);
        Limits {
            games_created: many,
            actions: [many, many],
            chat: [many, many],
            connections_per_address: usize::MAX,
            connections: usize::MAX,
            analyses: many,
            seats_taken: many,
            ..self
        }
    }
}

/// One key's buckets: how full each was at `at`.
#[derive(Clone, Debug)]
struct Buckets {
    level: Vec<f64>,
    at: Instant,
}

/// Counts events per key against a set of rates; a refused event takes
/// nothing, so a client that waits `Retry-After` gets through.
pub struct RateLimiter<K> {
    rates: Vec<Rate>,
    keys: Mutex<Keys<K>>,
}

/// The keys' buckets, and how many there may be before the idle ones
/// (whose buckets have refilled, so forgetting them changes nothing) are
/// swept out.
struct Keys<K> {
    buckets: HashMap<K, Buckets>,
    sweep_at: usize,
}

/// The fewest keys kept before a sweep. After one, the next waits until
/// the map has doubled, so that with many clients busy at once a new key
/// does not pay for a scan of them all.
const SWEEP_AT: usize = 4096;

impl<K: Eq + Hash + Clone> RateLimiter<K> {
    pub fn new(rates: &[Rate]) -> RateLimiter<K> {
        RateLimiter { rates: rates.to_vec(), keys: Mutex::new(Keys { buckets: HashMap::new(), sweep_at: SWEEP_AT }) }
    }

    /// Count one event of `key` at `now`, or say how long to wait.
    pub fn take(&self, key: &K, now: Instant) -> Result<(), Duration> {
        let mut keys = self.keys.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let Keys { buckets: map, sweep_at } = &mut *keys;
        if map.len() >= *sweep_at && !map.contains_key(key) {
            map.retain(|_, buckets| !self.refilled(buckets, now));
            *sweep_at = (2 * map.len()).max(SWEEP_AT);
        }
        let buckets = map
            .entry(key.clone())
            .or_insert_with(|| Buckets { level: self.rates.iter().map(|r| f64::from(r.count)).collect(), at: now });
        self.refill(buckets, now);
        let mut wait = Duration::ZERO;
        for (rate, level) in self.rates.iter().zip(&buckets.level) {
            if *level < 1.0 {
                wait = wait.max(rate.refill().mul_f64(1.0 - level));
            }
        }
        if !wait.is_zero() {
            return Err(wait);
        }
        buckets.level.iter_mut().for_each(|level| *level -= 1.0);
        Ok(())
    }

    /// The number of keys remembered now.
    pub fn keys(&self) -> usize {
        self.keys.lock().map(|keys| keys.buckets.len()).unwrap_or(0)
    }

    fn refill(&self, buckets: &mut Buckets, now: Instant) {
        let elapsed = now.saturating_duration_since(buckets.at).as_secs_f64();
        for (rate, level) in self.rates.iter().zip(buckets.level.iter_mut()) {
            let grown = elapsed * f64::from(rate.count) / rate.period.as_secs_f64();
            *level = (*level + grown).min(f64::from(rate.count));
        }
        buckets.at = now;
    }

    fn refilled(&self, buckets: &Buckets, now: Instant) -> bool {
        let mut copy = buckets.clone();
        self.refill(&mut copy, now);
        self.rates.iter().zip(&copy.level).all(|(rate, level)| *level >= f64::from(rate.count))
    }
}

/// What enforces a server's [`Limits`]: its rate limiters, and the
/// places for computers to play and think.
pub struct Guard {
    pub limits: Limits,
    games_created: RateLimiter<IpAddr>,
    actions: RateLimiter<(String, Seat)>,
    chat: RateLimiter<(String, Seat)>,
    analyses: RateLimiter<IpAddr>,
    seats_taken: RateLimiter<IpAddr>,
    /// Places for games of computers alone to play at once ([`Limits::computer_games`]).
    pub computer_games: Arc<Semaphore>,
    /// Places for computer players to think at once, in any game ([`Limits::thinkers`]).
    pub thinkers: Arc<Semaphore>,
}

impl Default for Guard {
    fn default() -> Guard {
        Guard::new(Limits::default())
    }
}

impl Guard {
    pub fn new(limits: Limits) -> Guard {
        Guard {
            games_created: RateLimiter::new(&[limits.games_created]),
            actions: RateLimiter::new(&limits.actions),
            chat: RateLimiter::new(&limits.chat),
            analyses: RateLimiter::new(&[limits.analyses]),
            seats_taken: RateLimiter::new(&[limits.seats_taken]),
            computer_games: Arc::new(Semaphore::new(limits.computer_games)),
            thinkers: Arc::new(Semaphore::new(limits.thinkers.max(1))),
            limits,
        }
    }

    /// A game created by `client`. Requests that came through no socket
    /// (a test or a program driving the router in process) have no address
    /// and no limits: only a network peer can be a stranger.
    pub fn create_game(&self, client: Option<IpAddr>) -> Result<(), ApiError> {
        let Some(client) = client else { return Ok(()) };
        self.games_created.take(&client, Instant::now()).map_err(|wait| {
            too_many(format!("at most {} new games a minute from one address", self.limits.games_created.count), wait)
        })
    }

    /// A seat of an open challenge taken by `client`. Like
    /// [`Guard::create_game`], a request through no socket is not counted.
    pub fn take_seat(&self, client: Option<IpAddr>) -> Result<(), ApiError> {
        let Some(client) = client else { return Ok(()) };
        self.seats_taken.take(&client, Instant::now()).map_err(|wait| {
            too_many(format!("at most {} seats taken a minute from one address", self.limits.seats_taken.count), wait)
        })
    }

    /// An analysis searched for `client` (not one read from the cache).
    /// Like [`Guard::create_game`], a request through no socket is not counted.
    pub fn analyse(&self, client: Option<IpAddr>) -> Result<(), ApiError> {
        let Some(client) = client else { return Ok(()) };
        self.analyses.take(&client, Instant::now()).map_err(|wait| {
            too_many(format!("at most {} analyses a minute from one address", self.limits.analyses.count), wait)
        })
    }

    /// An action `text` sent by a person in `seat` of game `id` from
    /// `client` (computers act through the server itself and are not
    /// counted, nor is a request that came through no socket).
    pub fn act(&self, client: Option<IpAddr>, id: &str, seat: Seat, text: &str) -> Result<(), ApiError> {
        if client.is_none() {
            return Ok(());
        }
        let key = (id.to_string(), seat);
        let now = Instant::now();
        if is_chat(text) {
            let [second, minute] = self.limits.chat;
            self.chat.take(&key, now).map_err(|wait| {
                too_many(format!("at most {} chat lines a second and {} a minute", second.count, minute.count), wait)
            })
        } else {
            let [second, minute] = self.limits.actions;
            self.actions.take(&key, now).map_err(|wait| {
                too_many(format!("at most {} actions a second and {} a minute", second.count, minute.count), wait)
            })
        }
    }
}

/// Whether an action text is a chat line (`say ...`).
fn is_chat(text: &str) -> bool {
    let text = text.trim_start();
    text.strip_prefix(SAY).is_some_and(|rest| rest.is_empty() || rest.starts_with(char::is_whitespace))
}

fn too_many(what: String, wait: Duration) -> ApiError {
    let seconds = wait.as_secs_f64().ceil().max(1.0) as u64;
    ApiError::TooManyRequests {
        message: format!("too many requests: {what}; try again in {seconds} s"),
        retry_after: seconds,
    }
}

/// The client address of a request (see [`client_address`]); none for a
/// request that came through no socket.
pub struct ClientAddress(pub Option<IpAddr>);

/// Read from any router state that holds the [`Guard`] (whether to trust a
/// proxy's `X-Forwarded-For` is one of its limits).
impl<S: Send + Sync> FromRequestParts<S> for ClientAddress
where
    Arc<Guard>: FromRef<S>,
{
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let peer = parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|ConnectInfo(peer)| peer.ip());
        let forwarded = parts.headers.get("x-forwarded-for").and_then(|value| value.to_str().ok());
        let trust_proxy = Arc::<Guard>::from_ref(state).limits.trust_proxy;
        Ok(ClientAddress(client_address(peer, forwarded, trust_proxy)))
    }
}

/// Who a request comes from: the socket's peer, or with `trust_proxy`
/// and a peer on this computer, the last address of `X-Forwarded-For`
/// (the one the proxy itself added).
pub fn client_address(peer: Option<IpAddr>, forwarded_for: Option<&str>, trust_proxy: bool) -> Option<IpAddr> {
    let peer = peer?;
    if !(trust_proxy && peer.is_loopback()) {
        return Some(peer);
    }
    let last = forwarded_for.and_then(|list| list.rsplit(',').next()).map(str::trim);
    Some(last.and_then(|text| text.parse().ok()).unwrap_or(peer))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_passes_then_one_event_per_refill_period() {
        let limiter = RateLimiter::new(&[Rate::per_second(3)]);
        let start = Instant::now();
        for _ in 0..3 {
            assert_eq!(limiter.take(&"a", start), Ok(()));
        }
        let wait = limiter.take(&"a", start).unwrap_err();
        assert!(wait > Duration::from_millis(300) && wait <= Duration::from_millis(334), "{wait:?}");
        assert_eq!(limiter.take(&"b", start), Ok(()), "another key has its own bucket");
        assert_eq!(limiter.take(&"a", start + Duration::from_millis(340)), Ok(()), "one event grew back");
        assert!(limiter.take(&"a", start + Duration::from_millis(340)).is_err());
    }

    #[test]
    fn a_refused_event_takes_nothing() {
        let limiter = RateLimiter::new(&[Rate::per_second(1)]);
        let start = Instant::now();
        limiter.take(&1, start).unwrap();
        for _ in 0..100 {
            assert!(limiter.take(&1, start).is_err());
        }
        assert_eq!(limiter.take(&1, start + Duration::from_secs(1)), Ok(()), "the refusals did not dig deeper");
    }

    #[test]
    fn the_slowest_rate_says_how_long_to_wait() {
        let limiter = RateLimiter::new(&[Rate::per_second(10), Rate::per_minute(12)]);
        let start = Instant::now();
        for i in 0..12 {
            let at = start + Duration::from_millis(200 * i);
            assert_eq!(limiter.take(&(), at), Ok(()), "event {i}");
        }
        let wait = limiter.take(&(), start + Duration::from_millis(2400)).unwrap_err();
        // 12 taken in 2.4 s, 0.48 grown back: the next whole one in 0.52 of 5 s.
        assert!(
            (2590..=2610).contains(&wait.as_millis()),
            "the minute's bucket is empty, the second's is not: {wait:?}"
        );
    }

    #[test]
    fn keys_whose_buckets_refilled_are_forgotten_so_memory_stays_bounded() {
        let limiter = RateLimiter::new(&[Rate::per_second(5)]);
        let start = Instant::now();
        for key in 0..SWEEP_AT {
            limiter.take(&key, start).unwrap();
        }
        assert_eq!(limiter.keys(), SWEEP_AT);
        limiter.take(&usize::MAX, start + Duration::from_secs(2)).unwrap();
        assert_eq!(limiter.keys(), 1, "every idle key was swept out");
    }

    #[test]
    fn with_many_clients_busy_a_sweep_waits_until_the_keys_have_doubled() {
        let limiter = RateLimiter::new(&[Rate::per_minute(5)]);
        let start = Instant::now();
        for key in 0..SWEEP_AT {
            limiter.take(&key, start).unwrap();
        }
        // None has refilled: the sweep forgets nothing, and the next waits for twice as many.
        limiter.take(&SWEEP_AT, start).unwrap();
        assert_eq!(limiter.keys.lock().unwrap().sweep_at, 2 * SWEEP_AT);
        for key in SWEEP_AT + 1..2 * SWEEP_AT {
            limiter.take(&key, start).unwrap();
        }
        assert_eq!(limiter.keys(), 2 * SWEEP_AT, "no sweep before the doubled mark");
        limiter.take(&usize::MAX, start + Duration::from_secs(60)).unwrap();
        assert_eq!(limiter.keys(), 1, "then every idle key goes");
    }

    #[test]
    fn chat_lines_and_moves_are_counted_apart() {
        let guard = Guard::new(Limits { chat: [Rate::per_second(1), Rate::per_minute(10)], ..Limits::default() });
        let client = Some("192.0.2.7".parse().unwrap());
        guard.act(client, "g", 0, "say hello").unwrap();
        let refused = guard.act(client, "g", 0, "say again").unwrap_err();
        assert_eq!(refused.status().as_u16(), 429);
        assert!(refused.message().contains("chat lines"), "{}", refused.message());
        guard.act(client, "g", 0, "e2e4").expect("a move is not a chat line");
        guard.act(client, "g", 1, "say hi").expect("another seat has its own count");
        guard.act(client, "h", 0, "say hi").expect("another game has its own count");
        guard.act(None, "g", 0, "say hi").expect("no socket, no stranger");
        assert!(!is_chat("sayonara") && is_chat("  say  x") && is_chat("say"));
    }

    #[test]
    fn games_created_without_a_socket_are_not_counted() {
        let guard = Guard::new(Limits { games_created: Rate::per_minute(1), ..Limits::default() });
        let client = Some("192.0.2.7".parse().unwrap());
        guard.create_game(client).unwrap();
        let refused = guard.create_game(client).unwrap_err();
        assert!(refused.message().contains("try again in"), "{}", refused.message());
        for _ in 0..5 {
            guard.create_game(None).unwrap();
        }
    }

    #[test]
    fn analyses_are_counted_per_address_and_not_without_a_socket() {
        let guard = Guard::new(Limits { analyses: Rate::per_minute(2), ..Limits::default() });
        let client = Some("192.0.2.7".parse().unwrap());
        guard.analyse(client).unwrap();
        guard.analyse(client).unwrap();
        let refused = guard.analyse(client).unwrap_err();
        assert_eq!(refused.status().as_u16(), 429);
        assert!(refused.message().contains("at most 2 analyses a minute"), "{}", refused.message());
        guard.analyse(Some("192.0.2.8".parse().unwrap())).expect("another address has its own count");
        guard.analyse(None).expect("no socket, no stranger");
    }

    #[test]
    fn a_proxy_on_this_computer_names_the_client_only_when_trusted() {
        let loopback: IpAddr = "127.0.0.1".parse().unwrap();
        let outside: IpAddr = "198.51.100.4".parse().unwrap();
        let header = Some("203.0.113.9, 198.51.100.4");
        assert_eq!(client_address(Some(loopback), header, true), Some(outside), "the proxy's own entry is last");
        assert_eq!(client_address(Some(loopback), header, false), Some(loopback));
        assert_eq!(client_address(Some(outside), header, true), Some(outside), "only a local proxy is believed");
        assert_eq!(client_address(Some(loopback), Some("nonsense"), true), Some(loopback));
        assert_eq!(client_address(None, header, true), None);
    }
}
