"""Instance, Solution, Report, Violation: repr, dict and JSON forms, equality, pickling."""

import json
import pickle

import pytest

import makespan


@pytest.fixture
def objects(breakfast):
    sol = makespan.solve(breakfast)
    plan = sol.to_dict()
    plan["schedule"][0]["pieces"] = [[100, 100 + plan["schedule"][0]["pieces"][0][1] - plan["schedule"][0]["pieces"][0][0]]]
    rep = makespan.verify(plan, breakfast, solution=sol)
    assert rep.violations
    return [breakfast, sol, rep, rep.violations[0]]


def test_reprs_name_the_object(objects):
    inst, sol, rep, violation = map(repr, objects)
    assert inst == "Instance('two-cooks-breakfast', agents=2, activities=9)"
    assert sol.startswith("Solution('two-cooks-breakfast', status='optimal', makespan=21")
    assert rep.startswith("Report('two-cooks-breakfast', valid=False")
    assert violation.startswith("Violation('")


def test_json_and_dict_forms_round_trip(objects):
    for obj in objects:
        cls = type(obj)
        assert cls.from_json(obj.to_json()) == obj
        assert cls.from_json(obj.to_json(indent=2)) == obj
        assert json.loads(obj.to_json()) == obj.to_dict()
    inst, sol, _, _ = objects
    assert inst.to_dict()["format"] == "makespan-instance/1"
    assert sol.to_dict()["format"] == "makespan-solution/1"


def test_pickling_keeps_every_object(objects):
    for obj in objects:
        assert pickle.loads(pickle.dumps(obj)) == obj


def test_equality_tells_objects_apart(objects, paracook):
    inst, sol, rep, _ = objects
    other = makespan.load(paracook, agents=1)[0]
    assert inst != other and inst == makespan.Instance.from_json(inst.to_json())
    assert sol != makespan.solve(other)
    assert rep != makespan.verify(sol.to_dict())


def test_from_json_errors():
    with pytest.raises(makespan.ReadError):
        makespan.Instance.from_json("{")
    with pytest.raises(makespan.ReadError):
        makespan.Solution.from_json('{"format": "nope"}')
    with pytest.raises(makespan.ReadError):
        makespan.Report.from_json("[]")
    bad = {"format": "makespan-instance/1", "name": "x", "agents": 1,
           "activities": [{"id": "a", "duration": 1}, {"id": "a", "duration": 2}]}
    with pytest.raises(makespan.InvalidInstanceError, match="a"):
        makespan.Instance.from_json(json.dumps(bad))


def test_objects_are_read_only(breakfast):
    with pytest.raises(AttributeError):
        breakfast.name = "other"


def test_every_public_name_is_exported_and_typed():
    stubs = (makespan.__file__.rsplit("/", 1)[0]) + "/_makespan.pyi"
    text = open(stubs).read()
    for name in makespan.__all__:
        if name.startswith("__"):
            continue
        assert f"def {name}(" in text or f"class {name}" in text, name
        assert getattr(makespan, name).__doc__, name
