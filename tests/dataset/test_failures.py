"""Failures reach the user as MindSpore's RuntimeError with the user's traceback and the
operation's name; the pipeline then stops with no hung or orphan worker."""
import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import graphkiln.dataset as ds

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _fails_at_3(x):
    if x == 3:
        raise ValueError("boom at three")
    return x


def _source():
    return ds.NumpySlicesDataset({"x": np.arange(40)}, shuffle=False)


def _children() -> list:
    return multiprocessing.active_children()


@pytest.mark.parametrize("workers,processes", [(1, False), (2, False), (2, True)])
def test_failing_map_names_the_op_and_shows_the_traceback(workers, processes):
    data = _source().map(_fails_at_3, ["x"], num_parallel_workers=workers,
                         python_multiprocessing=processes)
    with pytest.raises(RuntimeError) as info:
        for _ in data.create_tuple_iterator():
            pass
    text = str(info.value)
    assert "Exception thrown from user defined Python function in dataset" in text
    assert "map operation: [PyFunc] failed" in text
    assert "ValueError: boom at three" in text and "_fails_at_3" in text


def test_failing_transform_is_named():
    data = _source().map(ds.vision.HWC2CHW(), ["x"])
    with pytest.raises(RuntimeError, match=r"map operation: \[HWC2CHW\] failed"):
        list(data)


def test_raising_generator():
    def gen():
        yield (np.array(1),)
        raise KeyError("generator broke")

    with pytest.raises(RuntimeError, match="generator broke") as info:
        list(ds.GeneratorDataset(gen, ["x"]))
    assert "GeneratorDataset failed" in str(info.value)


def test_raising_random_access_source_in_processes():
    class Bad:
        def __getitem__(self, i):
            if i == 5:
                raise IndexError("no row 5")
            return (np.array(i),)

        def __len__(self):
            return 10

    data = ds.GeneratorDataset(Bad(), ["x"], shuffle=False, num_parallel_workers=2)
    with pytest.raises(RuntimeError, match="no row 5"):
        list(data)


def test_process_pool_is_shut_down_after_an_error_and_after_the_iterator_dies():
    data = _source().map(_fails_at_3, ["x"], num_parallel_workers=2,
                         python_multiprocessing=True)
    with pytest.raises(RuntimeError):
        list(data)
    deadline = time.time() + 5
    while _children() and time.time() < deadline:
        time.sleep(0.05)
    assert _children() == []
    it = _source().map(lambda x: x + 1, ["x"], num_parallel_workers=2,
                       python_multiprocessing=True).create_tuple_iterator()
    next(it)
    assert len(_children()) == 2
    it.stop()
    assert _children() == []


def test_a_worker_that_dies_is_an_error_not_a_hang():
    def die(x):
        if x == 2:
            os._exit(3)
        return x

    data = _source().map(die, ["x"], num_parallel_workers=2, python_multiprocessing=True)
    with pytest.raises(RuntimeError, match="exited unexpectedly"):
        list(data)


def test_ctrl_c_stops_the_pipeline_cleanly(tmp_path):
    script = tmp_path / "pipe.py"
    script.write_text(textwrap.dedent("""
        import signal, sys, time
        import numpy as np
        import graphkiln.dataset as ds

        # a terminal's program gets Ctrl-C; one started from a background job inherits
        # SIGINT ignored, and Python then installs no KeyboardInterrupt handler
        signal.signal(signal.SIGINT, signal.default_int_handler)

        def slow(x):
            time.sleep(0.01)
            return x

        data = ds.NumpySlicesDataset({"x": np.arange(10**6)}, shuffle=False)
        data = data.map(slow, ["x"], num_parallel_workers=2, python_multiprocessing=True)
        print("started", flush=True)
        try:
            for _ in data.create_tuple_iterator():
                pass
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(130)
    """))
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True,
                            env=env, start_new_session=True)
    try:
        assert proc.stdout.readline().strip() == "started"
        time.sleep(0.5)
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal sends it: to the whole group
        assert proc.wait(timeout=10) == 130
        assert "interrupted" in proc.stdout.read()
        time.sleep(0.3)
        leftover = subprocess.run(["pgrep", "-g", str(proc.pid)], capture_output=True,
                                  text=True).stdout.split()
        assert leftover == []
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


def test_bad_files(tmp_path):
    (tmp_path / "train-images-idx3-ubyte").write_bytes(b"\x00\x00\x08\x01garbage")
    (tmp_path / "train-labels-idx1-ubyte").write_bytes(b"\x00\x00\x08\x01")
    with pytest.raises(RuntimeError, match="not an MNIST idx file"):
        ds.MnistDataset(str(tmp_path), usage="train").get_dataset_size()
    with pytest.raises(ValueError, match="does not exist"):
        ds.MnistDataset(str(tmp_path / "nope"))
    (tmp_path / "test_batch.bin").write_bytes(b"\x01" * 100)
    with pytest.raises(RuntimeError, match="not a CIFAR binary batch"):
        ds.Cifar10Dataset(str(tmp_path), usage="test").get_dataset_size()
    with pytest.raises(RuntimeError, match="decode failed"):
        ds.vision.Decode()(np.frombuffer(b"not an image", np.uint8))
    csv = tmp_path / "a.csv"
    csv.write_text("a,b\n1,x\n")
    with pytest.raises(RuntimeError, match="type does not match"):
        list(ds.CSVDataset(str(csv), column_defaults=[0, 0], shuffle=False))
    with pytest.raises(ValueError, match="did not match any files"):
        ds.TextFileDataset(str(tmp_path / "*.none"))
