"""makespan.dask: solving spread over a Dask cluster, importable from the package. With a local
stand-in client (Dask's `submit`/`gather`) always; on a LocalCluster of 2 workers where Dask
is installed, giving the same solutions as solve_many."""

import pytest

import makespan
import makespan.dask
from makespan.dask import solve_on_cluster


class LocalClient:
    """Dask's `submit`/`gather`, run here: what solve_on_cluster asks of a client."""

    def __init__(self):
        self.submitted = []

    def submit(self, fn, *args, pure=True, **kwargs):
        self.submitted.append((fn, args, pure, kwargs))
        return lambda: fn(*args, **kwargs)

    def gather(self, futures):
        return [future() for future in futures]


def test_solve_on_cluster_submits_one_task_per_instance_in_order(breakfast, paracook):
    insts = [breakfast] + makespan.load(paracook, agents=[1, 2])
    client = LocalClient()
    sols = solve_on_cluster(client, insts, time_limit=30)
    assert [s.instance for s in sols] == insts
    assert [s.makespan for s in sols] == [s.makespan for s in makespan.solve_many(insts, jobs=1)]
    # Each task is makespan.solve with the options, never cached by Dask (pure=False).
    assert all(fn is makespan.solve and not pure and kw == {"time_limit": 30} for fn, _, pure, kw in client.submitted)


def test_the_helper_is_the_packages_and_dask_stays_optional():
    assert makespan.dask.solve_on_cluster is solve_on_cluster
    assert "solve_on_cluster" in makespan.dask.__all__


def test_solving_on_a_dask_cluster_matches_solve_many(paracook):
    distributed = pytest.importorskip(
        "distributed", reason="Dask is not installed: pip install 'dask[distributed]' to run this test"
    )
    insts = makespan.load(paracook) + makespan.load(paracook.with_name("orders_num_2.json"))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True) as cluster:
        with distributed.Client(cluster) as client:
            on_cluster = solve_on_cluster(client, insts, time_limit=60)
    here = makespan.solve_many(insts, jobs=2, time_limit=60)
    summary = lambda sols: [(s.instance, s.status, s.makespan, s.lower_bound) for s in sols]
    assert summary(on_cluster) == summary(here)
    assert all(s.status == "optimal" for s in on_cluster)
