"""Real MindSpore users' programs run unchanged under ``python -m graphkiln run`` and print
what MindSpore 2.10 printed (fixtures/<name>.out, recorded by fixtures/record_outputs.py).

Lines are compared token by token: numbers within ``RTOL``/``ATOL`` (float32 arithmetic in a
different order), every other token exactly (runs of spaces count as one).
Lines that report times are skipped.
"""
import os
import re
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = os.path.join(HERE, "programs")
FIXTURES = os.path.join(HERE, "fixtures")
ROOT = os.path.dirname(os.path.dirname(HERE))
RTOL, ATOL = 2e-4, 2e-5
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
TIMING = re.compile(r"\btime\b|ms/step", re.IGNORECASE)

# Programs that differ from MindSpore for a known cause in another area (routed to its owner).
ROUTED: dict[str, str] = {}


def _lines(text: str) -> list[str]:
    return [ln.rstrip() for ln in text.splitlines() if not TIMING.search(ln)]


def _template(line: str) -> str:
    """The line with numbers as ``#`` and runs of spaces as one (NumPy pads an array's
    numbers to the width of the longest, which a last-digit difference changes)."""
    return re.sub(r" *([\[\]]) *", r"\1", re.sub(" +", " ", NUMBER.sub("#", line)))


def _same_line(expected: str, actual: str) -> bool:
    if _template(expected) != _template(actual):
        return False
    want = [float(x) for x in NUMBER.findall(expected)]
    got = [float(x) for x in NUMBER.findall(actual)]
    return all(abs(w - g) <= ATOL + RTOL * abs(w) for w, g in zip(want, got))


def compare_output(expected: str, actual: str) -> None:
    """Raise AssertionError naming the first line that differs."""
    want, got = _lines(expected), _lines(actual)
    for i, (w, g) in enumerate(zip(want, got)):
        assert _same_line(w, g), f"line {i + 1} differs:\n MindSpore: {w}\n graphkiln: {g}"
    longer = want if len(want) > len(got) else got
    extra = longer[min(len(want), len(got))] if len(want) != len(got) else ""
    assert len(want) == len(got), (f"MindSpore printed {len(want)} lines, graphkiln "
                                    f"{len(got)}; first extra: {extra}")


def test_compare_output_can_fail():
    compare_output("loss: 2.300000 [1/4]", "loss: 2.300001 [1/4]")
    with pytest.raises(AssertionError):
        compare_output("loss: 2.3000 [1/4]", "loss: 2.3100 [1/4]")
    with pytest.raises(AssertionError):
        compare_output("Int32", "Int64")
    compare_output("[[4.3872385 3.8346148]]", "[[4.387238  3.8346148]]")
    compare_output("[0.2447282  0.6652413 ]", "[0.24472846 0.66524094]")
    with pytest.raises(AssertionError):
        compare_output("[4.3872385 3.8346148]", "[4.387238, 3.8346148]")


def run_program(name: str, work) -> str:
    for f in os.listdir(PROGRAMS):
        if f.endswith(".py"):
            shutil.copy(os.path.join(PROGRAMS, f), work)
    env = dict(os.environ, PYTHONPATH=ROOT)
    done = subprocess.run([sys.executable, "-m", "graphkiln", "run", f"{name}.py"], cwd=work,
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{name} failed under graphkiln:\n{done.stderr[-3000:]}"
    return done.stdout


NAMES = sorted(f[:-4] for f in os.listdir(FIXTURES) if f.endswith(".out"))


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=ROUTED[n])) if n in ROUTED
    else n for n in NAMES])
def test_program_matches_mindspore(name, tmp_path):
    if name == "p12_checkpoint_load":  # loads what p11 saved
        run_program("p11_checkpoint_save", tmp_path)
    compare_output(_expected(name), run_program(name, tmp_path))


def _expected(name: str) -> str:
    with open(os.path.join(FIXTURES, f"{name}.out")) as f:
        return f.read()


def test_graphkiln_loads_mindspore_checkpoints(tmp_path):
    """p12 under graphkiln reads the checkpoints MindSpore's p11 wrote."""
    for f in os.listdir(os.path.join(FIXTURES, "mindspore_ckpt")):
        shutil.copy(os.path.join(FIXTURES, "mindspore_ckpt", f), tmp_path)
    compare_output(_expected("p12_checkpoint_load"), run_program("p12_checkpoint_load", tmp_path))


MINDSPORE = os.environ.get("GRAPHKILN_MINDSPORE_PYTHON",
                           os.path.join(os.path.dirname(ROOT), "msvenv", "bin", "python"))


@pytest.mark.skipif(not os.path.exists(MINDSPORE), reason="real MindSpore is not installed")
def test_mindspore_loads_graphkiln_checkpoints(tmp_path):
    """p12 under real MindSpore reads the checkpoints graphkiln's p11 wrote."""
    run_program("p11_checkpoint_save", tmp_path)
    done = subprocess.run([MINDSPORE, "p12_checkpoint_load.py"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    compare_output(_expected("p12_checkpoint_load"), done.stdout)
