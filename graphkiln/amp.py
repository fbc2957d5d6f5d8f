"""``graphkiln.amp`` (``mindspore.amp``): mixed precision and loss scaling.

* ``auto_mixed_precision(network, amp_level, dtype)``: O0 leaves the network alone; O1
  runs the white-list cells (convolutions, Dense, RNN cells) in float16 with float32
  outputs; O2 runs the whole network in float16 except the black-list cells (BatchNorm,
  LayerNorm), which stay float32, and returns float32 outputs; O3 runs everything in
  float16 and returns float32 outputs. Weights stay float32 and are cast where used.
  "auto": primitives are cast by MindSpore's lists as they run or are traced
  (``ir/amp_cast.py``); a Cell comes back wrapped (MindSpore changes its ``construct``).
* ``custom_mixed_precision``: the same by lists of Cell classes the caller gives.
* ``build_train_network``: the training cell for a level (loss computed in float32).
* The loss-scale managers of ``graphkiln.train`` (also here, as in MindSpore) and the
  functional scalers (``StaticLossScaler``, ``DynamicLossScaler``, ``all_finite``).
"""
from __future__ import annotations

import functools
import logging

import numpy as np

import graphkiln.nn as nn
import graphkiln.ops as ops

from .common import dtype as mstype
from .common.parameter import Parameter
from .common.tensor import Tensor
from .context import get_context
from .ir import amp_cast
from .ir.primitive import Primitive
from .nn.wrap.loss_scale import TrainOneStepWithLossScaleCell
from .train.loss_scale_manager import (
    DynamicLossScaleManager,
    FixedLossScaleManager,
    LossScaleManager,
)

AMP_WHITE_LIST = [nn.Conv1d, nn.Conv2d, nn.Conv3d, nn.Conv1dTranspose, nn.Conv2dTranspose,
                  nn.Conv3dTranspose, nn.Dense]
AMP_BLACK_LIST = [nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d, nn.LayerNorm]
_LEVELS = ("O0", "O1", "O2", "O3")
logger = logging.getLogger("graphkiln.amp")


def get_white_list() -> list:
    return list(AMP_WHITE_LIST)


def get_black_list() -> list:
    return list(AMP_BLACK_LIST)


class _CastOutput(nn.Cell):
    """Runs ``backbone`` and casts its floating-point outputs to ``dtype``."""

    def __init__(self, backbone, dtype):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self.dtype = dtype

    def construct(self, *args):
        out = self._backbone(*args)
        if isinstance(out, tuple):
            return tuple(ops.cast(o, self.dtype) if o.dtype.is_float else o for o in out)
        return ops.cast(out, self.dtype) if out.dtype.is_float else out


class _OutputTo32(_CastOutput):
    """MindSpore's wrapper that casts ``backbone``'s floating-point outputs to float32."""

    def __init__(self, backbone):
        super().__init__(backbone, mstype.float32)


def _replace_children(network, pick, wrap) -> None:
    """Replace (depth first) every sub-cell for which ``pick`` holds by ``wrap(cell)``."""
    for name, cell in list(network._cells.items()):
        if cell is None:
            continue
        if pick(cell):
            network._cells[name] = wrap(cell)
        else:
            _replace_children(cell, pick, wrap)


def auto_mixed_precision(network, amp_level: str = "O0", dtype=mstype.float16):
    """Apply mixed precision ``amp_level`` (see the module docstring) to ``network``."""
    if not isinstance(amp_level, str) or amp_level not in _LEVELS + ("auto",):
        raise ValueError(f"The amp level {amp_level} is not supported")
    _check_low_dtype(dtype)
    if amp_level == "O0":
        return network
    if amp_level == "auto":
        if not isinstance(network, nn.Cell):
            return _with_amp_strategy(network, dtype)
        network = _AutoStrategyCell(network, dtype)
    elif amp_level == "O1":
        _replace_children(network, lambda c: isinstance(c, tuple(AMP_WHITE_LIST)),
                          lambda c: _CastOutput(c.to_float(dtype), mstype.float32))
    elif amp_level == "O2":
        network.to_float(dtype)
        _replace_children(network, lambda c: isinstance(c, tuple(AMP_BLACK_LIST)),
                          lambda c: _CastOutput(c.to_float(mstype.float32), dtype))
        network = _CastOutput(network, mstype.float32)
    else:
        network.to_float(dtype)
        network = _CastOutput(network, mstype.float32)
    network.__dict__["_amp_level"] = amp_level
    return network


def _check_low_dtype(dtype) -> None:
    if dtype is not mstype.float16:  # NumPy's bfloat16 (ml_dtypes) has no fast kernels
        raise ValueError(f"The dtype should be one of (mstype.float16, mstype.bfloat16), but "
                         f"got {dtype}; graphkiln supports float16.")


def custom_mixed_precision(network, *, white_list=None, black_list=None,
                           dtype=mstype.float16):
    """Mixed precision by lists of Cell classes: with ``white_list``, the sub-cells of those
    classes run in ``dtype`` and give float32 outputs (cells set by ``to_float`` keep their
    dtype), and the calls of Primitive objects of its Primitive classes (``ops.MatMul``)
    cast their float inputs to ``dtype`` and their outputs to float32; with
    ``black_list``, the network runs in ``dtype`` except the sub-cells of those classes,
    which stay float32, and gives float32 outputs."""
    if not isinstance(network, nn.Cell):
        raise TypeError("The network type should be Cell.")
    if white_list is None and black_list is None:
        raise ValueError("For custom_mixed_precision, one of white_list and black_list must be "
                         "provided.")
    if white_list is not None and black_list is not None:
        raise ValueError("For custom_mixed_precision, the white_list or black_list cannot be "
                         "provided at the same time, please provide one or the other.")
    if dtype not in (mstype.float16, mstype.bfloat16):
        raise ValueError(f"The dtype should be one of (mstype.float16, mstype.bfloat16), but "
                         f"got {dtype}.")
    _check_low_dtype(dtype)
    if white_list is not None:
        _list_check(white_list, "white_list")
        cells = tuple(c for c in white_list if issubclass(c, nn.Cell))
        primitives = frozenset(c for c in white_list if not issubclass(c, nn.Cell))
        _replace_children(network, lambda c: isinstance(c, cells)
                          and "_amp_dtype" not in c.__dict__,
                          lambda c: _CastOutput(c.to_float(dtype), mstype.float32))
        if primitives:  # (its calls run with them listed: ir/amp_cast.py)
            network.__dict__["_amp_listed"] = (primitives, dtype)
        return network
    _list_check(black_list, "black_list")
    network.to_float(dtype)
    _replace_children(network, lambda c: isinstance(c, tuple(black_list)),
                      lambda c: _CastOutput(c.to_float(mstype.float32), dtype))
    return _OutputTo32(network)


def _list_check(classes, name: str) -> None:
    """MindSpore's checks of a white or black list (a list of Cell, or for a white list
    also Primitive, classes)."""
    if not isinstance(classes, list):
        raise TypeError(f"The type of {name} should be list, but got {type(classes)}")
    allowed = (nn.Cell, Primitive) if name == "white_list" else (nn.Cell,)
    for c in classes:
        if not isinstance(c, type):
            raise TypeError(f"The element in {name} should be a class, but got {c}")
        if not issubclass(c, allowed):
            kinds = "one of 'Cell' and 'Primitive'" if name == "white_list" else "one of 'Cell'"
            raise TypeError(f"The subclass of element in {name} should be {kinds}, but got {c}")
    if name == "black_list":
        for c in AMP_BLACK_LIST:
            if c not in classes:
                logger.warning(f"{c} is removed from internal black list.")


# ------------------------------------------------------------------ amp_level "auto"

AMP_AUTO_WHITE_LIST = ["Conv2D", "Conv3D", "Conv2DExt", "Conv3DExt", "ConvTranspose2D",
                       "Conv2DTranspose", "Conv3DTranspose", "Convolution", "MatMul",
                       "MatMulExt", "BatchMatMul", "BatchMatMulExt", "PReLU", "Einsum",
                       "Dense", "Addmm", "Addbmm", "Addmv", "Baddbmm", "Mv"]
AMP_AUTO_BLACK_LIST = [
    "Pow", "ACos", "Asin", "Cosh", "Erfinv", "Exp", "Expm1", "Log", "Log10", "Log1p", "Log2",
    "Reciprocal", "Rsqrt", "Sinh", "Tan", "Softplus", "SoftplusExt", "LayerNorm",
    "LayerNormExt", "BatchNorm", "BatchNormExt", "GroupNorm", "Norm", "KLDivLoss",
    "SmoothL1Loss", "MultilabelMarginLoss", "SoftMarginLoss", "TripletMarginLoss",
    "MultiMarginLoss", "BCEWithLogitsLoss", "Pdist", "Cdist", "Renorm", "ReduceProd",
    "Softmax", "LogSoftmax", "LogSoftmaxExt", "CumProd", "CumSum", "CumsumExt", "ProdExt",
    "SumExt", "L1LossExt", "MSELossExt", "NLLLoss", "NLLLoss2d"]


class _AutoStrategyCell(nn.Cell):
    """Runs ``backbone`` with the "auto" strategy active (while it runs eagerly, or while
    it is traced: the casts are part of its graph and the strategy part of its key)."""

    def __init__(self, backbone, dtype):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._amp_low = dtype

    def __call__(self, *args, **kwargs):
        amp_cast.push("auto", self._amp_low, AMP_AUTO_WHITE_LIST, AMP_AUTO_BLACK_LIST)
        try:
            return super().__call__(*args, **kwargs)
        finally:
            amp_cast.pop()

    def construct(self, *args, **kwargs):
        return self._backbone(*args, **kwargs)


def _with_amp_strategy(fn, dtype):
    """``fn`` run with the "auto" strategy active (``ir/amp_cast.py``): white list
    primitives in ``dtype``, black list ones in float32, promote list ones in the widest
    float dtype of their inputs."""
    if not callable(fn):
        raise TypeError("For amp_level 'auto', the network type should be Cell or function.")

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        amp_cast.push("auto", dtype, AMP_AUTO_WHITE_LIST, AMP_AUTO_BLACK_LIST)
        try:
            return fn(*args, **kwargs)
        finally:
            amp_cast.pop()

    wrapper._amp_level = "auto"
    return wrapper


# ------------------------------------------------------------------ functional scalers

def all_finite(inputs) -> Tensor:
    """A bool Tensor: True when every Tensor of ``inputs`` holds only finite values
    (``x - x`` is exactly 0 for finite ``x`` and nan for inf or nan)."""
    total = None
    for x in inputs:
        w = ops.cast(x, mstype.float32)
        term = ops.reduce_sum(ops.abs(ops.sub(w, w)))
        total = term if total is None else ops.add(total, term)
    return ops.equal(total, 0.0)


class LossScaler:
    """Base of the functional loss scalers."""

    def scale(self, inputs):
        raise NotImplementedError

    def unscale(self, inputs):
        raise NotImplementedError

    def adjust(self, grads_finite):
        raise NotImplementedError


def _map(fn, inputs):
    if isinstance(inputs, (tuple, list)):
        return type(inputs)(fn(x) for x in inputs)
    return fn(inputs)


class StaticLossScaler(LossScaler):
    """Multiply by a constant ``scale_value`` (and divide back)."""

    def __init__(self, scale_value):
        if isinstance(scale_value, bool) or not isinstance(scale_value, (int, float)):
            raise TypeError(f"The 'scale_value' must be a number, but got "
                            f"{type(scale_value).__name__}.")
        self.scale_value = Parameter(Tensor(np.array(scale_value, np.float32)),
                                     name="scale_value", requires_grad=False)

    def scale(self, inputs):
        return _map(lambda x: ops.mul(x, ops.cast(self.scale_value, x.dtype)), inputs)

    def unscale(self, inputs):
        return _map(lambda x: ops.div(x, ops.cast(self.scale_value, x.dtype)), inputs)

    def adjust(self, grads_finite):
        return False


class DynamicLossScaler(LossScaler):
    """A scale divided by ``scale_factor`` when the gradients are not finite and multiplied
    by it after ``scale_window`` finite steps (``adjust`` updates it in place)."""

    def __init__(self, scale_value, scale_factor, scale_window):
        self.scale_value = Parameter(Tensor(np.array(scale_value, np.float32)),
                                     name="scale_value", requires_grad=False)
        self.scale_window = int(scale_window)
        self.scale_factor = float(scale_factor)
        self.counter = Parameter(Tensor(np.array(0, np.int32)), name="counter",
                                 requires_grad=False)

    def scale(self, inputs):
        return _map(lambda x: ops.mul(x, ops.cast(self.scale_value, x.dtype)), inputs)

    def unscale(self, inputs):
        return _map(lambda x: ops.div(x, ops.cast(self.scale_value, x.dtype)), inputs)

    def adjust(self, grads_finite):
        one = ops.add(self.counter, 1)
        full = ops.equal(one, self.scale_window)
        grown = ops.select(full, ops.mul(self.scale_value, self.scale_factor),
                           self.scale_value)
        finite_scale = grown
        finite_counter = ops.select(full, ops.zeros_like(one), one)
        shrunk = ops.maximum(ops.div(self.scale_value, self.scale_factor), 1.0)
        new_scale = ops.select(grads_finite, finite_scale, shrunk)
        new_counter = ops.select(grads_finite, finite_counter, ops.zeros_like(one))
        return ops.depend(grads_finite, (ops.assign(self.scale_value, new_scale),
                                         ops.assign(self.counter, new_counter)))


# ------------------------------------------------------------------ build_train_network

_CONFIG = {
    "O0": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float32,
           "loss_scale_manager": None},
    "O1": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float32,
           "loss_scale_manager": None},
    "O2": {"keep_batchnorm_fp32": True, "cast_model_type": mstype.float16,
           "loss_scale_manager": "dynamic"},
    "O3": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float16,
           "loss_scale_manager": None},
}


class _LossInFloat32(nn.Cell):
    """``loss_fn(float32(backbone(data)), float32(label))``."""

    def __init__(self, backbone, loss_fn):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data, label):
        out = ops.cast(self._backbone(data), mstype.float32)
        if label.dtype.is_float:
            label = ops.cast(label, mstype.float32)
        return self._loss_fn(out, label)


def _level_config(level: str, overrides: dict) -> dict:
    config = dict(_CONFIG.get(level, _CONFIG["O0"]), **overrides)
    if config["loss_scale_manager"] == "dynamic":
        config["loss_scale_manager"] = DynamicLossScaleManager()
    return config


def mixed_precision_network(network, loss_fn=None, level: str = "O0", **kwargs):
    """The forward part of ``build_train_network``: ``network`` cast for ``level`` (MindSpore's
    cast placement and keep-fp32 list), with ``loss_fn`` applied in float32 when the model
    computes in float16. ``Model(amp_level=...)`` builds its networks with it."""
    config = _level_config(level, kwargs)
    cast_type = config["cast_model_type"]
    if level in ("O1",) or cast_type is mstype.float16:
        amp_level = level if level in ("O1", "O2", "O3") else (
            "O2" if config["keep_batchnorm_fp32"] else "O3")
        if amp_level == "O2" and not config["keep_batchnorm_fp32"]:
            amp_level = "O3"
        network = auto_mixed_precision(network, amp_level)
    if loss_fn is not None:
        if not isinstance(loss_fn, nn.Cell):
            raise TypeError(f"The 'loss_fn' must be a Cell, but got {type(loss_fn).__name__}.")
        if cast_type is mstype.float16:
            network = _LossInFloat32(network, loss_fn)
        else:
            network = nn.WithLossCell(network, loss_fn)
    return network


def build_train_network(network, optimizer, loss_fn=None, level: str = "O0",
                        boost_level: str = "O0", **kwargs):
    """The training cell for mixed-precision ``level``: ``TrainOneStepCell`` (with a
    fixed loss scale as sens), or ``TrainOneStepWithLossScaleCell`` when the loss-scale
    manager has an update cell (which MindSpore's CPU backend refuses, as here)."""
    if not isinstance(level, str) or level not in _LEVELS + ("auto",):
        raise ValueError(f"The argument `level` must be a string in ['O0', 'O1', 'O2', 'O3', "
                         f"'auto'], but got {level!r}.")
    if boost_level not in ("O0", "O1", "O2"):
        raise ValueError(f"The argument 'boost_level' must be in ['O0', 'O1', 'O2'], but got "
                         f"{boost_level!r}.")
    network = mixed_precision_network(network, loss_fn, level, **kwargs)
    config = _level_config(level, kwargs)
    manager = config["loss_scale_manager"]
    scale = 1.0
    if manager is not None:
        scale = manager.get_loss_scale()
        update_cell = manager.get_update_cell()
        if update_cell is not None:
            if get_context("device_target") == "CPU":
                raise ValueError("Only `loss_scale_manager=None` or "
                                 "`loss_scale_manager=FixedLossScaleManager("
                                 "drop_overflow_update=False)`are supported on device `CPU`. ")
            return TrainOneStepWithLossScaleCell(network, optimizer,
                                                 scale_sense=update_cell).set_train()
    return nn.TrainOneStepCell(network, optimizer, scale).set_train()


__all__ = ["auto_mixed_precision", "custom_mixed_precision", "build_train_network",
           "mixed_precision_network",
           "get_white_list", "get_black_list",
           "LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager",
           "LossScaler", "StaticLossScaler", "DynamicLossScaler", "all_finite"]
