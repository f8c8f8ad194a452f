"""Runs ParaCook's statistics script (`collect_statistics`) on a results folder, for
makespan's tests: python3 upstream_statistics.py CHECKOUT RESULTS METHOD MODEL.

The script reads `results/`, `data/` and `config/` relative to the working folder, so it runs
in a temporary folder linking to the checkout's `data` and `config` and to RESULTS; the
checkout is read in place. Prints one JSON object: the script's result over all recipes.
"""

import json
import os
import sys
import tempfile


def main():
    checkout, results, method, model = (os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3], sys.argv[4])
    sys.path.insert(0, checkout)
    from src.analysis.collect_statistics import collect_statistics
    from src.analysis.compute_sequencial_time import get_dish_time_and_movements

    with tempfile.TemporaryDirectory() as work:
        os.symlink(os.path.join(checkout, "data"), os.path.join(work, "data"))
        os.symlink(os.path.join(checkout, "config"), os.path.join(work, "config"))
        os.symlink(results, os.path.join(work, "results"))
        os.chdir(work)
        with open("data/cook/orders/all_orders.json", encoding="utf-8") as f:
            orders = json.load(f)
        result = collect_statistics(model, method, orders, get_dish_time_and_movements())
    print(json.dumps(result))


if __name__ == "__main__":
    main()
