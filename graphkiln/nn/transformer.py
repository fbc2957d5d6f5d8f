"""Attention and Transformer layers as MindSpore 2.x has them: ``MultiheadAttention``,
``TransformerEncoderLayer``, ``TransformerEncoder``, ``TransformerDecoderLayer``,
``TransformerDecoder``, ``Transformer`` (parameter names ``in_proj_weight``, ``out_proj``,
``dense1``, ``dense2``, ``norm1``...; masks: bool True = masked out, float = added to the
scores)."""
from __future__ import annotations

import copy
import math

import graphkiln.nn.init as _init
import graphkiln.ops as ops

from ..common import dtype as mstype
from ..common.initializer import initializer
from ..common.parameter import Parameter
from .activation import GELU, ReLU
from .basic import Dense, Dropout
from .cell import Cell
from .container import CellList
from .normalization import LayerNorm


def _as_additive(mask, dtype):
    """A bool mask (True = masked) as -inf additions, a float mask as it is."""
    if mask is None:
        return None
    if mask.dtype is mstype.bool_:
        return ops.select(mask, float("-inf"), ops.zeros(mask.shape, dtype))
    return ops.cast(mask, dtype)


class MultiheadAttention(Cell):
    """Scaled dot-product attention over ``num_heads`` heads with input and output
    projections; returns ``(output, weights)`` (weights averaged over heads by default)."""

    def __init__(self, embed_dim, num_heads, dropout=0.0, has_bias=True, add_bias_kv=False,
                 add_zero_attn=False, kdim=None, vdim=None, batch_first=False,
                 dtype=mstype.float32):
        super().__init__()
        if add_bias_kv or add_zero_attn:
            raise ValueError("For 'MultiheadAttention', graphkiln does not support "
                             "'add_bias_kv' or 'add_zero_attn' yet.")
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise ValueError("The init argument 'embed_dim' must be divisible by 'num_heads'.")
        xavier = _init.XavierUniform()
        if self._qkv_same_embed_dim:
            self.in_proj_weight = Parameter(_init.initializer(
                xavier, (3 * embed_dim, embed_dim), dtype), name="in_proj_weight")
            self.q_proj_weight = self.k_proj_weight = self.v_proj_weight = None
        else:
            self.q_proj_weight = Parameter(_init.initializer(xavier, (embed_dim, embed_dim),
                                                             dtype), name="q_proj_weight")
            self.k_proj_weight = Parameter(_init.initializer(xavier, (embed_dim, self.kdim),
                                                             dtype), name="k_proj_weight")
            self.v_proj_weight = Parameter(_init.initializer(xavier, (embed_dim, self.vdim),
                                                             dtype), name="v_proj_weight")
            self.in_proj_weight = None
        self.in_proj_bias = Parameter(_init.initializer("zeros", (3 * embed_dim,), dtype),
                                      name="in_proj_bias") if has_bias else None
        self.out_proj = Dense(embed_dim, embed_dim, has_bias=has_bias,
                              weight_init=_init.HeUniform(math.sqrt(5)),
                              bias_init=_init.Uniform(1 / math.sqrt(embed_dim)), dtype=dtype)
        self.dtype = dtype

    def _project(self, x, index: int):
        e = self.embed_dim
        if self._qkv_same_embed_dim:
            w = self.in_proj_weight[index * e:(index + 1) * e]
        else:
            w = (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight)[index]
        y = ops.matmul(x, ops.transpose(w, (1, 0)))
        if self.in_proj_bias is not None:
            y = ops.add(y, self.in_proj_bias[index * e:(index + 1) * e])
        return y

    def construct(self, query, key, value, key_padding_mask=None, need_weights=True,
                  attn_mask=None, average_attn_weights=True):
        if self.batch_first:
            query, key, value = (ops.transpose(t, (1, 0, 2)) for t in (query, key, value))
        tgt, batch = query.shape[0], query.shape[1]
        src = key.shape[0]
        h, hd = self.num_heads, self.head_dim

        def heads(x, length):  # (L, N, E) -> (N*H, L, hd)
            return ops.transpose(ops.reshape(x, (length, batch * h, hd)), (1, 0, 2))

        q = heads(self._project(query, 0), tgt)
        k = heads(self._project(key, 1), src)
        v = heads(self._project(value, 2), src)
        scores = ops.mul(ops.BatchMatMul(transpose_b=True)(q, k), 1.0 / math.sqrt(hd))
        add = _as_additive(attn_mask, scores.dtype)
        if add is not None:
            scores = ops.add(scores, add if add.ndim == 2 else ops.reshape(
                add, (batch * h, tgt, src)))
        pad = _as_additive(key_padding_mask, scores.dtype)
        if pad is not None:
            scores = ops.reshape(ops.add(ops.reshape(scores, (batch, h, tgt, src)),
                                         ops.reshape(pad, (batch, 1, 1, src))),
                                 (batch * h, tgt, src))
        weights = ops.softmax(scores, -1)
        if self.training and self.dropout > 0:
            weights = ops.dropout(weights, p=self.dropout)
        out = ops.BatchMatMul()(weights, v)  # (N*H, L, hd)
        out = ops.reshape(ops.transpose(out, (1, 0, 2)), (tgt * batch, self.embed_dim))
        out = ops.reshape(self.out_proj(out), (tgt, batch, self.embed_dim))
        if self.batch_first:
            out = ops.transpose(out, (1, 0, 2))
        if not need_weights:
            return out, None
        weights = ops.reshape(weights, (batch, h, tgt, src))
        if average_attn_weights:
            weights = ops.mean(weights, 1)
        return out, weights


def _activation(owner: str, activation):
    if isinstance(activation, str):
        if activation not in ("relu", "gelu"):
            raise ValueError(f"For '{owner}', the 'activation' must be 'relu' or 'gelu', but "
                             f"got {activation}.")
        # the string 'gelu' is the exact (erf) form here, as in MindSpore's Transformer
        return GELU(approximate=False) if activation == "gelu" else ReLU()
    if isinstance(activation, Cell) or callable(activation):
        return activation
    raise ValueError(f"For '{owner}', the 'activation' must be str, Cell or callable, but got "
                     f"{type(activation).__name__}.")


class _TransformerLayer(Cell):
    """Feed-forward part and settings shared by the encoder and decoder layers."""

    def __init__(self, d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                 batch_first, norm_first, dtype, n_norms):
        super().__init__()
        self._settings = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                          batch_first, norm_first, dtype)
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout,
                                            batch_first=batch_first, dtype=dtype)
        if n_norms == 3:  # the decoder's cross-attention (created here for MindSpore's order)
            self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout,
                                                     batch_first=batch_first, dtype=dtype)
        self.dense1 = Dense(d_model, dim_feedforward, weight_init=_init.HeUniform(math.sqrt(5)),
                            bias_init=_init.Uniform(1 / math.sqrt(d_model)), dtype=dtype)
        self.dropout = Dropout(p=dropout)
        self.dense2 = Dense(dim_feedforward, d_model, weight_init=_init.HeUniform(math.sqrt(5)),
                            bias_init=_init.Uniform(1 / math.sqrt(dim_feedforward)),
                            dtype=dtype)
        for i in range(1, n_norms + 1):
            setattr(self, f"norm{i}", LayerNorm((d_model,), epsilon=layer_norm_eps,
                                                dtype=dtype))
            setattr(self, f"dropout{i}", Dropout(p=dropout))
        self.activation = _activation(type(self).__name__, activation)
        self.norm_first = norm_first
        self.batch_first = batch_first

    def _ff_block(self, x):
        return self.dropout_last(self.dense2(self.dropout(self.activation(self.dense1(x)))))


class TransformerEncoderLayer(_TransformerLayer):
    """Self-attention and feed-forward blocks, each with a residual and LayerNorm (after,
    or before with ``norm_first``)."""

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation="relu", layer_norm_eps: float = 1e-5,
                 batch_first: bool = False, norm_first: bool = False, dtype=mstype.float32):
        super().__init__(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                         batch_first, norm_first, dtype, 2)

    @property
    def dropout_last(self):
        return self.dropout2

    def _sa_block(self, x, mask, padding):
        return self.dropout1(self.self_attn(x, x, x, attn_mask=mask, key_padding_mask=padding,
                                            need_weights=False)[0])

    def construct(self, src, src_mask=None, src_key_padding_mask=None):
        x = src
        if self.norm_first:
            x = ops.add(x, self._sa_block(self.norm1(x), src_mask, src_key_padding_mask))
            return ops.add(x, self._ff_block(self.norm2(x)))
        x = self.norm1(ops.add(x, self._sa_block(x, src_mask, src_key_padding_mask)))
        return self.norm2(ops.add(x, self._ff_block(x)))


class TransformerDecoderLayer(_TransformerLayer):
    """Self-attention, cross-attention over ``memory`` and feed-forward blocks."""

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation="relu", layer_norm_eps: float = 1e-5,
                 batch_first: bool = False, norm_first: bool = False, dtype=mstype.float32):
        super().__init__(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                         batch_first, norm_first, dtype, 3)

    @property
    def dropout_last(self):
        return self.dropout3

    def _sa_block(self, x, mask, padding):
        return self.dropout1(self.self_attn(x, x, x, attn_mask=mask, key_padding_mask=padding,
                                            need_weights=False)[0])

    def _mha_block(self, x, mem, mask, padding):
        return self.dropout2(self.multihead_attn(x, mem, mem, attn_mask=mask,
                                                 key_padding_mask=padding,
                                                 need_weights=False)[0])

    def construct(self, tgt, memory, tgt_mask=None, memory_mask=None,
                  tgt_key_padding_mask=None, memory_key_padding_mask=None):
        x = tgt
        if self.norm_first:
            x = ops.add(x, self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask))
            x = ops.add(x, self._mha_block(self.norm2(x), memory, memory_mask,
                                           memory_key_padding_mask))
            return ops.add(x, self._ff_block(self.norm3(x)))
        x = self.norm1(ops.add(x, self._sa_block(x, tgt_mask, tgt_key_padding_mask)))
        x = self.norm2(ops.add(x, self._mha_block(x, memory, memory_mask,
                                                  memory_key_padding_mask)))
        return self.norm3(ops.add(x, self._ff_block(x)))


def _copies(layer: Cell, kind: type, num_layers: int) -> CellList:
    """``num_layers`` copies of a new ``kind`` layer with ``layer``'s settings (MindSpore
    draws fresh weights for it, shared by the copies), or of ``layer`` itself when it has
    no such settings."""
    settings = getattr(layer, "_settings", None)
    template = kind(*settings[:-1], dtype=settings[-1]) if settings is not None else layer
    return CellList([copy.deepcopy(template) for _ in range(num_layers)])


class TransformerEncoder(Cell):
    """``num_layers`` copies of a new layer with ``encoder_layer``'s settings, applied in
    turn, then ``norm``."""

    def __init__(self, encoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = _copies(encoder_layer, TransformerEncoderLayer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def construct(self, src, src_mask=None, src_key_padding_mask=None):
        out = src
        for layer in self.layers:
            out = layer(out, src_mask, src_key_padding_mask)
        return self.norm(out) if self.norm is not None else out


class TransformerDecoder(Cell):
    """``num_layers`` copies of a new layer with ``decoder_layer``'s settings, applied in
    turn, then ``norm``."""

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = _copies(decoder_layer, TransformerDecoderLayer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def construct(self, tgt, memory, tgt_mask=None, memory_mask=None,
                  tgt_key_padding_mask=None, memory_key_padding_mask=None):
        out = tgt
        for layer in self.layers:
            out = layer(out, memory, tgt_mask, memory_mask, tgt_key_padding_mask,
                        memory_key_padding_mask)
        return self.norm(out) if self.norm is not None else out


def _stack(stack, layer, num_layers: int, settings: tuple) -> Cell:
    """``num_layers`` copies of ``layer(*settings)`` in ``stack``, ending in a LayerNorm."""
    d_model, layer_norm_eps, dtype = settings[0], settings[5], settings[8]
    return stack(layer(*settings), num_layers,
                 LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))


class Transformer(Cell):
    """An encoder stack and a decoder stack (``num_encoder_layers`` and
    ``num_decoder_layers`` layers, each stack ending in a LayerNorm), or the given
    ``custom_encoder`` / ``custom_decoder``; weights of two or more dimensions start
    Xavier-uniform, as in MindSpore."""

    def __init__(self, d_model: int = 512, nhead: int = 8, num_encoder_layers: int = 6,
                 num_decoder_layers: int = 6, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation="relu", custom_encoder: Cell | None = None,
                 custom_decoder: Cell | None = None, layer_norm_eps: float = 1e-5,
                 batch_first: bool = False, norm_first: bool = False, dtype=mstype.float32):
        super().__init__()
        settings = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                    batch_first, norm_first, dtype)
        self.encoder = custom_encoder if custom_encoder is not None else _stack(
            TransformerEncoder, TransformerEncoderLayer, num_encoder_layers, settings)
        self.decoder = custom_decoder if custom_decoder is not None else _stack(
            TransformerDecoder, TransformerDecoderLayer, num_decoder_layers, settings)
        for _, p in self.parameters_and_names():
            if p.ndim > 1:
                p.set_data(initializer("xavier_uniform", p.shape, p.dtype))
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def construct(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None,
                  src_key_padding_mask=None, tgt_key_padding_mask=None,
                  memory_key_padding_mask=None):
        batch_axis = 0 if self.batch_first else 1
        if src.ndim == 3 and tgt.ndim == 3 and src.shape[batch_axis] != tgt.shape[batch_axis]:
            raise ValueError(f"For 'Transformer', the number of batch size for 'src' and "
                             f"'tgt' must be equal, but got {src.shape[batch_axis]} and "
                             f"{tgt.shape[batch_axis]}.")
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise ValueError(f"For 'Transformer', the number of features for 'src' and "
                             f"'tgt' must be equal to `d_model` ({self.d_model}), but got "
                             f"{src.shape[-1]} and {tgt.shape[-1]}.")
        memory = self.encoder(src, src_mask=src_mask,
                              src_key_padding_mask=src_key_padding_mask)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask)
