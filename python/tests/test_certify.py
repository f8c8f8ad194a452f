"""certify and check_proof: the certificates of `makespan solve --certify`, re-checked as
`makespan check-proof` does; a tampered certificate is rejected, a non-optimal solution
refused, and docs/python.md's example runs as written."""

import contextlib
import io
import json
import pickle
import re

import pytest

import makespan
from conftest import ROOT


@pytest.fixture
def cooks() -> makespan.Instance:
    """A bundled instance whose optimum only a search proof (DRCP) reaches."""
    return makespan.load(ROOT / "instances" / "three-cooks-seven-dishes.json")[0]


@pytest.fixture
def assembly() -> makespan.Instance:
    return makespan.load(ROOT / "instances" / "three-agent-assembly.json")[0]


def files(folder):
    return sorted(p.name for p in folder.iterdir())


def test_a_drcp_proof_is_written_beside_the_solution_and_checks(cooks, tmp_path):
    sol = makespan.solve(cooks)
    certified = makespan.certify(sol, tmp_path)
    stem = "three-cooks-seven-dishes"
    assert certified.certificate == {"kind": "drcp", "file": f"{stem}.cert.json"}
    assert sol.certificate is None  # the given solution is left as it was
    # Every file in place, no temporary file left behind.
    assert files(tmp_path) == [f"{stem}.cert.json", f"{stem}.drcp.gz", f"{stem}.fzn", f"{stem}.json"]
    written = makespan.Solution.from_json((tmp_path / f"{stem}.json").read_text())
    assert written == certified
    assert json.loads(certified.to_json())["certificate"] == certified.certificate
    assert (certified.status, certified.makespan, certified.schedule) == (sol.status, sol.makespan, sol.schedule)

    check = makespan.check_proof(tmp_path / f"{stem}.json")
    assert (check.certified, check.kind, check.bound, check.reason) == (True, "drcp", 14, None)
    assert check.grid is None
    assert check.seconds > 0
    assert str(check).startswith(f"{tmp_path / stem}.json: certified (makespan 14 proven optimal by a DRCP proof, ")
    # A Solution object with the folder of its certificate, and a path given as text.
    assert makespan.check_proof(certified, tmp_path).certified
    assert makespan.check_proof(str(tmp_path / f"{stem}.json")).certified


SPLIT_WORK = """{"format": "makespan-instance/1", "name": "split-work", "agents": 1,
    "resources": [{"id": "stove"}],
    "activities": [{"id": "stir", "duration": 8, "preemptible": true},
                   {"id": "fry", "duration": 2, "uses": ["stove"]},
                   {"id": "simmer", "duration": 4, "agent": "start", "uses": ["stove"]}],
    "precedences": [{"before": "stir", "after": "simmer", "max_lag": 0}]}"""


def test_a_proof_over_the_units_of_a_split_step_names_its_grid(tmp_path):
    # The cook's work on `stir` makes the optimum (14, not 12); the times share the factor
    # 2, so the proof holds for pieces on the grid of 2, and the check says so.
    certified = makespan.certify(makespan.solve(makespan.Instance.from_json(SPLIT_WORK)), tmp_path)
    check = makespan.check_proof(str(tmp_path / "split-work.json"))
    assert (check.certified, check.kind, check.bound, check.grid) == (True, "drcp", 14, 2)
    assert certified.makespan == 14
    assert "over pieces on the grid of 2" in str(check)
    assert makespan.ProofCheck.from_json(check.to_json()) == check


def test_a_bound_proof_is_arithmetic_and_checks(assembly, tmp_path):
    certified = makespan.certify(makespan.solve(assembly), tmp_path)
    assert certified.certificate == {"kind": "bound", "file": "three-agent-assembly.cert.json"}
    assert files(tmp_path) == ["three-agent-assembly.cert.json", "three-agent-assembly.json"]
    proof = json.loads((tmp_path / "three-agent-assembly.cert.json").read_text())
    assert proof["bound"] == certified.makespan == 23
    check = makespan.check_proof(tmp_path / "three-agent-assembly.json")
    assert (check.certified, check.kind, check.bound) == (True, "bound", 23)
    assert "by a bound proof" in str(check)


def change_one_number(path, pattern, new):
    text = path.read_text()
    tampered, n = re.subn(pattern, new, text, count=1)
    assert n == 1 and tampered != text
    path.write_text(tampered)


def test_a_bound_certificate_with_one_number_changed_is_rejected(assembly, tmp_path):
    makespan.certify(makespan.solve(assembly), tmp_path)
    # The first lag of the critical path: 3 → 4 (fetch-frame takes 3).
    change_one_number(tmp_path / "three-agent-assembly.cert.json", r'"weight": 3\b', '"weight": 4')
    check = makespan.check_proof(tmp_path / "three-agent-assembly.json")
    assert not check.certified
    assert (check.kind, check.bound) == ("bound", None)
    assert check.reason.startswith("rejected: ")
    assert str(check) == f"{tmp_path / 'three-agent-assembly.json'}: not certified: {check.reason}"


def test_a_drcp_model_with_one_number_changed_is_rejected(cooks, tmp_path):
    makespan.certify(makespan.solve(cooks), tmp_path)
    # s0 takes 4; a model claiming it takes 5 is no relaxation of the instance.
    change_one_number(tmp_path / "three-cooks-seven-dishes.fzn", r"\[s0,makespan\],-5\)", "[s0,makespan],-6)")
    check = makespan.check_proof(tmp_path / "three-cooks-seven-dishes.json")
    assert (check.certified, check.kind) == (False, "drcp")
    assert check.reason.startswith("rejected: ")


def test_a_certificate_with_another_bound_is_rejected(cooks, tmp_path):
    makespan.certify(makespan.solve(cooks), tmp_path)
    change_one_number(tmp_path / "three-cooks-seven-dishes.cert.json", r'"bound": 14', '"bound": 13')
    check = makespan.check_proof(tmp_path / "three-cooks-seven-dishes.json")
    assert not check.certified
    assert "bound of 13" in check.reason


def test_a_missing_certificate_is_a_result_not_an_exception(cooks, tmp_path):
    sol = makespan.solve(cooks)
    none = makespan.check_proof(sol, tmp_path)
    assert (none.certified, none.kind, none.bound) == (False, None, None)
    assert "no certificate" in none.reason
    makespan.certify(sol, tmp_path)
    (tmp_path / "three-cooks-seven-dishes.cert.json").unlink()
    gone = makespan.check_proof(tmp_path / "three-cooks-seven-dishes.json")
    assert (gone.certified, gone.kind) == (False, "drcp")
    assert "three-cooks-seven-dishes.cert.json" in gone.reason


def test_a_broken_schedule_is_not_certified(cooks, tmp_path):
    makespan.certify(makespan.solve(cooks), tmp_path)
    path = tmp_path / "three-cooks-seven-dishes.json"
    solution = json.loads(path.read_text())
    solution["schedule"] = solution["schedule"][1:]  # one activity never done
    path.write_text(json.dumps(solution))
    check = makespan.check_proof(path)
    assert not check.certified
    assert "the schedule breaks" in check.reason


def test_a_solution_that_is_not_optimal_is_refused(cooks, tmp_path):
    solution = makespan.solve(cooks).to_dict()
    solution.update(status="feasible", lower_bound=13, gap=1 / 14)
    feasible = makespan.Solution.from_json(json.dumps(solution))
    out = tmp_path / "out"
    with pytest.raises(makespan.Error, match="is feasible, and only optimal solutions carry a certificate"):
        makespan.certify(feasible, out)
    assert not out.exists() or files(out) == []
    check = makespan.check_proof(feasible, tmp_path)
    assert not check.certified and check.reason


def test_an_optimum_no_proof_reaches_in_time_raises_and_leaves_no_file(cooks, tmp_path):
    # Breakfast needs a search proof; with no time for it there is none.
    with pytest.raises(makespan.Error, match="not certified: Pumpkin did not finish the proof within the time limit"):
        makespan.certify(makespan.solve(cooks), tmp_path, time_limit=0)
    assert files(tmp_path) == []


def test_unreadable_solution_files_raise_read_error(tmp_path):
    with pytest.raises(makespan.ReadError, match="missing.json"):
        makespan.check_proof(tmp_path / "missing.json")
    (tmp_path / "broken.json").write_text("{")
    with pytest.raises(makespan.ReadError, match="broken.json"):
        makespan.check_proof(tmp_path / "broken.json")


def test_arguments_are_checked(cooks, tmp_path):
    sol = makespan.solve(cooks)
    with pytest.raises(makespan.Error, match="dir"):
        makespan.check_proof(sol)
    with pytest.raises(makespan.Error, match="name"):
        makespan.certify(sol, tmp_path, name="../escape")
    with pytest.raises(makespan.Error, match="time_limit"):
        makespan.certify(sol, tmp_path, time_limit=-1)
    assert files(tmp_path) == []
    named = makespan.certify(sol, tmp_path, name="run-1")
    assert named.certificate["file"] == "run-1.cert.json"
    assert makespan.check_proof(tmp_path / "run-1.json").certified


def test_proof_checks_convert_and_pickle(cooks, tmp_path):
    makespan.certify(makespan.solve(cooks), tmp_path)
    check = makespan.check_proof(tmp_path / "three-cooks-seven-dishes.json")
    assert makespan.ProofCheck.from_json(check.to_json(indent=2)) == check
    assert pickle.loads(pickle.dumps(check)) == check
    assert json.loads(check.to_json()) == check.to_dict()
    assert check.to_dict()["kind"] == "drcp"
    assert repr(check).endswith("certified=True, kind='drcp', bound=14)")


def docs_section() -> str:
    text = (ROOT / "docs" / "python.md").read_text()
    return text.split("## Certificates", 1)[1].split("\n## ", 1)[0]


def test_the_docs_example_runs_as_written(tmp_path, monkeypatch):
    section = docs_section()
    code = re.findall(r"```python\n(.*?)```", section, re.S)[0]
    printed = re.findall(r"```text\n(.*?)```", section, re.S)[0]
    (tmp_path / "instances").symlink_to(ROOT / "instances")
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "docs/python.md", "exec"), {})
    assert out.getvalue() == printed


def test_instance_pins_the_problem_a_certificate_must_be_about(assembly, tmp_path):
    # The attack: the instance inside a solution file edited (same name, a shorter step),
    # solved and certified; the certificate is right about the edited problem.
    edited = assembly.to_dict()
    edited["activities"][0]["duration"] = max(0, edited["activities"][0]["duration"] - 1)
    edited = makespan.Instance.from_json(json.dumps(edited))
    assert edited.name == assembly.name and edited.problem_hash != assembly.problem_hash
    makespan.certify(makespan.solve(edited), tmp_path)
    path = tmp_path / "three-agent-assembly.json"

    unpinned = makespan.check_proof(path)
    assert unpinned.certified
    # Every result names the problem the claim is about, to compare by hand.
    assert (unpinned.instance, unpinned.problem_hash) == (assembly.name, edited.problem_hash)
    assert f"instance three-agent-assembly {edited.problem_hash}" in str(unpinned)

    pinned = makespan.check_proof(path, instance=assembly)
    assert not pinned.certified and pinned.bound is None
    assert f"is not the pinned instance \"three-agent-assembly\" ({assembly.problem_hash})" in pinned.reason
    assert pinned.problem_hash == edited.problem_hash
    assert makespan.check_proof(path, instance=edited).certified
    # The same with a Solution object and its folder.
    sol = makespan.Solution.from_json(path.read_text())
    assert not makespan.check_proof(sol, tmp_path, instance=assembly).certified
    assert makespan.ProofCheck.from_json(pinned.to_json()) == pinned
