"""``Status``: what is known about a solution, an enum whose members are also the strings the
solution files and the CLI write, so ``sol.status == "optimal"`` and ``sol.status is
Status.OPTIMAL`` both hold."""

import enum

__all__ = ["Status"]


class Status(str, enum.Enum):
    """What is known about a solution (``Solution.status``).

    A ``str`` as well: it compares equal to its value, ``str()`` and f-strings give the
    value, and ``json.dumps`` writes it as the value.
    """

    #: The makespan equals a proven lower bound.
    OPTIMAL = "optimal"
    #: A verified schedule exists; its optimality is not proven (see ``lower_bound``, ``gap``).
    FEASIBLE = "feasible"
    #: No schedule exists; ``reason`` says why.
    INFEASIBLE = "infeasible"
    #: A baseline method's schedule breaks rules of the instance; ``reason`` names them.
    INVALID = "invalid"
    #: Something went wrong (an unsupported feature, a solver failure); ``reason`` says what.
    ERROR = "error"

    def __str__(self) -> str:
        return self.value

    __format__ = str.__format__
