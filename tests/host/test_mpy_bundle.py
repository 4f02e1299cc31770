"""scripts/mpy_bundle.py: the device bundle's rewrite (constants folded, imports made absolute).

On small packages written here, then on the firmware itself. That the rewritten
firmware runs is the device-fit game's job (tests/host/test_device_fit.py: it
plays from build/mpy) and test_main_boot's.
"""

import ast
import sys
import textwrap

import pytest

from .conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import mpy_bundle  # noqa: E402


def package(tmp_path, files):
    """A firmware package under tmp_path: {relative path: source}."""
    for rel, text in files.items():
        path = tmp_path / "firmware" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    (tmp_path / "firmware" / "__init__.py").touch()
    return tmp_path


def rewritten(tmp_path, files):
    return mpy_bundle.rewrite(package(tmp_path, files))


A = """\
    from micropython import const

    RED = const(3)
    GREEN = const(RED + 1)  # from the one before
    _SECRET = const(9)
    NAMES = ("red", "green")


    def paint(colour=RED):
        return colour | _SECRET
    """


def test_a_constant_used_elsewhere_becomes_its_value_and_its_import_goes(tmp_path):
    out = rewritten(tmp_path, {"a.py": A, "b.py": """\
        from .a import (
            GREEN,
            NAMES,
            RED,
        )


        def pick(n):
            return RED if n else GREEN, NAMES
        """})
    b = out["firmware/b.py"]
    assert "from firmware.a import NAMES" in b  # (absolute: the module's own name is interned anyway)
    assert "return 3 if n else 4, NAMES" in b
    assert "RED" not in b and "GREEN" not in b


def test_every_line_stays_on_its_line(tmp_path):
    """A traceback from the device names the source's line."""
    b = """\
        from .a import (
            GREEN,
            RED,
        )
        from .a import paint


        def pick(n):
            if n:
                return RED
            raise ValueError(GREEN)
        """
    out = rewritten(tmp_path, {"a.py": A, "b.py": b})
    assert out["firmware/b.py"].count("\n") == textwrap.dedent(b).count("\n")
    lines = out["firmware/b.py"].splitlines()
    assert lines[9].strip() == "return 3" and lines[10].strip() == "raise ValueError(4)"
    assert lines[4] == "from firmware.a import paint"


def test_the_definitions_become_private_so_the_names_are_never_stored(tmp_path):
    out = rewritten(tmp_path, {"a.py": A})
    a = out["firmware/a.py"]
    assert "_RED = const(3)" in a and "_GREEN = const(3 + 1)" in a and "_SECRET = const(9)" in a
    assert "def paint(a=3):" in a  # (and its argument renamed: below)


def test_a_module_attribute_is_folded_too(tmp_path):
    out = rewritten(tmp_path, {"a.py": A, "sub/__init__.py": "", "sub/c.py": """\
        from .. import a as colours


        def red():
            return colours.RED, colours.paint
        """})
    assert "return 3, colours.paint" in out["firmware/sub/c.py"]
    assert "from firmware import a as colours" in out["firmware/sub/c.py"]


def test_a_constant_passed_on_by_a_package_is_folded_where_it_is_used(tmp_path):
    out = rewritten(tmp_path, {"a.py": A, "sub/__init__.py": "from ..a import RED  # noqa: F401\n",
                               "sub/c.py": "from . import RED\nX = [RED]\n"})
    assert out["firmware/sub/__init__.py"].startswith("pass")
    assert out["firmware/sub/c.py"].splitlines()[1] == "X = [3]"


def test_an_import_inside_a_function_is_folded(tmp_path):
    out = rewritten(tmp_path, {"a.py": A, "b.py": """\
        def late():
            from .a import RED

            return RED * 2
        """})
    assert out["firmware/b.py"].splitlines()[1:4] == ["    pass", "", "    return 3 * 2"]


def test_a_constant_read_by_name_stays_public(tmp_path):
    """``x.RED`` on an object the rewrite cannot tell is the module: a.RED must still exist."""
    out = rewritten(tmp_path, {"a.py": A, "b.py": """\
        from .a import GREEN, RED


        def shade(palette):
            return palette.RED, RED, GREEN
        """})
    assert "\nRED = const(3)" in out["firmware/a.py"]
    assert "_GREEN = const(3 + 1)" in out["firmware/a.py"]
    assert "return a.RED, 3, 4" in out["firmware/b.py"]


def test_a_constant_named_in_a_string_stays_public(tmp_path):
    out = rewritten(tmp_path, {"a.py": A, "b.py": "NAME = 'GREEN'\n"})
    assert "\nGREEN = const(3 + 1)" in out["firmware/a.py"]


def test_a_name_that_is_a_constant_and_something_else_stops_the_build(tmp_path):
    with pytest.raises(mpy_bundle.BuildError, match=r"firmware/b.py:5: RED is a constant \(3\)"):
        rewritten(tmp_path, {"a.py": A, "b.py": """\
            from .a import RED


            def f():
                RED = 1
                return RED
            """})


def test_a_constant_assigned_again_in_its_own_module_stops_the_build(tmp_path):
    # (Folded, RED would read 3 everywhere while the module's RED became 5.)
    with pytest.raises(mpy_bundle.BuildError, match=r"firmware/a.py:\d+: RED is a constant \(3\)"):
        rewritten(tmp_path, {"a.py": A + "RED = 5\n", "b.py": "from .a import RED\nX = RED\n"})


def test_a_constant_in_an_f_string_stops_the_build(tmp_path):
    with pytest.raises(mpy_bundle.BuildError, match="f-string"):
        rewritten(tmp_path, {"a.py": A, "b.py": "from .a import RED\nX = f'{RED}'\n"})


def test_a_negative_constant_is_written_in_brackets(tmp_path):
    out = rewritten(tmp_path, {"a.py": "from micropython import const\nLOW = const(-2)\n",
                               "b.py": "from .a import LOW\nX = LOW.bit_length(), -LOW\n"})
    assert out["firmware/b.py"].splitlines()[1] == "X = (-2).bit_length(), -(-2)"


def test_the_firmware_rewrites_and_keeps_every_line():
    out = mpy_bundle.rewrite(ROOT)
    modules = mpy_bundle.find_modules(ROOT)
    assert set(out) == {m.rel for m in modules.values()}
    for module in modules.values():
        text = out[module.rel]
        assert text.count("\n") == module.source.count("\n"), module.rel
        tree = ast.parse(text)  # (the rewrite checks the rest: a tree equal to the original's but for names)
        for node in ast.walk(tree):  # no constant is still imported by name from the firmware
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("firmware"):
                assert node.level == 0, (module.rel, node.lineno)
    events = out["firmware/events.py"]
    assert "_EV_MOVE = const(" in events and "\nEV_MOVE" not in events
    assert "_SR_CHIPS = const(46)" in out["firmware/board_config.py"]  # (its users have the numbers)
    assert "cfg.SR_CHIPS" not in out["firmware/drivers/pico.py"]


SHIM = """\
    try:
        from time import ticks_diff, ticks_ms

        from micropython import const
    except ImportError:  # CPython
        import time

        def const(value):
            return value

        def ticks_ms():
            return time.monotonic_ns() // 1_000_000
    ticks_diff = ticks_diff  # (bound again here: not forwarded)


    def helper():
        return ticks_ms()
    """


def test_a_cpython_fallback_is_left_out_and_its_lines_kept(tmp_path):
    out = rewritten(tmp_path, {"micro.py": SHIM})["firmware/micro.py"]
    lines = out.splitlines()
    assert lines[0] == "if 1:" and "from micropython import const" in lines[3]
    assert all(not line.strip() for line in lines[4:12])
    assert len(lines) == len(textwrap.dedent(SHIM).splitlines())


def test_the_type_checkers_blocks_are_left_out_and_their_lines_kept(tmp_path):
    """``if TYPE_CHECKING:`` never runs on the device: its imports and stubs would be heap."""
    source = """\
        TYPE_CHECKING = False
        if TYPE_CHECKING:
            from .a import Thing


        class B:
            x: "Thing"

            if TYPE_CHECKING:
                def helper(self): ...

            def run(self):
                return 1
        """
    out = rewritten(tmp_path, {"b.py": source})["firmware/b.py"]
    lines = out.splitlines()
    assert lines[1] == "pass" and not lines[2].strip()
    assert lines[8].strip() == "pass" and not lines[9].strip()
    assert "Thing" not in out.replace('x: "Thing"', "") and "helper" not in out
    assert len(lines) == len(textwrap.dedent(source).splitlines())


def test_what_a_shim_takes_from_micropython_is_imported_from_there(tmp_path):
    """The shim (firmware/micro.py) never loads on the device for names MicroPython has itself."""
    out = rewritten(tmp_path, {"micro.py": SHIM, "b.py": """\
        from .micro import const, helper, ticks_diff, ticks_ms

        _N = const(2)
        """})
    first = out["firmware/b.py"].splitlines()[0]
    assert first == ("from firmware.micro import helper, ticks_diff; from micropython import const; "
                     "from time import ticks_ms")
    out = rewritten(tmp_path, {"micro.py": SHIM, "c.py": "from .micro import const as k, ticks_ms\n"})
    assert out["firmware/c.py"] == "from micropython import const as k; from time import ticks_ms\n"


def test_an_argument_no_call_names_takes_a_short_shared_name(tmp_path):
    """Its name would be interned only for keyword calls: none passes it so."""
    out = rewritten(tmp_path, {"b.py": """\
        def move(board, colour, point, now_ms=0):
            def near(other):
                return other - point

            return [near(p) + colour for p in board], now_ms


        def later(colour, a):
            return lambda point: point + colour + a


        X = move((1, 2), 1, 3, now_ms=5)
        """})["firmware/b.py"].splitlines()
    assert out[0] == "def move(a, b, c, now_ms=0):"  # now_ms is passed by name: kept
    assert out[1:3] == ["    def near(d):", "        return d - c"]  # (the outer argument's new name is taken)
    assert out[4] == "    return [near(p) + b for p in a], now_ms"
    assert out[7:9] == ["def later(b, a):", "    return lambda c: c + b + a"]  # a was free: not renamed


def test_an_argument_bound_again_inside_keeps_its_name(tmp_path):
    out = rewritten(tmp_path, {"b.py": """\
        def outer(items, key):
            def inner(key):
                return key + 1

            return [inner(item) for item in items], key


        def uses_locals(value):
            return locals()
        """})["firmware/b.py"].splitlines()
    assert out[0] == "def outer(a, key):"  # inner's own key: the outer one keeps its name
    assert out[1] == "    def inner(b):"  # (not the outer argument's new name)
    assert out[7] == "def uses_locals(value):"


def test_the_names_any_project_file_passes_by_keyword_are_kept(tmp_path):
    package(tmp_path, {"b.py": "def f(size, point):\n    return size + point\n"})
    (tmp_path / "tool.py").write_text("from firmware.b import f\nf(1, point=2)\n")
    assert mpy_bundle.rewrite(tmp_path)["firmware/b.py"].startswith("def f(a, point):")
