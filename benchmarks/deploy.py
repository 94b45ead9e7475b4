"""Benchmark (not a test): ``fold --forces`` (actuator torques and hinge forces at every frame, ``analysis.deploy``)
on an all-door Miura-ori sheet of about 1,000 panels, 20 frames, reference engine.

The sheet (``patterns.miura.miura_patch``, 25 x 40 = 1,000 panels, 1,935 door hinges) is written folded at about
10 % of its targets (the closed form's fold parameter 8 deg; targets at 100 deg), with thickness 0.01 and density
500 in the file. Each case is the command a user runs, in its own process (its own peak memory):

    python -m chrono_origami fold sheet.fold --percent 90 --frames 20 [--support auto --self-weight --forces --elastic
        --forces-engine reference] --out DIR --engine reference

once without the forces (the fold alone) and once with them; the forces' cost is the difference (wall, CPU, peak
memory). The load average is printed before and after (wall times on a shared machine follow it). All door hinges:
S > 0 under the proposed support, so every frame is solved with elastic hinges (--elastic: one sparse count and
one factorisation a frame). Printed per case: wall and CPU seconds, peak resident memory (MB), the work check.

    python3 benchmarks/deploy.py                       # 25 x 40
    python3 benchmarks/deploy.py --rows 10 --cols 20   # smaller
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from common import program_threads

program_threads()

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

WRAP = """
import json, resource, subprocess, sys
r = subprocess.run(sys.argv[1:], capture_output=True, text=True)
u = resource.getrusage(resource.RUSAGE_CHILDREN)
sys.stdout.write(r.stdout)
print(json.dumps({"returncode": r.returncode, "cpu_s": round(u.ru_utime + u.ru_stime, 2),
                  "peak_MB": round(u.ru_maxrss / 1024, 1), "stderr": r.stderr[-400:]}), file=sys.stderr)
"""


def sheet(path, rows, cols, start=8.0, end=100.0):
    """Write the sheet (module doc); returns its panel count."""
    from chrono_origami.patterns import miura
    from chrono_origami.structure import foldfile

    st = miura.miura_patch(rows, cols, fold_angle_deg=start)
    foldfile.write_fold(st, path)
    with open(path) as f:
        d = json.load(f)
    pat = st.pattern
    angles = foldfile.fold_angles(pat, miura.miura_vertices(rows, cols, fold_angle_deg=end))
    letters = foldfile.assignments(pat, angles)
    d.update({"edges_assignment": letters,
              "edges_foldAngle": [None if a == "B" else x for a, x in zip(letters, angles)],
              "faces_origami:thickness": [0.01] * pat.n_panels, "origami:density": 500.0})
    with open(path, "w") as f:
        json.dump(d, f)
    return pat.n_panels


def case(path, out, forces, frames):
    cmd = [sys.executable, "-m", "chrono_origami", "fold", path, "--percent", "90", "--frames", str(frames),
           "--quiet", "--out", out, "--engine", "reference"]
    if forces:
        cmd += ["--support", "auto", "--self-weight", "--forces", "--elastic", "--forces-engine", "reference"]
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-c", WRAP] + cmd, capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")})
    wall = time.perf_counter() - t0
    info = json.loads(r.stderr.strip().splitlines()[-1])
    work = [x for x in r.stdout.splitlines() if x.startswith("work check")]
    return wall, info, work[0] if work else info["stderr"].strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=25)
    ap.add_argument("--cols", type=int, default=40)
    ap.add_argument("--frames", type=int, default=20)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "sheet.fold")
        P = sheet(path, a.rows, a.cols)
        print(f"Miura sheet {a.rows} x {a.cols}: {P} panels, {a.frames} frames, reference engine")
        print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
        base = None
        for forces in (False, True):
            wall, info, work = case(path, os.path.join(tmp, f"out{int(forces)}"), forces, a.frames)
            what = "fold --forces --elastic" if forces else "fold alone"
            extra = (f"; the forces alone: wall {wall - base[0]:.1f} s, CPU {info['cpu_s'] - base[1]:.1f} s, "
                     f"{info['peak_MB'] - base[2]:+.0f} MB of peak" if forces and base is not None else "")
            print(f"{what}: exit {info['returncode']}, wall {wall:.1f} s, CPU {info['cpu_s']:.1f} s, peak "
                  f"{info['peak_MB']:.0f} MB{extra}")
            if forces:
                print(f"  {work}")
            base = (wall, info["cpu_s"], info["peak_MB"])
        print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} (the target: the forces under 60 s)")


if __name__ == "__main__":
    main()
