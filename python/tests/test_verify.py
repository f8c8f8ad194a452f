"""verify: native answers (raw LLM text included), unified plans, paths, the ratio to the
optimum, and the errors; the round trip solve -> verify -> ratio on real benchmark files."""

import json
import pathlib

import pytest

import makespan


def llm_response(answer: str) -> str:
    """An answer as an LLM writes it: prose around a fenced JSON block."""
    return f"Sure! Here is a plan for the cooks.\n\n```json\n{answer}\n```\n\nLet me know if you need more."


@pytest.fixture
def solved(paracook):
    inst = makespan.load(paracook, agents=[2, 3])[0]
    return inst, makespan.solve(inst, time_limit=60)


def test_round_trip_solve_verify_ratio_on_raw_llm_text(solved):
    inst, sol = solved
    answer = sol.native_answer()
    assert answer is not None
    rep = makespan.verify(llm_response(answer), inst, solution=sol)
    assert rep.valid and rep.violations == []
    assert rep.makespan == sol.makespan == rep.optimum
    assert (rep.ratio, rep.lost_time) == (1.0, 0)
    assert rep.benchmark == "paracook"
    assert rep.instance == inst.name


def test_a_broken_answer_names_every_violation(solved):
    inst, sol = solved
    lists = json.loads(sol.native_answer())
    dropped = lists[0].pop()  # one subtask never done
    rep = makespan.verify(llm_response(json.dumps(lists)), inst, solution=sol)
    assert not rep.valid
    assert rep.ratio is None and rep.lost_time is None and rep.optimum == sol.makespan
    rules = [v.rule for v in rep.violations]
    assert "missing_activity" in rules
    missing = rep.violations[rules.index("missing_activity")]
    assert missing.activities and missing.message and missing.fix
    assert str(missing).startswith("missing_activity [")
    assert "INVALID plan" in str(rep)
    assert dropped  # the answer really lost a step


def test_a_slower_valid_plan_has_its_ratio(paracook):
    two, three = makespan.load(paracook, agents=[2, 3])
    best_for_three = makespan.solve(three)
    # The two-cook optimum is a valid plan for three cooks, and no faster.
    schedule = makespan.solve(two).schedule
    plan = {"format": "makespan-plan/1", "instance": three.to_dict(), "schedule": schedule}
    rep = makespan.verify(plan, three, solution=best_for_three)
    assert rep.valid
    assert rep.ratio == rep.makespan / best_for_three.makespan >= 1.0


def test_unified_plans_as_dict_text_and_path(breakfast, tmp_path):
    sol = makespan.solve(breakfast)
    assert makespan.verify(sol.to_dict()).valid  # the solution embeds its instance
    assert makespan.verify(sol.to_json()).valid
    path = tmp_path / "solution.json"
    path.write_text(sol.to_json(indent=2))
    assert makespan.verify(path).valid
    assert makespan.verify(str(path), breakfast, solution=sol).ratio == 1.0


def test_a_plan_that_breaks_rules(breakfast):
    sol = makespan.solve(breakfast).to_dict()
    del sol["makespan"]  # the schedule is edited: its claim no longer holds
    for entry in sol["schedule"]:
        entry["pieces"] = [[0, p[1] - p[0]] for p in entry["pieces"]]  # everything at 0
    rep = makespan.verify(sol)
    assert not rep.valid
    assert {"precedence_violated", "resource_over_capacity"} <= {v.rule for v in rep.violations}
    assert all(v.time is not None for v in rep.violations if v.rule == "precedence_violated")


def test_benchmark_metrics_where_the_benchmark_has_them(data):
    inst = makespan.load_instance("timearena:cooking1", data=data)
    greedy = makespan.solve(inst, method="timearena-greedy")
    rep = makespan.verify(greedy.native_answer(), inst)
    assert rep.benchmark == "timearena"
    assert isinstance(rep.metrics, dict) and rep.metrics


def test_a_native_answer_needs_its_instance(solved):
    _, sol = solved
    with pytest.raises(makespan.Error, match="does not name its instance"):
        makespan.verify(llm_response(sol.native_answer()))


def test_a_solution_of_another_instance_is_refused(paracook, solved):
    inst, sol = solved
    other = makespan.load(paracook, agents=1)[0]
    with pytest.raises(makespan.Error, match="the solution is for instance"):
        makespan.verify(sol.native_answer(), other, solution=sol)


def test_an_unreadable_plan_file_is_a_read_error(tmp_path):
    with pytest.raises(makespan.ReadError, match="nothing.json"):
        makespan.verify(pathlib.Path(tmp_path / "nothing.json"))
