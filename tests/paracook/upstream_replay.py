"""Replays plans in ParaCook's own simulator, for makespan's differential tests.

Usage: python3 upstream_replay.py CHECKOUT < cases.json > results.jsonl

`cases.json` is a list of {"map": path relative to CHECKOUT without ".json", "orders":
["<category>/<dish>", ...], "plan": {agent: [action, ...]}}. Each case is run as the harness
runs an IO/CoT answer (`submit_plan`, then `run_simulation(raise_on_error=True)`), and one
JSON line per case gives the time, whether all orders were served, the error's class and
text, the served and open orders, the per-agent times and the world after every event.
The checkout is read in place; nothing of it is copied.
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
    cases = json.load(sys.stdin)
    for case in cases:
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


if __name__ == "__main__":
    main()
