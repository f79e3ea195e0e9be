//! Helpers shared by the SRAM model's integration tests.

/// A request at `node` (resolved here: a test names its node), the SRAM model's 300 K when no
/// temperature is given.
#[allow(dead_code)]
pub fn treq(
    node: &str,
    flavour: models::sram::Flavour,
    vdd_v: Option<f64>,
    temperature_k: Option<f64>,
    back_gate: models::sram::BackGate,
) -> models::sram::TechRequest {
    let f = format!("{flavour:?}").to_ascii_lowercase();
    let point = techlib::ResolvedPoint::resolve(
        node,
        Some(&f),
        vdd_v,
        None,
        Some(temperature_k.unwrap_or(300.0)),
    )
    .unwrap();
    models::sram::TechRequest { point, back_gate }
}
