//! Content hashing and atomic files, shared by the on-disk stores: the Activity cache of
//! `optimize` ([`crate::activity_cache`]) and the result store of `sweep`
//! ([`crate::sweep::store`]).
//!
//! The hash is 64-bit FNV-1a (Fowler–Noll–Vo, offset basis 0xcbf29ce484222325, prime
//! 0x100000001b3): not cryptographic, but stable across platforms and builds, so that a key
//! computed on one machine names the same file on another. A write goes to a temporary file in
//! the destination folder and is renamed over the final name, an atomic replace on POSIX file
//! systems: an interrupted writer leaves either the whole file or none.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// FNV-1a's 64-bit offset basis: the hash of no bytes.
pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// Continues the 64-bit FNV-1a hash `h` over `bytes`.
pub fn fnv1a(mut h: u64, bytes: &[u8]) -> u64 {
    for b in bytes {
        h ^= *b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The FNV-1a hash of `parts`, each followed by a newline (so that `["ab", "c"]` and
/// `["a", "bc"]` differ), as 16 hex digits.
pub fn hash_parts(parts: &[&str]) -> String {
    let mut h = FNV_OFFSET;
    for p in parts {
        h = fnv1a(h, p.as_bytes());
        h = fnv1a(h, b"\n");
    }
    format!("{h:016x}")
}

/// The running executable's fingerprint: the package version, the executable's length and the
/// FNV-1a hash of its bytes, so that a rebuilt simulator or cost model never reads an older
/// build's records. Computed once per process.
pub fn program_version() -> &'static str {
    static V: OnceLock<String> = OnceLock::new();
    V.get_or_init(|| {
        let exe = std::env::current_exe()
            .ok()
            .and_then(|p| std::fs::read(p).ok())
            .unwrap_or_default();
        format!(
            "{} {} {:016x}",
            env!("CARGO_PKG_VERSION"),
            exe.len(),
            fnv1a(FNV_OFFSET, &exe)
        )
    })
}

/// Writes `bytes` to `dir/name` atomically: into `dir/.name.PID.N.tmp` first, then renamed
/// over the final name (module doc). Creates `dir`. The temporary file is removed when the
/// rename fails.
pub fn write_atomic(dir: &Path, name: &str, bytes: &[u8]) -> std::io::Result<()> {
    static SERIAL: AtomicU64 = AtomicU64::new(0);
    std::fs::create_dir_all(dir)?;
    let n = SERIAL.fetch_add(1, Ordering::Relaxed);
    let tmp = dir.join(format!(".{name}.{}.{n}.tmp", std::process::id()));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, dir.join(name)).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_published_vectors() {
        // FNV-1a 64-bit test vectors (Fowler, Noll, Vo: "FNV hash" reference, test suite)
        assert_eq!(fnv1a(FNV_OFFSET, b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(FNV_OFFSET, b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(FNV_OFFSET, b"foobar"), 0x8594_4171_f739_67e8);
        assert_ne!(hash_parts(&["ab", "c"]), hash_parts(&["a", "bc"]));
    }

    #[test]
    fn atomic_write_leaves_only_the_final_file() {
        let dir = std::env::temp_dir().join(format!("gpuenergy-digest-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        write_atomic(&dir, "x.json", b"one").unwrap();
        write_atomic(&dir, "x.json", b"two").unwrap();
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, vec!["x.json".to_string()]);
        assert_eq!(std::fs::read(dir.join("x.json")).unwrap(), b"two");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
