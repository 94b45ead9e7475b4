"""The ``sweep`` command and ``co.sweep``: parametric sweeps on Dask, resumable, written as they arrive.

    chrono-origami sweep spec.toml --out results/ [--scheduler local|serial|tcp://HOST:PORT] [--workers N]
                                   [--plot x=fold_angle,y=locked_p99_N[,log=y][,by=design]] [--retry-failed]

The spec (TOML) lists pattern families and their parameters, designs, load
cases and tolerances (``docs/sweeps.md``, ``chrono_origami.inputs.sweep``);
each case gives one row of the table (``chrono_origami.analysis.sweep``). Output
(``chrono_origami.report.sweep``): ``results.parquet`` and ``results.csv``
(``--format json``: ``results.json``; ``parquet``: results.parquet only) in
the spec's case order, ``parts/`` (the rows as they arrived),
``locked_distribution.png`` (the largest locked-in force per case, by
design) and one figure per ``--plot``. Run again, the sweep skips the cases
already in the folder.

Exit codes: 0 the sweep completed, every case has a row (some cases may
have failed: their rows hold the error, a warning line counts them, and
``--retry-failed`` runs them again); 1 some cases did not run (their tasks
were lost: workers died too often; run again to resume them), or every
case of the table failed; 2 bad usage: an unknown spec key, a bad value (a
negative or NaN tolerance, a negative seed), an unreachable scheduler or an
address that is not a Dask scheduler, an output folder in use; 130 (Ctrl-C,
SIGINT) and 143 (SIGTERM): interrupted, the finished rows kept (one line
says how many and how to resume).
"""
import math
import os
import signal
import sys
import time
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field

from ..analysis import sweep as sw
from ..inputs import sweep as sweepspec
from ..report import sweep as rep
from ..tools import cluster
from ..tools.errors import SpecError
from ..tools.progress import Progress
from . import app, inputs

#: seconds between two writes of finished rows (and of the table)
FLUSH_SECONDS = 2.0
#: the table is rebuilt after a batch when at least this many times its last rebuild's duration has passed
TABLE_SHARE = 20
#: the default column of the distribution figure
DISTRIBUTION = "locked_p99_N"


@dataclass
class SweepResult:
    """What :func:`sweep` did: ``rows`` (dicts, the table in case order: every case that has a row),
    ``ran`` (cases run now), ``skipped`` (already in the output), ``failed`` (rows with an error),
    ``lost`` ([(case, exception)]: cases whose task did not return; run the sweep again), ``where`` (the
    executor), ``files`` (written)."""

    spec: object
    rows: list
    ran: int = 0
    skipped: int = 0
    failed: int = 0
    lost: list = field(default_factory=list)
    where: str = ""
    files: list = field(default_factory=list)

    @property
    def complete(self):
        return not self.lost and len(self.rows) == len(self.spec.cases)

    @property
    def table(self):
        """The rows as a ``pyarrow.Table`` (the schema of ``results.parquet``)."""
        import pyarrow as pa

        schema = rep.arrow_schema(sw.COLUMNS)
        return pa.Table.from_pylist([{n: r.get(n) for n in sw.COLUMN_NAMES} for r in self.rows], schema=schema)


class Interrupted(KeyboardInterrupt):
    """A sweep stopped by Ctrl-C or SIGTERM (a ``KeyboardInterrupt``): ``kept`` rows of ``total`` cases are in
    ``out`` (the finished ones, written before it stopped); ``signal``: the signal's number."""

    def __init__(self, kept=0, total=0, out=None, signum=signal.SIGINT):
        super().__init__(f"interrupted: {kept} of {total} cases kept")
        self.kept, self.total, self.out, self.signal = kept, total, out, signum


#: the command line's Ctrl-C and SIGTERM wait while ``active`` > 0 (``signal``: the one that came meanwhile)
_DEFERRED = {"active": 0, "signal": None}


@contextmanager
def _critical():
    """A block that the command line's Ctrl-C and SIGTERM do not cut: a signal that comes inside it stops the
    sweep at its end (Python runs signal handlers in the main thread, whichever thread the system chose)."""
    _DEFERRED["active"] += 1
    try:
        yield
    finally:
        _DEFERRED["active"] -= 1
    if not _DEFERRED["active"] and _DEFERRED["signal"] is not None:
        signum, _DEFERRED["signal"] = _DEFERRED["signal"], None
        _interrupt(signum)


def _interrupt(signum):
    exc = KeyboardInterrupt()
    exc.signal = signum
    raise exc


def parse_plot(text):
    """``x=COL,y=COL[,log=x|y|xy][,by=COL]`` -> dict; unknown columns or keys are a :class:`~chrono_origami.tools.errors.SpecError`."""
    out = {"log": "", "by": "design"}
    for part in text.split(","):
        key, eq, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or key not in ("x", "y", "log", "by"):
            raise SpecError(f"--plot {text!r}: expected x=COLUMN,y=COLUMN[,log=x|y|xy][,by=COLUMN], "
                                      f"got {part!r}")
        out[key] = value
    for k in ("x", "y"):
        if k not in out:
            raise SpecError(f"--plot {text!r}: {k}=COLUMN is missing")
    for k in ("x", "y", "by"):
        if out[k] not in sw.COLUMN_NAMES:
            near = sweepspec.nearest(out[k], sw.COLUMN_NAMES)
            raise SpecError(f"--plot: {k}={out[k]!r} is not a column of the table"
                                      f"{f' (did you mean {near[0]!r}?)' if near else ''}; see docs/sweeps.md")
    if dict(sw.COLUMNS)[out["y"]] == "text":
        raise SpecError(f"--plot: y={out['y']!r} is a text column; y must be a number")
    if out["log"] not in ("", "x", "y", "xy", "yx"):
        raise SpecError(f"--plot: log must be x, y or xy, got {out['log']!r}")
    return out


def _spec(spec):
    if isinstance(spec, sweepspec.Spec):
        return spec
    if isinstance(spec, dict):
        return sweepspec.make_spec(spec)
    return sweepspec.read_spec(os.fspath(spec))


def sweep(spec, out=None, scheduler=None, workers=None, retry_failed=False, plots=(), distribution=DISTRIBUTION,
          progress=None, flush=FLUSH_SECONDS, timeout=cluster.CONNECT_TIMEOUT, echo=None, fmt="csv"):
    """Run the sweep ``spec`` (a TOML file's path, a dict shaped like it, or an ``inputs.sweep.Spec``).

    ``out``: the output folder (module doc; None: nothing written); cases already there are skipped
    (``retry_failed``: cases whose row has an error run again). ``scheduler``: "local" (a local Dask
    cluster of ``workers`` processes, default one per core), "serial" (this process) or a Dask scheduler's
    address ``tcp://HOST:PORT`` (default ``$CHRONO_ORIGAMI_SCHEDULER``, else "local"); ``timeout``: seconds to
    wait for that scheduler. ``plots``: ``"x=COL,y=COL[,log=..][,by=..]"`` figures written to ``out``;
    ``distribution``: the column of ``locked_distribution.png``. ``progress``: a bar on stderr (None: when it
    is a terminal). ``flush``: seconds between writes of finished rows. ``echo``: a function given the
    progress messages (the command line's ``print``). ``fmt``: the format of the table beside results.parquet
    (``report.write``; csv: results.csv). Returns a :class:`SweepResult`. Interrupted (Ctrl-C), it
    writes the rows that finished, then raises :class:`Interrupted` (a ``KeyboardInterrupt``) saying how many
    are kept.

    In a script, call it under ``if __name__ == "__main__":`` when the scheduler is "local": Dask starts
    the local workers as new Python processes, which import the script.
    """
    plots = [parse_plot(p) if isinstance(p, str) else p for p in plots]
    if distribution not in sw.COLUMN_NAMES:
        raise SpecError(f"distribution: {distribution!r} is not a column of the table")
    if not (isinstance(flush, (int, float)) and flush >= 0):
        raise SpecError(f"flush must be a number of seconds >= 0, got {flush!r}")
    spec = _spec(spec)
    say = echo or (lambda *a, **k: None)
    store = rep.Store(out, sw.COLUMNS, fmt) if out is not None else None
    result = SweepResult(spec, [])
    latest = {}
    try:
        with store if store is not None else nullcontext():
            latest.update(store.latest() if store is not None else {})
            if store is not None:
                for text in store.ignored:
                    say(f"warning: unreadable part file ignored (its cases run again): {text}", file=sys.stderr)
            todo = [c for c in spec.cases if c.id not in latest or (retry_failed and latest[c.id].get("error"))]
            result.skipped = len(spec.cases) - len(todo)
            known = {c.id for c in spec.cases}
            others = sum(1 for k in latest if k not in known)
            say(f"{spec.source}: {len(spec.cases)} cases ({spec.mode}); {result.skipped} already in "
                f"{out}, {len(todo)} to run" if out is not None else
                f"{spec.source}: {len(spec.cases)} cases ({spec.mode})")
            if others:
                say(f"note: {out} also holds {others} rows of cases not in this spec (kept in parts/, left out of "
                    f"the table)")
            pending = []
            table = {"at": -math.inf, "cost": 0.0}

            def write(final=False):
                """The pending rows as a part; the table too, unless rebuilding it would take more than about
                5 % of the run (a large sweep rebuilds it less often; always at the end)."""
                if store is None:
                    return
                with _critical():     # a part written and its rows forgotten by ``pending``, or neither
                    store.append(pending)
                    pending.clear()
                now = time.monotonic()
                if final or now - table["at"] >= TABLE_SHARE * table["cost"]:
                    store.write_table(store.table_rows(spec.cases, latest))
                    table["at"], table["cost"] = time.monotonic(), time.monotonic() - now

            if todo:
                with cluster.executor(scheduler, workers, timeout) as ex:
                    result.where = ex.name
                    say(f"running on {ex.name}")
                    if ex.workers == 0:
                        say(f"note: the scheduler at {ex.name} has no workers yet: the cases wait for them",
                            file=sys.stderr)
                    bar = Progress(len(todo), progress, label="sweep", unit="cases")
                    last = time.monotonic()
                    failed = 0
                    try:
                        for case, row, failure in sw.run(todo, ex):
                            if failure is not None:
                                result.lost.append((case, failure))
                                continue
                            result.ran += 1
                            failed += bool(row.get("error"))
                            pending.append(row)     # first: an interrupt between the two counts no unwritten row
                            latest[case.id] = row
                            if time.monotonic() - last >= flush:
                                write()
                                last = time.monotonic()
                            bar.update(result.ran + len(result.lost), f" ({failed} failed)" if failed else "")
                    finally:
                        write(final=True)     # what finished is kept, also on an interrupt
                        bar.close()
            elif store is not None:
                store.write_table(store.table_rows(spec.cases, latest))
    except KeyboardInterrupt as exc:        # the finished rows were written (``write(final=True)``)
        kept = sum(1 for c in spec.cases if c.id in latest)
        raise Interrupted(kept, len(spec.cases), out, getattr(exc, "signal", signal.SIGINT)) from None
    result.rows = [dict(latest[c.id], case=c.number) for c in spec.cases if c.id in latest]
    result.failed = sum(1 for r in result.rows if r.get("error"))
    if out is not None:
        result.files += store.table_paths()
        if result.rows:
            path = os.path.join(out, "locked_distribution.png")
            rep.distribution_plot(result.rows, path, distribution)
            result.files.append(path)
        for p in plots:
            path = os.path.join(out, f"plot_{p['y']}_vs_{p['x']}.png")
            rep.xy_plot(result.rows, p["x"], p["y"], path, by=p["by"], log=p["log"])
            result.files.append(path)
    return result


# ------------------------------------------------------------------ the command
def _options(description):
    ap = app.parser(description)
    ap.add_argument("spec", metavar="SPEC.toml", help="the sweep spec (docs/sweeps.md)")
    inputs.add_out(ap, "results.parquet, the table results in --format (results.csv), parts/, figures (cases "
                       "already there are skipped)", required=True)
    ap.add_argument("--scheduler", default=None, metavar="local|serial|ADDRESS",
                    help="where cases run: a local Dask cluster (default, or $CHRONO_ORIGAMI_SCHEDULER), this "
                         "process, or a Dask scheduler the user runs, e.g. tcp://HOST:8786")
    ap.add_argument("--workers", type=inputs.positive_int, default=None,
                    help=f"local cluster: worker processes, one thread each (default one per core: "
                         f"{cluster.default_workers()} here)")
    ap.add_argument("--connect-timeout", type=inputs.positive_float, default=cluster.CONNECT_TIMEOUT, metavar="S",
                    help=f"seconds to wait for the scheduler (default {cluster.CONNECT_TIMEOUT:g})")
    ap.add_argument("--plot", action="append", default=[], metavar="x=COL,y=COL[,log=xy][,by=COL]",
                    help="a figure of one column against another (any parameter or output; repeatable)")
    ap.add_argument("--distribution", default=DISTRIBUTION, metavar="COLUMN",
                    help=f"column of locked_distribution.png, by design (default {DISTRIBUTION})")
    ap.add_argument("--retry-failed", action="store_true", help="run again the cases whose row has an error")
    ap.add_argument("--flush", type=float, default=FLUSH_SECONDS, metavar="S",
                    help=f"write finished rows at least every S seconds (default {FLUSH_SECONDS:g}; 0: every row)")
    ap.add_argument("--dry-run", action="store_true", help="check the spec, count its cases and stop")
    return ap


@contextmanager
def _stopping_keeps_rows():
    """Ctrl-C (SIGINT) and SIGTERM stop the sweep by an :class:`Interrupted` (the finished rows are written on
    the way out); a second signal while they are written is ignored."""
    def stop(signum, frame):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        if _DEFERRED["active"]:           # inside a part's write: stop at its end
            _DEFERRED["signal"] = signum
            return
        _interrupt(signum)

    saved = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    for s in saved:
        signal.signal(s, stop)
    try:
        yield
    finally:
        _DEFERRED["signal"] = None
        for s, h in saved.items():
            signal.signal(s, h)


@app.command("sweep", "parametric sweep of designs, load cases and tolerances on Dask (spec.toml)", _options)
def sweep_command(args):
    if os.path.isdir(args.spec):
        raise app.UsageError(f"{args.spec} is a directory, not a sweep spec (a TOML file)")
    if not os.path.isfile(args.spec):
        raise app.UsageError(f"{args.spec}: no such sweep spec")
    for p in args.plot:
        parse_plot(p)
    if args.distribution not in sw.COLUMN_NAMES:
        raise SpecError(f"--distribution: {args.distribution!r} is not a column of the table")
    spec = sweepspec.read_spec(args.spec)
    if args.dry_run:
        print(f"{spec.source}: {len(spec.cases)} cases ({spec.mode}); designs: {', '.join(spec.designs)}; "
              f"load cases: {', '.join(spec.load_cases)}")
        return app.EXIT_OK
    try:
        with _stopping_keeps_rows():
            res = sweep(spec, args.out, args.scheduler, args.workers, args.retry_failed, args.plot,
                        args.distribution, None, args.flush, args.connect_timeout, echo=print, fmt=args.format)
    except Interrupted as stop:
        name = signal.Signals(stop.signal).name
        print(f"error: interrupted ({name}): {stop.kept} of {stop.total} cases are kept in {stop.out}; run the "
              f"same command again to resume the other {stop.total - stop.kept}", file=sys.stderr)
        return 128 + int(stop.signal)
    print(f"{len(res.rows)} of {len(spec.cases)} cases in the table ({res.ran} run now, {res.skipped} already "
          f"done); {res.failed} with an error (column 'error')")
    for f in res.files:
        print(f"written: {f}")
    if res.lost:
        case, exc = res.lost[0]
        print(f"error: {len(res.lost)} case(s) did not run (case {case.number}: {sw.one_line(exc)}); run the "
              f"sweep again to resume them", file=sys.stderr)
        return app.EXIT_INPUT
    if res.failed:
        first = next(r for r in res.rows if r.get("error"))
        what = f"case {first['case']}: {first['error']}"
        if res.failed == len(res.rows):
            print(f"error: all {res.failed} cases failed ({what})", file=sys.stderr)
            return app.EXIT_INPUT
        print(f"warning: {res.failed} of {len(res.rows)} cases failed ({what}); --retry-failed runs them again",
              file=sys.stderr)
    return app.EXIT_OK
