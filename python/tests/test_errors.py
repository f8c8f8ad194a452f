"""Errors name this package's arguments, never the CLI's flags: the library's messages name a
setting in the words of the front end that runs it (`instance=`, `data=` here; `--instance`,
`--data` in the CLI, whose tests pin its own words)."""

import re

import pytest

import makespan

FLAG = re.compile(r"--[a-z]")


def message(err) -> str:
    text = str(err.value)
    assert not FLAG.search(text), f"a CLI flag in a Python error: {text}"
    return text


def test_a_native_answer_without_its_instance_asks_for_instance_keyword(breakfast):
    with pytest.raises(makespan.Error) as err:
        makespan.verify('[["chop", "serve"], ["boil"]]')
    assert "pass instance= (and agents= for ParaCook" in message(err)


def test_a_plan_naming_no_instance_asks_for_instance_keyword(breakfast):
    plan = {"format": "makespan-plan/1", "schedule": makespan.solve(breakfast).schedule}
    with pytest.raises(makespan.Error) as err:
        makespan.verify(plan)
    assert "or pass instance=" in message(err)


def test_an_instance_given_as_the_plan_says_to_pass_it_as_instance(breakfast):
    with pytest.raises(makespan.Error) as err:
        makespan.verify(breakfast.to_json())
    assert "pass it with instance= and give the plan" in message(err)


def test_a_benchmark_name_without_data_asks_for_the_data_keyword(monkeypatch):
    monkeypatch.delenv("MAKESPAN_DATA", raising=False)
    with pytest.raises(makespan.Error) as err:
        makespan.load_instance("timearena:cooking1")
    assert "give data= the root of your checkout" in message(err)


def test_a_wrong_data_folder_asks_for_the_data_keyword(tmp_path):
    with pytest.raises(makespan.Error) as err:
        makespan.load_instance("timearena:cooking1", data=tmp_path)
    assert "give data= the root of your checkout" in message(err)


def test_a_file_of_many_instances_says_how_to_pick_one_in_python(paracook):
    with pytest.raises(makespan.Error) as err:
        makespan.load_instance(str(paracook))
    text = message(err)
    assert f'pick one with instance=makespan.load_instance("{paracook}#NAME")' in text
    assert "or give agents= for a native file" in text


def test_a_timearena_decision_list_without_its_run_names_load_instance(data):
    inst = makespan.load_instance("timearena:cooking1", data=data)
    answer = makespan.solve(inst, method="timearena-greedy").native_answer()
    with pytest.raises(makespan.Error) as err:
        makespan.verify(answer)
    text = message(err)
    assert 'pass instance=, e.g. instance=makespan.load_instance("timearena:cooking1+cooking2")' in text


def test_scoring_without_data_asks_for_the_data_keyword(monkeypatch, tmp_path):
    from conftest import ROOT

    monkeypatch.delenv("MAKESPAN_DATA", raising=False)
    run = ROOT / "tests" / "fixtures" / "score" / "paracook" / "results" / "abstract" / "model-x.json"
    with pytest.raises(makespan.Error) as err:
        makespan.score(run)
    assert "pass data= with the root of your checkout" in message(err)


def test_agent_counts_a_benchmark_cannot_use_are_refused_naming_the_keyword(tmp_path):
    # A job shop has resources only, no agents: agents= was silently ignored.
    shop = tmp_path / "tiny.jss"
    shop.write_text("2 2\n0 3 1 2\n1 2 0 4\n")
    assert len(makespan.load(shop)) == 1
    with pytest.raises(makespan.Error) as err:
        makespan.load(shop, agents=2)
    text = message(err)
    assert "agent counts do not apply: drop agents=" in text
