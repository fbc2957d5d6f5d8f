"""``Custom`` with ``func_type="aot"`` on the CPU: a function of a shared library,
``"path/lib.so:Name"``, called with MindSpore's CPU AOT convention (through ctypes)::

    extern "C" int Name(int nparam, void **params, int *ndims, int64_t **shapes,
                        const char **dtypes, void *stream, void *extra);

``params`` holds the inputs' buffers then the outputs' (C-contiguous, in the declared
shapes and dtypes; Python numbers become 0-d arrays), ``dtypes`` their NumPy names
(``"float32"``); a non-zero return is the user's error code. A ``.cc``/``.cpp`` file is
compiled with ``g++`` first, as MindSpore does, into ``MS_COMPILER_CACHE_PATH`` (default
``./custom_kernel_meta/``).
"""
from __future__ import annotations

import ctypes
import os
import subprocess

import numpy as np

_LIBRARIES: dict[str, ctypes.CDLL] = {}
_COMPILED: dict[tuple, str] = {}  # (source, its mtime, output directory) -> library


def split(func: str) -> tuple[str, str]:
    """``"path:Name"`` -> (path, Name)."""
    path, _, name = func.rpartition(":")
    return path, name


def compile_source(func: str) -> str:
    """``func`` with its ``.cc``/``.cpp`` source compiled to a shared library (unchanged
    when it names a library already)."""
    path, name = split(func)
    if path.endswith(".cu"):
        raise RuntimeError(f"For 'Custom' with func_type 'aot', '{path}' is a CUDA source: "
                           f"compiling it needs nvcc and a GPU, and graphkiln runs on the "
                           f"CPU; compile a .cc/.cpp kernel or a .so instead.")
    if not path.endswith((".cc", ".cpp")):
        return func
    out_dir = os.environ.get("MS_COMPILER_CACHE_PATH") or "./custom_kernel_meta/"
    key = (os.path.realpath(path), os.path.getmtime(path) if os.path.exists(path) else None,
           os.path.realpath(out_dir))
    if key in _COMPILED:
        return f"{_COMPILED[key]}:{name}"
    os.makedirs(out_dir, exist_ok=True)
    lib = os.path.join(out_dir, os.path.basename(path) + ".so")
    cmd = ["g++", "-std=c++17", "--shared", "-fPIC", "-D_GLIBCXX_USE_CXX11_ABI=0",
           f"-I{os.path.dirname(os.path.abspath(path))}", "-o", lib, path]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except FileNotFoundError:
        raise RuntimeError(f"Compilation error in compiling {path}: g++ was not found; "
                           f"install a C++ compiler or pass a compiled .so.") from None
    if proc.returncode != 0:
        raise RuntimeError(f"Compilation error in compiling {path}:\n{proc.stdout}"
                           f"{proc.stderr}")
    _COMPILED[key] = lib
    _LIBRARIES.pop(os.path.realpath(lib), None)  # a rebuilt library is loaded again
    return f"{lib}:{name}"


def _function(func: str):
    path, name = split(func)
    real = os.path.realpath(path)
    lib = _LIBRARIES.get(real)
    if lib is None:
        if not os.path.exists(real):
            raise RuntimeError(f"For 'Custom' on CPU, couldn't find the AOT binary file: "
                               f"{path}")
        try:
            lib = _LIBRARIES[real] = ctypes.CDLL(real)
        except OSError as e:
            raise RuntimeError(f"For 'Custom' on CPU, error occurs when loading '{path}'. "
                               f"Error info: {e}") from None
    try:
        fn = getattr(lib, name)
    except AttributeError as e:
        raise RuntimeError(f"For 'Custom' on CPU, error occurs when fetching function "
                           f"'{name}'. Error info: {e}") from None
    fn.restype = ctypes.c_int
    if hasattr(lib, name + "Init"):
        # its kernel would read the AotExtra object graphkiln cannot pass (a null pointer)
        raise RuntimeError(f"For 'Custom' on CPU, the AOT kernel '{name}' of '{path}' has an "
                           f"initialization function '{name}Init', which takes MindSpore's "
                           f"AotExtra (attributes, workspace, kernel data; "
                           f"custom_aot_extra.h): graphkiln does not provide AotExtra, so it "
                           f"cannot run this kernel.")
    return fn


def run(func: str, args: tuple, expected) -> np.ndarray | tuple:
    """Call the AOT function on ``args`` and give its outputs (``expected``: one
    (shape, dtype) or a list of them)."""
    fn = _function(func)
    several = isinstance(expected, list)
    outs = [np.empty(s, t.np_dtype) for s, t in (expected if several else [expected])]
    arrays = [np.ascontiguousarray(a) for a in args] + outs
    n = len(arrays)
    dims = [(ctypes.c_int64 * max(a.ndim, 1))(*a.shape) for a in arrays]
    i64p = ctypes.POINTER(ctypes.c_int64)
    code = fn(ctypes.c_int(n),
              (ctypes.c_void_p * n)(*[a.ctypes.data for a in arrays]),
              (ctypes.c_int * n)(*[a.ndim for a in arrays]),
              (i64p * n)(*[ctypes.cast(d, i64p) for d in dims]),
              (ctypes.c_char_p * n)(*[a.dtype.name.encode() for a in arrays]),
              None, None)
    if code != 0:
        path, name = split(func)
        raise RuntimeError(f"Return value from CPU AOT kernel({path})'s function({name}) is "
                           f"{code}. Any return value not equal to 0 will be treated as user "
                           f"defined error code and we will terminate execution. If "
                           f"termination is not your purpose, please set return value to 0.")
    return tuple(outs) if several else outs[0]
