"""Connectionist temporal classification losses.

``CTCLoss(inputs, labels_indices, labels_values, sequence_length)`` (TensorFlow's form, as
MindSpore's ``ops.CTCLoss``): ``inputs`` are unnormalized logits ``(max_time, batch,
num_classes)`` with the blank as the last class, the labels a sparse matrix (values in
batch order). It gives the per-example loss ``-log p(label | inputs)`` and its gradient in
``inputs`` (zero past each sequence and where no path exists). ``preprocess_collapse_repeated``
merges repeated labels first; without ``ctc_merge_repeated`` a path never merges repeats.
A label sequence longer than its input is a ValueError unless
``ignore_longer_outputs_than_inputs``.

``CTCLossV2(log_probs, targets, input_lengths, target_lengths)`` (PyTorch's form, behind
``ops.ctc_loss`` and ``nn.CTCLoss``): log-probabilities ``(T, N, C)``, padded targets
``(N, S)`` and a ``blank`` class; it gives the negative log-likelihood ``(N,)`` and the
forward variables ``log_alpha`` ``(N, T, 2S+1)``. ``CTCLossV2Grad`` is its gradient rule,
PyTorch's ``exp(log_probs) - exp(log_alpha + log_beta + nll - log_probs)`` (the gradient for
log-probabilities that stay normalized, as a log-softmax gives them): NaN for an impossible
target, 0 there with ``zero_infinity``. MindSpore 2.10's CPU kernel returns an infinite loss
for an impossible target even with ``zero_infinity``; so does graphkiln. As that kernel, a
label is not range checked: it is read at the flat offset ``(t * N + n) * C + label`` of the
log-probabilities (a label ``>= C`` reads a later row, 0 past the end) and its gradient adds
there; a target may hold the blank (a label state is entered from two back when its label
differs from the previous one).
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor, AbstractTuple
from ...ir.primitive import OpDef
from ._infer import dims_match, merge_dims, quiet, require_dtype, shapes_match, tensor_type

_LOG0 = -np.inf


def _logsumexp(*terms: np.ndarray) -> np.ndarray:
    stacked = np.stack(terms)
    top = np.max(stacked, axis=0)
    safe = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):
        return safe + np.log(np.sum(np.exp(stacked - safe), axis=0))


def _shifted(v: np.ndarray, k: int) -> np.ndarray:
    """``v`` moved ``k`` states up (``out[u] = v[u - k]``), -inf where nothing comes in."""
    out = np.full_like(v, _LOG0)
    out[k:] = v[:len(v) - k]
    return out


def _transitions(ext: np.ndarray, blank: int, merge: bool):
    """Per state: may it stay (self-loop), may it be entered from two states back (a label
    state, odd in ``ext``, whose label differs from the one before it)."""
    stay = np.ones(len(ext), bool) if merge else ext == blank
    skip = np.zeros(len(ext), bool)
    if len(ext) > 2:  # (repeats stay apart when paths do not merge them)
        skip[3::2] = (ext[3::2] != ext[1:-2:2]) | (not merge)
    return stay, skip


def forward_backward(emit: np.ndarray, ext: np.ndarray, blank: int, merge: bool = True):
    """``(log_alpha, log_beta)`` of shape ``(T, U)`` over the blank-extended label ``ext``
    whose states emit ``emit`` ``(T, U)``: alpha includes ``emit`` at ``t``, beta does not."""
    steps, states = emit.shape[0], len(ext)
    stay, skip = _transitions(ext, blank, merge)
    alpha = np.full((steps, states), _LOG0)
    beta = np.full((steps, states), _LOG0)
    alpha[0, :min(2, states)] = emit[0, :min(2, states)]
    for t in range(1, steps):
        prev = alpha[t - 1]
        alpha[t] = emit[t] + _logsumexp(np.where(stay, prev, _LOG0), _shifted(prev, 1),
                                        np.where(skip, _shifted(prev, 2), _LOG0))
    beta[-1, max(states - 2, 0):] = 0.0
    for t in range(steps - 2, -1, -1):
        nxt = beta[t + 1] + emit[t + 1]
        from_skip = np.where(skip, nxt, _LOG0)
        beta[t] = _logsumexp(np.where(stay, nxt, _LOG0), _shifted(nxt[::-1], 1)[::-1],
                             _shifted(from_skip[::-1], 2)[::-1])
    return alpha, beta


def _extend(labels, blank: int) -> np.ndarray:
    ext = np.full(2 * len(labels) + 1, blank, np.int64)
    ext[1::2] = labels
    return ext


def _class_sums(alpha: np.ndarray, beta: np.ndarray, ext: np.ndarray, classes: int):
    """``log sum_{u: ext[u] = c} alpha[t, u] + beta[t, u]`` as ``(T, C)``."""
    both = alpha + beta
    out = np.full((both.shape[0], classes), _LOG0)
    for c in np.unique(ext):
        out[:, c] = _logsumexp(*both[:, ext == c].T)
    return out


# ------------------------------------------------------------------ CTCLoss (TensorFlow's)

_TF = "CTCLoss"
TF_ATTRS = {"preprocess_collapse_repeated": False, "ctc_merge_repeated": True,
            "ignore_longer_outputs_than_inputs": False}
_FLOATS = (mstype.float16, mstype.float32, mstype.float64)


def _tf_infer(inputs, labels_indices, labels_values, sequence_length, **attrs):
    t = tensor_type(_TF, "inputs", inputs)
    if t not in _FLOATS:
        raise TypeError(f"For primitive[{_TF}], the input argument[inputs] must be a type of "
                        f"{{Tensor[Float16], Tensor[Float32], Tensor[Float64]}}, but got "
                        f"Tensor[{t}].")
    require_dtype(_TF, "labels_indices", tensor_type(_TF, "labels_indices", labels_indices),
                  (mstype.int64,))
    require_dtype(_TF, "labels_values", tensor_type(_TF, "labels_values", labels_values),
                  (mstype.int32,))
    require_dtype(_TF, "sequence_length", tensor_type(_TF, "sequence_length",
                                                      sequence_length), (mstype.int32,))
    if len(inputs.shape) != 3:
        raise ValueError(f"For '{_TF}', the 'inputs' must be 3-D (max_time, batch_size, "
                         f"num_classes), but got shape {list(inputs.shape)}.")
    if len(labels_indices.shape) != 2 or len(labels_values.shape) != 1:
        raise ValueError(f"For '{_TF}', the 'labels_indices' must be 2-D and the "
                         f"'labels_values' 1-D, but got shapes {list(labels_indices.shape)} "
                         f"and {list(labels_values.shape)}.")
    if not shapes_match(tuple(sequence_length.shape), (inputs.shape[1],)):
        raise ValueError(f"For '{_TF}', the 'sequence_length' must have shape [batch_size] "
                         f"({inputs.shape[1]}), but got {list(sequence_length.shape)}.")
    batch = merge_dims(inputs.shape[1], sequence_length.shape[0])
    return AbstractTuple([AbstractTensor(t, (batch,)),
                          AbstractTensor(t, tuple(inputs.shape))])


def _tf_labels(indices, values, batch: int, classes: int, lengths, attrs) -> list:
    counts = np.zeros(batch, np.int64)
    for b in np.asarray(indices)[:, 0]:
        if b >= batch:
            raise ValueError(f"For '{_TF}', 'index' must be less than the length of 'label', "
                             f"but got 'index': {b} and the length of 'label': {batch}.")
        counts[b] += 1
    out, start = [], 0
    for b in range(batch):
        raw = np.asarray(values)[start:start + counts[b]]
        start += counts[b]
        keep, blank_seen = [], False
        for i, v in enumerate(raw):
            if i and attrs["preprocess_collapse_repeated"] and v == raw[i - 1]:
                continue
            if v >= classes - 1:
                blank_seen = True
            elif blank_seen:
                raise ValueError(f"For '{_TF}', the value of labels_values[{i}] must be in the "
                                 f"range of [0, num_classes), but got {v}.")
            else:
                keep.append(int(v))
        if not attrs["ignore_longer_outputs_than_inputs"] and len(keep) > lengths[b]:
            raise ValueError(f"For '{_TF}', input time(sequence length) must be greater than "
                             f"output size(label length), but got sequence length: "
                             f"{lengths[b]} and label length: {len(keep)}.")
        out.append(keep)
    return out


def _log_softmax(x: np.ndarray) -> np.ndarray:
    shifted = x - np.max(x, axis=-1, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=-1, keepdims=True))


@quiet
def _ctc_loss(inputs, labels_indices, labels_values, sequence_length, **attrs):
    a = {**TF_ATTRS, **attrs}
    steps, batch, classes = inputs.shape
    lengths = np.asarray(sequence_length, np.int64)
    if np.any(lengths <= 0) or np.any(lengths > steps):
        raise ValueError(f"For '{_TF}', each 'sequence_length' must be in [1, max_time "
                         f"{steps}], but got {lengths.tolist()}.")
    labels = _tf_labels(labels_indices, labels_values, batch, classes, lengths, a)
    loss = np.zeros(batch)
    grad = np.zeros((steps, batch, classes))
    blank = classes - 1
    for b in range(batch):
        n = lengths[b]
        logp = _log_softmax(inputs[:n, b].astype(np.float64))
        ext = _extend(labels[b], blank)
        alpha, beta = forward_backward(logp[:, ext], ext, blank, a["ctc_merge_repeated"])
        log_p = _logsumexp(*(alpha[0] + beta[0]))
        loss[b] = -log_p
        if np.isfinite(log_p):
            grad[:n, b] = np.exp(logp) - np.exp(_class_sums(alpha, beta, ext, classes) - log_p)
    return loss.astype(inputs.dtype), grad.astype(inputs.dtype)


CTCLoss = OpDef(_TF, _tf_infer, _ctc_loss, attrs=dict(TF_ATTRS))


# ------------------------------------------------------------------ CTCLossV2 (PyTorch's)

_V2 = "CTCLossV2"
V2_ATTRS = {"blank": 0, "reduction": "none", "zero_infinity": False}


def _v2_check(name, log_probs, targets, input_lengths, target_lengths):
    t = tensor_type(name, "log_probs", log_probs)
    if t not in (mstype.float32, mstype.float64):
        raise TypeError(f"For primitive[{name}], the input argument[log_probs] must be a type "
                        f"of {{Tensor[Float32], Tensor[Float64]}}, but got Tensor[{t}].")
    for arg, v in (("targets", targets), ("input_lengths", input_lengths),
                   ("target_lengths", target_lengths)):
        require_dtype(name, arg, tensor_type(name, arg, v), (mstype.int32, mstype.int64))
    if len(log_probs.shape) != 3 or len(targets.shape) != 2:
        raise ValueError(f"For '{name}', the 'log_probs' must be 3-D (T, N, C) and the "
                         f"'targets' 2-D (N, S), but got shapes {list(log_probs.shape)} and "
                         f"{list(targets.shape)}.")
    batch = log_probs.shape[1]
    for arg, v in (("targets", targets), ("input_lengths", input_lengths),
                   ("target_lengths", target_lengths)):
        if not dims_match(v.shape[0], batch):
            raise ValueError(f"For '{name}', the first dimension of '{arg}' must be the batch "
                             f"size {batch}, but got shape {list(v.shape)}.")
    return t


def _v2_infer(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="none",
              zero_infinity=False):
    t = _v2_check(_V2, log_probs, targets, input_lengths, target_lengths)
    steps, batch, _ = log_probs.shape
    return AbstractTuple([AbstractTensor(t, (batch,)),
                          AbstractTensor(t, (batch, steps, 2 * targets.shape[1] + 1))])


def _flat_offsets(shape, b: int, steps: int, ext: np.ndarray) -> np.ndarray:
    """Flat offsets ``(t * N + b) * C + ext[u]`` ``(steps, U)`` of example ``b``'s states in
    the ``(T, N, C)`` log-probabilities: MindSpore's CPU kernel reads (and its gradient
    writes) a label there without a range check, so a label ``>= C`` lands in a later row."""
    _, batch, classes = shape
    return (np.arange(steps)[:, None] * batch + b) * classes + ext[None, :]


def _read_flat(flat: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """``flat[offsets]``, 0 outside the buffer (what MindSpore 2.10 CPU reads there)."""
    inside = (offsets >= 0) & (offsets < flat.size)
    return np.where(inside, flat[np.where(inside, offsets, 0)], 0.0)


def _v2_problem(name, log_probs, targets, input_lengths, target_lengths, blank):
    """Per example: ``(offsets, ext, emit, alpha, beta)``, ``emit`` ``(T_n, U)`` the
    log-probabilities of the states (read at ``offsets``)."""
    steps, batch, classes = log_probs.shape
    if not 0 <= blank < classes:
        raise ValueError(f"For '{name}', the 'blank' must be in [0, {classes}), but got "
                         f"{blank}.")
    lengths, tlens = np.asarray(input_lengths), np.asarray(target_lengths)
    flat = log_probs.reshape(-1).astype(np.float64)
    for b in range(batch):
        n, m = int(lengths[b]), int(tlens[b])
        if not 0 <= n <= steps or not 0 <= m <= targets.shape[1]:
            raise ValueError(f"For '{name}', input_lengths[{b}] = {n} and target_lengths[{b}] "
                             f"= {m} must be within [0, {steps}] and [0, {targets.shape[1]}].")
        ext = _extend(np.asarray(targets[b, :m], np.int64), blank)
        offsets = _flat_offsets(log_probs.shape, b, n, ext)
        emit = _read_flat(flat, offsets)
        if n == 0:
            yield offsets, ext, emit, np.zeros((0, len(ext))), np.zeros((0, len(ext)))
            continue
        alpha, beta = forward_backward(emit, ext, blank)
        yield offsets, ext, emit, alpha, beta


@quiet
def _ctc_loss_v2(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="none",
                 zero_infinity=False):
    steps, batch, _ = log_probs.shape
    nll = np.zeros(batch)
    log_alpha = np.full((batch, steps, 2 * targets.shape[1] + 1), _LOG0)
    for b, (_, ext, emit, alpha, _) in enumerate(_v2_problem(
            _V2, log_probs, targets, input_lengths, target_lengths, blank)):
        log_alpha[b, :len(emit), :len(ext)] = alpha
        nll[b] = -_logsumexp(*(alpha[-1, -2:] if len(ext) > 1 else alpha[-1, -1:])) \
            if len(emit) else (0.0 if len(ext) == 1 else np.inf)
    dtype = log_probs.dtype
    return nll.astype(dtype), log_alpha.astype(dtype)


CTCLossV2 = OpDef(_V2, _v2_infer, _ctc_loss_v2, attrs=dict(V2_ATTRS))


def _v2_grad_infer(grad_out, log_probs, targets, input_lengths, target_lengths,
                   neg_log_likelihood, log_alpha, blank=0, zero_infinity=False):
    t = _v2_check(f"{_V2}Grad", log_probs, targets, input_lengths, target_lengths)
    return AbstractTensor(t, tuple(log_probs.shape))


def _add_flat(acc: np.ndarray, offsets: np.ndarray, values: np.ndarray) -> None:
    """``acc[offsets] = logaddexp(acc[offsets], values)`` where ``offsets`` fall inside."""
    inside = (offsets >= 0) & (offsets < acc.size)
    np.logaddexp.at(acc, offsets[inside], values[inside])


@quiet
def _ctc_loss_v2_grad(grad_out, log_probs, targets, input_lengths, target_lengths,
                      neg_log_likelihood, log_alpha, blank=0, zero_infinity=False):
    steps, batch, classes = log_probs.shape
    flat = log_probs.reshape(-1).astype(np.float64)
    # log sum over states of alpha * beta, per flat cell, example after example as
    # MindSpore's kernel gathers it (a label >= C adds into another example's cell)
    acc = np.full(flat.size, _LOG0)
    rows = acc.reshape(steps, batch, classes)
    for b, (offsets, ext, emit, alpha, beta) in enumerate(_v2_problem(
            f"{_V2}Grad", log_probs, targets, input_lengths, target_lengths, blank)):
        nll, n = float(neg_log_likelihood[b]), len(emit)
        if zero_infinity and np.isinf(nll) and nll > 0:
            rows[:, b] = 0.0
            continue
        if n:
            both = alpha + beta + emit
            _add_flat(acc, offsets[:-1], both[:-1])
            for u in sorted({len(ext) - 1, max(len(ext) - 2, 0)}, reverse=True):
                if 0 <= offsets[-1, u] < acc.size:  # (the last step sets, not adds)
                    acc[offsets[-1, u]] = both[-1, u]
        lp = flat.reshape(rows.shape)[:n, b]
        rows[:n, b] = (np.exp(lp) - np.exp(rows[:n, b] + nll - lp)) * grad_out[b]
        rows[n:, b] = 0.0
    return rows.astype(log_probs.dtype)


# (grad_out, log_probs, targets, input_lengths, target_lengths, nll, log_alpha) -> d log_probs
CTCLossV2Grad = OpDef(f"{_V2}Grad", _v2_grad_infer, _ctc_loss_v2_grad, differentiable=False,
                      attrs={"blank": 0, "zero_infinity": False})
