"""Normalisation layers: ``BatchNorm1d/2d/3d``, ``SyncBatchNorm``, ``LayerNorm``,
``GroupNorm``, ``InstanceNorm1d/2d/3d`` (MindSpore's arguments, defaults and parameter
names).

BatchNorm's moving statistics are Parameters (``mean``, ``variance``) written with
``Assign`` inside the graph when batch statistics are used: in training mode
(``set_train()``) unless ``use_batch_statistics`` says otherwise.
"""
from __future__ import annotations

import numpy as np

import graphkiln.nn.init as _init
import graphkiln.ops as ops

from ..common import comm_engine
from ..common import dtype as mstype
from ..common.parameter import Parameter
from ..ops.defs.collective import WORLD_COMM_GROUP, AllReduce, ReduceOp
from ..ops.defs.norm import BatchNorm as _BatchNormOp
from ..ops.defs.norm import stat_axes
from .basic import check_positive_int
from .cell import Cell


def _check_float_range(owner: str, name: str, value, lo: float, hi: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"For '{owner}', the '{name}' must be float, but got "
                        f"{type(value).__name__}.")
    if not lo <= value <= hi:
        raise ValueError(f"For '{owner}', the '{name}' must be in range [{lo}, {hi}], but "
                         f"got {value}.")
    return float(value)


def _check_eps(owner: str, eps) -> float:
    if isinstance(eps, bool) or not isinstance(eps, (int, float)) or eps <= 0:
        raise ValueError(f"For '{owner}', the 'eps' must be a float greater than 0, but got "
                         f"{eps!r}.")
    return float(eps)


class _BatchNorm(Cell):
    """Shared body of the BatchNorm layers; subclasses give the accepted input ranks."""

    _ranks: tuple = ()
    keep_fp32_weights = True

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.9,
                 affine: bool = True, gamma_init="ones", beta_init="zeros",
                 moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics=None, data_format: str = "NCHW",
                 dtype=mstype.float32):
        super().__init__()
        name = type(self).__name__
        self.num_features = check_positive_int(name, "num_features", num_features)
        self.eps = _check_eps(name, eps)
        self.momentum = _check_float_range(name, "momentum", momentum, 0.0, 1.0)
        if data_format not in ("NCHW", "NHWC", "NCDHW"):
            raise ValueError(f"For '{name}', the 'data_format' must be 'NCHW' or 'NHWC', but "
                             f"got {data_format}.")
        if data_format == "NHWC":
            raise ValueError(f"For '{name}', the 'NHWC' format only support in GPU target, "
                             f"but got device target CPU.")
        if use_batch_statistics is not None and not isinstance(use_batch_statistics, bool):
            raise ValueError(f"For '{name}', the 'use_batch_statistics' must be a boolean "
                             f"value or None, but got {use_batch_statistics}.")
        self.use_batch_statistics = use_batch_statistics
        self.affine = bool(affine)
        shape = (num_features,)
        self.moving_mean = Parameter(_init.initializer(moving_mean_init, shape, dtype),
                                     name="mean", requires_grad=False)
        self.moving_variance = Parameter(_init.initializer(moving_var_init, shape, dtype),
                                         name="variance", requires_grad=False)
        self.gamma = Parameter(_init.initializer(gamma_init, shape, dtype), name="gamma",
                               requires_grad=self.affine)
        self.beta = Parameter(_init.initializer(beta_init, shape, dtype), name="beta",
                              requires_grad=self.affine)
        self.bn_train = _BatchNormOp
        self.train_attrs = {"is_training": True, "epsilon": self.eps,
                            "momentum": 1.0 - self.momentum}
        self.infer_attrs = {"is_training": False, "epsilon": self.eps,
                            "momentum": 1.0 - self.momentum}

    def _check_input(self, x) -> None:
        if x.ndim not in self._ranks:
            want = " or ".join(str(r) for r in self._ranks)
            raise ValueError(f"For '{type(self).__name__}', the dimension of 'x' must be "
                             f"{want}, but got {x.ndim}.")

    def construct(self, x):
        self._check_input(x)
        use_batch = self.training if self.use_batch_statistics is None \
            else self.use_batch_statistics
        if not use_batch:
            out = self.bn_train(x, self.gamma, self.beta, self.moving_mean,
                                self.moving_variance, **self.infer_attrs)
            return out[0]
        y, mean, var, _, _ = self.bn_train(x, self.gamma, self.beta, self.moving_mean,
                                           self.moving_variance, **self.train_attrs)
        return self._after_moving_update(y, mean, var)

    def _after_moving_update(self, y, mean, unbiased_var):
        """``y`` once the moving statistics have taken in this batch's ``mean`` and
        ``unbiased_var`` (``moving = momentum * moving + (1 - momentum) * batch``)."""
        keep, new = self.momentum, 1.0 - self.momentum
        update_mean = ops.assign(self.moving_mean, ops.add(
            ops.mul(self.moving_mean, keep), ops.mul(mean, new)))
        update_var = ops.assign(self.moving_variance, ops.add(
            ops.mul(self.moving_variance, keep), ops.mul(unbiased_var, new)))
        return ops.depend(ops.depend(y, update_mean), update_var)

    def extra_repr(self) -> str:
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"gamma={self.gamma!r}, beta={self.beta!r}, moving_mean={self.moving_mean!r}, "
                f"moving_variance={self.moving_variance!r}")


class BatchNorm1d(_BatchNorm):
    """Batch normalisation over ``(N, C)`` or ``(N, C, L)`` inputs."""

    _ranks = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Batch normalisation over ``(N, C, H, W)`` inputs."""

    _ranks = (4,)


class SyncBatchNorm(_BatchNorm):
    """Batch normalisation whose batch statistics cover the whole data-parallel batch:
    each rank's per-channel sums are added over its group with ``AllReduce`` (whose
    gradient is the sum of the ranks' gradients), so every rank normalises with the mean
    and variance of all the ranks' samples and keeps the same moving statistics.

    ``process_groups`` is None (every rank of the world), a list of rank lists (each rank
    syncs with the list that holds it) or 0 (no syncing: plain BatchNorm). With one
    process, or a group of one, it is BatchNorm."""

    _ranks = (2, 3, 4, 5)

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.9,
                 affine: bool = True, gamma_init="ones", beta_init="zeros",
                 moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics=None, process_groups=None, dtype=mstype.float32):
        super().__init__(num_features, eps, momentum, affine, gamma_init, beta_init,
                         moving_mean_init, moving_var_init, use_batch_statistics,
                         dtype=dtype)
        self.process_groups = process_groups
        self.group_name, self.group_device_num = None, 1
        if process_groups == 0:
            return
        world = comm_engine.group(WORLD_COMM_GROUP)
        if process_groups is None:
            if world.size > 1:
                self.group_name, self.group_device_num = WORLD_COMM_GROUP, world.size
            return
        self._join_group(process_groups, world.rank, world.size)

    def _join_group(self, process_groups, rank: int, size: int) -> None:
        if not isinstance(process_groups, list):
            raise TypeError(f"For 'SyncBatchNorm', the 'process_groups' must be a list, but "
                            f"got {type(process_groups).__name__}.")
        seen: set = set()
        for ranks in process_groups:
            if not isinstance(ranks, list):
                raise TypeError(f"For 'SyncBatchNorm', each sub group of 'process_groups' "
                                f"must be a list, but got {type(ranks).__name__}.")
            for r in ranks:
                if not isinstance(r, int) or not 0 <= r < size or r in seen:
                    raise ValueError(f"For 'SyncBatchNorm', the rank ids in "
                                     f"'process_groups' must be distinct ints in "
                                     f"[0, {size}), but got {process_groups}.")
                seen.add(r)
        for ranks in process_groups:  # every rank creates every group, in the same order
            if len(ranks) < 2:
                continue
            name = "sync_bn_" + "_".join(map(str, ranks))
            if name not in comm_engine.world().groups:
                comm_engine.create_group(name, ranks)
            if rank in ranks:
                self.group_name, self.group_device_num = name, len(ranks)

    def construct(self, x):
        if self.group_name is None:
            return super().construct(x)
        self._check_input(x)
        use_batch = self.training if self.use_batch_statistics is None \
            else self.use_batch_statistics
        if not use_batch:
            return self.bn_train(x, self.gamma, self.beta, self.moving_mean,
                                 self.moving_variance, **self.infer_attrs)[0]
        axes = stat_axes(x.ndim)
        sums = AllReduce(ops.stack([ops.reduce_sum(x, axes), ops.reduce_sum(x * x, axes)]),
                         op=ReduceOp.SUM, group=self.group_name)
        count = ops.size(x) // x.shape[1] * self.group_device_num
        mean = sums[0] / count
        var = ops.maximum(sums[1] / count - mean * mean, 0.0)
        shape = (1, -1) + (1,) * (x.ndim - 2)
        scale = self.gamma / ops.sqrt(var + self.eps)
        y = x * scale.reshape(shape) + (self.beta - mean * scale).reshape(shape)
        unbiased = ops.stop_gradient(var * (count / max(count - 1, 1)))
        return self._after_moving_update(y, ops.stop_gradient(mean), unbiased)


class BatchNorm3d(_BatchNorm):
    """Batch normalisation over ``(N, C, D, H, W)`` inputs."""

    _ranks = (5,)

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.9,
                 affine: bool = True, gamma_init="ones", beta_init="zeros",
                 moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics=None, dtype=mstype.float32):
        super().__init__(num_features, eps, momentum, affine, gamma_init, beta_init,
                         moving_mean_init, moving_var_init, use_batch_statistics, "NCDHW",
                         dtype)


class LayerNorm(Cell):
    """Normalise over the axes from ``begin_norm_axis`` on, then scale by ``gamma`` and
    shift by ``beta`` (both of shape ``normalized_shape``)."""

    def __init__(self, normalized_shape, begin_norm_axis: int = -1,
                 begin_params_axis: int = -1, gamma_init="ones", beta_init="zeros",
                 epsilon: float = 1e-7, dtype=mstype.float32):
        super().__init__()
        if not isinstance(normalized_shape, (tuple, list)):
            raise TypeError(f"For 'LayerNorm', the type of 'normalized_shape' must be tuple[int] "
                            f"or list[int], but got {normalized_shape} and the type is "
                            f"{type(normalized_shape)}.")
        if not normalized_shape:
            raise ValueError(f"Expected normalized_shape to be at least 1-dimensional, i.e., "
                             f"containing at least one element, but got normalized_shape = "
                             f"{normalized_shape}")
        self.normalized_shape = normalized_shape
        self.begin_norm_axis = begin_norm_axis
        self.begin_params_axis = begin_params_axis
        self.epsilon = epsilon
        shape = tuple(normalized_shape)
        self.gamma = Parameter(_init.initializer(gamma_init, shape, dtype), name="gamma")
        self.beta = Parameter(_init.initializer(beta_init, shape, dtype), name="beta")
        self.layer_norm = ops.LayerNorm(begin_norm_axis=begin_norm_axis,
                                        begin_params_axis=begin_params_axis, epsilon=epsilon)

    def construct(self, input_x):
        y, _, _ = self.layer_norm(input_x, self.gamma, self.beta)
        return y

    def extra_repr(self) -> str:
        return (f"normalized_shape={self.normalized_shape}, begin_norm_axis="
                f"{self.begin_norm_axis}, begin_params_axis={self.begin_params_axis}, "
                f"gamma={self.gamma!r}, beta={self.beta!r}")


# ------------------------------------------------------------------ GroupNorm

class GroupNorm(Cell):
    """Normalise each of ``num_groups`` channel groups of every example over its channels
    and spatial positions, then scale and shift per channel."""

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5,
                 affine: bool = True, gamma_init="ones", beta_init="zeros",
                 dtype=mstype.float32):
        super().__init__()
        self.num_groups = check_positive_int("GroupNorm", "num_groups", num_groups)
        self.num_channels = check_positive_int("GroupNorm", "num_channels", num_channels)
        if num_channels % num_groups:
            raise ValueError(f"For 'GroupNorm', the 'num_channels' must be divided by "
                             f"'num_groups', but got 'num_channels': {num_channels}, "
                             f"'num_groups': {num_groups}.")
        self.eps = _check_eps("GroupNorm", eps)
        self.affine = bool(affine)
        shape = (num_channels,)
        self.gamma = Parameter(_init.initializer(gamma_init, shape, dtype), name="gamma",
                               requires_grad=self.affine)
        self.beta = Parameter(_init.initializer(beta_init, shape, dtype), name="beta",
                              requires_grad=self.affine)

    def construct(self, x):
        if x.ndim < 2 or x.shape[1] not in (self.num_channels, -1):
            raise ValueError(f"For 'GroupNorm', the input must have {self.num_channels} "
                             f"channels on axis 1, but got shape {list(x.shape)}.")
        shape = tuple(ops.shape(x))  # run-time ints for dynamic dimensions
        grouped = ops.reshape(x, (shape[0], self.num_groups, -1))
        mean = ops.mean(grouped, -1, True)
        centered = ops.sub(grouped, mean)
        var = ops.mean(ops.square(centered), -1, True)
        normed = ops.reshape(ops.mul(centered, ops.rsqrt(ops.add(var, self.eps))), shape)
        param_shape = (1, self.num_channels) + (1,) * (len(shape) - 2)
        return ops.add(ops.mul(normed, ops.reshape(self.gamma, param_shape)),
                       ops.reshape(self.beta, param_shape))

    def extra_repr(self) -> str:
        return f"num_groups={self.num_groups}, num_channels={self.num_channels}"


# ------------------------------------------------------------------ InstanceNorm2d

class _InstanceNorm(Cell):
    """Normalise every channel of every example over its ``spatial`` last axes (in training
    and evaluation alike), then scale and shift per channel. In training the moving
    statistics (``mean``, ``variance``) follow the batch average of the instance
    statistics with ``momentum``. (MindSpore 2.10 has no CPU kernel for these layers.)"""

    spatial = 2

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.1,
                 affine: bool = True, gamma_init="ones", beta_init="zeros",
                 dtype=mstype.float32):
        super().__init__()
        self.num_features = check_positive_int(type(self).__name__, "num_features",
                                               num_features)
        self.eps = _check_eps(type(self).__name__, eps)
        self.momentum = _check_float_range(type(self).__name__, "momentum", momentum, 0.0,
                                           1.0)
        shape = (num_features,)
        self.moving_mean = Parameter(_init.initializer("zeros", shape, dtype), name="mean",
                                     requires_grad=False)
        self.moving_variance = Parameter(_init.initializer("ones", shape, dtype),
                                         name="variance", requires_grad=False)
        self.gamma = Parameter(_init.initializer(gamma_init, shape, dtype), name="gamma",
                               requires_grad=affine)
        self.beta = Parameter(_init.initializer(beta_init, shape, dtype), name="beta",
                              requires_grad=affine)

    def construct(self, x):
        rank = self.spatial + 2
        if x.ndim != rank:
            raise ValueError(f"For '{type(self).__name__}', the dimension of 'x' must be "
                             f"{rank}, but got {x.ndim}.")
        axes = tuple(range(2, rank))
        mean = ops.mean(x, axes, True)
        centered = ops.sub(x, mean)
        var = ops.mean(ops.square(centered), axes, True)
        y = ops.mul(centered, ops.rsqrt(ops.add(var, self.eps)))
        c = (1, self.num_features) + (1,) * self.spatial
        y = ops.add(ops.mul(y, ops.reshape(self.gamma, c)), ops.reshape(self.beta, c))
        if not self.training:
            return y
        m = int(np.prod(x.shape[2:]))
        batch_mean = ops.mean(ops.reshape(mean, (-1, self.num_features)), 0)
        batch_var = ops.mul(ops.mean(ops.reshape(var, (-1, self.num_features)), 0),
                            m / max(m - 1, 1))
        keep = 1.0 - self.momentum
        update_mean = ops.assign(self.moving_mean, ops.add(
            ops.mul(self.moving_mean, keep), ops.mul(batch_mean, self.momentum)))
        update_var = ops.assign(self.moving_variance, ops.add(
            ops.mul(self.moving_variance, keep), ops.mul(batch_var, self.momentum)))
        return ops.depend(ops.depend(y, update_mean), update_var)

    def extra_repr(self) -> str:
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"gamma={self.gamma!r}, beta={self.beta!r}, moving_mean={self.moving_mean!r}, "
                f"moving_variance={self.moving_variance!r}")


class InstanceNorm1d(_InstanceNorm):
    """Instance normalization of an ``(N, C, L)`` input."""

    spatial = 1


class InstanceNorm2d(_InstanceNorm):
    """Instance normalization of an ``(N, C, H, W)`` input."""

    spatial = 2


class InstanceNorm3d(_InstanceNorm):
    """Instance normalization of an ``(N, C, D, H, W)`` input."""

    spatial = 3
