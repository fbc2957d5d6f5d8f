"""How MindSpore prints tensors the tutorials print: dataset rows and ``from_numpy`` tensors
(NumPy-style values), tensors built with ``init=`` (uninitialized until read), strides."""
import mindspore as ms
import mindspore.dataset as ds
import numpy as np
from mindspore.common.initializer import Normal, One, Zero

columns = {"grid": np.arange(24.).reshape(2, 3, 4),
           "probs": np.array([[0.25, 1.5e-2, 3.0]] * 2, np.float32),
           "ids": np.array([[4, 5, 6]] * 2, np.int32),
           "half": np.array([1.5, 2.5], np.float16),
           "flag": np.array([True, False]),
           "value": np.array([3.0, 4.0]),
           "long": np.linspace(0.0, 1.0, 2400).reshape(2, 1200),
           "wide": np.array([[1e-5, 1e10]] * 2)}


def data():
    return ds.NumpySlicesDataset(columns, shuffle=False)


for row in data().create_dict_iterator():
    for name, t in row.items():
        print(name, repr(t))
        print(name, t)
    break
for row in data().create_tuple_iterator(columns=["ids", "value"]):
    print(row)
print(next(iter(data()))[1])
for row in data().create_tuple_iterator(columns=["probs"], do_copy=True):
    print(row)
    break
row = next(iter(data()))
print(repr(row[0] * 1), repr(row[0][0]), repr(ms.Tensor(row[0])), sep="\n")
print(repr(ms.Tensor.from_numpy(np.array([[1.0, 2.5], [3.0, 4.0]], np.float32))))

lazy = ms.Tensor(shape=(2, 2), dtype=ms.float32, init=One())
print(repr(lazy))
print(lazy)
print(lazy.has_init, type(lazy.init).__name__)
print(lazy.asnumpy())
print(lazy.has_init, lazy)
other = ms.Tensor(shape=(3,), dtype=ms.int32, init=Zero())
print(other)
print(other.init_data() is other, other.has_init, other)
normal = ms.Tensor(shape=(64, 64), dtype=ms.float32, init=Normal(0.5))
print(normal.shape, normal.dtype, round(float(normal.asnumpy().std()), 1))

x = ms.Tensor(np.array([[1, 2], [3, 4]]), ms.int32)
print(x.itemsize, x.nbytes, x.strides, ms.Tensor(np.ones((2, 3, 4))).strides)
