"""Not a test of the suite: every Origami Simulator example of ``tests/data/origami_simulator`` folded at 60 % and
90 % with the outcome ``tests/test_fold_mechanism.OUTCOMES`` lists: the assertions of that module run on every file
(``CHRONO_ORIGAMI_ALL_EXAMPLES=1``; the suite runs one file of each outcome). About 5 minutes of processor time;
the exit code is pytest's.

    python3 benchmarks/fold_outcomes.py [pytest options, e.g. -n 2]
"""
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    env = dict(os.environ, CHRONO_ORIGAMI_ALL_EXAMPLES="1")
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *sys.argv[1:],
                        os.path.join("tests", "test_fold_mechanism.py")], cwd=os.path.join(HERE, ".."), env=env)
    print(f"every example's outcome: exit {r.returncode} in {time.perf_counter() - t0:.0f} s")
    return r.returncode


if __name__ == "__main__":
    sys.exit(main())
