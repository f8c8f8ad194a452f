"""Replays plans in ParaCook's own simulator, for makespan's differential tests.

Usage: python3 upstream_replay.py CHECKOUT < cases.json > results.jsonl
       python3 upstream_replay.py CHECKOUT --examples > cases.json

`cases.json` is a list of {"map": path relative to CHECKOUT without ".json" (or "map_json":
the map itself), "orders":
["<category>/<dish>", ...], "plan": {agent: [action, ...]}}. Each case is run as the harness
runs an IO/CoT answer (`submit_plan`, then `run_simulation(raise_on_error=True)`), and one
JSON line per case gives the time, whether all orders were served, the error's class and
text, the served and open orders, the per-agent times and the world after every event.
The checkout is read in place; nothing of it is copied.

`--examples` prints the checkout's own plans as cases: the fixed agent's five plans (with
"harness": "fixed") and the IO and CoT few-shot answers ("harness": "io", "cot").
"""

import json
import logging
import os
import sys


def main():
    checkout = os.path.abspath(sys.argv[1])
    os.chdir(checkout)
    sys.path.insert(0, checkout)
    from src.game.world_state import World
    from src.game.simulator import Simulator
    from src.utils.logger_config import logger

    logger.setLevel(logging.CRITICAL)
    with open("config/item/station.json", encoding="utf-8") as f:
        object_data = json.load(f)
    recipes_by_category = {}
    if sys.argv[2:] == ["--examples"]:
        print(json.dumps(examples()))
        return
    cases = json.load(sys.stdin)
    for case in cases:
        if "map_json" in case:
            map_data = case["map_json"]
        else:
            with open(case["map"] + ".json", encoding="utf-8") as f:
                map_data = json.load(f)
        orders = case["orders"]
        recipe_data = []
        for order in list(dict.fromkeys(orders)):
            category, name = order.split("/")
            if category not in recipes_by_category:
                with open(f"config/recipe/{category}.json", encoding="utf-8") as f:
                    recipes_by_category[category] = json.load(f)
            recipe_data.extend(r for r in recipes_by_category[category] if r["name"] == name)
        world = World(map_data, object_data, recipe_data, orders=[o.split("/")[1] for o in orders])
        sim = Simulator(world)
        error = None
        try:
            sim.submit_plan(case["plan"])
            sim.run_simulation(raise_on_error=True)
        except Exception as e:  # the harness catches everything the same way
            error = {"type": type(e).__name__, "message": str(e)}
        agents = world.agents.values()
        print(json.dumps({
            "time": sim.current_time,
            "all_served": len(world.orders) == 0,
            "done": len(world.orders) == 0 and error is None,
            "error": error,
            "finished_orders": world.finished_orders,
            "remaining_orders": world.orders,
            "moving": [a.moving_time for a in agents],
            "waiting": [a.waiting_time for a in agents],
            "processing": [a.processing_time for a in agents],
            "execution": [a.all_execution_time for a in agents],
            "history": sim.state_history,
        }))


def category_of(dish):
    for name in sorted(os.listdir("config/recipe")):
        with open(os.path.join("config/recipe", name), encoding="utf-8") as f:
            if any(r["name"] == dish for r in json.load(f)):
                return name[: -len(".json")]
    raise ValueError(f"no recipe {dish}")


def stub_plotting():
    """The harness's utilities import matplotlib and numpy for drawing maps only; where they
    are not installed, empty stand-ins let its JSON extraction and agents load."""
    import types
    for name in ("matplotlib", "matplotlib.pyplot", "numpy"):
        try:
            __import__(name)
        except ImportError:
            sys.modules[name] = types.ModuleType(name)
    sys.modules["matplotlib"].pyplot = sys.modules["matplotlib.pyplot"]


def examples():
    """The fixed agent's plans and the few-shot answers, as replay cases."""
    stub_plotting()
    import ast
    import glob
    import importlib
    from src.agent.method.Fixed.Fixed import FixedAgent
    from src.utils.utils import extract_json

    maps = {}
    for path in glob.glob("config/map_examples/*.json"):
        with open(path, encoding="utf-8") as f:
            m = json.load(f)
        maps[m["name"]] = m
    with open("data/cook/maps/pasta/seed_42/agent_num_2.json", encoding="utf-8") as f:
        maps["kitchen"] = json.load(f)
    fixed = [
        (["burger_basic"], "kitchen_burger_8x6"),
        (["salad_advanced"], "kitchen_salad_8x6"),
        (["salad_advanced", "salad_advanced"], "kitchen_salad_8x6"),
        (["sushi_fish"], "kitchen_sushi_8x6"),
        (["pasta_mushroom", "pasta_tomato"], "kitchen"),
    ]
    cases = []
    for orders, map_name in fixed:
        cases.append({
            "name": f"fixed {'+'.join(orders)} on {map_name}",
            "harness": "fixed",
            "map_json": maps[map_name],
            "orders": [f"{category_of(o)}/{o}" for o in orders],
            "plan": FixedAgent().get_actions(orders, map_name),
        })
    for method in ("IO", "CoT"):
        folder = f"src/agent/method/{method}/example"
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".py"):
                continue
            ex = importlib.import_module(f"src.agent.method.{method}.example.{name[:-3]}")
            map_text = ex.input.split("Map JSON:", 1)[1].split("Recipes:", 1)[0]
            orders = ast.literal_eval(ex.input.split("Orders:", 1)[1].strip())
            plan = extract_json(ex.output)
            if "plan" in plan:
                plan = plan["plan"]
            cases.append({
                "name": f"{method} example {name[:-3]}",
                "harness": method.lower(),
                "map_json": json.loads(map_text),
                "orders": [f"{category_of(o)}/{o}" for o in orders],
                "plan": plan,
                "answer": ex.output,
            })
    return cases


if __name__ == "__main__":
    main()
