"""A GTP engine program for tests of how engines fail: ``fake(how)`` is its command line.

``how``: ``ok`` (genmove: E5, C3, then pass), ``v1`` (GTP version 1), ``die`` (exits at
genmove, saying why on stderr), ``garbage`` (an answer that is not GTP), ``slow`` (no answer
for 30 s), ``offboard`` (Z19), ``illegal`` (the point just played: occupied).
"""

import sys
import textwrap

FAKE = textwrap.dedent('''
    import sys, time
    how = sys.argv[1]
    moves = iter(["E5", "C3", "pass"])
    last = "pass"
    for line in sys.stdin:
        words = line.split()
        name = words[0] if words else ""
        if name == "protocol_version":
            print("= 1" if how == "v1" else "= 2", end="\\n\\n", flush=True)
        elif name == "genmove" and how == "die":
            print("out of memory", file=sys.stderr, flush=True)
            sys.exit(3)
        elif name == "genmove" and how == "garbage":
            print("thinking... E5", end="\\n\\n", flush=True)
        elif name == "genmove" and how == "slow":
            time.sleep(30)
        elif name == "genmove" and how == "illegal":
            print("= " + last, end="\\n\\n", flush=True)
        elif name == "genmove" and how == "offboard":
            print("= Z19", end="\\n\\n", flush=True)
        elif name == "genmove":
            print("= " + next(moves), end="\\n\\n", flush=True)
        elif name == "name":
            print("= Fake", end="\\n\\n", flush=True)
        elif name == "version":
            print("? unknown command", end="\\n\\n", flush=True)
        elif name == "play":
            last = words[2]
            print("=", end="\\n\\n", flush=True)
        elif name == "quit":
            print("=", end="\\n\\n", flush=True)
            break
        else:
            print("=", end="\\n\\n", flush=True)
''')


def fake_engine(folder):
    """A function of ``how`` giving the fake engine's command line (the program written in ``folder``)."""
    path = folder / "fake_engine.py"  # an engine program of its own, as GNU Go is
    path.write_text("#!" + sys.executable + "\n" + FAKE)
    path.chmod(0o755)
    return lambda how: [str(path), how]
