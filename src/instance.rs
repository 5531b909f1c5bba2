//! This process's instance id when `LUDDO_INSTANCE_ID` names none: kept in the data directory,
//! so that a server restarted on the same installation (after a crash as after a stop) is the
//! same instance and takes its tables back at once, instead of waiting for its old lease to run
//! out.
//!
//! Several processes may share one data directory (several servers started by hand on one
//! machine, or replicas with one volume): each takes the first free *slot*, `instance-N.id`,
//! guarded by an exclusive lock on `instance-N.lock` that it holds while it runs. The operating
//! system lets the lock go when the process ends, however it ends, so a restarted process finds
//! its slot free again. Replicas with data directories of their own (`docker compose up --scale
//! server=3`, no shared volume) each make an id of their own.

use std::{
    fs::{File, OpenOptions, TryLockError},
    io,
    path::Path,
};

/// Processes that may share one data directory at once.
const SLOTS: usize = 64;

/// An instance id held for as long as this value lives (the lock on its slot).
#[derive(Debug)]
pub struct InstanceId {
    pub id: String,
    /// Holding it keeps other processes off the slot.
    _lock: File,
}

/// Takes the first free slot of `data_dir` (creating the directory, and the slot's id on first
/// use). Fails when the directory cannot be written or every slot is held.
pub fn claim(data_dir: &Path) -> io::Result<InstanceId> {
    std::fs::create_dir_all(data_dir)?;
    for slot in 0..SLOTS {
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(data_dir.join(format!("instance-{slot}.lock")))?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => continue,
            Err(TryLockError::Error(e)) => return Err(e),
        }
        let path = data_dir.join(format!("instance-{slot}.id"));
        let id = match std::fs::read_to_string(&path) {
            Ok(id) if !id.trim().is_empty() => id.trim().to_string(),
            Ok(_) => new_id(&path)?,
            Err(e) if e.kind() == io::ErrorKind::NotFound => new_id(&path)?,
            Err(e) => return Err(e),
        };
        return Ok(InstanceId { id, _lock: lock });
    }
    Err(io::Error::other(format!("all {SLOTS} instance slots of the data directory are in use")))
}

/// Makes and keeps a fresh id for a slot (whose lock the caller holds).
fn new_id(path: &Path) -> io::Result<String> {
    let id = uuid::Uuid::new_v4().to_string();
    // Written whole, then renamed: a crash never leaves half an id behind.
    let partial = path.with_extension("id.partial");
    std::fs::write(&partial, &id)?;
    File::open(&partial)?.sync_all()?;
    std::fs::rename(&partial, path)?;
    Ok(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_keeps_its_id_and_a_second_one_gets_another() {
        let dir = std::env::temp_dir().join(format!("luddo-instance-{}", uuid::Uuid::new_v4().simple()));
        let first = claim(&dir).unwrap();
        let second = claim(&dir).unwrap();
        assert_ne!(first.id, second.id, "two processes at once never share an id");
        let first_id = first.id.clone();
        drop(first);
        assert_eq!(claim(&dir).unwrap().id, first_id, "a restart is the same instance");
        drop(second);
        let _ = std::fs::remove_dir_all(dir);
    }
}
