"""Spreading makespan.solve over a Dask cluster with makespan.dask.solve_on_cluster, and its
throughput against solve_many.

    python examples/dask_solve.py ../shared/benchmarks/paracook/abstract [WORKERS]

solves every ParaCook instance on a LocalCluster and then with solve_many, and prints the
throughput of both. On a real cluster, pass a Client connected to its scheduler instead.
"""

import sys
import time

import makespan
from makespan.dask import solve_on_cluster


def main(folder: str, workers: int = 2) -> None:
    from distributed import Client, LocalCluster

    instances = makespan.load(folder)
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True) as cluster:
        with Client(cluster) as client:
            start = time.perf_counter()
            solutions = solve_on_cluster(client, instances, time_limit=60)
            dask_s = time.perf_counter() - start
    start = time.perf_counter()
    local = makespan.solve_many(instances, jobs=workers, time_limit=60)
    local_s = time.perf_counter() - start
    assert [s.makespan for s in solutions] == [s.makespan for s in local]
    n = len(instances)
    print(f"{n} instances: Dask {dask_s:.2f} s ({n / dask_s:.1f}/s), "
          f"solve_many {local_s:.2f} s ({n / local_s:.1f}/s), {workers} workers")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 2)
