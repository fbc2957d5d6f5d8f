"""``mindspore.ops.auto_generate``: the modules MindSpore generates its ops into
(``gen_ops_prim``: primitive classes, ``gen_ops_def``: functional ops). graphkiln's ops are
written by hand; these paths give the same objects as ``graphkiln.ops``."""
from .gen_ops_def import *  # noqa: F401,F403
from .gen_ops_prim import *  # noqa: F401,F403
from .gen_ops_prim import __getattr__  # noqa: F401  (the ``<op name>_op`` instances)
