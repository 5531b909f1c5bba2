//! The `luddo` binary: `luddo` (or `luddo serve`) reads the configuration, opens the store and
//! serves until Ctrl-C or SIGTERM. `luddo healthcheck` asks a running server's `/health` (for
//! container health checks, so the runtime image needs no curl). `luddo verify` checks a
//! finished table's dice (docs/fairness.md). `luddo --help`, `luddo --version`.

use luddo::{
    AppState,
    config::Config,
    store::{Store, StoreError},
};
use std::time::Duration;
use tracing_subscriber::EnvFilter;

/// How long start-up waits for the database (docker-compose may start both at once).
const DATABASE_WAIT: Duration = Duration::from_secs(60);

/// mimalloc: the server allocates many small, short-lived JSON values per action across threads;
/// glibc's malloc spent a quarter of the server's time under load (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The command line. Settings are environment variables (listed in `--help`), so that one
/// configuration serves the binary, docker-compose and the tests alike.
#[derive(Debug, clap::Parser)]
#[command(name = "luddo", version, about = "Luddo: a game server for online Ludo-family dice games.")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Serve the HTTP and WebSocket API until Ctrl-C or SIGTERM (what `luddo` alone does).
    Serve,
    /// Ask the server at LUDDO_ADDR for /health; exit 0 when it answers 200 (for container
    /// health checks: the runtime image needs no curl).
    Healthcheck,
    /// Write a consistent copy of the SQLite database (DATABASE_URL or LUDDO_DATA_DIR) to a new
    /// file, while a server may be running on it; restore by pointing LUDDO_DATA_DIR at a
    /// directory holding the copy as luddo.db. For PostgreSQL use pg_dump.
    Backup {
        /// Where to write the copy; must not exist yet.
        destination: std::path::PathBuf,
    },
    /// Check a finished table's dice against its commitment (docs/fairness.md) and its record
    /// against the server's signed history (docs/history.md); exit 0 only when every check holds.
    Verify {
        /// A table's JSON record saved in a file (GET /v1/tables/<id>/record?format=json), or the
        /// table's URL (http://host:port/v1/tables/<id>).
        source: String,
        /// Bearer token, for a private table's URL.
        #[arg(long)]
        token: Option<String>,
        /// Also save what was fetched to this file.
        #[arg(long)]
        save: Option<std::path::PathBuf>,
        /// The table's history proof saved in a file (GET /v1/tables/<id>/history); with a URL
        /// it is fetched (docs/history.md).
        #[arg(long)]
        history: Option<std::path::PathBuf>,
        /// The server's history public key (hex) the checkpoint must be signed with; with a URL
        /// it is fetched from /.well-known/luddo-history-key.
        #[arg(long)]
        key: Option<String>,
    },
    /// Grant or take the admin role (moderation: docs/social.md) on the database the server
    /// uses (DATABASE_URL or LUDDO_DATA_DIR); logged in the moderation log. The role is
    /// given here only, never by an API call.
    Admin {
        #[command(subcommand)]
        change: AdminChange,
    },
    /// Print the OpenAPI document the server serves at /openapi.json (openapi/openapi.json is
    /// this output: `luddo openapi > openapi/openapi.json`).
    Openapi,
    /// Print the AsyncAPI document of the WebSockets the server serves at /asyncapi.json
    /// (asyncapi/asyncapi.json is this output: `luddo asyncapi > asyncapi/asyncapi.json`).
    Asyncapi,
}

#[derive(Debug, clap::Subcommand)]
enum AdminChange {
    /// Make the player an admin.
    Grant {
        /// The player's id (GET /v1/players/me shows it).
        player_id: uuid::Uuid,
    },
    /// Take the admin role from the player.
    Revoke {
        /// The player's id.
        player_id: uuid::Uuid,
    },
}

fn main() {
    no_transparent_huge_pages();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build();
    match runtime {
        Ok(runtime) => runtime.block_on(run_command_line()),
        Err(e) => {
            eprintln!("luddo: cannot start the async runtime: {e}");
            std::process::exit(1);
        }
    }
}

/// Turns transparent huge pages off for this process, before the runtime's threads allocate.
/// mimalloc asks for them (`madvise(MADV_HUGEPAGE)` on its arena), and the heap of thousands of
/// idle tables is small blocks spread thinly over it: each 2 MiB page the kernel gives stays
/// resident whole. With them an idle 4-seat table cost 42.9 KiB of the server's RSS in a
/// 2,000-table hold, without 36.2 (BENCHMARKS.md, "An idle table's memory").
fn no_transparent_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE takes integer arguments and touches no memory of ours.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

async fn run_command_line() {
    use clap::{CommandFactory, FromArgMatches};
    let after_help = format!(
        "Settings are environment variables, all optional (README.md, \"Configuration\"):\n  {}",
        luddo::config::VARIABLES.join(", ")
    );
    let matches = Cli::command().after_help(after_help).get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let result = match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => run().await,
        Command::Healthcheck => healthcheck().await,
        Command::Backup { destination } => backup(&destination).await,
        Command::Verify { source, token, save, history, key } => {
            verify(source, token, save, history, key).await
        }
        Command::Admin { change } => admin(change).await,
        Command::Openapi => {
            print!("{}", luddo::api::openapi::spec_text());
            Ok(())
        }
        Command::Asyncapi => {
            print!("{}", luddo::api::asyncapi::document_text());
            Ok(())
        }
    };
    if let Err(e) = result {
        eprintln!("luddo: {e}");
        std::process::exit(1);
    }
}

async fn run() -> Result<(), Box<dyn std::error::Error>> {
    let mut config = Config::from_env()?;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    if config.log_json {
        tracing_subscriber::fmt().json().with_env_filter(filter).init();
    } else {
        tracing_subscriber::fmt().with_env_filter(filter).init();
    }
    if config.test_mode {
        tracing::warn!("LUDDO_TEST_MODE is on: tables may be created with scripted dice");
    }
    if let Some(files) = luddo::api::connections::raise_open_files_limit() {
        tracing::info!(open_files = files, "open-files limit");
    }
    // The history's signing key: LUDDO_SIGNING_KEY, else the one kept in the data directory.
    if config.signing_key.is_none() {
        config.signing_key = Some(luddo::history::key_from_data_dir(&config.data_dir)?);
    }
    if config.signing_key == Some([0; 32]) {
        tracing::warn!(
            "LUDDO_SIGNING_KEY is .env.example's zeros: anyone can sign checkpoints as this server; set a key of your own"
        );
    }
    // Held while the server runs: the data directory's instance slot stays this process's.
    let _instance = (!config.instance_id_given).then(|| luddo::instance::claim(&config.data_dir));
    match &_instance {
        Some(Ok(instance)) => config.instance_id = instance.id.clone(),
        Some(Err(e)) => tracing::warn!(
            error = %e,
            "no instance id can be kept in the data directory: a random one is used, and after a crash this server waits for its old lease to run out"
        ),
        None => {}
    }
    tracing::info!(instance = %config.instance_id, "instance id");
    let net = luddo::bots::backgammon::load_network().map_err(|e| format!("the backgammon network: {e}"))?;
    tracing::info!(hidden_units = net.hidden(), "backgammon network loaded");
    let store = open_store(&config.database_url(), config.database_connections).await?;
    tracing::info!(backend = ?store.backend(), "store ready");
    let listener = tokio::net::TcpListener::bind(config.addr).await?;
    tracing::info!(addr = %listener.local_addr()?, "serving");
    let state = AppState::new(store.clone(), config);
    luddo::serve(listener, state, shutdown_signal()).await?;
    store.close().await;
    tracing::info!("stopped");
    Ok(())
}

/// Opens the store, waiting for a database that is still starting; a failure that waiting cannot
/// mend (a certificate that does not verify, TLS the server refuses, a bad URL, a refused login,
/// a database that does not exist) ends start-up at once with its cause.
async fn open_store(url: &str, connections: u32) -> Result<Store, StoreError> {
    let deadline = tokio::time::Instant::now() + DATABASE_WAIT;
    loop {
        match Store::open_with(url, connections).await {
            Err(StoreError::Unavailable(e))
                if still_starting(&e) && tokio::time::Instant::now() < deadline =>
            {
                tracing::warn!(error = %e, "database not reachable yet; retrying");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            other => return other,
        }
    }
}

/// Whether `e` is what a database that is starting (or a network coming up) gives: nothing
/// listening yet, a connection cut, a timeout, "the database system is starting up". TLS and
/// certificate failures, which sqlx reports as I/O errors with invalid data, are not.
fn still_starting(e: &sqlx::Error) -> bool {
    use std::io::ErrorKind;
    match e {
        sqlx::Error::Io(io) => !matches!(io.kind(), ErrorKind::InvalidData | ErrorKind::InvalidInput),
        sqlx::Error::PoolTimedOut => true,
        sqlx::Error::Database(db) => db.code().is_some_and(|c| c.starts_with("08") || c == "57P03"),
        _ => false,
    }
}

/// `luddo backup`: copies the configured SQLite database to `destination`.
async fn backup(destination: &std::path::Path) -> Result<(), Box<dyn std::error::Error>> {
    if destination.exists() {
        return Err(format!("{} exists already; name a new file", destination.display()).into());
    }
    let config = Config::from_env()?;
    let store = Store::open(&config.database_url()).await?;
    let copied = store.backup_to(destination).await;
    store.close().await;
    if !copied? {
        return Err("the database is PostgreSQL: back it up with pg_dump".into());
    }
    println!("backed up to {}", destination.display());
    Ok(())
}

/// `luddo admin grant|revoke <player-id>`.
async fn admin(change: AdminChange) -> Result<(), Box<dyn std::error::Error>> {
    use luddo::store::{Moderation, ModerationAction};
    let (action, player) = match change {
        AdminChange::Grant { player_id } => (ModerationAction::GrantAdmin, player_id),
        AdminChange::Revoke { player_id } => (ModerationAction::RevokeAdmin, player_id),
    };
    let config = Config::from_env()?;
    let store = Store::open(&config.database_url()).await?;
    let change =
        Moderation { player: Some(player), ..Moderation::new(None, action, luddo::clock::now_millis()) };
    let done = store.set_admin(&change).await;
    store.close().await;
    if !done? {
        return Err(format!("no player {player}").into());
    }
    match action {
        ModerationAction::GrantAdmin => println!("{player} is an admin"),
        _ => println!("{player} is no longer an admin"),
    }
    Ok(())
}

/// `GET /health` on the configured address; Ok when it answers 200.
async fn healthcheck() -> Result<(), Box<dyn std::error::Error>> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut addr = Config::from_env()?.addr;
    if addr.ip().is_unspecified() {
        addr.set_ip([127, 0, 0, 1].into());
    }
    let check = async {
        let mut stream = tokio::net::TcpStream::connect(addr).await?;
        stream.write_all(b"GET /health HTTP/1.0\r\nHost: localhost\r\n\r\n").await?;
        let mut head = [0u8; 12];
        stream.read_exact(&mut head).await?;
        Ok::<_, std::io::Error>(head)
    };
    let head = tokio::time::timeout(Duration::from_secs(3), check).await??;
    if head.starts_with(b"HTTP/1.") && &head[9..12] == b"200" {
        Ok(())
    } else {
        Err(format!("unhealthy: {}", String::from_utf8_lossy(&head)).into())
    }
}

/// `luddo verify`: checks a finished table's dice, from a saved record or from its server; Ok
/// (exit 0) only when every check holds.
async fn verify(
    source: String,
    token: Option<String>,
    save: Option<std::path::PathBuf>,
    history: Option<std::path::PathBuf>,
    key: Option<String>,
) -> Result<(), Box<dyn std::error::Error>> {
    let log = if source.starts_with("http://") || source.starts_with("https://") {
        luddo::verify::fetch(&source, token.as_deref()).await?
    } else {
        serde_json::from_slice(&std::fs::read(&source)?)?
    };
    if let Some(path) = save {
        std::fs::write(path, serde_json::to_vec_pretty(&log)?)?;
    }
    let verified = luddo::verify::verify(&log).map_err(|e| format!("NOT verified: {e}"))?;
    println!("{verified}");
    let included = luddo::history::check_record(&log, &source, token.as_deref(), history.as_deref(), key)
        .await
        .map_err(|e| format!("NOT verified: {e}"))?;
    println!("{included}");
    Ok(())
}

/// Completes on Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
    tracing::info!("shutting down");
}
