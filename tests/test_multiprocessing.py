"""``mindspore.multiprocessing`` is Python's multiprocessing: forked children run graphkiln
(eager ops and compiled functions) and Tensors cross process boundaries by pickling."""
import numpy as np

import graphkiln as ms
import graphkiln.multiprocessing as mp
from graphkiln import compat, ops


@ms.jit
def _compiled_log(x):
    return ops.log(x) * 2


def _child(inbox, outbox):
    x = inbox.get()
    outbox.put((ops.log(x), _compiled_log(x)))


def _log(x):
    return ops.log(x)


def test_forked_process_runs_graphkiln_on_a_tensor_sent_through_a_queue():
    ctx = mp.get_context("fork")
    _compiled_log(ms.Tensor(np.float32(1.0)))  # compiled before the fork too
    inbox, outbox = ctx.Queue(), ctx.Queue()
    child = ctx.Process(target=_child, args=(inbox, outbox))
    child.start()
    inbox.put(ms.Tensor(np.array([2.0, 3.0], np.float32)))
    eager, compiled = outbox.get(timeout=60)
    child.join(60)
    assert child.exitcode == 0
    np.testing.assert_allclose(eager.asnumpy(), np.log([2.0, 3.0]), rtol=1e-6)
    np.testing.assert_allclose(compiled.asnumpy(), 2 * np.log([2.0, 3.0]), rtol=1e-6)


def test_pool_maps_over_tensors():
    with mp.get_context("fork").Pool(processes=2) as pool:
        outputs = pool.map(_log, [ms.Tensor(np.float32(2.0)), ms.Tensor(np.float32(5.0))])
    np.testing.assert_allclose([o.asnumpy() for o in outputs], np.log([2.0, 5.0]), rtol=1e-6)


def test_resolves_as_mindspore_multiprocessing_with_pythons_names():
    compat.install()
    try:
        import mindspore.multiprocessing as aliased
    finally:
        compat.uninstall()
    assert aliased is mp
    assert mp.Process is __import__("multiprocessing").Process and "Pool" in mp.__all__
