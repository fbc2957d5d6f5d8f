"""``NoRepeatNGram(ngram_size)(state_seq, log_probs)`` (beam search): for each sequence of
``state_seq`` ``(batch, beams, length)``, every token that followed an earlier occurrence of
the sequence's last ``ngram_size - 1`` tokens gets the lowest value of ``log_probs``' dtype
in that beam's row of ``log_probs`` ``(batch, beams, vocabulary)``, so that no n-gram
repeats."""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor
from ...ir.primitive import OpDef
from ._infer import IEEE_FLOATS, dims_match, quiet, tensor_type

_NAME = "NoRepeatNGram"


def _check_attrs(attrs: dict) -> None:
    n = attrs.get("ngram_size", 1)
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"For '{_NAME}', the type of 'ngram_size' should be 'int', but got type "
                        f"'{type(n).__name__}'.")
    if n < 1:
        raise ValueError(f"For '{_NAME}', the 'ngram_size' must be int and must >= 1, but got "
                         f"'{n}' with type 'int'.")


def _types(arg: str, a, allowed) -> None:
    t = tensor_type(_NAME, arg, a)
    if t not in allowed:
        names = ", ".join(f"Tensor[{x}]" for x in allowed)
        raise TypeError(f"For primitive[{_NAME}], the input argument[{arg}] must be a type of "
                        f"{{{names}}}, but got Tensor[{t}].")


def _infer(state_seq, log_probs, ngram_size=1):
    _types("seq_type", state_seq, (mstype.int32,))
    _types("log_types", log_probs, IEEE_FLOATS)
    for arg, a in (("state_seq", state_seq), ("log_probs", log_probs)):
        if len(a.shape) != 3:
            raise ValueError(f"For primitive[{_NAME}], the rank of {arg} must be equal to 3, but "
                             f"got {len(a.shape)}.")
    for i in (0, 1):
        if not dims_match(state_seq.shape[i], log_probs.shape[i]):
            raise ValueError(f"For primitive[{_NAME}], the state_seq shape[{i}] must be equal to "
                             f"log_probs shape[{i}] which is {log_probs.shape[i]} , but got "
                             f"{state_seq.shape[i]}.")
    length = state_seq.shape[2]
    if length >= 0 and ngram_size > length:
        raise ValueError(f"For primitive[{_NAME}], the ngram_size must be less than or equal to "
                         f"state_seq shape[2] + 1 which is {length} , but got {ngram_size}.")
    return AbstractTensor(log_probs.dtype, log_probs.shape)


@quiet
def _no_repeat(state_seq, log_probs, ngram_size=1):
    length = state_seq.shape[-1]
    if ngram_size >= length:
        raise RuntimeError(f"For '{_NAME}', the 'ngram_size' {ngram_size} must be less than the "
                           f"sequence length {length} (Param ngram_size is illegal).")
    out = log_probs.copy()
    lowest = np.finfo(out.dtype).min
    n = ngram_size
    windows = np.lib.stride_tricks.sliding_window_view(state_seq, n, axis=-1)
    # windows[..., j, :] = state_seq[..., j:j + n], j <= length - n
    prefix = state_seq[..., length - n + 1:]
    seen = np.all(windows[..., :n - 1] == prefix[..., None, :], axis=-1)
    b, k, j = np.nonzero(seen)
    out[b, k, windows[b, k, j, n - 1]] = lowest
    return out


NoRepeatNGram = OpDef(_NAME, _infer, _no_repeat, differentiable=False,
                      attrs={"ngram_size": 1}, check_attrs=_check_attrs)
