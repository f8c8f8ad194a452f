"""to_pandas(): a scored run, solutions and explanations as DataFrames when pandas is
installed, and an ImportError that says how to install it when it is not."""

import sys

import pytest

import makespan
from conftest import ROOT

RUN = ROOT / "tests" / "fixtures" / "score" / "paracook" / "results" / "abstract" / "model-x.json"


@pytest.fixture
def pandas():
    return pytest.importorskip("pandas", reason="pandas is not installed: pip install pandas")


@pytest.fixture
def no_pandas(monkeypatch):
    """pandas made unimportable, as where it is not installed."""
    monkeypatch.setitem(sys.modules, "pandas", None)


@pytest.fixture
def run(data, tmp_path):
    if not (data / "paracook").is_dir():
        pytest.skip(f"ParaCook data not found at {data / 'paracook'}")
    return makespan.score(RUN, data=data / "paracook", solutions=tmp_path / "solutions")


def test_a_run_is_one_row_per_answer(pandas, run):
    frame = run.to_pandas()
    assert isinstance(frame, pandas.DataFrame)
    assert len(frame) == len(run.rows) == 6
    assert list(frame["key"]) == [r["key"] for r in run.rows]
    best = frame.set_index("key").loc["burger/seed_42/agent_num_2/orders_num_1"]
    assert (best["makespan"], best["optimum"], best["ratio"]) == (61, 61, 1.0)
    assert makespan.to_pandas(run).equals(frame)


def test_solutions_are_one_row_each_with_their_status(pandas, breakfast):
    sols = makespan.solve_many([breakfast, breakfast], jobs=1)
    frame = makespan.to_pandas(sols)
    assert list(frame.columns) == ["instance", "status", "makespan", "lower_bound", "gap", "seconds", "method", "reason"]
    assert list(frame["instance"]) == ["two-cooks-breakfast"] * 2
    assert (frame["status"] == "optimal").all() and list(frame["makespan"]) == [21, 21]
    # One solution: its schedule, one row per piece.
    schedule = sols[0].to_pandas()
    assert list(schedule.columns) == ["activity", "agent", "start", "end"]
    assert schedule["end"].max() == 21
    assert set(schedule["activity"]) == set(breakfast.activities)
    with pytest.raises(TypeError, match="a list of Solutions"):
        makespan.to_pandas([1, 2])


def test_an_explanation_gives_each_of_its_tables(pandas, breakfast):
    sol = makespan.solve(breakfast)
    why = makespan.explain(sol.to_dict(), breakfast, solution=sol)
    activities = why.to_pandas()
    assert len(activities) == len(why.activities)
    assert {"activity", "start", "end", "earliest"} <= set(activities.columns)
    assert len(why.to_pandas("chain")) == len(why.chain)
    assert len(why.to_pandas(table="agents")) == len(why.agents) == 2
    with pytest.raises(makespan.Error, match='table: "steps" is not one of activities, chain, waits, agents'):
        why.to_pandas("steps")


def test_without_pandas_each_table_says_how_to_install_it(no_pandas, breakfast):
    sol = makespan.solve(breakfast)
    why = makespan.explain(sol.to_dict(), breakfast)
    for table in (lambda: sol.to_pandas(), lambda: why.to_pandas(), lambda: makespan.to_pandas([sol])):
        with pytest.raises(ImportError, match=r"to_pandas\(\) needs pandas, .*: pip install pandas"):
            table()


def test_without_pandas_a_run_says_how_to_install_it(no_pandas, run):
    with pytest.raises(ImportError, match="pip install pandas"):
        run.to_pandas()
    # Everything else works without it.
    assert run.rows
