"""The persistent compile cache, across real processes."""
import os
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent('''
    import sys
    import numpy as np
    import graphkiln as ms
    from graphkiln import nn, set_context

    @ms.jit
    def func(input_x, input_y):
        output = input_x
        for _ in range(200):
            output = input_x + input_x * input_y + output
        return output

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(np.array([2.0], np.float32)), name="w")

        def construct(self, x):
            if x.sum() > 0:
                return x * self.w
            return x - self.w

    if sys.argv[1] == "on":
        set_context(enable_compile_cache=True, compile_cache_path=sys.argv[2])
    x = ms.Tensor([1], ms.float32)
    y = ms.Tensor([2], ms.float32)
    out = func(x, y)
    set_context(mode=ms.GRAPH_MODE)
    net = Net()
    r = net(x)
    print("RESULT", out, r, ms.compile_info(func).from_cache, ms.compile_info(net).from_cache)
    print("IR", ms.compile_info(net).count("Switch"))
''')


def _run(script: Path, *args, env=None):
    full = dict(os.environ, PYTHONPATH=str(REPO))
    full.update(env or {})
    p = subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True,
                       env=full, timeout=120)
    assert p.returncode == 0, p.stderr
    return p.stdout, p.stderr


def _script(tmp_path: Path) -> Path:
    s = tmp_path / "user_net.py"
    s.write_text(SCRIPT)
    return s


def test_second_process_loads_from_cache(tmp_path):
    s, cache = _script(tmp_path), str(tmp_path / "cache")
    out1, err1 = _run(s, "on", cache)
    # MindSpore logs its cache warnings (stderr): the program's output stays its own
    assert "Check the consistency of dependency files hash failed" in err1
    assert "Check the consistency" not in out1
    assert "RESULT [601.] [2.] False False" in out1
    out2, err2 = _run(s, "on", cache)
    assert "Check the consistency" not in err2
    assert "Use the compilation cache and execute the backend actions only" in err2
    assert "RESULT [601.] [2.] True True" in out2
    assert "IR 1" in out2  # the graph of a cached entry is still inspectable


def test_a_changed_source_file_recompiles(tmp_path):
    s, cache = _script(tmp_path), str(tmp_path / "cache")
    _run(s, "on", cache)
    s.write_text(SCRIPT.replace("return x - self.w", "return x - self.w * 3"))
    out, err = _run(s, "on", cache)
    assert "Check the consistency" in err and "False False" in out


def test_damaged_entry_is_reported_and_rebuilt(tmp_path):
    s, cache = _script(tmp_path), tmp_path / "cache"
    _run(s, "on", str(cache))
    for f in cache.glob("*.gkc"):
        f.write_bytes(b"garbage")
    out, err = _run(s, "on", str(cache))
    assert "ignoring the compile cache entry" in err and "fails authentication" in err
    assert "RESULT [601.] [2.] False False" in out
    out, _ = _run(s, "on", str(cache))
    assert "True True" in out


def test_context_wins_over_environment(tmp_path):
    s, cache = _script(tmp_path), tmp_path / "cache"
    env = {"MS_COMPILER_CACHE_ENABLE": "1", "MS_COMPILER_CACHE_PATH": str(cache)}
    _, err = _run(s, "off", env=env)  # environment alone turns it on
    assert "Check the consistency" in err and cache.exists()
    out, _ = _run(s, "on", str(tmp_path / "other"), env=env)
    assert (tmp_path / "other").exists()


def test_two_processes_share_a_directory_safely(tmp_path):
    s, cache = _script(tmp_path), str(tmp_path / "cache")
    full = dict(os.environ, PYTHONPATH=str(REPO))
    procs = [subprocess.Popen([sys.executable, str(s), "on", cache], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=full) for _ in range(2)]
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        assert "RESULT [601.] [2.]" in out
    assert not [f for f in os.listdir(cache) if f.endswith(".tmp")]
    out, _ = _run(s, "on", cache)
    assert "True True" in out


def test_distinct_functions_never_share_an_entry(tmp_path):
    import numpy as np

    import graphkiln as ms
    ms.set_context(enable_compile_cache=True, compile_cache_path=str(tmp_path))
    a = ms.Tensor(np.array([1.0, 2.0]))
    g2, g5 = ms.grad(lambda a: (a * 2).sum())(a), ms.grad(lambda a: (a * 5).sum())(a)
    assert g2.asnumpy().tolist() == [2.0, 2.0] and g5.asnumpy().tolist() == [5.0, 5.0]
    def adder(k):
        return ms.jit(lambda x: x + k)

    outs = []
    for k in (3.0, 4.0):  # closures over, and defaults of, different constants
        outs.append(ms.jit(lambda x, k=k: x * k)(a).asnumpy().tolist())
        outs.append(adder(k)(a).asnumpy().tolist())
    assert outs == [[3.0, 6.0], [4.0, 5.0], [4.0, 8.0], [5.0, 6.0]]


PRIM_SCRIPT = textwrap.dedent('''
    import numpy as np
    import graphkiln as ms
    from graphkiln import nn, ops

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.matmul = ops.MatMul(transpose_b=True)  # a primitive attribute of the cell

        def construct(self, x):
            return self.matmul(x, x)

    ms.set_context(mode=ms.GRAPH_MODE)
    net = Net()
    out = net(ms.Tensor(np.ones((2, 3), np.float32)))
    print("RESULT", out.asnumpy().sum(), ms.compile_info(net).from_cache)
''')


def test_cells_with_primitive_attributes_and_forced_use(tmp_path):
    s = tmp_path / "prim_net.py"
    s.write_text(PRIM_SCRIPT)
    env = {"MS_COMPILER_CACHE_ENABLE": "1", "MS_COMPILER_CACHE_PATH": str(tmp_path / "c")}
    _run(s, "x", env=env)
    out, _ = _run(s, "x", env=env)  # the primitive's key is the same in a new process
    assert "RESULT 12.0 True" in out
    s.write_text(PRIM_SCRIPT + "\n# edited\n")
    forced = {**env, "MS_DEV_FORCE_USE_COMPILE_CACHE": "1"}
    out, err = _run(s, "x", env=forced)  # the edit is not checked when forced
    assert "The env MS_DEV_FORCE_USE_COMPILE_CACHE has been set" in err
    assert "RESULT 12.0 True" in out
    out, err = _run(s, "x", env={**forced, "MS_COMPILER_CACHE_PATH": str(tmp_path / "new")})
    assert "Failed to load the compilation cache file. Execute all the compilation" in err
    assert "RESULT 12.0 False" in out


COMPILE_ONLY = textwrap.dedent('''
    import sys
    import numpy as np
    import graphkiln as ms
    from graphkiln import nn, set_context
    from graphkiln.compile.api import _cell_graph_executor  # mindspore.common.api

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            # an initializer, an init tensor of 4096 values and BatchNorm's primitive are
            # attributes whose identity differs in every process; their values do not
            self.conv = nn.Conv2d(3, 4, 3, weight_init=ms.Tensor(np.ones((4, 3, 3, 3),
                                                                         np.float32)))
            self.conv2 = nn.Conv2d(4, 4, 1)
            self.bn = nn.BatchNorm2d(4)
            self.table = ms.Tensor(np.arange(4096, dtype=np.float32))

        def construct(self, x):
            return self.bn(self.conv2(self.conv(x))).sum() + self.table[int(sys.argv[2])]

    set_context(mode=ms.GRAPH_MODE, enable_compile_cache=True, compile_cache_path=sys.argv[1])
    ms.set_seed(1)  # the same weights in every process (unseeded, they differ, as MindSpore's)
    net = Net()
    x = ms.Tensor(np.ones((1, 3, 8, 8), np.float32))
    print("COMPILED", _cell_graph_executor.compile(net, x))
    print("AGAIN", _cell_graph_executor.compile(net, x), _cell_graph_executor.has_compiled())
    print("FROM_CACHE", ms.compile_info(net).from_cache)
    print("RUN", _cell_graph_executor(net, x), ms.compile_info(net).from_cache)
''')


def test_compile_without_running_and_a_cell_with_initializers_hits_in_a_new_process(tmp_path):
    """``_cell_graph_executor.compile`` compiles into the cell's call cache; the cache key of
    a cell holding an initializer, a large init tensor and a primitive is its values', so a
    second process hits; a different value of the table's read index still misses."""
    s = tmp_path / "compile_only.py"
    s.write_text(COMPILE_ONLY)
    cache = str(tmp_path / "cache")
    out1, _ = _run(s, cache, "5")
    assert "COMPILED ('predict', True)" in out1 and "AGAIN ('predict', False) True" in out1
    assert "FROM_CACHE False" in out1
    result = out1.split("RUN ")[1].split()[0]
    out2, err2 = _run(s, cache, "5")
    assert "Use the compilation cache" in err2 and "FROM_CACHE True" in out2
    assert out2.split("RUN ")[1].split()[0] == result
    out3, _ = _run(s, cache, "6")
    assert "FROM_CACHE False" in out3
