"""The one table of code loaded for a moment (firmware/rules/const.py ``BRIEF``) names exactly the modules loaded so.

bench/brief_loads.py measures each on the emulated Pico (make bench) and fails when a figure in the
table drifts; this holds the table to the call sites on every run of the fast tests.
"""

from bench.brief_loads import brief_modules, table_rows


def test_every_module_loaded_briefly_is_in_the_table_and_nothing_else():
    named = brief_modules()
    rows = table_rows()
    assert len(named) >= 15, named  # (the call sites were found)
    assert sorted(rows) == named, (sorted(set(named) - set(rows)), sorted(set(rows) - set(named)))
    assert all(0 < kb < 20 for kb in rows.values()), rows
