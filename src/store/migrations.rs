//! The schema's migrations, embedded in the binary: `migrations/<backend>/NNNN_name.sql`, read
//! at compile time with `include_str!` and handed to sqlx's [`Migrator`] through its public
//! [`MigrationSource`] trait.
//!
//! This is what `sqlx::migrate!` does, without the macro: that macro is sqlx's only use here of
//! its `macros` feature, which compiles a second copy of sqlx's drivers (and SQLite's C source)
//! for the compiler to run (BENCHMARKS.md, "Builds from cold"). Versions, descriptions and
//! checksums are sqlx's own (`Migration::new` hashes the SQL), so a database migrated by the
//! macro's build is recognised as up to date; a test checks the lists against the directories.

use super::Backend;
use sqlx::{
    error::BoxDynError,
    migrate::{Migration, MigrationSource, MigrationType, Migrator},
};
use std::borrow::Cow;

/// Each backend's migration files, oldest first: (file name, SQL).
macro_rules! embedded {
    ($dir:literal: $($file:literal),* $(,)?) => {
        &[$(($file, include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/migrations/", $dir, "/", $file)))),*]
    };
}

const POSTGRES: &[(&str, &str)] = embedded!("postgres":
    "0001_initial.sql",
    "0002_table_leases.sql",
    "0003_client_seeds.sql",
    "0004_tokens.sql",
    "0005_instance_address.sql",
    "0006_bot_level.sql",
    "0007_quick_play.sql",
    "0008_rematch.sql",
    "0009_ratings.sql",
    "0010_profiles.sql",
    "0011_rating_pairs.sql",
    "0012_long_clock.sql",
    "0013_fresh_dice.sql",
    "0014_ledger.sql",
    "0015_history.sql",
    "0016_friends.sql",
    "0017_chat.sql",
    "0018_reviews.sql",
);

const SQLITE: &[(&str, &str)] = embedded!("sqlite":
    "0001_initial.sql",
    "0002_table_leases.sql",
    "0003_client_seeds.sql",
    "0004_tokens.sql",
    "0005_instance_address.sql",
    "0006_bot_level.sql",
    "0007_quick_play.sql",
    "0008_rematch.sql",
    "0009_ratings.sql",
    "0010_profiles.sql",
    "0011_rating_pairs.sql",
    "0012_long_clock.sql",
    "0013_fresh_dice.sql",
    "0014_ledger.sql",
    "0015_history.sql",
    "0016_friends.sql",
    "0017_chat.sql",
    "0018_reviews.sql",
);

/// The migrations of `backend`.
pub(super) async fn migrator(backend: Backend) -> Result<Migrator, sqlx::migrate::MigrateError> {
    Migrator::new(Embedded { backend, before: i64::MAX }).await
}

/// The migrations of `backend` older than `version`: a database as an older build left it.
#[cfg(test)]
pub(super) async fn migrator_before(backend: Backend, version: i64) -> Migrator {
    Migrator::new(Embedded { backend, before: version }).await.expect("the embedded migrations resolve")
}

/// A backend's embedded files, as sqlx's migrator reads a directory: `<version>_<words>.sql`,
/// the description the words with `_` as spaces, a simple (not reversible) migration, run
/// outside a transaction if its SQL begins with `-- no-transaction`.
#[derive(Debug)]
struct Embedded {
    backend: Backend,
    before: i64,
}

impl<'s> MigrationSource<'s> for Embedded {
    fn resolve(self) -> futures_util::future::BoxFuture<'s, Result<Vec<Migration>, BoxDynError>> {
        let files = match self.backend {
            Backend::Postgres => POSTGRES,
            Backend::Sqlite => SQLITE,
        };
        let migrations = files.iter().map(|&(file, sql)| {
            let bad = || format!("migration file {file:?} is not named <version>_<description>.sql");
            let (version, words) =
                file.strip_suffix(".sql").and_then(|f| f.split_once('_')).ok_or_else(bad)?;
            let version: i64 = version.parse().map_err(|_| bad())?;
            let description = Cow::Owned(words.replace('_', " "));
            let no_tx = sql.starts_with("-- no-transaction");
            Ok(Migration::new(version, description, MigrationType::Simple, Cow::Borrowed(sql), no_tx))
        });
        let migrations: Result<Vec<Migration>, BoxDynError> = migrations
            .filter(|m: &Result<Migration, String>| m.as_ref().map_or(true, |m| m.version < self.before))
            .map(|m| m.map_err(BoxDynError::from))
            .collect();
        Box::pin(async move { migrations })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The embedded lists are the directories' files, and sqlx reads them as it reads the
    /// directories themselves (the way `sqlx::migrate!` did): same versions, descriptions,
    /// checksums and transaction mode, so databases migrated before are up to date.
    #[tokio::test]
    async fn the_embedded_migrations_are_the_directories_as_sqlx_reads_them() {
        for (backend, dir) in [(Backend::Postgres, "postgres"), (Backend::Sqlite, "sqlite")] {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations").join(dir);
            let from_disk = Migrator::new(path.as_path()).await.unwrap();
            let embedded = migrator(backend).await.unwrap();
            let key = |m: &Migration| (m.version, m.description.to_string(), m.checksum.to_vec(), m.no_tx);
            let disk: Vec<_> = from_disk.iter().map(key).collect();
            assert!(!disk.is_empty());
            assert_eq!(
                embedded.iter().map(key).collect::<Vec<_>>(),
                disk,
                "{dir}: list every file of migrations/{dir}/ in migrations.rs"
            );
        }
    }
}
