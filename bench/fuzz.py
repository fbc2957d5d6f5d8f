"""Differential fuzzing at scale: random programs, GRAPH against PYNATIVE, with gradients.

    PYTHONPATH=. python bench/fuzz.py --seeds 0:10000 [--jobs 2]

For every seed, the generator of ``tests/gen_programs.py`` writes a program
(nested tensor/Python control flow, loops with break/continue/return, helpers; odd seeds
also read and write a weight, print, and carry raising guards) and checks:

* ``graph``: ``ms.jit(f)`` == ``f`` run eagerly on three input pairs (results, final weight,
  printed text; or both raise);
* for effect-free float programs, in float64: ``grad``: GRAPH_MODE gradient == PYNATIVE
  gradient == central finite differences (where the function is differentiable at the
  input); ``jit_of_grad``: ``ms.jit(ms.grad(loss))`` == ``ms.grad(loss)``;
  ``grad_of_jit``: ``ms.grad(ms.jit(loss))`` == ``ms.grad(loss)``.

A program that takes longer than ``--timeout`` seconds counts as a ``hang``. Mismatches
are printed with the command that prints the program; the summary goes to
``bench/results/fuzz.json``.
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import signal
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))
sys.path.insert(0, HERE)

import gen_programs as gp  # noqa: E402
from _harness import table, write_json  # noqa: E402

import graphkiln as ms  # noqa: E402
from graphkiln.common.tensor import Tensor  # noqa: E402

CHECKS = ("graph", "grad", "jit_of_grad", "grad_of_jit")


class _Timeout(Exception):
    pass


def _on_alarm(signum, frame):
    raise _Timeout()


def variant(seed: int) -> tuple[bool, bool]:
    """``(python_scopes, effects)`` of a seed: every combination over six seeds."""
    return seed % 3 == 2, seed % 2 == 1


def _close(a, b, rtol: float, atol: float) -> bool:
    a = a if isinstance(a, tuple) else (a,)
    b = b if isinstance(b, tuple) else (b,)
    return len(a) == len(b) and all(
        np.allclose(x.asnumpy(), y.asnumpy(), rtol=rtol, atol=atol) for x, y in zip(a, b))


def check_grads(prog, mod) -> list[tuple[str, str]]:
    """Gradient checks of one effect-free float program (empty when it does not qualify)."""
    if prog.effects or prog.x_type[0] != "float32" or prog.y_type[0] != "float32":
        return []
    loss = gp.loss_of(mod.f)
    xa, ya = (a.astype(np.float64) for a in prog.inputs[0])
    x, y = Tensor(xa), Tensor(ya)
    ok, value = gp.run_safely(loss, x, y)
    if not ok or value.dtype is not ms.float64:
        return []
    problems = []
    ms.set_context(mode=ms.GRAPH_MODE)
    graph = ms.grad(loss, grad_position=(0, 1))(x, y)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    eager = ms.grad(loss, grad_position=(0, 1))(x, y)
    fd = [gp.numeric_grad(loss, xa, ya, i, 1e-6) for i in (0, 1)]
    if not _close(graph, eager, 1e-10, 1e-12):
        problems.append(("grad", f"GRAPH {graph} != PYNATIVE {eager}"))
    elif all(g is not None for g in fd) and not _close(
            graph, tuple(Tensor(g) for g in fd), 1e-4, 1e-6):
        problems.append(("grad", f"gradient {graph} != finite differences {fd}"))
    jg = ms.jit(ms.grad(loss, grad_position=(0, 1)))(x, y)
    if not _close(jg, eager, 1e-10, 1e-12):
        problems.append(("jit_of_grad", f"{jg} != {eager}"))
    gj = ms.grad(ms.jit(loss), grad_position=(0, 1))(x, y)
    if not _close(gj, eager, 1e-10, 1e-12):
        problems.append(("grad_of_jit", f"{gj} != {eager}"))
    return problems


def check_seed(args) -> dict:
    """Every check of one seed: ``{"seed", "checked": [...], "problems": [(check, text)]}``."""
    seed, directory, timeout = args
    scopes, effects = variant(seed)
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.alarm(timeout)
    checked: list[str] = []
    problems: list = []
    try:
        prog = gp.generate(seed, scopes, effects)
        mod = gp.load_program(prog, directory)
        jf = ms.jit(mod.f)
        for x, y in prog.tensors():
            problem = gp.graph_vs_eager(jf, x, y, mod=mod if effects else None)
            if problem:
                problems.append(("graph", f"x={x!r}, y={y!r}: {problem}"))
                break
        checked.append("graph")
        grad_problems = check_grads(prog, mod)
        if not prog.effects and prog.x_type[0] == prog.y_type[0] == "float32":
            checked += ["grad", "jit_of_grad", "grad_of_jit"]
        problems += grad_problems
    except _Timeout:
        problems.append(("hang", f"more than {timeout} s"))
    except Exception as e:  # noqa: BLE001 - a crash of the harness itself is a finding
        problems.append(("crash", f"{type(e).__name__}: {e}"))
    finally:
        signal.alarm(0)
        ms.set_context(mode=ms.PYNATIVE_MODE)
    return {"seed": seed, "checked": checked, "problems": problems}


def _command(seed: int) -> str:
    scopes, effects = variant(seed)
    return (f"python tests/gen_programs.py {seed}"
            + (" --python-scopes" if scopes else "") + (" --effects" if effects else ""))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="0:1000", help="A:B, the half-open seed range")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=int, default=120, help="seconds per program")
    opts = ap.parse_args()
    lo, hi = (int(v) for v in opts.seeds.split(":"))
    t0 = time.perf_counter()
    counts = {c: 0 for c in CHECKS}
    failures = []
    with tempfile.TemporaryDirectory(prefix="gk_fuzz_") as directory:
        work = [(s, directory, opts.timeout) for s in range(lo, hi)]
        # fresh workers now and then: each program's module and compiled code stay alive
        with multiprocessing.Pool(opts.jobs, maxtasksperchild=500) as pool:
            for i, res in enumerate(pool.imap_unordered(check_seed, work, chunksize=4)):
                for c in res["checked"]:
                    counts[c] += 1
                for check, text in res["problems"]:
                    failures.append({"seed": res["seed"], "check": check,
                                     "detail": text[:2000], "program": _command(res["seed"])})
                    print(f"seed {res['seed']} [{check}] {text[:300]}\n  {_command(res['seed'])}",
                          flush=True)
                if (i + 1) % 500 == 0:
                    print(f"... {i + 1} programs, {len(failures)} problems, "
                          f"{time.perf_counter() - t0:.0f} s", flush=True)
    seconds = time.perf_counter() - t0
    rows = [[c, counts[c], sum(1 for f in failures if f["check"] == c)] for c in CHECKS]
    rows += [[c, "-", sum(1 for f in failures if f["check"] == c)] for c in ("hang", "crash")]
    print(table(rows, ["check", "programs", "mismatches"]))
    print(f"{hi - lo} programs (seeds {lo}:{hi}) in {seconds:.0f} s")
    path = write_json("fuzz", {"seeds": [lo, hi], "programs": hi - lo, "seconds": seconds,
                               "checked": counts, "failures": failures})
    print(f"wrote {path}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
