"""Shared fixtures for the host (CPython-only) tests."""

import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"

# Modules whose tests start processes, browsers, brokers or databases, or play at length: `make check`
# (pytest -m "not slow") leaves them to `make test`.
SLOW = {
    "test_broker_access", "test_browser_guidance", "test_browser_sim", "test_browser_walk", "test_course",
    "test_deploy",
    "test_board_engine", "test_classroom", "test_device_fit", "test_engine", "test_flashlog_crash", "test_hardware", "test_journal_crash",
    "test_live_board",
    "test_logger_boards", "test_logger_e2e", "test_logger_mqtt", "test_logger_robust", "test_main_boot",
    "test_mpy_bundle", "test_pg_server", "test_play", "test_players", "test_rules_speed", "test_sim_agrees_with_gtp",
    "test_sim_cli", "test_sim_engine", "test_teach_review", "test_sim_power_cut", "test_venue", "test_venue_console_page", "test_venue_e2e",
    "test_venue_feed", "test_venue_http", "test_venue_intake", "test_venue_logins",
}


def pytest_collection_modifyitems(items):
    for item in items:
        if item.module is not None and item.module.__name__.rpartition(".")[2] in SLOW:
            item.add_marker(pytest.mark.slow)


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


@pytest.fixture
def fake(tmp_path):
    """A GTP engine program that fails as asked (fake_engine.py): ``fake(how)`` is its command line."""
    from .fake_engine import fake_engine

    return fake_engine(tmp_path)
