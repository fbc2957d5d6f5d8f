"""Bayesian dense layers: weights (and bias) drawn from a trainable Normal posterior at
every call; ``compute_kl_loss`` gives KL(prior || posterior) summed over the weights."""
from __future__ import annotations

import graphkiln.ops as ops

from ...activation import get_activation
from ...cell import Cell
from ..distribution.normal import Normal
from ._util import check_posterior, check_prior
from .layer_distribution import NormalPrior, normal_post_fn


def _check_positive_int(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"The '{name}' must be a positive int, but got {value!r}.")
    return value


class _Variational(Cell):
    """What the dense and convolutional Bayesian layers share: the prior/posterior pairs
    of the weight and bias, the sampled bias and the KL loss."""

    def _set_distributions(self, weight_shape, has_bias: bool, weight_prior_fn,
                           weight_posterior_fn, bias_prior_fn, bias_posterior_fn) -> None:
        if not isinstance(has_bias, bool):
            raise TypeError(f"The 'has_bias' must be bool, but got {type(has_bias).__name__}.")
        self.has_bias = has_bias
        self.weight_prior = check_prior(weight_prior_fn, "weight_prior_fn")
        self.weight_posterior = check_posterior(weight_posterior_fn, shape=weight_shape,
                                                param_name="bnn_weight",
                                                arg_name="weight_posterior_fn")
        if has_bias:
            self.bias_prior = check_prior(bias_prior_fn, "bias_prior_fn")
            self.bias_posterior = check_posterior(bias_posterior_fn, shape=[self.out_channels],
                                                  param_name="bnn_bias",
                                                  arg_name="bias_posterior_fn")

    def apply_variational_bias(self, inputs):
        return ops.bias_add(inputs, self.bias_posterior("sample"))

    def compute_kl_loss(self):
        """KL(prior || posterior), summed, of the weight (and the bias)."""
        pairs = [(self.weight_prior, self.weight_posterior)]
        if self.has_bias:
            pairs.append((self.bias_prior, self.bias_posterior))
        total = 0
        for prior, posterior in pairs:
            args = posterior("get_dist_args")
            kl = prior("kl_loss", posterior("get_dist_type"), *args)
            total = total + ops.reduce_sum(kl)
        return total

    def _posterior_repr(self) -> str:
        s = (f"weight_mean={self.weight_posterior.mean}, "
             f"weight_std={self.weight_posterior.untransformed_std}, has_bias={self.has_bias}")
        if self.has_bias:
            s += (f", bias_mean={self.bias_posterior.mean}, "
                  f"bias_std={self.bias_posterior.untransformed_std}")
        return s


class _DenseVariational(_Variational):
    def __init__(self, in_channels: int, out_channels: int, activation=None,
                 has_bias: bool = True, weight_prior_fn=NormalPrior,
                 weight_posterior_fn=normal_post_fn, bias_prior_fn=NormalPrior,
                 bias_posterior_fn=normal_post_fn):
        super().__init__()
        self.in_channels = _check_positive_int("in_channels", in_channels)
        self.out_channels = _check_positive_int("out_channels", out_channels)
        self._set_distributions([self.out_channels, self.in_channels], has_bias,
                                weight_prior_fn, weight_posterior_fn, bias_prior_fn,
                                bias_posterior_fn)
        if not activation:
            self.activation, self.activation_flag = activation, False
        elif isinstance(activation, str):
            self.activation, self.activation_flag = get_activation(activation), True
        elif isinstance(activation, Cell):
            self.activation, self.activation_flag = activation, True
        else:
            raise ValueError("The type of `activation` is wrong.")

    def construct(self, x):
        outputs = self._apply_variational_weight(x)
        if self.has_bias:
            outputs = self.apply_variational_bias(outputs)
        if self.activation_flag:
            outputs = self.activation(outputs)
        return outputs

    def extend_repr(self) -> str:
        s = f"in_channels={self.in_channels}, out_channels={self.out_channels}, "
        s += self._posterior_repr()
        if self.activation_flag:
            s += f", activation={self.activation}"
        return s


class DenseReparam(_DenseVariational):
    """Dense layer whose weight is sampled from its posterior (reparameterization)."""

    def _apply_variational_weight(self, inputs):
        return ops.matmul(inputs, ops.transpose(self.weight_posterior("sample"), (1, 0)))


class DenseLocalReparam(_DenseVariational):
    """Dense layer sampling its pre-activations from the Normal the posterior weights
    induce (local reparameterization)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.normal = Normal()

    def _apply_variational_weight(self, inputs):
        mean = ops.matmul(inputs, ops.transpose(self.weight_posterior("mean"), (1, 0)))
        var = ops.matmul(ops.square(inputs),
                         ops.transpose(ops.square(self.weight_posterior("sd")), (1, 0)))
        return self.normal("sample", mean=mean, sd=ops.sqrt(var))
