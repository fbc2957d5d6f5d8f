"""Sentiment classification with Embedding + bidirectional LSTM, default initialisation
after set_seed, Adam and gradient clipping in a functional training loop."""
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_seed(7)
ms.set_context(mode=ms.PYNATIVE_MODE)


class Sentiment(nn.Cell):
    def __init__(self, vocab=50, embed=16, hidden=12):
        super().__init__()
        self.embedding = nn.Embedding(vocab, embed, padding_idx=0)
        self.rnn = nn.LSTM(embed, hidden, num_layers=1, bidirectional=True, batch_first=True)
        self.fc = nn.Dense(hidden * 2, 1)

    def construct(self, ids):
        x = self.embedding(ids)
        _, (h, _) = self.rnn(x)
        h = ops.concat((h[-2], h[-1]), axis=1)
        return self.fc(h).squeeze(-1)


net = Sentiment()
loss_fn = nn.BCEWithLogitsLoss()
opt = nn.Adam(net.trainable_params(), learning_rate=0.01)


def forward(ids, y):
    logits = net(ids)
    return loss_fn(logits, y), logits


grad_fn = ms.value_and_grad(forward, None, opt.parameters, has_aux=True)


def train_step(ids, y):
    (loss, logits), grads = grad_fn(ids, y)
    grads = ops.clip_by_global_norm(grads, 1.0)
    opt(grads)
    return loss, logits


rng = np.random.RandomState(0)
ids = rng.randint(1, 50, (16, 10)).astype(np.int32)
ids[:, 7:] = 0
y = (ids[:, 0] > 25).astype(np.float32)
for epoch in range(4):
    loss, logits = train_step(Tensor(ids), Tensor(y))
    acc = ((logits.asnumpy() > 0) == (y > 0.5)).mean()
    print(f"epoch {epoch} loss {loss.asnumpy():.5f} acc {acc:.3f}")
net.set_train(False)
print("pred", np.round(ops.sigmoid(net(Tensor(ids[:3]))).asnumpy(), 4))
