"""``Vocab``: a word -> id table, built from a list, a dict, a file or a dataset."""
from __future__ import annotations

import os
from collections import Counter

import numpy as np

from .checks import check_bool

__all__ = ["Vocab"]


def _check_str_list(value, name: str, allow_none: bool = False) -> list:
    if value is None and allow_none:
        return []
    if not isinstance(value, list) or not all(isinstance(w, str) for w in value):
        raise TypeError(f"Argument {name} with value {value!r} is not of type [<class 'list'>] "
                        "of str.")
    if len(set(value)) != len(value):
        raise ValueError(f"{name} contains duplicate word: "
                         f"{next(w for w in value if value.count(w) > 1)!r}.")
    return value


def _with_specials(words: list, special_tokens, special_first: bool) -> dict:
    specials = _check_str_list(special_tokens, "special_tokens", allow_none=True)
    check_bool(special_first, "special_first")
    clash = set(specials) & set(words)
    if clash:
        raise ValueError(f"special_tokens and word_list share the word {sorted(clash)[0]!r}.")
    ordered = specials + words if special_first else words + specials
    return {w: i for i, w in enumerate(ordered)}


def _check_freq_range(freq_range) -> tuple:
    """``(min, max)`` counts (``None`` ends open), checked as MindSpore does."""
    if freq_range is None:
        return None, None
    if not isinstance(freq_range, tuple) or len(freq_range) != 2:
        raise TypeError(f"Argument freq_range with value {freq_range!r} is not of type "
                        "[<class 'tuple'>] of length 2.")
    for bound in freq_range:
        if bound is not None and (isinstance(bound, bool) or not isinstance(bound, int)):
            raise TypeError(f"freq_range should hold ints or None, got {freq_range!r}.")
        if bound is not None and bound < 0:
            raise ValueError(f"freq_range should hold non-negative counts, got {freq_range!r}.")
    low, high = freq_range
    if low is not None and high is not None and low > high:
        raise ValueError(f"freq_range: min {low} is greater than max {high}.")
    return low, high


class Vocab:
    """A vocabulary: ``vocab()`` maps each word to its id."""

    def __init__(self, table: dict | None = None):
        self._table = dict(table or {})
        self._words = {i: w for w, i in self._table.items()}

    @classmethod
    def from_list(cls, word_list: list, special_tokens: list | None = None,
                  special_first: bool = True) -> Vocab:
        """Ids in list order; ``special_tokens`` before (or after) the words."""
        words = _check_str_list(word_list, "word_list")
        return cls(_with_specials(words, special_tokens, special_first))

    @classmethod
    def from_dict(cls, word_dict: dict) -> Vocab:
        """The given word -> id table (ids must be non-negative ints)."""
        if not isinstance(word_dict, dict):
            raise TypeError(f"Argument word_dict with value {word_dict!r} is not of type "
                            "[<class 'dict'>].")
        for word, idx in word_dict.items():
            if not isinstance(word, str) or isinstance(idx, bool) or not isinstance(idx, int):
                raise TypeError("word_dict should map str words to int ids.")
            if idx < 0:
                raise ValueError(f"Input word_dict has a negative id: {word!r}: {idx}.")
        return cls(word_dict)

    @classmethod
    def from_file(cls, file_path: str, delimiter: str = "", vocab_size: int | None = None,
                  special_tokens: list | None = None, special_first: bool = True) -> Vocab:
        """One word per line (the part before ``delimiter``), at most ``vocab_size`` words."""
        if not isinstance(file_path, str):
            raise TypeError(f"Argument file_path with value {file_path!r} is not of type "
                            "[<class 'str'>].")
        if not isinstance(delimiter, str):
            raise TypeError(f"Argument delimiter with value {delimiter!r} is not of type "
                            "[<class 'str'>].")
        if vocab_size is not None and (isinstance(vocab_size, bool) or
                                       not isinstance(vocab_size, int) or vocab_size <= 0):
            raise ValueError("Input vocab_size is not within the required interval of "
                             "[1, 2147483647].")
        if not os.path.isfile(file_path):
            raise RuntimeError(f"from_file: vocab file {file_path!r} does not exist.")
        words: list[str] = []
        with open(file_path, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\r\n")
                word = line.split(delimiter, 1)[0] if delimiter else line
                if word in words:
                    raise RuntimeError(f"from_file: the file contains duplicate word: {word!r}.")
                words.append(word)
                if vocab_size is not None and len(words) == vocab_size:
                    break
        return cls(_with_specials(words, special_tokens, special_first))

    @classmethod
    def from_dataset(cls, dataset, columns=None, freq_range=None, top_k: int | None = None,
                     special_tokens: list | None = None, special_first: bool = True) -> Vocab:
        """Words of ``columns`` of ``dataset`` by frequency (descending; ties in code point
        order, as MindSpore), kept if their count is within ``freq_range`` (``(min, max)``,
        ``None`` ends open), at most ``top_k`` of them."""
        if isinstance(columns, str):
            columns = [columns]
        low, high = _check_freq_range(freq_range)
        if top_k is not None and (isinstance(top_k, bool) or not isinstance(top_k, int) or
                                  top_k <= 0):
            raise ValueError("Input top_k is not within the required interval of "
                             "[1, 2147483647].")
        missing = [c for c in columns or [] if c not in dataset.get_col_names()]
        if missing:
            raise RuntimeError(f"from_dataset: column {missing[0]!r} does not exist in the "
                               "dataset.")
        counts: Counter = Counter()
        for row in dataset.create_tuple_iterator(columns=columns, num_epochs=1,
                                                 output_numpy=True):
            for value in row:
                counts.update(str(w) for w in np.asarray(value).ravel())
        kept = sorted((w for w, n in counts.items()
                       if (low is None or n >= low) and (high is None or n <= high)),
                      key=lambda w: (-counts[w], w))
        words = kept[:top_k]
        clash = set(_check_str_list(special_tokens, "special_tokens", True)) & set(words)
        if clash:
            raise RuntimeError(f"from_dataset: special token {sorted(clash)[0]!r} is also a "
                               "word of the dataset.")
        return cls(_with_specials(words, special_tokens, special_first))

    def vocab(self) -> dict:
        """The word -> id table."""
        return dict(self._table)

    def tokens_to_ids(self, tokens):
        """Id of each token (-1 when unknown); a str gives an int."""
        if isinstance(tokens, str):
            return self._table.get(tokens, -1)
        if isinstance(tokens, np.ndarray):
            tokens = tokens.tolist()
        if not isinstance(tokens, list):
            raise TypeError(f"Argument tokens with value {tokens!r} is not of type "
                            "[<class 'list'>, <class 'str'>].")
        return [self._table.get(str(t), -1) for t in tokens]

    def ids_to_tokens(self, ids):
        """Token of each id ("" when unknown); an int gives a str."""
        if isinstance(ids, (int, np.integer)) and not isinstance(ids, bool):
            return self._words.get(int(ids), "")
        if isinstance(ids, np.ndarray):
            ids = ids.tolist()
        if not isinstance(ids, list):
            raise TypeError(f"Argument ids with value {ids!r} is not of type "
                            "[<class 'list'>, <class 'int'>].")
        return [self._words.get(int(i), "") for i in ids]

    def __len__(self) -> int:
        return len(self._table)
