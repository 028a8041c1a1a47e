"""A small QR code encoder (ISO/IEC 18004), for the room link in the lobby: a friend at the
same table scans it instead of typing. Byte mode, versions 1-10, error correction L or M,
the mask with the lowest penalty. Plain Python, runs on MicroPython, Pyodide and CPython.

    matrix(text, ecl="M") -> list of rows of bools (True = dark), quiet zone not included
    svg_path(rows) -> the "d" of one SVG path drawing the dark modules (1 unit each)
"""

# Per version 1-10 and level: (ec codewords per block, [(blocks, data codewords per block)]).
_BLOCKS = {
    "L": [(7, [(1, 19)]), (10, [(1, 34)]), (15, [(1, 55)]), (20, [(1, 80)]),
          (26, [(1, 108)]), (18, [(2, 68)]), (20, [(2, 78)]), (24, [(2, 97)]),
          (30, [(2, 116)]), (18, [(2, 68), (2, 69)])],
    "M": [(10, [(1, 16)]), (16, [(1, 28)]), (26, [(1, 44)]), (18, [(2, 32)]),
          (24, [(2, 43)]), (16, [(4, 27)]), (18, [(4, 31)]), (22, [(2, 38), (2, 39)]),
          (22, [(3, 36), (2, 37)]), (26, [(4, 43), (1, 44)])],
}
_ALIGN = [[], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42],
          [6, 26, 46], [6, 28, 50]]
_ECL_BITS = {"L": 1, "M": 0}
MAX_VERSION = 10


# ---- Reed-Solomon over GF(256), polynomial 0x11D

def _gf_mul_slow(x, y):
    z = 0
    for i in range(7, -1, -1):
        z = (z << 1) ^ ((z >> 7) * 0x11D)
        z ^= ((y >> i) & 1) * x
    return z & 0xFF


_EXP = []           # _EXP[i] = 2**i in GF(256) (i < 510: no modulo when two logs add up)
_LOG = []           # _LOG[x] = i with 2**i == x (x > 0)


def _tables():
    if not _EXP:
        log = [0] * 256
        x = 1
        for i in range(255):
            _EXP.append(x)
            log[x] = i
            x = _gf_mul_slow(x, 2)
        _EXP.extend(_EXP[:255])
        _LOG.extend(log)


def _gf_mul(x, y):
    if x == 0 or y == 0:
        return 0
    _tables()
    return _EXP[_LOG[x] + _LOG[y]]


def _rs_divisor(degree):
    result = [0] * (degree - 1) + [1]
    root = 1
    for _ in range(degree):
        for j in range(degree):
            result[j] = _gf_mul(result[j], root)
            if j + 1 < degree:
                result[j] ^= result[j + 1]
        root = _gf_mul(root, 0x02)
    return result


def _rs_remainder(data, divisor):
    _tables()
    exp, log = _EXP, _LOG
    logs = [log[d] if d else -1 for d in divisor]
    n = len(divisor)
    result = [0] * n
    for b in data:
        factor = b ^ result[0]
        result = result[1:] + [0]
        if factor:
            lf = log[factor]
            for i in range(n):
                if logs[i] >= 0:
                    result[i] ^= exp[logs[i] + lf]
    return result


# ---- encoding

def _utf8(text):
    return list(text.encode("utf-8")) if isinstance(text, str) else list(text)


def _capacity(version, ecl):
    ec, groups = _BLOCKS[ecl][version - 1]
    return sum([n * k for n, k in groups])


def _codewords(data, version, ecl):
    """The final interleaved codewords (data + error correction) for `data` bytes."""
    cap = _capacity(version, ecl)
    bits = []

    def put(value, n):
        for i in range(n - 1, -1, -1):
            bits.append((value >> i) & 1)

    put(0b0100, 4)                                 # byte mode
    put(len(data), 8 if version < 10 else 16)
    for b in data:
        put(b, 8)
    put(0, min(4, cap * 8 - len(bits)))            # terminator
    while len(bits) % 8:
        bits.append(0)
    words = []
    for i in range(0, len(bits), 8):
        v = 0
        for b in bits[i:i + 8]:
            v = (v << 1) | b
        words.append(v)
    pad = 0xEC
    while len(words) < cap:
        words.append(pad)
        pad ^= 0xEC ^ 0x11
    ec, groups = _BLOCKS[ecl][version - 1]
    divisor = _rs_divisor(ec)
    blocks = []
    k = 0
    for n, size in groups:
        for _ in range(n):
            block = words[k:k + size]
            k += size
            blocks.append((block, _rs_remainder(block, divisor)))
    out = []
    for i in range(max([len(b[0]) for b in blocks])):
        for block, _ in blocks:
            if i < len(block):
                out.append(block[i])
    for i in range(ec):
        for _, ecc in blocks:
            out.append(ecc[i])
    return out


class _Grid:
    def __init__(self, version):
        self.size = version * 4 + 17
        n = self.size
        self.dark = [[False] * n for _ in range(n)]
        self.func = [[False] * n for _ in range(n)]

    def set(self, x, y, dark):
        self.dark[y][x] = dark
        self.func[y][x] = True


def _functions(g, version):
    n = g.size
    for i in range(n):
        g.set(6, i, i % 2 == 0)
        g.set(i, 6, i % 2 == 0)
    for cx, cy in ((3, 3), (n - 4, 3), (3, n - 4)):
        for dy in range(-4, 5):
            for dx in range(-4, 5):
                x, y = cx + dx, cy + dy
                if 0 <= x < n and 0 <= y < n:
                    d = max(abs(dx), abs(dy))
                    g.set(x, y, d != 2 and d != 4)
    pos = _ALIGN[version - 1]
    last = len(pos) - 1
    for i in range(len(pos)):
        for j in range(len(pos)):
            if (i == 0 and j == 0) or (i == 0 and j == last) or (i == last and j == 0):
                continue
            for dy in range(-2, 3):
                for dx in range(-2, 3):
                    g.set(pos[i] + dx, pos[j] + dy, max(abs(dx), abs(dy)) != 1)
    _format(g, "M", 0)  # reserved now, written for real once the mask is chosen
    if version >= 7:
        rem = version
        for _ in range(12):
            rem = (rem << 1) ^ ((rem >> 11) * 0x1F25)
        bits = (version << 12) | rem
        for i in range(18):
            bit = (bits >> i) & 1 == 1
            a = n - 11 + i % 3
            b = i // 3
            g.set(a, b, bit)
            g.set(b, a, bit)


def _format(g, ecl, mask):
    n = g.size
    data = (_ECL_BITS[ecl] << 3) | mask
    rem = data
    for _ in range(10):
        rem = (rem << 1) ^ ((rem >> 9) * 0x537)
    bits = ((data << 10) | rem) ^ 0x5412

    def bit(i):
        return (bits >> i) & 1 == 1

    for i in range(6):
        g.set(8, i, bit(i))
    g.set(8, 7, bit(6))
    g.set(8, 8, bit(7))
    g.set(7, 8, bit(8))
    for i in range(9, 15):
        g.set(14 - i, 8, bit(i))
    for i in range(8):
        g.set(n - 1 - i, 8, bit(i))
    for i in range(8, 15):
        g.set(8, n - 15 + i, bit(i))
    g.set(8, n - 8, True)


def _place(g, words):
    n = g.size
    total = len(words) * 8
    i = 0
    right = n - 1
    while right >= 1:
        if right == 6:
            right = 5
        upward = ((right + 1) & 2) == 0
        for vert in range(n):
            y = n - 1 - vert if upward else vert
            for j in range(2):
                x = right - j
                if not g.func[y][x] and i < total:
                    g.dark[y][x] = (words[i >> 3] >> (7 - (i & 7))) & 1 == 1
                    i += 1
        right -= 2


def _masked(x, y, mask):
    if mask == 0:
        return (x + y) % 2 == 0
    if mask == 1:
        return y % 2 == 0
    if mask == 2:
        return x % 3 == 0
    if mask == 3:
        return (x + y) % 3 == 0
    if mask == 4:
        return (x // 3 + y // 2) % 2 == 0
    if mask == 5:
        return x * y % 2 + x * y % 3 == 0
    if mask == 6:
        return (x * y % 2 + x * y % 3) % 2 == 0
    return ((x + y) % 2 + x * y % 3) % 2 == 0


def _bits(line):
    """A row of booleans as a string of "1" (dark) and "0"."""
    return "".join(["1" if v else "0" for v in line])


def _mask_rows(mask, n):
    """The modules `mask` flips, one integer per row (bit n-1-x for column x): every mask
    repeats every 6 columns and every 12 rows, so 72 cells are computed, not n*n."""
    out = []
    for y in range(12):
        six = _bits([_masked(x, y, mask) for x in range(6)])
        out.append(int((six * (n // 6 + 1))[:n], 2))
    return out


class _IntRows:
    """Grid rows as integers (bit n-1-x for column x), written through `set` as a _Grid is:
    what matrix() scores each mask on (integer and string operations run in C; a loop per
    module costs MicroPython ~10x more)."""

    def __init__(self, size, rows):
        self.size = size
        self.rows = rows

    def set(self, x, y, dark):
        bit = 1 << (self.size - 1 - x)
        row = self.rows[y] | bit
        self.rows[y] = row if dark else row ^ bit

    def strings(self):
        n = self.size
        out = []
        for r in self.rows:
            s = bin(r)[2:]
            out.append("0" * (n - len(s)) + s)
        return out


def _line_penalty(s):
    """Penalty rules 1 and 3 for one row or column `s` (a string of "0"/"1"): runs of five or
    more alike, and finder-like patterns."""
    score = 0
    # the runs of alike modules, split apart at every change (string methods run in C)
    for run in s.replace("01", "0 1").replace("10", "1 0").split():
        if len(run) >= 5:
            score += len(run) - 2
    for pat in ("10111010000", "00001011101"):
        start = s.find(pat)
        while start >= 0:
            score += 40
            start = s.find(pat, start + 1)
    return score


def _penalty_rows(rows):
    """The mask penalty (ISO/IEC 18004 rules 1-4) of a grid given as its rows, strings of
    "1" (dark) and "0"."""
    n = len(rows)
    score = 0
    for s in rows:
        score += _line_penalty(s)
    for column in zip(*rows):
        score += _line_penalty("".join(column))
    # 2x2 blocks alike, two rows at a time as integers: a bit is set where a module differs
    # from its right neighbour (in either row) or from the one below; the clear bits remain
    all1 = (1 << (n - 1)) - 1
    ints = [int(s, 2) for s in rows]
    for y in range(n - 1):
        a, b = ints[y], ints[y + 1]
        block = (((a ^ (a >> 1)) | (b ^ (b >> 1)) | (a ^ b)) & all1) ^ all1
        score += 3 * bin(block).count("1")
    dark = 0
    for s in rows:
        dark += s.count("1")
    total = n * n
    k = (abs(dark * 20 - total * 10) + total - 1) // total - 1
    return score + k * 10


def matrix(text, ecl="M", mask=None):
    """The QR code of `text` as rows of booleans (True: dark). Raises ValueError when it
    does not fit version 10."""
    for rows in steps(text, ecl, mask):
        pass
    return rows


def steps(text, ecl="M", mask=None):
    """matrix() in small steps, for a page that must not hold its main thread long: a
    generator that yields None after the encoding and after each mask tried, and last the
    rows (what matrix() returns). Raises ValueError (on the first step) when `text` does not
    fit version 10."""
    data = _utf8(text)
    version = None
    for v in range(1, MAX_VERSION + 1):
        header = 4 + (8 if v < 10 else 16)
        if header + 8 * len(data) <= _capacity(v, ecl) * 8:
            version = v
            break
    if version is None:
        raise ValueError("too long for a QR code here")
    words = _codewords(data, version, ecl)
    base = _Grid(version)
    _functions(base, version)
    _place(base, words)
    n = base.size
    dark = [int(_bits(r), 2) for r in base.dark]
    free = [int(_bits([not f for f in r]), 2) for r in base.func]    # the data modules
    yield None
    best = None
    for m in (range(8) if mask is None else [mask]):
        flips = _mask_rows(m, n)
        g = _IntRows(n, [dark[y] ^ (flips[y % 12] & free[y]) for y in range(n)])
        _format(g, ecl, m)
        rows = g.strings()
        score = _penalty_rows(rows) if mask is None else 0
        if best is None or score < best[0]:
            best = (score, rows)
        yield None
    yield [[c == "1" for c in row] for row in best[1]]


def svg_path(rows):
    """One SVG path for the dark modules: a horizontal run of dark modules is one rectangle."""
    parts = []
    for y in range(len(rows)):
        row = rows[y]
        x = 0
        while x < len(row):
            if row[x]:
                start = x
                while x < len(row) and row[x]:
                    x += 1
                parts.append("M" + str(start) + " " + str(y) + "h" + str(x - start) + "v1h-"
                             + str(x - start) + "z")
            else:
                x += 1
    return "".join(parts)
