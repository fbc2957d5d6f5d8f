"""The types and constants ``mindspore.numpy`` exposes (``mnp.float32``, ``mnp.pi``...)."""
import numpy as onp

from ..common.dtype import (  # noqa: F401  (re-exported)
    bool_,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
)

int_ = int32
uint = uint32
float_ = float32
inf = onp.inf
nan = onp.nan
pi = onp.pi
e = onp.e
euler_gamma = onp.euler_gamma
PINF = onp.inf
NINF = -onp.inf

numeric_types = ["int_", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16",
                 "uint32", "uint64", "float_", "float16", "float32", "float64", "bool_"]
