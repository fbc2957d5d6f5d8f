"""Shared benchmark plumbing: run a case in a fresh process, print a table, write JSON."""
from __future__ import annotations

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "results")


def run_worker(script: str, python: str, args: list[str], env: dict | None = None) -> dict:
    """Run ``script --worker args`` with ``python`` in a fresh process; parse its JSON line."""
    full_env = dict(os.environ)
    full_env["PYTHONPATH"] = os.path.dirname(HERE) + os.pathsep + full_env.get("PYTHONPATH", "")
    full_env.update(env or {})
    proc = subprocess.run([python, script, "--worker", *args], capture_output=True,
                          text=True, env=full_env, timeout=600)
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    raise RuntimeError(f"worker failed ({python} {args}):\n{proc.stdout[-2000:]}\n"
                       f"{proc.stderr[-4000:]}")


def table(rows: list[list], header: list[str]) -> str:
    cells = [header] + [[_fmt(c) for c in r] for r in rows]
    widths = [max(len(str(r[i])) for r in cells) for i in range(len(header))]
    lines = ["  ".join(str(c).rjust(w) if i else str(c).ljust(w)
                       for i, (c, w) in enumerate(zip(r, widths))) for r in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _fmt(x) -> str:
    if isinstance(x, float):
        return f"{x:.2f}" if abs(x) >= 0.1 else f"{x:.3f}"
    return "-" if x is None else str(x)


def write_json(name: str, payload: dict) -> str:
    os.makedirs(RESULTS, exist_ok=True)
    path = os.path.join(RESULTS, f"{name}.json")
    with open(path, "w") as f:
        json.dump(payload, f, indent=2)
    return path


def python_for(backend: str, mindspore_python: str | None) -> str:
    return mindspore_python if backend == "mindspore" else sys.executable


def backends_for(mindspore_python: str | None) -> list[str]:
    return ["graphkiln"] + (["mindspore"] if mindspore_python else [])


def run_cases(script: str, cases: list[str], mindspore_python: str | None,
              extra: tuple = (), baseline: str | None = None, repeat: int = 1) -> dict:
    """``results[case][backend]``: each case run by ``script --worker BACKEND CASE *extra``
    in a fresh process, for graphkiln and (when its Python is given) MindSpore; with
    ``baseline`` (another graphkiln checkout) also for that code, as backend ``baseline``.
    With ``repeat`` > 1 each worker runs that many times, interleaved, and the run with the
    median ``first_s`` is kept."""
    results: dict = {}
    runs = [(b, python_for(b, mindspore_python), None) for b in backends_for(mindspore_python)]
    if baseline:
        runs.append(("baseline", sys.executable, {"PYTHONPATH": baseline}))
    for case in cases:
        samples: dict = {}
        for _ in range(repeat):
            for name, python, env in runs:
                backend = "graphkiln" if name == "baseline" else name
                samples.setdefault(name, []).append(
                    run_worker(script, python, [backend, case, *extra], env))
        for name, got in samples.items():
            if len(got) > 1:  # workers that report no first call run once
                got.sort(key=lambda r: r["first_s"])
            results.setdefault(case, {})[name] = got[len(got) // 2]
    return results

