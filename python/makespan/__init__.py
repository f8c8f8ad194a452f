"""makespan: provably optimal schedules for LLM planning benchmarks, and a strict verifier
for any agent's plan.

>>> import makespan
>>> insts = makespan.load("instances/two-cooks-breakfast.json")   # list[Instance]
>>> sol = makespan.solve(insts[0], time_limit=60)                  # Solution
>>> sol.status, sol.makespan
('optimal', 21)
>>> rep = makespan.verify(sol.to_dict(), insts[0], solution=sol)   # Report
>>> rep.valid, rep.ratio
(True, 1.0)

Every name is documented (``help(makespan.verify)``) and typed (``_makespan.pyi``).
"""

from ._makespan import *  # noqa: F401,F403  (the names are listed in _makespan.__all__)
from ._makespan import __all__, __version__  # noqa: F401
