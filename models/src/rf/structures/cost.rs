//! The costs of the structures: one array's energy, leakage, area and timing ([`ArrayCost`]),
//! the control structures, the back-gate line, the RFC, all of them together
//! ([`RfStructures`]) and the latencies derived from their access times.

use super::design::LowLeakage;
use serde::Serialize;

/// Energy, leakage, area and timing of one register-file array.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ArrayCost {
    /// Structure name (`MRF@STV`, `FRF_high`, ...).
    pub name: String,
    /// Entries.
    pub entries: u32,
    /// Supply, V.
    pub vdd_v: f64,
    /// Energy of one entry read (all lanes), J.
    pub read_energy_j: f64,
    /// Energy of one entry write (all lanes), J.
    pub write_energy_j: f64,
    /// Cell (array) leakage, W.
    pub array_leakage_w: f64,
    /// Periphery leakage, W.
    pub periph_leakage_w: f64,
    /// Area, m².
    pub area_m2: f64,
    /// Access time, s.
    pub access_time_s: f64,
    /// `⌈t_access/t_clk⌉` (at least 1).
    pub access_cycles: u32,
    /// `(rows, banks)` of the larger and the smaller banks.
    pub bank_rows: [(u32, u32); 2],
    /// Decoder share of the read energy (for the COMA fixed fraction), J.
    pub decoder_read_energy_j: f64,
    /// Height of one lane slice of the larger banks, m (the pitch of the bank column).
    pub slice_height_m: f64,
    /// Bank-to-collector bus energy per transfer included in the read and write energies, J.
    pub bus_energy_j: f64,
}

impl ArrayCost {
    /// Total leakage `P_array + P_periph`, W.
    pub fn leakage_w(&self) -> f64 {
        self.array_leakage_w + self.periph_leakage_w
    }

    pub(super) fn empty(name: &str, vdd_v: f64) -> ArrayCost {
        ArrayCost {
            name: name.into(),
            entries: 0,
            vdd_v,
            read_energy_j: 0.0,
            write_energy_j: 0.0,
            array_leakage_w: 0.0,
            periph_leakage_w: 0.0,
            area_m2: 0.0,
            access_time_s: 0.0,
            access_cycles: 0,
            bank_rows: [(0, 0), (0, 0)],
            decoder_read_energy_j: 0.0,
            slice_height_m: 0.0,
            bus_energy_j: 0.0,
        }
    }
}

/// Energy per operation, leakage, area and delay of one control structure (all copies).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LogicStructure {
    /// Structure name.
    pub name: String,
    /// Energy of one operation of one copy (lookup, increment, access, cycle), J.
    pub energy_per_op_j: f64,
    /// Leakage of all copies, W.
    pub leakage_w: f64,
    /// Area of all copies, m².
    pub area_m2: f64,
    /// Critical path, s.
    pub delay_s: f64,
    /// Whether the energy came from a calibration overlay.
    pub calibrated: bool,
}

/// The FRF back-gate mode line and its buffers (§6).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BackGateCost {
    /// Capacitance of the back-gate lines of all FRF rows, F.
    pub line_capacitance_f: f64,
    /// Energy of one mode switch `C × Vdd²`, J.
    pub switch_energy_j: f64,
    /// Area of the extra wiring track, m².
    pub wiring_area_m2: f64,
    /// Area of the row buffers, m².
    pub buffer_area_m2: f64,
    /// Leakage of the row buffers, W.
    pub buffer_leakage_w: f64,
}

/// The RFC (§7.4): the array and its tag CAM.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RfcCost {
    /// The data array.
    pub array: ArrayCost,
    /// The tag CAM (one lookup per operand read).
    pub tag_cam: LogicStructure,
}

/// Every structure of one [`RfDesign`](super::RfDesign).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RfStructures {
    /// Node, as techlib names it.
    pub node: String,
    /// Clock, Hz.
    pub clock_hz: f64,
    /// The monolithic RF at the super-threshold supply.
    pub mrf_stv: ArrayCost,
    /// The monolithic RF at the near-threshold supply (when one is known).
    pub mrf_ntv: Option<ArrayCost>,
    /// The fast RF, back gates tied (partitioned only; entries 0 when n = 0).
    pub frf_high: Option<ArrayCost>,
    /// The fast RF, cell back gates grounded (adaptive FRF only).
    pub frf_low: Option<ArrayCost>,
    /// FRF_low leakage rule used.
    pub low_leakage: LowLeakage,
    /// The slow RF (partitioned only; entries 0 when the FRF holds everything).
    pub srf: Option<ArrayCost>,
    /// The RFC.
    pub rfc: Option<RfcCost>,
    /// The COMA mask table.
    pub mask_table: LogicStructure,
    /// The swap-table CAMs (all copies), partitioned only.
    pub swap_cam: Option<LogicStructure>,
    /// The pilot counters, partitioned only.
    pub pilot_counters: Option<LogicStructure>,
    /// The epoch detector, adaptive FRF only.
    pub epoch_counter: Option<LogicStructure>,
    /// Energy of one sort of the pilot counters, J (partitioned only).
    pub sort_energy_j: f64,
    /// The back-gate mode line, adaptive FRF only.
    pub back_gate: Option<BackGateCost>,
}
/// `prf.lat_srf = "derived"` and the other derived latencies (§5.3): `⌈t_access/t_clk⌉` of every
/// array, with the access-time ratios behind them (the array model's own ratio, which is neither
/// the inverter chain's 2.44 nor the Ion ratio 3.16 of the reference data).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct DerivedLatencies {
    /// MRF at STV, cycles.
    pub mrf_stv: u32,
    /// MRF at NTV, cycles.
    pub mrf_ntv: Option<u32>,
    /// FRF_high, cycles.
    pub frf_high: Option<u32>,
    /// FRF_low, cycles.
    pub frf_low: Option<u32>,
    /// SRF, cycles.
    pub srf: Option<u32>,
    /// RFC, cycles.
    pub rfc: Option<u32>,
    /// t_access(SRF) / t_access(FRF_high).
    pub srf_over_frf_time_ratio: Option<f64>,
    /// t_access(MRF@NTV) / t_access(MRF@STV).
    pub mrf_ntv_over_stv_time_ratio: Option<f64>,
}

impl RfStructures {
    /// The derived latencies of every array (see [`DerivedLatencies`]).
    pub fn derived_latencies(&self) -> DerivedLatencies {
        let cyc = |a: &Option<ArrayCost>| {
            a.as_ref()
                .filter(|a| a.entries > 0)
                .map(|a| a.access_cycles)
        };
        let ratio = |a: Option<&ArrayCost>, b: Option<&ArrayCost>| match (a, b) {
            (Some(a), Some(b)) if a.entries > 0 && b.entries > 0 && b.access_time_s > 0.0 => {
                Some(a.access_time_s / b.access_time_s)
            }
            _ => None,
        };
        DerivedLatencies {
            mrf_stv: self.mrf_stv.access_cycles,
            mrf_ntv: cyc(&self.mrf_ntv),
            frf_high: cyc(&self.frf_high),
            frf_low: cyc(&self.frf_low),
            srf: cyc(&self.srf),
            rfc: self.rfc.as_ref().map(|r| r.array.access_cycles),
            srf_over_frf_time_ratio: ratio(self.srf.as_ref(), self.frf_high.as_ref()),
            mrf_ntv_over_stv_time_ratio: ratio(self.mrf_ntv.as_ref(), Some(&self.mrf_stv)),
        }
    }

    /// Area the partitioned RF adds over the MRF@STV (§9): FRF + SRF + back-gate wiring + mode
    /// buffers + swap CAMs + pilot counters + epoch detector − MRF, m² (0 without the partition).
    pub fn partition_added_area_m2(&self) -> f64 {
        let (Some(f), Some(s)) = (&self.frf_high, &self.srf) else {
            return 0.0;
        };
        let bg = self
            .back_gate
            .as_ref()
            .map_or(0.0, |b| b.wiring_area_m2 + b.buffer_area_m2);
        let ctl: f64 = [&self.swap_cam, &self.pilot_counters, &self.epoch_counter]
            .iter()
            .filter_map(|x| x.as_ref())
            .map(|x| x.area_m2)
            .sum();
        f.area_m2 + s.area_m2 + bg + ctl - self.mrf_stv.area_m2
    }
}
