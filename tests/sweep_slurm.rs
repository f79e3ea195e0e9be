//! `gpuenergy sweep slurm --submit` against a real Slurm: the test starts a single-node
//! cluster of its own (munged with a fresh key, slurmctld and slurmd in the foreground with a
//! minimal generated `slurm.conf`, every state and log file in a temporary folder), submits a
//! small sweep as a 2-task job array and its merge job, waits for the merged table and checks
//! that it is byte-identical to a local `sweep run` + `sweep merge` of the same file. Then it
//! stops the daemons.
//!
//! Needs `munged`, `slurmctld`, `slurmd`, `sbatch`, `squeue` and `sinfo` (Debian: `slurm-wlm`,
//! `munge`) and root (the generated configuration runs Slurm as root). Without them the test
//! says why and passes as skipped, unless `CI` is set, in which case it fails.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const TOOLS: &[&str] = &["munged", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo"];

fn found(tool: &str) -> bool {
    std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).any(|d| d.join(tool).is_file()))
        .unwrap_or(false)
        || ["/usr/sbin", "/usr/bin", "/sbin"]
            .iter()
            .any(|d| Path::new(d).join(tool).is_file())
}

fn which(tool: &str) -> PathBuf {
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .chain(["/usr/sbin", "/usr/bin", "/sbin"].iter().map(PathBuf::from))
        .map(|d| d.join(tool))
        .find(|p| p.is_file())
        .unwrap_or_else(|| PathBuf::from(tool))
}

/// Why the test cannot run here, if it cannot.
fn missing() -> Option<String> {
    let absent: Vec<&str> = TOOLS.iter().copied().filter(|t| !found(t)).collect();
    if !absent.is_empty() {
        return Some(format!(
            "{} not found (apt-get install slurm-wlm munge)",
            absent.join(", ")
        ));
    }
    let uid = Command::new("id").arg("-u").output().ok()?;
    if String::from_utf8_lossy(&uid.stdout).trim() != "0" {
        return Some("not root (the generated slurm.conf runs Slurm as root)".into());
    }
    None
}

/// The daemons, stopped when dropped (also when an assertion fails).
struct Cluster {
    children: Vec<(String, Child)>,
    dir: PathBuf,
    conf: PathBuf,
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for (_, c) in self.children.iter_mut().rev() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Cluster {
    fn logs(&self) -> String {
        let mut s = String::new();
        for name in ["slurmctld.log", "slurmd.log", "munged.log"] {
            let t = std::fs::read_to_string(self.dir.join(name)).unwrap_or_default();
            let tail: Vec<&str> = t.lines().rev().take(15).collect();
            s += &format!(
                "== {name}\n{}\n",
                tail.into_iter().rev().collect::<Vec<_>>().join("\n")
            );
        }
        s
    }

    fn client(&self, tool: &str, args: &[&str]) -> Output {
        Command::new(which(tool))
            .args(args)
            .env("SLURM_CONF", &self.conf)
            .output()
            .unwrap_or_else(|e| panic!("{tool}: {e}"))
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn spawn(dir: &Path, name: &str, tool: &str, args: &[String]) -> (String, Child) {
    let log = std::fs::File::create(dir.join(format!("{name}.out"))).unwrap();
    let child = Command::new(which(tool))
        .args(args)
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .unwrap_or_else(|e| panic!("{tool}: {e}"));
    (name.to_string(), child)
}

fn start(dir: &Path) -> Cluster {
    let d = |p: &str| dir.join(p).display().to_string();
    for sub in ["state", "spool"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    // a fresh 1024-byte munge key, readable by its owner only
    let key: Vec<u8> = {
        let mut k = vec![0u8; 1024];
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15 ^ std::process::id() as u64;
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos() as u64;
        x ^= t;
        for b in &mut k {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *b = (x >> 24) as u8;
        }
        k
    };
    std::fs::write(dir.join("munge.key"), key).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(
        dir.join("munge.key"),
        std::fs::Permissions::from_mode(0o600),
    )
    .unwrap();
    let socket = d("munge.sock");
    let mut children = vec![spawn(
        dir,
        "munged",
        "munged",
        &[
            "--foreground".into(),
            "--force".into(),
            format!("--key-file={}", d("munge.key")),
            format!("--socket={socket}"),
            format!("--log-file={}", d("munged.log")),
            format!("--pid-file={}", d("munged.pid")),
            format!("--seed-file={}", d("munged.seed")),
        ],
    )];
    let t0 = Instant::now();
    while !Path::new(&socket).exists() && t0.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let host = String::from_utf8(Command::new("hostname").arg("-s").output().unwrap().stdout)
        .unwrap()
        .trim()
        .to_string();
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let conf = format!(
        "ClusterName=gpuenergytest\n\
         SlurmctldHost={host}(127.0.0.1)\n\
         SlurmctldPort={ctld}\n\
         SlurmdPort={slurmd}\n\
         SlurmUser=root\n\
         SlurmdUser=root\n\
         AuthType=auth/munge\n\
         CredType=cred/munge\n\
         AuthInfo=socket={socket}\n\
         StateSaveLocation={state}\n\
         SlurmdSpoolDir={spool}\n\
         SlurmctldPidFile={dir}/slurmctld.pid\n\
         SlurmdPidFile={dir}/slurmd.pid\n\
         SlurmctldLogFile={dir}/slurmctld.log\n\
         SlurmdLogFile={dir}/slurmd.log\n\
         PlugStackConfig={dir}/plugstack.conf\n\
         ProctrackType=proctrack/linuxproc\n\
         TaskPlugin=task/none\n\
         SelectType=select/cons_tres\n\
         SelectTypeParameters=CR_CPU\n\
         SwitchType=switch/none\n\
         MpiDefault=none\n\
         JobAcctGatherType=jobacct_gather/none\n\
         AccountingStorageType=accounting_storage/none\n\
         ReturnToService=2\n\
         NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN\n\
         PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n",
        ctld = free_port(),
        slurmd = free_port(),
        state = d("state"),
        spool = d("spool"),
        dir = dir.display(),
    );
    std::fs::write(dir.join("plugstack.conf"), "").unwrap();
    let conf_path = dir.join("slurm.conf");
    std::fs::write(&conf_path, conf).unwrap();
    let f = conf_path.display().to_string();
    children.push(spawn(
        dir,
        "slurmctld",
        "slurmctld",
        &["-D".into(), "-i".into(), "-f".into(), f.clone()],
    ));
    children.push(spawn(
        dir,
        "slurmd",
        "slurmd",
        &["-D".into(), "-f".into(), f, "-N".into(), host],
    ));
    let c = Cluster {
        children,
        dir: dir.to_path_buf(),
        conf: conf_path,
    };
    // the node is up when sinfo reports it idle
    let t0 = Instant::now();
    loop {
        let o = c.client("sinfo", &["-h", "-o", "%T"]);
        let state = String::from_utf8_lossy(&o.stdout).trim().to_string();
        if state.starts_with("idle") {
            break;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "the Slurm node did not come up (sinfo: '{state}' {})\n{}",
            String::from_utf8_lossy(&o.stderr),
            c.logs()
        );
        std::thread::sleep(Duration::from_millis(250));
    }
    c
}

/// 2 techniques x 2 values x 1 workload = 4 points of the `test` size.
const SWEEP: &str = r#"preset = "gtx480"
workloads = ["histo"]
techniques = ["two-level", "conv-pg"]

[[tech]]
node = "40nm"

[axes]
"pg.idle_detect" = [5, 10]
"#;

fn gpuenergy(args: &[&str], conf: Option<&Path>) -> String {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gpuenergy"));
    c.args(args);
    if let Some(p) = conf {
        c.env("SLURM_CONF", p);
    }
    let o = c.output().unwrap();
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn slurm_array_merges_to_the_local_result() {
    if let Some(why) = missing() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set and the Slurm test cannot run: {why}"
        );
        eprintln!("skipped: {why}");
        return;
    }
    let dir = std::env::temp_dir().join(format!("gpuenergy-sweep-slurm-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let cluster = start(&dir.join("cluster"));
    let file = dir.join("s.toml");
    std::fs::write(&file, SWEEP).unwrap();
    let f = file.display().to_string();
    let shared = dir.join("slurm-out");
    let s = shared.display().to_string();
    let out = gpuenergy(
        &[
            "sweep",
            "slurm",
            &f,
            "--out",
            &s,
            "--array-size",
            "2",
            "--time",
            "10",
            "--submit",
        ],
        Some(&cluster.conf),
    );
    assert!(
        out.contains("submitted array job") && out.contains("submitted merge job"),
        "{out}"
    );
    // wait for the merge job: its table exists and the queue is empty
    let t0 = Instant::now();
    loop {
        let q = cluster.client("squeue", &["-h"]);
        let queue = String::from_utf8_lossy(&q.stdout).trim().to_string();
        if queue.is_empty() && shared.join("sweep.json").exists() {
            break;
        }
        if queue.is_empty() && t0.elapsed() > Duration::from_secs(20) {
            let logs: String = ["task-0.out", "task-1.out", "merge.out"]
                .iter()
                .map(|n| {
                    format!(
                        "== {n}\n{}",
                        std::fs::read_to_string(shared.join("slurm").join(n)).unwrap_or_default()
                    )
                })
                .collect();
            panic!(
                "the jobs ended without a merged table\n{logs}\n{}",
                cluster.logs()
            );
        }
        assert!(
            t0.elapsed() < Duration::from_secs(600),
            "the sweep did not finish in 600 s; queue:\n{queue}\n{}",
            cluster.logs()
        );
        std::thread::sleep(Duration::from_millis(500));
    }
    for i in 0..2 {
        let log = std::fs::read_to_string(shared.join(format!("slurm/task-{i}.out"))).unwrap();
        assert!(log.contains(&format!("shard {i}/2: 2 points")), "{log}");
    }
    let status = gpuenergy(&["sweep", "status", &s], None);
    assert!(
        status.contains("4 points: 4 done") && status.contains("complete"),
        "{status}"
    );
    // the same sweep run here
    let local = dir.join("local");
    let l = local.display().to_string();
    gpuenergy(&["sweep", "run", &f, "--out", &l, "-q"], None);
    gpuenergy(&["sweep", "merge", &l, "-q"], None);
    for name in ["sweep.csv", "sweep.json"] {
        let a = std::fs::read(local.join(name)).unwrap();
        let b = std::fs::read(shared.join(name)).unwrap();
        assert!(
            a == b,
            "{name} differs between the local run and the Slurm array"
        );
    }
    // a resubmission of the finished sweep submits no array task, only the merge
    let out = gpuenergy(
        &[
            "sweep",
            "slurm",
            &f,
            "--out",
            &s,
            "--array-size",
            "2",
            "--submit",
        ],
        Some(&cluster.conf),
    );
    assert!(out.contains("no array job submitted"), "{out}");
    let t0 = Instant::now();
    while t0.elapsed() < Duration::from_secs(120) {
        let q = cluster.client("squeue", &["-h"]);
        if String::from_utf8_lossy(&q.stdout).trim().is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    drop(cluster);
    let _ = std::fs::remove_dir_all(&dir);
}
