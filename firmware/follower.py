"""The game as told: one follower of the game's history, heard by the link and the journal alike.

The referee plays the game's moves, the host's commands end or replace it, a
recovery replays it; two parts must learn each change exactly once and in
order: the link tells the host (firmware/host/link.py), the recorder writes
the journal (firmware/journal/recorder.py). ``Follower.follow()`` compares
the game with what it has told so far and tells its listeners what changed:

    started()       a new game is followed (``game``, ``settings``, ``gid``, ``game_boot``,
                    ``clock``, ``mode``); the moves already in its history follow as moved()
    placed()        the handicap stones came on the board after the game was told
                    (``game.setup_stones``)
    undone(keep)    the history went back to its first ``keep`` positions
    moved(k)        move k: ``record[k]`` (its history record), ``tleft[k]`` (the
                    mover's ms left when it was told, -1 without a clock) and
                    ``periods[k]`` (its byo-yomi periods)
    penalised(i)    ``game.penalties[i]`` was logged (a caution, warning, points, forfeit)
    ended()         the game has a result (``result``)
    mode_changed()  ``mode`` (firmware/modes.py) was set
    resumed()       play went on after the passes that stopped it (no move yet: it is not
                    in the history, ``game.to_move`` plays first)

A listener has all eight methods (the link and the recorder hear every
change: no base class with do-nothing ones stays in the heap for them) and
only reads what the follower holds; the follower only reads the game. The app runs
``follow()`` once per host stage and after a host command. Nothing is
allocated unless a game outgrows the arrays.
"""

from array import array

from .clock.face import shown_count, shown_ms
from .modes import CASUAL
from .rules.const import zeros
from .rules.game import COUNTING
from .rules.history import move_colour


class Follower:
    """See the module doc."""

    def __init__(self, boot=1):
        self.listeners = []
        self.boot = boot  # this power-up's number (firmware/app.py)
        self.game_boot = boot  # the power-up the game began in: with gid, the game's name on a host
        self.game = None
        self.settings = None
        self.clock = None
        self.gid = 0  # the game's number since the board's first (a power cut keeps it)
        self.mode = CASUAL
        self.known = 1  # history positions told
        self.record = array("H")
        self.tleft = array("i")
        self.periods = bytearray()
        self.placed = False
        self.penalties = 0  # entries of the game's penalty log told
        self.result = None
        self.counting = False  # the game was told stopped by passes
        self._preset = 0  # moves whose clock figures came with the game (a recovery)

    def listen(self, listener):
        self.listeners.append(listener)

    def attach(self, game, settings, gid, clock=None, mode=CASUAL, recovered=None):
        """Follow a new game numbered ``gid``. ``recovered``: the journal's record of
        the moves already played (firmware/journal/recovery.py: ``known``,
        ``tleft``, ``periods``), so their clock figures are told as they were."""
        self.game = game
        self.settings = settings
        self.gid = gid
        self.game_boot = self.boot if recovered is None else recovered.game_boot
        self.clock = clock
        self.mode = mode
        self.known = 1
        self.placed = game.handicap != 0  # stones already down (a recovered game): started() tells them
        self.penalties = 0
        self.result = None
        self.counting = False
        self._preset = 0
        if recovered is not None:  # its clock figures become the follower's: no second copy on the heap
            self.tleft = recovered.tleft
            self.periods = recovered.periods
            self.record = zeros("H", len(self.tleft))
            self._preset = recovered.known
        if len(self.record) < len(game.hist.moves):
            self._grow(len(game.hist.moves))
        for k in range(1, self._preset):
            self.record[k] = game.hist.moves[k]
        for listener in self.listeners:
            listener.started()
        self.follow()
        self._preset = 0

    def detach(self):
        """Let the game go (the app builds the next one: ``attach`` follows)."""
        self.game = None
        self.clock = None

    def set_mode(self, mode):
        self.mode = mode
        for listener in self.listeners:
            listener.mode_changed()

    def follow(self):
        """Tell the listeners what changed in the game since the last call."""
        game = self.game
        if game is None:
            return
        hist = game.hist
        k = self.known
        if (k == hist.length and (k < 2 or hist.moves[k - 1] == self.record[k - 1])
                and self.penalties == len(game.penalties) and (self.placed or not game.handicap)
                and (game.phase == COUNTING) == self.counting and game.result is self.result):
            return  # nothing changed: the idle pass
        self._reconcile(game)

    def _reconcile(self, game):
        # (apart from follow: a frame this large is taken from the heap at each call, see micro.py)
        listeners = self.listeners
        if not self.placed and game.handicap:
            self.placed = True
            for listener in listeners:
                listener.placed()
        hist = game.hist
        length = hist.length
        moves = hist.moves
        record = self.record
        known = self.known
        if known > length or (known > 1 and moves[known - 1] != record[known - 1]):
            keep = length if length < known else known  # moves taken back (and maybe others played)
            while keep > 1 and moves[keep - 1] != record[keep - 1]:
                keep -= 1
            self.known = keep
            for listener in listeners:
                listener.undone(keep)
        if length > len(record):
            self._grow(len(moves))
            record = self.record
        while self.known < length:
            k = self.known
            if k >= self._preset or record[k] != moves[k]:
                record[k] = moves[k]
                self._figures(k)
            self.known = k + 1
            for listener in listeners:
                listener.moved(k)
        while self.penalties < len(game.penalties):
            i = self.penalties
            self.penalties = i + 1
            for listener in listeners:
                listener.penalised(i)
        counting = game.phase == COUNTING
        if counting != self.counting:
            self.counting = counting
            if not counting and game.result is None:
                for listener in listeners:
                    listener.resumed()
        if game.result is not self.result:
            self.result = game.result
            if game.result is not None:
                for listener in listeners:
                    listener.ended()

    def _figures(self, k):
        # The mover's clock as last snapshot (the clock is snapshot every tick).
        clock = self.clock
        if clock is None:
            self.tleft[k] = -1
            self.periods[k] = 0
            return
        side = clock.snap.sides[move_colour(self.record[k])]
        self.tleft[k] = shown_ms(side)  # what the face shows (in main time: no overtime count)
        self.periods[k] = shown_count(clock, side) if side.overtime else 0

    def _grow(self, capacity):
        # Rare, like the history's own growth: a game longer than the arrays.
        record = zeros("H", capacity)
        tleft = zeros("i", capacity)
        periods = bytearray(capacity)
        for k in range(len(self.record)):
            record[k] = self.record[k]
            tleft[k] = self.tleft[k]
            periods[k] = self.periods[k]
        self.record, self.tleft, self.periods = record, tleft, periods
