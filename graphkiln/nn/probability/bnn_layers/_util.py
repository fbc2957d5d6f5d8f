"""Checks of the prior and posterior factories given to the Bayesian layers."""
from __future__ import annotations

from ....common.tensor import Tensor
from ...cell import Cell


def check_prior(prior_fn, arg_name: str) -> Cell:
    """The prior Cell (``prior_fn`` itself or what it makes); it must hold one Normal
    with a constant mean and sd."""
    prior = prior_fn if isinstance(prior_fn, Cell) else prior_fn()
    for cell_name, dist in prior.name_cells().items():
        if cell_name != "normal":
            raise TypeError(f"The type of distribution of `{arg_name}` must be `normal`")
        if not (isinstance(dist._mean_value, Tensor)
                and isinstance(dist._sd_value, Tensor)):
            raise TypeError(f"The input form of `{arg_name}` is incorrect")
    return prior


def check_posterior(posterior_fn, shape, param_name: str, arg_name: str) -> Cell:
    """``posterior_fn(shape=shape, name=param_name)``; it must hold one Normal."""
    try:
        posterior = posterior_fn(shape=shape, name=param_name)
    except TypeError:
        raise TypeError(f"The type of `{arg_name}` must be `NormalPosterior`") from None
    for cell_name in posterior.name_cells():
        if cell_name != "normal":
            raise TypeError(f"The type of distribution of `{arg_name}` must be `normal`")
    return posterior
