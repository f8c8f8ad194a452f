# Type stubs of the native module, re-exported by `makespan`: one entry per public name.
# A function added to the Rust binding gets its signature here in the same change.
import os
from typing import Any, Dict, List, Literal, Optional, Sequence, TypedDict, Union

from ._status import Status

# A pandas.DataFrame: pandas is optional, so the stubs do not import it.
DataFrame = Any

__version__: str
__all__: List[str]

Agents = Union[int, str, None, Sequence[Union[int, str, None]]]
Levels = Union[str, Sequence[str]]
Combine = Union[int, Sequence[int]]
ProofKind = Literal["bound", "drcp"]

class CertificateRecord(TypedDict):
    """A solution's record of its certificate (``Solution.certificate``)."""

    kind: ProofKind
    file: str

class Error(ValueError):
    """Base of every makespan error; a ValueError, carrying the CLI's message."""

class ReadError(Error):
    """A file or text that cannot be read: missing, not JSON, or breaking its benchmark's format."""

class InvalidInstanceError(Error):
    """An instance that breaks the model's rules (every problem is listed)."""

class UnsupportedError(Error):
    """An instance that uses a feature the solver does not handle yet."""

class Instance:
    """One scheduling problem (``makespan-instance/1``)."""

    @property
    def name(self) -> str: ...
    @property
    def agents(self) -> Optional[int]: ...
    @property
    def time_unit(self) -> str: ...
    @property
    def activities(self) -> List[str]: ...
    @property
    def hash(self) -> str: ...
    @property
    def problem_hash(self) -> str: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def to_json(self, indent: Optional[int] = None) -> str: ...
    @staticmethod
    def from_json(text: str) -> Instance: ...
    def __eq__(self, other: object) -> bool: ...

class Solution:
    """The result of solving an instance; ``optimal`` only with a proof."""

    @property
    def status(self) -> Status: ...
    @property
    def makespan(self) -> Optional[int]: ...
    @property
    def lower_bound(self) -> Optional[int]: ...
    @property
    def gap(self) -> Optional[float]: ...
    @property
    def reason(self) -> Optional[str]: ...
    @property
    def method(self) -> str: ...
    @property
    def seconds(self) -> float: ...
    @property
    def certificate(self) -> Optional[CertificateRecord]: ...
    @property
    def instance(self) -> Instance: ...
    @property
    def schedule(self) -> List[Dict[str, Any]]: ...
    def native_answer(self) -> Optional[str]: ...
    def to_pandas(self) -> DataFrame:
        """The schedule, one row per piece (activity, agent, start, end); needs pandas."""
    def to_dict(self) -> Dict[str, Any]: ...
    def to_json(self, indent: Optional[int] = None) -> str: ...
    @staticmethod
    def from_json(text: str) -> Solution: ...
    def __eq__(self, other: object) -> bool: ...

class Violation:
    """One broken rule of a plan."""

    @property
    def rule(self) -> str: ...
    @property
    def activities(self) -> List[str]: ...
    @property
    def time(self) -> Optional[int]: ...
    @property
    def message(self) -> str: ...
    @property
    def fix(self) -> str: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def to_json(self, indent: Optional[int] = None) -> str: ...
    @staticmethod
    def from_json(text: str) -> Violation: ...
    def __eq__(self, other: object) -> bool: ...

class Report:
    """The verifier's verdict on a plan."""

    @property
    def valid(self) -> bool: ...
    @property
    def violations(self) -> List[Violation]: ...
    @property
    def makespan(self) -> Optional[int]: ...
    @property
    def instance(self) -> str: ...
    @property
    def agent_idle_time(self) -> Optional[int]: ...
    @property
    def peak_agents(self) -> int: ...
    @property
    def optimum(self) -> Optional[int]: ...
    @property
    def ratio(self) -> Optional[float]: ...
    @property
    def lost_time(self) -> Optional[int]: ...
    @property
    def benchmark(self) -> Optional[str]: ...
    @property
    def metrics(self) -> Optional[Dict[str, Any]]: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def to_json(self, indent: Optional[int] = None) -> str: ...
    @staticmethod
    def from_json(text: str) -> Report: ...
    def __eq__(self, other: object) -> bool: ...

class RunReport:
    """A whole run scored (``makespan score``); ``str()`` is the CLI's text."""

    @property
    def benchmark(self) -> str: ...
    @property
    def run(self) -> str: ...
    @property
    def data(self) -> str: ...
    @property
    def score_name(self) -> str: ...
    @property
    def rows(self) -> List[Dict[str, Any]]: ...
    @property
    def headline(self) -> Dict[str, Any]: ...
    @property
    def differences(self) -> List[Dict[str, Any]]: ...
    @property
    def unscored(self) -> int: ...
    @property
    def invalid(self) -> int: ...
    def to_pandas(self) -> DataFrame:
        """The rows, one per answer; needs pandas."""
    def to_dict(self) -> Dict[str, Any]: ...
    def to_json(self, indent: Optional[int] = None) -> str: ...
    @staticmethod
    def from_json(text: str) -> RunReport: ...
    def __eq__(self, other: object) -> bool: ...

class Explanation:
    """Why a plan took as long as it did (``makespan explain``); ``str()`` is the CLI's text."""

    @property
    def instance(self) -> str: ...
    @property
    def makespan(self) -> int: ...
    @property
    def valid(self) -> bool: ...
    @property
    def violations(self) -> List[Violation]: ...
    @property
    def chain(self) -> List[Dict[str, Any]]: ...
    @property
    def waits(self) -> List[Dict[str, Any]]: ...
    @property
    def agents(self) -> List[Dict[str, Any]]: ...
    @property
    def activities(self) -> List[Dict[str, Any]]: ...
    @property
    def lost(self) -> Optional[Dict[str, Any]]: ...
    def to_pandas(self, table: Literal["activities", "chain", "waits", "agents"] = "activities") -> DataFrame:
        """One of the tables; needs pandas."""
    def to_dict(self) -> Dict[str, Any]: ...
    def to_json(self, indent: Optional[int] = None) -> str: ...

class ProofCheck:
    """The re-check of a solution's certificate (``check_proof``); ``str()`` is the CLI's line."""

    @property
    def solution(self) -> str: ...
    @property
    def instance(self) -> Optional[str]: ...
    @property
    def problem_hash(self) -> Optional[str]: ...
    @property
    def certified(self) -> bool: ...
    @property
    def kind(self) -> Optional[ProofKind]: ...
    @property
    def bound(self) -> Optional[int]: ...
    @property
    def grid(self) -> Optional[int]: ...
    @property
    def reason(self) -> Optional[str]: ...
    @property
    def seconds(self) -> float: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def to_json(self, indent: Optional[int] = None) -> str: ...
    @staticmethod
    def from_json(text: str) -> ProofCheck: ...
    def __eq__(self, other: object) -> bool: ...

# load.rs
def load(
    path: Union[str, os.PathLike[str]],
    *,
    agents: Agents = None,
    combine: Optional[Combine] = None,
    level: Optional[Levels] = None,
    constraint: bool = False,
    **options: Any,
) -> List[Instance]:
    """Every instance a file describes (a unified instance or any benchmark's native file),
    or a folder's, read as ``makespan solve FOLDER`` reads it (files that are not instances skipped).

    Each benchmark's own options are keywords (``combine``, ``level``, ``constraint``, and
    Robotouille's ``sets``, ``tasks``, ``seeds`` for a checkout, e.g.
    ``load(checkout, sets="asynchronous", tasks=[0, 3], seeds=["default", 42])``; any other a
    benchmark declares is accepted the same way)."""

def load_instance(
    spec: str,
    data: Union[str, os.PathLike[str], None] = None,
    *,
    agents: Agents = None,
    combine: Optional[Combine] = None,
    level: Optional[Levels] = None,
    constraint: bool = False,
    **options: Any,
) -> Instance:
    """One instance: a file, ``PATH#NAME`` or ``BENCH:NAME`` (looked up under ``data``, the root of your checkout of the benchmark; default ``$MAKESPAN_DATA``)."""

# solve.rs
def solve(
    instance: Instance,
    *,
    time_limit: float = 60.0,
    threads: int = 1,
    node_limit: Optional[int] = None,
    heuristic_only: bool = False,
    method: str = "exact",
) -> Solution:
    """Solves one instance without the GIL; Ctrl-C raises KeyboardInterrupt."""

def solve_many(
    instances: Sequence[Instance],
    *,
    jobs: Optional[int] = None,
    time_limit: float = 60.0,
    threads: int = 1,
    node_limit: Optional[int] = None,
    heuristic_only: bool = False,
) -> List[Solution]:
    """Solves every instance in parallel, in the order given."""

# verify.rs
def verify(
    plan: Union[str, os.PathLike[str], Dict[str, Any], List[Any]],
    instance: Optional[Instance] = None,
    solution: Optional[Solution] = None,
) -> Report:
    """Checks a plan (a native answer, raw LLM text, a unified plan, a path) against its instance."""

Plan = Union[str, os.PathLike[str], Dict[str, Any], List[Any]]

# score.rs
def score(
    run: Union[str, os.PathLike[str]],
    data: Union[str, os.PathLike[str], None] = None,
    solutions: Union[str, os.PathLike[str], None] = None,
    *,
    time_limit: float = 60.0,
) -> RunReport:
    """Scores a whole model run (a ParaCook results file, TimeArena or Recipe2Plan folder)."""

# explain.rs
def explain(
    plan: Plan,
    instance: Optional[Instance] = None,
    solution: Optional[Solution] = None,
) -> Explanation:
    """Where a plan's time went: critical chain, unforced waits, agents, lost time."""

def gantt(
    plan: Plan,
    instance: Optional[Instance] = None,
    compare: Optional[Solution] = None,
    format: Literal["svg", "html"] = "svg",
) -> str:
    """The plan's Gantt chart as SVG or a self-contained HTML page."""

# certify.rs
def certify(
    solution: Solution,
    dir: Union[str, os.PathLike[str]],
    *,
    name: Optional[str] = None,
    time_limit: float = 60.0,
) -> Solution:
    """Writes an optimal solution's certificate and the solution into ``dir``; returns it certified."""

def check_proof(
    solution: Union[Solution, str, os.PathLike[str]],
    dir: Union[str, os.PathLike[str], None] = None,
    *,
    instance: Optional[Instance] = None,
) -> ProofCheck:
    """Re-checks a solution's certificate as ``makespan check-proof`` does; never raises for a bad proof."""
