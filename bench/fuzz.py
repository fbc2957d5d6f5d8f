"""Differential fuzzing at scale: random programs, GRAPH against PYNATIVE, with gradients.

    PYTHONPATH=. python bench/fuzz.py --seeds 0:10000 [--jobs 2] [--out fuzz]

For every seed, a generator writes a program: for one seed in twenty (``seed % 20 == 19``)
``tests/gen_programs.py`` (nested tensor/Python control flow, loops with
break/continue/return, helpers; half of them also read and write a weight, print, and
carry raising guards), for the others ``tests/gen_op_programs.py`` (small programs over
mixed dtypes: promotion, division and modulo, indexing and setitem, reductions, builtins,
closures, in-place methods). Each program is checked:

* ``graph``: ``ms.jit(f)`` == ``f`` run eagerly on three input pairs (results, final weight,
  printed text; or both raise);
* for effect-free float programs, in float64: ``grad``: GRAPH_MODE gradient == PYNATIVE
  gradient == central finite differences (where the function is differentiable at the
  input; at a branch boundary, off it); ``jit_of_grad``: ``ms.jit(ms.grad(loss))`` ==
  ``ms.grad(loss)``; ``grad_of_jit``: ``ms.grad(ms.jit(loss))`` == ``ms.grad(loss)``;
* composed transforms, each eager, with ``jit`` inside, outside and both, against the eager
  composition and an oracle: ``grad_of_grad`` (central differences of the gradient),
  ``vmap_of_grad``, ``jit_of_vmap`` and ``grad_of_vmap`` (per-example loops). A program
  the eager composition rejects (vmap of a loop whose trip count depends on the batch)
  is not counted for that check.

A program that takes longer than ``--timeout`` seconds counts as a ``hang``. Mismatches
are printed with the command that prints the program; the summary goes to
``bench/results/fuzz.json``.
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import re
import signal
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))
sys.path.insert(0, HERE)

import gen_op_programs as go  # noqa: E402
import gen_programs as gp  # noqa: E402
from _harness import table, write_json  # noqa: E402

import graphkiln as ms  # noqa: E402
from graphkiln.common.tensor import Tensor  # noqa: E402

CHECKS = ("graph", "grad", "jit_of_grad", "grad_of_jit", "grad_of_grad", "vmap_of_grad",
          "jit_of_vmap", "grad_of_vmap")


class _Timeout(BaseException):  # not caught by the checks that catch Exception
    """A program ran longer than --timeout."""


def _on_alarm(signum, frame):
    raise _Timeout()


def variant(seed: int) -> tuple[bool, bool] | None:
    """``(python_scopes, effects)`` of a control-flow seed (every combination over six of
    them), None for an op-level one."""
    if seed % 20 != 19:
        return None
    n = seed // 20
    return n % 3 == 2, n % 2 == 1


def generate(seed: int):
    """The program of ``seed``."""
    v = variant(seed)
    return go.generate(seed) if v is None else gp.generate(seed, *v)


def _close(a, b, rtol: float, atol: float) -> bool:
    a = a if isinstance(a, tuple) else (a,)
    b = b if isinstance(b, tuple) else (b,)
    return len(a) == len(b) and all(
        np.allclose(x.asnumpy(), y.asnumpy(), rtol=rtol, atol=atol) for x, y in zip(a, b))


def _fd_problem(grad, loss, xa, ya) -> str | None:
    """``grad`` against central differences of ``loss`` at ``(xa, ya)`` (None: agree, or
    no derivative there). A program that rounds to float32 inside (``astype``) is measured
    again with a step well above that rounding."""
    for eps, rtol in ((1e-6, 1e-4), (1e-3, 1e-3)):
        fd = [gp.numeric_grad(loss, xa, ya, i, eps) for i in (0, 1)]
        if any(g is None for g in fd) or _close(grad, tuple(Tensor(g) for g in fd), rtol,
                                                1e-6):
            return None
    return f"gradient {grad} != finite differences {fd}"


# A cast to an integer or bool type passes the gradient through, cast back (MindSpore's
# rule for Cast), where finite differences see a step function (and a float16 one steps
# every 1e-3): such programs are checked GRAPH against PYNATIVE and in composition, not
# against finite differences.
_COARSE_CASTS = re.compile(r"ms\.(?:u?int\d+|bool_|float16)\b|\.(?:int|long|bool|half)\(\)")


def _off_boundary(xa, ya):
    """The inputs moved a little, off a branch boundary such as ``y == 0`` in ``y and z``."""
    rng = np.random.default_rng(0)
    return (np.asarray(xa + 1e-3 * rng.uniform(0.5, 1.0, np.shape(xa))),
            np.asarray(ya + 1e-3 * rng.uniform(0.5, 1.0, np.shape(ya))))


def _graph_grad(loss, x, y):
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        return ms.grad(loss, grad_position=(0, 1))(x, y)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def check_grads(prog, mod) -> tuple[list[str], list[tuple[str, str]]]:
    """Gradient checks of one effect-free float program: ``(checks run, problems)``.

    Autodiff gives the derivative of the branch the input takes. Where the input sits on a
    branch boundary (``y == 0`` in ``y or z``) and the function is continuous but its
    neighbours all take the other branch, central differences measure the neighbours: a
    gradient that disagrees there is checked again at inputs moved off the boundary.
    """
    if prog.effects or prog.x_type[0] != "float32" or prog.y_type[0] != "float32":
        return [], []
    loss = gp.loss_of(mod.f)
    xa, ya = (a.astype(np.float64) for a in prog.inputs[0])
    x, y = Tensor(xa), Tensor(ya)
    ok, value = gp.run_safely(loss, x, y)
    if not ok or value.dtype is not ms.float64:
        return [], []
    problems = []
    graph = _graph_grad(loss, x, y)
    eager = ms.grad(loss, grad_position=(0, 1))(x, y)
    if not _close(graph, eager, 1e-10, 1e-12):
        problems.append(("grad", f"GRAPH {graph} != PYNATIVE {eager}"))
    elif not _COARSE_CASTS.search(prog.source):
        problem = _fd_problem(graph, loss, xa, ya)
        if problem is not None:
            xo, yo = _off_boundary(xa, ya)
            if _fd_problem(_graph_grad(loss, Tensor(xo), Tensor(yo)), loss, xo, yo):
                problems.append(("grad", problem))
    jg = ms.jit(ms.grad(loss, grad_position=(0, 1)))(x, y)
    if not _close(jg, eager, 1e-10, 1e-12):
        problems.append(("jit_of_grad", f"{jg} != {eager}"))
    gj = ms.grad(ms.jit(loss), grad_position=(0, 1))(x, y)
    if not _close(gj, eager, 1e-10, 1e-12):
        problems.append(("grad_of_jit", f"{gj} != {eager}"))
    checked = ["grad", "jit_of_grad", "grad_of_jit"]
    for name, run in composed_checks(loss, xa, ya):
        problem = run()
        if problem is not False:
            checked.append(name)
        if problem:
            problems.append((name, problem))
    return checked, problems


# ---------------------------------------------------------------- composed transforms

def _sum_outputs(fn):
    """``fn`` with its (tuple of) tensor outputs summed to one scalar."""
    def total(*args):
        out = fn(*args)
        outs = out if isinstance(out, tuple) else (out,)
        acc = outs[0].sum()
        for o in outs[1:]:
            acc = acc + o.sum()
        return acc
    return total


def _variants(make):
    """``make(inner_jit)`` eager, with jit inside, with jit outside, and with both."""
    return {"eager": make(False), "jit_inside": make(True), "jit_outside": ms.jit(make(False)),
            "jit_both": ms.jit(make(True))}


def _compare_variants(variants: dict, args, oracle) -> str | None | bool:
    """Every variant against the eager composition and ``oracle`` (an array tuple, or
    None when it does not apply); False when the eager composition itself raises."""
    ok, want = gp.run_safely(variants["eager"], *args)
    if not ok:
        return False
    want = want if isinstance(want, tuple) else (want,)
    # (1e-3: the finite differences of grad_of_grad step 1e-3 through float32 rounding)
    if oracle is not None and not _close(want, tuple(Tensor(o) for o in oracle), 1e-3, 1e-6):
        return f"eager composition {want} != oracle {oracle}"
    for name, fn in variants.items():
        ok, got = gp.run_safely(fn, *args)
        if not ok:
            return f"{name} raised {got} (the eager composition did not)"
        if not _close(got, want, 1e-8, 1e-10):
            return f"{name} {got} != eager composition {want}"
    return None


def composed_checks(loss, xa, ya):
    """``(check name, run)`` pairs: grad of grad, grad of vmap, vmap of grad, jit of vmap,
    each eager, with jit inside, outside and both; the oracles are central differences of
    the eager function and per-example loops. ``run()`` returns None (agree), a problem
    text, or False when the eager composition does not apply to this program."""
    xo, yo = _off_boundary(xa, ya)  # second derivatives: off branch boundaries
    x, y = Tensor(xo), Tensor(yo)
    batch = np.stack([xo, xo * 0.5, xo - 0.25])

    def grad_of(fn, inner_jit):
        return ms.grad(ms.jit(fn) if inner_jit else fn, grad_position=(0, 1))

    def grad_of_grad():
        first = _sum_outputs(grad_of(loss, False))
        # a program may round to float32 inside (astype): a step well above its rounding
        fd = [gp.numeric_grad(first, xo, yo, i, 1e-3) for i in (0, 1)]
        oracle = None if any(g is None for g in fd) else tuple(fd)
        return _compare_variants(_variants(
            lambda j: grad_of(_sum_outputs(grad_of(loss, j)), False)), (x, y), oracle)

    def per_example(fn):
        outs = [fn(Tensor(b), y) for b in batch]
        outs = [o if isinstance(o, tuple) else (o,) for o in outs]
        return tuple(np.stack([o[k].asnumpy() for o in outs]) for k in range(len(outs[0])))

    def vmap_of_grad():
        ok, oracle = gp.run_safely(per_example, grad_of(loss, False))
        if not ok:
            return False
        return _compare_variants(_variants(
            lambda j: ms.vmap(grad_of(loss, j), in_axes=(0, None))), (Tensor(batch), y),
            oracle)

    def jit_of_vmap():
        ok, oracle = gp.run_safely(per_example, loss)
        if not ok:
            return False
        return _compare_variants(_variants(
            lambda j: ms.vmap(ms.jit(loss) if j else loss, in_axes=(0, None))),
            (Tensor(batch), y), oracle)

    def grad_of_vmap():
        ok, per = gp.run_safely(per_example, grad_of(loss, False))
        if not ok:
            return False
        oracle = (per[0], per[1].sum(0))  # d/dX_i and d/dy of sum_i loss(X_i, y)
        return _compare_variants(_variants(
            lambda j: grad_of(_sum_outputs(ms.vmap(ms.jit(loss) if j else loss,
                                                   in_axes=(0, None))), False)),
            (Tensor(batch), y), oracle)

    return [("grad_of_grad", grad_of_grad), ("vmap_of_grad", vmap_of_grad),
            ("jit_of_vmap", jit_of_vmap), ("grad_of_vmap", grad_of_vmap)]


def check_seed(args) -> dict:
    """Every check of one seed: ``{"seed", "checked": [...], "problems": [(check, text)]}``."""
    seed, directory, timeout = args
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.alarm(timeout)
    checked: list[str] = []
    problems: list = []
    try:
        prog = generate(seed)
        effects = prog.effects
        mod = gp.load_program(prog, directory)
        jf = ms.jit(mod.f)
        for x, y in prog.tensors():
            problem = gp.graph_vs_eager(jf, x, y, mod=mod if effects else None)
            if problem:
                problems.append(("graph", f"x={x!r}, y={y!r}: {problem}"))
                break
        checked.append("graph")
        grad_checked, grad_problems = check_grads(prog, mod)
        checked += grad_checked
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
    if variant(seed) is None:
        return f"python tests/gen_op_programs.py {seed}"
    scopes, effects = variant(seed)
    return (f"python tests/gen_programs.py {seed}"
            + (" --python-scopes" if scopes else "") + (" --effects" if effects else ""))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="0:1000",
                    help="A:B, the half-open seed range, or a comma-separated list")
    ap.add_argument("--out", default="fuzz", help="name of the bench/results/NAME.json")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=int, default=120, help="seconds per program")
    ap.add_argument("--budget", type=float, default=None,
                    help="stop after this many seconds and report the programs that finished")
    opts = ap.parse_args()
    if ":" in opts.seeds:
        lo, hi = (int(v) for v in opts.seeds.split(":"))
        seeds = list(range(lo, hi))
    else:
        seeds = [int(v) for v in opts.seeds.split(",")]
    t0 = time.perf_counter()
    counts = {c: 0 for c in CHECKS}
    failures = []
    done: list[int] = []
    with tempfile.TemporaryDirectory(prefix="gk_fuzz_") as directory:
        work = [(s, directory, opts.timeout) for s in seeds]
        # fresh workers now and then: each program's module and compiled code stay alive
        with multiprocessing.Pool(opts.jobs, maxtasksperchild=500) as pool:
            for i, res in enumerate(pool.imap_unordered(check_seed, work, chunksize=4)):
                done.append(res["seed"])
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
                if opts.budget is not None and time.perf_counter() - t0 > opts.budget:
                    pool.terminate()
                    break
    seconds = time.perf_counter() - t0
    rows = [[c, counts[c], sum(1 for f in failures if f["check"] == c)] for c in CHECKS]
    rows += [[c, "-", sum(1 for f in failures if f["check"] == c)] for c in ("hang", "crash")]
    print(table(rows, ["check", "programs", "mismatches"]))
    print(f"{len(done)} of {len(seeds)} programs (seeds {opts.seeds}) in {seconds:.0f} s")
    path = write_json(opts.out, {"seeds": opts.seeds, "programs": len(done),
                                 "finished_seeds": sorted(done), "seconds": seconds,
                                 "checked": counts, "failures": failures})
    print(f"wrote {path}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
