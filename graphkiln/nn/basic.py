"""Basic layers: ``Dense``, ``Dropout``, ``Flatten``, ``Identity``, ``Unfold``. Signatures,
defaults, parameter names and error messages follow MindSpore."""
from __future__ import annotations

import math

import numpy as np

import graphkiln.nn.init as _init
import graphkiln.ops as ops

from ..common import dtype as mstype
from ..common.parameter import Parameter
from ..common.seed import graph_seed
from ..common.tensor import Tensor
from .activation import get_activation
from .cell import Cell
from .matrix import (  # noqa: F401  (MindSpore defines these in nn.layer.basic)
    MatrixDiag,
    MatrixDiagPart,
    MatrixSetDiag,
    Tril,
    Triu,
)


def check_positive_int(owner: str, name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For '{owner}', the '{name}' must be int, but got "
                        f"'{type(value).__name__}'")
    if value <= 0:
        raise ValueError(f"For '{owner}', the '{name}' must be int and must > 0, but got "
                         f"'{value}' with type 'int'.")
    return value


class Dense(Cell):
    """``activation(x @ weight.T + bias)``; ``weight`` has shape (out, in). Inputs of rank
    other than 2 are flattened to (-1, in) and reshaped back, as MindSpore does.

    Default initialisation is MindSpore 2.x's: ``HeUniform(negative_slope=sqrt(5))`` for
    the weight and ``Uniform(1/sqrt(in_channels))`` for the bias.
    """

    def __init__(self, in_channels: int, out_channels: int, weight_init=None, bias_init=None,
                 has_bias: bool = True, activation=None, dtype=mstype.float32):
        super().__init__()
        self.in_channels = check_positive_int("Dense", "in_channels", in_channels)
        self.out_channels = check_positive_int("Dense", "out_channels", out_channels)
        self.has_bias = bool(has_bias)
        if isinstance(weight_init, Tensor) and (
                weight_init.ndim != 2 or tuple(weight_init.shape) != (out_channels,
                                                                       in_channels)):
            raise ValueError(f"For 'Dense', weight init shape error. The ndim of "
                             f"'weight_init' must be equal to 2, and the first dim must be "
                             f"equal to 'out_channels', and the second dim must be equal to "
                             f"'in_channels'. But got 'weight_init': {weight_init}, "
                             f"'out_channels': {out_channels}, 'in_channels': {in_channels}.")
        if weight_init is None:
            weight_init = _init.HeUniform(math.sqrt(5))
        self.weight = Parameter(_init.initializer(weight_init, (out_channels, in_channels),
                                                  dtype), name="weight")
        self.bias = None
        if self.has_bias:
            if isinstance(bias_init, Tensor) and (
                    bias_init.ndim != 1 or bias_init.shape[0] != out_channels):
                raise ValueError(f"For 'Dense', bias init shape error. The ndim of "
                                 f"'bias_init' must be equal to 1, and the first dim must be "
                                 f"equal to 'out_channels'. But got 'bias_init': {bias_init}, "
                                 f"'out_channels': {out_channels}.")
            if bias_init is None:
                bias_init = _init.Uniform(1.0 / math.sqrt(in_channels))
            self.bias = Parameter(_init.initializer(bias_init, (out_channels,), dtype),
                                  name="bias")
        if isinstance(activation, str):
            activation = get_activation(activation.lower())
        if activation is not None and not isinstance(activation, Cell) \
                and not callable(activation):
            raise TypeError(f"For 'Dense', the 'activation' must be str or Cell or "
                            f"Primitive, but got {type(activation).__name__}.")
        self.activation = activation
        self.activation_flag = activation is not None
        self.matmul = ops.MatMul(transpose_b=True)

    def construct(self, x):
        x_shape = x.shape
        if len(x_shape) != 2:
            out_shape = tuple(ops.shape(x)[:-1]) + (self.out_channels,)  # run-time ints
            x = ops.reshape(x, (-1, x_shape[-1]))
        x = self.matmul(x, self.weight)
        if self.has_bias:
            x = ops.add(x, self.bias)
        if self.activation_flag:
            x = self.activation(x)
        if len(x_shape) != 2:
            x = ops.reshape(x, out_shape)
        return x

    def extra_repr(self) -> str:
        s = f"input_channels={self.in_channels}, output_channels={self.out_channels}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        if self.activation_flag:
            s += f", activation={self.activation}"
        return s


class Dropout(Cell):
    """In training mode, zero each element with probability ``p`` and scale the rest by
    ``1/(1-p)``; in evaluation mode (the default, see ``set_train``) return the input.
    ``keep_prob`` is MindSpore's older spelling of ``1 - p``. The layer's ``Dropout``
    primitive takes its seeds when the layer is built and draws the next mask of its own
    stream on every call (MindSpore's masks after the same ``set_seed``)."""

    def __init__(self, keep_prob: float = 0.5, p: float | None = None, dtype=mstype.float32):
        super().__init__()
        if p is None:
            if isinstance(keep_prob, bool) or not isinstance(keep_prob, (int, float)):
                raise TypeError(f"For 'Dropout', the 'keep_prob' must be float, but got "
                                f"{type(keep_prob).__name__}.")
            if not 0 < keep_prob <= 1:
                raise ValueError(f"For 'Dropout', the 'keep_prob' must be a number in range "
                                 f"(0, 1], but got {keep_prob}.")
            self.keep_prob = float(keep_prob)
            self.p = 1.0 - self.keep_prob
            self._repr = f"keep_prob={keep_prob}"
        else:
            if isinstance(p, bool) or not isinstance(p, (int, float)):
                raise TypeError(f"For 'Dropout', the 'p' must be float, but got "
                                f"{type(p).__name__}.")
            if not 0 <= p < 1:
                raise ValueError(f"For 'Dropout', the 'p' must be a number in range [0, 1), "
                                 f"but got {p}.")
            self.p = float(p)
            self.keep_prob = 1.0 - self.p
            self._repr = f"p={p}"
        seed0, seed1 = graph_seed(0, "dropout")  # taken when built, as MindSpore's
        self.dropout = ops.Dropout(self.keep_prob, seed0, seed1)

    def construct(self, x):
        if not self.training or self.p == 0:
            return x
        out, _ = self.dropout(x)
        return out

    def extra_repr(self) -> str:
        return self._repr


class Flatten(Cell):
    """Merge the axes ``start_dim..end_dim`` into one (by default all but the first)."""

    def __init__(self, start_dim: int = 1, end_dim: int = -1):
        super().__init__()
        for name, v in (("start_dim", start_dim), ("end_dim", end_dim)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"For 'Flatten', the '{name}' must be int, but got "
                                f"{type(v).__name__}.")
        self.start_dim = start_dim
        self.end_dim = end_dim

    def construct(self, x):
        shape = tuple(x.shape)
        ndim = max(len(shape), 1)
        start, end = self.start_dim, self.end_dim
        for name, v in (("start_dim", start), ("end_dim", end)):
            if not -ndim <= v < ndim:
                raise ValueError(f"For 'Flatten', the '{name}' must be in range [{-ndim}, "
                                 f"{ndim}), but got {v}.")
        start, end = start % ndim, end % ndim
        if start > end:
            raise ValueError(f"For 'Flatten', 'start_dim' {self.start_dim} must not come "
                             f"after 'end_dim' {self.end_dim}.")
        if not shape:
            return ops.reshape(x, (1,))
        merged = int(np.prod(shape[start:end + 1], dtype=np.int64))
        return ops.reshape(x, shape[:start] + (merged,) + shape[end + 1:])


# ------------------------------------------------------------------ Identity

class Identity(Cell):
    """Returns its input."""

    def construct(self, x):
        return x


# ------------------------------------------------------------------ Unfold

def _four(owner: str, name: str, value) -> tuple:
    if not isinstance(value, (tuple, list)) or len(value) != 4 or value[0] != 1 or \
            value[3] != 1 or any(isinstance(v, bool) or not isinstance(v, int) or v < 1
                                 for v in value):
        raise ValueError(f"For '{owner}', the '{name}' must be a tuple or list of 4 positive "
                         f"ints [1, row, col, 1], but got {value!r}.")
    return int(value[1]), int(value[2])


class Unfold(Cell):
    """Image patches (TensorFlow's ExtractImagePatches): ``(N, C, H, W)`` to
    ``(N, k_row*k_col*C, out_rows, out_cols)``, the depth ordered (row, col, channel).
    Computed as one convolution with a one-hot filter, so it differentiates like one."""

    def __init__(self, ksizes, strides, rates, padding: str = "valid"):
        super().__init__()
        self.ksizes = _four("Unfold", "ksizes", ksizes)
        self.strides = _four("Unfold", "strides", strides)
        self.rates = _four("Unfold", "rates", rates)
        if not isinstance(padding, str) or padding.lower() not in ("same", "valid"):
            raise ValueError(f"For 'Unfold', the 'padding' must be 'same' or 'valid', but "
                             f"got {padding!r}.")
        self.padding = padding.lower()

    def _filter(self, channels: int, dtype) -> Tensor:
        kr, kc = self.ksizes
        w = np.zeros((kr * kc * channels, channels, kr, kc), dtype.np_dtype)
        for i, j, c in np.ndindex(kr, kc, channels):
            w[(i * kc + j) * channels + c, c, i, j] = 1
        return Tensor(w, dtype)

    def construct(self, input_x):
        c = input_x.shape[1]
        kr, kc = self.ksizes
        conv = ops.Conv2D(out_channel=kr * kc * c, kernel_size=self.ksizes,
                          pad_mode=self.padding, stride=self.strides, dilation=self.rates)
        return conv(input_x, self._filter(c, input_x.dtype))


# ------------------------------------------------------------------ Pad

def _pad_index(size: int, before: int, after: int, mode: str) -> np.ndarray:
    """Source positions of a padded axis: reflected about the edge elements ('REFLECT') or
    about the edges themselves ('SYMMETRIC')."""
    pos = np.arange(-before, size + after)
    if mode == "REFLECT":
        period = 2 * (size - 1) if size > 1 else 1
        pos = np.abs(pos) % period
        pos = np.where(pos >= size, period - pos, pos)
    else:
        period = 2 * size
        pos = pos % period
        pos = np.where(pos >= size, period - 1 - pos, pos)
    return pos.astype(np.int32)


class Pad(Cell):
    """Pad every axis ``d`` by ``paddings[d] = (before, after)`` with zeros ('CONSTANT') or
    mirrored values ('REFLECT', 'SYMMETRIC')."""

    def __init__(self, paddings, mode: str = "CONSTANT"):
        super().__init__()
        if not isinstance(paddings, tuple):
            raise TypeError(f"For 'Pad', the type of 'paddings' must be tuple, but got "
                            f"{type(paddings).__name__}.")
        bad = next((p for p in paddings if not isinstance(p, (tuple, list))), None)
        if bad is not None:  # (MindSpore's check takes the length of each item)
            raise TypeError(f"For 'Pad', each item of 'paddings' must be a (before, after) "
                            f"pair, but got {type(bad).__name__} in {paddings}.")
        if len(paddings) > 4 or any(len(p) != 2 for p in paddings):
            raise ValueError(f"For 'Pad', the dimension of 'paddings' must be (n, 2) with n "
                             f"<= 4, but got {paddings}.")
        if mode not in ("CONSTANT", "REFLECT", "SYMMETRIC"):
            raise ValueError(f"For 'Pad', the 'mode' must be in ['CONSTANT', 'REFLECT', "
                             f"'SYMMETRIC'], but got {mode}.")
        self.paddings = tuple((int(b), int(a)) for b, a in paddings)
        self.mode = mode

    def construct(self, x):
        if len(self.paddings) != x.ndim:
            raise ValueError(f"For 'Pad', the length of 'paddings' must equal the rank of "
                             f"the input {x.ndim}, but got {len(self.paddings)}.")
        for axis, (before, after) in enumerate(self.paddings):
            if not before and not after:
                continue
            size = x.shape[axis]
            if self.mode == "CONSTANT":
                parts = []
                for count in (before, None, after):
                    if count is None:
                        parts.append(x)
                    elif count:
                        shape = tuple(x.shape[:axis]) + (count,) + tuple(x.shape[axis + 1:])
                        parts.append(ops.zeros(shape, x.dtype))
                x = ops.concat(tuple(parts), axis)
            else:
                index = _pad_index(size, before, after, self.mode)
                x = ops.gather(x, Tensor(index), axis)
        return x


# ------------------------------------------------------------------ ClipByNorm

class Range(Cell):
    """``np.arange(start, limit, delta)`` as a constant Tensor: int32 for integer bounds,
    float32 otherwise (MindSpore deprecates it for ``ops.range``)."""

    def __init__(self, start, limit=None, delta=1):
        super().__init__()
        if delta == 0:
            raise ValueError("For 'Range', the 'delta' can not be zero.")
        data = np.arange(start, limit, delta)
        dtype = mstype.float32 if data.dtype == np.float64 else mstype.int32
        self.result_tensor = Tensor(data, dtype=dtype)

    def construct(self):
        return self.result_tensor


class OneHot(Cell):
    """``ops.one_hot`` as a cell: ``on_value``/``off_value`` of ``dtype`` (float32 by
    default) along the new axis ``axis``; MindSpore deprecates it for ``ops.one_hot``."""

    def __init__(self, axis: int = -1, depth: int = 1, on_value: float = 1.0,
                 off_value: float = 0.0, dtype=mstype.float32):
        super().__init__()
        self.axis = axis
        self.depth = depth
        self.on_value = Tensor(on_value, dtype)
        self.off_value = Tensor(off_value, dtype)

    def construct(self, indices):
        return ops.one_hot(indices, self.depth, self.on_value, self.off_value, self.axis)


class ClipByNorm(Cell):
    """``x * clip_norm / max(||x||_2, clip_norm)``, the norm over ``axis`` (all by default)."""

    def __init__(self, axis=None):
        super().__init__()
        self.axis = () if axis is None else axis

    def construct(self, x, clip_norm):
        w = ops.cast(x, mstype.float32)
        norm = ops.sqrt(ops.reduce_sum(ops.square(w), self.axis, True))
        limit = ops.cast(clip_norm, mstype.float32)
        return ops.div(ops.mul(w, limit), ops.maximum(norm, limit))


class Upsample(Cell):
    """Resize the spatial axes with ``ops.interpolate`` (to ``size`` or by
    ``scale_factor``, with ``mode``)."""

    def __init__(self, size=None, scale_factor=None, mode: str = "nearest",
                 align_corners=None, recompute_scale_factor=None):
        super().__init__()
        self.size = size
        self.scale_factor = scale_factor
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def construct(self, x):
        return ops.interpolate(x, self.size, self.scale_factor, self.mode, self.align_corners,
                               self.recompute_scale_factor)


class _ChannelDropout(Cell):
    """In training mode, zero whole channels with probability ``p`` (``ops.dropout1d/2d/3d``);
    in evaluation mode return the input."""

    _dropout = None

    def __init__(self, p: float = 0.5):
        super().__init__()
        name = type(self).__name__
        if isinstance(p, bool) or not isinstance(p, float):
            raise TypeError(f"For '{name}', the type of 'p' should be 'float', but got type "
                            f"'{type(p).__name__}'.")
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"For '{name}', the 'p' must be a number in range [0, 1], but got "
                             f"{p}.")
        self.p = p

    def construct(self, x):
        if not self.training or self.p == 0.0:
            return x
        return type(self)._dropout(x, self.p)

    def extra_repr(self) -> str:
        return f"p={self.p}"


class Dropout1d(_ChannelDropout):
    """Channel dropout of ``(N, C, L)`` or ``(C, L)`` inputs."""

    _dropout = staticmethod(ops.dropout1d)


class Dropout2d(_ChannelDropout):
    """Channel dropout of ``(N, C, H, W)`` inputs."""

    _dropout = staticmethod(ops.dropout2d)


class Dropout3d(_ChannelDropout):
    """Channel dropout of ``(N, C, D, H, W)`` inputs."""

    _dropout = staticmethod(ops.dropout3d)


class Linear(Dense):
    """``x @ weight.T + bias`` (MindSpore's ``nn.Linear``: ``Dense`` with PyTorch's argument
    names ``in_features``, ``out_features``, ``bias``)."""

    def __init__(self, in_features: int, out_features: int, bias: bool = True,
                 weight_init=None, bias_init=None, dtype=None):
        if not isinstance(bias, bool):
            raise TypeError(f"For 'Linear', the 'has_bias' must be bool, but got "
                            f"{type(bias).__name__}.")
        super().__init__(in_features, out_features, weight_init, bias_init, bias,
                         dtype=mstype.float32 if dtype is None else dtype)
        self.in_features, self.out_features = in_features, out_features

    def extra_repr(self) -> str:
        return f"input_features={self.in_features}, output_features={self.out_features}, " \
               f"has_bias={self.has_bias}"


class Unflatten(Cell):
    """Reshape axis ``axis`` of the input into ``unflattened_size``."""

    def __init__(self, axis: int, unflattened_size):
        super().__init__()
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise TypeError(f"For 'Unflatten', the 'axis' must be int, but got "
                            f"{type(axis).__name__}.")
        if not isinstance(unflattened_size, (list, tuple)):
            raise TypeError(f"For 'Unflatten', the 'unflattended_size' must be list or tuple, "
                            f"but got {type(unflattened_size).__name__}.")
        self.axis = axis
        self.unflattened_size = tuple(unflattened_size)

    def construct(self, input_x):
        shape = input_x.shape
        axis = self.axis % len(shape)
        return ops.reshape(input_x, shape[:axis] + self.unflattened_size + shape[axis + 1:])


class Roll(Cell):
    """Roll the input by ``shift`` along ``axis`` (ints, or lists of equal length)."""

    def __init__(self, shift, axis):
        super().__init__()
        for name, v in (("shift", shift), ("axis", axis)):
            if isinstance(v, bool) or not isinstance(v, (int, tuple, list)):
                raise TypeError(f"For 'Roll', the '{name}' must be int, tuple or list, but got "
                                f"{type(v).__name__}.")
        self.shift = list(shift) if isinstance(shift, (tuple, list)) else [shift]
        self.axis = list(axis) if isinstance(axis, (tuple, list)) else [axis]
        if len(self.shift) != len(self.axis):
            raise ValueError(f"For 'Roll', the shape of 'shift' and the shape of 'axis' must be "
                             f"the same, but got the length of 'shift' {len(self.shift)} and "
                             f"the length of 'axis' {len(self.axis)}.")

    def construct(self, input_x):
        rank = input_x.ndim
        for shift, axis in zip(self.shift, self.axis):
            if not -rank <= axis < rank:
                raise ValueError(f"For 'Roll', the 'axis' must be in range of [{-rank}, {rank}),"
                                 f" but got {axis}.")
            input_x = ops.roll(input_x, shift, axis % rank)
        return input_x


class Norm(Cell):
    """``sqrt(sum(x^2))`` over ``axis`` (every axis for ``()``)."""

    def __init__(self, axis=(), keep_dims: bool = False):
        super().__init__()
        if not isinstance(keep_dims, bool):
            raise TypeError(f"For 'Norm', the 'keep_dims' must be bool, but got "
                            f"{type(keep_dims).__name__}.")
        self.axis = axis
        self.keep_dims = keep_dims

    def construct(self, x):
        axis = self.axis if self.axis != () else tuple(range(x.ndim))
        return ops.sqrt(ops.reduce_sum(ops.square(x), axis, keep_dims=self.keep_dims))

    def extra_repr(self) -> str:
        return f"axis={self.axis}, keep_dims={self.keep_dims}"


class L1Regularizer(Cell):
    """``scale * sum(|weights|)``."""

    def __init__(self, scale):
        super().__init__()
        if isinstance(scale, bool) or not isinstance(scale, (int, float)):
            raise TypeError(f"For 'L1Regularizer', the 'scale' must be int or float, but got "
                            f"{type(scale).__name__}.")
        if math.isinf(scale) or math.isnan(scale):
            raise ValueError(f"For 'L1Regularizer', the 'scale' can not be INF or NAN, but got "
                             f"{scale}.")
        if scale <= 0:
            raise ValueError(f"For 'L1Regularizer', the 'scale' must be greater than 0, but got "
                             f"{scale}.")
        self.scale = Tensor(scale, mstype.float32)

    def construct(self, weights):
        return ops.mul(self.scale, ops.reduce_sum(ops.abs(weights)))
