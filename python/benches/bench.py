"""Speed of the Python binding, as a table: µs per verify call of a ParaCook answer (the Rust
side: `cargo bench --bench verify_answer`), and solve_many over every ParaCook instance
(compare: `makespan solve ../shared/benchmarks/paracook/abstract --agents 1,2,3`).

    python python/benches/bench.py [DATA]      (DATA: default ../shared/benchmarks)
"""

import sys
import time
import timeit
from pathlib import Path

import makespan

data = Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/benchmarks") / "paracook" / "abstract"

inst = makespan.load(data / "burger" / "seed_42" / "orders_num_4.json", agents=2)[0]
sol = makespan.solve(inst)
text = f"Here is the plan.\n\n```json\n{sol.native_answer()}\n```\n"
assert makespan.verify(text, inst).valid
calls, runs = 2000, 5
best = min(timeit.repeat(lambda: makespan.verify(text, inst), number=calls, repeat=runs)) / calls
with_ratio = min(timeit.repeat(lambda: makespan.verify(text, inst, solution=sol), number=calls, repeat=runs)) / calls
print(f"verify (LLM text, instance):           {best * 1e6:8.1f} µs per call")
print(f"verify (LLM text, instance, solution): {with_ratio * 1e6:8.1f} µs per call")

instances = [i for path in sorted(data.rglob("*.json")) for i in makespan.load(path, agents=[1, 2, 3])]
for jobs in (1, 2):
    start = time.perf_counter()
    sols = makespan.solve_many(instances, jobs=jobs)
    wall = time.perf_counter() - start
    optimal = sum(s.status == "optimal" for s in sols)
    print(f"solve_many: {len(instances)} instances, jobs={jobs}: {wall:6.2f} s wall, {optimal} optimal")
