"""``mindspore.run_check()``: multiply two small Tensors through the compiled path and say
whether the installation works (MindSpore's two lines of output)."""
from __future__ import annotations

import numpy as np

from .common.tensor import Tensor
from .ops import functional as F
from .version import MINDSPORE_VERSION, __version__


def _check_mul() -> None:
    a = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    b = np.array([[2.0, 3.0], [4.0, 5.0]], np.float32)
    got = F.mul(Tensor(a), Tensor(b)).asnumpy()
    if not np.array_equal(got, a * b):
        raise RuntimeError(f"The result of multiplication calculation is wrong: {got}")


def run_check() -> None:
    """Print the version, then whether a multiplication gives the right result."""
    print(f"MindSpore version: {MINDSPORE_VERSION} (graphkiln {__version__})")
    try:
        _check_mul()
    except Exception as error:  # any failure is the answer this function reports
        print("MindSpore running check failed.")
        print(str(error))
        return
    print("The result of multiplication calculation is correct, MindSpore has been installed "
          "on platform [CPU] successfully!")
