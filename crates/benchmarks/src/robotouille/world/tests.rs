//! The release backend's quirks, one test each, on small hand-made kitchens (the random
//! walks against upstream's own backend are in `tests/robotouille_world.rs`).

use serde_json::{json, Value};

use super::replay::{replay_texts, StepOutcome};
use super::rules::{EffectKind, Meal, F_COOKED, F_COOKING};
use super::Kitchen;

/// A one-row kitchen: `stations` left to right at y = 1, `items` as (kind, x, level,
/// predicates), one robot below x = 0 facing up (or more robots, one per x).
fn kitchen(
    stations: &[&str],
    items: &[(&str, i64, i64, &[&str])],
    robots: usize,
    goal: Value,
) -> Kitchen {
    let env = json!({
        "width": 8, "height": 4,
        "stations": stations.iter().enumerate().map(|(x, s)| json!({"name": s, "x": x, "y": 1})).collect::<Vec<_>>(),
        "items": items.iter().map(|(k, x, l, p)| json!({"name": k, "x": x, "y": 1, "stack-level": l, "predicates": p})).collect::<Vec<_>>(),
        "containers": [], "meals": [],
        "players": (0..robots).map(|x| json!({"name": "robot", "x": x, "y": 0, "direction": [0, 1]})).collect::<Vec<_>>(),
        "goal_description": "test", "goal": goal,
    });
    Kitchen::from_environment(&env).unwrap()
}

fn cooked_after(k: &Kitchen, plan: &[&str], item: usize) -> Option<usize> {
    let mut state = k.initial.clone();
    for (n, text) in plan.iter().enumerate() {
        let act = super::replay::resolve(k, &state, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        state.step(act);
        if state.items[item].flags & F_COOKED != 0 {
            return Some(n + 1);
        }
    }
    None
}

const COOK_GOAL: fn() -> Value =
    || json!([{"predicate": "iscooked", "args": ["chicken"], "ids": [1]}]);

#[test]
fn a_cook_at_step_k_is_ready_after_step_k_plus_3() {
    let k = kitchen(
        &["stove"],
        &[("chicken", 0, 0, &["iscookable"])],
        1,
        COOK_GOAL(),
    );
    let plan = [
        "Cook chicken1 on stove1 using robot1",
        "Do nothing",
        "Do nothing",
        "Do nothing",
        "Do nothing",
    ];
    assert_eq!(cooked_after(&k, &plan, 0), Some(4));
}

#[test]
fn taking_the_item_off_the_stove_pauses_its_timer_and_putting_it_back_resumes_it() {
    let k = kitchen(
        &["stove"],
        &[("chicken", 0, 0, &["iscookable"])],
        1,
        COOK_GOAL(),
    );
    let plan = [
        "Cook chicken1 on stove1 using robot1",
        "Pick up chicken1 from stove1 using robot1",
        "Do nothing",
        "Do nothing",
        "Place chicken1 on stove1 using robot1",
        "Do nothing",
        "Do nothing",
    ];
    let mut state = k.initial.clone();
    for text in &plan[..2] {
        state.step(super::replay::resolve(&k, &state, text).unwrap());
    }
    assert_eq!(
        state.items[0].flags & F_COOKING,
        0,
        "off the stove it is not cooking"
    );
    // Ticks: the cook's step, then nothing while held, then the place's step and on.
    assert_eq!(cooked_after(&k, &plan, 0), Some(7));
}

#[test]
fn an_effect_completed_in_the_walk_makes_the_next_one_skip_a_tick() {
    let potato: &[&str] = &["iscuttable", "isfryableifcut"];
    let k = kitchen(
        &["board", "stove"],
        &[("potato", 0, 0, potato), ("chicken", 1, 0, &["iscookable"])],
        1,
        COOK_GOAL(),
    );
    let start = [
        "Cut potato1 on board1 using robot1",
        "Cut potato1 on board1 using robot1",
        "Move robot1 from board1 to stove1",
        "Cook chicken1 on stove1 using robot1",
        "Move robot1 from stove1 to board1",
    ];
    let rest = |third: &'static str| {
        start
            .iter()
            .copied()
            .chain([third, "Do nothing", "Do nothing", "Do nothing"])
            .collect::<Vec<_>>()
    };
    // Without the third cut the chicken is cooked after step 4 + 3.
    assert_eq!(cooked_after(&k, &rest("Do nothing"), 1), Some(7));
    // The third cut completes the counter and the fry condition; their removal skips the
    // cook's tick in the next step.
    assert_eq!(
        cooked_after(&k, &rest("Cut potato1 on board1 using robot1"), 1),
        Some(8)
    );
}

#[test]
fn cutting_an_item_that_is_not_fryable_if_cut_leaves_its_condition_in_the_list_for_good() {
    let k = kitchen(
        &["board"],
        &[("lettuce", 0, 0, &["iscuttable"])],
        1,
        COOK_GOAL(),
    );
    let cut = "Cut lettuce1 on board1 using robot1";
    let r = replay_texts(&k, &[cut, cut, cut, "Do nothing", "Do nothing"]);
    let state = r.state.unwrap();
    let kinds: Vec<EffectKind> = state.effects.iter().map(|e| e.kind).collect();
    assert_eq!(kinds, vec![EffectKind::CutFry]);
}

fn sandwich_goal() -> Value {
    // Synchronous task 1's goal: cheese id 3 is also lettuce id 3.
    json!([
        {"predicate": "item_on", "args": ["bread", "table"], "ids": [1, 2]},
        {"predicate": "iscut", "args": ["lettuce"], "ids": [3]},
        {"predicate": "atop", "args": ["lettuce", "bread"], "ids": [3, 1]},
        {"predicate": "atop", "args": ["bread", "cheese"], "ids": [4, 3]},
    ])
}

#[test]
fn a_shared_id_names_the_first_kind_so_the_cheese_of_synchronous_1_is_the_lettuce() {
    let lettuce: &[&str] = &["iscuttable", "iscut"];
    let k = kitchen(
        &["table", "table"],
        &[
            ("bread", 0, 0, &[]),
            ("lettuce", 0, 1, lettuce),
            ("bread", 0, 2, &[]),
            ("cheese", 1, 0, &[]),
        ],
        1,
        sandwich_goal(),
    );
    assert!(
        k.goal.reached(&k, &k.initial),
        "bread, lettuce, bread is the goal"
    );
    let k = kitchen(
        &["table", "table"],
        &[
            ("bread", 0, 0, &[]),
            ("cheese", 0, 1, &[]),
            ("bread", 0, 2, &[]),
            ("lettuce", 1, 0, lettuce),
        ],
        1,
        sandwich_goal(),
    );
    assert!(!k.goal.reached(&k, &k.initial), "a cheese sandwich is not");
}

#[test]
fn a_kind_with_fewer_objects_than_ids_has_no_grounding() {
    let goal = json!([{"predicate": "item_on", "args": ["bread", "table"], "ids": [1, 2]}, {"predicate": "clear", "args": ["bread"], "ids": [3]}]);
    let k = kitchen(&["table"], &[("bread", 0, 0, &[])], 1, goal);
    assert!(!k.goal.reached(&k, &k.initial));
}

#[test]
fn a_single_soup_goal_is_met_only_by_the_first_water_made() {
    let env = json!({
        "width": 4, "height": 3,
        "stations": [{"name": "table", "x": 0, "y": 1}, {"name": "table", "x": 1, "y": 1}],
        "items": [], "meals": [],
        "containers": [{"name": "bowl", "x": 0, "y": 1}, {"name": "bowl", "x": 1, "y": 1}],
        "players": [{"name": "robot", "x": 0, "y": 0, "direction": [0, 1]}],
        "goal_description": "soup",
        "goal": [{"predicate": "in", "args": ["water", "bowl"], "ids": [1, 2]}, {"predicate": "isboiling", "args": ["water"], "ids": [1]}],
    });
    let k = Kitchen::from_environment(&env).unwrap();
    let mut state = k.initial.clone();
    state.meals.push(Meal {
        container: 0,
        boiling: false,
        added: 0,
    });
    state.meals.push(Meal {
        container: 1,
        boiling: true,
        added: 0,
    });
    assert!(
        !k.goal.reached(&k, &state),
        "water2 boils in a bowl, but the goal names water1"
    );
    state.meals[0].boiling = true;
    assert!(k.goal.reached(&k, &state));
}

#[test]
fn any_robot_may_act_at_any_step() {
    let k = kitchen(&["table", "table", "table"], &[], 2, COOK_GOAL());
    let moves = [
        "Move robot2 from table2 to table3",
        "Move robot2 from table3 to table2",
        "Move robot1 from table1 to table3",
    ];
    let r = replay_texts(&k, &moves);
    assert!(
        r.lines
            .iter()
            .all(|(_, o)| matches!(o, StepOutcome::Executed { .. })),
        "{:?}",
        r.lines
    );
    let refused = replay_texts(&k, &["Move robot1 from table1 to table2"]);
    assert!(
        matches!(&refused.lines[0].1, StepOutcome::Invalid { reason } if reason.contains("occupied by robot2"))
    );
}

#[test]
fn refused_steps_are_listed_in_the_domains_words_and_not_counted() {
    let lettuce: &[&str] = &["iscuttable"];
    let potato: &[&str] = &["iscuttable", "isfryableifcut"];
    let k = kitchen(
        &["board", "fryer", "table", "stove"],
        &[
            ("lettuce", 0, 0, lettuce),
            ("potato", 1, 0, potato),
            ("bread", 2, 0, &[]),
            ("cheese", 2, 1, &[]),
            ("chicken", 3, 0, &["iscookable"]),
        ],
        1,
        COOK_GOAL(),
    );
    let plan = [
        "Pick up lettuce1 from board1 using robot1",
        "Pick up lettuce1 from board1 using robot1",
        "Move robot1 from board1 to fryer1",
        "Place lettuce1 on fryer1 using robot1",
        "Move robot1 from fryer1 to table1",
        "Stack lettuce1 on top of cheese1 using robot1",
        "Pick up bread1 from table1 using robot1",
        "Place lettuce1 on table1 using robot1",
        "Move robot1 from table1 to fryer1",
        "Fry potato1 on fryer1 using robot1",
        "Move robot1 from fryer1 to stove1",
        "Cook chicken1 on stove1 using robot1",
        "Cook chicken1 on stove1 using robot1",
        "Juggle the potato",
    ];
    let r = replay_texts(&k, &plan);
    let reasons: Vec<(usize, String)> = r
        .lines
        .iter()
        .enumerate()
        .filter_map(|(n, (_, o))| match o {
            StepOutcome::Invalid { reason } => Some((n + 1, reason.clone())),
            _ => None,
        })
        .collect();
    let expect = [
        (2, "hand is not empty"),
        (4, "fryer1 is occupied"),
        (7, "bread1 is not clear: cheese1 is on top of it"),
        (8, "robot1 is not holding lettuce1"),
        (10, "not cut yet (3 more cut(s)"),
        (13, "not ready for 3 more step(s)"),
        (14, "not an action string"),
    ];
    assert_eq!(reasons.len(), expect.len(), "{reasons:#?}");
    for ((n, reason), (m, words)) in reasons.iter().zip(expect) {
        assert_eq!(*n, m, "{reason}");
        assert!(reason.contains(words), "line {n}: {reason}");
    }
    assert_eq!(r.executed, plan.len() - expect.len());
}

/// A kitchen from stations, items (kind, x, y, predicates), containers (kind, x) and a
/// goal, one robot below x = 0 facing up; an item at y = 0 is in its hand.
fn soup_kitchen(
    stations: &[&str],
    items: &[(&str, i64, i64, &[&str])],
    containers: &[(&str, i64)],
    goal: Value,
) -> Kitchen {
    let env = json!({
        "width": 8, "height": 4,
        "stations": stations.iter().enumerate().map(|(x, s)| json!({"name": s, "x": x, "y": 1})).collect::<Vec<_>>(),
        "items": items.iter().map(|(k, x, y, p)| json!({"name": k, "x": x, "y": y, "stack-level": 0, "predicates": p})).collect::<Vec<_>>(),
        "containers": containers.iter().map(|(k, x)| json!({"name": k, "x": x, "y": 1})).collect::<Vec<_>>(),
        "meals": [],
        "players": [{"name": "robot", "x": 0, "y": 0, "direction": [0, 1]}],
        "goal_description": "test", "goal": goal,
    });
    Kitchen::from_environment(&env).unwrap()
}

/// The bound at the start and the proven optimum (uniform-cost search).
fn bound_and_optimum(k: &Kitchen) -> (i64, i64) {
    use makespan_model::solution::Status;
    let h = super::KitchenWorld::new(k).initial_bound();
    let limits = crate::Limits {
        max_states: 2_000_000,
        ..crate::Limits::default()
    };
    let exact = super::solve_kitchen_blind(k, &limits).unwrap();
    assert_eq!(exact.status, Status::Optimal);
    (h, exact.plan.len() as i64)
}

#[test]
fn a_held_item_for_a_soup_not_yet_filled_is_put_down_and_picked_up_again_in_the_bound() {
    // The robot holds the potato; the pot stands empty on the far table: the potato goes
    // down, the pot to the sink and is filled, the potato is picked up again and added.
    // Counting the add alone (and the move to the pot) made the bound 7.
    let k = soup_kitchen(
        &["table", "sink", "table"],
        &[("potato", 0, 0, &[])],
        &[("pot", 2)],
        json!([{"predicate": "addedto", "args": ["potato", "water"], "ids": [1, 2]}]),
    );
    let (h, optimum) = bound_and_optimum(&k);
    assert!(h <= optimum, "bound {h} above the optimum {optimum}");
    assert_eq!((h, optimum), (9, 10));
}

#[test]
fn a_held_item_to_go_atop_an_item_still_to_be_cut_is_put_down_first_in_the_bound() {
    // The robot holds the bread that goes on the lettuce, which must still be cut and
    // carried to the table: the bread is put down and picked up again (counting its stack
    // alone, and the move to it, made the bound 9).
    let k = soup_kitchen(
        &["table", "board", "table"],
        &[
            ("bread", 0, 0, &[]),
            ("lettuce", 1, 1, &["iscuttable"]),
            ("bread", 2, 1, &[]),
        ],
        &[],
        json!([
            {"predicate": "item_on", "args": ["bread", "table"], "ids": [1, 2]},
            {"predicate": "iscut", "args": ["lettuce"], "ids": [3]},
            {"predicate": "atop", "args": ["lettuce", "bread"], "ids": [3, 1]},
            {"predicate": "atop", "args": ["bread", "lettuce"], "ids": [4, 3]},
        ]),
    );
    let (h, optimum) = bound_and_optimum(&k);
    assert!(h <= optimum, "bound {h} above the optimum {optimum}");
    assert_eq!((h, optimum), (10, 12));
}

/// Cut lettuce between the buns, the top bun clear: the goal of the two kitchens whose top
/// bun starts on the bottom one and must leave it for the lettuce.
fn lettuce_under_top_bun() -> Value {
    json!([
        {"predicate": "item_on", "args": ["bottombun", "table"], "ids": [1, 2]},
        {"predicate": "iscut", "args": ["lettuce"], "ids": [3]},
        {"predicate": "item_at", "args": ["lettuce", "table"], "ids": [3, 2]},
        {"predicate": "item_at", "args": ["topbun", "table"], "ids": [4, 2]},
        {"predicate": "clear", "args": ["topbun"], "ids": [4]},
    ])
}

#[test]
fn a_dish_top_lying_under_a_part_that_must_go_below_it_leaves_and_comes_back_in_the_bound() {
    // The top bun lies on the bottom bun with the cut lettuce on it: every literal but
    // `clear` holds where they lie, so the top bun counted nothing (bound 0); the lettuce
    // must come under it, so it leaves the stack and comes back.
    let lettuce: &[&str] = &["iscuttable", "iscut"];
    let k = kitchen(
        &["table", "table", "table"],
        &[
            ("bottombun", 0, 0, &[]),
            ("topbun", 0, 1, &[]),
            ("lettuce", 0, 2, lettuce),
        ],
        1,
        lettuce_under_top_bun(),
    );
    let (h, optimum) = bound_and_optimum(&k);
    assert!(h <= optimum, "bound {h} above the optimum {optimum}");
    assert_eq!((h, optimum), (6, 15));
}

#[test]
fn a_pot_whose_fill_runs_at_its_sink_makes_no_second_water_there_in_the_bound() {
    // The pot's fill runs at the sink: a second water needs another sink or the first
    // poured and the pot put back (a fill there again only restarts the running one).
    // Counting one fill for it made the bound 6.
    let env = json!({
        "width": 6, "height": 3,
        "stations": [{"name": "sink", "x": 0, "y": 1}, {"name": "table", "x": 1, "y": 1},
                     {"name": "table", "x": 2, "y": 1}],
        "items": [], "meals": [],
        "containers": [{"name": "pot", "x": 0, "y": 1}, {"name": "bowl", "x": 1, "y": 1},
                       {"name": "bowl", "x": 2, "y": 1}],
        "players": [{"name": "robot", "x": 0, "y": 0, "direction": [0, 1]}],
        "goal_description": "two waters",
        "goal": [{"predicate": "in", "args": ["water", "bowl"], "ids": [1, 2]},
                 {"predicate": "in", "args": ["water", "bowl"], "ids": [3, 4]}],
    });
    let mut k = Kitchen::from_environment(&env).unwrap();
    let fill = super::replay::resolve(
        &k,
        &k.initial,
        "Fill pot1 with water from sink1 using robot1",
    )
    .unwrap();
    k.initial.step(fill);
    let (h, optimum) = bound_and_optimum(&k);
    assert!(h <= optimum, "bound {h} above the optimum {optimum}");
    assert_eq!((h, optimum), (7, 15));
}

#[test]
fn with_two_robots_the_top_that_must_leave_steps_aside_and_back_in_the_bound() {
    // The top bun lies on the bottom bun; the cut lettuce on the board must go between.
    // Robot 1 lifts the top bun and steps aside holding it while robot 2 stacks the
    // lettuce, then comes back: 8 steps in all, so the top bun's two carries (8 by
    // themselves, bound 10) overestimated.
    let lettuce: &[&str] = &["iscuttable", "iscut"];
    let k = kitchen(
        &["table", "board", "table"],
        &[
            ("bottombun", 0, 0, &[]),
            ("topbun", 0, 1, &[]),
            ("lettuce", 1, 0, lettuce),
        ],
        2,
        lettuce_under_top_bun(),
    );
    let (h, optimum) = bound_and_optimum(&k);
    assert!(h <= optimum, "bound {h} above the optimum {optimum}");
    assert_eq!((h, optimum), (7, 8));
}
