//! The storage structures of a GPU configuration, as SRAM array specifications.
//!
//! Sizes come straight from `GpuConfig` (simulator §1.1): per SM the register file,
//! L1D (data + tags), shared memory, instruction cache, constant and texture caches; per chip the
//! L2 slices. Tag arrays hold, per line, the address tag plus valid and dirty bits, for a 48-bit
//! physical address (the width GPGPU-Sim's caches use for new_addr_type on 64-bit hosts) — the
//! tag array is read in full (all ways) on every lookup.

use sim::config::GpuConfig;

/// Physical address bits assumed for tag widths.
pub const ADDRESS_BITS: u32 = 48;

/// Where a structure lives, which decides how instances multiply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// One per SM.
    PerSm,
    /// Shared by the chip (instances already counted in `instances`).
    Chip,
}

/// One SRAM array to be costed.
#[derive(Clone, Debug, PartialEq)]
pub struct StorageSpec {
    /// Component name in the estimate tree, e.g. "register file".
    pub name: String,
    /// Whether the instances are per SM or per chip.
    pub scope: Scope,
    /// Arrays of this spec per SM (`PerSm`) or per chip (`Chip`).
    pub instances: u32,
    /// Arrays one access touches: per SM, all `instances` for a monolithic structure, the lane
    /// slices of one bank for the register file, whose banks are independent arrays; per chip,
    /// the arrays of one slice (`instances / accessed` slices, one of which an access reaches).
    pub accessed: u32,
    /// Capacity of one instance in bytes (a lane slice of the register file).
    pub size_bytes: u64,
    /// Bytes read or written per access.
    pub block_bytes: u64,
    /// Banks of one instance (`rf.n_banks`, `shmem.banks`, a cache's `banks`; 1 for tags).
    pub banks: u32,
    /// Read-write ports per bank (`rf.ports_per_bank` for the register file, else 1).
    pub rw_ports: u32,
    /// Read-only ports per bank.
    pub read_ports: u32,
    /// Write-only ports per bank.
    pub write_ports: u32,
}

fn log2_ceil(x: u64) -> u32 {
    if x <= 1 {
        0
    } else {
        64 - (x - 1).leading_zeros()
    }
}

/// Most ways whose tags one tag array holds side by side in a row ([`tag_array`]).
pub const MAX_WAYS_PER_TAG_ARRAY: u32 = 32;

/// Tag array of a set-associative cache: one row per set holding the tags (tag + valid + dirty
/// bits) of up to [`MAX_WAYS_PER_TAG_ARRAY`] ways; one access reads a whole set. A cache of
/// more ways keeps its tags in ⌈assoc / 32⌉ way-group arrays of equal width, read together
/// (one row of 256 ways' tags would be a 10,000-bit-wide array, which no design builds and the
/// SRAM model, like CACTI, would cost as an H-tree thousands of wires wide; the 64- to 256-way
/// caches of the GPGPU-Sim configurations are wide tag stores made of such groups). The SRAM
/// model takes power-of-two rows, so a group's row is rounded up to the next power of two bytes
/// (an overestimate of at most 2× on these small arrays, stated here rather than hidden).
///
/// `instances` counts the caches (per SM, or the L2 slices per chip): each is `groups` arrays,
/// all of which one access reads (`accessed`: per SM, every array of the cache; per chip, the
/// arrays of one slice).
fn tag_array(
    name: &str,
    scope: Scope,
    instances: u32,
    sets: u32,
    assoc: u32,
    line: u32,
) -> StorageSpec {
    let tag_bits = ADDRESS_BITS.saturating_sub(log2_ceil(sets as u64) + log2_ceil(line as u64)) + 2;
    let groups = assoc.max(1).div_ceil(MAX_WAYS_PER_TAG_ARRAY);
    let ways = assoc.max(1).div_ceil(groups);
    let row_bytes = (tag_bits as u64 * ways as u64)
        .div_ceil(8)
        .next_power_of_two();
    StorageSpec {
        name: format!("{name} tags"),
        scope,
        instances: instances * groups,
        accessed: match scope {
            Scope::PerSm => instances * groups,
            Scope::Chip => groups,
        },
        size_bytes: row_bytes * sets as u64,
        block_bytes: row_bytes,
        banks: 1,
        rw_ports: 1,
        read_ports: 0,
        write_ports: 0,
    }
}

fn data_array(
    name: &str,
    scope: Scope,
    instances: u32,
    size: u64,
    line: u32,
    banks: u32,
) -> StorageSpec {
    StorageSpec {
        name: format!("{name} data"),
        scope,
        instances,
        accessed: match scope {
            Scope::PerSm => instances,
            Scope::Chip => 1,
        },
        size_bytes: size,
        block_bytes: line as u64,
        banks: banks.max(1),
        rw_ports: 1,
        read_ports: 0,
        write_ports: 0,
    }
}

/// Bytes of one lane's register.
pub const LANE_BYTES: u64 = 4;

/// The lane-sliced banks of a register file (or of one part of it): `n_banks` independent
/// banks of `rows_per_bank` rows of `entry_bytes`-byte entries, each bank split into `lanes`
/// slices of `entry_bytes / lanes` bytes per row with `rw_ports` read-write ports. The spec is
/// one slice of one bank; an access touches the `lanes` slices of one bank (`storage_specs`).
pub fn rf_bank_slices(
    name: &str,
    rows_per_bank: u64,
    entry_bytes: u64,
    lanes: u64,
    n_banks: u64,
    rw_ports: u32,
) -> StorageSpec {
    let lanes = lanes.max(1);
    StorageSpec {
        name: name.into(),
        scope: Scope::PerSm,
        instances: (lanes * n_banks.max(1)) as u32,
        accessed: lanes as u32,
        size_bytes: rows_per_bank.max(1) * (entry_bytes / lanes),
        block_bytes: entry_bytes / lanes,
        banks: 1,
        rw_ports,
        read_ports: 0,
        write_ports: 0,
    }
}

/// Lane slices of a register file with `entry`-byte entries and `size` bytes: one per 4-byte
/// register of the entry (1 when the entry is not a whole number of lanes or the size does not
/// split evenly).
pub fn rf_lanes(entry: u64, size: u64) -> u64 {
    let lanes = (entry / LANE_BYTES).max(1);
    if entry.is_multiple_of(lanes) && size.is_multiple_of(lanes) && entry >= LANE_BYTES {
        lanes
    } else {
        1
    }
}

/// Every storage structure of `cfg`.
pub fn storage_specs(cfg: &GpuConfig) -> Vec<StorageSpec> {
    let mut v = Vec::new();
    // Register file: n_registers 32-bit registers per SM in `n_banks` banks of `entry_bytes`
    // entries (one warp-register of 32 lanes × 4 B = 128 B). The banks are independent arrays
    // (each with its own ports and decoders), and each bank is lane-sliced (models::sram,
    // "Lane-sliced banked storage"): every lane owns a 4-byte-wide slice of each bank next to its
    // datapath. So the structure is `lanes × n_banks` arrays of one bank's rows read 4 bytes at a
    // time, and one warp-register access costs one access of the `lanes` slices of one bank.
    // The wires from the banks to the operand collectors are the operand crossbar's (see
    // `chip`), not an H-tree inside the register file: counting both would count the same
    // routing twice. A bank holds ⌈entries / n_banks⌉ rows when the banks do not divide the
    // entries evenly (every bank is costed with the larger row count, at most one row more).
    let rf_bytes = cfg.sm.n_registers as u64 * 4;
    let entry = cfg.rf.entry_bytes.max(1) as u64;
    let lanes = rf_lanes(entry, rf_bytes);
    let n_banks = cfg.rf.n_banks.max(1) as u64;
    let entries = rf_bytes.div_ceil(entry);
    let rows_per_bank = entries.div_ceil(n_banks).max(1);
    v.push(rf_bank_slices(
        "register file",
        rows_per_bank,
        entry,
        lanes,
        n_banks,
        cfg.rf.ports_per_bank.max(1),
    ));
    let ic = &cfg.icache;
    v.push(data_array(
        "instruction cache",
        Scope::PerSm,
        1,
        ic.size_bytes(),
        ic.line_bytes,
        ic.banks,
    ));
    v.push(tag_array(
        "instruction cache",
        Scope::PerSm,
        1,
        ic.sets,
        ic.assoc,
        ic.line_bytes,
    ));
    let l1 = &cfg.l1d;
    v.push(data_array(
        "L1D",
        Scope::PerSm,
        1,
        l1.size_bytes(),
        l1.line_bytes,
        l1.banks,
    ));
    v.push(tag_array(
        "L1D",
        Scope::PerSm,
        1,
        l1.sets,
        l1.assoc,
        l1.line_bytes,
    ));
    // Shared memory: `banks` banks, each accessed `bank_bytes` wide. Unlike the register file it
    // has no separate crossbar leaf: the SRAM model's tree between its banks is the routing from
    // the banks to the lanes.
    v.push(StorageSpec {
        name: "shared memory".into(),
        scope: Scope::PerSm,
        instances: 1,
        accessed: 1,
        size_bytes: cfg.sm.shmem_bytes as u64,
        block_bytes: cfg.shmem.bank_bytes as u64,
        banks: cfg.shmem.banks,
        rw_ports: 1,
        read_ports: 0,
        write_ports: 0,
    });
    let cc = &cfg.const_cache;
    v.push(data_array(
        "constant cache",
        Scope::PerSm,
        1,
        cc.size_bytes(),
        cc.line_bytes,
        cc.banks,
    ));
    v.push(tag_array(
        "constant cache",
        Scope::PerSm,
        1,
        cc.sets,
        cc.assoc,
        cc.line_bytes,
    ));
    let tc = &cfg.tex_cache;
    v.push(data_array(
        "texture cache",
        Scope::PerSm,
        1,
        tc.size_bytes(),
        tc.line_bytes,
        tc.banks,
    ));
    v.push(tag_array(
        "texture cache",
        Scope::PerSm,
        1,
        tc.sets,
        tc.assoc,
        tc.line_bytes,
    ));
    let slices = cfg.mem.n_channels * cfg.mem.subparts_per_channel;
    let l2 = &cfg.l2;
    v.push(data_array(
        "L2",
        Scope::Chip,
        slices,
        l2.size_bytes(),
        l2.line_bytes,
        l2.banks,
    ));
    v.push(tag_array(
        "L2",
        Scope::Chip,
        slices,
        l2.sets,
        l2.assoc,
        l2.line_bytes,
    ));
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gtx480_storage_matches_the_preset_table() {
        let cfg = GpuConfig::preset("gtx480").unwrap();
        let s = storage_specs(&cfg);
        let get = |n: &str| s.iter().find(|x| x.name == n).unwrap().clone();
        let rf = get("register file");
        assert_eq!(rf.size_bytes * rf.instances as u64, 128 * 1024);
        // 32 lane slices of each of 16 independent banks; an access touches one bank's slices.
        assert_eq!(
            (rf.instances, rf.accessed, rf.block_bytes, rf.banks),
            (32 * 16, 32, 4, 1)
        );
        assert_eq!(rf.size_bytes, 256);
        assert_eq!(get("L1D data").size_bytes, 16 * 1024);
        assert_eq!(get("instruction cache data").size_bytes, 2 * 1024);
        assert_eq!(get("shared memory").size_bytes, 48 * 1024);
        assert_eq!(get("constant cache data").size_bytes, 8 * 1024);
        let l2 = get("L2 data");
        assert_eq!((l2.instances, l2.size_bytes), (12, 64 * 1024));
        // 32 sets × 128 B lines: 48 − 5 − 7 + 2 = 38 bits × 4 ways = 19 bytes → 32-byte rows.
        let t = get("L1D tags");
        assert_eq!((t.size_bytes, t.block_bytes), (32 * 32, 32));
    }
}
