"""A Transformer encoder classifier trained with TrainOneStepCell, warmup + cosine learning
rates, AdamWeightDecay with parameter groups (no decay for LayerNorm and biases)."""
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_seed(11)
ms.set_context(mode=ms.GRAPH_MODE)


class Classifier(nn.Cell):
    def __init__(self, vocab=40, d=16, heads=2, layers=2, classes=3, seq=8):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = ms.Parameter(ms.Tensor(np.zeros((1, seq, d), np.float32)), name="pos")
        layer = nn.TransformerEncoderLayer(d, heads, dim_feedforward=32, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=layers)
        self.norm = nn.LayerNorm((d,))
        self.head = nn.Dense(d, classes)

    def construct(self, ids):
        x = self.tok(ids) + self.pos
        x = self.encoder(x)
        return self.head(self.norm(x.mean(axis=1)))


net = Classifier()
decay = [p for p in net.trainable_params() if "weight" in p.name and "norm" not in p.name]
decay_names = {p.name for p in decay}
no_decay = [p for p in net.trainable_params() if p.name not in decay_names]
print("decay", len(decay), "no_decay", len(no_decay))
steps = 12
warm = nn.warmup_lr(0.01, steps, 1, 4)
cos = nn.cosine_decay_lr(0.0, 0.01, steps, 1, steps)
lr = [w if i < 4 else c for i, (w, c) in enumerate(zip(warm, cos))]
print("lr", [round(v, 5) for v in lr[:6]])
opt = nn.AdamWeightDecay([{"params": decay, "weight_decay": 0.01}, {"params": no_decay, "weight_decay": 0.0}],
                         learning_rate=lr)
step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()), opt)
rng = np.random.RandomState(5)
ids = Tensor(rng.randint(0, 40, (6, 8)).astype(np.int32))
y = Tensor(rng.randint(0, 3, 6).astype(np.int32))
for i in range(steps):
    loss = step(ids, y)
    if i % 3 == 0:
        print(f"step {i} loss {loss.asnumpy():.5f}")
print("logits", np.round(net(ids[:2]).asnumpy(), 4))
