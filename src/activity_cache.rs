//! On-disk cache of simulated Activity records, so that re-running `optimize` (or costing a
//! design again at another continuous knob that leaves the simulated integers alone) costs no
//! simulation.
//!
//! # Key
//! A 64-bit FNV-1a hash of: the cache format version, a fingerprint of the running executable
//! (its length and an FNV-1a hash of its bytes, so that a rebuilt simulator never reads an
//! older model's records), the workload's identity ([`sim::workloads::Workload::identity`]:
//! the name of a built-in workload, a content hash of a user program), the size tier, and the configuration as the
//! simulator sees it — [`sim_key_config`]: the resolved configuration after the derived
//! integers (`pg.bet`, `pg.wakeup`, `prf.lat_srf`, and those of `technique::DERIVED_TIMINGS`)
//! have been filled in, with the tables and keys that only the cost models read reset to their
//! defaults (`GpuConfig::simulated_view`: `[physical]`, the supplies, the derivation modes;
//! `[energy]` and `[opt]` are not the machine's and never reach the key). A switch size `s` or an SRF supply that
//! leaves those integers unchanged therefore hits the cache and is costed only.
//!
//! # Consistency
//! Each entry is written to a temporary file in the same folder and renamed over its final
//! name (an atomic replace on POSIX file systems), so an interrupted run leaves either the
//! whole entry or none. A file that does not parse is treated as a miss and rewritten.

use crate::digest::{fnv1a, program_version, write_atomic, FNV_OFFSET};
use sim::activity::Activity;
use sim::config::GpuConfig;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Bumped whenever the entry layout or the key changes.
const CACHE_FORMAT: &str = "gpuenergy-activity-cache-v1";

/// The root of every on-disk cache of the tool: `$GPUENERGY_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/gpuenergy`, else `~/.cache/gpuenergy` (the platform's cache folder, never
/// the working directory).
pub fn cache_root() -> PathBuf {
    if let Some(d) = std::env::var_os("GPUENERGY_CACHE_DIR") {
        return PathBuf::from(d);
    }
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME") {
        return PathBuf::from(d).join("gpuenergy");
    }
    let home = std::env::var_os("HOME").map_or_else(|| PathBuf::from("."), PathBuf::from);
    home.join(".cache").join("gpuenergy")
}

/// The default folder of the Activity cache: `activity` under [`cache_root`].
pub fn default_dir() -> PathBuf {
    cache_root().join("activity")
}

/// Default size cap of the Activity cache, bytes (1 GiB): beyond it the least recently written
/// entries are removed ([`ActivityCache::trim`]).
pub const DEFAULT_MAX_BYTES: u64 = 1 << 30;

/// Checks that `dir` can hold the cache: absent (created on the first write) or a folder. A
/// path that names a file is an error naming it, never a silently disabled cache.
pub fn check_dir(dir: &Path) -> Result<(), String> {
    match std::fs::metadata(dir) {
        Ok(m) if !m.is_dir() => Err(format!(
            "--cache-dir {}: is a file, not a folder (name a folder, or leave it out for {})",
            dir.display(),
            default_dir().display()
        )),
        _ => Ok(()),
    }
}

/// The cache format and the running executable's fingerprint ([`program_version`]).
fn model_version() -> String {
    format!("{CACHE_FORMAT} {}", program_version())
}

/// The configuration as the simulator sees it: `cfg` (already timed) with the keys that only
/// the cost models read reset to their defaults (module doc).
pub fn sim_key_config(cfg: &GpuConfig) -> GpuConfig {
    cfg.simulated_view()
}

/// The cache key of one simulation, as 16 hex digits.
pub fn key(cfg: &GpuConfig, workload: &str, size: &str) -> String {
    let text = sim_key_config(cfg).to_toml_string();
    let mut h = fnv1a(FNV_OFFSET, model_version().as_bytes());
    for part in [workload, "\n", size, "\n", text.as_str()] {
        h = fnv1a(h, part.as_bytes());
    }
    format!("{h:016x}")
}

/// An Activity cache in one folder; counts its hits and misses. Shared between threads.
#[derive(Debug)]
pub struct ActivityCache {
    dir: PathBuf,
    hits: AtomicUsize,
    misses: AtomicUsize,
    /// Entries read or written by this process, by key (a hit here skips parsing the file),
    /// held within a byte budget.
    mem: Mutex<MemCache>,
}

/// Default budget of the in-memory copies, in bytes of their JSON text. A parsed record takes
/// about 3.4 times its text in memory (heaptrack on `optimize --tech finfet7 --area-budget 2%
/// --space gating,rf`: 431 MB held for 128 MiB of text), so this is about 220 MB: room for the
/// working set of a search, which re-costs the design it just simulated on every workload of
/// the test suite (about 2.3 MB of text each), while a long search's hundreds of records stay
/// on disk only.
pub const MEMORY_BUDGET_BYTES: usize = 64 << 20;

/// The in-memory copies: at most `cap_bytes` of records (counted by their JSON size), the
/// least recently used dropped first. Only speed depends on it: a dropped record is read back
/// from its file.
#[derive(Debug)]
struct MemCache {
    map: HashMap<String, MemEntry>,
    bytes: usize,
    cap_bytes: usize,
    clock: u64,
}

#[derive(Debug)]
struct MemEntry {
    act: Activity,
    bytes: usize,
    used: u64,
}

impl MemCache {
    fn new(cap_bytes: usize) -> MemCache {
        MemCache {
            map: HashMap::new(),
            bytes: 0,
            cap_bytes,
            clock: 0,
        }
    }

    fn get(&mut self, k: &str) -> Option<Activity> {
        self.clock += 1;
        let e = self.map.get_mut(k)?;
        e.used = self.clock;
        Some(e.act.clone())
    }

    /// Keeps `act` (`bytes` long as JSON) unless it alone exceeds the budget, then drops the
    /// least recently used records until the budget holds.
    fn insert(&mut self, k: String, act: Activity, bytes: usize) {
        if bytes > self.cap_bytes {
            return;
        }
        self.clock += 1;
        if let Some(old) = self.map.insert(
            k,
            MemEntry {
                act,
                bytes,
                used: self.clock,
            },
        ) {
            self.bytes -= old.bytes;
        }
        self.bytes += bytes;
        while self.bytes > self.cap_bytes {
            let Some(oldest) = self
                .map
                .iter()
                .min_by_key(|(_, e)| e.used)
                .map(|(k, _)| k.clone())
            else {
                break;
            };
            if let Some(e) = self.map.remove(&oldest) {
                self.bytes -= e.bytes;
            }
        }
    }
}

impl ActivityCache {
    /// A cache in `dir` (created on the first write), keeping up to [`MEMORY_BUDGET_BYTES`]
    /// of records in memory.
    pub fn new(dir: impl Into<PathBuf>) -> ActivityCache {
        ActivityCache::with_memory_budget(dir, MEMORY_BUDGET_BYTES)
    }

    /// A cache in `dir` keeping up to `bytes` of records (by JSON size) in memory.
    pub fn with_memory_budget(dir: impl Into<PathBuf>, bytes: usize) -> ActivityCache {
        ActivityCache {
            dir: dir.into(),
            hits: AtomicUsize::new(0),
            misses: AtomicUsize::new(0),
            mem: Mutex::new(MemCache::new(bytes)),
        }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.json"))
    }

    /// The cached Activity of `cfg` on `workload` at `size`, if any (counted as a hit or a
    /// miss).
    pub fn get(&self, cfg: &GpuConfig, workload: &str, size: &str) -> Option<Activity> {
        let k = key(cfg, workload, size);
        let mem = self.mem.lock().ok().and_then(|mut m| m.get(&k));
        let found = mem.or_else(|| {
            let p = self.path(&k);
            let t = std::fs::read_to_string(&p).ok()?;
            let a = Activity::from_json(&t, &p.display().to_string()).ok()?;
            if let Ok(mut m) = self.mem.lock() {
                m.insert(k.clone(), a.clone(), t.len());
            }
            Some(a)
        });
        match found {
            Some(_) => self.hits.fetch_add(1, Ordering::Relaxed),
            None => self.misses.fetch_add(1, Ordering::Relaxed),
        };
        found
    }

    /// Stores `act` atomically (temporary file + rename). A failure to write is returned; the
    /// caller may go on without the cache.
    pub fn put(
        &self,
        cfg: &GpuConfig,
        workload: &str,
        size: &str,
        act: &Activity,
    ) -> std::io::Result<()> {
        let k = key(cfg, workload, size);
        let text = act.to_json();
        if let Ok(mut m) = self.mem.lock() {
            m.insert(k.clone(), act.clone(), text.len());
        }
        write_atomic(&self.dir, &format!("{k}.json"), text.as_bytes())
    }

    /// Entries (`.json` files) in the folder and their total size in bytes.
    pub fn usage(&self) -> (usize, u64) {
        let mut n = 0;
        let mut bytes = 0;
        for (_, len, _) in self.entries() {
            n += 1;
            bytes += len;
        }
        (n, bytes)
    }

    /// The folder's entries: path, size in bytes and modification time.
    fn entries(&self) -> Vec<(PathBuf, u64, std::time::SystemTime)> {
        let Ok(rd) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        rd.filter_map(|e| {
            let e = e.ok()?;
            let p = e.path();
            if p.extension()? != "json" {
                return None;
            }
            let m = e.metadata().ok()?;
            Some((p, m.len(), m.modified().ok()?))
        })
        .collect()
    }

    /// Removes the least recently written entries until the folder holds at most `max_bytes`;
    /// returns how many entries and bytes were removed. Entries of this process still in
    /// memory stay readable.
    pub fn trim(&self, max_bytes: u64) -> (usize, u64) {
        let mut e = self.entries();
        let mut total: u64 = e.iter().map(|x| x.1).sum();
        // oldest first; ties by name, so the order is deterministic
        e.sort_by(|a, b| a.2.cmp(&b.2).then_with(|| a.0.cmp(&b.0)));
        let (mut n, mut freed) = (0, 0);
        for (p, len, _) in e {
            if total <= max_bytes {
                break;
            }
            if std::fs::remove_file(&p).is_ok() {
                total -= len;
                n += 1;
                freed += len;
            }
        }
        (n, freed)
    }

    /// `(hits, misses)` so far.
    pub fn counts(&self) -> (usize, usize) {
        (
            self.hits.load(Ordering::Relaxed),
            self.misses.load(Ordering::Relaxed),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cost_only_keys_do_not_change_the_key_and_sim_keys_do() {
        let cfg = GpuConfig::preset("gtx480").unwrap();
        let k = key(&cfg, "hotspot", "test");
        let mut c = cfg.clone();
        c.physical.size_multiplier = 3.0;
        c.prf.v_srf = 0.35;
        assert_eq!(key(&c, "hotspot", "test"), k);
        c.pg.bet = cfg.pg.bet + 1;
        assert_ne!(key(&c, "hotspot", "test"), k);
        assert_ne!(key(&cfg, "bfs", "test"), k);
        assert_ne!(key(&cfg, "hotspot", "bench"), k);
    }

    #[test]
    fn trim_removes_the_oldest_entries_down_to_the_cap() {
        let dir = std::env::temp_dir().join(format!("gpuenergy-cache-trim-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for i in 0..4 {
            std::fs::write(dir.join(format!("{i}.json")), vec![b'x'; 1000]).unwrap();
            // distinct modification times, oldest first
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        std::fs::write(dir.join("note.txt"), "not an entry").unwrap();
        let c = ActivityCache::new(&dir);
        assert_eq!(c.usage(), (4, 4000));
        assert_eq!(c.trim(2500), (2, 2000));
        assert_eq!(c.usage(), (2, 2000));
        assert!(!dir.join("0.json").exists() && dir.join("3.json").exists());
        assert!(dir.join("note.txt").exists());
        let file = dir.join("note.txt");
        assert!(check_dir(&file).is_err());
        assert!(check_dir(&dir).is_ok());
        assert!(check_dir(&dir.join("absent")).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn memory_copies_stay_within_their_budget_least_recently_used_dropped_first() {
        let act = Activity::new("g", "h");
        let mut m = MemCache::new(300);
        m.insert("a".into(), act.clone(), 100);
        m.insert("b".into(), act.clone(), 100);
        m.insert("c".into(), act.clone(), 100);
        assert!(m.get("a").is_some()); // b is now the least recently used
        m.insert("d".into(), act.clone(), 100);
        assert_eq!(m.bytes, 300);
        assert!(m.get("b").is_none() && m.get("c").is_some() && m.get("d").is_some());
        m.insert("huge".into(), act.clone(), 301);
        assert!(m.get("huge").is_none());
        m.insert("d".into(), act, 50);
        assert_eq!(m.bytes, 250);
    }

    #[test]
    fn a_record_dropped_from_memory_is_read_back_from_its_file() {
        let dir = std::env::temp_dir().join(format!("gpuenergy-cache-mem-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let cache = ActivityCache::with_memory_budget(&dir, 0);
        let cfg = GpuConfig::preset("gtx480").unwrap();
        let act = Activity::new(&cfg.gpu.name, &cfg.hash_hex());
        cache.put(&cfg, "w", "test", &act).unwrap();
        assert_eq!(cache.mem.lock().unwrap().map.len(), 0);
        assert_eq!(
            cache.get(&cfg, "w", "test").unwrap().to_json(),
            act.to_json()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn entries_round_trip_and_leave_no_temporary_files() {
        let dir = std::env::temp_dir().join(format!("gpuenergy-cache-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let cache = ActivityCache::new(&dir);
        let cfg = GpuConfig::preset("gtx480").unwrap();
        assert!(cache.get(&cfg, "w", "test").is_none());
        let act = Activity::new(&cfg.gpu.name, &cfg.hash_hex());
        cache.put(&cfg, "w", "test", &act).unwrap();
        let back = cache.get(&cfg, "w", "test").unwrap();
        assert_eq!(back.config_hash, act.config_hash);
        assert_eq!(cache.counts(), (1, 1));
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
        assert!(names[0].ends_with(".json"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
