"""The board's game in the journal: record what changed after each step, rebuild it at boot.

``Recorder.observe(now_ms)`` runs every step, before the link writes
anything, so a change is on flash before the host hears of it. Like the
link it follows the game rather than being told: the history (moves, passes,
lost turns, undos), the handicap, warnings, the result, the mode, the clock
(every event in its log, and a checkpoint every ``CHECKPOINT_MS`` while it
runs) and the link's sequence numbers (reserved ``SEQ_BLOCK`` at a time:
after a power cut the link goes on from the last reservation, so the host
never sees a number twice). Captured stones still on the board and dead
stones being counted are not recorded: the referee sees them again on the
physical board. Nothing is allocated unless something changed; an
ordinary record allocates nothing either.

``recover(now_ms)`` (at boot) replays the journal through the rules core
(``Game.play``, ``undo``, ``warn``...), stopping at the first record that is
damaged or that the rules refuse; the clock comes back paused (the board
resumes it when the stones match). A game that had ended is not resumed:
the next game starts, numbered after it. ``snapshot(now_ms)`` writes the whole
game as a new journal file (a new game, a journal past ``limit`` bytes,
after a recovery); see firmware/journal.py.

Records (payload, little-endian):
    NEW    text: size= rules= komi2= handicap= mode= time= gid= p.<player field>=
    SETUP  u16 points: the handicap stones placed
    MOVE   u16 move number, u16 history record, i32 mover's ms left (-1: no clock), u8 periods
    UNDO   u16 positions kept
    WARN   u8 colour, u8 warnings
    END    u8 winner (3: none), u8 reason, u16 margin2, text detail
    MODE   u8 referee mode
    CLOCK  20 x i32: Clock.save_into
    TICK   i32 ms of the running turn so far (a checkpoint: the rest is in the last CLOCK)
    SEQ    i32 link sequence numbers reserved below, i32 boot id
"""

from array import array

from ..clock.engine import SAVED
from ..host.protocol import fields_dict, quote
from ..micro import const, ticks_diff
from ..referee.states import PLAY, SETUP
from ..rules.game import COUNTING, OVER, PLAYING
from ..rules.history import LOST_TURN, move_colour, move_point
from ..rules.result import CYCLE, FOUL, NO_POINTS, RESIGN, SCORE, TIME, Result
from .store import i32, u16

K_NEW = const(1)
K_SETUP = const(2)
K_MOVE = const(3)
K_UNDO = const(4)
K_WARN = const(5)
K_END = const(6)
K_MODE = const(7)
K_CLOCK = const(8)
K_SEQ = const(9)
K_TICK = const(10)

CHECKPOINT_MS = const(10000)  # the most thinking time a power cut can give back
LIMIT = const(16384)  # journal bytes that trigger a compaction
SEQ_BLOCK = const(256)
_SEQ_MARGIN = const(64)  # more lines than one link poll can add
_REASONS = (SCORE, RESIGN, TIME, FOUL, CYCLE, NO_POINTS)


class Recorder:
    """Journals one Board (firmware/app.py); see the module doc."""

    def __init__(self, board, journal, checkpoint_ms=CHECKPOINT_MS, limit=LIMIT):
        self.board = board
        self.journal = journal
        self.checkpoint_ms = checkpoint_ms
        self.limit = limit
        self.game = None
        self.known = 1  # history positions recorded
        capacity = len(board.game.hist.moves)  # as much as the history holds
        self.said = array("H", bytes(2 * capacity))  # history record of each recorded move
        self.tleft = array("i", bytes(4 * capacity))  # its mover's ms left (-1: no clock)
        self.periods = bytearray(capacity)
        self.setup_done = False
        self.warnings = bytearray(3)
        self.result = None
        self.mode = -1
        self.clock_events = -1
        self.clock_at = 0
        self.seq_mark = 0
        self.boot = board.boot
        self.gid = 0
        self.errors = 0
        self.stale = True  # the journal file does not hold the game: write a snapshot
        self._clock = array("i", bytes(4 * SAVED))

    # -- recording -------------------------------------------------------------

    def observe(self, now_ms):
        """Journal whatever changed since the last call (the first call, and
        the first after a new game, writes a snapshot). A storage error (flash
        full, say) is counted in ``errors`` and the next call writes a new
        snapshot: the game goes on, and so does the link."""
        try:
            if self.stale or self.board.game is not self.game:
                self.snapshot(now_ms)
                return
            self._changes(now_ms, self.known)
            self.journal.flush()
            if self.journal.size > self.limit:
                self.snapshot(now_ms)
        except OSError:
            self.errors += 1
            self.stale = True

    def snapshot(self, now_ms):
        """The whole game as a new journal file, then switch to it."""
        board = self.board
        game = board.game
        old = self.known if game is self.game else 1  # moves below are recorded with their figures
        self.game = game
        if len(game.hist.moves) > len(self.said):
            self._grow(len(game.hist.moves))
        j = self.journal
        j.begin_snapshot()
        j.begin(K_NEW)
        j.text(self._settings())
        j.end()
        self.known = 1
        self.setup_done = False
        self.warnings[1] = self.warnings[2] = 0
        self.result = None
        self.mode = -1
        self.clock_events = -1
        link = board.link
        if link is not None and link.next + _SEQ_MARGIN > self.seq_mark:
            self.seq_mark = link.next + SEQ_BLOCK
        self._seq()
        self._changes(now_ms, old)
        j.end_snapshot()
        self.stale = False

    def _settings(self):
        board = self.board
        game = board.game
        link = board.link
        parts = ["size=%d" % game.size, "rules=" + game.rules.name, "komi2=%d" % game.komi2,
                 "handicap=%d" % board.referee.handicap, "mode=%d" % board.referee.mode,
                 "time=" + quote(board.time_spec), "gid=%d" % (link.gid if link is not None else 0)]
        players = board.players or {}
        for key in sorted(players):
            parts.append("p." + key + "=" + quote(str(players[key])))
        return " ".join(parts)

    def _changes(self, now_ms, old):
        board = self.board
        game = board.game
        j = self.journal
        if not self.setup_done and game.handicap:
            self.setup_done = True
            j.begin(K_SETUP)
            for pt in game.setup_stones[0]:
                j.u16(pt)
            j.end()
        self._moves(game, old)
        warnings = game.warnings
        for colour in (1, 2):
            if warnings[colour] != self.warnings[colour]:
                self.warnings[colour] = warnings[colour]
                j.begin(K_WARN)
                j.u8(colour)
                j.u8(warnings[colour])
                j.end()
        result = game.result
        if result is not self.result:
            self.result = result
            if result is not None:
                j.begin(K_END)
                j.u8(3 if result.winner is None else result.winner)
                j.u8(_REASONS.index(result.reason) if result.reason in _REASONS else 0)
                j.u16(result.margin2)
                j.text(result.detail)
                j.end()
        mode = board.referee.mode
        if mode != self.mode:
            self.mode = mode
            j.begin(K_MODE)
            j.u8(mode)
            j.end()
        clock = board.clock
        if clock is not None:
            saved = self._clock
            if clock.changes != self.clock_events:
                self.clock_events = clock.changes
                self.clock_at = now_ms
                clock.save_into(saved, now_ms)
                j.begin(K_CLOCK)
                for i in range(SAVED):
                    j.i32(saved[i])
                j.end()
            elif (clock.turn and not (clock.paused or clock.stopped or clock.flag is not None)
                  and ticks_diff(now_ms, self.clock_at) >= self.checkpoint_ms):
                self.clock_at = now_ms
                clock.save_into(saved, now_ms)
                j.begin(K_TICK)
                j.i32(saved[2])
                j.end()
        link = board.link
        if link is not None and link.next + _SEQ_MARGIN > self.seq_mark:
            self.seq_mark = link.next + SEQ_BLOCK
            self._seq()

    def _seq(self):
        j = self.journal
        j.begin(K_SEQ)
        j.i32(self.seq_mark)
        j.i32(self.boot)
        j.end()

    def _moves(self, game, old):
        hist = game.hist
        length = hist.length
        moves = hist.moves
        said = self.said
        known = self.known
        j = self.journal
        if known > length or (known > 1 and moves[known - 1] != said[known - 1]):
            keep = length if length < known else known  # moves taken back (and maybe others played)
            while keep > 1 and moves[keep - 1] != said[keep - 1]:
                keep -= 1
            self.known = keep
            j.begin(K_UNDO)
            j.u16(keep)
            j.end()
        if length > len(said):
            self._grow(len(moves))
            said = self.said
        clock = self.board.clock
        while self.known < length:
            k = self.known
            record = moves[k]
            if k >= old or said[k] != record:
                said[k] = record
                self.tleft[k] = -1
                self.periods[k] = 0
                if clock is not None:
                    side = clock.snap.sides[move_colour(record)]
                    self.tleft[k] = side.main_ms + side.period_ms
                    self.periods[k] = side.periods
            j.begin(K_MOVE)
            j.u16(k)
            j.u16(record)
            j.i32(self.tleft[k])
            j.u8(self.periods[k])
            j.end()
            self.known = k + 1

    def _grow(self, capacity):
        # Rare, like History's own growth: a game longer than the arrays.
        said = array("H", bytes(2 * capacity))
        tleft = array("i", bytes(4 * capacity))
        periods = bytearray(capacity)
        for k in range(len(self.said)):
            said[k] = self.said[k]
            tleft[k] = self.tleft[k]
            periods[k] = self.periods[k]
        self.said, self.tleft, self.periods = said, tleft, periods

    def figures(self, k):
        """The recorded clock figures of move k, as Link.attach takes them."""
        return None if self.tleft[k] < 0 else (self.tleft[k], self.periods[k])

    # -- boot ------------------------------------------------------------------

    def recover(self, now_ms):
        """Replay the journal into the board. Returns True if the journal held
        a game (the link then numbers on). A finished game is not resumed: the
        board's own settings start the next one."""
        board = self.board
        game = board.game
        defaults = (game.size, game.rules.name, game.komi, board.referee.handicap, board.referee.mode,
                    board.time_spec)
        clock_state = None
        recovered = False
        for kind, p in self.journal.load():
            try:
                if kind == K_NEW:
                    self._new(p)
                    clock_state = None
                    recovered = True
                elif kind == K_SEQ:
                    self.seq_mark = i32(p, 0)
                    self.boot = i32(p, 4)
                elif not recovered:
                    break
                elif kind == K_CLOCK:
                    clock_state = [i32(p, 4 * i) for i in range(SAVED)]
                elif kind == K_TICK:
                    if clock_state is not None:
                        clock_state[2] = i32(p, 0)
                elif not self._replay(kind, p):
                    break
            except (ValueError, IndexError, KeyError):  # IllegalMove is a ValueError
                break
        if recovered and board.game.phase == OVER:
            board.new_game(*defaults)
            self.gid += 1
        elif recovered:
            self._resume(clock_state, now_ms)
        return recovered

    def _new(self, p):
        fields = fields_dict(p.decode().split())
        players = {}
        for key in fields:
            if key.startswith("p."):
                players[key[2:]] = fields[key]
        board = self.board
        board.new_game(int(fields["size"]), fields["rules"], int(fields["komi2"]) / 2, int(fields["handicap"]),
                       int(fields["mode"]), fields["time"], players or None)
        self.game = board.game
        self.known = 1
        self.gid = int(fields["gid"])

    def _replay(self, kind, p):
        board = self.board
        game = board.game
        hist = game.hist
        if kind == K_SETUP:
            game.place_handicap([u16(p, i) for i in range(0, len(p), 2)])
        elif kind == K_MOVE:
            k = u16(p, 0)
            record = u16(p, 2)
            if k != hist.length:
                return False
            colour = move_colour(record)
            if game.phase == COUNTING:
                game.resume(3 - colour)  # play went on after the passes
            if record & LOST_TURN:
                game.lose_turn(colour)
            else:
                game.play(colour, move_point(record))
            if hist.moves[k] != record:
                game.undo()
                return False
            if k >= len(self.said):
                self._grow(len(hist.moves))
            self.said[k] = record
            self.tleft[k] = i32(p, 4)
            self.periods[k] = p[8]
            self.known = k + 1
        elif kind == K_UNDO:
            keep = u16(p, 0)
            if not 1 <= keep <= hist.length:
                return False
            while hist.length > keep:
                game.undo()
            self.known = keep
        elif kind == K_WARN:
            colour = p[0]
            while game.warnings[colour] < p[1]:
                game.warn(colour)
        elif kind == K_END:
            game.end(Result(None if p[0] == 3 else p[0], _REASONS[p[1]], u16(p, 2), p[4:].decode()))
        elif kind == K_MODE:
            board.set_mode(p[0])
        return True

    def _resume(self, clock_state, now_ms):
        """Clock and referee after a replay: the clock paused (held until the
        stones match), the referee comparing the game with the board."""
        board = self.board
        game = board.game
        clock = board.clock
        if clock is not None and clock_state is not None:
            clock.restore(clock_state, now_ms)
            if clock.turn and not (clock.paused or clock.stopped or clock.flag is not None):
                clock.pause(now_ms)
                board.held = True
        board.started = clock is not None and clock.turn != 0
        referee = board.referee
        if referee.state == SETUP and game.handicap:
            referee.state = PLAY  # the handicap was placed: refresh() decides the state
        if referee.state != SETUP:
            if clock is not None and clock.turn and clock.turn != game.to_move and game.phase == PLAYING:
                referee.awaiting_press = clock.turn  # the mover had not pressed yet
            referee.refresh(now_ms)
