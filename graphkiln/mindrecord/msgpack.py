"""The subset of MessagePack that MindRecord raw pages use: one flat map per row whose
values are ints, floats, strings or bytes."""
from __future__ import annotations

import struct


def pack(obj) -> bytes:
    out = bytearray()
    _pack(obj, out)
    return bytes(out)


def _pack(obj, out: bytearray) -> None:
    if obj is None:
        out.append(0xC0)
    elif isinstance(obj, bool):
        out.append(0xC3 if obj else 0xC2)
    elif isinstance(obj, int):
        _pack_int(obj, out)
    elif isinstance(obj, float):
        out += b"\xcb" + struct.pack(">d", obj)
    elif isinstance(obj, str):
        data = obj.encode("utf-8")
        n = len(data)
        if n < 32:
            out.append(0xA0 | n)
        elif n < 2**8:
            out += b"\xd9" + struct.pack(">B", n)
        elif n < 2**16:
            out += b"\xda" + struct.pack(">H", n)
        else:
            out += b"\xdb" + struct.pack(">I", n)
        out += data
    elif isinstance(obj, (bytes, bytearray)):
        n = len(obj)
        out += (b"\xc4" + struct.pack(">B", n) if n < 2**8 else
                b"\xc5" + struct.pack(">H", n) if n < 2**16 else b"\xc6" + struct.pack(">I", n))
        out += obj
    elif isinstance(obj, dict):
        n = len(obj)
        out += bytes([0x80 | n]) if n < 16 else b"\xde" + struct.pack(">H", n)
        for k, v in obj.items():
            _pack(k, out)
            _pack(v, out)
    else:
        raise TypeError(f"cannot pack {type(obj).__name__} into a MindRecord raw page")


def _pack_int(v: int, out: bytearray) -> None:
    if 0 <= v < 128:
        out.append(v)
    elif -32 <= v < 0:
        out += struct.pack(">b", v)
    elif v >= 0:
        for code, fmt, limit in ((0xCC, ">B", 2**8), (0xCD, ">H", 2**16), (0xCE, ">I", 2**32),
                                 (0xCF, ">Q", 2**64)):
            if v < limit:
                out += bytes([code]) + struct.pack(fmt, v)
                return
        raise OverflowError(f"integer {v} does not fit in 64 bits")
    else:
        for code, fmt, limit in ((0xD0, ">b", 2**7), (0xD1, ">h", 2**15), (0xD2, ">i", 2**31),
                                 (0xD3, ">q", 2**63)):
            if v >= -limit:
                out += bytes([code]) + struct.pack(fmt, v)
                return
        raise OverflowError(f"integer {v} does not fit in 64 bits")


_FIXED = {0xCA: ">f", 0xCB: ">d", 0xCC: ">B", 0xCD: ">H", 0xCE: ">I", 0xCF: ">Q",
          0xD0: ">b", 0xD1: ">h", 0xD2: ">i", 0xD3: ">q"}
_SIZED = {0xD9: (">B", "str"), 0xDA: (">H", "str"), 0xDB: (">I", "str"),
          0xC4: (">B", "bin"), 0xC5: (">H", "bin"), 0xC6: (">I", "bin"),
          0xDE: (">H", "map"), 0xDF: (">I", "map")}


def unpack(data: bytes):
    value, end = _unpack(memoryview(data), 0)
    if end != len(data):
        raise ValueError("trailing bytes after a MessagePack value")
    return value


def _unpack(buf, i: int):
    code = buf[i]
    i += 1
    if code < 0x80:
        return code, i
    if code >= 0xE0:
        return code - 256, i
    if 0xA0 <= code <= 0xBF:
        n = code & 0x1F
        return str(buf[i:i + n], "utf-8"), i + n
    if 0x80 <= code <= 0x8F:
        return _unpack_map(buf, i, code & 0x0F)
    if code in (0xC0, 0xC2, 0xC3):
        return {0xC0: None, 0xC2: False, 0xC3: True}[code], i
    if code in _FIXED:
        fmt = _FIXED[code]
        size = struct.calcsize(fmt)
        return struct.unpack_from(fmt, buf, i)[0], i + size
    if code in _SIZED:
        fmt, kind = _SIZED[code]
        n = struct.unpack_from(fmt, buf, i)[0]
        i += struct.calcsize(fmt)
        if kind == "map":
            return _unpack_map(buf, i, n)
        chunk = bytes(buf[i:i + n])
        return (chunk.decode("utf-8") if kind == "str" else chunk), i + n
    raise ValueError(f"unsupported MessagePack code 0x{code:02x} in a MindRecord raw page")


def _unpack_map(buf, i: int, n: int):
    out = {}
    for _ in range(n):
        k, i = _unpack(buf, i)
        v, i = _unpack(buf, i)
        out[k] = v
    return out, i
