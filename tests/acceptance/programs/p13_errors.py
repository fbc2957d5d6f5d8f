"""Typical user mistakes: the error type MindSpore raises, and that its message names the cause."""
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor


def report(title, fn, *keys):
    try:
        out = fn()
        if isinstance(out, Tensor):
            out.asnumpy()  # PyNative runs ops asynchronously: errors surface on use
        print(title, "no error")
    except Exception as e:
        text = str(e).lower()
        print(title, type(e).__name__, [k in text for k in keys])


dense = nn.Dense(4, 3)
report("dense shape", lambda: dense(Tensor(np.ones((2, 5), np.float32))), "shape")
report("matmul shape", lambda: ops.matmul(Tensor(np.ones((2, 3), np.float32)),
                                          Tensor(np.ones((4, 2), np.float32))))
report("add dtype", lambda: ops.add(Tensor(np.ones(2, np.float32)), "x"))
report("conv dtype", lambda: nn.Conv2d(1, 1, 3)(Tensor(np.ones((1, 1, 4, 4), np.int32))))
report("reshape size", lambda: ops.reshape(Tensor(np.ones(6, np.float32)), (4, 2)))
report("missing ckpt", lambda: ms.load_checkpoint("missing.ckpt"), "missing.ckpt")
report("dense in_channels", lambda: nn.Dense(0, 3), "in_channels")
report("bad lr", lambda: nn.Momentum(dense.trainable_params(), learning_rate=-1.0,
                                     momentum=0.9))
report("concat dims", lambda: ops.concat((Tensor(np.ones((2, 3), np.float32)),
                                          Tensor(np.ones((2, 4, 1), np.float32)))))
report("sparse label dtype", lambda: nn.SoftmaxCrossEntropyWithLogits(sparse=True)(
    Tensor(np.ones((2, 3), np.float32)), Tensor(np.array([0.5, 1.0], np.float32))))
ms.set_context(mode=ms.GRAPH_MODE)
report("graph dense shape", lambda: dense(Tensor(np.ones((2, 5), np.float32))), "shape")
