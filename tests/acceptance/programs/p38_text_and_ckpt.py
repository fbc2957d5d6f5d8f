"""Text preprocessing with mindspore.dataset.text (Vocab, Lookup, PadEnd, tokenizers) and
checkpoint loading with choice_func/filter_prefix into a model with a new head."""
import numpy as np
import mindspore as ms
import mindspore.dataset as ds
import mindspore.dataset.text as text
import mindspore.dataset.transforms as transforms
from mindspore import nn

sentences = ["the cat sat", "a dog ran far", "the dog sat down", "cats and dogs"]
data = ds.NumpySlicesDataset({"text": np.array(sentences)}, shuffle=False)
data = data.map(text.WhitespaceTokenizer(), input_columns="text")
vocab = text.Vocab.from_list(["<pad>", "<unk>", "the", "cat", "dog", "sat", "ran", "a"],
                             special_tokens=None, special_first=False)
print("vocab size", vocab.vocab().__len__() if hasattr(vocab, "vocab") else None)
print("ids", vocab.tokens_to_ids(["the", "dog", "zebra"]))
data = data.map(text.Lookup(vocab, unknown_token="<unk>"), input_columns="text")
data = data.map(transforms.PadEnd([5], pad_value=0), input_columns="text")
for row in data.create_dict_iterator(output_numpy=True):
    print(row["text"].tolist())
from_ds = text.Vocab.from_dataset(ds.NumpySlicesDataset({"t": np.array(sentences)}, shuffle=False)
                                  .map(text.WhitespaceTokenizer(), input_columns="t"),
                                  columns=["t"], freq_range=None, top_k=5, special_tokens=["<pad>"])
print("from_dataset", sorted(from_ds.vocab().items()) if hasattr(from_ds, "vocab") else None)

ms.set_seed(4)


class Backbone(nn.Cell):
    def __init__(self):
        super().__init__()
        self.body = nn.Dense(4, 8)
        self.head = nn.Dense(8, 3)

    def construct(self, x):
        return self.head(self.body(x))


old = Backbone()
ms.save_checkpoint(old, "backbone.ckpt")
new = Backbone()
new.head = nn.Dense(8, 5)
params = ms.load_checkpoint("backbone.ckpt", choice_func=lambda name: name.startswith("body"))
print("chosen", sorted(params))
print(ms.load_param_into_net(new, params))
print("same body", np.array_equal(new.body.weight.asnumpy(), old.body.weight.asnumpy()))
filtered = ms.load_checkpoint("backbone.ckpt", filter_prefix="head")
print("filtered", sorted(filtered))
