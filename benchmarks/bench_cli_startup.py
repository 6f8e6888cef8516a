"""How long does the command line take to answer ``--help`` or a bad argument, against a bare
``python -c pass`` on the same machine in the same run?

Each command runs ``--repeats`` times in a fresh interpreter, interleaved with the reference;
each time is the median wall time. Printed: the median, the difference and the ratio to
``python -c pass``, and the load average beside them. Target: every difference under 0.5 s
(the command line parses its arguments before it loads numpy, scipy or scikit-learn).

Run from the repository root (the package is imported from there unless installed):

    python benchmarks/bench_cli_startup.py [--repeats 9]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

COMMANDS = {
    "python -c pass": ["-c", "pass"],
    "python -m chimeraboost --help": ["-m", "chimeraboost", "--help"],
    "python -m chimeraboost report --help": ["-m", "chimeraboost", "report", "--help"],
    "python -m chimeraboost table --help": ["-m", "chimeraboost", "table", "--help"],
    "python -m chimeraboost shadow --help": ["-m", "chimeraboost", "shadow", "--help"],
    "python -m chimeraboost plan --help": ["-m", "chimeraboost", "plan", "--help"],
    "python -m chimeraboost readout --help": ["-m", "chimeraboost", "readout", "--help"],
    "python -m chimeraboost report (no FILE: an error)": ["-m", "chimeraboost", "report"],
    "console script: chimeraboost --help": ["-c", "import sys; sys.argv[0] = 'chimeraboost'; "
                                            "from chimeraboost.cli import main; "
                                            "sys.exit(main(['--help']))"],
    "python -c 'import chimeraboost'": ["-c", "import chimeraboost"],
}


def _time(args) -> float:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=9)
    repeats = parser.parse_args().repeats
    times = {name: [] for name in COMMANDS}
    for _ in range(repeats):
        for name, args in COMMANDS.items():  # interleaved: the load hits all alike
            times[name].append(_time(args))
    base = statistics.median(times["python -c pass"])
    print(f"median of {repeats} runs; load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores")
    print(f"{'command':<52}{'median s':>9}{'- pass s':>10}{'ratio':>7}")
    worst = 0.0
    for name, values in times.items():
        median = statistics.median(values)
        worst = max(worst, median - base)
        print(f"{name:<52}{median:>9.3f}{median - base:>10.3f}{median / base:>7.1f}")
    print(f"target: within 0.5 s of python -c pass: {'met' if worst < 0.5 else 'NOT met'} "
          f"(worst {worst:.3f} s)")


if __name__ == "__main__":
    main()
