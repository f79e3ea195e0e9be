//! Where the access energy of the partitioned register file's arrays goes, and how it scales
//! with capacity and with the cells' gate capacitance.
//!
//! Prints, for the `kepler_ch6` reference design (finfet7, 256 KB, 24 banks, 32 lane slices,
//! 8T, n = 4):
//! 0. the MRF, the 32 KB fast RF (back gates tied and grounded) and the SRF as the structure
//!    the two calibration rows are fitted on (one 24-bank RAM per lane slice);
//! 1. each array's energy per 128-B access split into the components of one bank's 32 lane
//!    slices (decoder, wordline, bitline, sense amplifiers, column mux, the routing inside the
//!    slice) and the bank-to-collector bus;
//! 2. the fast RF's energy against its capacity (n = 1 … 32 fast registers per warp), with the
//!    bus over the shared bank column (the spec's bank split, §5.2) and over the FRF's own
//!    slices (a stand-alone array of the same capacity);
//! 3. FRF_low against FRF_high with the back gates of the cells only (the default scope) and of
//!    every device of the array, component by component: which capacitances follow C_g.
//!
//! ```text
//! cargo run --release -p models --example rf_energy_scaling
//! ```

use models::gpu::source::{sram_spec, storage_cell};
use models::gpu::storage::rf_bank_slices;
use models::rf::structures::{evaluate, BackGateScope, RfDesign};
use models::sram::{self, BackGate, SramResult, SramTech, TechRequest};

/// The read-energy components of one access to a bank of `rows` rows (all lanes), J:
/// decoder, wordline, bitline, sense, mux, routing.
fn slice_parts(d: &RfDesign, rows: u32, banks: u32, tech: &SramTech) -> [f64; 6] {
    let spec = rf_bank_slices(
        "register file",
        rows as u64,
        d.entry_bytes as u64,
        d.lanes as u64,
        banks as u64,
        d.ports_per_bank,
    );
    let r: SramResult = sram::evaluate(&sram_spec(&spec, storage_cell(d.node.kind())), tech)
        .expect("the reference design evaluates");
    let b = &r.breakdown;
    let l = d.lanes as f64;
    [
        b.decoder.read_energy_j,
        b.wordline.read_energy_j,
        b.bitline.read_energy_j,
        b.sense_amp.read_energy_j,
        b.mux.read_energy_j,
        b.routing.read_energy_j,
    ]
    .map(|e| e * l)
}

fn tech(d: &RfDesign, vdd_v: f64, bg: BackGate) -> SramTech {
    let point = techlib::ResolvedPoint::of_node(
        d.node.clone(),
        d.flavour.unwrap_or(techlib::Flavour::Lvt),
        d.temperature_k,
    )
    .and_then(|p| p.with_vdd_v(vdd_v))
    .expect("finfet7 point");
    sram::sram_tech(&TechRequest {
        point,
        back_gate: bg,
    })
    .expect("finfet7 SRAM technology")
}

fn pj(e: f64) -> String {
    format!("{:7.3}", e * 1e12)
}

fn main() {
    let d = RfDesign::kepler_ch6();
    let s = evaluate(&d, None).expect("kepler_ch6 evaluates");
    let stv = tech(&d, 0.45, BackGate::Vdd);
    let ntv = tech(&d, 0.30, BackGate::Vdd);
    // the structure model's FRF_low with the default scope: the cells' devices grounded, the
    // organisation that of the tied design
    let mut cells_gnd = stv.clone();
    cells_gnd.cell_dev = tech(&d, 0.45, BackGate::Gnd).cell_dev;
    cells_gnd.design = Some(Box::new(stv.design_tech().clone()));
    let all_gnd = tech(&d, 0.45, BackGate::Gnd);

    println!(
        "0. The calibration rows' structure (one 24-bank RAM per lane slice, 1R+1W), pJ per access"
    );
    let row = models::sram::fit::RF_POINTS[0];
    for (name, kib, op, bg) in [
        ("MRF", 256u64, "stv", BackGate::Vdd),
        ("FRF", 32, "stv", BackGate::Vdd),
        ("FRF, BG gnd", 32, "stv", BackGate::Gnd),
        ("SRF", 224, "ntv", BackGate::Vdd),
    ] {
        let p = models::sram::fit::RfPoint {
            capacity_bytes: kib * 1024,
            op,
            ..row
        };
        let t = models::sram::fit::rf_tech(&p).expect("finfet7 row technology");
        let t = if bg == BackGate::Gnd {
            tech(&d, t.periph.vdd_v, BackGate::Gnd)
        } else {
            t
        };
        let r = sram::evaluate_sliced(
            &models::sram::fit::rf_spec(&p),
            models::sram::fit::RF_LANES,
            &t,
        )
        .expect("row evaluates");
        println!("{name:<12} {kib:>4} KB  {}", pj(r.read_energy_j));
    }
    println!();
    println!(
        "1. Energy per 128-B access of the kepler_ch6 arrays (pJ), one bank's 32 slices + bus"
    );
    println!(
        "{:<10} {:>7} {:>5}  {:>7} {:>7} {:>7} {:>7} {:>7} {:>7}  {:>7}  {:>7}  {:>7}",
        "array",
        "entries",
        "rows",
        "decoder",
        "wordln",
        "bitline",
        "sense",
        "mux",
        "route",
        "bus",
        "model",
        "sum"
    );
    let rows_of = |entries: u32| entries.div_ceil(d.banks.min(entries));
    let arrays = [
        ("MRF@STV", Some(&s.mrf_stv), &stv),
        ("FRF_high", s.frf_high.as_ref(), &stv),
        ("FRF_low", s.frf_low.as_ref(), &cells_gnd),
        ("SRF", s.srf.as_ref(), &ntv),
    ];
    for (name, a, t) in arrays {
        let Some(a) = a else { continue };
        let rows = rows_of(a.entries);
        let p = slice_parts(&d, rows, d.banks, t);
        let sum: f64 = p.iter().sum::<f64>() + a.bus_energy_j;
        println!(
            "{:<10} {:>7} {:>5}  {} {} {} {} {} {}  {}  {}  {}",
            name,
            a.entries,
            rows,
            pj(p[0]),
            pj(p[1]),
            pj(p[2]),
            pj(p[3]),
            pj(p[4]),
            pj(p[5]),
            pj(a.bus_energy_j),
            pj(a.read_energy_j),
            pj(sum)
        );
    }
    println!(
        "(model = the structure's read energy, entry-weighted over banks of {} and {} rows; sum = the \
         parts at the larger bank; the SRF's routing includes its level shifters)",
        s.mrf_stv.bank_rows[0].0, s.mrf_stv.bank_rows[1].0
    );

    println!();
    println!("2. The fast RF against its capacity (FRF_high, pJ per access)");
    println!(
        "{:>3} {:>8} {:>5}  {:>9} {:>9} {:>8}  {:>11}  {:>10}",
        "n", "FRF kB", "rows", "slices", "bus", "E/E_MRF", "bus own", "E own/MRF"
    );
    let mrf = s.mrf_stv.read_energy_j;
    for n in [1u32, 2, 4, 8, 16, 32] {
        let dn = RfDesign {
            n_fast: n,
            adaptive_frf: false,
            ..RfDesign::kepler_ch6()
        };
        let sn = evaluate(&dn, None).expect("evaluates");
        let f = sn.frf_high.expect("partitioned");
        let slices = f.read_energy_j - f.bus_energy_j;
        // a stand-alone array: the bus runs over the FRF's own slices only
        let own_pitch = f.slice_height_m;
        let spec = rf_bank_slices(
            "register file",
            f.bank_rows[0].0 as u64,
            dn.entry_bytes as u64,
            dn.lanes as u64,
            dn.banks as u64,
            dn.ports_per_bank,
        );
        let bus_own = models::gpu::chip::rf_bus_transfer_j(
            &spec,
            own_pitch,
            stv.wire_semi.c_f_per_m,
            f.vdd_v,
        );
        println!(
            "{:>3} {:>8.1} {:>5}  {:>9} {:>9} {:>8.3}  {:>11} {:>10.3}",
            n,
            f.entries as f64 * dn.entry_bytes as f64 / 1024.0,
            f.bank_rows[0].0,
            pj(slices),
            pj(f.bus_energy_j),
            f.read_energy_j / mrf,
            pj(bus_own),
            (slices + bus_own) / mrf
        );
    }

    println!();
    println!("3. FRF_low / FRF_high per component (n = 4), back gates of the cells only and of every device");
    let rows = rows_of(d.frf_entries());
    let hi = slice_parts(&d, rows, d.banks, &stv);
    let lo_cells = slice_parts(&d, rows, d.banks, &cells_gnd);
    let lo_all = slice_parts(&d, rows, d.banks, &all_gnd);
    let names = ["decoder", "wordline", "bitline", "sense", "mux", "route"];
    println!(
        "{:<9} {:>9} {:>9} {:>7} {:>9} {:>7}",
        "part", "high pJ", "cells pJ", "ratio", "all pJ", "ratio"
    );
    for i in 0..6 {
        let r = |x: f64| if hi[i] > 0.0 { x / hi[i] } else { f64::NAN };
        println!(
            "{:<9} {:>9} {:>9} {:>7.3} {:>9} {:>7.3}",
            names[i],
            pj(hi[i]),
            pj(lo_cells[i]),
            r(lo_cells[i]),
            pj(lo_all[i]),
            r(lo_all[i])
        );
    }
    let (sh, sc, sa) = (
        hi.iter().sum::<f64>(),
        lo_cells.iter().sum::<f64>(),
        lo_all.iter().sum::<f64>(),
    );
    let bus = s.frf_high.as_ref().map_or(0.0, |f| f.bus_energy_j);
    println!(
        "{:<9} {:>9} {:>9} {:>7.3} {:>9} {:>7.3}   (slices + bus {}: {:.3}, {:.3})",
        "total",
        pj(sh),
        pj(sc),
        sc / sh,
        pj(sa),
        sa / sh,
        pj(bus),
        (sc + bus) / (sh + bus),
        (sa + bus) / (sh + bus)
    );
    let scope = |sc: BackGateScope| {
        let dd = RfDesign {
            back_gate_scope: sc,
            ..RfDesign::kepler_ch6()
        };
        let e = evaluate(&dd, None).expect("evaluates");
        e.frf_low.expect("adaptive").read_energy_j / e.frf_high.expect("partitioned").read_energy_j
    };
    println!(
        "structure model: FRF_low/FRF_high = {:.3} (cells), {:.3} (whole array)",
        scope(BackGateScope::Cells),
        scope(BackGateScope::WholeArray)
    );
}
