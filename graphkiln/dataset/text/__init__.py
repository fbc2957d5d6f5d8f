"""``mindspore.dataset.text``: vocabularies, tokenizers and string transforms."""
from . import tokenizers as _tokenizers
from . import transforms as _transforms
from .tokenizers import *  # noqa: F403 - every tokenizer, listed in tokenizers.__all__
from .transforms import *  # noqa: F403 - every transform, listed in transforms.__all__
from .utils import NormalizeForm, to_bytes, to_str
from .vocab import Vocab

__all__ = [*_tokenizers.__all__, *_transforms.__all__, "Vocab", "NormalizeForm", "to_str",
           "to_bytes"]
