"""MindSpore's Philox streams: Philox4x32-10 and the uniform, normal and truncated-normal
draws its weight initializers build on it, vectorised in NumPy; and the seed mix of its CPU
random kernels (:func:`mix_seeds`).

MindSpore's initializers (``Normal``, ``HeUniform``, ``TruncatedNormal``...) draw a 63-bit
seed from NumPy's global generator and fill the weight from a Philox stream keyed by that
seed (its C++ ``random::GenerateRandomsParallel``; the result does not depend on how many
threads fill it). Drawing the same seeds and the same streams here gives the same weights
after the same ``set_seed``, bit for bit where only integer and IEEE arithmetic is involved
(uniform draws), and to the last bit of float32 where ``log``/``sin``/``cos`` are involved
(NumPy's and the C library's double-precision functions agree to within an ulp of a double).
"""
from __future__ import annotations

import math
import sys

import numpy as np

_M0, _M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_KEY_STEP = (0x9E3779B9, 0xBB67AE85)
_32 = np.uint64(32)


def _encrypt(words: list, k0: int, k1: int) -> list:
    """Philox4x32-10 on counter blocks given as four uint32 arrays (changed in place and
    returned), under the key ``(k0, k1)``. Each round's two 32x32-bit products are taken as
    64-bit numbers whose high and low words are read through a 32-bit view, into arrays made
    once (no temporaries: a first call faults in a few pages only)."""
    blocks = len(words[0])
    products = np.empty((2, blocks), np.uint64)
    halves = products.view(np.uint32).reshape(2, blocks, 2)
    low, high = (0, 1) if sys.byteorder == "little" else (1, 0)
    for round_ in range(10):
        if round_:
            k0, k1 = (k0 + _KEY_STEP[0]) & 0xFFFFFFFF, (k1 + _KEY_STEP[1]) & 0xFFFFFFFF
        c0, c1, c2, c3 = words
        np.multiply(c0, _M0, out=products[0], dtype=np.uint64)
        np.multiply(c2, _M1, out=products[1], dtype=np.uint64)
        # c0' = hi(M1 c2) ^ c1 ^ k0, c1' = lo(M1 c2), c2' = hi(M0 c0) ^ c3 ^ k1, c3' = lo(M0 c0)
        np.bitwise_xor(halves[1, :, high], c1, out=c0)
        np.bitwise_xor(c0, np.uint32(k0), out=c0)
        np.copyto(c1, halves[1, :, low])
        np.bitwise_xor(halves[0, :, high], c3, out=c2)
        np.bitwise_xor(c2, np.uint32(k1), out=c2)
        np.copyto(c3, halves[0, :, low])
    return words


def philox_blocks(key: int, counter_hi: int, index: np.ndarray) -> np.ndarray:
    """The Philox4x32-10 blocks numbered ``index`` as a ``(len(index), 4)`` uint32 array:
    block ``j`` encrypts the counter ``(j mod 2**32, j >> 32, counter_hi lo, counter_hi hi)``
    under the key ``(key lo, key hi)``."""
    key &= (1 << 64) - 1
    counter_hi &= (1 << 64) - 1
    index = np.asarray(index, np.uint64)
    count = len(index)
    words = _encrypt([index.astype(np.uint32), (index >> _32).astype(np.uint32),
                      np.full(count, counter_hi & 0xFFFFFFFF, np.uint32),
                      np.full(count, counter_hi >> 32, np.uint32)], key & 0xFFFFFFFF, key >> 32)
    out = np.empty((count, 4), np.uint32)
    for i, w in enumerate(words):
        out[:, i] = w
    return out


def philox_uint32(seed: int, count: int, offset: int | None = None,
                  first_block: int = 0) -> np.ndarray:
    """``count`` 32-bit outputs of Philox4x32-10 keyed by ``seed``, the counter's high half
    ``offset``, from block ``first_block`` on (:func:`philox_blocks`). The initializers'
    streams take ``offset = seed``, the Bernoulli kernel's its ``offset`` attribute; a
    kernel that reserves blocks launch by launch starts past the earlier ones."""
    offset = seed if offset is None else offset
    index = np.arange(first_block, first_block + (count + 3) // 4)
    return philox_blocks(seed, offset, index).reshape(-1)[:count]


def unit_doubles(hi: np.ndarray, lo: np.ndarray) -> np.ndarray:
    """Doubles in [0, 1) from pairs of outputs: the low 20 bits of ``hi`` and all of ``lo``
    as the mantissa (MindSpore's ``Uint64ToDouble``)."""
    bits = (hi.astype(np.uint64) & np.uint64(0xFFFFF)) << _32 | lo.astype(np.uint64)
    return (bits | np.uint64(1023 << 52)).view(np.float64) - 1.0


_MIX_KEY = (0x3EC8F720, 0x02461E29)


def mix_seeds(seed: int, seed2: int) -> int:
    """The 64-bit engine seed MindSpore's CPU random kernels derive from a primitive's two
    seeds (its ``random::GetSeed``): the first two outputs of one Philox block whose
    counter is ``(seed lo, seed hi, seed2 lo, seed2 hi)``, under a fixed key."""
    seed &= (1 << 64) - 1
    seed2 &= (1 << 64) - 1
    words = [np.array([v], np.uint32) for v in
             (seed & 0xFFFFFFFF, seed >> 32, seed2 & 0xFFFFFFFF, seed2 >> 32)]
    low, high = (int(w[0]) for w in _encrypt(words, *_MIX_KEY)[:2])
    return high << 32 | low


def unit_floats(bits: np.ndarray) -> np.ndarray:
    """float32 ``[0, 1)`` from the 23 low bits of each output (MindSpore's
    ``Uint32ToFloat``)."""
    return ((bits & np.uint32(0x7FFFFF)) | np.uint32(127 << 23)).view(np.float32) - \
        np.float32(1.0)


def _unit_doubles(bits: np.ndarray) -> np.ndarray:
    """``u / 2**32`` in double: uniform on [0, 1) (a new array the caller may reuse)."""
    doubles = bits.astype(np.float64)
    return np.divide(doubles, 4294967296.0, out=doubles)


def _f32(x: float) -> float:
    """A C++ ``float`` argument as the double it widens to."""
    return float(np.float32(x))


def uniform(seed: int, shape, a: float, b: float) -> np.ndarray:
    """float32 ``U(a, b)`` (``_random_uniform``)."""
    n = math.prod(shape)
    a, b = _f32(a), _f32(b)
    # (u / 2**32) * (b - a) in one multiply: scaling by a power of two is exact, so
    # u * ((b - a) / 2**32) rounds the same exact product once
    s = np.multiply(philox_uint32(seed, n), (b - a) / 4294967296.0, dtype=np.float64)
    return np.add(s, a, out=s).astype(np.float32).reshape(shape)


def normal(seed: int, shape, mean: float, sigma: float) -> np.ndarray:
    """float32 ``N(mean, sigma^2)`` by Box-Muller on pairs of outputs (``_random_normal``):
    the 23 mantissa bits of each output as a float in [0, 1), at least ``1e-7f``."""
    n = math.prod(shape)
    pairs = (n + 1) // 2
    bits = philox_uint32(seed, 2 * pairs)
    floats = ((bits & np.uint32(0x7FFFFF)) | np.uint32(127 << 23)).view(np.float32)
    u = np.maximum((floats - np.float32(1.0)).astype(np.float64), _f32(1.0e-7))
    x = np.sqrt(-2.0 * np.log(u[0::2])) * _f32(sigma)
    y = 2.0 * _f32(3.1415926) * u[1::2]
    out = np.empty((pairs, 2), np.float64)
    out[:, 0] = _f32(mean) + x * np.cos(y)
    out[:, 1] = _f32(mean) + x * np.sin(y)
    return out.reshape(-1)[:n].astype(np.float32).reshape(shape)


def truncated_normal(seed: int, shape, a: float, b: float, mean: float,
                     sigma: float) -> np.ndarray:
    """float32 ``N(mean, sigma^2)`` cut to ``[a, b]`` by the inverse CDF of one uniform
    draw per value (``_truncated_normal``)."""
    if sigma <= 0:
        raise ValueError(f"TruncatedNormal: invalid sigma {sigma}.")
    n = math.prod(shape)
    a, b, mean, sigma = _f32(a), _f32(b), _f32(mean), _f32(sigma)
    root_two = _f32(1.4142135)
    cdf_a = math.erfc(-((a - mean) / sigma) / root_two) / 2.0
    cdf_b = math.erfc(-((b - mean) / sigma) / root_two) / 2.0
    p = cdf_a + _unit_doubles(philox_uint32(seed, n)) * (cdf_b - cdf_a)
    x = -_erfc_inv(2.0 * p) * root_two
    return (mean + x * sigma).astype(np.float32).reshape(shape)


def _erfc_inv(z: np.ndarray) -> np.ndarray:
    """The inverse of erfc on (0, 2), by Boost.Math's rational approximations of erf_inv."""
    tiny = float(np.nextafter(np.float32(0), np.float32(2)))
    z = np.clip(z, tiny, float(np.nextafter(np.float32(2), np.float32(0))))
    upper = z > 1.0
    q = np.where(upper, 2.0 - z, z)
    p = np.where(upper, 1.0 - q, 1.0 - z)
    return np.where(upper, -1.0, 1.0) * _erf_inv(p, q)


def _horner(coefficients: tuple, x: np.ndarray) -> np.ndarray:
    total = np.full_like(x, coefficients[-1])
    for c in coefficients[-2::-1]:
        total = total * x + c
    return total


# Boost.Math erf_inv: (Y, P, Q) per range; p <= 0.5, q >= 0.25, then by x = sqrt(-log q)
_SMALL = (0.0891314744949340820313,
          (-0.000508781949658280665617, -0.00836874819741736770379, 0.0334806625409744615033,
           -0.0126926147662974029034, -0.0365637971411762664006, 0.0219878681111168899165,
           0.00822687874676915743155, -0.00538772965071242932965),
          (1.0, -0.970005043303290640362, -1.56574558234175846809, 1.56221558398423026363,
           0.662328840472002992063, -0.71228902341542847553, -0.0527396382340099713954,
           0.0795283687341571680018, -0.00233393759374190016776, 0.000886216390456424707504))
_MIDDLE = (2.249481201171875,
           (-0.202433508355938759655, 0.105264680699391713268, 8.37050328343119927838,
            17.6447298408374015486, -18.8510648058714251895, -44.6382324441786960818,
            17.445385985570866523, 21.1294655448340526258, -3.67192254707729348546),
           (1.0, 6.24264124854247537712, 3.9713437953343869095, -28.6608180499800029974,
            -20.1432634680485188801, 48.5609213108739935468, 10.8268667355460159008,
            -22.6436933413139721736, 1.72114765761200282724))
_TAILS = (  # (upper bound of x, offset, Y, P, Q)
    (3.0, 1.125, 0.807220458984375,
     (-0.131102781679951906451, -0.163794047193317060787, 0.117030156341995252019,
      0.387079738972604337464, 0.337785538912035898924, 0.142869534408157156766,
      0.0290157910005329060432, 0.00214558995388805277169, -0.679465575181126350155e-6,
      0.285225331782217055858e-7, -0.681149956853776992068e-9),
     (1.0, 3.46625407242567245975, 5.38168345707006855425, 4.77846592945843778382,
      2.59301921623620271374, 0.848854343457902036425, 0.152264338295331783612,
      0.01105924229346489121)),
    (6.0, 3.0, 0.93995571136474609375,
     (-0.0350353787183177984712, -0.00222426529213447927281, 0.0185573306514231072324,
      0.00950804701325919603619, 0.00187123492819559223345, 0.000157544617424960554631,
      0.460469890584317994083e-5, -0.230404776911882601748e-9, 0.266339227425782031962e-11),
     (1.0, 1.3653349817554063097, 0.762059164553623404043, 0.220091105764131249824,
      0.0341589143670947727934, 0.00263861676657015992959, 0.764675292302794483503e-4)),
    (18.0, 6.0, 0.98362827301025390625,
     (-0.0167431005076633737133, -0.00112951438745580278863, 0.00105628862152492910091,
      0.000209386317487588078668, 0.149624783758342370182e-4, 0.449696789927706453732e-6,
      0.462596163522878599135e-8, -0.281128735628831791805e-13, 0.99055709973310326855e-16),
     (1.0, 0.591429344886417493481, 0.138151865749083321638, 0.0160746087093676504695,
      0.000964011807005165528527, 0.275335474764726041141e-4, 0.282243172016108031869e-6)),
    (44.0, 18.0, 0.99714565277099609375,
     (-0.0024978212791898131227, -0.779190719229053954292e-5, 0.254723037413027451751e-4,
      0.162397777342510920873e-5, 0.396341011304801168516e-7, 0.411632831190944208473e-9,
      0.145596286718675035587e-11, -0.116765012397184275695e-17),
     (1.0, 0.207123112214422517181, 0.0169410838120975906478, 0.000690538265622684595676,
      0.145007359818232637924e-4, 0.144437756628144157666e-6, 0.509761276599778486139e-9)),
    (math.inf, 44.0, 0.99941349029541015625,
     (-0.000539042911019078575891, -0.28398759004727721098e-6, 0.899465114892291446442e-6,
      0.229345859265920864296e-7, 0.225561444863500149219e-9, 0.947846627503022684216e-12,
      0.135880130108924861008e-14, -0.348890393399948882918e-21),
     (1.0, 0.0845746234001899436914, 0.00282092984726264681981, 0.468292921940894236786e-4,
      0.399968812193862100054e-6, 0.161809290887904476097e-8, 0.231558608310259605225e-11)),
)


def _erf_inv(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    out = np.empty_like(p)
    small = p <= 0.5
    middle = ~small & (q >= 0.25)
    tail = ~small & ~middle
    if small.any():
        ps = p[small]
        y, num, den = _SMALL
        y = _f32(y)
        g = ps * (ps + 10.0)
        out[small] = g * y + g * (_horner(num, ps) / _horner(den, ps))
    if middle.any():
        qm = q[middle]
        y, num, den = _MIDDLE
        y = _f32(y)
        xs = qm - 0.25
        out[middle] = np.sqrt(-2.0 * np.log(qm)) / (y + _horner(num, xs) / _horner(den, xs))
    if tail.any():
        x = np.sqrt(-np.log(q[tail]))
        res = np.empty_like(x)
        lower = -math.inf
        for upper, offset, y, num, den in _TAILS:
            sel = (x >= lower) & (x < upper)
            xs, y = x[sel] - offset, _f32(y)
            res[sel] = y * x[sel] + (_horner(num, xs) / _horner(den, xs)) * x[sel]
            lower = upper
        out[tail] = res
    return out
