"""Tokenizers (``mindspore.dataset.text``): a scalar string in, a 1-D string array of tokens
out; ``with_offsets`` adds the tokens' UTF-8 byte start and end (uint32), as MindSpore."""
from __future__ import annotations

import re
import unicodedata

import numpy as np

from ..transforms.transforms import TensorOperation
from .checks import check_bool, check_str
from .patterns import compile_pattern
from .utils import NormalizeForm
from .vocab import Vocab

__all__ = [
    "WhitespaceTokenizer",
    "UnicodeCharTokenizer",
    "RegexTokenizer",
    "BasicTokenizer",
    "WordpieceTokenizer",
    "BertTokenizer",
    "PythonTokenizer",
    "UnicodeScriptTokenizer",
]

Span = tuple[str, int, int]  # token, start char, end char


def as_text(x, op: str) -> str:
    """The scalar string ``x`` (str or UTF-8 bytes)."""
    x = np.asarray(x)
    if x.ndim != 0 or x.dtype.kind not in "US":
        raise RuntimeError(f"{op}: the input should be a scalar string, got dtype {x.dtype} "
                           f"and shape {list(x.shape)}.")
    value = x.item()
    return value.decode("utf-8") if isinstance(value, bytes) else value


def _byte_offsets(text: str, spans: list[Span]):
    starts = [len(text[:s].encode("utf-8")) for _, s, _ in spans]
    ends = [len(text[:e].encode("utf-8")) for _, _, e in spans]
    return np.array(starts, np.uint32), np.array(ends, np.uint32)


def _tokens(spans: list[Span]) -> np.ndarray:
    return np.array([t for t, _, _ in spans], dtype=str)


class _Tokenizer(TensorOperation):
    """Splits a string into spans; subclasses give ``_spans``."""

    def __init__(self, with_offsets: bool = False):
        self.with_offsets = check_bool(with_offsets, "with_offsets")

    def _prepare(self, text: str) -> str:
        """The text the tokens and offsets refer to (MindSpore's offsets count bytes of the
        cleaned, normalized text)."""
        return text

    def _spans(self, text: str) -> list[Span]:
        raise NotImplementedError

    def _apply(self, x):
        text = self._prepare(as_text(x, self.op_name))
        spans = self._spans(text) or [("", 0, 0)]  # MindSpore: no token gives one ""
        if not self.with_offsets:
            return _tokens(spans)
        return (_tokens(spans), *_byte_offsets(text, spans))


def split_spans(text: str, delim: str, keep: str = "") -> list[Span]:
    """Pieces between matches of ``delim``; matches that fully match ``keep`` stay tokens."""
    spans, pos = [], 0
    keep_re = compile_pattern(keep) if keep else None
    for m in compile_pattern(delim).finditer(text):
        if m.start() == m.end():
            continue
        if m.start() > pos:
            spans.append((text[pos:m.start()], pos, m.start()))
        if keep_re is not None and keep_re.fullmatch(m.group()):
            spans.append((m.group(), m.start(), m.end()))
        pos = m.end()
    if pos < len(text):
        spans.append((text[pos:], pos, len(text)))
    return spans


class WhitespaceTokenizer(_Tokenizer):
    """Split on whitespace."""

    def _spans(self, text):
        return split_spans(text, r"\s+")


class UnicodeCharTokenizer(_Tokenizer):
    """One token per code point."""

    def _spans(self, text):
        return [(c, i, i + 1) for i, c in enumerate(text)]


class RegexTokenizer(_Tokenizer):
    """Split at matches of ``delim_pattern``; matches of ``keep_delim_pattern`` stay tokens."""

    def __init__(self, delim_pattern: str, keep_delim_pattern: str = "",
                 with_offsets: bool = False):
        super().__init__(with_offsets)
        self.delim_pattern = check_str(delim_pattern, "delim_pattern")
        self.keep_delim_pattern = check_str(keep_delim_pattern, "keep_delim_pattern")

    def _spans(self, text):
        return split_spans(text, self.delim_pattern, self.keep_delim_pattern)


_UNUSED = re.compile(r"\[(UNK|SEP|CLS|PAD|MASK|unused\d+)\]")


def _is_punctuation(c: str) -> bool:
    o = ord(c)
    if 33 <= o <= 47 or 58 <= o <= 64 or 91 <= o <= 96 or 123 <= o <= 126:
        return True
    return unicodedata.category(c).startswith("P")


def _is_cjk(c: str) -> bool:
    o = ord(c)
    return any(lo <= o <= hi for lo, hi in (
        (0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F),
        (0x2B740, 0x2B81F), (0x2B820, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F)))


def check_normalize_form(value, name: str) -> NormalizeForm:
    if not isinstance(value, NormalizeForm):
        raise TypeError(f"Argument {name} with value {value!r} is not of type "
                        "[<enum 'NormalizeForm'>].")
    return value


def normalize(text: str, form: NormalizeForm) -> str:
    form = NormalizeForm(form)
    return text if form == NormalizeForm.NONE else unicodedata.normalize(form.name, text)


def _clean(text: str) -> str:
    """BERT's cleaning: whitespace characters become spaces, control characters go."""
    return "".join(" " if c.isspace() else c for c in text
                   if c.isspace() or unicodedata.category(c) not in ("Cc", "Cf"))


def case_fold(text: str) -> str:
    """ICU's NFKC case folding: format characters dropped, case folded, NFKC."""
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")
    return unicodedata.normalize("NFKC", text.casefold())


def compact(a: np.ndarray) -> np.ndarray:
    """A string array as MindSpore gives it: as wide as its longest string (at least 1)."""
    if a.dtype.kind != "U":
        return a
    width = int(np.char.str_len(a).max()) if a.size else 1
    return a.astype(f"U{max(width, 1)}")


def _lower_strip_accents(text: str) -> str:
    text = unicodedata.normalize("NFD", case_fold(text))
    return "".join(c for c in text if unicodedata.category(c) != "Mn")


class BasicTokenizer(_Tokenizer):
    """BERT's basic tokenizer: split on whitespace, punctuation and CJK characters;
    ``lower_case`` folds case and strips accents, else ``normalization_form`` applies."""

    def __init__(self, lower_case: bool = False, keep_whitespace: bool = False,
                 normalization_form=NormalizeForm.NONE, preserve_unused_token: bool = True,
                 with_offsets: bool = False):
        super().__init__(with_offsets)
        self.lower_case = check_bool(lower_case, "lower_case")
        self.keep_whitespace = check_bool(keep_whitespace, "keep_whitespace")
        self.normalization_form = check_normalize_form(normalization_form,
                                                       "normalization_form")
        self.preserve_unused_token = check_bool(preserve_unused_token,
                                                 "preserve_unused_token")

    def _prepare(self, text):
        text = _clean(text)
        return _lower_strip_accents(text) if self.lower_case else \
            normalize(text, self.normalization_form)

    def _spans(self, text):
        spans: list[Span] = []
        i, start = 0, None
        while i < len(text):
            m = _UNUSED.match(text, i) if self.preserve_unused_token else None
            c = text[i]
            single = m is not None or c.isspace() or _is_punctuation(c) or _is_cjk(c)
            if not single:
                start = i if start is None else start
                i += 1
                continue
            if start is not None:
                spans.append((text[start:i], start, i))
                start = None
            end = m.end() if m is not None else i + 1
            if c.isspace() and m is None:
                while end < len(text) and text[end].isspace():
                    end += 1
                if self.keep_whitespace:
                    spans.append((text[i:end], i, end))
            else:
                spans.append((text[i:end], i, end))
            i = end
        if start is not None:
            spans.append((text[start:], start, len(text)))
        return spans


def check_vocab(vocab) -> Vocab:
    if not isinstance(vocab, Vocab):
        raise TypeError(f"Argument vocab with value {vocab!r} is not of type "
                        "[<class 'mindspore.dataset.text.utils.Vocab'>].")
    return vocab


class _Wordpiece:
    """Greedy longest-match-first split of one word into vocabulary pieces."""

    def __init__(self, vocab, suffix_indicator, max_bytes_per_token, unknown_token):
        self.table = check_vocab(vocab).vocab()
        self.suffix = check_str(suffix_indicator, "suffix_indicator")
        if isinstance(max_bytes_per_token, bool) or not isinstance(max_bytes_per_token, int) \
                or max_bytes_per_token < 0:
            raise ValueError("Input max_bytes_per_token is not within the required interval "
                             "of [0, 2147483647].")
        self.max_bytes = max_bytes_per_token
        self.unknown = check_str(unknown_token, "unknown_token")

    def pieces(self, word: str, start: int) -> list[Span]:
        unknown = [(self.unknown or word, start, start + len(word))]
        if len(word.encode("utf-8")) > self.max_bytes:
            return unknown
        out, pos = [], 0
        while pos < len(word):
            end = len(word)
            while end > pos:
                piece = word[pos:end] if pos == 0 else self.suffix + word[pos:end]
                if piece in self.table:
                    break
                end -= 1
            if end == pos:
                return unknown
            out.append((piece, start + pos, start + end))
            pos = end
        return out


class WordpieceTokenizer(TensorOperation):
    """Each word of a 1-D string array split into word pieces of ``vocab``."""

    def __init__(self, vocab, suffix_indicator: str = "##", max_bytes_per_token: int = 100,
                 unknown_token: str = "[UNK]", with_offsets: bool = False):
        self.wordpiece = _Wordpiece(vocab, suffix_indicator, max_bytes_per_token,
                                    unknown_token)
        self.with_offsets = check_bool(with_offsets, "with_offsets")

    def _apply(self, x):
        words = np.asarray(x)
        if words.ndim != 1 or words.dtype.kind not in "US":
            raise RuntimeError(f"WordpieceTokenizer: the input should be a 1-D string array, "
                               f"got dtype {words.dtype} and shape {list(words.shape)}.")
        spans, starts, ends = [], [], []  # offsets count bytes within each word
        for w in words.tolist():
            w = w.decode("utf-8") if isinstance(w, bytes) else w
            pieces = self.wordpiece.pieces(w, 0)
            word_starts, word_ends = _byte_offsets(w, pieces)
            spans += pieces
            starts.append(word_starts)
            ends.append(word_ends)
        if not spans:  # MindSpore: no piece gives one ""
            spans, starts, ends = [("", 0, 0)], [np.zeros(1, np.uint32)], [np.zeros(1, np.uint32)]
        if not self.with_offsets:
            return _tokens(spans)
        return _tokens(spans), np.concatenate(starts), np.concatenate(ends)


class BertTokenizer(BasicTokenizer):
    """``BasicTokenizer`` then ``WordpieceTokenizer`` on each token."""

    def __init__(self, vocab, suffix_indicator: str = "##", max_bytes_per_token: int = 100,
                 unknown_token: str = "[UNK]", lower_case: bool = False,
                 keep_whitespace: bool = False, normalization_form=NormalizeForm.NONE,
                 preserve_unused_token: bool = True, with_offsets: bool = False):
        super().__init__(lower_case, keep_whitespace, normalization_form,
                         preserve_unused_token, with_offsets)
        self.wordpiece = _Wordpiece(vocab, suffix_indicator, max_bytes_per_token,
                                    unknown_token)

    def _spans(self, text):
        return [p for t, s, _ in super()._spans(text) for p in self.wordpiece.pieces(t, s)]


class PythonTokenizer:
    """A user function ``str -> list[str]`` as a tokenizer."""

    def __init__(self, tokenizer):
        if not callable(tokenizer):
            raise TypeError(f"Argument tokenizer with value {tokenizer!r} is not callable.")
        self.tokenizer = tokenizer

    @property
    def op_name(self) -> str:
        return "PythonTokenizer"

    def __call__(self, x):
        return np.array(self.tokenizer(as_text(x, "PythonTokenizer")), dtype=str)


_SCRIPT_ALIASES = {"CJK": "HAN", "IDEOGRAPHIC": "HAN", "HALFWIDTH": None, "FULLWIDTH": None}


def script_of(c: str) -> str:
    """The Unicode script of ``c``, approximated from its name: letters by their name's first
    word (CJK -> HAN; half- and fullwidth forms by the next word), combining marks INHERITED,
    everything else COMMON. Exact for Latin, Greek, Cyrillic, Han, kana, Hangul and Arabic
    letters; Python has no script property."""
    cat = unicodedata.category(c)
    name = unicodedata.name(c, "")
    if cat.startswith("M") and (name.startswith("COMBINING") or 0x300 <= ord(c) <= 0x36F):
        return "INHERITED"
    if not (cat.startswith("L") or cat.startswith("M")) or not name:
        return "COMMON"
    words = name.split()
    script = _SCRIPT_ALIASES.get(words[0], words[0])
    if script is None and len(words) > 1:
        script = _SCRIPT_ALIASES.get(words[1], words[1])
    return script or "COMMON"


class UnicodeScriptTokenizer(_Tokenizer):
    """Split where the Unicode script changes (see ``script_of``) or whitespace starts or
    ends; whitespace runs are dropped unless ``keep_whitespace``."""

    def __init__(self, keep_whitespace: bool = False, with_offsets: bool = False):
        super().__init__(with_offsets)
        self.keep_whitespace = check_bool(keep_whitespace, "keep_whitespace")

    def _spans(self, text):
        spans: list[Span] = []
        start, key = 0, None
        for i, c in enumerate(text + "\0"):
            k = (c.isspace(), script_of(c)) if i < len(text) else None
            if i and k != key:
                if self.keep_whitespace or not key[0]:
                    spans.append((text[start:i], start, i))
                start = i
            key = k
        return spans
