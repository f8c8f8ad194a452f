"""explain and gantt: where a plan's time went and its picture, for a unified plan (the
breakfast instance) and a ParaCook answer, as `makespan explain` and `makespan gantt`."""

import json
import xml.etree.ElementTree as ET

import pytest

import makespan

DELAY = 3


@pytest.fixture
def optimum(breakfast):
    return makespan.solve(breakfast, time_limit=60)


def delayed(solution, by):
    """The solution as a unified plan with every activity started `by` later."""
    plan = solution.to_dict()
    del plan["makespan"]  # the schedule is edited: its claim no longer holds
    for item in plan["schedule"]:
        item["pieces"] = [[start + by, end + by] for start, end in item["pieces"]]
    return plan


def test_the_chain_ends_at_the_makespan_and_an_optimum_loses_nothing(breakfast, optimum):
    why = makespan.explain(optimum.to_dict(), breakfast, solution=optimum)
    assert why.valid and why.violations == []
    assert why.makespan == optimum.makespan
    assert why.chain and why.chain[-1]["to"] == why.makespan
    assert why.chain[0]["from"] == 0
    assert why.lost["lost"] == 0 and why.waits == []
    assert {a["activity"] for a in why.activities} == set(breakfast.activities)
    assert len(why.agents) == breakfast.agents


def test_a_late_plan_shows_its_unforced_wait_and_lost_time(breakfast, optimum):
    why = makespan.explain(delayed(optimum, DELAY), breakfast, solution=optimum)
    assert why.valid and why.makespan == optimum.makespan + DELAY
    assert why.chain[-1]["to"] == why.makespan
    assert why.waits, "starting everything late is an unforced wait"
    assert why.lost["lost"] == DELAY
    assert why.lost["waits"] + sum(o["cost"] for o in why.lost["ordering"]) + why.lost["rest"] == DELAY


def test_text_dict_and_json_are_the_cli_forms(breakfast, optimum):
    why = makespan.explain(optimum.to_dict(), breakfast)
    assert why.lost is None
    text = str(why)
    assert text.startswith(f"{breakfast.name}: makespan {optimum.makespan}")
    assert json.loads(why.to_json(indent=2)) == why.to_dict()
    assert why.to_dict()["chain"] == why.chain
    assert repr(why).startswith("Explanation('two-cooks-breakfast', valid=True")


def test_a_broken_plan_is_explained_with_its_violations(breakfast, optimum):
    plan = optimum.to_dict()
    del plan["makespan"]  # the schedule is edited: its claim no longer holds
    plan["schedule"] = plan["schedule"][1:]  # one activity never done
    why = makespan.explain(plan, breakfast)
    assert not why.valid
    assert "missing_activity" in {v.rule for v in why.violations}


def test_a_solution_of_another_instance_is_refused(breakfast, optimum, paracook):
    other = makespan.solve(makespan.load(paracook, agents=2)[0], time_limit=60)
    with pytest.raises(makespan.Error, match="not for"):
        makespan.explain(optimum.to_dict(), breakfast, solution=other)


def test_svg_parses_with_a_bar_per_activity_and_the_compared_optimum(breakfast, optimum):
    svg = makespan.gantt(delayed(optimum, DELAY), breakfast, compare=optimum)
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    drawn = {g.get("data-activity") for g in root.iter() if g.get("data-activity")}
    assert drawn == set(breakfast.activities)
    sections = [g.get("class") for g in root.iter() if g.get("class") in ("section plan", "section reference")]
    assert sections == ["section plan", "section reference"]  # the optimum below the plan


def test_html_is_a_page_with_the_lanes(breakfast, optimum):
    html = makespan.gantt(optimum.to_dict(), breakfast, format="html")
    assert html.lstrip().lower().startswith("<!doctype html>")
    assert "<svg" in html
    for activity in breakfast.activities:
        assert activity in html
    for agent in range(breakfast.agents):
        assert f"agent {agent}" in html.lower()
    with pytest.raises(makespan.Error, match="svg"):
        makespan.gantt(optimum.to_dict(), breakfast, format="png")


def test_a_paracook_answer_is_explained_and_drawn(paracook):
    inst = makespan.load(paracook, agents=2)[0]
    sol = makespan.solve(inst, time_limit=60)
    answer = sol.native_answer()
    why = makespan.explain(answer, inst, solution=sol)
    assert why.valid and why.chain[-1]["to"] == why.makespan == sol.makespan
    assert ET.fromstring(makespan.gantt(answer, inst, compare=sol)).tag.endswith("svg")


def test_a_concrete_plan_is_compared_with_the_best_known_cook_by_cook(data):
    # A simulated kitchen's two plans share no steps, so the loss is not split by step: each
    # cook's time is set beside the reference's instead.
    checkout = data / "paracook" / "upstream"
    if not (checkout / "data" / "cook").is_dir():
        pytest.skip(f"no ParaCook concrete kitchens (data/cook) in {checkout}")
    inst = next(
        i
        for i in makespan.load(checkout, mode="concrete", agents=2)
        if i.name == "paracook-concrete-sashimi-s84-o1-m2"
    )
    sol = makespan.solve(inst, time_limit=20)
    # The same plan, each cook first waiting 3 steps: 3 lost, 3 more idle per cook.
    late = {
        cook: [{"action": "Wait", "duration": 3}] + actions
        for cook, actions in json.loads(sol.native_answer()).items()
    }
    why = makespan.explain(json.dumps(late), inst, solution=sol)
    against = why.against
    assert against["reference"] == sol.makespan and against["lost"] == 3
    assert against["optimal"] == (sol.status == "optimal")
    ours = {a["agent"]: a for a in why.agents}
    for theirs in against["agents"]:
        mine = ours[theirs["agent"]]
        assert mine["busy"] == theirs["busy"]
        assert mine["busy"] + mine["idle_nothing_ready"] + mine["idle_work_ready"] == why.makespan
    assert f"lost time against the {'optimum' if against['optimal'] else 'reference'}" in str(why)
