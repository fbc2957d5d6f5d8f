"""BLEU score of candidate sentences against reference sentences."""
from __future__ import annotations

from collections import Counter

import numpy as np

from .metric import Metric, check_two_inputs, rearrange_inputs


def _ngrams(tokens, n_max: int) -> Counter:
    """Counts of every 1..n_max-gram of ``tokens``."""
    return Counter(tuple(tokens[j:j + n]) for n in range(1, n_max + 1)
                   for j in range(len(tokens) - n + 1))


class BleuScore(Metric):
    """Corpus BLEU with up to ``n_gram``-grams (1..4), optionally add-one smoothed."""

    def __init__(self, n_gram: int = 4, smooth: bool = False):
        super().__init__()
        if not isinstance(n_gram, int) or isinstance(n_gram, bool):
            raise TypeError(f"For 'BleuScore', the type of 'n_gram' should be int, but got "
                            f"{type(n_gram).__name__}.")
        if not 1 <= n_gram <= 4:
            raise ValueError(f"For 'BleuScore', the argument 'n_gram' should range from 1 to 4, "
                             f"but got {n_gram}.")
        if not isinstance(smooth, bool):
            raise TypeError(f"For 'BleuScore', the type of 'smooth' should be bool, but got "
                            f"{type(smooth).__name__}.")
        self.n_gram = n_gram
        self.smooth = smooth
        self.clear()

    def clear(self) -> None:
        self._numerator = np.zeros(self.n_gram)
        self._denominator = np.zeros(self.n_gram)
        self._c = 0.0
        self._r = 0.0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs) -> None:
        check_two_inputs("BleuScore", inputs, "candidate_corpus, reference_corpus")
        candidates, references = inputs
        if len(candidates) != len(references):
            raise ValueError(f"For 'BleuScore.update', 'translate_corpus' (inputs[0]) and "
                             f"'reference_corpus' (inputs[1]) should be equal in length, but got "
                             f"{len(candidates)}, {len(references)}")
        for candidate, refs in zip(candidates, references):
            self._c += len(candidate)
            lengths = [len(ref) for ref in refs]
            diffs = [abs(len(candidate) - length) for length in lengths]
            self._r += lengths[diffs.index(min(diffs))]
            counts = _ngrams(candidate, self.n_gram)
            ref_counts = Counter()
            for ref in refs:
                ref_counts |= _ngrams(ref, self.n_gram)
            for gram, count in (counts & ref_counts).items():
                self._numerator[len(gram) - 1] += count
            for gram, count in counts.items():
                self._denominator[len(gram) - 1] += count
        self._is_update = True

    def eval(self) -> np.ndarray:
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        if min(self._numerator) == 0.0:
            return np.array(0.0)
        if self.smooth:
            precision = (self._numerator + 1) / (self._denominator + 1)
        else:
            precision = self._numerator / self._denominator
        geometric_mean = np.exp(np.sum(np.log(precision) / self.n_gram))
        penalty = np.array(1.0) if self._c > self._r else np.exp(1 - np.array(self._r) / self._c)
        return penalty * geometric_mean
