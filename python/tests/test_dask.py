"""The Dask example (docs/python.md): solve spread over a LocalCluster of 2 workers gives the
same solutions as solve_many. Skipped, with the reason, where Dask is not installed."""

import pathlib
import sys

import pytest

import makespan

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "examples"))

distributed = pytest.importorskip(
    "distributed", reason="Dask is not installed: pip install 'dask[distributed]' to run this test"
)


def test_solving_on_a_dask_cluster_matches_solve_many(paracook):
    from dask_solve import solve_on_cluster

    insts = makespan.load(paracook) + makespan.load(paracook.with_name("orders_num_2.json"))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True) as cluster:
        with distributed.Client(cluster) as client:
            on_cluster = solve_on_cluster(client, insts, time_limit=60)
    here = makespan.solve_many(insts, jobs=2, time_limit=60)
    summary = lambda sols: [(s.instance, s.status, s.makespan, s.lower_bound) for s in sols]
    assert summary(on_cluster) == summary(here)
    assert all(s.status == "optimal" for s in on_cluster)
