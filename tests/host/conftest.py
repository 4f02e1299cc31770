"""Shared fixtures for the host (CPython-only) tests."""

import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"


@pytest.fixture
def gtp():
    """A fresh GTP arbiter; call it with a command line, get the answer text."""
    from host_tools.gtp.arbiter import Arbiter

    arbiter = Arbiter()

    def send(line):
        answer = arbiter.handle(line)
        assert answer.endswith("\n\n") and answer[0] in "=?", answer
        return answer

    send.arbiter = arbiter
    return send
