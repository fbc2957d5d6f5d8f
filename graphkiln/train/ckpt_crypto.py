"""MindSpore's encrypted checkpoint layout (``enc_key``/``enc_mode``), with ``cryptography``.

The plain ``.ckpt`` bytes are cut into 64 MiB blocks; each block is written as
(all integers little-endian int32)::

    AES-GCM: magic 0x7F3A5ED8 | tag[16] | block_len | iv_len | iv[16] | n | ciphertext[n]
    AES-CBC: magic 0x7F3A5ED9 | block_len | iv_len | iv[16] | n | ciphertext[n]
    SM4-CBC: magic 0x7F3A5EDA | (as AES-CBC)

``block_len`` counts the bytes after it. GCM uses the first 12 IV bytes as its nonce and no
associated data; CBC pads with PKCS#7.
"""
from __future__ import annotations

import os
import struct

try:  # optional: ``pip install graphkiln[crypto]``
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives import padding
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
except ImportError:  # pragma: no cover - exercised only without the extra
    AESGCM = None

    class InvalidTag(Exception):
        """Stands in for cryptography's exception when the library is absent."""

BLOCK_SIZE = 64 * 1024 * 1024
_MAGIC = {"AES-GCM": 0x7F3A5ED8, "AES-CBC": 0x7F3A5ED9, "SM4-CBC": 0x7F3A5EDA}
_IV_LEN = 16
_TAG_LEN = 16
_GCM_NONCE_LEN = 12


def check_mode(mode: str, key: bytes, owner: str) -> None:
    """Raise MindSpore's ValueError for an unknown mode or a key of the wrong length (and
    ImportError naming the extra when ``cryptography`` is not installed)."""
    if AESGCM is None:
        raise ImportError(f"For '{owner}', encrypted checkpoints need the 'cryptography' "
                          f"package: pip install graphkiln[crypto]")
    if mode not in _MAGIC:
        raise ValueError(f"For '{owner}', the mode must be one of {sorted(_MAGIC)}, but got "
                         f"'{mode}'.")
    sizes = (16,) if mode == "SM4-CBC" else (16, 24, 32)
    if len(key) not in sizes:
        raise ValueError(f"For '{owner}', the key length must be one of {sizes} bytes for "
                         f"{mode}, but got {len(key)}.")


def _cbc_cipher(mode: str, key: bytes, iv: bytes) -> Cipher:
    algorithm = algorithms.SM4(key) if mode == "SM4-CBC" else algorithms.AES(key)
    return Cipher(algorithm, modes.CBC(iv))


def _encrypt_block(block: bytes, key: bytes, mode: str) -> bytes:
    iv = os.urandom(_IV_LEN)
    magic = struct.pack("<I", _MAGIC[mode])
    if mode == "AES-GCM":
        sealed = AESGCM(key).encrypt(iv[:_GCM_NONCE_LEN], block, None)
        cipher, tag = sealed[:-_TAG_LEN], sealed[-_TAG_LEN:]
        head = magic + tag
    else:
        padder = padding.PKCS7(128).padder()
        enc = _cbc_cipher(mode, key, iv).encryptor()
        cipher = enc.update(padder.update(block) + padder.finalize()) + enc.finalize()
        head = magic
    body = struct.pack("<i", _IV_LEN) + iv + struct.pack("<i", len(cipher)) + cipher
    return head + struct.pack("<i", len(body)) + body


def encrypt(plain: bytes, key: bytes, mode: str) -> bytes:
    """The encrypted file content of ``plain``."""
    return b"".join(_encrypt_block(plain[i:i + BLOCK_SIZE], key, mode)
                    for i in range(0, max(len(plain), 1), BLOCK_SIZE))


def is_encrypted(head: bytes) -> bool:
    return len(head) >= 4 and struct.unpack("<I", head[:4])[0] in _MAGIC.values()


def decrypt(data: bytes, key: bytes, mode: str) -> bytes:
    """The plain content of an encrypted file; ValueError if the key, mode or bytes are wrong."""
    out, pos, magic = [], 0, _MAGIC[mode]
    take = struct.Struct("<i")
    try:
        while pos < len(data):
            if struct.unpack_from("<I", data, pos)[0] != magic:
                raise ValueError("wrong magic number")
            pos += 4
            tag = b""
            if mode == "AES-GCM":
                tag, pos = data[pos:pos + _TAG_LEN], pos + _TAG_LEN
            block_len = take.unpack_from(data, pos)[0]
            body = data[pos + 4:pos + 4 + block_len]
            pos += 4 + block_len
            iv_len = take.unpack_from(body, 0)[0]
            iv = body[4:4 + iv_len]
            n = take.unpack_from(body, 4 + iv_len)[0]
            cipher = body[8 + iv_len:8 + iv_len + n]
            if len(cipher) != n:
                raise ValueError("truncated block")
            if mode == "AES-GCM":
                out.append(AESGCM(key).decrypt(iv[:_GCM_NONCE_LEN], cipher + tag, None))
            else:
                dec = _cbc_cipher(mode, key, iv).decryptor()
                unpadder = padding.PKCS7(128).unpadder()
                out.append(unpadder.update(dec.update(cipher) + dec.finalize())
                           + unpadder.finalize())
    except (struct.error, InvalidTag, ValueError) as e:
        raise ValueError(f"decryption failed ({e or 'authentication tag mismatch'})") from e
    return b"".join(out)
