"""Shared fixtures: the repository's instances, and the benchmarks' data found as the Rust
tests find it ($MAKESPAN_DATA, else ../shared/benchmarks beside the repository), skipped
with a message where absent."""

import json
import os
import pathlib
import random

import pytest

import makespan

ROOT = pathlib.Path(__file__).resolve().parents[2]


def data_dir() -> pathlib.Path:
    return pathlib.Path(os.environ.get("MAKESPAN_DATA", ROOT.parent / "shared" / "benchmarks"))


@pytest.fixture
def data() -> pathlib.Path:
    folder = data_dir()
    if not folder.is_dir():
        pytest.skip(f"benchmark data not found at {folder} (set MAKESPAN_DATA)")
    return folder


@pytest.fixture
def paracook(data) -> pathlib.Path:
    """ParaCook's burger task, seed 42, four orders (the issue's example)."""
    return data / "paracook" / "abstract" / "burger" / "seed_42" / "orders_num_4.json"


@pytest.fixture
def breakfast() -> makespan.Instance:
    return makespan.load(ROOT / "instances" / "two-cooks-breakfast.json")[0]


def job_shop(name: str, jobs: int, machines: int, seed: int) -> makespan.Instance:
    """A random job shop: hard for the MILP from about 10 x 10 on."""
    rng = random.Random(seed)
    activities, precedences = [], []
    for j in range(jobs):
        order = list(range(machines))
        rng.shuffle(order)
        for o, m in enumerate(order):
            activities.append(
                {"id": f"j{j}o{o}", "duration": rng.randint(1, 10), "agent": "none", "uses": [f"m{m}"]}
            )
            if o:
                precedences.append({"before": f"j{j}o{o - 1}", "after": f"j{j}o{o}"})
    return makespan.Instance.from_json(
        json.dumps({
            "format": "makespan-instance/1",
            "name": name,
            "agents": None,
            "resources": [{"id": f"m{m}", "capacity": 1} for m in range(machines)],
            "activities": activities,
            "precedences": precedences,
        })
    )
