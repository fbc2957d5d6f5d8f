"""Element-wise fusion micro-bench: each case is a ``@jit`` function compiled twice in one
process, with the fusion pass on and off (``GRAPHKILN_FUSION``), timed interleaved (A B A B
...) so load changes hit both alike; the table gives the median wall and CPU time per
call, the speed-up on CPU time and whether the outputs are bit-for-bit equal.

    python bench/fusion.py [--reps 30] [--block 65536]

Every case is fused here (no size or length threshold) to measure where fusion pays; the
column "default" says whether the pass with its default thresholds (``MIN_GROUP_BYTES``,
``STEPS_PER_ARRAY``) fuses it.
``--block`` sets the fused kernel's block size (elements per temporary) to try others.
The fusing libraries were measured beside it once (numexpr 2.14, numba 0.68; not
dependencies): see docs/architecture.md, "Element-wise fusion".
"""
from __future__ import annotations

import argparse
import os
import time

import numpy as np
from _harness import table, write_json

import graphkiln as ms
from graphkiln import ops
from graphkiln.backend import fusion
from graphkiln.ops.defs import fused


def gelu_tanh(x):
    inner = 0.7978845608028654 * (x + 0.044715 * (x * x * x))
    return 0.5 * x * (1 + ops.tanh(inner))


def bn_grad(dy, xhat, mean_dy, mean_dy_xhat, scale):
    return scale * (dy - mean_dy - xhat * mean_dy_xhat)


def adam_step(p, m, v, g):
    m2 = 0.9 * m + 0.1 * g
    v2 = 0.999 * v + 0.001 * g * g
    return p - 0.001 * m2 / (ops.sqrt(v2) + 1e-8)


def bias_relu(x, b):
    return ops.relu(x + b)


def _arrays(rng, shapes):
    return [ms.Tensor(rng.standard_normal(s).astype(np.float32)) for s in shapes]


def cases(rng):
    """(name, function, inputs)."""
    act, ch = (8, 64, 512), (1, 64, 1, 1)
    nchw, big = (16, 64, 32, 32), (64, 64, 32, 32)  # 4 MiB and 16 MiB of float32
    return [
        ("gelu_tanh 8x64x512", gelu_tanh, _arrays(rng, [act])),
        ("gelu_tanh 16x64x32x32", gelu_tanh, _arrays(rng, [nchw])),
        ("gelu_tanh 64x64x32x32", gelu_tanh, _arrays(rng, [big])),
        ("bn_grad 16x64x32x32", bn_grad, _arrays(rng, [nchw, nchw, ch, ch, ch])),
        ("bn_grad 64x64x32x32", bn_grad, _arrays(rng, [big, big, ch, ch, ch])),
        ("bias_relu 16x64x32x32", bias_relu, _arrays(rng, [nchw, ch])),
        ("bias_relu 64x64x32x32", bias_relu, _arrays(rng, [big, ch])),
        ("adam 512x512", adam_step, _arrays(rng, [(512, 512)] * 4)),
        ("adam 2048x2048", adam_step, _arrays(rng, [(2048, 2048)] * 4)),
        ("bias_relu 64x256 (1 block)", bias_relu, _arrays(rng, [(64, 256), (256,)])),
    ]


def _compiled(fn, fusion_on: bool):
    os.environ["GRAPHKILN_FUSION"] = "1" if fusion_on else "0"
    try:
        return ms.jit(lambda *a: fn(*a))
    finally:
        os.environ.pop("GRAPHKILN_FUSION")


def _time(f, args, reps: int) -> tuple[list, list]:
    wall, cpu = [], []
    for _ in range(reps):
        t, c = time.perf_counter(), time.process_time()
        f(*args)
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--block", type=int, default=fused.BLOCK_ELEMENTS)
    args = ap.parse_args()
    fused.BLOCK_ELEMENTS = args.block
    defaults = fusion.MIN_GROUP_BYTES, fusion.STEPS_PER_ARRAY
    ms.set_context(mode=ms.GRAPH_MODE)
    rng = np.random.default_rng(0)
    rows, out = [], {}
    for name, fn, inputs in cases(rng):
        on, off, default = (_compiled(fn, True), _compiled(fn, False),
                            _compiled(fn, True))
        os.environ["GRAPHKILN_FUSION"] = "1"
        default(*inputs)
        by_default = ms.compile_info(default).count("FusedElementwise") > 0
        fusion.MIN_GROUP_BYTES = fusion.STEPS_PER_ARRAY = 0
        r_on = on(*inputs).asnumpy()  # compiles with fusion wherever it can
        fusion.MIN_GROUP_BYTES, fusion.STEPS_PER_ARRAY = defaults
        groups = ms.compile_info(on).count("FusedElementwise")
        os.environ["GRAPHKILN_FUSION"] = "0"
        r_off = off(*inputs).asnumpy()
        os.environ.pop("GRAPHKILN_FUSION")
        same = r_on.tobytes() == r_off.tobytes()
        samples = {"on": ([], []), "off": ([], [])}
        for _ in range(5):  # interleaved rounds
            for key, f in (("on", on), ("off", off)):
                w, c = _time(f, inputs, max(1, args.reps // 5))
                samples[key][0].extend(w)
                samples[key][1].extend(c)
        med = {k: (float(np.median(w)) * 1e3, float(np.median(c)) * 1e3)
               for k, (w, c) in samples.items()}
        rows.append([name, groups, "yes" if by_default else "no", med["off"][0],
                     med["on"][0], med["off"][1], med["on"][1], med["off"][1] / med["on"][1],
                     "yes" if same else "NO"])
        out[name] = {"groups": groups, "off_ms": med["off"][0], "on_ms": med["on"][0],
                     "off_cpu_ms": med["off"][1], "on_cpu_ms": med["on"][1],
                     "bit_equal": same, "fused_by_default": by_default}
    print(f"block {args.block} elements, load {os.getloadavg()[0]:.1f}")
    print(table(rows, ["case", "groups", "default", "off ms", "fused ms", "off CPU ms",
                       "fused CPU ms", "CPU speed-up", "bit-equal"]))
    print("wrote", write_json("fusion", {"block": args.block, "reps": args.reps,
                                        "load": os.getloadavg()[0], "results": out}))


if __name__ == "__main__":
    main()
