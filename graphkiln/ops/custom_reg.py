"""Registration information for ``ops.Custom``: ``CustomRegOp`` (a builder of MindSpore's
reg info dict), ``DataType`` (the (dtype, format) pairs it lists) and
``custom_info_register`` (binds reg info to a function).

graphkiln runs pyfunc operators on NumPy, where formats and kernel selection mean
nothing, so the reg info is built and checked as MindSpore builds it, kept on the function
or the op, and otherwise unused.
"""
from __future__ import annotations

from collections.abc import Callable

_DTYPES = {"BOOL": "bool", "I8": "int8", "I16": "int16", "I32": "int32", "I64": "int64",
           "U8": "uint8", "U16": "uint16", "U32": "uint32", "U64": "uint64",
           "F16": "float16", "F32": "float32", "F64": "float64", "BF16": "bfloat16",
           "C64": "complex64", "C128": "complex128"}
_FORMATS = {"None": "", "Default": "DefaultFormat", "5HD": "NC1HWC0", "FracZ": "FRACTAL_Z",
            "FracNZ": "FRACTAL_NZ", "C1HWNCoC0": "C1HWNCoC0", "NCHW": "NCHW", "NHWC": "NHWC",
            "HWCN": "HWCN", "NDHWC": "NDHWC", "DHWCN": "DHWCN", "NCDHW": "NCDHW",
            "NDC1HWC0": "NDC1HWC0", "ChannelLast": "ChannelLast",
            "FRACTAL_Z_3D": "FRACTAL_Z_3D", "FracZNLSTM": "FRACTAL_ZN_LSTM",
            "FracZNRNN": "FRACTAL_ZN_RNN", "ND_RNNBIAS": "ND_RNN_BIAS"}


class DataType:
    """(dtype, format) pairs for ``CustomRegOp.dtype_format``: ``DataType.F32_Default`` is
    ``("float32", "DefaultFormat")``; ``_List``/``_Tuple`` ones add the container kind."""

    None_None = ("", "")
    None_Default = ("", "DefaultFormat")


for _short, _dtype in _DTYPES.items():
    for _fshort, _fmt in _FORMATS.items():
        setattr(DataType, f"{_short}_{_fshort}", (_dtype, _fmt))
    setattr(DataType, f"{_short}_Default_List", (_dtype, "DefaultFormat", "list"))
    setattr(DataType, f"{_short}_Default_Tuple", (_dtype, "DefaultFormat", "tuple"))


def _check(kind: type, what: str, value) -> None:
    if value is not None and not isinstance(value, kind) or isinstance(value, bool):
        raise TypeError(f"{value} value must be {what}")


class CustomRegOp:
    """Builds the reg info of a Custom op: ``CustomRegOp().input(0, "x").output(0, "y")
    .dtype_format(DataType.F32_Default, DataType.F32_Default).target("CPU").get_op_info()``.
    """

    def __init__(self, op_name: str = "Custom"):
        self.op_name = op_name
        self.inputs: list = []
        self.outputs: list = []
        self.attr_: list = []
        self.fusion_type = ""
        self.dtype_format_: list = []
        self.target_ = "UnKnown"

    def _io(self, index, name, param_type, kwargs) -> dict:
        _check(int, "int", index)
        _check(str, "str", name)
        _check(str, "str", param_type)
        entry = {k: v for k, v in (("index", index), ("name", name)) if v is not None}
        entry["paramType"] = param_type
        entry.update(kwargs)
        return entry

    def input(self, index: int | None = None, name: str | None = None,
              param_type: str = "required", **kwargs) -> CustomRegOp:
        self.inputs.append(self._io(index, name, param_type, kwargs))
        return self

    def output(self, index: int | None = None, name: str | None = None,
               param_type: str = "required", **kwargs) -> CustomRegOp:
        self.outputs.append(self._io(index, name, param_type, kwargs))
        return self

    def dtype_format(self, *args) -> CustomRegOp:
        """One supported combination: a (dtype, format) pair per input, then per output."""
        n = len(self.inputs) + len(self.outputs)
        if len(args) != n:
            raise ValueError(f"The size of 'args' must be equal to the sum of input tensors "
                             f"and output tensors, but got {len(args)} vs {n}")
        for a in args:
            if not (isinstance(a, tuple) and len(a) in (2, 3)
                    and all(isinstance(e, str) for e in a)):
                raise TypeError(f"Each item of 'dtype_format' must be a DataType entry (a "
                                f"tuple of strings such as DataType.F32_Default), but got "
                                f"{a!r}")
        self.dtype_format_.append(tuple(args))
        return self

    def attr(self, name: str | None = None, param_type: str | None = None,
             value_type: str | None = None, default_value=None, **kwargs) -> CustomRegOp:
        _check(str, "str", name)
        entry = {k: v for k, v in (("name", name), ("paramType", param_type),
                                   ("type", value_type), ("defaultValue", default_value))
                 if v is not None}
        entry.update(kwargs)
        self.attr_.append(entry)
        return self

    def target(self, target: str | None = None) -> CustomRegOp:
        _check(str, "str", target)
        self.target_ = target
        return self

    def get_op_info(self) -> dict:
        """The reg info dict MindSpore's ``Custom`` reads."""
        return {"op_name": self.op_name, "inputs": self.inputs, "outputs": self.outputs,
                "attr": self.attr_, "fusion_type": self.fusion_type,
                "dtype_format": self.dtype_format_, "target": self.target_}


def custom_info_register(*reg_info) -> Callable:
    """A decorator binding ``reg_info`` to a Custom op's function (``func.reg_info``)."""
    def decorator(func):
        func.reg_info = reg_info
        return func
    return decorator


__all__ = ["CustomRegOp", "DataType", "custom_info_register"]
