"""Simulated worlds from Python: Robotouille's seeded kitchens (the checkout's sets, tasks and
seeds) solved to proven optima whose plans verify replays, and an evaluation folder as
upstream's `main.py evaluate` writes it scored against them. Skipped, saying so, without the
checkout."""

import json

import pytest

import makespan

ENV = "asynchronous/0_cheese_chicken_sandwich"


@pytest.fixture
def checkout(data):
    folder = data / "robotouille" / "upstream"
    if not folder.is_dir():
        pytest.skip(f"no Robotouille checkout at {folder}")
    return folder


@pytest.fixture
def world(checkout):
    (inst,) = makespan.load(checkout, sets="asynchronous", tasks=0, seeds=42)
    return inst


def test_a_world_plan_is_solved_and_replayed_by_verify(world):
    assert world.name == "robotouille-asynchronous-0-seed42"
    sol = makespan.solve(world, time_limit=60)
    assert sol.status == makespan.Status.OPTIMAL and sol.makespan == sol.lower_bound
    actions = [a["activity"] for a in sol.schedule]
    assert len(actions) == sol.makespan
    # The solution (which embeds its world) and the action lines, as an agent writes them.
    assert makespan.verify(sol.to_dict()).valid
    lines = makespan.verify("\n".join(actions) + "\n", world, solution=sol)
    assert (lines.valid, lines.makespan, lines.ratio) == (True, sol.makespan, 1.0)
    # One step dropped: the goal is no longer reached, or a step is refused on the way.
    broken = makespan.verify("\n".join(actions[:1] + actions[2:]) + "\n", world)
    assert not broken.valid and broken.violations


def agent_log(actions):
    """An agent's log as upstream's IO-CoT agent writes it: one response block per action."""
    return "".join(
        "ACTION PROPOSAL PROMPT\n--------------------\nthe state\n"
        f"ACTION PROPOSAL RESPONSE\n--------------------\nReasoning: next\nAction: {a}\n"
        for a in actions
    )


def test_an_evaluation_folder_of_world_plans_is_scored(checkout, world, tmp_path):
    sol = makespan.solve(world, time_limit=60)
    actions = [a["activity"] for a in sol.schedule]
    evaluation = tmp_path / "evaluation"
    logs = evaluation / f"{ENV}_42"
    logs.mkdir(parents=True)
    logs.joinpath("log.txt").write_text(agent_log(actions))
    results = {
        f"{ENV}_42": {"done": True, "steps": sol.makespan, "max_steps": 31.5},
        "accuracy": 1.0,
        "average_steps": float(sol.makespan),
    }
    evaluation.joinpath("results.json").write_text(json.dumps(results))
    run = makespan.score(evaluation, data=checkout, solutions=tmp_path / "solutions")
    assert run.benchmark == "robotouille"
    (row,) = [r for r in run.rows if r["key"] == f"{ENV}_42"]
    assert (row["valid"], row["makespan"], row["ratio"]) == (True, sol.makespan, 1.0)
