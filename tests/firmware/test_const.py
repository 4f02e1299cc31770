"""What the rules core carries of MicroPython (firmware/rules/const.py): zeroed arrays made at their size."""

import sys

from support import check

from firmware.rules.const import zeros


def test_zeros_are_an_array_of_zeros_of_the_type_and_length():
    failures = []
    for typecode, n in (("H", 722), ("i", 512), ("I", 883), ("H", 0)):
        a = zeros(typecode, n)
        if len(a) != n or any(a):
            failures.append("%s %d: %d entries, %r..." % (typecode, n, len(a), list(a[:4])))
        if n:
            a[n - 1] = 65535  # a whole 16-bit entry: each entry is of the type
            if a[n - 1] != 65535 or a[n - 2]:
                failures.append("%s %d: an entry is not of the type" % (typecode, n))
    check(failures)


def test_an_array_of_a_value_holds_it_everywhere():
    a = zeros("H", 441, 0xFFFF)  # (a region's "no point")
    check([] if len(a) == 441 and min(a) == max(a) == 0xFFFF else ["%d entries, %r..." % (len(a), list(a[:4]))])


def test_a_zeroed_array_takes_its_own_size_and_no_temporary_under_micropython():
    if sys.implementation.name != "micropython":
        return
    import gc

    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        a = zeros("I", 512)  # 2 KB of entries
        used = gc.mem_alloc() - before
    finally:
        gc.enable()
    check([] if len(a) == 512 and 2048 <= used < 2048 + 256 else ["made with %d bytes allocated" % used])
