"""Walk the primitive registry with dynamic shapes: on every sample input of
tests/ops/test_registry.py, each dimension of each tensor input in turn is made unknown
(-1), and the op's infer rule must either give the static result with -1 only where a
size became unknown, or raise a clear error (MindSpore's error types, never NumPy's
"negative dimensions")."""
import sys
from pathlib import Path

import pytest

from graphkiln.ir.abstract import AbstractTensor, AbstractTuple
from graphkiln.ir.primitive import REGISTRY, eager_abstract

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_registry import SAMPLES, STRUCTURAL  # noqa: E402

# ops whose output rank or count depends on a size: an unknown one raises an error with
# this phrase (MindSpore gives a dynamic rank or a dynamic length tuple there)
NEEDS_STATIC = {
    "Unstack": "the number of outputs) must be known",
    "GatherNd": "the rank of the output) must be known",
    "TraceV2Grad": "a 1-D Tensor of known length",  # its length is the output's rank
    **{name: "the rank of the output) must be known" for name in (
        "StandardNormal", "RandomPoisson", "RandomGamma", "LstsqV2", "TruncatedNormal",
        "ParameterizedTruncatedNormal")},
}
# ops that assume something about an unknown size, with the reason
ASSUMES = {
    "Squeeze": "with no 'axis' an unknown dimension is kept (taken not to be 1; MindSpore "
               "gives a dynamic rank)",
}

CLEAR_ERRORS = (TypeError, ValueError, RuntimeError, IndexError)


def _symbolic(a):
    """The abstract a tracer would see: no constant value for tensors."""
    if type(a) is AbstractTensor:
        return AbstractTensor(a.dtype, a.shape)
    if isinstance(a, AbstractTuple):
        return AbstractTuple([_symbolic(e) for e in a.elements], a.is_list)
    return a


def _variants(abstracts):
    """``(where, abstracts)`` with one dimension of one (non-weight) tensor input unknown."""
    for i, a in enumerate(abstracts):
        if type(a) is AbstractTensor:
            for d in range(a.ndim):
                shape = a.shape[:d] + (-1,) + a.shape[d + 1:]
                yield (f"input {i} dim {d}",
                       abstracts[:i] + [AbstractTensor(a.dtype, shape)] + abstracts[i + 1:])
        elif isinstance(a, AbstractTuple):
            for j, e in enumerate(a.elements):
                for where, (item,) in _variants([e]):
                    elements = list(a.elements)
                    elements[j] = item
                    yield (f"input {i}[{j}] {where}", abstracts[:i] + [AbstractTuple(
                        elements, a.is_list)] + abstracts[i + 1:])


def _tensors(a) -> list:
    if isinstance(a, AbstractTensor):
        return [a]
    if isinstance(a, AbstractTuple):
        return [t for e in a.elements for t in _tensors(e)]
    return []


def _check(static, dynamic) -> str | None:
    """What is wrong with ``dynamic`` (the result with an unknown input dimension)."""
    want, got = _tensors(static), _tensors(dynamic)
    if len(want) != len(got):
        return f"{len(got)} output tensors instead of {len(want)}"
    for w, g in zip(want, got):
        if g.dtype is not w.dtype or g.ndim != w.ndim or any(
                gd not in (wd, -1) for gd, wd in zip(g.shape, w.shape)):
            return f"{g.dtype}{list(g.shape)} where static gives {w.dtype}{list(w.shape)}"
    return None


def _ops():
    return sorted(n for n in REGISTRY if n not in STRUCTURAL and n in SAMPLES)


@pytest.mark.parametrize("name", _ops())
def test_infer_with_an_unknown_dimension(name):
    opdef = REGISTRY[name]
    problems = []
    for k, (args, attrs) in enumerate(SAMPLES[name]):
        abstracts = [_symbolic(eager_abstract(a)) for a in args]
        try:
            static = opdef.infer(*abstracts, **attrs)
        except CLEAR_ERRORS:  # needs a constant value (a bool mask index)
            continue
        for where, variant in _variants(abstracts):
            try:
                out = opdef.infer(*variant, **attrs)
            except CLEAR_ERRORS as e:
                if name in NEEDS_STATIC and NEEDS_STATIC[name] in str(e):
                    continue
                problems.append(f"sample {k} {where}: {type(e).__name__}: {e}")
                continue
            except Exception as e:  # noqa: BLE001  (a crash is what this test reports)
                problems.append(f"sample {k} {where}: crashed: {type(e).__name__}: {e}")
                continue
            wrong = None if name in ASSUMES else _check(static, out)
            if wrong:
                problems.append(f"sample {k} {where}: {wrong}")
    assert not problems, f"{name}:\n" + "\n".join(problems[:8])
