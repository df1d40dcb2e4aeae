"""One whole process, measured: wall time, CPU time (user + system, its children included) and peak memory.

Used by ``benchmarks.campaign`` and ``benchmarks.fixed_cost``. Peak memory is given two ways:

* ``rss_mb``: the largest peak resident set of any one process of the tree (``ru_maxrss`` from ``wait4``,
  which covers the process and the children it waited for, such as ``ingest outputs``' worker pool);
* ``tree_mb``: the largest sum of the proportional set sizes (PSS: a page shared by k processes counts
  1/k in each) of the process and all its descendants, sampled every ``interval`` seconds from
  ``/proc/PID/smaps_rollup`` (Linux only; else None): what the tree holds in RAM, forked workers' shared
  pages counted once. A process whose PSS cannot be read counts with its whole resident set. Sampling
  can miss a peak shorter than ``interval``.

Linux counts the pages of the process that spawned the command in the command's ``ru_maxrss`` (the child
runs in the parent's memory until it execs), so a benchmark keeps its own process small: no duckdb,
numpy or evalhouse imported there. ``python -c pass`` measured beside the contenders shows that floor.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def _children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(b")") + 2 :].split()[1])
        kids.setdefault(ppid, []).append(int(entry.name))
    return kids


def _memory(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
            for line in f:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except OSError:
        return 0


def tree_memory(pid: int) -> int:
    """Bytes held in RAM by ``pid`` and all its descendants now (PSS; 0 when it is gone)."""
    kids = _children()
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        todo += kids.get(p, [])
        total += _memory(p)
    return total


def safe_path(env: dict | None = None) -> dict:
    """``env`` (default: this process's environment) with ``PYTHONSAFEPATH=1``: a ``python -c`` or ``python -m``
    child then does not put the working directory first on its ``sys.path``. The benchmarks run from the
    repository root, where ``evalhouse/`` is a directory: without this, the python of another virtualenv
    (``--before``) imported that checkout's ``evalhouse`` package and its own ``loaders`` and ``analysis``
    (found by its editable install), a mixture of the two versions, until 2026-11-27."""
    return {**(os.environ if env is None else env), "PYTHONSAFEPATH": "1"}


def run(cmd: list[str], interval: float = 0.05, env: dict | None = None) -> dict:
    """Run ``cmd`` to its end (in :func:`safe_path`'s environment); returns wall, cpu (s), rss_mb, tree_mb and
    its stdout. A failure raises SystemExit with its stderr."""
    sample = os.path.isdir("/proc")
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=safe_path(env))
        peak = [0]
        done = threading.Event()

        def watch():
            while not done.wait(interval):
                peak[0] = max(peak[0], tree_memory(proc.pid))

        watcher = threading.Thread(target=watch, daemon=True) if sample else None
        if watcher:
            watcher.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        done.set()
        if watcher:
            watcher.join()
        out.seek(0)
        err.seek(0)
        text, errors = out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace")
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(map(str, cmd))} failed:\n{errors or text}")
    rss = usage.ru_maxrss / 1024
    return {
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "rss_mb": rss,
        "tree_mb": peak[0] / 2**20 if sample else None,
        "out": text,
    }


def machine() -> str:
    """One line: architecture, cores, memory, Python, duckdb (read from the installed metadata, not
    imported: the benchmark process stays small, see :func:`run`)."""
    import platform
    from importlib.metadata import version

    mem = ""
    if Path("/proc/meminfo").exists():
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f", {kb / 2**20:.0f} GiB RAM"
    return (
        f"{platform.machine()}, {os.cpu_count()} cores{mem}, Python {platform.python_version()}, "
        f"duckdb {version('duckdb')}, evalhouse {version('evalhouse')}"
    )


def typer_coercion(python: str | Path | None = None) -> str:
    """One line: the typer that ``python`` (this interpreter by default) imports, and whether evalhouse's own
    coercion of plain option values applies to it (``evalhouse.cli.coercion``: on a typer release it was not
    checked against, every command imports pydantic again, 0.06-0.08 s of CPU more). Asked of a child process,
    so that this one imports neither typer nor evalhouse."""
    code = (
        "import typer\ntry:\n    from evalhouse.cli import coercion\nexcept ImportError:\n"
        "    print(typer.__version__, 'absent')\nelse:\n"
        "    print(typer.__version__, 'on' if coercion.applies() else 'off')"
    )
    r = subprocess.run([str(python or sys.executable), "-c", code], capture_output=True, text=True, env=safe_path())
    if r.returncode:
        return f"typer: could not tell ({r.stderr.strip().splitlines()[-1] if r.stderr.strip() else r.returncode})"
    version, state = r.stdout.split()
    return f"typer {version}, evalhouse's own coercion of plain option values {state}"


def uptime() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f}"


_COMPILE = """
import compileall, importlib.util, sys
dirs = []
for name in ("evalhouse", "evalhouse.loaders", "evalhouse.analysis"):
    spec = importlib.util.find_spec(name)
    dirs += spec.submodule_search_locations if spec else []
ok = all(compileall.compile_dir(d, quiet=1) for d in dirs)
sys.exit(0 if ok else 1)
"""


def compile_bytecode(*others) -> str:
    """Write the bytecode of the evalhouse that this interpreter imports, and that each of ``others`` (the
    python of another virtualenv, or None) imports, as ``pip install`` does for an installed package and
    as the peers' site-packages have it; says so in one line. Without it an editable checkout run with
    ``PYTHONDONTWRITEBYTECODE`` (set on this development machine) compiles every module in every timed
    run: about 0.03 s of CPU per command, measured on ``evalhouse evalb``."""
    pythons = [sys.executable] + [str(p) for p in others if p]
    for python in pythons:
        r = subprocess.run([python, "-c", _COMPILE], capture_output=True, text=True, env=safe_path())
        if r.returncode:
            raise SystemExit(f"cannot write evalhouse's bytecode with {python}:\n{r.stderr}")
    return f"bytecode of evalhouse written before timing (by {', '.join(pythons)})"
