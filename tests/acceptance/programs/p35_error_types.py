"""The exception types MindSpore raises for common mistakes (only the types are compared)."""
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor, Parameter


def kind(fn):
    try:
        out = fn()
        for t in out if isinstance(out, (tuple, list)) else (out,):
            if isinstance(t, Tensor):
                t.asnumpy()  # MindSpore's PyNative ops run asynchronously: errors come here
        return "no error"
    except Exception as e:  # noqa: BLE001
        return type(e).__name__


x = Tensor(np.ones((2, 3), np.float32))
cases = {
    "dense in mismatch": lambda: nn.Dense(4, 2)(x),
    "matmul shapes": lambda: ops.matmul(x, x),
    "add shapes": lambda: x + Tensor(np.ones((4,), np.float32)),
    "reshape size": lambda: x.reshape(4, 2),
    "concat ranks": lambda: ops.concat((x, Tensor(np.ones(3, np.float32)))),
    "index out of range": lambda: x[5],
    "bad axis": lambda: x.sum(axis=3),
    "bool from multi-element": lambda: bool(x),
    "dense bad in_channels": lambda: nn.Dense(0, 2),
    "conv bad kernel": lambda: nn.Conv2d(3, 4, 0),
    "parameter no name set twice": lambda: Parameter(Tensor(1.0), name=3),
    "lr negative": lambda: nn.SGD(nn.Dense(2, 2).trainable_params(), learning_rate=-1.0),
    "momentum negative": lambda: nn.Momentum(nn.Dense(2, 2).trainable_params(), 0.1, -0.5),
    "softmax cross entropy labels": lambda: nn.SoftmaxCrossEntropyWithLogits(sparse=True)(x, Tensor(np.ones((2, 3), np.float32))),
    "load missing ckpt": lambda: ms.load_checkpoint("no_such_file.ckpt"),
    "unknown context key": lambda: ms.set_context(no_such_key=1),
    "bad mode": lambda: ms.set_context(mode=5),
    "tensor from ragged list": lambda: Tensor([[1, 2], [3]]),
    "cast to bad dtype": lambda: x.astype("nope"),
    "transpose perm": lambda: ops.transpose(x, (0,)),
    "one_hot depth": lambda: ops.one_hot(Tensor(np.array([0, 1], np.int32)), -1, Tensor(1.0), Tensor(0.0)),
    "split uneven": lambda: ops.Split(1, 2)(x),
    "gather bad index dtype": lambda: ops.gather(x, Tensor(np.array([0.5], np.float32)), 0),
}
for name, fn in cases.items():
    print(f"{name}: {kind(fn)}")
