"""CI slice of bench/fuzz.py: generated programs with weight reads and writes, prints and
raising guards (``gen_programs.generate(seed, effects=True)``), GRAPH == PYNATIVE on
results, the final weight and the printed text. The full run is
``python bench/fuzz.py --seeds 0:10000``.

``REGRESSIONS`` are seeds of the 10,000-program run that once failed, with the cause.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

import graphkiln as ms

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from gen_programs import generate, graph_vs_eager, load_program  # noqa: E402

_WEIGHT_JOIN = "a weight bound to a variable in one branch of a tensor 'if' was read at the " \
               "branch (a snapshot), not after the later writes"
_WEIGHT_LOOP = "a variable bound to a weight before or inside a tensor loop (or in a join " \
               "made inside a branch) was carried by value through the loop or branch"
_GUARD_FLAG = "after `if not flag:` (inserted after a possible return), the flag was not " \
              "known True on the path that skipped the body, so a branch that returned on " \
              "every path looked like it might fall through (NameError, 'got Undefined')"
REGRESSIONS = {33: _WEIGHT_JOIN, 503: _WEIGHT_JOIN, 1513: _WEIGHT_JOIN, 3145: _WEIGHT_JOIN,
               3113: _WEIGHT_JOIN, 3901: _WEIGHT_JOIN, 5259: _WEIGHT_JOIN,
               7429: _WEIGHT_JOIN, 8611: _WEIGHT_JOIN, 1991: _GUARD_FLAG, 4121: _GUARD_FLAG,
               **dict.fromkeys([211, 613, 757, 2695, 3361, 4657, 6093, 7089, 7469, 7487, 8293,
                                9709], _WEIGHT_LOOP),
               10833: "a weight returned inside a tensor loop (a pending return value that "
                      "may be the weight) read its unset initial value (NameError)",
               10547: "`for e in u` over a weight read every element before the loop, so "
                      "writes in the body were not seen by later elements"}
SEEDS = sorted(set(range(1, 200, 2)) | set(REGRESSIONS))
# programs without effects (even seeds)
PLAIN_REGRESSIONS = {4688: _GUARD_FLAG, 9722: _GUARD_FLAG}


@pytest.fixture(scope="module")
def program_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("gk_effect_programs")


@pytest.mark.parametrize("seed", SEEDS)
def test_effect_program_graph_equals_pynative(seed, program_dir):
    prog = generate(seed, seed % 3 == 2, effects=True)
    mod = load_program(prog, program_dir)
    jf = ms.jit(mod.f)
    for x, y in prog.tensors():
        problem = graph_vs_eager(jf, x, y, mod=mod)
        assert problem is None, (f"seed {seed}: {problem}\n`python tests/gen_programs.py "
                                 f"{seed} --effects`\n{prog.source}")


@pytest.mark.parametrize("seed", sorted(PLAIN_REGRESSIONS))
def test_plain_program_regressions(seed, program_dir):
    prog = generate(seed, seed % 3 == 2, effects=False)
    mod = load_program(prog, program_dir)
    jf = ms.jit(mod.f)
    for x, y in prog.tensors():
        problem = graph_vs_eager(jf, x, y)
        assert problem is None, (f"seed {seed}: {problem}\n`python tests/gen_programs.py "
                                 f"{seed}`\n{prog.source}")
