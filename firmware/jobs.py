"""Long work a slice a loop pass: the count, the journal's compaction, the seal's catch-up.

A job is a generator that does one slice of its work each time it is sent
the time (``send(now_ms)``), each slice short enough for a loop pass on a
Pico, and returns once it is done. It is made started (``start``: up to its
first ``yield``, where it does nothing yet), so that the pass that made it
(often one that decided something) does none of its work. The app's jobs are
a list, first made first done: its loop ``resume``s the first one in a pass
that did nothing else long (firmware/loop.py ``sense``). ``finish`` does the
rest of a job at once: its result is wanted now (a stone placed while the
count is being made), or there is no loop to run it (host tools, tests).
(A list and functions, not a class: each name a board's code holds costs
its heap for good, docs/device.md.)
"""


def start(job):
    """``job`` (a generator) run up to its first ``yield``, ready for ``send``."""
    next(job)
    return job


def resume(jobs, now_ms):
    """One slice of the first of ``jobs`` (which leaves the list once done)."""
    try:
        jobs[0].send(now_ms)
    except StopIteration:
        jobs.pop(0)


def finish(job, now_ms, jobs=None):
    """Every slice of ``job`` left, now; it leaves ``jobs`` (the app's, or None)."""
    drop(jobs, job)
    try:
        while True:
            job.send(now_ms)
    except StopIteration:
        pass


def drop(jobs, job):
    """``job`` (or None) taken out of ``jobs`` (or None) unfinished: its owner no longer wants it
    (a new game, an undo under it). Returns None (``self.job = drop(self.jobs, self.job)``)."""
    if jobs is not None and job in jobs:
        jobs.remove(job)
