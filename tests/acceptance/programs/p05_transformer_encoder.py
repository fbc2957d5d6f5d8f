"""A Transformer encoder text classifier (nn.TransformerEncoder + positional embedding)."""
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor, Parameter

rng = np.random.default_rng(5)


class TransformerClassifier(nn.Cell):
    def __init__(self, vocab, d_model=16, nhead=4, layers=2, seq_len=6, classes=3):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.pos = Parameter(Tensor(np.zeros((1, seq_len, d_model), np.float32)), name="pos")
        layer = nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward=32, dropout=0.0,
                                           batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=layers)
        self.norm = nn.LayerNorm((d_model,))
        self.head = nn.Dense(d_model, classes)

    def construct(self, ids):
        x = self.embed(ids) + self.pos
        x = self.encoder(x)
        x = self.norm(x).mean(axis=1)
        return self.head(x)


net = TransformerClassifier(30)
names = [n for n, _ in net.parameters_and_names()]
print(len(names))
for n, p in net.parameters_and_names():
    if "layernorm" in n.lower() or n.startswith("norm"):
        continue
    p.set_data(Tensor(rng.normal(0, 0.2, p.shape).astype(np.float32)))
ids = Tensor(rng.integers(0, 30, (4, 6)).astype(np.int32))
y = Tensor(rng.integers(0, 3, 4).astype(np.int32))
net.set_train(False)
print("logits", np.round(net(ids).asnumpy(), 4).tolist())
loss_fn = nn.CrossEntropyLoss()
opt = nn.AdamWeightDecay(net.trainable_params(), learning_rate=1e-2, weight_decay=0.01)
train = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), opt)
train.set_train()
for step in range(3):
    print("step", step, "loss", f"{train(ids, y).asnumpy():.5f}")
