"""The ``to_pandas()`` tables: a scored run, solutions and explanations as ``pandas.DataFrame``.

pandas is optional: it is imported only when a table is asked for, and its absence is an
``ImportError`` that says how to install it.
"""

from typing import Any, Iterable, List

__all__ = ["to_pandas"]

#: The columns of a table of solutions, one row per solution.
SOLUTION_COLUMNS = ["instance", "status", "makespan", "lower_bound", "gap", "seconds", "method", "reason"]

#: The tables of an explanation.
EXPLANATION_TABLES = ("activities", "chain", "waits", "agents")


def _pandas() -> Any:
    try:
        import pandas
    except ImportError as err:
        raise ImportError(
            "to_pandas() needs pandas, which makespan does not install: pip install pandas"
        ) from err
    return pandas


def run_frame(run: Any) -> Any:
    """A scored run's rows, one per answer (``RunReport.to_pandas``)."""
    return _pandas().DataFrame(run.rows)


def schedule_frame(solution: Any) -> Any:
    """A solution's schedule, one row per piece: activity, agent, start, end."""
    rows = [
        {"activity": entry["activity"], "agent": entry.get("agent"), "start": start, "end": end}
        for entry in solution.schedule
        for start, end in entry["pieces"]
    ]
    return _pandas().DataFrame(rows, columns=["activity", "agent", "start", "end"])


def explanation_frame(explanation: Any, table: str = "activities") -> Any:
    """One of an explanation's tables (``Explanation.to_pandas``)."""
    if table not in EXPLANATION_TABLES:
        from ._makespan import Error

        raise Error(f'table: "{table}" is not one of {", ".join(EXPLANATION_TABLES)}')
    return _pandas().DataFrame(getattr(explanation, table))


def solutions_frame(solutions: Iterable[Any]) -> Any:
    """Solutions (``solve_many``'s list), one row per solution."""
    rows: List[dict] = [
        {
            "instance": s.instance.name,
            "status": s.status,
            "makespan": s.makespan,
            "lower_bound": s.lower_bound,
            "gap": s.gap,
            "seconds": s.seconds,
            "method": s.method,
            "reason": s.reason,
        }
        for s in solutions
    ]
    return _pandas().DataFrame(rows, columns=SOLUTION_COLUMNS)


def to_pandas(value: Any) -> Any:
    """A ``pandas.DataFrame`` of a ``RunReport`` (its rows), an ``Explanation`` (its
    activities), a ``Solution`` (its schedule) or a list of solutions (one row each, e.g.
    ``to_pandas(makespan.solve_many(insts))``).

    Raises ``ImportError`` when pandas is not installed, and ``TypeError`` for anything else.
    """
    from ._makespan import Explanation, RunReport, Solution

    if isinstance(value, (RunReport, Explanation, Solution)):
        return value.to_pandas()
    items = list(value) if not isinstance(value, (str, bytes, dict)) and hasattr(value, "__iter__") else None
    if items is None or not all(isinstance(s, Solution) for s in items):
        raise TypeError(
            "to_pandas() takes a RunReport, an Explanation, a Solution or a list of Solutions, "
            f"not {type(value).__name__}"
        )
    return solutions_frame(items)
