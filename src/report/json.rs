//! The report as pretty-printed JSON: the technology point, chip area and leakage, the static
//! tree and every workload's result and tree; each tree node carries its `"source"`.

use crate::study::Report;

/// The report as pretty-printed JSON followed by a newline.
pub fn render(r: &Report) -> serde_json::Result<String> {
    Ok(serde_json::to_string_pretty(r)? + "\n")
}
