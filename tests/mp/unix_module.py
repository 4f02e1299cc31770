"""Run one firmware test module's test_* functions under MicroPython's unix port.

    MICROPYPATH=.frozen:ROOT:ROOT/tests/firmware micropython -X heapsize=4M tests/mp/unix_module.py test_game

Prints PASS/FAIL lines (a failure's traceback after it) and, last,
``RESULT passed failed``. tests/mp/run_unix.py runs every module this way.
"""

import sys
import time

name = sys.argv[1]
module = __import__(name)
passed = failed = 0
for test in sorted(n for n in dir(module) if n.startswith("test_")):
    t0 = time.ticks_ms()
    try:
        getattr(module, test)()
    except Exception as error:  # noqa: BLE001 - every failure is reported, the others run on
        failed += 1
        print("FAIL %s.%s" % (name, test))
        sys.print_exception(error)
    else:
        passed += 1
        print("PASS %s.%s (%d ms)" % (name, test, time.ticks_diff(time.ticks_ms(), t0)))
print("RESULT %d %d" % (passed, failed))
