"""Instance, Solution, Report, Violation: repr, dict and JSON forms, equality, pickling; and
the JSON methods every class shares (objects.rs writes them once, with one macro) pinned for
each class: RunReport, ProofCheck and Explanation too."""

import json
import pathlib
import pickle

import pytest

import makespan
from conftest import ROOT


@pytest.fixture
def objects(breakfast):
    sol = makespan.solve(breakfast)
    plan = sol.to_dict()
    del plan["makespan"]  # the schedule is edited: its claim no longer holds
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
    # The native module's names are typed in its stubs, the package's own in their modules.
    package = pathlib.Path(makespan.__file__).parent
    text = "".join(path.read_text() for path in [package / "_makespan.pyi", *package.glob("*.py")])
    for name in makespan.__all__:
        if name.startswith("__"):
            continue
        assert f"def {name}(" in text or f"class {name}" in text, name
        assert getattr(makespan, name).__doc__, name


# The classes with the whole JSON set (to_dict, to_json, from_json, pickling, equality), and
# the start of from_json's message for text that is not one.
READ_BACK = {
    "Instance": "<from_json>: line 1, column 1: ",
    "Solution": "<from_json>: line 1, column 1: not a makespan-solution/1 file: ",
    "Report": "<from_json>: not a makespan report: ",
    "Violation": "<from_json>: not a makespan violation: ",
    "RunReport": "<from_json>: not a makespan run report: ",
    "ProofCheck": "<from_json>: not a makespan proof check: ",
}
# One field per class to change for an object that must compare unequal.
CHANGE = {
    "Instance": ("name", "another-name"),
    "Solution": ("method", "another-method"),
    "Report": ("benchmark", "another-benchmark"),
    "Violation": ("message", "another message"),
    "RunReport": ("run", "another-run"),
    "ProofCheck": ("solution", "another.json"),
}


@pytest.fixture
def made(request, objects, tmp_path):
    """One object of the class named by the test's parameter."""
    name = request.param
    inst, sol, rep, violation = objects
    if name == "RunReport":
        data = request.getfixturevalue("data")
        if not (data / "paracook").is_dir():
            pytest.skip(f"ParaCook data not found at {data / 'paracook'} (set MAKESPAN_DATA)")
        results = ROOT / "tests" / "fixtures" / "score" / "paracook" / "results" / "abstract" / "model-x.json"
        return makespan.score(results, data=data / "paracook", solutions=tmp_path / "solutions")
    if name == "ProofCheck":
        assembly = makespan.load(ROOT / "instances" / "three-agent-assembly.json")[0]
        makespan.certify(makespan.solve(assembly), tmp_path)
        return makespan.check_proof(tmp_path / "three-agent-assembly.json")
    if name == "Explanation":
        return makespan.explain(sol.to_dict(), inst, solution=sol)
    return {"Instance": inst, "Solution": sol, "Report": rep, "Violation": violation}[name]


@pytest.mark.parametrize("made", [*READ_BACK, "Explanation"], indirect=True)
def test_every_class_has_dict_and_json_forms(made):
    cls = type(made)
    assert isinstance(made.to_dict(), dict)
    assert json.loads(made.to_json()) == made.to_dict()
    pretty = made.to_json(indent=2)
    assert "\n  " in pretty and json.loads(pretty) == made.to_dict()
    assert json.loads(made.to_json(None)) == made.to_dict()
    assert cls.to_dict.__text_signature__ == "($self)"
    assert cls.to_json.__text_signature__ == "($self, indent=None)"
    assert cls.to_dict.__doc__ and cls.to_json.__doc__


@pytest.mark.parametrize("made", list(READ_BACK), indirect=True)
def test_every_readable_class_reads_its_json_back_and_pickles(made):
    cls = type(made)
    assert cls.from_json(made.to_json()) == made
    assert cls.from_json(made.to_json(indent=2)) == made
    assert cls.from_json.__text_signature__ == "(text)" and cls.from_json.__doc__
    assert made.__reduce__() == (cls.from_json, (made.to_json(),))
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        again = pickle.loads(pickle.dumps(made, protocol))
        assert type(again) is cls and again == made


@pytest.mark.parametrize("made", list(READ_BACK), indirect=True)
def test_every_readable_class_compares_by_value(made):
    cls = type(made)
    field, value = CHANGE[cls.__name__]
    changed = made.to_dict()
    assert changed[field] != value
    changed[field] = value
    other = cls.from_json(json.dumps(changed))
    assert other != made and not other == made
    assert made == cls.from_json(made.to_json()) and not made != cls.from_json(made.to_json())
    assert made != "text" and made != made.to_dict()
    with pytest.raises(TypeError):
        hash(made)


@pytest.mark.parametrize("name", list(READ_BACK))
@pytest.mark.parametrize("text", ["{", "[]", "null", "1"])
def test_every_readable_class_refuses_other_json(name, text):
    cls = getattr(makespan, name)
    with pytest.raises(makespan.ReadError) as raised:
        cls.from_json(text)
    assert str(raised.value).startswith(READ_BACK[name] if text == "{" else "<from_json>: ")
    with pytest.raises(TypeError):
        cls.from_json(1)


def test_an_explanation_is_written_only(objects):
    inst, sol, _, _ = objects
    why = makespan.explain(sol.to_dict(), inst, solution=sol)
    assert not hasattr(makespan.Explanation, "from_json")
    assert makespan.Explanation.__hash__ is not None
    with pytest.raises(TypeError, match="cannot pickle"):
        pickle.dumps(why)
