"""Every primitive's definition; importing this package fills the registry (the structural
primitives are defined by the IR layer, :mod:`graphkiln.ir.structural_prims`)."""
from ...ir import structural_prims  # noqa: F401
from . import (  # noqa: F401
    array,
    collective,
    conv,
    grad_ops,
    gradient,
    introspect,
    math,
    nn,
    norm,
    optim,
    optim_sparse,
    pool,
    scalar,
    scatter,
    side_effects,
    summary,
)
