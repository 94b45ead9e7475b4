"""Sweeps and Monte Carlo runs on a real Dask cluster on 127.0.0.1, and the faults that must lose nothing.

A module fixture starts ``dask scheduler`` (port 0: the system picks a free one, read back from its
scheduler file; no dashboard) and two ``dask worker`` processes (one thread each, no nanny), all on
127.0.0.1 and in their own process groups, and stops them at the end (SIGTERM, then SIGKILL). Every wait
is bounded. The tests: the table through ``--scheduler`` equals the serial one; the default local cluster
gives it too (its HTTP server on a free port, without Dask's warning, when 8787 is taken); a worker killed
in the middle of a sweep loses no case and duplicates none; a sweep process killed (SIGKILL) in the middle
and started again resumes without recomputing a finished case and without a partial row; Monte Carlo
samples on the cluster equal the serial ones.
"""
import json
import os
import signal
import socket
import subprocess
import sys
import time

import numpy as np
import pytest

import chrono_origami as co
from chrono_origami.analysis import tolerance as tl
from chrono_origami.structure import tolerance as imp
from chrono_origami.tools import cluster
from chrono_origami.report import sweep as rep
from cli_output import run
from sweep_processes import ENV, cli, part_rows, stop, wait_for_parts

distributed = pytest.importorskip("distributed", reason="the sweep's Dask tests need dask.distributed "
                                                       "(pip install 'dask[distributed]')")

#: 18 cases of 12- to 20-panel Miura-ori sheets, door and isostatic, a few tenths of a second each
SPEC = """\
[sweep]
seed = 11

[[pattern]]
family = "miura"
rows = 2
columns = [6, 8, 10]
fold_angle = [30.0, 45.0, 60.0]

[design]
designs = ["door", "isostatic"]
max_ranked = 1

[tolerance]
tol = 1e-4
samples = 3
"""
N_CASES = 18

pytestmark = pytest.mark.timeout(240)


def _popen(args, log):
    return subprocess.Popen(args, env=ENV, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)




class Cluster:
    """A scheduler and workers on 127.0.0.1 (module doc)."""

    def __init__(self, folder):
        self.folder = folder
        self.procs = {}
        self.logs = []
        self.address = None

    def log(self, name):
        f = open(os.path.join(self.folder, f"{name}.log"), "w")
        self.logs.append(f)
        return f

    def start_scheduler(self, timeout=60):
        info = os.path.join(self.folder, "scheduler.json")
        self.procs["scheduler"] = _popen([sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1",
                                          "--port", "0", "--no-dashboard", "--scheduler-file", info],
                                         self.log("scheduler"))
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if os.path.exists(info):
                try:
                    with open(info) as f:
                        self.address = json.load(f)["address"]
                    break
                except (ValueError, KeyError):
                    pass
            assert self.procs["scheduler"].poll() is None, "dask scheduler exited"
            time.sleep(0.1)
        assert self.address and self.address.startswith("tcp://127.0.0.1:"), self.address

    def start_worker(self, name):
        self.procs[name] = _popen([sys.executable, "-m", "dask", "worker", self.address, "--nthreads", "1",
                                   "--no-nanny", "--no-dashboard", "--host", "127.0.0.1", "--name", name,
                                   "--death-timeout", "60"], self.log(name))

    def client(self):
        return distributed.Client(self.address, timeout=20)

    def wait_for_workers(self, n, timeout=90):
        with self.client() as c:
            c.wait_for_workers(n, timeout=timeout)

    def worker_address(self, client, name):
        for addr, w in client.scheduler_info()["workers"].items():
            if w.get("name") == name:
                return addr
        return None

    def stop(self):
        for name in reversed(list(self.procs)):
            stop(self.procs[name])
        for f in self.logs:
            f.close()


@pytest.fixture(scope="module")
def dask_cluster(tmp_path_factory):
    c = Cluster(str(tmp_path_factory.mktemp("dask")))
    try:
        c.start_scheduler()
        c.start_worker("w1")
        c.start_worker("w2")
        c.wait_for_workers(2)
        yield c
    finally:
        c.stop()


@pytest.fixture(scope="module")
def spec_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("spec") / "spec.toml"
    path.write_text(SPEC)
    return str(path)


@pytest.fixture(scope="module")
def serial_table(spec_path, tmp_path_factory):
    out = str(tmp_path_factory.mktemp("serial") / "out")
    res = co.sweep(spec_path, out=out, scheduler="serial")
    assert res.complete and res.failed == 0
    return rep.read_table(out)




def without_time(rows):
    return [{k: v for k, v in r.items() if k not in ("wall_s", "cpu_s")} for r in rows]




# first in the module: it needs no scheduler of the module's (the module's cluster starts after it, not idle during it)
def test_the_default_local_cluster_gives_the_same_table_on_a_free_http_port_without_a_warning(spec_path,
                                                                                             serial_table, tmp_path):
    """The local cluster (one worker; test_sweep_faults.py's Ctrl-C test runs one of two) gives the serial table.
    Port 8787 (Dask's default dashboard) taken: it starts its HTTP server on a free port, without Dask's warning
    block."""
    out = str(tmp_path / "out")
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", 8787))
            s.listen(1)
        except OSError:
            pass                                        # taken already: the same situation
        code, stdout, err = cli("sweep", spec_path, "--out", out, "--workers", "1")
    assert code == 0, err
    assert "running on local cluster of 1 worker" in stdout.splitlines(), stdout      # the line, singular
    assert "Warning" not in err and "8787" not in err and "Perhaps you already have a cluster" not in err
    assert without_time(rep.read_table(out)) == without_time(serial_table)


def test_a_sweep_through_the_scheduler_equals_the_serial_run(dask_cluster, spec_path, serial_table, tmp_path, capsys):
    """In this process (the same ``main``); the sweeps killed below run it in child processes."""
    out = str(tmp_path / "out")
    code, stdout, err = run(capsys, "sweep", spec_path, "--out", out, "--scheduler", dask_cluster.address)
    assert code == 0, err
    assert f"running on {dask_cluster.address}" in stdout
    table = rep.read_table(out)
    assert len(table) == N_CASES and [r["case"] for r in table] == list(range(1, N_CASES + 1))
    assert without_time(table) == without_time(serial_table)          # to the last digit, in case order
    assert {r["design"] for r in table if r["locked_p99_N"] == 0.0} == {"isostatic"}


def test_monte_carlo_samples_on_the_cluster_equal_the_serial_ones(dask_cluster):
    from chrono_origami.patterns import miura

    st = miura.miura_cantilever(columns=3).with_hinge_kinds(["door"] * 7)
    spec = imp.ToleranceSpec(1e-4, distribution="uniform")
    with cluster.executor(dask_cluster.address) as ex:
        assert ex.workers == 2
        on_cluster = tl.monte_carlo(st, spec, 40, engine="reference", seed=3, map=ex.map)
    here = tl.monte_carlo(st, spec, 40, engine="reference", seed=3)
    np.testing.assert_array_equal(on_cluster.sd, here.sd)
    np.testing.assert_array_equal(on_cluster.max_p95, here.max_p95)


def test_a_worker_killed_in_the_middle_loses_no_case_and_duplicates_none(dask_cluster, spec_path, serial_table,
                                                                         tmp_path):
    dask_cluster.start_worker("victim")
    dask_cluster.wait_for_workers(3)
    out = str(tmp_path / "out")
    log = open(tmp_path / "sweep.log", "w")
    sweep = subprocess.Popen([sys.executable, "-m", "chrono_origami", "sweep", spec_path, "--out", out,
                              "--scheduler", dask_cluster.address, "--flush", "0"], env=ENV, stdout=log,
                             stderr=subprocess.STDOUT)
    killed = None
    try:
        with dask_cluster.client() as client:
            end = time.monotonic() + 120
            while killed is None and time.monotonic() < end and sweep.poll() is None:
                victim = dask_cluster.worker_address(client, "victim")
                running = client.processing(workers=[victim]).get(victim, []) if victim else []
                if running:
                    os.killpg(dask_cluster.procs["victim"].pid, signal.SIGKILL)
                    killed = list(running)
                time.sleep(0.02)
        assert killed, "the victim worker never had a case to run"
        assert sweep.wait(180) == 0, open(tmp_path / "sweep.log").read()
    finally:
        stop(sweep)
        log.close()
        stop(dask_cluster.procs["victim"])
    dask_cluster.procs["victim"].wait(10)
    table = rep.read_table(out)
    assert without_time(table) == without_time(serial_table)
    ids = [r["case_id"] for r in part_rows(out)]
    assert sorted(ids) == sorted(r["case_id"] for r in serial_table)     # every case exactly once
    killed_ids = {k.rsplit("-", 1)[-1] for k in killed}
    assert killed_ids <= set(ids)


def test_a_killed_sweep_resumes_without_recomputing_or_a_partial_row(dask_cluster, spec_path, serial_table,
                                                                     tmp_path, capsys):
    """Killed (SIGKILL) in a child process; started again in this process (the same ``main``)."""
    import pyarrow.parquet as pq

    out = str(tmp_path / "out")
    parts = os.path.join(out, "parts")
    sweep = subprocess.Popen([sys.executable, "-m", "chrono_origami", "sweep", spec_path, "--out", out,
                              "--scheduler", dask_cluster.address, "--flush", "0"], env=ENV,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_parts(out, 4, sweep)
        os.kill(sweep.pid, signal.SIGKILL)
        sweep.wait(30)
    finally:
        stop(sweep)
    # what the killed run left: whole part files only (a torn write is a hidden temporary file)
    names = sorted(n for n in os.listdir(parts) if n.startswith("part-"))
    before = {n: open(os.path.join(parts, n), "rb").read() for n in names}
    done = [r for n in names for r in pq.read_table(os.path.join(parts, n)).to_pylist()]
    assert 4 <= len(done) < N_CASES and len({r["case_id"] for r in done}) == len(done)
    reference = {r["case_id"]: r for r in without_time(serial_table)}
    for r in without_time(done):
        r = dict(r, case=reference[r["case_id"]]["case"])
        assert r == reference[r["case_id"]]
    # started again: the finished cases are skipped, the others run, the table is whole
    code, stdout, err = run(capsys, "sweep", spec_path, "--out", out, "--scheduler", dask_cluster.address)
    assert code == 0, err
    assert f"{len(done)} already in {out}, {N_CASES - len(done)} to run" in stdout
    assert f"({N_CASES - len(done)} run now, {len(done)} already done)" in stdout
    after = {n: open(os.path.join(parts, n), "rb").read() for n in sorted(os.listdir(parts))
             if n.startswith("part-")}
    assert {n: after[n] for n in before} == before                       # the finished rows were not rewritten
    ids = [r["case_id"] for r in part_rows(out)]
    assert len(ids) == len(set(ids)) == N_CASES                          # nothing recomputed, nothing lost
    assert without_time(rep.read_table(out)) == without_time(serial_table)
