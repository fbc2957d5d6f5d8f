"""Text transforms (``mindspore.dataset.text.transforms``) on NumPy string and number arrays;
the tokenizers live in tokenizers.py and are re-exported here, as MindSpore's module has
them."""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ..transforms.transforms import TensorOperation
from . import tokenizers as _tokenizers
from .checks import check_bool, check_str
from .patterns import compile_pattern, replacement
from .tokenizers import *  # noqa: F403 - every tokenizer, listed in tokenizers.__all__
from .tokenizers import case_fold, check_normalize_form, check_vocab, compact, normalize
from .utils import NormalizeForm
from .vectors import ToVectors

__all__ = [
    *_tokenizers.__all__,
    "Lookup",
    "CaseFold",
    "NormalizeUTF8",
    "RegexReplace",
    "Ngram",
    "SlidingWindow",
    "ToNumber",
    "TruncateSequencePair",
    "Truncate",
    "AddToken",
    "ToVectors",
]


def _strings(x, op: str) -> np.ndarray:
    x = np.asarray(x)
    if x.dtype.kind == "S":
        return np.char.decode(x, "utf-8")
    if x.dtype.kind != "U":
        raise RuntimeError(f"{op}: the input should be strings, got dtype {x.dtype}.")
    return x


def _per_string(x, op: str, fn) -> np.ndarray:
    x = _strings(x, op)
    return np.array([fn(s) for s in x.ravel().tolist()], dtype=str).reshape(x.shape)


def _numeric_type(data_type, name: str = "data_type") -> np.dtype:
    """The NumPy dtype of a numeric MindSpore (or NumPy) type; anything else a TypeError."""
    dtype = None
    if data_type is not None:
        try:
            dtype = np.dtype(mstype.to_type(data_type).np_dtype)
        except (TypeError, AttributeError):
            pass
    if dtype is None or dtype.kind not in "iufb":
        raise TypeError(f"Argument {name} with value {data_type!r} is not a numeric MindSpore "
                        "type.")
    return dtype


def _positive_int(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"Argument {name} with value {value!r} is not of type "
                        f"[<class 'int'>], but got {type(value)}.")
    if value <= 0:
        raise ValueError(f"Input {name} is not within the required interval of "
                         "[1, 2147483647].")
    return value


class Lookup(TensorOperation):
    """Words to ids of ``vocab``; unknown words get the id of ``unknown_token`` (an error
    when it is ``None``)."""

    def __init__(self, vocab, unknown_token: str | None = None, data_type=mstype.int32):
        self.table = check_vocab(vocab).vocab()
        if unknown_token is not None:
            check_str(unknown_token, "unknown_token")
        self.unknown_token = unknown_token  # MindSpore checks it is in vocab when it runs
        self.data_type = data_type  # MindSpore checks it when the op runs

    @property
    def np_dtype(self) -> np.dtype:
        try:
            return _numeric_type(self.data_type)
        except TypeError as exc:
            raise RuntimeError(f"Lookup: {exc}") from None

    def _id(self, word: str, unknown_id: int | None) -> int:
        idx = self.table.get(word, unknown_id)
        if idx is None:
            raise RuntimeError(f"Lookup: {word!r} is not in vocab and no unknown_token is "
                               "given.")
        return idx

    def _apply(self, x):
        x = _strings(x, "Lookup")
        unknown_id = None
        if self.unknown_token is not None:
            if self.unknown_token not in self.table:
                raise RuntimeError(f"Lookup: unknown_token {self.unknown_token!r} is not in "
                                   "vocab.")
            unknown_id = self.table[self.unknown_token]
        ids = [self._id(w, unknown_id) for w in x.ravel().tolist()]
        return np.array(ids, dtype=np.int64).reshape(x.shape).astype(self.np_dtype)


class CaseFold(TensorOperation):
    """Unicode case folding of each string."""

    def _apply(self, x):
        return _per_string(x, "CaseFold", case_fold)


class NormalizeUTF8(TensorOperation):
    """Unicode normalization (``NormalizeForm``) of each string."""

    def __init__(self, normalize_form=NormalizeForm.NFKC):
        self.normalize_form = check_normalize_form(normalize_form, "normalize_form")

    def _apply(self, x):
        return _per_string(x, "NormalizeUTF8", lambda s: normalize(s, self.normalize_form))


class RegexReplace(TensorOperation):
    """Matches of ``pattern`` replaced by ``replace`` (``$1`` names a group), all of them or
    only the first."""

    def __init__(self, pattern: str, replace: str, replace_all: bool = True):
        self.pattern = check_str(pattern, "pattern")  # compiled when the op runs
        self.replace = replacement(check_str(replace, "replace"))
        self.count = 0 if check_bool(replace_all, "replace_all") else 1

    def _apply(self, x):
        return _per_string(x, "RegexReplace",
                           lambda s: compile_pattern(self.pattern).sub(self.replace, s,
                                                                       count=self.count))


def _pad(pad, name: str) -> tuple[str, int]:
    if not isinstance(pad, tuple):
        raise TypeError(f"Argument {name} with value {pad!r} is not of type [<class 'tuple'>].")
    if len(pad) != 2:
        raise ValueError(f"{name} should be a tuple of length 2: (pad token, pad width).")
    if not isinstance(pad[0], str) or isinstance(pad[1], bool) or not isinstance(pad[1], int):
        raise TypeError(f"Argument {name} with value {pad!r} is not a tuple of (str, int).")
    if pad[1] < 0:
        raise ValueError(f"padding width in {name} should be non-negative.")
    return pad


class Ngram(TensorOperation):
    """The n-grams of a 1-D string array for each n in ``n``, joined by ``separator``;
    ``left_pad``/``right_pad`` = (token, width) pad each side (width at most n - 1)."""

    def __init__(self, n, left_pad=("", 0), right_pad=("", 0), separator: str = " "):
        ns = [n] if isinstance(n, int) and not isinstance(n, bool) else n
        if not isinstance(ns, list) or not ns:
            raise TypeError(f"Argument n with value {n!r} is not of type [<class 'int'>, "
                            "<class 'list'>].")
        self.ns = [_positive_int(k, "n") for k in ns]
        self.left_pad, self.right_pad = _pad(left_pad, "left_pad"), _pad(right_pad, "right_pad")
        self.separator = check_str(separator, "separator")

    def _apply(self, x):
        words = _strings(x, "Ngram")
        if words.ndim != 1:
            raise RuntimeError(f"Ngram: the input should be 1-D, got shape {list(words.shape)}.")
        out = []
        for n in self.ns:
            seq = [self.left_pad[0]] * min(self.left_pad[1], n - 1) + words.tolist() + \
                [self.right_pad[0]] * min(self.right_pad[1], n - 1)
            grams = [self.separator.join(seq[i:i + n]) for i in range(len(seq) - n + 1)]
            out += grams or [""]  # MindSpore: an n with no n-gram gives one ""
        return np.array(out, dtype=str)


class SlidingWindow(TensorOperation):
    """Windows of ``width`` consecutive elements of a 1-D array (shape [N - width + 1,
    width])."""

    def __init__(self, width: int, axis: int = 0):
        self.width = _positive_int(width, "width")
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise TypeError(f"Argument axis with value {axis!r} is not of type [<class 'int'>].")
        self.axis = axis

    def _apply(self, x):
        x = np.asarray(x)
        if x.ndim != 1 or self.axis not in (0, -1):
            raise RuntimeError("SlidingWindow: only 1-D input along axis 0 is supported, got "
                               f"shape {list(x.shape)}.")
        count = len(x) - self.width + 1
        if count <= 0:  # MindSpore gives an empty 1-D array
            return compact(np.empty(0, x.dtype))
        return compact(np.stack([x[i:i + self.width] for i in range(count)]))


class ToNumber(TensorOperation):
    """Strings parsed as numbers of ``data_type``."""

    def __init__(self, data_type):
        self.np_dtype = _numeric_type(data_type)

    def _apply(self, x):
        x = _strings(x, "ToNumber")
        out = np.empty(x.shape, self.np_dtype)
        for i, s in enumerate(x.ravel().tolist()):
            try:
                value = float(s) if self.np_dtype.kind == "f" else int(s)
            except ValueError:
                raise RuntimeError(f"ToNumber: {s!r} is not a valid {self.np_dtype} number.") \
                    from None
            if self.np_dtype.kind in "iu" and not (np.iinfo(self.np_dtype).min <= value <=
                                                   np.iinfo(self.np_dtype).max):
                raise RuntimeError(f"ToNumber: {s!r} is out of bounds for {self.np_dtype}.")
            out.flat[i] = value
        return out


class TruncateSequencePair(TensorOperation):
    """Two 1-D arrays cut, the longer first (the second on ties), until their lengths sum to
    at most ``max_length``."""

    def __init__(self, max_length: int):
        if isinstance(max_length, bool) or not isinstance(max_length, int):
            raise TypeError(f"Argument max_length with value {max_length!r} is not of type "
                            "[<class 'int'>].")
        self.max_length = max_length

    def _apply(self, a, b):
        a, b = np.asarray(a), np.asarray(b)
        na, nb = len(a), len(b)
        while na + nb > max(self.max_length, 0):
            if na > nb:
                na -= 1
            else:
                nb -= 1
        return compact(a[:na]), compact(b[:nb])


class Truncate(TensorOperation):
    """A 1-D (or 2-D, along its last axis) sequence cut to ``max_seq_len``."""

    def __init__(self, max_seq_len: int):
        self.max_seq_len = _positive_int(max_seq_len, "max_seq_len")

    def _apply(self, x):
        x = np.asarray(x)
        if x.ndim not in (1, 2):
            raise RuntimeError(f"Truncate: the input should be 1-D or 2-D, got shape "
                               f"{list(x.shape)}.")
        return compact(x[..., :self.max_seq_len])


class AddToken(TensorOperation):
    """``token`` added at the beginning (or end) of a 1-D string array."""

    def __init__(self, token: str, begin: bool = True):
        self.token = check_str(token, "token")
        self.begin = check_bool(begin, "begin")

    def _apply(self, x):
        x = _strings(x, "AddToken")
        if x.ndim != 1:
            raise RuntimeError(f"AddToken: the input should be 1-D, got shape {list(x.shape)}.")
        parts = [[self.token], x.tolist()] if self.begin else [x.tolist(), [self.token]]
        return np.array(parts[0] + parts[1], dtype=str)
