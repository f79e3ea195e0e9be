//! The sweep folder: one result file per point, named by the point's content key, plus the
//! plan record, the shards' states and the points that failed.
//!
//! ```text
//! DIR/plan.json               the plan ([`super::plan::PlanRecord`]), written by every run
//! DIR/points/KEY.json         a finished point: header line + JSON body
//! DIR/failed/KEY.txt          the error of a point that failed (removed when it succeeds)
//! DIR/shards/I-of-N.json      each shard's last state ([`ShardState`])
//! ```
//!
//! A result file's first line is `gpuenergy-sweep-point v1 KEY fnv1a:HASH`, where HASH is the
//! FNV-1a hash ([`crate::digest`]) of every byte that follows the line. The second line is JSON
//! with the key, the point's label and its outcome (the numbers of the merged row); the rest is
//! a zlib stream (fastest level; an Activity is megabytes of JSON and compresses about tenfold)
//! of JSON with the whole costed run (the estimate tree and the technique accounting) and the
//! simulated Activity. A file whose
//! header, key or hash does not match is *corrupt*: reported, recomputed by the next run,
//! never merged. Every file is written atomically ([`crate::digest::write_atomic`]), so an
//! interrupted run leaves whole files only.

use super::plan::{PlanRecord, PointLabel, Shard, PLAN_FORMAT};
use crate::digest::{fnv1a, write_atomic, FNV_OFFSET};
use crate::study::WorkloadResult;
use serde::{Deserialize, Serialize};
use sim::activity::Activity;
use std::path::{Path, PathBuf};

/// Magic of a result file's header line.
const POINT_MAGIC: &str = "gpuenergy-sweep-point v1";

/// Serialises an `f64` as the shortest decimal text that reads back to the same bits, so that
/// the merged table holds exactly the computed numbers (JSON number parsing may round).
mod exact {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{x:?}"))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        let t = String::deserialize(d)?;
        t.parse().map_err(serde::de::Error::custom)
    }
}

/// The numbers of one point's row in the merged table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// Technology label of the cost source (e.g. "planar40 hp").
    pub tech: String,
    /// Operating supply, V.
    #[serde(with = "exact")]
    pub vdd_v: f64,
    /// Simulated core cycles, all launches.
    pub cycles: u64,
    /// Warp instructions issued.
    pub warp_instructions: u64,
    /// A launch was stopped early.
    pub truncated: bool,
    /// Run time, s.
    #[serde(with = "exact")]
    pub runtime_s: f64,
    /// Total energy, J.
    #[serde(with = "exact")]
    pub energy_j: f64,
    /// Dynamic energy, J.
    #[serde(with = "exact")]
    pub dynamic_j: f64,
    /// Leakage energy, J.
    #[serde(with = "exact")]
    pub leakage_j: f64,
    /// Average power, W.
    #[serde(with = "exact")]
    pub average_power_w: f64,
    /// Energy-delay product, J·s.
    #[serde(with = "exact")]
    pub edp_js: f64,
    /// Chip area, mm².
    #[serde(with = "exact")]
    pub area_mm2: f64,
    /// Chip leakage power with every component powered, W.
    #[serde(with = "exact")]
    pub chip_leakage_w: f64,
    /// Kernel sampling's estimated errors (`sample` in the sweep file); absent for a point
    /// simulated in full without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sample_error: Option<SampleError>,
}

/// The estimated errors of a sampled point (`crate::sample`), as fractions.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SampleError {
    /// Of its cycles.
    #[serde(with = "exact")]
    pub cycles: f64,
    /// Of its total energy.
    #[serde(with = "exact")]
    pub energy: f64,
}

/// The second line of a result file.
#[derive(Serialize)]
struct Head<'a> {
    key: &'a str,
    point: &'a PointLabel,
    outcome: &'a Outcome,
}

/// The second line of a result file, read back.
#[derive(Deserialize)]
struct HeadBack {
    key: String,
    outcome: Outcome,
}

/// The compressed part of a result file.
#[derive(Serialize)]
struct Detail<'a> {
    result: &'a WorkloadResult,
    activity: &'a Activity,
}

/// The compressed part read back: the costed run as JSON, and the Activity.
#[derive(Deserialize)]
struct DetailBack {
    result: serde_json::Value,
    activity: Activity,
}

/// The state of a point's result file.
#[derive(Clone, Debug, PartialEq)]
pub enum Lookup {
    /// Finished and intact.
    Done(Outcome),
    /// No result file.
    Missing,
    /// A result file that fails its check, and why.
    Corrupt(String),
}

/// The last state a shard recorded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardState {
    /// `I/N`.
    pub shard: String,
    /// `running` (started; still running, or stopped before it could record more), `done`
    /// (every point of the shard finished) or `failed` (some point failed).
    pub state: String,
    /// Points in the shard.
    pub points: usize,
    /// Points found finished when the run started.
    pub found: usize,
    /// Points computed by the run.
    pub computed: usize,
    /// Corrupt result files found and recomputed.
    pub corrupt: usize,
    /// Points that failed.
    pub failed: usize,
    /// Process id of the run.
    pub pid: u32,
}

/// A sweep folder.
#[derive(Clone, Debug)]
pub struct Store {
    dir: PathBuf,
}

impl Store {
    /// The sweep folder `dir` (created on the first write).
    pub fn new(dir: impl Into<PathBuf>) -> Store {
        Store { dir: dir.into() }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn points_dir(&self) -> PathBuf {
        self.dir.join("points")
    }

    /// The result file of `key`.
    pub fn point_path(&self, key: &str) -> PathBuf {
        self.points_dir().join(format!("{key}.json"))
    }

    /// The state of `key`'s result file (module doc).
    pub fn lookup(&self, key: &str) -> Lookup {
        let bytes = match std::fs::read(self.point_path(key)) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Lookup::Missing,
            Err(e) => return Lookup::Corrupt(format!("unreadable: {e}")),
        };
        let Some(nl) = bytes.iter().position(|&b| b == b'\n') else {
            return Lookup::Corrupt("no header line".into());
        };
        let (head, body) = (&bytes[..nl], &bytes[nl + 1..]);
        let head = String::from_utf8_lossy(head);
        let parts: Vec<&str> = head.split(' ').collect();
        let magic_words = POINT_MAGIC.split(' ').count();
        if parts.len() != magic_words + 2 || parts[..magic_words].join(" ") != POINT_MAGIC {
            return Lookup::Corrupt(format!(
                "bad header '{}'",
                head.chars().take(80).collect::<String>()
            ));
        }
        if parts[magic_words] != key {
            return Lookup::Corrupt(format!("header names key {}", parts[magic_words]));
        }
        let sum = format!("fnv1a:{:016x}", fnv1a(FNV_OFFSET, body));
        if parts[magic_words + 1] != sum {
            return Lookup::Corrupt(format!(
                "hash mismatch: header {}, contents {sum}",
                parts[magic_words + 1]
            ));
        }
        let line = body.split(|&b| b == b'\n').next().unwrap_or_default();
        match serde_json::from_slice::<HeadBack>(line) {
            Ok(b) if b.key == key => Lookup::Done(b.outcome),
            Ok(b) => Lookup::Corrupt(format!("body names key {}", b.key)),
            Err(e) => Lookup::Corrupt(format!("body does not parse: {e}")),
        }
    }

    /// The costed run (as JSON) and the Activity saved for `key`, after the checks of
    /// [`Store::lookup`].
    pub fn detail(&self, key: &str) -> anyhow::Result<(serde_json::Value, Activity)> {
        match self.lookup(key) {
            Lookup::Done(_) => {}
            Lookup::Missing => anyhow::bail!("{}: no such result", self.point_path(key).display()),
            Lookup::Corrupt(why) => anyhow::bail!("{}: {why}", self.point_path(key).display()),
        }
        let bytes = std::fs::read(self.point_path(key))?;
        let mut lines = bytes.splitn(3, |&b| b == b'\n');
        let (_, _, z) = (lines.next(), lines.next(), lines.next().unwrap_or_default());
        let mut text = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::ZlibDecoder::new(z), &mut text)?;
        let d: DetailBack = serde_json::from_slice(&text)?;
        Ok((d.result, d.activity))
    }

    /// Writes a finished point (atomically) and clears a failure recorded for it.
    pub fn save(
        &self,
        point: &PointLabel,
        outcome: &Outcome,
        result: &WorkloadResult,
        activity: &Activity,
    ) -> anyhow::Result<()> {
        let mut body = serde_json::to_vec(&Head {
            key: &point.key,
            point,
            outcome,
        })?;
        body.push(b'\n');
        let detail = serde_json::to_vec(&Detail { result, activity })?;
        let mut z = flate2::write::ZlibEncoder::new(body, flate2::Compression::fast());
        std::io::Write::write_all(&mut z, &detail)?;
        let body = z.finish()?;
        let mut bytes = format!(
            "{POINT_MAGIC} {} fnv1a:{:016x}\n",
            point.key,
            fnv1a(FNV_OFFSET, &body)
        )
        .into_bytes();
        bytes.extend_from_slice(&body);
        let name = format!("{}.json", point.key);
        write_atomic(&self.points_dir(), &name, &bytes).map_err(|e| {
            anyhow::anyhow!(
                "cannot write {}: {e}",
                self.point_path(&point.key).display()
            )
        })?;
        let _ = std::fs::remove_file(self.failure_path(&point.key));
        Ok(())
    }

    fn failure_path(&self, key: &str) -> PathBuf {
        self.dir.join("failed").join(format!("{key}.txt"))
    }

    /// Records why `key` failed.
    pub fn record_failure(&self, key: &str, why: &str) -> std::io::Result<()> {
        write_atomic(
            &self.dir.join("failed"),
            &format!("{key}.txt"),
            why.as_bytes(),
        )
    }

    /// The recorded failure of `key`, if any.
    pub fn failure(&self, key: &str) -> Option<String> {
        std::fs::read_to_string(self.failure_path(key)).ok()
    }

    /// Writes the plan record.
    pub fn write_plan(&self, plan: &PlanRecord) -> anyhow::Result<()> {
        let text = serde_json::to_string_pretty(plan)? + "\n";
        write_atomic(&self.dir, "plan.json", text.as_bytes()).map_err(|e| {
            anyhow::anyhow!("cannot write {}: {e}", self.dir.join("plan.json").display())
        })
    }

    /// Reads the plan record a run wrote.
    pub fn read_plan(&self) -> anyhow::Result<PlanRecord> {
        let path = self.dir.join("plan.json");
        let text = std::fs::read_to_string(&path).map_err(|e| {
            anyhow::anyhow!(
                "{}: {e}; is {} a sweep folder (written by `gpuenergy sweep run --out`)?",
                path.display(),
                self.dir.display()
            )
        })?;
        let plan: PlanRecord = serde_json::from_str(&text)
            .map_err(|e| anyhow::anyhow!("{}: not a sweep plan record: {e}", path.display()))?;
        if plan.format != PLAN_FORMAT {
            anyhow::bail!(
                "{}: format '{}', expected '{PLAN_FORMAT}'",
                path.display(),
                plan.format
            );
        }
        Ok(plan)
    }

    /// Records a shard's state.
    pub fn write_shard(&self, shard: Shard, state: &ShardState) -> anyhow::Result<()> {
        let text = serde_json::to_string_pretty(state)? + "\n";
        let name = format!("{}-of-{}.json", shard.index, shard.count);
        write_atomic(&self.dir.join("shards"), &name, text.as_bytes())
            .map_err(|e| anyhow::anyhow!("cannot write shard state in {}: {e}", self.dir.display()))
    }

    /// Every recorded shard state, ordered by shard count, then index.
    pub fn shard_states(&self) -> Vec<(Shard, ShardState)> {
        let mut out = Vec::new();
        let Ok(rd) = std::fs::read_dir(self.dir.join("shards")) else {
            return out;
        };
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let Some(stem) = name.strip_suffix(".json") else {
                continue;
            };
            let Some((i, n)) = stem.split_once("-of-") else {
                continue;
            };
            let Ok(shard) = format!("{i}/{n}").parse::<Shard>() else {
                continue;
            };
            let state = std::fs::read_to_string(e.path())
                .ok()
                .and_then(|t| serde_json::from_str::<ShardState>(&t).ok());
            if let Some(s) = state {
                out.push((shard, s));
            }
        }
        out.sort_by_key(|(s, _)| (s.count, s.index));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_floats_round_trip() {
        let o = Outcome {
            tech: "t".into(),
            vdd_v: 0.1 + 0.2,
            cycles: 1,
            warp_instructions: 2,
            truncated: false,
            runtime_s: 1.234_567_890_123_456_7e-7,
            energy_j: f64::MIN_POSITIVE,
            dynamic_j: 5e-324,
            leakage_j: 1.0 / 3.0,
            average_power_w: 123_456.789,
            edp_js: 9.999_999_999_999_999e-20,
            area_mm2: 529.0,
            chip_leakage_w: 0.0,
            sample_error: Some(SampleError {
                cycles: 0.1 + 0.7,
                energy: 1e-300,
            }),
        };
        let back: Outcome = serde_json::from_str(&serde_json::to_string(&o).unwrap()).unwrap();
        assert_eq!(back, o);
    }
}
