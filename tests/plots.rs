//! Every SVG plot the command line writes (`estimate`, `calibrate`, `correlate`, `compare`,
//! `optimize`, `sweep merge`, `diag`, `breakeven` and `rfstats` with `--plot`), generated from
//! real runs and checked for readability on the SVG text: both axes described with a unit in
//! parentheses or brackets, no text outside the canvas, no tick labels overlapping each other,
//! no legend over a data point, every category label of a bar chart present and non-empty, and
//! a subtitle or title naming what produced the plot (configuration or technology point, and
//! the tool's version). The ignored
//! `render_plots_png` test also rasterises every plot to PNG under `target/plots-png/` (with the
//! `resvg` dev-dependency and the system's fonts) so that the plots can be looked at.

mod common;

use common::gpuenergy;
use std::path::{Path, PathBuf};

/// Repository root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `gpuenergy` and fails with its stderr when it does not succeed.
fn run_ok(args: &[&str]) {
    let out = gpuenergy(args);
    assert!(
        out.status.success(),
        "gpuenergy {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Writes every plot the tool draws into `dir` (estimate over `workloads`, calibrate on the
/// committed ASAP7 goldens, correlate on the committed Accel-Sim TITAN X rows) and returns the
/// SVG files.
fn write_all_plots(dir: &Path, workloads: &str) -> Vec<PathBuf> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    let d = |s: &str| dir.join(s).to_string_lossy().into_owned();
    run_ok(&[
        "estimate",
        "--quiet",
        "--workload",
        workloads,
        "--plot",
        &d("estimate"),
    ]);
    let goldens = root().join("calibration/goldens/asap7-rvt-tt");
    run_ok(&[
        "calibrate",
        "--quiet",
        "--reports",
        &goldens.to_string_lossy(),
        "--out",
        &d("overlay.toml"),
        "--plot",
        &d("calibrate"),
    ]);
    let reference = root().join("tests/data/correlate/accelsim-titanx.csv");
    run_ok(&[
        "correlate",
        "--quiet",
        "--reference",
        &reference.to_string_lossy(),
        "--plot",
        &d("correlate"),
    ]);
    run_ok(&[
        "compare",
        "--quiet",
        "--tech",
        "40nm",
        "--workload",
        "hotspot",
        "--technique",
        "conv-pg",
        "--technique",
        "gates+coord-blackout",
        "--plot",
        &d("compare"),
    ]);
    let cache = d("optimize-cache");
    run_ok(&[
        "optimize",
        "--quiet",
        "--tech",
        "finfet7",
        "--workload",
        "hotspot",
        "--cache-dir",
        &cache,
        "--plot",
        &d("optimize"),
    ]);
    run_ok(&[
        "diag",
        "--quiet",
        "--preset",
        "gtx480",
        "--suite",
        "quick",
        "--plot",
        &d("diag"),
    ]);
    run_ok(&["breakeven", "--tech", "40nm", "--plot", &d("breakeven")]);
    run_ok(&[
        "rfstats",
        "--quiet",
        "--workload",
        "hotspot",
        "--plot",
        &d("rfstats"),
    ]);
    // a small sweep: two techniques, two values of one key, two workloads
    let sweep = dir.join("sweep.toml");
    std::fs::write(
        &sweep,
        "preset = \"gtx480\"\nworkloads = [\"histo\", \"hotspot\"]\n\
         techniques = [\"two-level\", \"conv-pg\"]\n\n[[tech]]\nnode = \"40nm\"\n\n\
         [axes]\n\"pg.idle_detect\" = [5, 10]\n",
    )
    .unwrap();
    let out = d("sweep-run");
    run_ok(&[
        "sweep",
        "run",
        "-q",
        &sweep.to_string_lossy(),
        "--out",
        &out,
    ]);
    run_ok(&["sweep", "merge", "-q", &out]);
    let _ = std::fs::remove_dir_all(dir.join("sweep"));
    std::fs::rename(dir.join("sweep-run/plots"), dir.join("sweep")).unwrap();
    let mut svgs = Vec::new();
    for sub in [
        "estimate",
        "calibrate",
        "correlate",
        "compare",
        "optimize",
        "diag",
        "breakeven",
        "rfstats",
        "sweep",
    ] {
        let mut v: Vec<PathBuf> = std::fs::read_dir(dir.join(sub))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "svg"))
            .collect();
        v.sort();
        svgs.extend(v);
    }
    svgs
}

/// An axis-aligned box in SVG pixels.
#[derive(Debug, Clone, Copy)]
struct Bbox {
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
}

impl Bbox {
    fn intersects(&self, o: &Bbox) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }
}

/// The value of attribute `name` in one SVG tag.
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let i = tag.find(&key)? + key.len();
    let rest = &tag[i..];
    Some(&rest[..rest.find('"')?])
}

fn num(tag: &str, name: &str) -> Option<f64> {
    attr(tag, name)?.trim_end_matches("px").parse().ok()
}

/// One `<text>` element: its string and an estimate of the box it covers. The width is
/// 0.62 em per character (wider than the average glyph of the sans-serif fonts, so the
/// estimate errs towards flagging); the height is 1 em.
#[derive(Debug)]
struct TextEl {
    text: String,
    bbox: Bbox,
    /// Rotation in degrees (0, 90 or 270).
    rot: i32,
}

/// The `<text>` elements of a plotters SVG, with their boxes (anchor, `dy` baseline shift and
/// 90°/270° rotations applied).
fn texts(svg: &str) -> Vec<TextEl> {
    let mut out = Vec::new();
    let mut rest = svg;
    while let Some(i) = rest.find("<text") {
        let after = &rest[i..];
        let Some(close) = after.find('>') else { break };
        let tag = &after[..close];
        let Some(end) = after.find("</text>") else {
            break;
        };
        let text = after[close + 1..end]
            .trim()
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&");
        rest = &after[end..];
        let (x, y) = (num(tag, "x").unwrap_or(0.0), num(tag, "y").unwrap_or(0.0));
        let em = num(tag, "font-size").unwrap_or(16.0);
        let w = 0.62 * em * text.chars().count() as f64;
        let (a0, a1) = match attr(tag, "text-anchor") {
            Some("middle") => (-w / 2.0, w / 2.0),
            Some("end") => (-w, 0.0),
            _ => (0.0, w),
        };
        // Baseline offset: plotters sets dy to 0.76em (text hangs below y), 0.5ex or 0.
        let (b0, b1) = match attr(tag, "dy") {
            Some(d) if d.ends_with("em") && d.starts_with("0.76") => (0.0, em),
            Some(d) if d.ends_with("ex") => (-0.5 * em, 0.5 * em),
            _ => (-0.8 * em, 0.2 * em),
        };
        let rot = attr(tag, "transform")
            .and_then(|t| t.strip_prefix("rotate("))
            .and_then(|t| t.split([',', ')']).next())
            .and_then(|a| a.trim().parse::<f64>().ok())
            .unwrap_or(0.0);
        // Along-the-text extent (a0..a1) and across it (b0..b1), rotated about (x, y).
        let rot = (rot.rem_euclid(360.0)).round() as i32;
        let bbox = match rot {
            90 => Bbox {
                x0: x - b1,
                x1: x - b0,
                y0: y + a0,
                y1: y + a1,
            },
            270 => Bbox {
                x0: x + b0,
                x1: x + b1,
                y0: y - a1,
                y1: y - a0,
            },
            _ => Bbox {
                x0: x + a0,
                x1: x + a1,
                y0: y + b0,
                y1: y + b1,
            },
        };
        out.push(TextEl { text, bbox, rot });
    }
    out
}

/// Canvas size from the root `<svg>` tag.
fn canvas(svg: &str) -> (f64, f64) {
    let i = svg.find("<svg").expect("an <svg> element");
    let tag = &svg[i..i + svg[i..].find('>').unwrap()];
    (num(tag, "width").unwrap(), num(tag, "height").unwrap())
}

/// Whether a string names a unit in parentheses or brackets, e.g. `area (mm²)`.
fn has_unit(s: &str) -> bool {
    let inside = |o: char, c: char| {
        s.find(o)
            .and_then(|i| s[i + 1..].find(c).map(|j| j > 0))
            .unwrap_or(false)
    };
    inside('(', ')') || inside('[', ']')
}

/// The legend box: plotters draws it as a `<rect>` with a white fill at partial opacity and a
/// black border. None when the plot has no legend.
/// The legend box and the byte offset of its `<rect>` (legend entries are drawn after it).
fn legend_box(svg: &str) -> Option<(Bbox, usize)> {
    let mut at = 0;
    while let Some(i) = svg[at..].find("<rect") {
        let start = at + i;
        let tag = &svg[start..start + svg[start..].find('>')?];
        at = start + 5;
        let translucent = num(tag, "opacity").is_some_and(|o| o < 1.0);
        if translucent && attr(tag, "fill") == Some("#FFFFFF") {
            let (x, y) = (num(tag, "x")?, num(tag, "y")?);
            let b = Bbox {
                x0: x,
                y0: y,
                x1: x + num(tag, "width")?,
                y1: y + num(tag, "height")?,
            };
            return Some((b, start));
        }
    }
    None
}

/// Data marks: circles, polygons' corners (points) and opaque filled rectangles other than the
/// background, in `svg` (the part drawn before the legend).
fn data_marks(svg: &str, (w, h): (f64, f64)) -> Vec<Bbox> {
    let mut v = Vec::new();
    for c in svg.split("<circle").skip(1) {
        let tag = &c[..c.find('>').unwrap_or(c.len())];
        let (Some(x), Some(y), Some(r)) = (num(tag, "cx"), num(tag, "cy"), num(tag, "r")) else {
            continue;
        };
        v.push(Bbox {
            x0: x - r,
            y0: y - r,
            x1: x + r,
            y1: y + r,
        });
    }
    for c in svg.split("<polygon").skip(1) {
        let tag = &c[..c.find('>').unwrap_or(c.len())];
        let pts: Vec<f64> = attr(tag, "points")
            .unwrap_or("")
            .split([' ', ','])
            .filter_map(|t| t.parse().ok())
            .collect();
        if pts.len() >= 4 {
            let xs = pts.iter().step_by(2);
            let ys = pts.iter().skip(1).step_by(2);
            v.push(Bbox {
                x0: xs.clone().copied().fold(f64::INFINITY, f64::min),
                x1: xs.copied().fold(f64::NEG_INFINITY, f64::max),
                y0: ys.clone().copied().fold(f64::INFINITY, f64::min),
                y1: ys.copied().fold(f64::NEG_INFINITY, f64::max),
            });
        }
    }
    for c in svg.split("<rect").skip(1) {
        let tag = &c[..c.find('>').unwrap_or(c.len())];
        let (Some(x), Some(y), Some(rw), Some(rh)) = (
            num(tag, "x"),
            num(tag, "y"),
            num(tag, "width"),
            num(tag, "height"),
        ) else {
            continue;
        };
        let b = Bbox {
            x0: x,
            y0: y,
            x1: x + rw,
            y1: y + rh,
        };
        let background = rw >= w - 1.0 && rh >= h - 1.0;
        let translucent = num(tag, "opacity").is_some_and(|o| o < 1.0);
        let fill_none = attr(tag, "fill") == Some("none");
        if background || translucent || fill_none || rw * rh <= 0.0 {
            continue;
        }
        v.push(b);
    }
    v
}

/// Every readability problem found in one plot's SVG text.
fn problems(svg: &str) -> Vec<String> {
    problems_of(svg, false)
}

/// [`problems`] of a plot whose x axis is known to be categorical (bars named by their
/// category labels, which may be horizontal): its description needs no unit, and the lowest
/// text may be a legend entry below the plot.
fn problems_of(svg: &str, known_categorical: bool) -> Vec<String> {
    let mut p = Vec::new();
    let (w, h) = canvas(svg);
    let ts = texts(svg);
    // Axis descriptions: plotters writes the y description rotated by 270°, the x description
    // unrotated, below the x tick labels; both must carry a unit.
    let y_desc = ts
        .iter()
        .filter(|t| t.rot != 0 && t.bbox.x0 < w * 0.15)
        .min_by(|a, b| a.bbox.x0.total_cmp(&b.bbox.x0));
    match y_desc {
        Some(t) if has_unit(&t.text) => {}
        Some(t) => p.push(format!("y axis description '{}' has no unit", t.text)),
        None => p.push("no y axis description".into()),
    }
    let x_desc = ts
        .iter()
        .filter(|t| t.rot == 0 && t.bbox.y0 > h * 0.5)
        .max_by(|a, b| a.bbox.y0.total_cmp(&b.bbox.y0));
    // A categorical x axis (bars: its tick labels are vertical names, not numbers) has no
    // unit; its description must still be there.
    let categorical = ts.iter().any(|t| {
        t.rot != 0
            && !std::ptr::eq(t, y_desc.map_or(std::ptr::null(), |y| y as *const TextEl))
            && !t.text.is_empty()
            && t.text.parse::<f64>().is_err()
    });
    let categorical = categorical || known_categorical;
    match x_desc {
        Some(_) if known_categorical => {}
        Some(t) if has_unit(&t.text) || (categorical && t.text.len() > 3) => {}
        Some(t) => p.push(format!(
            "x axis description (lowest text) '{}' has no unit",
            t.text
        )),
        None => p.push("no x axis description".into()),
    }
    for t in &ts {
        let b = t.bbox;
        if b.x0 < -0.5 || b.y0 < -0.5 || b.x1 > w + 0.5 || b.y1 > h + 0.5 {
            p.push(format!(
                "text '{}' leaves the {w}x{h} canvas ({:.0},{:.0})-({:.0},{:.0})",
                t.text, b.x0, b.y0, b.x1, b.y1
            ));
        }
    }
    for (i, a) in ts.iter().enumerate() {
        for b in &ts[i + 1..] {
            if a.bbox.intersects(&b.bbox) && !a.text.trim().is_empty() && !b.text.trim().is_empty()
            {
                p.push(format!("text '{}' overlaps text '{}'", a.text, b.text));
            }
        }
    }
    if let Some((l, at)) = legend_box(svg) {
        let marks = data_marks(&svg[..at], (w, h));
        if let Some(m) = marks.iter().find(|m| m.intersects(&l)) {
            p.push(format!("legend box {l:?} covers a data mark {m:?}"));
        }
    }
    p
}

/// Renders `svg` to a PNG at `png`, fonts from the system's font database.
fn render_png(svg: &Path, png: &Path) {
    let mut opt = resvg::usvg::Options::default();
    let db = opt.fontdb_mut();
    db.load_system_fonts();
    // fontdb maps the generic `sans-serif` to Arial, often absent: use a sans-serif face the
    // system has.
    let have = |name: &str| {
        db.faces()
            .any(|f| f.families.iter().any(|(n, _)| n == name))
    };
    if let Some(face) = ["DejaVu Sans", "Liberation Sans", "Noto Sans", "FreeSans"]
        .into_iter()
        .find(|n| have(n))
    {
        db.set_sans_serif_family(face);
    }
    let data = std::fs::read(svg).unwrap();
    let tree = resvg::usvg::Tree::from_data(&data, &opt).unwrap();
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    pixmap.fill(resvg::tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap.save_png(png).unwrap();
}

/// The category names a bar chart must show under its bars, by file name; every one must be
/// the text of some label (an empty or missing category label fails).
fn categories(file: &str) -> &'static [&'static str] {
    match file {
        "compare_summary.svg" | "static_savings.svg" | "idle_regions.svg" => {
            &["conv-pg", "gates+coord-blackout"]
        }
        "area_breakdown.svg" => &["front end", "issue", "register file", "execution"],
        "energy_breakdown.svg" | "leakage_share.svg" => &["hotspot", "sgemm"],
        "hotspot_active_lanes.svg" => &["1-4", "25-32"],
        _ => &[],
    }
}

/// The words a plot's title or subtitle must hold: what produced it, by the command's
/// subfolder (the configuration or the technology point, and the tool for the commands with a
/// subtitle).
fn provenance_words(command: &str) -> &'static [&'static str] {
    match command {
        "estimate" => &["gtx480", "finfet7"],
        "compare" => &["gtx480", "40nm", "gpuenergy"],
        "correlate" => &["gtx480", "gpuenergy"],
        "optimize" => &["gtx480", "finfet7", "gpuenergy"],
        "diag" => &["gtx480", "gpuenergy"],
        "breakeven" => &["40nm", "gpuenergy"],
        "rfstats" => &["gtx480", "gpuenergy"],
        "sweep" => &["gtx480", "sweep.toml", "gpuenergy"],
        _ => &[],
    }
}

/// The grid lines of a plot: plotters draws its mesh as translucent `<line>` elements; returns
/// how many run horizontally and how many vertically, so that a dense minor grid (ten light
/// lines between two labelled ones) is caught.
fn grid_lines(svg: &str) -> (usize, usize) {
    let (mut h, mut v) = (0, 0);
    for c in svg.split("<line ").skip(1) {
        let tag = format!(" {}", &c[..c.find('>').unwrap_or(c.len())]);
        if !num(&tag, "opacity").is_some_and(|o| o < 1.0) {
            continue;
        }
        let (Some(x1), Some(y1), Some(x2), Some(y2)) = (
            num(&tag, "x1"),
            num(&tag, "y1"),
            num(&tag, "x2"),
            num(&tag, "y2"),
        ) else {
            continue;
        };
        if (y1 - y2).abs() < 0.5 {
            h += 1;
        } else if (x1 - x2).abs() < 0.5 {
            v += 1;
        }
    }
    (h, v)
}

#[test]
fn every_plot_is_readable() {
    let dir = root().join("target/plots-check");
    let svgs = write_all_plots(&dir, "all");
    assert!(svgs.len() >= 17, "expected every plot, got {svgs:?}");
    let mut all = Vec::new();
    for s in &svgs {
        let text = std::fs::read_to_string(s).unwrap();
        let name = s.file_name().unwrap().to_string_lossy();
        let command = s
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let labels: Vec<String> = texts(&text).into_iter().map(|t| t.text).collect();
        for w in provenance_words(&command) {
            if !labels.iter().any(|l| l.contains(w)) {
                all.push(format!("{}: no title names '{w}'", s.display()));
            }
        }
        let (h, v) = grid_lines(&text);
        if h > 40 || v > 40 {
            all.push(format!("{}: a dense grid ({h} by {v} lines)", s.display()));
        }
        for p in problems_of(&text, !categories(&name).is_empty()) {
            all.push(format!("{}: {p}", s.display()));
        }
        for c in categories(&name) {
            if !labels.iter().any(|l| l == c) {
                all.push(format!("{}: no category label '{c}'", s.display()));
            }
        }
    }
    assert!(all.is_empty(), "{}", all.join("\n"));
}

/// Writes every plot over the whole workload suite into `target/plots/` and renders each to
/// `target/plots-png/<command>-<plot>.png`: `cargo test --release --test plots -- --ignored`.
/// With `RENDER_SVG_DIR=DIR` it renders the SVG files under `DIR/<command>/` instead (plots
/// written earlier), into `target/plots-png/<DIR's name>/`.
#[test]
#[ignore]
fn render_plots_png() {
    let (svgs, png_dir) = match std::env::var_os("RENDER_SVG_DIR") {
        Some(d) => {
            let d = PathBuf::from(d);
            let mut v: Vec<PathBuf> = std::fs::read_dir(&d)
                .unwrap()
                .flatten()
                .filter(|e| e.path().is_dir())
                .flat_map(|e| std::fs::read_dir(e.path()).unwrap().flatten())
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "svg"))
                .collect();
            v.sort();
            let name = d.file_name().unwrap().to_owned();
            (v, root().join("target/plots-png").join(name))
        }
        None => (
            write_all_plots(&root().join("target/plots"), "all"),
            root().join("target/plots-png"),
        ),
    };
    std::fs::create_dir_all(&png_dir).unwrap();
    for s in &svgs {
        let cmd = s.parent().unwrap().file_name().unwrap().to_string_lossy();
        let stem = s.file_stem().unwrap().to_string_lossy();
        let png = png_dir.join(format!("{cmd}-{stem}.png"));
        render_png(s, &png);
        println!("{}", png.display());
        for p in problems(&std::fs::read_to_string(s).unwrap()) {
            println!("  {p}");
        }
    }
}

/// The checks are not vacuous: a small plot with each fault is flagged for each.
#[test]
fn the_checks_flag_an_unreadable_plot() {
    let bad = r##"<svg width="200" height="100" viewBox="0 0 200 100" xmlns="http://www.w3.org/2000/svg">
<rect x="0" y="0" width="200" height="100" opacity="1" fill="#FFFFFF" stroke="none"/>
<circle cx="150" cy="20" r="4" opacity="1" fill="#1F77B4" stroke="none"/>
<text x="5" y="50" dy="0.76em" text-anchor="middle" font-family="sans-serif" font-size="10" transform="rotate(270, 5, 50)">
energy
</text>
<text x="100" y="88" dy="0.76em" text-anchor="middle" font-family="sans-serif" font-size="10">
reference cycles
</text>
<text x="60" y="30" dy="0.5ex" text-anchor="start" font-family="sans-serif" font-size="10">
hotspot
</text>
<text x="70" y="32" dy="0.5ex" text-anchor="start" font-family="sans-serif" font-size="10">
backprop
</text>
<text x="170" y="60" dy="0.5ex" text-anchor="start" font-family="sans-serif" font-size="10">
a label running off the edge
</text>
<rect x="140" y="10" width="50" height="30" opacity="0.85" fill="#FFFFFF" stroke="none"/>
</svg>"##;
    let p = problems(bad);
    let has = |s: &str| p.iter().any(|m| m.contains(s));
    assert!(has("y axis description 'energy' has no unit"), "{p:?}");
    assert!(
        has("x axis description (lowest text) 'reference cycles' has no unit"),
        "{p:?}"
    );
    assert!(has("'a label running off the edge' leaves"), "{p:?}");
    assert!(has("'hotspot' overlaps text 'backprop'"), "{p:?}");
    assert!(has("legend box"), "{p:?}");
    let good = bad
        .replace("\nenergy\n", "\nenergy (µJ)\n")
        .replace("reference cycles", "reference (cycles)")
        .replace("x=\"70\" y=\"32\"", "x=\"60\" y=\"50\"")
        .replace("a label running off the edge", "ok")
        .replace("cx=\"150\"", "cx=\"100\"");
    assert!(problems(&good).is_empty(), "{:?}", problems(&good));
    // a minor grid: many translucent lines across an axis are counted
    let dense: String = (0..60)
        .map(|i| {
            format!(
                "<line opacity=\"0.1\" stroke=\"#000000\" x1=\"{i}\" y1=\"0\" x2=\"{i}\" y2=\"90\"/>\n"
            )
        })
        .collect();
    assert_eq!(grid_lines(&dense), (0, 60));
}
