"""``ops.Custom``: the user-facing class of the ``Custom`` primitive (``ops/defs/custom.py``).

The constructor checks ``func`` and ``func_type`` as MindSpore 2.10 does (same error types
and texts); calling the op runs it through the registry like any primitive, so it is
recorded into graphs (GRAPH_MODE, ``@jit``, ``Cell.construct``) and differentiated with
the user's ``bprop``. A graph that calls a pyfunc is never written to the compile cache:
the function lives only in this process.
"""
from __future__ import annotations

from collections.abc import Callable

from ..ir import tracing_state as state
from ..ir.primitive import Primitive
from .defs import custom_aot
from .defs.custom import FUNC_TYPES, prefix
from .defs.custom import Custom as _CustomDef

KERNEL_FLAG = "ms_kernel_flag"  # set on functions MindSpore's @kernel decorates


def _check_func(func, func_type: str, out_shape, reg_info) -> None:
    pre = prefix(func, func_type)
    if func_type not in FUNC_TYPES:
        raise ValueError(f"{pre}, 'func_type' must be one of {list(FUNC_TYPES)}, but got "
                         f"{func_type}")
    if func_type == "aot":
        if not isinstance(func, str):
            raise TypeError(f"{pre}, 'func' must be of type str, but got {type(func)}")
        if len(func.split(":")) != 2 and not callable(out_shape):
            raise TypeError(f"{pre}, 'func' should be like 'file_name:func_name', but got "
                            f"{func}")
    elif func_type == "hybrid" and not hasattr(func, KERNEL_FLAG):
        raise TypeError(f"{pre}, 'func' must be a function decorated by kernel")
    elif func_type == "tbe" and not callable(func):
        raise TypeError(f"{pre}, 'func' must be of type function, but got {type(func)}")
    if not (callable(func) or isinstance(func, str)):
        raise TypeError(f"For 'Custom', 'func' must be of type function or str, but got "
                        f"{type(func)}")
    if func_type == "aicpu" and reg_info is None and getattr(func, "reg_info", None) is None:
        raise ValueError(f"{pre}, the registration information must be set, but current is "
                         f"None. Use 'CustomRegOp' to generate the registration information, "
                         f"then pass it to 'reg_info'")


class Custom(Primitive):
    """A user-defined operator: ``ops.Custom(func, out_shape, out_dtype, func_type="pyfunc",
    bprop=None, reg_info=None)``.

    ``func`` computes on NumPy arrays; ``out_shape``/``out_dtype`` declare its outputs (a
    shape and a dtype, tuples of them for several outputs, or functions of the inputs'
    shapes and dtypes); ``bprop(*inputs, out, dout)`` returns one gradient per input.
    """

    def __init__(self, func: Callable | str, out_shape=None, out_dtype=None,
                 func_type: str = "pyfunc", bprop: Callable | None = None, reg_info=None):
        _check_func(func, func_type, out_shape, reg_info)
        if func_type == "aot":
            func = custom_aot.compile_source(func)
        super().__init__(_CustomDef, {"func": func, "out_shape": out_shape,
                                      "out_dtype": out_dtype, "func_type": func_type,
                                      "bprop": bprop})
        self.reg_info = reg_info if reg_info is not None else getattr(func, "reg_info", None)

    func = property(lambda self: self.attrs["func"])
    out_shape = property(lambda self: self.attrs["out_shape"])
    out_dtype = property(lambda self: self.attrs["out_dtype"])
    func_type = property(lambda self: self.attrs["func_type"])
    bprop = property(lambda self: self.attrs["bprop"])

    def get_bprop(self) -> Callable | None:
        """The user's backward function (None when there is none)."""
        return self.bprop

    def __call__(self, *args):
        if state.current() is not None and self.func_type == "pyfunc":
            state.note_python_call(self.func)
        return super().__call__(*args)


__all__ = ["Custom"]
