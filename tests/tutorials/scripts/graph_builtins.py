"""Lazy builtins (range, zip, enumerate, filter) returned from a jit function come back
as MindSpore gives them: tuples, and a list for filter."""
import mindspore
import numpy as np

y = mindspore.tensor(np.array([[1, 2], [3, 4], [5, 6]]))


def is_odd(x):
    return x % 2 == 1


@mindspore.jit()
def test():
    x = (100, 200, 300, 400)
    return (enumerate(x, 3), enumerate(y), zip((1, 2, 3), (4, 5, 6)), range(0, 6, 2),
            filter(is_odd, [6, 7, 8, 9]), (range(3), [zip((1,), (2,))]))


print(test())


@mindspore.jit
def conversions(x):
    squares = (i * i for i in range(1, 8) if i % 2)
    return squares, tuple(np.array([4, 5])), list(np.array([1.5])), float(x.asnumpy()), \
        int(x.asnumpy())


print(conversions(mindspore.tensor([-3], mindspore.int32)))

total = mindspore.tensor(np.zeros((2,), np.float32))


@mindspore.jit
def add_to_global():
    for step in (1, 2, 3):
        total += step  # noqa: F823  (MindSpore's graphs start from the global)
    return total


print(add_to_global())
