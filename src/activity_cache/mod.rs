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
//! integers (`pg.bet`, `pg.wakeup`, `prf.lat_srf`, and those of `technique::derived_timings()`)
//! have been filled in, with the tables and keys that only the cost models read reset to their
//! defaults (`GpuConfig::simulated_view`: `[physical]`, the supplies, the derivation modes;
//! `[energy]` and `[opt]` are not the machine's and never reach the key). A switch size `s` or an SRF supply that
//! leaves those integers unchanged therefore hits the cache and is costed only.
//!
//! # Entries
//! `KEY.act`: a header — the 8 bytes [`ENTRY_MAGIC`], the payload's length and a checksum
//! of the payload ([`checksum`]), both as little-endian `u64` — and the Activity in the compact
//! binary format of [`codec`] (every field of the record, floats bit-exact; about a third of
//! its JSON and several times faster to read). A file whose header, length or checksum does
//! not match, that does not decode, whose schema is not [`sim::activity::SCHEMA`] or whose
//! counts are inconsistent ([`Activity::check_consistent`]) is a miss: the run is simulated
//! again and the entry rewritten, never trusted.
//!
//! # Memory
//! The encoded entries read or written by this process are kept in memory, the least recently
//! used dropped first, within [`MEMORY_BUDGET_BYTES`] counted as the bytes held; each use
//! decodes its copy. A search re-costs the same simulations many times (every design that
//! differs only in a cost-only knob), so decoding a kept copy replaces reading and checking
//! the file.
//!
//! # Consistency
//! Each entry is written to a temporary file in the same folder and renamed over its final
//! name (an atomic replace on POSIX file systems), so an interrupted run leaves either the
//! whole entry or none.

pub mod codec;

use crate::digest::{fnv1a, program_version, write_atomic, FNV_OFFSET};
use sim::activity::Activity;
use sim::config::GpuConfig;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Bumped whenever the entry layout or the key changes.
const CACHE_FORMAT: &str = "gpuenergy-activity-cache-v2";

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

/// The first 8 bytes of every entry file.
pub const ENTRY_MAGIC: &[u8; 8] = b"GEACTv2\n";

/// Length of an entry's header: the magic, the payload length and the checksum.
const HEADER_BYTES: usize = 24;

/// The file extension of an entry.
const ENTRY_EXT: &str = "act";

/// The integrity checksum of an entry's payload: FNV-1a over its little-endian 64-bit words
/// (the last partial word padded with zeros), then over its length. Each step is a bijection
/// of the running state, so a payload that differs from the written one in a single word always
/// fails the check; other damage passes only with a chance of about 2^-64.
pub fn checksum(bytes: &[u8]) -> u64 {
    const PRIME: u64 = 0x0100_0000_01b3;
    let mut h = FNV_OFFSET;
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        h = (h ^ u64::from_le_bytes(w)).wrapping_mul(PRIME);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut w = [0u8; 8];
        w[..rest.len()].copy_from_slice(rest);
        h = (h ^ u64::from_le_bytes(w)).wrapping_mul(PRIME);
    }
    (h ^ bytes.len() as u64).wrapping_mul(PRIME)
}

/// The bytes of an entry file holding `payload` (module doc).
fn entry_file(payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_BYTES + payload.len());
    out.extend_from_slice(ENTRY_MAGIC);
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&checksum(payload).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// The payload of entry file `bytes` once its header, length and checksum hold; `file` names
/// it in the error.
fn entry_payload<'a>(bytes: &'a [u8], file: &str) -> Result<&'a [u8], String> {
    if bytes.len() < HEADER_BYTES || &bytes[..8] != ENTRY_MAGIC {
        return Err(format!("{file}: not an Activity cache entry (no header)"));
    }
    let word = |i: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&bytes[i..i + 8]);
        u64::from_le_bytes(w)
    };
    let payload = &bytes[HEADER_BYTES..];
    if word(8) != payload.len() as u64 {
        return Err(format!(
            "{file}: the header says {} bytes, the file holds {} (truncated?)",
            word(8),
            payload.len()
        ));
    }
    if word(16) != checksum(payload) {
        return Err(format!("{file}: checksum mismatch (the file is damaged)"));
    }
    Ok(payload)
}

/// The encoded form of `act` (the payload of its entry).
pub fn encode(act: &Activity) -> Vec<u8> {
    codec::to_bytes(act).expect("an Activity encodes (every sequence has a known length)")
}

/// Decodes a payload written by [`encode`] and checks its schema; `file` names it in the
/// error.
pub fn decode(payload: &[u8], file: &str) -> Result<Activity, String> {
    let a: Activity =
        codec::from_bytes(payload).map_err(|e| format!("{file}: not an Activity record: {e}"))?;
    if a.schema != sim::activity::SCHEMA {
        return Err(format!(
            "{file}: schema '{}' (expected '{}')",
            a.schema,
            sim::activity::SCHEMA
        ));
    }
    Ok(a)
}

/// Reads and checks the entry file at `path` (module doc: header, checksum, decoding, schema,
/// consistent counts). Any failure is an error naming the file.
pub fn read_entry(path: &Path) -> Result<Activity, String> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| format!("{file}: {e}"))?;
    let a = decode(entry_payload(&bytes, &file)?, &file)?;
    a.check_consistent(&file).map_err(|e| e.to_string())?;
    Ok(a)
}

/// An Activity cache in one folder; counts its hits and misses. Shared between threads.
#[derive(Debug)]
pub struct ActivityCache {
    dir: PathBuf,
    hits: AtomicUsize,
    misses: AtomicUsize,
    /// Encoded entries read or written by this process, by key (a hit here skips reading and
    /// checking the file), held within a byte budget.
    mem: Mutex<MemCache>,
}

/// Default budget of the in-memory copies: bytes of encoded entries held. The encoded record
/// of a test-size run is about a third of its JSON (0.3–2 MB), so this holds the distinct
/// simulations of a search like the README's `optimize --tech finfet7 --area-budget 2%
/// --space gating,rf` (260 records, 222 MiB) without reading a file twice; that run peaks at
/// about 310 MB cold and 290 MB warm, under the 500 MB the command is held to.
pub const MEMORY_BUDGET_BYTES: usize = 256 << 20;

/// The in-memory copies: at most `cap_bytes` of encoded records, the least recently used
/// dropped first. Only speed depends on it: a dropped record is read back from its file.
#[derive(Debug)]
struct MemCache {
    map: HashMap<String, MemEntry>,
    bytes: usize,
    cap_bytes: usize,
    clock: u64,
}

#[derive(Debug)]
struct MemEntry {
    payload: Arc<[u8]>,
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

    fn get(&mut self, k: &str) -> Option<Arc<[u8]>> {
        self.clock += 1;
        let e = self.map.get_mut(k)?;
        e.used = self.clock;
        Some(e.payload.clone())
    }

    /// Keeps `payload` unless it alone exceeds the budget, then drops the least recently used
    /// records until the budget holds.
    fn insert(&mut self, k: String, payload: Arc<[u8]>) {
        let bytes = payload.len();
        if bytes > self.cap_bytes {
            return;
        }
        self.clock += 1;
        if let Some(old) = self.map.insert(
            k,
            MemEntry {
                payload,
                used: self.clock,
            },
        ) {
            self.bytes -= old.payload.len();
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
                self.bytes -= e.payload.len();
            }
        }
    }
}

impl ActivityCache {
    /// A cache in `dir` (created on the first write), keeping up to [`MEMORY_BUDGET_BYTES`]
    /// of encoded records in memory.
    pub fn new(dir: impl Into<PathBuf>) -> ActivityCache {
        ActivityCache::with_memory_budget(dir, MEMORY_BUDGET_BYTES)
    }

    /// A cache in `dir` keeping up to `bytes` of encoded records in memory.
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
        self.dir.join(format!("{key}.{ENTRY_EXT}"))
    }

    /// The cached Activity of `cfg` on `workload` at `size`, if any (counted as a hit or a
    /// miss). An entry file that fails its checks (module doc) is a miss.
    pub fn get(&self, cfg: &GpuConfig, workload: &str, size: &str) -> Option<Activity> {
        let k = key(cfg, workload, size);
        let kept = self.mem.lock().ok().and_then(|mut m| m.get(&k));
        let found = match kept {
            Some(payload) => decode(&payload, &k).ok(),
            None => self.read_file(&k),
        };
        match found {
            Some(_) => self.hits.fetch_add(1, Ordering::Relaxed),
            None => self.misses.fetch_add(1, Ordering::Relaxed),
        };
        found
    }

    /// Reads entry `k` from its file, checks it and keeps its payload in memory.
    fn read_file(&self, k: &str) -> Option<Activity> {
        let p = self.path(k);
        let file = p.display().to_string();
        let bytes = std::fs::read(&p).ok()?;
        let payload = entry_payload(&bytes, &file).ok()?;
        let a = decode(payload, &file).ok()?;
        a.check_consistent(&file).ok()?;
        if let Ok(mut m) = self.mem.lock() {
            m.insert(k.to_string(), Arc::from(payload));
        }
        Some(a)
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
        let payload = encode(act);
        let file = entry_file(&payload);
        if let Ok(mut m) = self.mem.lock() {
            m.insert(k.clone(), Arc::from(payload));
        }
        write_atomic(&self.dir, &format!("{k}.{ENTRY_EXT}"), &file)
    }

    /// Entries in the folder and their total size in bytes.
    pub fn usage(&self) -> (usize, u64) {
        let mut n = 0;
        let mut bytes = 0;
        for (_, len, _) in self.entries() {
            n += 1;
            bytes += len;
        }
        (n, bytes)
    }

    /// The folder's entries (`.act` files, and the `.json` entries of the previous format,
    /// which no key reads any more but the size cap still counts and removes): path, size in
    /// bytes and modification time.
    fn entries(&self) -> Vec<(PathBuf, u64, std::time::SystemTime)> {
        let Ok(rd) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        rd.filter_map(|e| {
            let e = e.ok()?;
            let p = e.path();
            let ext = p.extension()?;
            if ext != ENTRY_EXT && ext != "json" {
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
        // entries of this format and of the previous one (JSON) count alike
        for (i, ext) in ["json", "act", "json", "act"].iter().enumerate() {
            std::fs::write(dir.join(format!("{i}.{ext}")), vec![b'x'; 1000]).unwrap();
            // distinct modification times, oldest first
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        std::fs::write(dir.join("note.txt"), "not an entry").unwrap();
        let c = ActivityCache::new(&dir);
        assert_eq!(c.usage(), (4, 4000));
        assert_eq!(c.trim(2500), (2, 2000));
        assert_eq!(c.usage(), (2, 2000));
        assert!(!dir.join("0.json").exists() && !dir.join("1.act").exists());
        assert!(dir.join("2.json").exists() && dir.join("3.act").exists());
        assert!(dir.join("note.txt").exists());
        let file = dir.join("note.txt");
        assert!(check_dir(&file).is_err());
        assert!(check_dir(&dir).is_ok());
        assert!(check_dir(&dir.join("absent")).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn bytes(n: usize) -> Arc<[u8]> {
        Arc::from(vec![7u8; n])
    }

    #[test]
    fn memory_copies_stay_within_their_budget_least_recently_used_dropped_first() {
        let mut m = MemCache::new(300);
        m.insert("a".into(), bytes(100));
        m.insert("b".into(), bytes(100));
        m.insert("c".into(), bytes(100));
        assert!(m.get("a").is_some()); // b is now the least recently used
        m.insert("d".into(), bytes(100));
        assert_eq!(m.bytes, 300);
        assert!(m.get("b").is_none() && m.get("c").is_some() && m.get("d").is_some());
        m.insert("huge".into(), bytes(301));
        assert!(m.get("huge").is_none());
        m.insert("d".into(), bytes(50));
        assert_eq!(m.bytes, 250);
    }

    /// A simulated record of a gated run (histograms, gating domains, per-lane timelines):
    /// hotspot at test size on gtx480 with conventional power gating.
    fn simulated_record() -> (GpuConfig, Activity) {
        let cfg = GpuConfig::preset("gtx480")
            .unwrap()
            .with_overrides(
                &[("pg.policy".to_string(), "Conventional".to_string())],
                "test",
            )
            .unwrap();
        let w = sim::workloads::find("hotspot").unwrap();
        let study = crate::study::Study::new(
            cfg.clone(),
            techlib::ResolvedPoint::named("planar45").unwrap(),
            None,
        );
        let act = study.simulate(w).unwrap();
        assert!(act.aggregate.gating.is_some() && !act.aggregate.sms.is_empty());
        (cfg, act)
    }

    #[test]
    fn a_simulated_record_round_trips_exactly_in_under_half_its_json() {
        let (_, act) = simulated_record();
        let payload = encode(&act);
        let back = decode(&payload, "test").unwrap();
        assert_eq!(back, act);
        assert_eq!(back.to_json(), act.to_json());
        let json = act.to_json().len();
        assert!(
            payload.len() * 2 < json,
            "{} bytes encoded, {json} as JSON",
            payload.len()
        );
    }

    #[test]
    fn the_memory_budget_holds_and_a_dropped_entry_is_read_back_from_its_file() {
        let dir = std::env::temp_dir().join(format!("gpuenergy-cache-mem-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (cfg, act) = simulated_record();
        let one = encode(&act).len();
        // room for two entries, not three
        let cache = ActivityCache::with_memory_budget(&dir, 2 * one + one / 2);
        for w in ["w0", "w1", "w2"] {
            cache.put(&cfg, w, "test", &act).unwrap();
            let m = cache.mem.lock().unwrap();
            assert!(m.bytes <= m.cap_bytes, "{} > {}", m.bytes, m.cap_bytes);
        }
        assert_eq!(cache.mem.lock().unwrap().map.len(), 2);
        assert!(!cache
            .mem
            .lock()
            .unwrap()
            .map
            .contains_key(&key(&cfg, "w0", "test")));
        // w0 was dropped from memory: read back from its file, and kept again
        assert_eq!(cache.get(&cfg, "w0", "test").unwrap(), act);
        assert!(cache
            .mem
            .lock()
            .unwrap()
            .map
            .contains_key(&key(&cfg, "w0", "test")));
        assert_eq!(cache.mem.lock().unwrap().map.len(), 2);
        // a budget of 0 keeps nothing and still reads every entry back
        let none = ActivityCache::with_memory_budget(&dir, 0);
        assert_eq!(none.get(&cfg, "w1", "test").unwrap(), act);
        assert_eq!(none.mem.lock().unwrap().map.len(), 0);
        assert_eq!(none.counts(), (1, 0));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_damaged_entry_is_refused_and_rewritten() {
        let dir = std::env::temp_dir().join(format!("gpuenergy-cache-bad-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (cfg, act) = simulated_record();
        let path = ActivityCache::new(&dir).path(&key(&cfg, "w", "test"));
        ActivityCache::new(&dir)
            .put(&cfg, "w", "test", &act)
            .unwrap();
        let good = std::fs::read(&path).unwrap();
        assert!(read_entry(&path).is_ok());
        let mut damaged: Vec<(&str, Vec<u8>)> = vec![
            ("truncated", good[..good.len() - 1].to_vec()),
            ("header only", good[..HEADER_BYTES].to_vec()),
            ("empty", Vec::new()),
            ("JSON of the previous format", act.to_json().into_bytes()),
        ];
        for at in [0, 9, 17, HEADER_BYTES, good.len() / 2, good.len() - 1] {
            let mut b = good.clone();
            b[at] ^= 0x40;
            damaged.push(("one flipped bit", b));
        }
        // a payload that passes the checksum but is not a record
        damaged.push((
            "valid header, wrong type",
            entry_file(&codec::to_bytes(&5u64).unwrap()),
        ));
        // a record with inconsistent counts, correctly framed
        let mut bad = act.clone();
        bad.aggregate.cycles += 1;
        damaged.push(("inconsistent counts", entry_file(&encode(&bad))));
        for (what, bytes) in damaged {
            std::fs::write(&path, &bytes).unwrap();
            assert!(read_entry(&path).is_err(), "{what}");
            // a fresh process (nothing in memory) refuses it: a miss
            let cache = ActivityCache::new(&dir);
            assert!(cache.get(&cfg, "w", "test").is_none(), "{what}");
            assert_eq!(cache.counts(), (0, 1), "{what}");
            // the caller simulates again and stores the record: it reads back whole
            cache.put(&cfg, "w", "test", &act).unwrap();
            assert_eq!(std::fs::read(&path).unwrap(), good, "{what}");
            assert_eq!(
                ActivityCache::new(&dir).get(&cfg, "w", "test").unwrap(),
                act
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_checksum_sees_every_single_byte_change() {
        let b: Vec<u8> = (0..61u32).map(|i| (i * 37 % 251) as u8).collect();
        let c = checksum(&b);
        for i in 0..b.len() {
            let mut d = b.clone();
            d[i] ^= 1;
            assert_ne!(checksum(&d), c, "byte {i}");
        }
        // trailing zeros change the length, hence the sum
        let mut z = b.clone();
        z.push(0);
        assert_ne!(checksum(&z), c);
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
        assert!(names[0].ends_with(".act"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
