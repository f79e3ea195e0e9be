//! LD/ST address processing (simulator §2.6): coalescing of global/local accesses into
//! segments and the shared-memory bank-conflict degree. Allocation-free: fixed-size buffers.

use super::divisor::Divisor;
use super::localmem::{LocalLayout, MAX_PIECES};
use crate::inst::{MemInfo, MemSpace, WARP_SIZE};

/// Up to 64 segments (32 lanes, each touching at most 2 segments).
pub struct Segments {
    /// Number of valid segments in `addr`/`bytes`.
    pub n: usize,
    /// Byte address of each segment (aligned to the segment size), ascending.
    pub addr: [u64; 64],
    /// Bytes of the segment actually touched (for request sizes).
    pub bytes: [u32; 64],
}

impl Default for Segments {
    fn default() -> Self {
        Segments {
            n: 0,
            addr: [0; 64],
            bytes: [0; 64],
        }
    }
}

/// Segment size for an access: `base` (128 B cached, 32 B bypassed or sector L1), but 32 B for
/// 1-byte and 64 B for 2-byte accesses (GPGPU-Sim coalescing rules for arch 20/35/61).
pub fn segment_bytes(base: u64, width: u8) -> u64 {
    match width {
        1 => base.min(32),
        2 => base.min(64),
        _ => base,
    }
}

/// Distinct segments touched by the active lanes, ascending; a lane access that straddles two
/// segments adds both. `bytes[i]` = bytes of segment i covered by some lane (upper bound: the
/// segment size).
pub fn coalesce(m: &MemInfo, mask: u32, seg: u64, out: &mut Segments) {
    coalesce_pieces(seg, out, &Lanes { m, mask });
}

/// [`coalesce`] for an access of warp slot `warp_slot` of SM `sm`: a local-memory access is
/// first laid out as the hardware interleaves local memory ([`LocalLayout`]; lane `l` is the
/// warp's thread slot `l`, and an access wider than a local word counts one piece per word);
/// an access to any other space is coalesced at its recorded addresses.
pub fn coalesce_warp(
    m: &MemInfo,
    mask: u32,
    seg: u64,
    layout: &LocalLayout,
    (sm, warp_slot): (usize, usize),
    out: &mut Segments,
) {
    let lanes = Lanes { m, mask };
    if m.space == MemSpace::Local {
        let local = LocalLanes {
            lanes,
            layout,
            first_slot: layout.warp_first_slot(sm, warp_slot),
        };
        coalesce_pieces(seg, out, &local);
    } else {
        coalesce_pieces(seg, out, &lanes);
    }
}

/// Byte ranges of a warp's access, handed one by one to a callback.
trait Pieces {
    /// Calls `f(address, bytes)` for each range, in lane order.
    fn each<F: FnMut(u64, u64)>(&self, f: F);
}

/// The active lanes' accesses at their recorded addresses.
struct Lanes<'a> {
    m: &'a MemInfo,
    mask: u32,
}

impl Lanes<'_> {
    /// Calls `f(lane, address, bytes)` for each active lane, in lane order.
    #[inline]
    fn each_lane<F: FnMut(usize, u64, u64)>(&self, mut f: F) {
        let w = self.m.width_bytes.max(1) as u64;
        let mut bits = self.mask;
        while bits != 0 {
            let lane = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            f(lane, self.m.addrs[lane], w);
        }
    }
}

impl Pieces for Lanes<'_> {
    #[inline]
    fn each<F: FnMut(u64, u64)>(&self, mut f: F) {
        self.each_lane(|_, a, w| f(a, w));
    }
}

/// The active lanes' local accesses laid out in device memory, one range per local word.
struct LocalLanes<'a> {
    lanes: Lanes<'a>,
    layout: &'a LocalLayout,
    first_slot: u64,
}

impl Pieces for LocalLanes<'_> {
    #[inline]
    fn each<F: FnMut(u64, u64)>(&self, mut f: F) {
        let mut p = [(0u64, 0u64); MAX_PIECES];
        self.lanes.each_lane(|lane, a, w| {
            let n = self
                .layout
                .pieces(self.first_slot + lane as u64, a, w, &mut p);
            for &(a, b) in &p[..n] {
                f(a, b);
            }
        });
    }
}

/// The distinct segments of `pieces`' byte ranges, ascending, with the bytes of each (a range
/// that straddles two segments adds both; its bytes count in the first). At most
/// `32 × MAX_PIECES` segment entries and 64 distinct segments are kept.
fn coalesce_pieces<P: Pieces>(seg: u64, out: &mut Segments, pieces: &P) {
    out.n = 0;
    let dseg = Divisor::new(seg);
    let mut tmp = [0u64; WARP_SIZE * MAX_PIECES];
    let mut k = 0;
    pieces.each(|a, w| {
        let s0 = dseg.div(a);
        let s1 = dseg.div(a.wrapping_add(w - 1));
        if k < tmp.len() {
            tmp[k] = s0;
            k += 1;
        }
        if s1 != s0 && k < tmp.len() {
            tmp[k] = s1;
            k += 1;
        }
    });
    let t = &mut tmp[..k];
    // lanes usually walk memory upwards (coalesced and strided accesses)
    if !t.is_sorted() {
        t.sort_unstable();
    }
    let mut prev = u64::MAX;
    for &s in t.iter() {
        if s != prev && out.n < out.addr.len() {
            out.addr[out.n] = s * seg;
            out.bytes[out.n] = 0;
            out.n += 1;
            prev = s;
        }
    }
    // bytes touched per segment (sum of lane bytes inside it, capped at the segment size)
    let n = out.n;
    pieces.each(|a, w| {
        let s = dseg.div(a) * seg;
        if let Ok(i) = out.addr[..n].binary_search(&s) {
            out.bytes[i] = (out.bytes[i] as u64 + w).min(seg) as u32;
        }
    });
}

/// Shared-memory conflict degree: word = addr / bank_bytes, bank = word mod banks; the degree is
/// the maximum over banks of the number of distinct words (identical words broadcast when
/// `broadcast`). Accesses wider than a bank word touch consecutive words. At least 1.
pub fn smem_degree(m: &MemInfo, mask: u32, banks: u32, bank_bytes: u32, broadcast: bool) -> u32 {
    let bb = bank_bytes.max(1) as u64;
    let dbb = Divisor::new(bb);
    let words_per = (m.width_bytes as u64).div_ceil(bb).max(1);
    let mut list = [0u64; WARP_SIZE * 4];
    let mut k = 0;
    let mut bits = mask;
    while bits != 0 {
        let lane = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let w0 = dbb.div(m.addrs[lane]);
        for j in 0..words_per.min(4) {
            list[k] = w0 + j;
            k += 1;
        }
    }
    if k == 0 {
        return 1;
    }
    let nb = banks.max(1) as u64;
    let dnb = Divisor::new(nb);
    // Fast path (the common, conflict-free case): each bank sees one word, or with broadcast
    // only repeats of its first word.
    if nb <= 64 {
        let mut seen = 0u64;
        let mut first = [0u64; 64];
        let mut conflict = false;
        for &w in &list[..k] {
            let b = dnb.rem(w) as usize;
            if seen >> b & 1 == 0 {
                seen |= 1 << b;
                first[b] = w;
            } else if !(broadcast && first[b] == w) {
                conflict = true;
                break;
            }
        }
        if !conflict {
            return 1;
        }
        // Count the words of each bank: every access, or with broadcast each distinct word
        // once (a 256-entry open-addressing set; at most 128 words).
        let mut count = [0u32; 64];
        if broadcast {
            let mut slot = [0u64; 256];
            let mut used = [0u64; 4];
            for &w in &list[..k] {
                let mut h = (w.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as usize;
                loop {
                    if used[h >> 6] >> (h & 63) & 1 == 0 {
                        used[h >> 6] |= 1 << (h & 63);
                        slot[h] = w;
                        count[dnb.rem(w) as usize] += 1;
                        break;
                    }
                    if slot[h] == w {
                        break;
                    }
                    h = (h + 1) & 255;
                }
            }
        } else {
            for &w in &list[..k] {
                count[dnb.rem(w) as usize] += 1;
            }
        }
        return count.iter().copied().max().unwrap_or(0).max(1);
    }
    // More banks than a mask covers: sort by (bank, word) and count the runs.
    let l = &mut list[..k];
    l.sort_unstable_by_key(|&w| (w % nb, w));
    let mut best = 0;
    let mut i = 0;
    while i < k {
        let bank = l[i] % nb;
        let mut cnt = 0;
        let mut prev = u64::MAX;
        while i < k && l[i] % nb == bank {
            if !broadcast || l[i] != prev {
                cnt += 1;
            }
            prev = l[i];
            i += 1;
        }
        best = best.max(cnt);
    }
    best.max(1)
}

/// Number of distinct addresses (constant-cache passes).
pub fn distinct_addrs(m: &MemInfo, mask: u32, out: &mut [u64; WARP_SIZE]) -> usize {
    let mut k = 0;
    let mut bits = mask;
    while bits != 0 {
        let lane = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        out[k] = m.addrs[lane];
        k += 1;
    }
    let t = &mut out[..k];
    if t.iter().all(|&a| a == t[0]) {
        // uniform (the common case for constant loads)
        return k.min(1);
    }
    t.sort_unstable();
    let mut n = 0;
    for i in 0..k {
        if i == 0 || t[i] != t[i - 1] {
            t[n] = t[i];
            n += 1;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inst::MemSpace;

    fn mem(f: impl Fn(usize) -> u64, width: u8) -> MemInfo {
        let mut addrs = [0; 32];
        for (i, a) in addrs.iter_mut().enumerate() {
            *a = f(i);
        }
        MemInfo {
            space: MemSpace::Global,
            width_bytes: width,
            addrs,
        }
    }

    #[test]
    fn coalescing() {
        let mut s = Segments::default();
        coalesce(&mem(|i| 0x1000 + 4 * i as u64, 4), u32::MAX, 128, &mut s);
        assert_eq!(s.n, 1);
        coalesce(&mem(|i| 0x1040 + 4 * i as u64, 4), u32::MAX, 128, &mut s);
        assert_eq!((s.n, s.addr[0], s.addr[1]), (2, 0x1000, 0x1080));
        coalesce(&mem(|i| 0x1000 + 4 * i as u64, 4), u32::MAX, 32, &mut s);
        assert_eq!(s.n, 4);
        coalesce(&mem(|i| 128 * i as u64, 4), u32::MAX, 128, &mut s);
        assert_eq!(s.n, 32);
        coalesce(&mem(|_| 126, 4), 1, 128, &mut s); // straddles
        assert_eq!(s.n, 2);
    }

    #[test]
    fn bank_conflicts() {
        // stride 1 word: no conflict
        assert_eq!(
            smem_degree(&mem(|i| 4 * i as u64, 4), u32::MAX, 32, 4, true),
            1
        );
        // stride 2 words: 2-way
        assert_eq!(
            smem_degree(&mem(|i| 8 * i as u64, 4), u32::MAX, 32, 4, true),
            2
        );
        // stride 32 words: 32-way
        assert_eq!(
            smem_degree(&mem(|i| 128 * i as u64, 4), u32::MAX, 32, 4, true),
            32
        );
        // all the same word: broadcast
        assert_eq!(smem_degree(&mem(|_| 64, 4), u32::MAX, 32, 4, true), 1);
        assert_eq!(smem_degree(&mem(|_| 64, 4), u32::MAX, 32, 4, false), 32);
    }

    /// The definition, by brute force: per bank, the distinct (or, without broadcast, all)
    /// words touched.
    fn degree_reference(m: &MemInfo, mask: u32, banks: u32, bb: u32, bcast: bool) -> u32 {
        let per = (m.width_bytes as u64).div_ceil(bb as u64).clamp(1, 4);
        let mut per_bank: Vec<Vec<u64>> = vec![Vec::new(); banks as usize];
        for lane in 0..WARP_SIZE {
            if mask >> lane & 1 == 1 {
                for j in 0..per {
                    let w = m.addrs[lane] / bb as u64 + j;
                    let v = &mut per_bank[(w % banks as u64) as usize];
                    if !(bcast && v.contains(&w)) {
                        v.push(w);
                    }
                }
            }
        }
        per_bank
            .iter()
            .map(|v| v.len() as u32)
            .max()
            .unwrap_or(0)
            .max(1)
    }

    proptest::proptest! {
        #[test]
        fn bank_conflicts_match_the_definition(
            words in proptest::collection::vec(0u64..96, WARP_SIZE),
            mask: u32,
            wide in 0usize..3,
            banks in proptest::sample::select(vec![16u32, 32, 48, 64, 100]),
            bcast: bool,
        ) {
            let width = [4u8, 8, 16][wide];
            let m = mem(|i| words[i] * 4, width);
            proptest::prop_assert_eq!(
                smem_degree(&m, mask, banks, 4, bcast),
                degree_reference(&m, mask, banks, 4, bcast)
            );
        }
    }
}
