//! Gantt pictures and `makespan explain` as users see them: the SVG parses as XML with one
//! bar per activity piece, the same input gives the same bytes, violations are marked, the
//! HTML renders in a headless browser (Debian's `chromium`) with its lanes, and the README's
//! picture and explanation text are what the tool produces now.

use std::path::{Path, PathBuf};
use std::process::Command;

use makespan::explain::gantt::{self, Chart};
use makespan::explain::{explain, Explanation};
use makespan::instance::Instance;
use makespan::schedule::{Piece, ScheduledActivity};
use makespan::{verify, SolveOptions, Status};
use makespan_testkit::{data, skip};
use proptest::prelude::*;

use crate::common::strategies::{agent_instances, mutation_instances, rcpsp_instances};
use crate::common::{makespan, text};

fn explained(instance: &Instance, schedule: &[ScheduledActivity]) -> Explanation {
    let report = verify(instance, schedule);
    explain(instance, schedule, &report.violations, None).expect("no reference")
}

fn svg_of(
    instance: &Instance,
    schedule: &[ScheduledActivity],
    reference: Option<&[ScheduledActivity]>,
) -> String {
    let explanation = explained(instance, schedule);
    gantt::svg(&Chart {
        instance,
        schedule,
        explanation: &explanation,
        reference,
    })
}

/// The plan section's bars (`g.piece`), by activity.
fn pieces(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).expect("the SVG is well-formed XML");
    let plan = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("section plan"))
        .expect("a plan section");
    plan.descendants()
        .filter(|n| n.tag_name().name() == "g")
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.split(' ').next() == Some("piece"))
        })
        .map(|n| n.attribute("data-activity").unwrap_or_default().to_string())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn svg_parses_as_xml_with_one_bar_per_activity_piece(
        instance in prop_oneof![agent_instances(), rcpsp_instances(), mutation_instances()],
    ) {
        let solution = makespan::solve(&instance, &SolveOptions::default());
        prop_assume!(solution.status == Status::Optimal);
        let svg = svg_of(&instance, &solution.schedule, Some(&solution.schedule));
        let mut drawn = pieces(&svg);
        drawn.sort();
        let mut expected: Vec<String> = solution
            .schedule
            .iter()
            .flat_map(|s| s.pieces.iter().map(move |_| s.activity.clone()))
            .collect();
        expected.sort();
        prop_assert_eq!(drawn, expected);
        prop_assert_eq!(&svg, &svg_of(&instance, &solution.schedule, Some(&solution.schedule)), "same input, same bytes");
    }
}

fn breakfast() -> Instance {
    makespan::load("instances/two-cooks-breakfast.json", &Default::default()).expect("bundled")[0]
        .clone()
}

#[test]
fn violations_are_marked_in_red_with_their_message() {
    let instance = breakfast();
    let mut plan = makespan::solve(&instance, &SolveOptions::default()).schedule;
    // Start every activity at 0: precedences and the stove break.
    for s in &mut plan {
        let d = s.pieces[0].1 - s.pieces[0].0;
        s.pieces = vec![Piece(0, d)];
    }
    let e = explained(&instance, &plan);
    assert!(!e.valid);
    let svg = svg_of(&instance, &plan, None);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let marks = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("violation"))
        .count();
    assert!(marks > 0, "{svg}");
    let titles: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("title"))
        .filter_map(|n| n.text())
        .collect();
    for v in &e.violations {
        assert!(
            titles.iter().any(|t| t.contains(&v.message)),
            "{}",
            v.message
        );
    }
    assert!(pieces(&svg).len() == plan.len());
}

/// A Debian `chromium`, or `None` (the test is then skipped, saying so).
fn chromium() -> Option<PathBuf> {
    let found = ["chromium", "chromium-browser"].iter().find_map(|name| {
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|dir| dir.join(name))
                .find(|p| p.is_file())
        })
    });
    if found.is_none() {
        skip("no chromium on PATH (apt-get install -y chromium; .ci/run installs it)");
    }
    found
}

/// The PNG's pixels as RGB triples.
fn pixels(png_path: &Path) -> (u32, u32, Vec<[u8; 3]>) {
    let file = std::io::BufReader::new(std::fs::File::open(png_path).expect("screenshot written"));
    let mut decoder = png::Decoder::new(file);
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("fits in memory")];
    let info = reader.next_frame(&mut buf).expect("a frame");
    let channels = info.color_type.samples();
    let rgb = buf[..info.line_size * info.height as usize]
        .chunks(channels)
        .filter(|p| p.len() >= 3)
        .map(|p| [p[0], p[1], p[2]])
        .collect();
    (info.width, info.height, rgb)
}

fn hex(colour: &str) -> [u8; 3] {
    let v = u32::from_str_radix(colour.trim_start_matches('#'), 16).unwrap();
    [(v >> 16) as u8, (v >> 8) as u8, v as u8]
}

#[test]
fn html_renders_headless_with_its_lanes_and_bars() {
    let Some(browser) = chromium() else { return };
    let instance = breakfast();
    let solution = makespan::solve(&instance, &SolveOptions::default());
    let e = explained(&instance, &solution.schedule);
    let html = gantt::html(&Chart {
        instance: &instance,
        schedule: &solution.schedule,
        explanation: &e,
        reference: Some(&solution.schedule),
    });
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("plan.html");
    std::fs::write(&page, html).unwrap();
    let shot = dir.path().join("plan.png");
    let profile = dir.path().join("profile");
    let output = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--hide-scrollbars",
            "--window-size=1300,700",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    assert!(shot.exists(), "no screenshot: {}", text(&output));
    let (width, height, rgb) = pixels(&shot);
    assert_eq!((width, height), (1300, 700));
    let count = |colour: &str| rgb.iter().filter(|p| **p == hex(colour)).count();
    let white = count("#ffffff");
    assert!(white < rgb.len() * 95 / 100, "the page is blank");
    // Lanes: both background shades cover a band each; bars: the agents' and the chain's colours.
    for lane in ["#eef1f5", "#fafbfc"] {
        assert!(
            count(lane) > 20_000,
            "lane colour {lane}: {} pixels",
            count(lane)
        );
    }
    assert!(
        count("#4e79a7") > 2_000,
        "busy bars: {} pixels",
        count("#4e79a7")
    );
    assert!(
        count("#f28e2b") > 2_000,
        "critical chain: {} pixels",
        count("#f28e2b")
    );
}

/// The README's example: a ParaCook answer (the subtasks in a topological order dealt to the
/// two cooks in turn) against the proven optimum.
const ANSWER: &str = "docs/examples/paracook-salad-s42-o2-m2.answer.json";
const OPTIMUM: &str = "docs/examples/paracook-salad-s42-o2-m2.json";
const INSTANCE: &str = "paracook/abstract/salad/seed_42/orders_num_2.json";

#[test]
fn readme_picture_is_what_gantt_draws_now() {
    let Some(instance) = data(INSTANCE) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("gantt.svg");
    let instance = instance.to_string_lossy().to_string();
    let run = makespan(&[
        "gantt",
        ANSWER,
        "--instance",
        &instance,
        "--agents",
        "2",
        "--compare",
        OPTIMUM,
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", text(&run));
    let now = std::fs::read_to_string(&out).unwrap();
    let committed = std::fs::read_to_string("docs/paracook-gantt.svg").unwrap_or_default();
    assert!(
        now == committed,
        "docs/paracook-gantt.svg is stale: regenerate it with makespan gantt {ANSWER} --instance ../shared/benchmarks/{INSTANCE} --agents 2 --compare {OPTIMUM} -o docs/paracook-gantt.svg"
    );
}

#[test]
fn readme_explain_text_is_what_explain_prints_now() {
    let Some(instance) = data(INSTANCE) else {
        return;
    };
    let instance = instance.to_string_lossy().to_string();
    let run = makespan(&[
        "explain",
        ANSWER,
        "--instance",
        &instance,
        "--agents",
        "2",
        "--solution",
        OPTIMUM,
    ]);
    assert!(run.status.success(), "{}", text(&run));
    let printed = String::from_utf8(run.stdout).unwrap();
    let readme = std::fs::read_to_string("README.md").unwrap();
    assert!(
        readme.contains(&format!("```text\n{printed}```")),
        "the README's explain example is stale; it prints now:\n{printed}"
    );
}

#[test]
fn score_html_shows_every_answer_and_each_gantt_beside_its_optimum() {
    let Some(data) = data("paracook") else { return };
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("run.html");
    let run = makespan(&[
        "score",
        "tests/fixtures/score/paracook/results/abstract/model-x.json",
        "--data",
        data.to_str().unwrap(),
        "--solutions",
        dir.path().join("solutions").to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
    ]);
    let html = std::fs::read_to_string(&page).unwrap_or_else(|_| panic!("{}", text(&run)));
    let json = makespan(&[
        "score",
        "tests/fixtures/score/paracook/results/abstract/model-x.json",
        "--data",
        data.to_str().unwrap(),
        "--solutions",
        dir.path().join("solutions").to_str().unwrap(),
        "--json",
        "-",
    ]);
    let report: makespan::score::RunReport = serde_json::from_slice(&json.stdout).unwrap();
    for row in &report.rows {
        // minijinja's HTML escaping writes `/` as `&#x2f;`.
        let escaped = row.key.replace('/', "&#x2f;");
        assert!(html.contains(&escaped), "{} missing", row.key);
    }
    let scored = report.rows.iter().filter(|r| r.error.is_none()).count();
    assert_eq!(html.matches("<details id=\"answer-").count(), scored);
    // Each scored answer's Gantt has the plan and, below it, the optimum.
    assert_eq!(html.matches("class=\"section reference\"").count(), scored);
    assert!(html.contains("Ratio to the optimum"));
    // The scatter had no axis labels.
    assert!(
        html.contains("class=\"axis-label y\"")
            && html.contains("ratio to the optimum (makespan / optimum)"),
        "the scatter's y axis is labelled"
    );
    assert!(
        html.contains("class=\"axis-label x\"") && html.contains("answers, in the table"),
        "the scatter's x axis is labelled"
    );
    for m in &report.headline.metrics {
        assert!(html.contains(&format!("<td>{}</td>", m.name)), "{}", m.name);
    }
}

/// `gantt` drew every piece: 100,000 pieces made a 94 MB page (23 s, 1 GB). Over the limit
/// the chart is refused with the count and the flag that raises it.
#[test]
fn gantt_refuses_more_pieces_than_it_can_draw_legibly() {
    let dir = tempfile::tempdir().unwrap();
    let n = 30_000;
    let pieces: Vec<String> = (0..n)
        .map(|k| format!("[{}, {}]", 2 * k, 2 * k + 1))
        .collect();
    let plan = dir.path().join("plan.json");
    std::fs::write(
        &plan,
        format!(
            r#"{{"format": "makespan-plan/1",
                 "instance": {{"format": "makespan-instance/1", "name": "split", "agents": 1,
                               "activities": [{{"id": "a", "duration": {n}, "preemptible": true}}]}},
                 "schedule": [{{"activity": "a", "agent": 0, "pieces": [{}]}}]}}"#,
            pieces.join(",")
        ),
    )
    .unwrap();
    let svg = dir.path().join("g.svg");
    let run =
        crate::common::makespan(&["gantt", plan.to_str().unwrap(), "-o", svg.to_str().unwrap()]);
    let said = crate::common::text(&run);
    assert_eq!(run.status.code(), Some(2), "{said}");
    assert!(
        said.contains("the chart would draw 30000 pieces, over the limit of 20000; raise it with --max-pieces N"),
        "{said}"
    );
    assert!(!svg.exists());
}

/// A TimeArena run with pools was drawn with the label's slot (`fry beef in {fryer}`), and its
/// pools' load profiles were the one colour the key did not explain.
#[test]
fn pooled_actions_are_labelled_with_the_container_used_and_pools_are_in_the_key() {
    let Some(data) = data("") else { return };
    let opts = makespan::ImportOptions::default();
    let instance =
        makespan::load_instance("timearena:cooking1+cooking2", Some(&data), &opts).unwrap();
    let solved = makespan::solve(
        &instance,
        &SolveOptions {
            heuristic_only: true,
            ..SolveOptions::default()
        },
    );
    let drawing = makespan::Drawing::new(&instance, &solved.schedule, None);
    let svg = svg_of(&drawing.instance, &drawing.schedule, None);
    assert!(!svg.contains("{fryer}") && !svg.contains("{pot}"), "{svg}");
    let answer = makespan::benchmarks::timearena::decisions(&instance, &solved.schedule);
    let fried = drawing
        .instance
        .activities
        .iter()
        .find(|a| a.id == "fry beef in fryer")
        .and_then(|a| a.label.clone())
        .unwrap();
    assert!(fried.starts_with("fry beef in fryer_"), "{fried}");
    assert!(
        answer.contains(&fried),
        "the answer file names the same fryer: {fried}"
    );
    assert!(
        svg.contains(&format!(">\n{fried}\n</text>")),
        "the bar's label is whole: {fried}"
    );
    assert!(
        svg.contains("pool in use"),
        "the key explains the pools' profiles"
    );
}
