//! The physical split of the register file into FRF and SRF sub-arrays (register-file spec §2.2,
//! §5.1, §5.2).
//!
//! The RF of `E` entries has `B` single-ported banks; bank b holds ⌈E/B⌉ rows for b < E mod B
//! and ⌊E/B⌋ rows otherwise. No bank is added: each bank is split horizontally into an FRF
//! sub-array and an SRF sub-array. The FRF has n × max_warps entries, E_f, spread the same way
//! (⌈E_f/B⌉ rows in the first E_f mod B banks, ⌊E_f/B⌋ in the others), and the SRF takes each
//! bank's remaining rows, which is again ⌈E_s/B⌉ or ⌊E_s/B⌋ rows with E_s = E − E_f. So FRF +
//! SRF = MRF per bank and in total, for every n with E_f ≤ E. The area and energy models use
//! these row counts.
//!
//! Which bank an access uses (and so its port conflicts) is the bank function
//! `bank(w, s) = (s + w) mod B` (`rf.bank_map = "reg_plus_warp"`) or `s mod B` (`"reg_only"`)
//! of the physical slot s, in the FRF iff s < n; the two halves of a bank share its port. The
//! bank function is the conflict model of GPGPU-Sim's `register_bank` and does not place rows:
//! over every (w, s) it can send a bank more slots than the balanced row count (Kepler, n = 32:
//! 87 fast slots map to bank 6, which has 86 rows), so [`PartitionMap::frf_demand_rows`]
//! reports that count separately.

use crate::config::BankMap;

/// Rows of bank `b` when `entries` rows are spread over `n_banks` banks as evenly as possible:
/// ⌈entries/B⌉ for the first `entries mod B` banks, ⌊entries/B⌋ for the others.
pub fn balanced_rows(entries: u64, n_banks: u32, b: u32) -> u64 {
    let nb = n_banks.max(1) as u64;
    entries / nb + ((b as u64) < entries % nb) as u64
}

/// The bank of physical slot `s` of warp slot `w`.
pub fn bank_of(map: BankMap, n_banks: u32, w: u32, s: u32) -> u32 {
    let nb = n_banks.max(1);
    match map {
        BankMap::RegPlusWarp => ((s as u64 + w as u64) % nb as u64) as u32,
        BankMap::RegOnly => s % nb,
    }
}

/// FRF/SRF rows per bank for one n.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionMap {
    n_fast: u32,
    n_banks: u32,
    bank_map: BankMap,
    mrf_rows: Vec<u64>,
    frf_rows: Vec<u64>,
    frf_demand: Vec<u64>,
}

impl PartitionMap {
    /// The split of an RF of `entries` entries in `n_banks` banks for `n_fast` fast slots and
    /// `max_warps` warp slots. Errors when the FRF does not fit: n × max_warps > entries.
    pub fn new(
        n_fast: u32,
        max_warps: u32,
        n_banks: u32,
        entries: u64,
        bank_map: BankMap,
    ) -> Result<Self, String> {
        if n_banks == 0 {
            return Err("a register file needs at least one bank".into());
        }
        let frf_total = n_fast as u64 * max_warps as u64;
        if frf_total > entries {
            return Err(format!(
                "n = {n_fast} fast slots × {max_warps} warps = {frf_total} FRF entries exceed the \
                 {entries} RF entries"
            ));
        }
        let rows = |e| (0..n_banks).map(|b| balanced_rows(e, n_banks, b)).collect();
        let mut frf_demand = vec![0u64; n_banks as usize];
        for w in 0..max_warps {
            for s in 0..n_fast {
                frf_demand[bank_of(bank_map, n_banks, w, s) as usize] += 1;
            }
        }
        Ok(PartitionMap {
            n_fast,
            n_banks,
            bank_map,
            mrf_rows: rows(entries),
            frf_rows: rows(frf_total),
            frf_demand,
        })
    }

    /// Fast slots per warp, n.
    pub fn n_fast(&self) -> u32 {
        self.n_fast
    }

    /// Banks, B.
    pub fn n_banks(&self) -> u32 {
        self.n_banks
    }

    /// The bank of physical slot `s` of warp slot `w`.
    pub fn bank(&self, w: u32, s: u32) -> u32 {
        bank_of(self.bank_map, self.n_banks, w, s)
    }

    /// True when physical slot `s` is in the FRF (s < n).
    pub fn is_fast(&self, s: u32) -> bool {
        s < self.n_fast
    }

    /// Rows of bank `b` in the monolithic RF.
    pub fn mrf_rows(&self, b: u32) -> u64 {
        self.mrf_rows[b as usize]
    }

    /// Rows of bank `b`'s FRF sub-array.
    pub fn frf_rows(&self, b: u32) -> u64 {
        self.frf_rows[b as usize]
    }

    /// Fast slots (w < max_warps, s < n) the bank function sends to bank `b`.
    pub fn frf_demand_rows(&self, b: u32) -> u64 {
        self.frf_demand[b as usize]
    }

    /// Rows of bank `b`'s SRF sub-array.
    pub fn srf_rows(&self, b: u32) -> u64 {
        self.mrf_rows[b as usize] - self.frf_rows[b as usize]
    }

    /// Entries of the monolithic RF.
    pub fn mrf_entries(&self) -> u64 {
        self.mrf_rows.iter().sum()
    }

    /// Entries of the FRF (n × max_warps).
    pub fn frf_entries(&self) -> u64 {
        self.frf_rows.iter().sum()
    }

    /// Entries of the SRF.
    pub fn srf_entries(&self) -> u64 {
        self.mrf_entries() - self.frf_entries()
    }
}
