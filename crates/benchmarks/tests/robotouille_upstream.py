"""Drives upstream Robotouille's release backend for makespan's differential tests.

Reads a JSON list of jobs on stdin, each {"environment": <environment JSON as the generator
produces it>, "actions": [<action strings>]}, and writes for each job the valid action
strings, the true predicates ("name arg1 arg2") and whether the goal holds, at the start and
after each action (an action string that is not valid is not executed, as in the harness).

Run with the upstream checkout as the working directory. Only the backend is loaded: `gym`
(a base class) and `utils.pddlgym_interface` (the legacy PDDLGym wrapper) are stubbed, and
`robotouille/env.py` is loaded by path so the renderer (pygame) is never imported.
"""
import importlib.util
import json
import os
import sys
import types

sys.path.insert(0, os.getcwd())

gym = types.ModuleType("gym")
gym.Env = object
gym.spaces = types.SimpleNamespace(Text=object)
sys.modules["gym"] = gym
sys.modules["utils.pddlgym_interface"] = types.ModuleType("utils.pddlgym_interface")

spec = importlib.util.spec_from_file_location("upstream_env", os.path.join("robotouille", "env.py"))
upstream_env = importlib.util.module_from_spec(spec)
spec.loader.exec_module(upstream_env)
from environments.env_generator import builder  # noqa: E402

with open(os.path.join("domain", "robotouille.json")) as f:
    DOMAIN = json.load(f)


def snapshot(state):
    _, strings = state.get_valid_actions_and_str()
    preds = sorted(
        " ".join([p.name] + [o.name for o in p.params])
        for p, value in state.predicates.items()
        if value
    )
    return {"valid": sorted(strings), "predicates": preds, "goal": state.is_goal_reached()}


def run(job):
    env = json.loads(json.dumps(job["environment"]))
    for field in builder.ENTITY_FIELDS:
        if field in env:
            env[field].sort(key=lambda e: (e["x"], e["y"]))
    _, env = builder.build_problem(env)
    state = upstream_env.build_state(DOMAIN, env)
    state.special_effects = []  # the default list is shared between states upstream
    steps = [snapshot(state)]
    for text in job["actions"]:
        valid, strings = state.get_valid_actions_and_str()
        matches = [v for v, s in zip(valid, strings) if s == text]
        if matches:
            state.step([matches[0]])
            steps.append(snapshot(state))
        else:
            steps.append({"invalid": text})
    return {"steps": steps}


if __name__ == "__main__":
    jobs = json.load(sys.stdin)
    json.dump([run(job) for job in jobs], sys.stdout)
