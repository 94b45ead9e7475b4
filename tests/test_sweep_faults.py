"""Faults injected into sweeps and tolerance runs with real processes on 127.0.0.1, every wait bounded.

Each fault ends the command in one line (``error: ...`` on stderr, no traceback) with its exit code, loses no
case that finished and, run again, repeats none:

* a silent listener (accepts the connection, never answers) and an HTTP server in place of the Dask scheduler,
  one that answers at once with ``HTTP/1.1 400`` too: "not a Dask scheduler", exit 2, within the connect
  timeout, for ``sweep`` and ``tolerance --samples``; no output folder left behind;
* the Dask scheduler killed in the middle of a sweep: the rows that arrived are kept, the cases that did not
  return are counted (exit 1), and the next run (serial) runs only those; killed during ``tolerance
  --samples``: one line naming it, exit 2;
* SIGINT (Ctrl-C) and SIGTERM to the sweep's process, and Ctrl-C to the whole process group of a sweep on a
  local cluster (as a terminal sends it): one line saying how many cases are kept and how to resume, exit
  128 + the signal's number; Ctrl-C in ``tolerance --samples``: ``error: interrupted``, exit 130;
* a part file that cannot be written (disk full, simulated by a read-only ``parts/`` folder and, since root
  writes there all the same, a file-size limit of 0 bytes on the process): one line naming the file, exit 2.

Hypothesis: random TOML values and types in a sweep spec, random option values of ``tolerance``: never a
traceback, an exit code of 0, 1 or 2, and an error in one line. Structures are small (a 4-panel cantilever,
12- to 16-panel sheets): each test takes 3 to 20 s on two busy cores, the module about three minutes.
"""
import contextlib
import io
import json
import os
import resource
import signal
import subprocess
import sys
import time

import pytest

from chrono_origami.cli import app, main
from chrono_origami.report import sweep as rep
from cli_output import run
from one_parser import one_parser
from sweep_processes import ENV, cli, part_rows, stop, wait_for_parts

distributed = pytest.importorskip("distributed", reason="the sweep's fault tests need dask.distributed "
                                                       "(pip install 'dask[distributed]')")

#: 12 cases of 12- to 16-panel all-door Miura-ori sheets, a few tenths of a second each
SPEC = """\
[sweep]
seed = 5

[[pattern]]
family = "miura"
rows = 2
columns = [6, 7, 8]
fold_angle = [30.0, 40.0, 50.0, 60.0]

[design]
designs = ["door"]

[tolerance]
tol = 1e-4
"""
N_CASES = 12

pytestmark = pytest.mark.timeout(240)

#: the start of every fake server below: a TCP socket on 127.0.0.1, a free port, printed first; the server's own
#: loop follows
LISTENER = """
import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(16)
print(s.getsockname()[1], flush=True)"""
#: a listener on 127.0.0.1 that accepts connections and never answers (it prints its port first)
SILENT = LISTENER + """
held = []
while True:
    c, _ = s.accept()
    held.append(c)
"""
#: an HTTP server on 127.0.0.1 (Python's own; it waits for a request, as web servers do)
HTTP = """
import http.server
s = http.server.HTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
print(s.server_address[1], flush=True)
s.serve_forever()
"""
#: a server that answers every connection at once with an HTTP 400 and closes it
HTTP_400 = LISTENER + """
while True:
    c, _ = s.accept()
    c.sendall(b"HTTP/1.1 400 Bad Request\\r\\nContent-Length: 0\\r\\nConnection: close\\r\\n\\r\\n")
    c.close()
"""
#: a listener that closes every connection as soon as it accepts it
CLOSING = LISTENER + """
while True:
    c, _ = s.accept()
    c.close()
"""
#: a listener that sends a zero message length (8 zero bytes), then holds the connection silent
ZERO_LENGTH = LISTENER + """
held = []
while True:
    c, _ = s.accept()
    c.sendall(bytes(8))
    held.append(c)
"""




@pytest.fixture
def server(request):
    """Start the server script ``request.param`` on 127.0.0.1; yields its address tcp://127.0.0.1:PORT."""
    proc = subprocess.Popen([sys.executable, "-c", request.param], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, start_new_session=True)
    try:
        port = int(proc.stdout.readline())
        yield f"tcp://127.0.0.1:{port}"
    finally:
        stop(proc)




def said(err):
    """The lines of stderr but notes (the command line says where PyChrono does not import, in a note)."""
    return [x for x in err.strip().splitlines() if not x.startswith("note: ")]


def last_line(err):
    """The command's error line: the last of stderr (a note on PyChrono may come before it)."""
    lines = err.strip().splitlines()
    assert lines, "nothing on stderr"
    assert "Traceback" not in err, err
    return lines[-1]




def part_files(out):
    parts = os.path.join(out, "parts")
    if not os.path.isdir(parts):
        return {}
    return {n: open(os.path.join(parts, n), "rb").read() for n in sorted(os.listdir(parts)) if n.startswith("part-")}


@pytest.fixture
def spec_path(tmp_path):
    path = tmp_path / "spec.toml"
    path.write_text(SPEC)
    return str(path)


@pytest.fixture
def fold_path(tmp_path):
    import chrono_origami as co
    from chrono_origami.patterns import miura

    path = str(tmp_path / "c.fold")
    co.write_fold(miura.miura_cantilever(columns=2).with_hinge_kinds(["door"] * 4), path)
    return path


def resumed(spec_path, out, kept):
    """Run the sweep again (serial): it runs only the cases not kept, the parts written before are untouched,
    and every case is in the parts exactly once."""
    before = part_files(out)
    rows = part_rows(out)
    assert len(rows) == kept and len({r["case_id"] for r in rows}) == kept
    stdout, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(err):       # in this process: no start-up
        code = main(["sweep", spec_path, "--out", out, "--scheduler", "serial"])
    assert code == 0, err.getvalue()
    assert f"{kept} already in {out}, {N_CASES - kept} to run" in stdout.getvalue()
    after = part_files(out)
    assert {n: after[n] for n in before} == before
    ids = [r["case_id"] for r in part_rows(out)]
    assert len(ids) == len(set(ids)) == N_CASES
    table = rep.read_table(out)
    assert [r["case"] for r in table] == list(range(1, N_CASES + 1)) and not any(r["error"] for r in table)


# ------------------------------------------------------------------ a scheduler that is not Dask's
#: the connect timeout given to the servers that never answer (the commands wait that long): short, since the
#: handshake's check is one socket read; those that answer at once get 2 s, so that a loaded machine cannot turn their
#: answer into a timeout
WAIT = 1


@pytest.mark.parametrize("server, what, wait", [(SILENT, f"sent nothing within {WAIT} s", WAIT),
                                                (HTTP, f"sent nothing within {WAIT} s", WAIT),
                                                (HTTP_400, "are not a Dask message", 2)],
                         indirect=["server"], ids=["silent", "http", "http-400"])
def test_a_server_that_is_not_a_dask_scheduler_is_one_line_within_the_timeout(server, what, wait, spec_path,
                                                                             fold_path, tmp_path, capsys):
    """Both commands run in this process (the server is the other process): the wait is the timeout, not more."""
    out = tmp_path / "out"
    for argv in (["sweep", spec_path, "--out", out], ["tolerance", fold_path, "--tol", "1e-4", "--samples", "4",
                                                      "--engine", "reference"]):
        t0 = time.monotonic()
        code, _, err = run(capsys, *argv, "--scheduler", server, "--connect-timeout", wait)
        took = time.monotonic() - t0
        assert code == app.EXIT_USAGE, err
        assert said(err) == [last_line(err)], err
        assert last_line(err).startswith(f"error: {server} is not a Dask scheduler: ") and what in last_line(err)
        assert took < wait + 10                         # the timeout, and the loaded machine's margin
        assert not out.exists()                         # no .lock, no empty parts/


@pytest.mark.parametrize("server, what", [(CLOSING, "it accepted the connection, then connection closed"),
                                          (ZERO_LENGTH, "its first bytes b'\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00' are not "
                                                        "a Dask message")],
                         indirect=["server"], ids=["closing", "zero-length"])
def test_a_listener_that_closes_or_sends_an_empty_message_is_not_a_dask_scheduler(server, what, spec_path,
                                                                                 tmp_path, capsys):
    """A listener that closes the connection at once is named so at once (not after the timeout as a silent
    one); 8 zero bytes, a message of length 0, are no Dask handshake (Dask's first message is never empty)."""
    t0 = time.monotonic()
    code, _, err = run(capsys, "sweep", spec_path, "--out", tmp_path / "out", "--scheduler", server,
                       "--connect-timeout", "30")
    assert code == app.EXIT_USAGE, err
    assert last_line(err) == f"error: {server} is not a Dask scheduler: {what}"
    assert time.monotonic() - t0 < 20                   # at once: well within the 30 s timeout
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("server", [SILENT], indirect=True, ids=["silent"])
def test_an_address_without_its_scheme_is_checked_as_tcp(server, spec_path, tmp_path, capsys):
    """``--scheduler 127.0.0.1:PORT`` is a TCP address as Dask reads it: a silent listener there is named within
    the timeout too."""
    address = server.removeprefix("tcp://")
    code, _, err = run(capsys, "sweep", spec_path, "--out", tmp_path / "out", "--scheduler", address,
                       "--connect-timeout", WAIT)
    assert code == app.EXIT_USAGE, err
    assert last_line(err) == f"error: {address} is not a Dask scheduler: it accepted the connection but sent " \
                             f"nothing within {WAIT} s"


# ------------------------------------------------------------------ signals to the sweep's process
@pytest.mark.parametrize("signum, where", [(signal.SIGINT, "serial"), (signal.SIGTERM, "serial"),
                                           (signal.SIGINT, "local")],
                         ids=["SIGINT", "SIGTERM", "Ctrl-C-local-cluster"])
def test_a_signal_to_the_sweep_keeps_the_finished_rows_in_one_line(signum, where, spec_path, tmp_path):
    """To the sweep's process (serial), or Ctrl-C as a terminal sends it, to the whole process group with a local
    cluster's worker processes in it (which leave it to the sweep: no traceback of theirs); the local cluster says
    it has 2 workers (test_sweep_dask.py runs one of 1)."""
    out = str(tmp_path / "out")
    log, said_out = open(tmp_path / "err.txt", "w"), open(tmp_path / "out.txt", "w")
    how = ["--scheduler", "serial"] if where == "serial" else ["--workers", "2"]
    proc = subprocess.Popen([sys.executable, "-m", "chrono_origami", "sweep", spec_path, "--out", out, *how,
                             "--flush", "0"], env=ENV, stdout=said_out, stderr=log,
                            start_new_session=True)
    try:
        wait_for_parts(out, 3, proc)
        if where == "serial":
            os.kill(proc.pid, signum)
        else:
            os.killpg(proc.pid, signum)
        code = proc.wait(60)
    finally:
        stop(proc)
        log.close()
        said_out.close()
    err = (tmp_path / "err.txt").read_text()
    kept = len(part_rows(out))
    assert code == 128 + signum, err
    if where == "local":
        assert "running on local cluster of 2 workers" in (tmp_path / "out.txt").read_text().splitlines()
    assert last_line(err) == (f"error: interrupted ({signal.Signals(signum).name}): {kept} of {N_CASES} cases are "
                              f"kept in {out}; run the same command again to resume the other {N_CASES - kept}")
    assert 3 <= kept < N_CASES
    assert len(said(err)) == 1, err
    assert len(rep.read_table(out)) == kept             # the table holds them too
    resumed(spec_path, out, kept)


# ------------------------------------------------------------------ the scheduler killed in the middle
@pytest.fixture
def scheduler(tmp_path):
    """A ``dask scheduler`` (port 0, no dashboard) and one ``dask worker`` on 127.0.0.1, in their own process
    groups: yields (address, [processes]) -- the scheduler first; a test may add its own processes, all stopped
    at the end."""
    folder = str(tmp_path)
    info = os.path.join(folder, "scheduler.json")
    logs = [open(os.path.join(folder, f"{n}.log"), "w") for n in ("scheduler", "worker")]
    procs = [subprocess.Popen([sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1", "--port", "0",
                               "--no-dashboard", "--scheduler-file", info], env=ENV, stdout=logs[0],
                              stderr=subprocess.STDOUT, start_new_session=True)]
    try:
        end = time.monotonic() + 60
        address = None
        while address is None and time.monotonic() < end:
            try:
                with open(info) as f:
                    address = json.load(f)["address"]
            except (OSError, ValueError, KeyError):
                time.sleep(0.1)
        assert address and address.startswith("tcp://127.0.0.1:")
        procs.append(subprocess.Popen([sys.executable, "-m", "dask", "worker", address, "--nthreads", "1",
                                       "--no-nanny", "--no-dashboard", "--host", "127.0.0.1", "--death-timeout",
                                       "30"], env=ENV, stdout=logs[1], stderr=subprocess.STDOUT,
                                      start_new_session=True))
        yield address, procs
    finally:
        for p in reversed(procs):
            stop(p, wait=0.5)       # a worker whose scheduler is gone takes 10 s to close on SIGTERM: killed sooner
        for f in logs:
            f.close()


def test_the_scheduler_killed_in_the_middle_keeps_what_arrived(scheduler, spec_path, tmp_path):
    address, procs = scheduler
    out = str(tmp_path / "out")
    sweep = subprocess.Popen([sys.executable, "-m", "chrono_origami", "sweep", spec_path, "--out", out,
                              "--scheduler", address, "--flush", "0", "--connect-timeout", "20"], env=ENV,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    procs.append(sweep)
    wait_for_parts(out, 3, sweep)
    os.killpg(procs[0].pid, signal.SIGKILL)
    stdout, err = sweep.communicate(timeout=120)
    code = sweep.returncode
    kept = len(part_rows(out))
    line = last_line(err)
    assert code == app.EXIT_INPUT, err
    assert line.startswith(f"error: {N_CASES - kept} case(s) did not run (case ") and line.endswith(
        "run the sweep again to resume them"), line
    assert 3 <= kept < N_CASES
    resumed(spec_path, out, kept)


def test_the_scheduler_killed_during_a_monte_carlo_run_is_one_line(scheduler, fold_path, tmp_path):
    """``tolerance --samples`` on the scheduler, killed while the samples run: one line naming the scheduler,
    exit 2, no traceback (Dask's own log of the lost connection is not shown)."""
    address, procs = scheduler
    run = subprocess.Popen([sys.executable, "-m", "chrono_origami", "tolerance", fold_path, "--tol", "1e-4",
                            "--samples", "20000", "--engine", "reference", "--scheduler", address], env=ENV,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    procs.append(run)
    assert "closed form" in run.stdout.readline()     # the samples are sent after it
    time.sleep(2.0)
    assert run.poll() is None, "the samples ended before the scheduler could be killed"
    os.killpg(procs[0].pid, signal.SIGKILL)
    _, err = run.communicate(timeout=120)
    assert run.returncode == app.EXIT_USAGE, err
    assert last_line(err).startswith(f"error: the Dask scheduler at {address} went away before the run ended")
    assert len(said(err)) == 1


# ------------------------------------------------------------------ a part file that cannot be written
def _no_writes():
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, resource.RLIM_INFINITY))   # Python ignores SIGXFSZ: EFBIG


def test_a_part_file_that_cannot_be_written_is_one_line_and_loses_nothing(spec_path, tmp_path, capsys):
    """The first 4 cases run and are kept; then the spec grows to 12 and ``parts/`` cannot be written (read-only,
    and no file may grow): the run stops at its first part file in one line naming it, exit 2, and keeps the 4;
    writable again, the next run runs the other 8."""
    out = str(tmp_path / "out")
    first = tmp_path / "first.toml"
    first.write_text(SPEC.replace("columns = [6, 7, 8]", "columns = 6"))
    code, _, err = run(capsys, "sweep", first, "--out", out, "--scheduler", "serial")     # in this process
    assert code == 0, err
    before = part_files(out)
    parts = os.path.join(out, "parts")
    os.chmod(parts, 0o555)
    try:
        code, _, err = cli("sweep", spec_path, "--out", out, "--scheduler", "serial", "--flush", "0",
                           preexec_fn=_no_writes)
    finally:
        os.chmod(parts, 0o755)
    line = last_line(err)
    assert code == app.EXIT_USAGE, err
    assert line.startswith("error: cannot write ") and os.path.join("out", "parts") in line, line
    assert len(said(err)) == 1
    assert part_files(out) == before                    # nothing lost, nothing torn
    resumed(spec_path, out, 4)


# ------------------------------------------------------------------ Hypothesis: never a traceback
hypothesis = pytest.importorskip("hypothesis", reason="hypothesis is not installed (pip install -e '.[test]')")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

KEYS = {"sweep": ["mode", "samples", "seed", "engine"],
        "pattern": ["family", "rows", "columns", "fold_angle", "sector_angle", "a", "supports", "thickness"],
        "design": ["designs", "max_ranked", "orders", "improve"],
        "tolerance": ["tol", "offset", "distribution", "method", "probes", "samples"],
        "stiffness": ["translational", "rotational"]}
SCALARS = st.one_of(st.integers(-3, 4), st.floats(allow_nan=True, allow_infinity=True, width=32),
                    st.sampled_from(["miura", "grid", "random", "door", "isostatic", "normal", "exact", "x", ""]),
                    st.booleans())
VALUES = st.one_of(SCALARS, st.lists(SCALARS, max_size=3),
                   st.fixed_dictionaries({"min": SCALARS, "max": SCALARS}, optional={"steps": SCALARS}))


def toml_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return {"nan": "nan", "inf": "inf", "-inf": "-inf"}.get(repr(v), repr(v))
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = {toml_value(x)}" for k, x in v.items()) + "}"
    return str(v)


@st.composite
def specs(draw):
    lines = []
    for table, keys in KEYS.items():
        chosen = draw(st.lists(st.sampled_from(keys), unique=True, max_size=3))
        if table == "pattern" and draw(st.booleans()):
            chosen = ["family"] + [k for k in chosen if k != "family"]
        if not chosen and table != "pattern":
            continue
        lines.append(f"[{table}]")
        for k in chosen:
            v = "miura" if (table, k) == ("pattern", "family") and draw(st.booleans()) else draw(VALUES)
            lines.append(f"{k} = {toml_value(v)}")
    return "\n".join(lines) + "\n"


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=specs())
def test_random_sweep_specs_never_give_a_traceback(text, tmp_path_factory, capsys):
    """Random keys, values and types in the spec, checked with --dry-run (nothing runs): exit 0 or 2, an error in
    one line naming what is wrong."""
    folder = tmp_path_factory.mktemp("spec")
    path = folder / "spec.toml"
    path.write_text(text)
    with one_parser():                      # the parser built once: the spec is what varies
        code = main(["sweep", str(path), "--out", str(folder / "out"), "--dry-run"])
    err = capsys.readouterr().err
    assert code in (0, 2), (text, err)
    if code:
        assert len(said(err)) == 1 and said(err)[0].startswith("error: "), (text, err)
    else:
        assert "error" not in err


OPTION_VALUES = st.sampled_from(["0", "1", "2", "-1", "1e300", "-1e-4", "nan", "inf", "x", "1e-4", "3", "1.5", ""])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(options=st.lists(st.tuples(st.sampled_from(["--tol", "--offset", "--vertex", "--seed", "--samples",
                                                   "--probes", "--stiffness", "--top"]), OPTION_VALUES),
                        min_size=1, max_size=3, unique_by=lambda t: t[0]))
def test_random_tolerance_options_never_give_a_traceback(options, fold_path, capsys):
    """Random values of the tolerance command's options on a 4-panel cantilever (reference engine, serial): exit
    0, 1 or 2, never a traceback; an error is one line."""
    argv = ["tolerance", fold_path, "--engine", "reference", "--scheduler", "serial", "--method", "randomized"]
    for k, v in options:
        argv += [k, v]
    if not any(k == "--tol" for k, _ in options):
        argv += ["--tol", "1e-4"]
    try:
        with one_parser():                  # one parser per process; argparse's namespace is new each time
            code = main(argv)
    except SystemExit as e:                 # argparse: a bad option value
        code = e.code
    err = capsys.readouterr().err
    assert code in (0, 1, 2), (argv, err)
    if code:
        assert "Traceback" not in err and last_line(err).startswith("error: "), (argv, err)
        assert len([x for x in err.splitlines() if x.startswith("error")]) == 1


def _ctrl_c_as_in_a_terminal():
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_in_a_monte_carlo_run_is_one_line(fold_path, tmp_path):
    """SIGINT to ``tolerance --samples`` while its samples run: ``error: interrupted``, exit 130, no traceback.

    The command starts with SIGINT's default action, as from a terminal: a test run started in the background
    (``pytest ... &``) ignores SIGINT, and a child inherits that (Python then installs no handler of its own)."""
    log = open(tmp_path / "err.txt", "w")
    proc = subprocess.Popen([sys.executable, "-m", "chrono_origami", "tolerance", fold_path, "--tol", "1e-4",
                             "--samples", "100000", "--engine", "reference", "--scheduler", "serial"], env=ENV,
                            stdout=subprocess.PIPE, stderr=log, text=True, start_new_session=True,
                            preexec_fn=_ctrl_c_as_in_a_terminal)
    try:
        first = proc.stdout.readline()              # the closed form's line: the samples run after it
        assert "M = 0, S = 3" in first, first
        time.sleep(0.5)
        os.kill(proc.pid, signal.SIGINT)
        code = proc.wait(60)
    finally:
        stop(proc)
        log.close()
    err = (tmp_path / "err.txt").read_text()
    assert code == app.EXIT_INTERRUPTED and last_line(err) == "error: interrupted"
