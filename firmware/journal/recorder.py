"""The board's game in the journal: each change recorded as it is told, on flash before the host hears it.

The ``Recorder`` listens to the app's follower (firmware/follower.py), like
the link does: a new game, the handicap, moves with their clock figures,
undos, warnings, the result and the mode become records (records.py) as
they are told. ``record(now_ms, clock, seq_next)`` runs in the app's host
stage after the follower and before the link writes (and after a host
command, before its reply): it adds the clock's state when it changed (and a
checkpoint every ``CHECKPOINT_MS`` while it runs), reserves the link's
sequence numbers ``_SEQ_BLOCK`` at a time (after a power cut the link goes on
from the last reservation, so the host never sees a number twice), and
flushes once. A new game, a power-up or a storage error makes it write the
whole game as a snapshot at once (store.py's compaction: a new game's is
short). A journal past ``limit`` bytes is compacted a slice at a time
instead, a job of the app's (firmware/jobs.py: a slice in a loop pass that
does nothing else long; about ``_SLICE`` bytes, so that the pass stays
short): the snapshot's NEW record, then its moves in order, then the rest of the game as it is by then
(penalties, result, mode, sequence numbers, clock) and COMMIT. Meanwhile every change still goes to the journal, and moves
played meanwhile join the snapshot as it catches up with them; an undo of a
move the snapshot already holds, or the handicap placed, starts it again.
Captured stones still on the board and dead stones being counted are not
recorded: the referee sees them again on the physical board. An ordinary
record, or a slice of moves, allocates nothing; recovery.py reads the
journal back at power-up.
"""

from array import array

from ..clock.engine import SAVED
from ..jobs import drop, finish, start
from ..micro import const, ticks_add, ticks_diff
from ..rules.game import PLAYING
from .records import (
    K_CLOCK,
    K_END,
    K_MODE,
    K_MOVE,
    K_NEW,
    K_PENALTY,
    K_RESUME,
    K_SEQ,
    K_SETUP,
    K_TICK,
    K_UNDO,
    REASONS,
    new_text,
)
from .store import MAIN, NEXT

CHECKPOINT_MS = const(10000)  # the most thinking time a power cut can give back
_LIMIT = const(16384)  # journal bytes that trigger a compaction
_SLICE = const(384)  # snapshot bytes a slice writes (each costs CRC time)
_SEQ_BLOCK = const(256)
_SEQ_MARGIN = const(64)  # more lines than one link poll can add
RETRY_MS = const(5000)  # a failing flash is tried again this often (not at every host stage: wear, time)


class Recorder:
    """Journals what ``follower`` tells (see the module doc). ``jobs``: the app's, which write
    a compaction a slice a pass; ``seq_mark`` and ``boot``: the link's numbering reserved so
    far and this power-up's number."""

    def __init__(self, journal, follower, jobs, boot=0, seq_mark=0, checkpoint_ms=CHECKPOINT_MS, limit=_LIMIT):
        self.journal = journal
        self.follower = follower
        self.jobs = jobs
        self.job = None  # the compaction under way
        self.boot = boot
        self.seq_mark = seq_mark
        self.checkpoint_ms = checkpoint_ms
        self.limit = limit
        self.stale = True  # the journal file does not hold the game: write a snapshot
        self.errors = 0  # storage failures survived
        self.failing = False  # the last write failed: nothing is on flash until a snapshot succeeds
        self._retry_at = 0
        self.compacting = 0  # a snapshot is being written: the next move it takes (0: none)
        self.clock_changes = -1
        self.clock_at = 0
        self._clock = array("i", bytes(4 * SAVED))
        self._prepare = getattr(journal.storage, "prepare", None)  # (drivers/flashlog.py's)

    # -- what the follower tells ----------------------------------------------------

    def started(self):
        self.stale = True  # record() writes the new game whole

    def placed(self):
        self.stop()  # a snapshot under way has no SETUP: it starts again
        if not self.stale:
            self._setup()

    def undone(self, keep):
        if keep < self.compacting:  # the snapshot holds moves taken back: it starts again
            self.stop()
        if not self.stale:
            j = self.journal
            j.begin(K_UNDO)
            j.u16(keep)
            j.end()

    def moved(self, k):
        if not self.stale:
            self._move(k)

    def penalised(self, i):
        if not self.stale:
            self._penalty(i)

    def ended(self):
        if not self.stale:
            self._end()

    def mode_changed(self):
        if not self.stale:
            self._mode()

    def resumed(self):
        if not self.stale:
            self._resume()

    # -- every host stage -------------------------------------------------------------

    def record(self, now_ms, clock, seq_next):
        """The clock, the sequence numbers, a compaction begun (or a whole snapshot written)
        when due, one flush.
        ``clock``: the game's clock or None; ``seq_next``: the link's next sequence number.
        After a failure (``failing``) the whole game is tried again every RETRY_MS."""
        due = clock is not None and (clock.changes != self.clock_changes
                                     or ticks_diff(now_ms, self.clock_at) >= self.checkpoint_ms)
        if not (due or self.stale or self.failing or self.journal.dirty or self.journal.failed
                or (self.journal.size > self.limit and self.job is None) or seq_next + _SEQ_MARGIN > self.seq_mark):
            if self._prepare is not None:  # nothing to write: the flash log erases its next sector now
                self._prepare()
            return
        if self.failing and ticks_diff(now_ms, self._retry_at) < 0:
            return
        self._record(now_ms, clock, seq_next, due)

    def _record(self, now_ms, clock, seq_next, due):
        # (apart from record: a frame this large is taken from the heap at each call, see micro.py)
        # ``due``: the clock's state to write (it changed, or a checkpoint is due)
        j = self.journal
        written = j.written
        if seq_next + _SEQ_MARGIN > self.seq_mark:  # few numbers left: the next ones reserved
            self.seq_mark = seq_next + _SEQ_BLOCK
            if not self.stale:
                self._seq()  # (a snapshot has it)
        if self.stale:
            self.stop()
            finish(start(self.work(clock)), now_ms)
            self.stale = False
        else:  # each part only when it has something to write: an idle board's stage ends here
            if due:
                self._clock_state(now_ms, clock)
            if j.size > self.limit and self.job is None:
                self.job = start(self.work(clock))
                self.jobs.append(self.job)
            if j.written == written and self._prepare is not None:
                self._prepare()  # a pass that wrote nothing: as in record
        if j.dirty:
            j.flush()
        if j.failed:
            j.failed = False
            self.errors += 1
            self.stale = True
            self.failing = True
            self._retry_at = ticks_add(now_ms, RETRY_MS)
        else:
            self.failing = False

    def stop(self):
        """The compaction under way let go (the next record() begins another when due)."""
        self.job = drop(self.jobs, self.job)
        self.compacting = 0

    def work(self, clock):
        # The snapshot (see the module doc), a job: a slice each time it is sent the time.
        # Moves up to _SLICE bytes a slice; the rest of the game, COMMIT and the rename (which
        # costs about as much as a slice's records) in a slice whose moves took at most a
        # quarter of that. The link's numbers: the reservation as it stands (record() keeps
        # it ahead of the link; a replay the rules stop early has it here).
        now_ms = yield
        f = self.follower
        j = self.journal
        j.target = NEXT
        j.begin_snapshot()
        j.begin(K_NEW)
        j.text(new_text(f.settings, f.game.komi2, f.mode, f.gid, f.game_boot))
        j.end()
        self._seq()
        if f.placed:
            self._setup()
        k = 1
        start = 0
        while True:
            while k < f.known and j.next_size - start < _SLICE:
                self._move(k)
                k += 1
            self.compacting = k
            if k >= f.known and j.next_size - start <= _SLICE // 4:
                break
            j.target = MAIN  # (the journal goes on meanwhile)
            now_ms = yield
            j.target = NEXT
            start = j.next_size
        for i in range(f.penalties):
            self._penalty(i)
        if f.result is not None:
            self._end()
        elif f.game.phase == PLAYING and f.known > 2:
            self._resume()  # (passes at the end of the moves: play went on after them)
        self._mode()
        self._seq()
        self.clock_changes = -1
        self._clock_state(now_ms, clock)
        j.end_snapshot()
        self.compacting = 0
        self.job = None

    # -- records -----------------------------------------------------------------------

    def _setup(self):
        j = self.journal
        j.begin(K_SETUP)
        for pt in self.follower.game.setup_stones[0]:
            j.u16(pt)
        j.end()

    def _move(self, k):
        f = self.follower
        j = self.journal
        j.begin(K_MOVE)
        j.u16(k)
        j.u16(f.record[k])
        j.i32(f.tleft[k])
        j.u8(f.periods[k])
        j.end()

    def _penalty(self, i):
        k, colour, kind, value, reason = self.follower.game.penalties[i]
        j = self.journal
        j.begin(K_PENALTY)
        j.u16(k)
        j.u8(colour)
        j.u8(kind)
        j.u16(value)
        j.text(reason)
        j.end()

    def _end(self):
        result = self.follower.result
        j = self.journal
        j.begin(K_END)
        j.u8(3 if result.winner is None else result.winner)
        j.u8(REASONS.index(result.reason) if result.reason in REASONS else 0)
        j.u16(result.margin2)
        j.text(result.detail)
        j.end()

    def _resume(self):
        j = self.journal
        j.begin(K_RESUME)
        j.u8(self.follower.game.to_move)
        j.end()

    def _mode(self):
        j = self.journal
        j.begin(K_MODE)
        j.u8(self.follower.mode)
        j.end()

    def _clock_state(self, now_ms, clock):
        if clock is None:
            return
        j = self.journal
        saved = self._clock
        if clock.changes != self.clock_changes:
            self.clock_changes = clock.changes
            self.clock_at = now_ms
            clock.save_into(saved, now_ms)
            j.begin(K_CLOCK)
            for i in range(SAVED):
                j.i32(saved[i])
            j.end()
        elif ticks_diff(now_ms, self.clock_at) >= self.checkpoint_ms:
            self.clock_at = now_ms  # (a clock standing still: its next change is saved whole)
            if clock.turn and not (clock.paused or clock.stopped or clock.flag is not None):
                clock.save_into(saved, now_ms)
                j.begin(K_TICK)
                j.i32(saved[2])
                j.end()

    def _seq(self):
        # The link's sequence numbers reserved, to the journal (the link goes on after them
        # at the next power-up: the host never sees a number twice).
        j = self.journal
        j.begin(K_SEQ)
        j.i32(self.seq_mark)
        j.i32(self.boot)
        j.end()
