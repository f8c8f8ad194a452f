"""Runs upstream Robotouille's procedural generator for the differential tests.

Usage: python3 upstream_generator.py CHECKOUT < jobs, one job a line: `FILE SEED plain|noisy`,
FILE relative to the checkout's `environments/env_generator/examples`. For each job, one JSON
line: the environment upstream's harness gets (`builder.load_environment`, then
`randomize_environment` retried with seed+1 after any exception, as
`robotouille_env._procedurally_generate` does), the seed that succeeded and the seeds that
raised. Keys sorted, compact, so equal kitchens print equal bytes.

The generator is imported from the checkout itself; its package `__init__` is skipped because
it imports the simulator's dependencies, which the generator does not need.
"""

import importlib.util
import json
import os
import sys
import types

root = sys.argv[1]
folder = os.path.join(root, "environments", "env_generator")
package = types.ModuleType("env_generator")
package.__path__ = [folder]
sys.modules["env_generator"] = package


def module(name):
    spec = importlib.util.spec_from_file_location(
        "env_generator." + name, os.path.join(folder, name + ".py")
    )
    loaded = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = loaded
    spec.loader.exec_module(loaded)
    return loaded


module("object_enums")
generator = module("procedural_generator")
builder = module("builder")

for line in sys.stdin:
    name, seed, mode = line.split()
    seed = int(seed)
    environment = builder.load_environment(name)
    failures = []
    while True:
        try:
            kitchen = generator.randomize_environment(environment, seed, mode == "noisy")
            break
        except Exception:
            failures.append(seed)
            seed += 1
    record = {"effective_seed": seed, "failures": failures, "environment": kitchen}
    print(json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False))
