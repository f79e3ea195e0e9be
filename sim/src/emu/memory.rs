//! Functional device memory: a sparse global address space of 4 KiB pages (simulator
//! §6.2) with a bump allocator, and bounds-checked little-endian access to byte windows (shared,
//! local, constant, parameter).
//!
//! Function addresses (`ptx::inline::FUNC_ADDR_BASE` up to [`GLOBAL_BASE`]) are in no window.
//! Global allocations start at [`GLOBAL_BASE`] (so address 0 is never valid, and the first
//! 3.75 GiB of allocations still fit in 32-bit pointers for `.address_size 32` kernels) and are
//! aligned to 256 bytes. Pages are created on first write; reading an untouched page yields zeros. Any access
//! outside the allocated range, or not naturally aligned, is an error.

/// First global device address handed out.
pub const GLOBAL_BASE: u64 = 0x1000_0000;

// The code range of function addresses (`ptx/inline.rs`: the values of function pointers and
// virtual-function tables) lies below every global allocation, so no data window contains a
// function's address and a load or store through one fails.
const _: () = assert!(
    crate::ptx::inline::FUNC_ADDR_BASE >= 0x1000
        && crate::ptx::inline::FUNC_ADDR_END <= GLOBAL_BASE
        && GLOBAL_BASE < GENERIC_SHARED_BASE
);

/// Start of the shared-memory window of the generic address space: `cvta.shared` adds it to a
/// shared offset, and a generic access at or above it (below [`GENERIC_LOCAL_BASE`]) goes to
/// the CTA's shared memory. Far above every global allocation.
pub const GENERIC_SHARED_BASE: u64 = 1 << 48;
/// Start of the local-memory window of the generic address space (`cvta.local`): a generic
/// access at or above it goes to the thread's own local memory.
pub const GENERIC_LOCAL_BASE: u64 = 2 << 48;
/// Size of each generic window.
pub const GENERIC_WINDOW_BYTES: u64 = 1 << 48;
/// Page size of the sparse global memory.
pub const PAGE_BYTES: usize = 4096;
/// Largest total global allocation (address-space bound, not resident memory; the page table
/// costs 8 bytes per 4 KiB page of address space).
pub const MAX_GLOBAL_BYTES: u64 = 64 << 30;

type Page = Box<[u8; PAGE_BYTES]>;

/// Why an access failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The access reaches outside the valid range (allocated global memory, or the window).
    OutOfBounds,
    /// The address is not a multiple of the access size.
    Misaligned,
}

impl Fault {
    /// Error message for a `bytes`-byte access to `addr` in `space` that failed this way.
    pub fn describe(self, space: &str, addr: u64, bytes: u32) -> String {
        match self {
            Fault::OutOfBounds => {
                format!("{bytes}-byte {space} access at {addr:#x} is out of bounds")
            }
            Fault::Misaligned => format!("{bytes}-byte {space} access at {addr:#x} is misaligned"),
        }
    }
}

/// Sparse global memory.
#[derive(Default)]
pub struct GlobalMem {
    pages: Vec<Option<Page>>,
    /// End of the allocated range (exclusive).
    top: u64,
    /// The undo journal of an open checkpoint ([`GlobalMem::begin_journal`]).
    journal: Option<Journal>,
}

/// What a rollback restores: the allocation state when the journal opened and the prior
/// contents of every page written since, saved at its first write (copy on first write, so a
/// launch costs one page copy per page it writes, not a copy of the whole memory).
#[derive(Default)]
struct Journal {
    top: u64,
    n_pages: usize,
    /// Pages saved so far, one bit per page.
    saved_bits: Vec<u64>,
    /// (page, contents before its first write since the journal opened).
    saved: Vec<(usize, Option<Page>)>,
}

impl GlobalMem {
    /// An empty memory with no allocation.
    pub fn new() -> Self {
        GlobalMem {
            pages: Vec::new(),
            top: GLOBAL_BASE,
            journal: None,
        }
    }

    /// Opens an undo journal: from now on the first write to each page saves its prior
    /// contents, so that [`GlobalMem::rollback`] can restore the memory (contents and
    /// allocations) to this point. An open journal is replaced.
    pub fn begin_journal(&mut self) {
        self.journal = Some(Journal {
            top: self.top,
            n_pages: self.pages.len(),
            ..Journal::default()
        });
    }

    /// Closes the journal and keeps every write since it opened.
    pub fn commit_journal(&mut self) {
        self.journal = None;
    }

    /// Closes the journal and restores the memory to the point where it opened: the saved
    /// pages get their prior contents back, and allocations made since are released. Without
    /// an open journal, nothing happens.
    pub fn rollback(&mut self) {
        let Some(j) = self.journal.take() else {
            return;
        };
        for (p, old) in j.saved.into_iter().rev() {
            if p < self.pages.len() {
                self.pages[p] = old;
            }
        }
        self.pages.truncate(j.n_pages);
        self.top = j.top;
    }

    /// Allocates `bytes` (zeroed) aligned to `align` (≥ 256).
    pub fn alloc(&mut self, bytes: u64, align: u64) -> Option<u64> {
        let align = align.max(256);
        let start = self.top.div_ceil(align) * align;
        let end = start.checked_add(bytes.max(1))?;
        if end - GLOBAL_BASE > MAX_GLOBAL_BYTES {
            return None;
        }
        self.top = end;
        let npages = ((end - GLOBAL_BASE) as usize).div_ceil(PAGE_BYTES);
        if self.pages.len() < npages {
            self.pages.resize_with(npages, || None);
        }
        Some(start)
    }

    /// Bytes allocated so far (address range, not resident pages).
    pub fn allocated_bytes(&self) -> u64 {
        self.top - GLOBAL_BASE
    }

    /// Resident 4 KiB pages.
    pub fn resident_pages(&self) -> usize {
        self.pages.iter().filter(|p| p.is_some()).count()
    }

    #[inline(always)]
    fn check(&self, addr: u64, bytes: u64) -> Result<(usize, usize), Fault> {
        if addr < GLOBAL_BASE
            || addr.wrapping_add(bytes) > self.top
            || addr.wrapping_add(bytes) < addr
        {
            return Err(Fault::OutOfBounds);
        }
        if addr & (bytes - 1) != 0 {
            return Err(Fault::Misaligned);
        }
        let off = (addr - GLOBAL_BASE) as usize;
        Ok((off / PAGE_BYTES, off % PAGE_BYTES))
    }

    /// Naturally aligned load of 1, 2, 4 or 8 bytes, zero-extended.
    #[inline(always)]
    pub fn load(&self, addr: u64, bytes: u32) -> Result<u64, Fault> {
        let (p, o) = self.check(addr, bytes as u64)?;
        Ok(match &self.pages[p] {
            None => 0,
            Some(pg) => read_le(&pg[o..], bytes),
        })
    }

    #[inline]
    fn page_mut(&mut self, p: usize) -> &mut [u8; PAGE_BYTES] {
        if let Some(j) = self.journal.as_mut() {
            let (word, bit) = (p / 64, 1u64 << (p % 64));
            if j.saved_bits.len() <= word {
                j.saved_bits.resize(word + 1, 0);
            }
            if j.saved_bits[word] & bit == 0 {
                j.saved_bits[word] |= bit;
                j.saved.push((p, self.pages[p].clone()));
            }
        }
        self.pages[p].get_or_insert_with(|| Box::new([0u8; PAGE_BYTES]))
    }

    /// Naturally aligned store of the low `bytes` bytes of `v`.
    #[inline]
    pub fn store(&mut self, addr: u64, bytes: u32, v: u64) -> Result<(), Fault> {
        let (p, o) = self.check(addr, bytes as u64)?;
        write_le(&mut self.page_mut(p)[o..], bytes, v);
        Ok(())
    }

    /// Copies host bytes into device memory (any alignment).
    pub fn write_bytes(&mut self, addr: u64, data: &[u8]) -> Result<(), Fault> {
        if addr < GLOBAL_BASE
            || addr
                .checked_add(data.len() as u64)
                .is_none_or(|e| e > self.top)
        {
            return Err(Fault::OutOfBounds);
        }
        let mut a = addr;
        let mut rest = data;
        while !rest.is_empty() {
            let off = (a - GLOBAL_BASE) as usize;
            let (p, o) = (off / PAGE_BYTES, off % PAGE_BYTES);
            let n = (PAGE_BYTES - o).min(rest.len());
            if rest[..n].iter().any(|&b| b != 0) || self.pages[p].is_some() {
                self.page_mut(p)[o..o + n].copy_from_slice(&rest[..n]);
            }
            rest = &rest[n..];
            a += n as u64;
        }
        Ok(())
    }

    /// Copies device memory to host bytes (any alignment).
    pub fn read_bytes(&self, addr: u64, out: &mut [u8]) -> Result<(), Fault> {
        if addr < GLOBAL_BASE
            || addr
                .checked_add(out.len() as u64)
                .is_none_or(|e| e > self.top)
        {
            return Err(Fault::OutOfBounds);
        }
        let mut a = addr;
        let mut pos = 0usize;
        while pos < out.len() {
            let off = (a - GLOBAL_BASE) as usize;
            let (p, o) = (off / PAGE_BYTES, off % PAGE_BYTES);
            let n = (PAGE_BYTES - o).min(out.len() - pos);
            match &self.pages[p] {
                None => out[pos..pos + n].fill(0),
                Some(pg) => out[pos..pos + n].copy_from_slice(&pg[o..o + n]),
            }
            pos += n;
            a += n as u64;
        }
        Ok(())
    }
}

/// Little-endian read of `bytes` (1, 2, 4, 8) from the start of `b`.
#[inline(always)]
pub fn read_le(b: &[u8], bytes: u32) -> u64 {
    match bytes {
        1 => b[0] as u64,
        2 => u16::from_le_bytes(b[..2].try_into().expect("2 bytes")) as u64,
        4 => u32::from_le_bytes(b[..4].try_into().expect("4 bytes")) as u64,
        _ => u64::from_le_bytes(b[..8].try_into().expect("8 bytes")),
    }
}

/// Little-endian write of the low `bytes` bytes of `v` to the start of `b`.
#[inline(always)]
pub fn write_le(b: &mut [u8], bytes: u32, v: u64) {
    let le = v.to_le_bytes();
    b[..bytes as usize].copy_from_slice(&le[..bytes as usize]);
}

/// Bounds- and alignment-checked load from a byte window (shared, local, const, param).
#[inline(always)]
pub fn window_load(w: &[u8], addr: u64, bytes: u32) -> Result<u64, Fault> {
    let end = addr.checked_add(bytes as u64).ok_or(Fault::OutOfBounds)?;
    if end > w.len() as u64 {
        return Err(Fault::OutOfBounds);
    }
    if addr & (bytes as u64 - 1) != 0 {
        return Err(Fault::Misaligned);
    }
    Ok(read_le(&w[addr as usize..], bytes))
}

/// Bounds- and alignment-checked store into a byte window.
#[inline(always)]
pub fn window_store(w: &mut [u8], addr: u64, bytes: u32, v: u64) -> Result<(), Fault> {
    let end = addr.checked_add(bytes as u64).ok_or(Fault::OutOfBounds)?;
    if end > w.len() as u64 {
        return Err(Fault::OutOfBounds);
    }
    if addr & (bytes as u64 - 1) != 0 {
        return Err(Fault::Misaligned);
    }
    write_le(&mut w[addr as usize..], bytes, v);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sparse_pages_and_bounds() {
        let mut m = GlobalMem::new();
        let a = m.alloc(1 << 30, 256).unwrap();
        assert_eq!(a, GLOBAL_BASE);
        assert_eq!(m.load(a + 4096 * 100, 4), Ok(0));
        assert_eq!(m.resident_pages(), 0);
        m.store(a + 8, 4, 0xdead_beef).unwrap();
        assert_eq!(m.load(a + 8, 4), Ok(0xdead_beef));
        assert_eq!(m.load(a + 8, 2), Ok(0xbeef));
        assert_eq!(m.resident_pages(), 1);
        assert_eq!(m.load(a + 2, 4), Err(Fault::Misaligned));
        assert_eq!(m.load(a + (1 << 30), 4), Err(Fault::OutOfBounds));
        assert_eq!(m.load(0, 4), Err(Fault::OutOfBounds));
        let data: Vec<u8> = (0..10000u32).map(|i| i as u8).collect();
        m.write_bytes(a + 4000, &data).unwrap();
        let mut back = vec![0u8; 10000];
        m.read_bytes(a + 4000, &mut back).unwrap();
        assert_eq!(back, data);
    }

    #[test]
    fn a_rollback_restores_contents_and_allocations() {
        let mut m = GlobalMem::new();
        let a = m.alloc(3 * PAGE_BYTES as u64, 256).unwrap();
        m.store(a, 4, 7).unwrap();
        m.begin_journal();
        m.store(a, 4, 9).unwrap();
        m.store(a + 4, 4, 10).unwrap();
        m.store(a + 2 * PAGE_BYTES as u64, 8, 11).unwrap();
        let b = m.alloc(PAGE_BYTES as u64, 256).unwrap();
        m.store(b, 4, 12).unwrap();
        m.rollback();
        assert_eq!(m.load(a, 4), Ok(7));
        assert_eq!(m.load(a + 4, 4), Ok(0));
        assert_eq!(m.load(a + 2 * PAGE_BYTES as u64, 8), Ok(0));
        assert_eq!(m.resident_pages(), 1);
        assert_eq!(m.load(b, 4), Err(Fault::OutOfBounds));
        assert_eq!(m.alloc(PAGE_BYTES as u64, 256), Some(b));
        // a committed journal keeps the writes
        m.begin_journal();
        m.store(a, 4, 13).unwrap();
        m.commit_journal();
        m.rollback();
        assert_eq!(m.load(a, 4), Ok(13));
    }
}
