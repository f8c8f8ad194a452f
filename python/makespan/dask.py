"""Solving on a Dask cluster: instances and solutions pickle (through their JSON), so each
worker process solves its share with every core it has.

>>> from distributed import Client                                    # doctest: +SKIP
>>> from makespan.dask import solve_on_cluster                        # doctest: +SKIP
>>> with Client("tcp://scheduler:8786") as client:                    # doctest: +SKIP
...     solutions = solve_on_cluster(client, instances, time_limit=60)

This module does not import Dask: any client with Dask's ``submit`` and ``gather`` serves.
"""

from typing import Any, Iterable, List

from ._makespan import Instance, Solution, solve

__all__ = ["solve_on_cluster"]


def solve_on_cluster(client: Any, instances: Iterable[Instance], **options: Any) -> List[Solution]:
    """Solves each instance as one task on the client's workers, as ``makespan.solve`` with
    ``options`` (``time_limit``, ``threads``, ``method``, …); the solutions come back in
    the order given.

    ``client``: a ``distributed.Client`` (or anything with its ``submit(fn, *args, pure=,
    **kwargs)`` and ``gather(futures)``). A worker's exception is raised here, as
    ``gather`` raises it.
    """
    futures = [client.submit(solve, instance, pure=False, **options) for instance in instances]
    return client.gather(futures)
