"""makespan: provably optimal schedules for LLM planning benchmarks, and a strict verifier
for any agent's plan.

>>> import makespan
>>> insts = makespan.load("instances/two-cooks-breakfast.json")   # list[Instance]
>>> sol = makespan.solve(insts[0], time_limit=60)                  # Solution
>>> sol.status, sol.makespan
(<Status.OPTIMAL: 'optimal'>, 21)
>>> sol.status == "optimal"
True
>>> rep = makespan.verify(sol.to_dict(), insts[0], solution=sol)   # Report
>>> rep.valid, rep.ratio
(True, 1.0)

Every name is documented (``help(makespan.verify)``) and typed (``_makespan.pyi``). Tables
for pandas: ``to_pandas()`` on a ``RunReport``, an ``Explanation`` or a ``Solution``, and
``makespan.to_pandas(solutions)``. Solving on a Dask cluster: ``makespan.dask``.
"""

from ._makespan import *  # noqa: F401,F403  (the names are listed in _makespan.__all__)
from ._makespan import __all__ as _native
from ._makespan import __version__  # noqa: F401
from ._pandas import to_pandas
from ._status import Status

__all__ = [*_native, "Status", "to_pandas"]
