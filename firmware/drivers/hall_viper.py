"""The Hall array's sweep and classification as viper code (drivers/hall.py), compiled at import.

``build(code, chan, source(...))`` compiles ``SOURCE`` where the port has
a native emitter (rp2, unix) and returns its functions, ``sweep`` and
``nudge``; an empty dict where it cannot (CPython, the WebAssembly port):
the driver then runs its Python loops, which give the same readings. The
source is a string so that ``make mpy`` stays bytecode-only.

``sweep(driver, buf, judge)`` walks the muxes in the order of ``code``, one
select line set a step (the driver's ``_lines``, called), and reads the
two ADCs (``_read0``, ``_read1``). A sample is taken no sooner than
``settle_us`` after its step's line was set: the driver's ``_clock``
(time.ticks_us) is read after the setting, then again until that much has
passed. With ``judge`` set, the points sampled at the step before are
classified meanwhile (as the Python ``_classify`` does, point by point),
so the settling time is not lost to waiting. A point's classification
reads and writes that point's sample, baseline and state only: the order
does not change the readings (the held points are listed in sweep order;
their nudge is the same).

ptr32 zero-extends on a 64-bit port: a baseline is sign-extended by hand (top + top wraps to 0
on a 32-bit one).
"""

SOURCE = """
@micropython.viper
def sweep(self, buf, judge: int):
    lines = self._lines
    read0 = self._read0
    read1 = self._read1
    clock = self._clock
    code = ptr8(_CODE)
    chan = ptr8(_CHAN)
    samples = ptr16(self.samples)
    base = ptr32(self.baseline)
    state = ptr8(self.state)
    held = ptr16(self._held)
    out = ptr8(buf)
    on = int(self.on)
    off = int(self.off)
    shift = int(self.drift_shift)
    settle = int(self.settle_us)
    points = int(self.points)
    quiet = off >> 1
    half = (1 << shift) >> 1
    top = 1
    top <<= 31
    n = int(self.nbytes) * judge
    i = 0
    while i < n:
        out[i] = 0
        i += 1
    nheld = 0
    total = 0
    ntracked = 0
    t0 = 0
    judged = points * judge  # (0: no point is classified)
    last = points
    k = 0
    while k <= %(steps)d:
        if k < %(steps)d:
            c = code[k]
            lines[c & 7](c >> 3)
            t0 = int(clock())
        p = last
        while p < judged:
            x = int(samples[p])
            if x <= %(low)d or x >= %(high)d:
                v = 3
            else:
                b = int(base[p])
                if b & top:
                    b -= top + top
                d = x - (b >> %(fix)d)
                s = int(state[p])
                if s == 1 and d > off:
                    v = 1
                elif s == 2 and d < 0 - off:
                    v = 2
                elif d >= on:
                    v = 1
                elif d <= 0 - on:
                    v = 2
                else:
                    v = 0
                if v == 0 and 0 - quiet < d and d < quiet:
                    step = ((x << %(fix)d) - b + half) >> shift
                    base[p] = b + step
                    total += step
                    ntracked += 1
                else:
                    held[nheld] = p
                    nheld += 1
            state[p] = v
            if v:
                out[p >> 2] |= v << ((p & 3) << 1)
            p += %(steps)d
        if k == %(steps)d:
            break
        while (int(clock()) - t0) & 0x3FFFFFFF < settle:
            pass
        p = int(chan[k])
        last = p
        if p < points:
            samples[p] = int(read0())
            p += %(steps)d
            if p < points:
                samples[p] = int(read1())
        k += 1
    if judge:
        sums = ptr32(self._sums)
        sums[0] = total
        sums[1] = ntracked
        sums[2] = nheld


@micropython.viper
def nudge(base_arr, held_arr, n: int, step: int):
    base = ptr32(base_arr)
    held = ptr16(held_arr)
    i = 0
    while i < n:
        p = held[i]
        base[p] = int(base[p]) + step
        i += 1
"""


def source(steps, low, high, fix):
    """``SOURCE`` with the driver's constants: the steps of a sweep, the rails, the baselines' shift."""
    return SOURCE % {"steps": steps, "low": low, "high": high, "fix": fix}


def build(code, chan, text):
    """``sweep`` and ``nudge`` compiled from ``text`` (``source(...)``) with the
    sweep's tables ``code`` and ``chan``; {} where the port has no native emitter."""
    names: dict = {"_CODE": code, "_CHAN": chan}
    try:
        import micropython

        names["micropython"] = micropython
        exec(text, names)
    except (ImportError, SyntaxError, ValueError, NotImplementedError):
        return {}
    return {"sweep": names["sweep"], "nudge": names["nudge"]}
