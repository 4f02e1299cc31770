"""Long work a slice a loop pass (firmware/jobs.py): jobs made started, run first made first, finished at once, let go."""

from support import check

from firmware.jobs import drop, finish, resume, start


def slices(log, name, n):
    """A job of n slices, each logging (name, the time it was sent)."""
    now_ms = yield
    for _ in range(n):
        log.append((name, now_ms))
        now_ms = yield


def test_a_job_made_does_nothing_until_resumed_then_one_slice_a_pass_in_order():
    log = []
    jobs = [start(slices(log, "a", 2))]
    jobs.append(start(slices(log, "b", 1)))
    made = list(log)
    passes = 0
    while jobs and passes < 10:
        passes += 1
        resume(jobs, 10 * passes)
    check([] if made == [] else ["work done when made: %r" % made]
          + ([] if log == [("a", 10), ("a", 20), ("b", 40)] else ["slices %r" % log])
          + ([] if passes == 5 else ["%d passes (a's two slices, its end, b's slice, its end)" % passes]))


def test_a_job_finished_at_once_does_every_slice_left_and_leaves_the_list():
    log = []
    job = start(slices(log, "a", 3))
    other = start(slices(log, "b", 1))
    jobs = [job, other]
    resume(jobs, 5)
    finish(job, 7, jobs)
    check([] if log == [("a", 5), ("a", 7), ("a", 7)] and jobs == [other] else ["%r, left %d" % (log, len(jobs))])


def test_a_job_let_go_does_no_more_and_dropping_none_or_no_list_is_harmless():
    log = []
    job = start(slices(log, "a", 3))
    jobs = [job]
    resume(jobs, 1)
    left = drop(jobs, job)
    drop(jobs, None)
    drop(None, job)
    check([] if left is None and jobs == [] and log == [("a", 1)] else ["%r %r %r" % (left, jobs, log)])


def test_a_job_without_a_loop_is_finished_where_it_is_made():
    log = []
    finish(start(slices(log, "a", 2)), 3)
    check([] if log == [("a", 3), ("a", 3)] else ["%r" % log])
