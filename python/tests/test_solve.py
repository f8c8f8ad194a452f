"""solve and solve_many: proven optima, the options, and the errors."""

import json

import pytest

import makespan
from conftest import ROOT


def test_solve_proves_the_optimum(breakfast):
    sol = makespan.solve(breakfast, time_limit=60)
    assert (sol.status, sol.makespan, sol.lower_bound, sol.gap) == ("optimal", 21, 21, 0.0)
    assert sol.instance == breakfast
    assert {a["activity"] for a in sol.schedule} == set(breakfast.activities)
    assert sol.reason is None and sol.seconds >= 0 and sol.method


def test_solve_the_issues_paracook_example(paracook):
    insts = makespan.load(paracook, agents=[2, 3])
    sol = makespan.solve(insts[0], time_limit=60)
    assert sol.status == "optimal"
    assert sol.makespan == sol.lower_bound
    # The optimum the README's example prints (burger, seed 42, four orders, two cooks).
    assert (insts[0].agents, sol.makespan) == (2, 165)


def test_a_node_limit_leaves_a_gap_and_says_why():
    from conftest import job_shop

    sol = makespan.solve(job_shop("js-8x8", 8, 8, 1), node_limit=0, time_limit=5)
    assert sol.status in ("feasible", "optimal")
    if sol.status == "feasible":
        assert sol.lower_bound < sol.makespan and 0 < sol.gap < 1 and sol.reason


def test_heuristic_only_skips_the_milp():
    from conftest import job_shop

    sol = makespan.solve(job_shop("js-6x6", 6, 6, 2), heuristic_only=True)
    assert sol.status in ("feasible", "optimal") and sol.method.startswith("heuristic")


def test_solve_many_keeps_the_order_and_agrees_with_solve(paracook, breakfast):
    insts = makespan.load(paracook) + [breakfast]
    sols = makespan.solve_many(insts, jobs=2)
    assert [s.instance.name for s in sols] == [i.name for i in insts]
    assert [s.makespan for s in sols] == [makespan.solve(i).makespan for i in insts]
    assert all(s.status == "optimal" for s in sols)
    assert makespan.solve_many([]) == []


def test_an_unsupported_feature_is_an_unsupported_error(breakfast):
    inst = breakfast.to_dict()
    # A preemptible activity that needs an agent, with two agents: refused, not ignored.
    inst["activities"][0]["preemptible"] = True
    with pytest.raises(makespan.UnsupportedError, match="not supported yet"):
        makespan.solve(makespan.Instance.from_json(json.dumps(inst)))
    # In a batch it is one error row, and the rest is solved.
    sols = makespan.solve_many([makespan.Instance.from_json(json.dumps(inst)), breakfast])
    assert sols[0].status == "error" and "not supported yet" in sols[0].reason
    assert sols[1].status == "optimal"


def test_a_baseline_method_and_a_bad_method(data):
    inst = makespan.load_instance("timearena:cooking1", data=data)
    greedy = makespan.solve(inst, method="timearena-greedy")
    assert greedy.status in ("feasible", "invalid") and greedy.method == "timearena-greedy"
    with pytest.raises(makespan.Error, match='method: "fastest" is not one of exact, timearena-greedy'):
        makespan.solve(inst, method="fastest")


@pytest.mark.parametrize(
    "options, message",
    [
        ({"threads": 0}, "threads"),
        # 2,000 HiGHS threads aborted the interpreter: the CLI's cap applies here too.
        ({"threads": 2000}, "threads: 2000: at most the number of cores"),
        ({"time_limit": -1.0}, "time_limit"),
        ({"time_limit": float("nan")}, "time_limit"),
    ],
)
def test_bad_options_are_errors(breakfast, options, message):
    with pytest.raises(makespan.Error, match=message):
        makespan.solve(breakfast, **options)


def test_solve_many_rejects_zero_jobs(breakfast):
    with pytest.raises(makespan.Error, match="jobs: at least 1"):
        makespan.solve_many([breakfast], jobs=0)


# Under an address-space limit of 3 GiB, more workers than their stacks fit: the CLI's
# `--jobs` check, in Python's words. Run in a child interpreter, whose limit is its own.
JOBS_UNDER_A_LIMIT = """
import resource, sys
limit = 3 << 30
resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(resource.RLIMIT_AS)[1]))
import makespan
inst = makespan.load(sys.argv[1])[0]
try:
    makespan.solve_many([inst] * 2, jobs=64)
except makespan.Error as err:
    print(err)
print(len(makespan.solve_many([inst] * 2)), "solved with the default jobs")
"""


def test_solve_many_refuses_more_jobs_than_the_address_space_holds():
    import resource
    import subprocess
    import sys

    hard = resource.getrlimit(resource.RLIMIT_AS)[1]
    if hard != resource.RLIM_INFINITY and hard < 3 << 30:
        pytest.skip(f"the hard address-space limit ({hard} bytes) is below the test's 3 GiB")
    out = subprocess.run(
        [sys.executable, "-c", JOBS_UNDER_A_LIMIT, str(ROOT / "instances" / "two-cooks-breakfast.json")],
        capture_output=True, text=True, timeout=300,
    )
    assert out.returncode == 0, out.stderr
    first, second = out.stdout.splitlines()[:2]
    assert first.startswith("jobs: each worker reserves ") and "(ulimit -v) of 3072 MiB fits at most" in first
    assert first.endswith("lower jobs= or raise the limit")
    assert second == "2 solved with the default jobs"


def test_only_instances_are_solved():
    with pytest.raises(TypeError):
        makespan.solve("instances/two-cooks-breakfast.json")
