//! `sweep`: design-space sweeps. A sweep file ([`file`]) names a base configuration,
//! technology points, workloads and sizes, techniques and axes of knob values; [`plan`]
//! expands it into points (cartesian product with zip groups and exclusions) with a content
//! key each and a shard assignment; [`run`] computes a shard's missing points in parallel into
//! a folder of content-keyed result files ([`store`]), so an interrupted or repeated sweep
//! never recomputes a finished point; [`merge`] writes one table of every point; [`status`]
//! says what is finished, missing, corrupt or failed; [`slurm`] writes (and submits) a Slurm
//! job array whose task `i` runs shard `i/N`, and a merge job after it.

pub mod file;
pub mod merge;
pub mod plan;
pub mod run;
pub mod slurm;
pub mod status;
pub mod store;
