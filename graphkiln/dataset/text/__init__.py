"""``mindspore.dataset.text``: vocabularies, tokenizers, word vectors and string transforms."""
from . import transforms as _transforms
from . import utils as _utils
from .transforms import *  # noqa: F403 - every transform, listed in transforms.__all__
from .utils import *  # noqa: F403 - Vocab, Vectors, NormalizeForm, to_str, to_bytes

__all__ = [*_transforms.__all__, *_utils.__all__]
