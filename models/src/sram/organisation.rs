//! Array organisation: how one bank is cut into subarrays and how the banks are laid out.
//!
//! A bank of `B` bits read `W` bits at a time is split CACTI-style into `Ndwl` wordline
//! divisions and `Ndbl` bitline divisions, with `Nspd` blocks sharing one physical row. A
//! subarray then has `rows = ceil(B / (W·Ndbl·Nspd))` rows and `cols = W·Nspd / Ndwl` columns;
//! an access activates the `Ndwl` subarrays of one bitline division, each delivering
//! `W / Ndwl` bits through an `Nspd`:1 column selection, split into a bitline mux of degree
//! `mux_bl` ahead of the sense amplifiers and a mux of degree `Nspd / mux_bl` after them.

/// One candidate partitioning of a bank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Organisation {
    /// `Ndwl`: wordline divisions (subarrays side by side along the wordline).
    pub ndwl: u32,
    /// `Ndbl`: bitline divisions (subarrays stacked along the bitline).
    pub ndbl: u32,
    /// `Nspd`: blocks sharing one physical row.
    pub nspd: u32,
    /// Column-mux degree ahead of the sense amplifiers (divides `nspd`).
    pub mux_bl: u32,
    /// Rows (cells per bitline) of one subarray.
    pub rows: u32,
    /// Columns (cells per wordline) of one subarray.
    pub cols: u32,
}

/// Smallest and largest subarray dimensions considered. Subarrays shorter than 64 rows are
/// only used when the bank is too small for anything else: their decoder, sense and
/// precharge overheads are not amortised, and CACTI's solutions on the reference set never need
/// them (restricting them also keeps the search under 0.1 ms).
pub const MIN_ROWS: u64 = 64;
/// Most rows of a subarray.
pub const MAX_ROWS: u64 = 1024;
/// Fewest columns of a subarray (outside the small-bank fallbacks).
pub const MIN_COLS: u64 = 16;
/// Fewest rows of a subarray of a bank too small for [`MIN_ROWS`] (CACTI's lower limit).
pub const TINY_MIN_ROWS: u64 = 16;
/// Most columns of a subarray.
pub const MAX_COLS: u64 = 2048;
/// Largest division factor tried.
pub const MAX_DIV: u32 = 512;
/// Largest number of blocks per physical row tried.
pub const MAX_NSPD: u32 = 256;

/// All organisations of a bank of `bank_bits` bits with `word_bits`-bit accesses that satisfy
/// the subarray size limits. `word_bits` must be a power of two.
pub fn candidates(bank_bits: u64, word_bits: u64, out: &mut Vec<Organisation>) {
    out.clear();
    enumerate(bank_bits, word_bits, MIN_ROWS, MIN_COLS, out);
    if out.is_empty() {
        // small banks: accept subarrays down to CACTI's lower limit
        enumerate(bank_bits, word_bits, TINY_MIN_ROWS, 1, out);
    }
    if out.is_empty() {
        enumerate(bank_bits, word_bits, 1, 1, out);
    }
    // Tiny arrays: if nothing fits the limits, fall back to a single subarray.
    if out.is_empty() {
        let words = bank_bits.div_ceil(word_bits).max(1);
        let rows = words.clamp(1, u32::MAX as u64) as u32;
        out.push(Organisation {
            ndwl: 1,
            ndbl: 1,
            nspd: 1,
            mux_bl: 1,
            rows,
            cols: word_bits.min(u32::MAX as u64) as u32,
        });
    }
}

fn enumerate(
    bank_bits: u64,
    word_bits: u64,
    min_rows: u64,
    min_cols: u64,
    out: &mut Vec<Organisation>,
) {
    let words = bank_bits.div_ceil(word_bits).max(1);
    let mut ndwl = 1u32;
    while ndwl <= MAX_DIV {
        let mut nspd = 1u32;
        while nspd <= MAX_NSPD {
            let cols_num = word_bits * nspd as u64;
            if cols_num.is_multiple_of(ndwl as u64) {
                let cols = cols_num / ndwl as u64;
                if (min_cols..=MAX_COLS).contains(&cols) {
                    let mut ndbl = 1u32;
                    while ndbl <= MAX_DIV {
                        let per = ndbl as u64 * nspd as u64;
                        let rows = words.div_ceil(per);
                        // Avoid divisions that leave most of the last rows empty.
                        let waste_ok = rows * per < words + per.max(words / 8);
                        if (min_rows..=MAX_ROWS).contains(&rows) && waste_ok {
                            // column selection either all ahead of the sense amps or all
                            // after them (the two ends of CACTI's muxing split)
                            for mux_bl in [1, nspd] {
                                out.push(Organisation {
                                    ndwl,
                                    ndbl,
                                    nspd,
                                    mux_bl,
                                    rows: rows as u32,
                                    cols: cols as u32,
                                });
                                if nspd == 1 {
                                    break;
                                }
                            }
                        }
                        if rows < min_rows {
                            break;
                        }
                        ndbl *= 2;
                    }
                } else if cols > MAX_COLS {
                    break;
                }
            }
            nspd *= 2;
        }
        ndwl *= 2;
    }
}

/// CACTI's bank grid: for a power-of-two count, `2^ceil(log2(n)/2)` rows by the rest in
/// columns; otherwise the grid closest to square in bank count.
pub fn bank_grid_count(banks: u32) -> (u32, u32) {
    if banks.is_power_of_two() {
        let log = banks.trailing_zeros();
        let rows = 1u32 << log.div_ceil(2);
        (banks / rows, rows)
    } else {
        bank_grid(banks, 1.0, 1.0)
    }
}

/// Grid of `banks` banks of `bank_w × bank_h` each: (columns, rows) making the outline as
/// close to square as possible (the inter-bank routing path grows with the longer side), with
/// few empty slots.
pub fn bank_grid(banks: u32, bank_w_m: f64, bank_h_m: f64) -> (u32, u32) {
    let mut best = (banks, 1);
    let mut best_score = f64::INFINITY;
    for cols in 1..=banks {
        let rows = banks.div_ceil(cols);
        if cols * rows - banks >= cols.min(rows) {
            continue; // a whole row or column would be empty
        }
        let w = cols as f64 * bank_w_m;
        let h = rows as f64 * bank_h_m;
        let empty = (cols * rows - banks) as f64 / banks as f64;
        let score = (w.max(h) / w.min(h).max(1e-30)) * (1.0 + empty);
        if score < best_score {
            best_score = score;
            best = (cols, rows);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_cover_the_bank() {
        let mut v = Vec::new();
        candidates(8 * 65536, 256, &mut v);
        assert!(!v.is_empty());
        for o in &v {
            let bits = o.rows as u64 * o.cols as u64 * o.ndwl as u64 * o.ndbl as u64;
            assert!(bits >= 8 * 65536, "{o:?}");
            assert_eq!(o.cols as u64 * o.ndwl as u64, 256 * o.nspd as u64);
        }
    }

    #[test]
    fn grid_is_square_ish() {
        assert_eq!(bank_grid_count(8), (2, 4));
        assert_eq!(bank_grid_count(16), (4, 4));
        assert_eq!(bank_grid_count(2), (1, 2));
        assert_eq!(bank_grid(1, 1.0, 1.0), (1, 1));
        assert_eq!(bank_grid(4, 1.0, 1.0), (2, 2));
        let (c, r) = bank_grid(24, 1.0, 1.0);
        assert!(c * r >= 24 && c.abs_diff(r) <= 2);
        // wide, flat banks stack vertically
        let (c, r) = bank_grid(16, 8.0, 1.0);
        assert!(r > c, "{c}x{r}");
    }
}
