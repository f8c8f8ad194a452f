"""load and load_instance: every benchmark's files, the CLI's options, and their errors."""

import json
import pathlib

import pytest

import makespan
from conftest import ROOT


def test_load_reads_a_unified_instance(breakfast):
    assert breakfast.name == "two-cooks-breakfast"
    assert breakfast.agents == 2
    assert breakfast.time_unit == "minute"
    assert "serve" in breakfast.activities
    assert breakfast.hash.startswith("sha256:")


def test_load_builds_one_instance_per_agent_count(paracook):
    insts = makespan.load(paracook, agents=[2, 3])
    assert [i.agents for i in insts] == [2, 3]
    assert makespan.load(str(paracook), agents=1)[0].agents == 1
    # The benchmark's own choice by default: 1, 2 and 3 cooks.
    assert len(makespan.load(paracook)) == 3


def test_load_takes_the_clis_options(data):
    runs = makespan.load(data / "timearena" / "tasks.json", combine=1, constraint=True)
    assert runs and all("constraint" in r.name for r in runs)
    recipes = makespan.load(data / "recipe2plan" / "cooking.json", level="easy")
    assert recipes and all(r.name.endswith("-easy") for r in recipes)


def test_load_reads_a_robotouille_checkout_with_its_sets_tasks_and_seeds(data):
    checkout = data / "robotouille" / "upstream"
    if not checkout.is_dir():
        pytest.skip(f"no Robotouille checkout at {checkout}")
    insts = makespan.load(checkout, sets="asynchronous", tasks=[0, 3], seeds=["default", 42])
    assert [i.name for i in insts] == [
        "robotouille-asynchronous-0-default",
        "robotouille-asynchronous-0-seed42",
        "robotouille-asynchronous-3-default",
        "robotouille-asynchronous-3-seed42",
    ]
    with pytest.raises(makespan.Error, match='sets: "kitchen" is not a Robotouille set'):
        makespan.load(checkout, sets="kitchen")


def test_a_benchmark_option_is_checked_by_the_library_and_an_unknown_one_is_named(breakfast):
    path = ROOT / "instances" / "two-cooks-breakfast.json"
    with pytest.raises(makespan.Error, match="combine: .*at least 1"):
        makespan.load(path, combine=0)
    with pytest.raises(makespan.Error, match=r'no benchmark has an option named "nope" \(options: .*combine'):
        makespan.load(path, nope=1)
    with pytest.raises(makespan.Error, match='constraint: "1" is not true or false'):
        makespan.load(path, constraint=1)


def test_load_instance_by_benchmark_and_name(data):
    inst = makespan.load_instance("timearena:cooking1+cooking2", data=data)
    assert inst.name == "cooking1+cooking2"
    assert makespan.load_instance("robotouille:7", data=str(data)).name.startswith("robotouille-7")


def test_load_instance_picks_one_instance_of_a_file(paracook):
    names = [i.name for i in makespan.load(paracook, agents=[2, 3])]
    assert makespan.load_instance(f"{paracook}#{names[1]}", agents=3).name == names[1]


def test_a_missing_file_is_a_read_error_naming_it(tmp_path):
    missing = tmp_path / "nowhere.json"
    with pytest.raises(makespan.ReadError, match="nowhere.json: cannot read the file"):
        makespan.load(missing)


def test_bad_json_is_a_read_error_with_line_and_column(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "makespan-instance/1",\n  "name": }')
    with pytest.raises(makespan.ReadError, match=r"bad.json: line 2, column \d+"):
        makespan.load(bad)


def test_an_invalid_instance_lists_its_problems(tmp_path):
    inst = json.loads((ROOT / "instances" / "two-cooks-breakfast.json").read_text())
    inst["precedences"].append({"before": "serve", "after": "no-such-step"})
    path = tmp_path / "invalid.json"
    path.write_text(json.dumps(inst))
    with pytest.raises(makespan.InvalidInstanceError, match="no-such-step") as err:
        makespan.load(path)
    assert str(path) in str(err.value)
    # Every makespan error is a ValueError.
    assert isinstance(err.value, makespan.Error) and isinstance(err.value, ValueError)


@pytest.mark.parametrize("agents", [0, -1, "many", [2, "x"]])
def test_bad_options_are_errors_in_the_clis_words(paracook, agents):
    with pytest.raises(makespan.Error, match="agents: .* is not a positive agent count"):
        makespan.load(paracook, agents=agents)


def test_a_bad_level_is_an_error(data):
    with pytest.raises(makespan.Error, match="level"):
        makespan.load(data / "recipe2plan" / "cooking.json", level="hard")


def test_load_accepts_path_objects():
    assert makespan.load(pathlib.Path(ROOT / "instances" / "two-cooks-breakfast.json"))


def test_load_reads_a_folder_as_solve_does_skipping_files_that_are_not_instances(paracook, tmp_path):
    # A clone as cloned: instances in a subfolder, beside configuration, assets and notes.
    tasks = tmp_path / "data" / "abstract" / "burger" / "seed_42"
    tasks.mkdir(parents=True)
    (tasks / paracook.name).write_bytes(paracook.read_bytes())
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "gui_config.json").write_text('{"window": {"width": 800}}')
    (tmp_path / "README.md").write_text("# a clone")
    insts = makespan.load(tmp_path, agents=2)
    assert [i.name for i in insts] == [i.name for i in makespan.load(paracook, agents=2)]
    # The same folder given as text, and its file named directly.
    assert makespan.load(str(tmp_path), agents=2) == insts


def test_load_reads_a_benchmark_checkout_root(data):
    checkout = data / "paracook" / "upstream"
    if not checkout.is_dir():
        pytest.skip(f"no ParaCook checkout at {checkout}")
    insts = makespan.load(checkout, agents=2)
    names = {i.name for i in insts}
    one = makespan.load(checkout / "data" / "abstract" / "burger" / "seed_42" / "orders_num_4.json", agents=2)
    assert one[0].name in names and len(insts) > 10


def test_a_folder_with_no_instance_is_a_read_error_with_the_count(tmp_path):
    (tmp_path / "settings.json").write_text('{"theme": "dark"}')
    with pytest.raises(makespan.ReadError, match=r"no instances found \(1 file\(s\) skipped"):
        makespan.load(tmp_path)


def test_a_file_named_directly_is_never_skipped(tmp_path):
    settings = tmp_path / "settings.json"
    settings.write_text('{"theme": "dark"}')
    with pytest.raises(makespan.ReadError, match="settings.json"):
        makespan.load(settings)


def test_load_reads_paracook_concrete_kitchens_with_mode(data):
    checkout = data / "paracook" / "upstream"
    if not (checkout / "data" / "cook").is_dir():
        pytest.skip(f"no ParaCook concrete kitchens (data/cook) in {checkout}")
    insts = makespan.load(checkout, mode="concrete")
    assert insts and all(i.name.startswith("paracook-concrete-") for i in insts)


def test_a_concrete_only_checkout_asks_for_the_mode_keyword(tmp_path):
    # The shape ParaCook recognises as a checkout of its concrete kitchens, with no abstract
    # task files: the fix names this package's keyword, and the keyword reaches ParaCook.
    (tmp_path / "data" / "cook" / "maps").mkdir(parents=True)
    (tmp_path / "data" / "cook" / "orders").mkdir()
    (tmp_path / "data" / "cook" / "orders" / "all_orders.json").write_text("{}")
    with pytest.raises(makespan.Error, match='holds the concrete kitchens only: add mode="concrete"'):
        makespan.load(tmp_path)
    with pytest.raises(makespan.Error) as err:
        makespan.load(tmp_path, mode="concrete")
    assert "concrete kitchens only" not in str(err.value)
    with pytest.raises(makespan.Error, match='mode: "solid" is not a ParaCook mode'):
        makespan.load(tmp_path, mode="solid")
