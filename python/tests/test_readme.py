"""The README's "From Python" examples, run as written (so the front door cannot rot)."""

import contextlib
import io
import json
import os
import re

import pytest

import makespan
from conftest import ROOT


def readme_blocks():
    text = (ROOT / "README.md").read_text()
    section = text.split("## From Python", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def run(code: str, namespace: dict) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), namespace)
    return out.getvalue()


def test_the_issues_example(data, monkeypatch):
    if data != ROOT.parent / "shared" / "benchmarks":
        pytest.skip("the README's example reads ../shared/benchmarks")
    monkeypatch.chdir(ROOT)
    inst = makespan.load(data / "paracook/abstract/burger/seed_42/orders_num_4.json", agents=2)[0]
    answer = makespan.solve(inst).native_answer()
    text = run(readme_blocks()[0], {"llm_response_text": f"My plan:\n```json\n{answer}\n```"})
    lines = text.splitlines()
    assert lines[0] == "optimal 165"
    assert lines[1].startswith("True 165 []")


def test_the_harness_scores_a_folder_into_a_table(data, tmp_path, monkeypatch):
    paracook = data / "paracook/abstract/burger/seed_42/orders_num_3.json"
    one, two = makespan.load(paracook, agents=[1, 2])
    answers = tmp_path / "answers"
    answers.mkdir()
    (answers / f"{one.name}.txt").write_text(f"Plan:\n```json\n{makespan.solve(one).native_answer()}\n```")
    broken = json.loads(makespan.solve(two).native_answer())
    broken[0] = broken[0][:-1]
    (answers / f"{two.name}.txt").write_text(json.dumps(broken))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MAKESPAN_DATA", str(data))
    table = run(readme_blocks()[1], {})
    rows = [line.split() for line in table.splitlines()]
    by_name = {row[0]: row for row in rows}
    assert by_name[one.name][1] == "True"
    assert float(by_name[one.name][2]) == float(by_name[one.name][3])  # the optimum
    assert by_name[two.name][1] == "False" and "missing_activity" in by_name[two.name]
    assert os.getcwd() == str(tmp_path)
