"""Gradients of generated control-flow programs: GRAPH_MODE == PYNATIVE_MODE, and both
equal central finite differences of the program run eagerly (an oracle independent of
graphkiln's autodiff).

Programs come from ``gen_programs.generate`` (nested tensor/Python ``if``, ``while`` with
tensor conditions, ``for`` over ranges/tensors, ``break``/``continue``, early ``return``).
Inputs are taken in float64; a program qualifies when it returns only float tensors and its
one-sided differences agree at the input (no kink or branch boundary there). The first
``N_PROGRAMS`` qualifying seeds are checked.
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln.common.tensor import Tensor

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from gen_programs import generate, load_program, loss_of, numeric_grad  # noqa: E402

N_PROGRAMS = 100
MAX_SEED = 400


def _qualifying(directory):
    found = 0
    for seed in range(MAX_SEED):
        prog = generate(seed)
        if prog.x_type[0] != "float32" or prog.y_type[0] != "float32":
            continue
        yield seed
        found += 1
        if found >= N_PROGRAMS * 2:
            return


@pytest.fixture(scope="module")
def program_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("gk_grad_programs")


def test_gradients_match_finite_differences(program_dir):
    checked, skipped = 0, []
    for seed in _qualifying(program_dir):
        if checked >= N_PROGRAMS:
            break
        prog = generate(seed)
        mod = load_program(prog, program_dir)
        loss = loss_of(mod.f)
        xa, ya = (a.astype(np.float64) for a in prog.inputs[0])
        try:
            value = loss(Tensor(xa), Tensor(ya))
        except Exception:  # the program raises eagerly: nothing to differentiate
            skipped.append(seed)
            continue
        if value.dtype is not ms.float64:
            skipped.append(seed)
            continue
        fd = [numeric_grad(loss, xa, ya, i, 1e-6) for i in (0, 1)]
        if any(g is None for g in fd):
            skipped.append(seed)  # at a branch boundary: no derivative to compare
            continue
        ms.set_context(mode=ms.GRAPH_MODE)
        graph = ms.grad(loss, grad_position=(0, 1))(Tensor(xa), Tensor(ya))
        ms.set_context(mode=ms.PYNATIVE_MODE)
        eager = ms.grad(loss, grad_position=(0, 1))(Tensor(xa), Tensor(ya))
        for i in (0, 1):
            np.testing.assert_allclose(
                graph[i].asnumpy(), eager[i].asnumpy(), rtol=1e-10,
                err_msg=f"seed {seed}: GRAPH != PYNATIVE gradient\n{prog.source}")
            np.testing.assert_allclose(
                graph[i].asnumpy(), fd[i], rtol=1e-4, atol=1e-6,
                err_msg=f"seed {seed}: gradient != finite differences\n{prog.source}")
        checked += 1
    assert checked >= N_PROGRAMS, f"only {checked} programs qualified (skipped {skipped})"
