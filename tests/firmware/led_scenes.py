"""Marks of typical board moments, shared by LED tests and benchmarks."""

from firmware.leds.marks import ATARI, ERROR, LAST_MOVE, LIBERTY, TERRITORY, Marks


def mid_game_marks():
    """A teaching-mode mid-game: last move, its liberties, an atari, some territory, an error."""
    marks = Marks()
    marks.set(180, LAST_MOVE, 1)
    for p in (161, 179, 181, 199):
        marks.set(p, LIBERTY)
    for p in (60, 61, 62):
        marks.set(p, ATARI, 2)
    for p in range(300, 361):
        marks.set(p, TERRITORY, 1 + p % 2)
    marks.set(5, ERROR)
    return marks
