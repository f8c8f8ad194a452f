"""score: a whole model run (the fixtures in tests/fixtures/score/) scored against the
benchmark's own files, the same report as `makespan score --json`."""

import json
import pickle

import pytest

import makespan
from conftest import ROOT

RUNS = ROOT / "tests" / "fixtures" / "score"


@pytest.fixture
def paracook_data(data):
    folder = data / "paracook"
    if not folder.is_dir():
        pytest.skip(f"ParaCook data not found at {folder} (set MAKESPAN_DATA)")
    return folder


@pytest.fixture
def run(paracook_data, tmp_path):
    results = RUNS / "paracook" / "results" / "abstract" / "model-x.json"
    return makespan.score(results, data=paracook_data, solutions=tmp_path / "solutions")


def test_paracook_rows_headline_and_differences(run, tmp_path):
    assert run.benchmark == "paracook"
    rows = {r["key"]: r for r in run.rows}
    assert len(rows) == 6
    best = rows["burger/seed_42/agent_num_2/orders_num_1"]
    assert (best["valid"], best["makespan"], best["optimum"], best["proven"]) == (True, 61, 61, True)
    assert best["ratio"] == 1.0
    # Two lists for one agent: the original's done, a violation here, and the reason.
    extra = rows["burger/seed_42/agent_num_1/orders_num_1"]
    assert (extra["valid"], extra["original_valid"]) == (False, True)
    assert extra["violations"]["too_many_agents"] == 1
    assert [d["key"] for d in run.differences] == ["burger/seed_42/agent_num_1/orders_num_1"]
    assert "more lists than agents, which the original never compares" in run.differences[0]["reason"]
    # A seed the checkout lacks is one error row; the others are scored.
    assert rows["burger/seed_999/agent_num_2/orders_num_1"]["error"]
    assert run.unscored >= 1 and run.invalid >= 1
    assert run.headline and run.score_name
    # The optima were solved once and written to the solutions folder.
    assert any((tmp_path / "solutions").iterdir())


def test_report_is_the_cli_json_and_text(run):
    as_dict = run.to_dict()
    assert as_dict["format"] == "makespan-run-report/1"
    assert as_dict["rows"] == run.rows
    assert json.loads(run.to_json(indent=2)) == as_dict
    assert makespan.RunReport.from_json(run.to_json()) == run
    assert pickle.loads(pickle.dumps(run)) == run
    text = str(run)
    assert "burger/seed_42/agent_num_2/orders_num_1" in text
    assert repr(run).startswith("RunReport(") and "rows=6" in repr(run)


def test_a_run_it_cannot_read_raises_with_the_fix(tmp_path, paracook_data):
    with pytest.raises(makespan.ReadError, match="no such file"):
        makespan.score(tmp_path / "missing.json", data=paracook_data)
    other = tmp_path / "notes.txt"
    other.write_text("not a run")
    with pytest.raises(makespan.Error, match="not a run makespan can score"):
        makespan.score(other, data=paracook_data)
