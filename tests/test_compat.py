"""``python -m graphkiln run``: a MindSpore script runs unchanged."""
import os
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

SCRIPT = textwrap.dedent('''
    import sys
    import numpy as np
    from mindspore.nn import Cell
    from mindspore import context, Tensor, Parameter
    from mindspore.ops import functional as F
    from mindspore.ops import composite as C
    import mindspore as ms

    context.set_context(mode=context.GRAPH_MODE)

    class ForwardNet(Cell):
        def __init__(self):
            super(ForwardNet, self).__init__()
            self.weight = Parameter(Tensor(np.array(0), ms.int32), name="param")

        def construct(self, x):
            out = 0
            i = 0
            while i < 3:
                F.assign(self.weight, i)
                out = x * self.weight + out
                i = i + 1
            return out

    class BackwardNet(Cell):
        def __init__(self, net):
            super(BackwardNet, self).__init__(auto_prefix=False)
            self.forward_net = net
            self.grad = C.GradOperation(get_all=True)

        def construct(self, *inputs):
            grads = self.grad(self.forward_net)(*inputs)
            return grads

    x = Tensor(np.array(1), ms.int32)
    graph_mode_grads = BackwardNet(ForwardNet())(x)
    assert np.all(graph_mode_grads == (Tensor(np.array(3), ms.int32),))
    print(ms.__name__, graph_mode_grads, sys.argv[1:])
''')


def test_run_a_mindspore_script_unchanged(tmp_path):
    script = tmp_path / "spec_backward_net.py"
    script.write_text(SCRIPT)
    p = subprocess.run([sys.executable, "-m", "graphkiln", "run", str(script), "--flag", "1"],
                       capture_output=True, text=True, cwd=REPO, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == ("graphkiln (Tensor(shape=[], dtype=Int32, value= 3),) "
                                "['--flag', '1']")


def test_run_a_module_such_as_pytest_unchanged(tmp_path):
    (tmp_path / "test_uses_mindspore.py").write_text(
        "import mindspore\n\ndef test_it():\n    assert mindspore.__name__ == 'graphkiln'\n")
    p = subprocess.run([sys.executable, "-m", "graphkiln", "run", "-m", "pytest", "-q",
                        "-p", "no:cacheprovider", "test_uses_mindspore.py"],
                       capture_output=True, text=True, cwd=tmp_path, timeout=120,
                       env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert p.returncode == 0, p.stdout + p.stderr
    assert "1 passed" in p.stdout


def test_run_without_a_target_says_what_to_give(capsys):
    from graphkiln.__main__ import main
    assert main(["run"]) == 2
    assert "-m pytest" in capsys.readouterr().err


def test_submodules_resolve_to_graphkiln():
    import importlib

    import graphkiln.ops.functional
    from graphkiln import compat
    compat.install()
    try:
        assert importlib.import_module("mindspore.ops.functional") is graphkiln.ops.functional
        assert importlib.import_module("mindspore").Tensor is graphkiln.Tensor
    finally:
        compat.uninstall()


def test_mindspore_modules_whose_twin_lives_elsewhere_resolve():
    import importlib

    import graphkiln
    from graphkiln import compat
    compat.install()
    try:
        amp = importlib.import_module("mindspore.train.amp")
        sink = importlib.import_module("mindspore.train.data_sink")
    finally:
        compat.uninstall()
    assert amp is graphkiln.amp and sink.data_sink is graphkiln.data_sink
    # importing the module path leaves the function in its package
    assert graphkiln.train.data_sink is graphkiln.data_sink


def test_dump_prints_stages_ir_and_code(tmp_path):
    script = tmp_path / "small.py"
    script.write_text("import mindspore as ms\n\n@ms.jit\ndef f(x):\n    return x * 2 + 1\n\n"
                      "f(ms.Tensor([1.0]))\n")
    p = subprocess.run([sys.executable, "-m", "graphkiln", "dump", "--code", str(script)],
                       capture_output=True, text=True, cwd=REPO, timeout=120)
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert "=== f" in out and "# IR entry: @f" in out and "cse" in out
    assert "def g0_f(a0):" in out and "k_Mul" in out


def test_cache_command_lists_and_clears(tmp_path):
    script = tmp_path / "cached.py"
    cache = tmp_path / "cache"
    script.write_text("import mindspore as ms\nms.set_context(enable_compile_cache=True, "
                      f"compile_cache_path={str(cache)!r})\n\n@ms.jit\ndef f(x):\n"
                      "    return x + 1\n\nf(ms.Tensor([1.0]))\n")
    subprocess.run([sys.executable, "-m", "graphkiln", "run", str(script)], check=True,
                   capture_output=True, cwd=REPO, timeout=120)
    listing = subprocess.run([sys.executable, "-m", "graphkiln", "cache", "--path", str(cache)],
                             capture_output=True, text=True, cwd=REPO, timeout=60).stdout
    assert "1 entries" in listing and ".gkc" in listing
    subprocess.run([sys.executable, "-m", "graphkiln", "cache", "--path", str(cache),
                    "--clear"], check=True, capture_output=True, cwd=REPO, timeout=60)
    assert sorted(p.name for p in cache.iterdir()) == ["CACHEDIR.TAG", "cache.key"]  # entries only
