"""``mint.optim.AdamW``: ``experimental.optim.AdamW`` with mint's argument type checks."""
from __future__ import annotations

from ...experimental.optim import adamw as experimental
from ...experimental.optim.checks import check_type


def check_mint_adam_args(owner: str, lr, betas, eps, weight_decay, amsgrad, maximize) -> None:
    """mint's type checks: float ``lr``, ``eps``, ``weight_decay``, a pair of float
    ``betas``, bool flags."""
    check_type("betas", betas, (tuple,), owner)
    if len(betas) != 2:
        raise ValueError(f"For '{owner}', the betas size should be in : [2], but got "
                         f"{len(betas)}.")
    for name, value in (("betas[0]", betas[0]), ("betas[1]", betas[1]), ("eps", eps),
                        ("weight_decay", weight_decay), ("lr", lr)):
        check_type(name, value, (float,), owner)
    check_type("amsgrad", amsgrad, (bool,), owner)
    check_type("maximize", maximize, (bool,), owner)


class AdamW(experimental.AdamW):
    """State ``exp_avg.<w>``, ``exp_avg_sq.<w>``, ``max_exp_avg_sq.<w>`` and ``state_step``."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False):
        check_mint_adam_args(type(self).__name__, lr, betas, eps, weight_decay, amsgrad,
                             maximize)
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)

    def keeps_max(self, amsgrad: bool) -> bool:
        """mint's AdamW holds ``max_exp_avg_sq`` only for AMSGrad."""
        return any_amsgrad(self, amsgrad)


def any_amsgrad(optimizer, amsgrad: bool) -> bool:
    """Whether the optimizer or one of its groups uses AMSGrad."""
    return bool(amsgrad) or any(g.get("amsgrad") for g in optimizer.param_groups)
