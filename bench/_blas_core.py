"""Which OpenBLAS kernels NumPy runs in this process ("Haswell", "SkylakeX", ...): OpenBLAS
picks them when it loads, from the CPU it recognises, or from ``OPENBLAS_CORETYPE``. For
benchmark records only (reads the loaded library's ``*openblas_get_corename*`` symbol)."""
from __future__ import annotations

import ctypes

import numpy as np  # noqa: F401  (loads NumPy's OpenBLAS)

_NAMES = ("openblas_get_corename", "openblas_get_corename64_",
          "scipy_openblas_get_corename64_", "scipy_openblas_get_corename")


def blas_core() -> str | None:
    """The OpenBLAS core name NumPy's BLAS uses, or None when it is not OpenBLAS."""
    try:
        with open("/proc/self/maps") as f:
            libs = {line.split()[-1] for line in f if "openblas" in line.lower()}
    except OSError:  # not Linux
        return None
    for path in sorted(libs):
        lib = ctypes.CDLL(path)
        for name in _NAMES:
            fn = getattr(lib, name, None)
            if fn is not None:
                fn.restype = ctypes.c_char_p
                return fn().decode()
    return None
