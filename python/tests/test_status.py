"""Status: an enum that is also the string the files and the CLI write."""

import json
import pickle

import makespan
from makespan import Status


def test_a_solutions_status_is_an_enum_equal_to_its_string(breakfast):
    sol = makespan.solve(breakfast)
    assert sol.status is Status.OPTIMAL
    assert sol.status == "optimal" and isinstance(sol.status, str)
    assert str(sol.status) == f"{sol.status}" == "optimal"
    assert json.dumps({"status": sol.status}) == '{"status": "optimal"}'
    assert pickle.loads(pickle.dumps(sol)).status is Status.OPTIMAL
    assert sol.to_dict()["status"] == "optimal"


def test_every_status_the_library_writes_is_a_member(breakfast):
    assert [s.value for s in Status] == ["optimal", "feasible", "infeasible", "invalid", "error"]
    assert Status("feasible") is Status.FEASIBLE
    # A heuristic-only solve that proves nothing is feasible; the value reads back.
    sol = makespan.solve(breakfast, heuristic_only=True)
    assert sol.status in (Status.OPTIMAL, Status.FEASIBLE)
    assert makespan.Solution.from_json(sol.to_json()).status is sol.status
