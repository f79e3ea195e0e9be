//! What is costed: the register-file design ([`RfDesign`]: entries, banks, ports, supplies and
//! the techniques' structures, from the simulator configuration or the thesis cases) and its
//! checks.

use crate::rf::RfError;
use serde::Serialize;
use techlib::Flavour;

/// FRF_low leakage rule (`afrf.low_leakage`, §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
pub enum LowLeakage {
    /// The array's leakage with the cells' back gates grounded (default).
    #[default]
    Model,
    /// FRF_high's leakage (conservative).
    SameAsHigh,
}

impl LowLeakage {
    /// Parses `model` or `same_as_high`.
    pub fn parse(s: &str) -> Result<LowLeakage, RfError> {
        match s.trim() {
            "model" => Ok(LowLeakage::Model),
            "same_as_high" => Ok(LowLeakage::SameAsHigh),
            _ => Err(RfError::input(
                "afrf.low_leakage",
                s,
                "\"model\" or \"same_as_high\"",
            )),
        }
    }
    /// Name as written in configuration.
    pub fn name(self) -> &'static str {
        match self {
            LowLeakage::Model => "model",
            LowLeakage::SameAsHigh => "same_as_high",
        }
    }
}

/// Which devices of the FRF follow the back-gate mode signal in FRF_low (§6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
pub enum BackGateScope {
    /// The cells' devices only (default: the mode line is buffered to the cells of every row;
    /// decoders, sense amplifiers and drivers keep tied back gates).
    #[default]
    Cells,
    /// Every device of the array, periphery included (the whole array evaluated on the
    /// back-gate-grounded technology).
    WholeArray,
}

/// The register-file cache of §7.4.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RfcDesign {
    /// Entries (`rfc.entries_per_warp` × active warps).
    pub entries: u32,
    /// Read ports (`rfc.read_ports`).
    pub read_ports: u32,
    /// Write ports (`rfc.write_ports`).
    pub write_ports: u32,
    /// Banks (`rfc.banks`).
    pub banks: u32,
}

/// Writes a node as its name.
fn node_name<S: serde::Serializer>(n: &techlib::Node, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(n.name())
}

/// The GPU-configuration-level description of a register file and its techniques.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RfDesign {
    /// Technology node (resolved; written as its name).
    #[serde(serialize_with = "node_name")]
    pub node: techlib::Node,
    /// Device flavour (default: LVT at FinFET nodes, HP at planar nodes).
    pub flavour: Option<Flavour>,
    /// Temperature, K.
    pub temperature_k: f64,
    /// Register-file entries per SM (MRF).
    pub entries: u32,
    /// Bytes per entry (128: 32 lanes × 32 bits).
    pub entry_bytes: u32,
    /// SIMT lanes an entry is sliced over.
    pub lanes: u32,
    /// Banks.
    pub banks: u32,
    /// Read-write ports of each bank of the MRF, FRF and SRF (`rf.ports_per_bank`).
    pub ports_per_bank: u32,
    /// Fast registers per warp (`prf.n_fast`); used when `partitioned`.
    pub n_fast: u32,
    /// Maximum resident warps per SM.
    pub max_warps: u32,
    /// Whether the FRF/SRF partition (and its profiling structures) is modelled.
    pub partitioned: bool,
    /// Whether the FRF has the back-gate low mode (`afrf.enabled`).
    pub adaptive_frf: bool,
    /// FRF_low leakage rule.
    pub low_leakage: LowLeakage,
    /// Devices that follow the back-gate mode in FRF_low.
    pub back_gate_scope: BackGateScope,
    /// Super-threshold supply (MRF@STV, FRF), V; default: the node's `stv` point, else nominal.
    pub vdd_stv_v: Option<f64>,
    /// Near-threshold supply (MRF@NTV, SRF; `prf.v_srf`), V; default: the node's `ntv` point.
    pub vdd_ntv_v: Option<f64>,
    /// Write energy equals read energy (`energy.write_equals_read`, default true).
    pub write_equals_read: bool,
    /// The register-file cache, when modelled.
    pub rfc: Option<RfcDesign>,
    /// Operand collector units per SM (mask-table entries).
    pub cu_count: u32,
    /// Read ports of the mask table (one per bank by default: each bank read names its CU).
    pub mask_read_ports: u32,
    /// Swap-table copies (`prf.table_copies`, one per scheduler).
    pub table_copies: u32,
    /// Architectural registers per thread that the pilot counters cover (63).
    pub counter_regs: u32,
    /// Bits per pilot counter (16).
    pub counter_bits: u32,
    /// Adaptive-FRF epoch, cycles (`afrf.epoch`).
    pub epoch_cycles: u32,
    /// Warp instructions dispatched per cycle at most (the epoch count's increment).
    pub issue_width: u32,
    /// Core clock, Hz.
    pub clock_hz: f64,
}

impl RfDesign {
    /// The `kepler_ch6` partitioned RF (§2.5, §5): finfet7, 256 KB, 2048 entries, 24 banks,
    /// n = 4, 64 warps, STV 0.45 V, NTV 0.30 V, 24 CUs, 4 schedulers × 2 issue, 863 MHz.
    pub fn kepler_ch6() -> RfDesign {
        RfDesign {
            // the source's reference design is a finfet7 one, whatever is studied
            node: techlib::node("finfet7").expect("finfet7 is a built-in node"),
            flavour: None,
            temperature_k: 300.0,
            entries: 2048,
            entry_bytes: 128,
            lanes: 32,
            banks: 24,
            ports_per_bank: 1,
            n_fast: 4,
            max_warps: 64,
            partitioned: true,
            adaptive_frf: true,
            low_leakage: LowLeakage::Model,
            back_gate_scope: BackGateScope::Cells,
            vdd_stv_v: Some(0.45),
            vdd_ntv_v: Some(0.30),
            write_equals_read: true,
            rfc: None,
            cu_count: 24,
            mask_read_ports: 24,
            table_copies: 4,
            counter_regs: 63,
            counter_bits: 16,
            epoch_cycles: 50,
            issue_width: 8,
            clock_hz: 863e6,
        }
    }

    /// The `fermi_ch5` RF (§2.5): 128 KB, 1024 entries, 16 banks, 48 warps, 16 CUs, 700 MHz,
    /// 6T at a planar `node`, nominal supply, no partition.
    pub fn fermi_ch5(node: &techlib::Node) -> RfDesign {
        RfDesign {
            node: node.clone(),
            entries: 1024,
            banks: 16,
            max_warps: 48,
            partitioned: false,
            adaptive_frf: false,
            vdd_stv_v: None,
            vdd_ntv_v: None,
            cu_count: 16,
            mask_read_ports: 16,
            issue_width: 2,
            clock_hz: 700e6,
            ..RfDesign::kepler_ch6()
        }
    }

    /// The register file of the simulator configuration `cfg` on `node` with `flavour` devices
    /// at `vdd_v` (the MRF's and FRF's supply), `temperature_k` and core clock `clock_hz`:
    /// `sm.n_registers × 4 / rf.entry_bytes` entries, the lane slices, banks and ports of the
    /// chip model's register file, `sm.max_warps`, the collector units of `opcoll.units`
    /// (one mask-table entry each, one mask-table read port per bank), `prf.*` (n, SRF supply
    /// `prf.v_srf`, swap-table copies), `afrf.*` (epoch, FRF_low leakage rule), the RFC of
    /// `rfc.*` (`entries_per_warp × max_warps` entries) and `energy.write_equals_read` of the
    /// accounting's switches `energy`.
    pub fn from_config(
        cfg: &sim::config::GpuConfig,
        energy: &crate::rf::EnergySection,
        node: &techlib::Node,
        flavour: Flavour,
        vdd_v: f64,
        temperature_k: f64,
        clock_hz: f64,
    ) -> RfDesign {
        let rf_bytes = cfg.sm.n_registers as u64 * 4;
        let entry = cfg.rf.entry_bytes.max(1) as u64;
        let oc = &cfg.opcoll.units;
        let n_cu = (oc.sp + oc.sfu + oc.mem + oc.dp + oc.int + oc.gen).max(1);
        let partitioned = cfg.prf.enabled;
        RfDesign {
            node: node.clone(),
            flavour: Some(flavour),
            temperature_k,
            entries: rf_bytes.div_ceil(entry) as u32,
            entry_bytes: entry as u32,
            lanes: crate::gpu::storage::rf_lanes(entry, rf_bytes) as u32,
            banks: cfg.rf.n_banks.max(1),
            ports_per_bank: cfg.rf.ports_per_bank.max(1),
            n_fast: cfg.prf.n_fast,
            max_warps: cfg.sm.max_warps,
            partitioned,
            adaptive_frf: cfg.afrf.enabled,
            low_leakage: match cfg.afrf.low_leakage {
                sim::config::prf::LowLeakage::Model => LowLeakage::Model,
                sim::config::prf::LowLeakage::SameAsHigh => LowLeakage::SameAsHigh,
            },
            back_gate_scope: BackGateScope::Cells,
            vdd_stv_v: Some(vdd_v),
            vdd_ntv_v: partitioned.then_some(cfg.prf.v_srf),
            write_equals_read: energy.write_equals_read,
            rfc: cfg.rfc.enabled.then(|| RfcDesign {
                entries: cfg.rfc.entries_per_warp * cfg.sm.max_warps,
                read_ports: cfg.rfc.read_ports,
                write_ports: cfg.rfc.write_ports,
                banks: cfg.rfc.banks,
            }),
            cu_count: n_cu,
            mask_read_ports: cfg.rf.n_banks.max(1),
            table_copies: cfg.prf.table_copies,
            counter_regs: 63,
            counter_bits: 16,
            epoch_cycles: cfg.afrf.epoch,
            issue_width: cfg.sched.n_per_sm.max(1) * cfg.sched.issue_per_sched.max(1),
            clock_hz,
        }
    }

    /// FRF entries: `min(n × max_warps, entries)` (0 without the partition).
    pub fn frf_entries(&self) -> u32 {
        if self.partitioned {
            (self.n_fast as u64 * self.max_warps as u64).min(self.entries as u64) as u32
        } else {
            0
        }
    }
    /// SRF entries: the rest of the MRF.
    pub fn srf_entries(&self) -> u32 {
        self.entries - self.frf_entries()
    }
}

pub(super) fn check(design: &RfDesign) -> Result<(), RfError> {
    let pos = |knob: &str, v: u32| {
        if v == 0 {
            Err(RfError::input(knob, v, "at least 1"))
        } else {
            Ok(())
        }
    };
    pos("rf.entries", design.entries)?;
    pos("rf.entry_bytes", design.entry_bytes)?;
    pos("rf.lanes", design.lanes)?;
    pos("rf.banks", design.banks)?;
    pos("gpu.max_warps", design.max_warps)?;
    pos("rf.collector_units", design.cu_count)?;
    pos("coma.mask_read_ports", design.mask_read_ports)?;
    if design.partitioned {
        pos("prf.table_copies", design.table_copies)?;
        pos("prf.counter_regs", design.counter_regs)?;
        pos("prf.counter_bits", design.counter_bits)?;
        if design.n_fast > 63 {
            return Err(RfError::input("prf.n_fast", design.n_fast, "0..=63"));
        }
    }
    if design.adaptive_frf {
        pos("afrf.epoch", design.epoch_cycles)?;
        pos("sched.issue_width", design.issue_width)?;
    }
    if !design.entry_bytes.is_power_of_two() || !design.entry_bytes.is_multiple_of(design.lanes) {
        return Err(RfError::input(
            "rf.entry_bytes",
            design.entry_bytes,
            "a power of two divisible by the lane count",
        ));
    }
    if !(design.clock_hz.is_finite() && design.clock_hz > 0.0) {
        return Err(RfError::input(
            "sm.clock_mhz",
            design.clock_hz * 1e-6,
            "a clock > 0 MHz",
        ));
    }
    if !(design.temperature_k.is_finite() && (200.0..=500.0).contains(&design.temperature_k)) {
        return Err(RfError::input(
            "temperature_k",
            design.temperature_k,
            "200..=500 K",
        ));
    }
    Ok(())
}
