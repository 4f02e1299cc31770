"""The board's end of the serial link: stream the game to a host, answer commands.

Every board-to-host line gets the next sequence number and is remembered as
a small index entry (kind, move number, the move's history record, clock
figures: 12 bytes), not as text: a line is written again from its entry, so
``resend N`` can replay the whole game. Moves are found by watching the
game's history (``game.hist.length``): the referee, GTP or anything else may
play them. A host that opens the port late has lost what was sent before;
it says ``hello``, learns the board's next sequence number and boot id, and
asks ``resend N`` (or ``state`` for a snapshot): nothing depends on the host
having been there.

``poll(now_ms)`` never blocks: it reads what the transport has, answers at
most one command per call, and writes at most ``burst`` lines. A transport
is any object with ``read_into(buf) -> int`` (0 or None: nothing now) and
``write(data) -> int`` (firmware/drivers/serial_link.py has the USB CDC and
UART ones; firmware/drivers/sim_link.py the test twin).

Commands that change the game (new, mode, show, end, time) go to a
``control`` object: ``control.command(name, args, now_ms)`` returns None
(done: OK reply) or an ``(error_code, detail)`` pair; see docs/protocol.md.
"""

from array import array

from ..micro import const
from ..rules.coords import PASS, col_row
from ..rules.history import LOST_TURN, move_colour, move_point
from ..version import VERSION
from . import protocol as pr

K_SKIP = const(0)  # a reply no longer available: resent as SKIP
K_HELLO = const(1)
K_GAME = const(2)
K_MOVE = const(3)
K_UNDO = const(4)
K_END = const(5)
K_REPLY = const(6)
K_STATE = const(7)
K_MODE = const(8)

_LETTERS = "abcdefghijklmnopqrs"


class Link:
    """See the module doc. ``board_id`` and ``sensor`` are tokens (no
    spaces); ``boot`` tells one power-up from the next (sequence numbers
    start again at 0); ``capacity`` lines can be resent."""

    def __init__(self, transport, board_id="board", sensor="presence", boot=0, capacity=1024,
                 control=None, burst=8):
        self.transport = transport
        self.board_id = board_id
        self.sensor = sensor
        self.boot = boot
        self.control = control
        self.burst = burst
        self.capacity = capacity
        self.kind = bytearray(capacity)
        self.arg = array("H", bytes(2 * capacity))  # move number / game id
        self.rec = array("H", bytes(2 * capacity))  # history record of a move
        self.tleft = array("i", bytes(4 * capacity))  # mover's time left (ms), -1 none
        self.periods = array("h", bytes(2 * capacity))
        self.next = 0  # sequence number of the next new line
        self.cursor = 0  # next sequence number to write
        self.game = None
        self.size = 19
        self.gid = 0
        self.mode = "casual"
        self.clock_of = no_clock  # callable(colour) -> (ms_left, periods), or None without a clock
        self._headers = {}  # game id -> GAME fields (bytes), last few games
        self._results = {}  # game id -> RE text
        self._known = 0  # history length already announced
        self._figures = None
        self._said = array("H")
        self._ended = False
        self._reply = b""
        self._reply_seq = -1
        self._state_seq = -1
        self.writer = pr.Writer(pr.MAX_LINE)
        self.parser = pr.LineParser(pr.MAX_COMMAND)
        self._rbuf = bytearray(64)
        self.errors = 0  # commands answered with an error
        self.dropped = 0  # command bytes dropped (input queue full)
        self._add(K_HELLO, 0)

    # -- the game ------------------------------------------------------------

    def resume_at(self, seq):
        """Go on numbering from ``seq`` (the board recovered its game from the
        journal, firmware/recorder.py): the host keeps this boot's lines and
        its resync fills the gap; lines from before the power cut are SKIP."""
        for i in range(self.capacity):
            self.kind[i] = K_SKIP
        self.next = self.cursor = seq
        self._add(K_HELLO, 0)

    def attach(self, game, players=None, figures=None):
        """Stream ``game`` from now on (a new game). ``players``: extra GAME
        fields as a dict of text (pb, pw, ev, ro, dt, time). ``figures``:
        callable(move number) -> (ms left, periods) or None, the clock
        figures of moves already played (a recovered game)."""
        self._sync_moves()
        self.gid += 1
        self.game = game
        self.size = game.size
        fields = ["rules=" + game.rules.name, "size=%d" % game.size,
                  "komi=" + pr.quote(str(game.komi)), "handicap=%d" % game.handicap]
        black, white = game.setup_stones
        if black:
            fields.append("ab=" + "".join(self._sgf(p) for p in black))
        if white:
            fields.append("aw=" + "".join(self._sgf(p) for p in white))
        players = players or {}
        for key in sorted(players):
            fields.append(key + "=" + pr.quote(str(players[key])))
        self._headers[self.gid] = " ".join(fields).encode()
        for old in list(self._headers):
            if old < self.gid - 3:
                del self._headers[old]
                self._results.pop(old, None)
        self._known = 1
        self._said = array("H", bytes(2 * len(game.hist.moves)))  # records announced
        self._ended = False
        self._add(K_GAME, self.gid)
        self._figures = figures
        self._sync_moves()  # moves already played
        self._figures = None

    def _sgf(self, pt):
        col, row = col_row(self.size, pt)
        return _LETTERS[col] + _LETTERS[row]

    def _sync_moves(self):
        game = self.game
        if game is None:
            return
        hist = game.hist
        length = hist.length
        moves = hist.moves
        said = self._said
        known = self._known
        if known > length or (known > 1 and moves[known - 1] != said[known - 1]):
            keep = length if length < known else known  # moves taken back (and maybe replayed)
            while keep > 1 and moves[keep - 1] != said[keep - 1]:
                keep -= 1
            self._known = keep
            self._add(K_UNDO, keep - 1)
        if length > len(said):
            grown = array("H", bytes(2 * len(moves)))
            grown[:len(said)] = said
            self._said = said = grown
        while self._known < length:
            said[self._known] = moves[self._known]
            self._add_move(game, self._known)
            self._known += 1
        if game.result is not None and not self._ended:
            self._ended = True
            self._results[self.gid] = game.result.sgf()
            self._add(K_END, self.gid)

    def _add_move(self, game, k):
        i = self._add(K_MOVE, k)
        record = game.hist.moves[k]
        self.rec[i] = record
        self.tleft[i] = -1
        self.periods[i] = 0
        figures = self.clock_of(move_colour(record)) if self._figures is None else self._figures(k)
        if figures is not None:
            self.tleft[i] = figures[0]
            self.periods[i] = figures[1]

    def _add(self, kind, arg):
        i = self.next % self.capacity
        self.kind[i] = kind
        self.arg[i] = arg
        self.next += 1
        if self.next - self.cursor > self.capacity:
            self.cursor = self.next - self.capacity
        return i

    # -- the loop ------------------------------------------------------------

    def poll(self, now_ms):
        """Read, answer, write; never blocks. Returns lines written."""
        self._sync_moves()
        transport = self.transport
        parser = self.parser
        rbuf = self._rbuf
        for _ in range(8):
            n = transport.read_into(rbuf)
            if not n:
                break
            # A full queue drops the rest (counted): never stop reading, or the
            # host's writes would block; it asks again.
            self.dropped += n - parser.feed(memoryview(rbuf)[:n])
        handled = 0
        while handled < 4:
            if self._reply_seq >= self.cursor or self._state_seq >= self.cursor:
                break  # the last reply is not written yet: the next command waits
            line = parser.line()
            if line is None:
                break
            handled += 1
            self._command(line, now_ms)
        written = 0
        while written < self.burst and self.cursor < self.next:
            self._write(self.cursor)
            self.cursor += 1
            written += 1
        return written

    def idle(self):
        """Nothing left to write and no command waiting."""
        return self.cursor == self.next and not self.parser.pending()

    def _command(self, line, now_ms):
        try:
            name, args = pr.parse_command(line)
            if name is None:
                self._error(args[0], args[1])
            elif name == "hello":
                self._add(K_HELLO, 0)
            elif name == "resend":
                n = int(args[0])
                if n > self.next:
                    self._error(pr.E_STATE, "resend %d is beyond %d" % (n, self.next))
                elif n < self.next - self.capacity:
                    self._error(pr.E_TOO_OLD, "oldest is %d" % (self.next - self.capacity))
                else:
                    self.cursor = n
                    self._reply_seq = -1  # replies are not resent (SKIP)
                    self._state_seq = -1
            elif name == "state":
                self._state_seq = self.next
                self._add(K_STATE, 0)
            elif self.control is None:
                self._error(pr.E_STATE, name + ": this board takes no commands")
            else:
                err = self.control.command(name, args, now_ms)
                if err is None:
                    if name == "mode":
                        self.mode = args[0]
                        self._add(K_MODE, 0)
                    self._sync_moves()
                    self._ok(name)
                else:
                    self._error(err[0], err[1])
        except Exception as e:  # noqa: BLE001 - a command must never stop the board
            self._error(pr.E_MALFORMED, "failed: " + pr.quote(str(e)[:40]))

    def _ok(self, name):
        self._reply = b"OK " + name.encode()
        self._reply_seq = self.next
        self._add(K_REPLY, 0)

    def _error(self, code, detail):
        self.errors += 1
        self._reply = ("ERR " + code + " " + pr.quote(detail)).encode()
        self._reply_seq = self.next
        self._add(K_REPLY, 0)

    # -- writing lines from their entries --------------------------------------

    def _write(self, seq):
        i = seq % self.capacity
        kind = self.kind[i]
        w = self.writer
        if kind == K_MOVE:
            self._move_line(seq, i)
        elif kind == K_HELLO:
            w.begin(seq, "HELLO")
            w.raw("proto=%d fw=%s board=%s sensor=%s boot=%d" % (
                pr.PROTOCOL_VERSION, VERSION, self.board_id, self.sensor, self.boot))
            w.raw("game=%d" % self.gid)
            if self.game is not None:
                w.raw("size=%d moves=%d" % (self.game.size, self.game.hist.length - 1))
        elif kind == K_GAME:
            header = self._headers.get(self.arg[i])
            if header is None:
                w.begin(seq, "SKIP")
            else:
                w.begin(seq, "GAME")
                w.num(self.arg[i])
                w.raw(header)
        elif kind == K_UNDO:
            w.begin(seq, "UNDO")
            w.num(self.arg[i])
        elif kind == K_END:
            w.begin(seq, "END")
            w.num(self.arg[i])
            w.raw("re=" + pr.quote(self._results.get(self.arg[i], "?")))
        elif kind == K_REPLY and seq == self._reply_seq:
            w.begin(seq, self._reply)
        elif kind == K_STATE and seq == self._state_seq:
            self._state_line(seq)
        elif kind == K_MODE:
            w.begin(seq, "MODE")
            w.raw(self.mode)
        else:
            w.begin(seq, "SKIP")
        w.finish()
        self.transport.write(w.view())

    def _move_line(self, seq, i):
        w = self.writer
        w.begin(seq, "MOVE")
        w.num(self.arg[i])
        record = self.rec[i]
        colour = move_colour(record)
        w.raw("B" if colour == 1 else "W")
        pt = move_point(record)
        if record & LOST_TURN:
            w.raw("lost")
        elif pt == PASS:
            w.raw("pass")
        else:
            col, row = col_row(self.size, pt)
            n = w.n
            buf = w.buf
            buf[n] = 32
            buf[n + 1] = 97 + col
            buf[n + 2] = 97 + row
            w.n = n + 3
        if self.tleft[i] >= 0:
            w.num(self.tleft[i])
            w.num(self.periods[i])

    def _state_line(self, seq):
        """STATE <game> <moves> mode=<m> next=<seq> to=<B|W> board=<rows>
        moves=<sgf points, '..' pass> [clock=<b_ms>,<b_per>,<w_ms>,<w_per>]"""
        w = self.writer
        w.begin(seq, "STATE")
        game = self.game
        w.num(self.gid)
        if game is None:
            w.num(0)
            w.raw("mode=" + self.mode)
            return
        hist = game.hist
        w.num(hist.length - 1)
        w.raw("mode=" + self.mode)
        w.raw("next=%d" % self.next)
        w.raw("to=" + ("B" if game.to_move == 1 else "W"))
        w.raw("board=" + "/".join(game.rows()))
        parts = []
        for k in range(1, hist.length):
            record = hist.moves[k]
            pt = move_point(record)
            parts.append(("B" if move_colour(record) == 1 else "W")
                         + (".." if pt == PASS or record & LOST_TURN else self._sgf(pt)))
        w.raw("moves=" + ",".join(parts))
        b = self.clock_of(1)
        wt = self.clock_of(2)
        if b is not None and wt is not None:
            w.raw("clock=%d,%d,%d,%d" % (b[0], b[1], wt[0], wt[1]))


def no_clock(colour) -> "tuple[int, int] | None":
    """``Link.clock_of`` for a board without a clock."""
    return None


class GameControl:
    """A ``control`` for Link that runs games itself: ``new`` makes a
    rules.Game (and calls ``on_new(game, fields)`` so the app can build its
    referee), ``mode``/``show``/``time`` are kept for the app to read
    (``mode``, ``shown``, ``times``), ``end [result]`` ends the game
    (``B+R`` style results; none: void)."""

    def __init__(self, link, on_new=None):
        self.link = link
        self.on_new = on_new
        self.mode = "casual"
        self.shown = []  # (kind, vertex text)
        self.times = None

    def command(self, name, args, now_ms):
        from ..rules.game import PLAYING, Game
        from ..rules.result import RESIGN, Result
        game = self.link.game
        if name == "new":
            if game is not None and game.phase == PLAYING and game.hist.length > 1:
                return pr.E_STATE, "a game is in progress: end it first"
            fields = {}
            for a in args:
                i = a.find("=")
                fields[a[:i]] = pr.unquote(a[i + 1:])
            try:
                size = int(fields.get("size", "19"))
                komi = fields.get("komi")
                new = Game(size, fields.get("rules", "japanese"),
                           komi=None if komi is None else float(komi))
                handicap = int(fields.get("handicap", "0"))
                if handicap:
                    new.fixed_handicap(handicap)
            except (ValueError, KeyError, IndexError) as e:
                return pr.E_MALFORMED, "new: " + str(e)[:40]
            if self.on_new is not None:
                self.on_new(new, fields)
            extra = {}
            for key in ("pb", "pw", "ev", "ro", "dt", "time"):
                if key in fields:
                    extra[key] = fields[key]
            self.link.attach(new, extra)
            return None
        if name == "mode":
            self.mode = args[0]
            return None
        if name == "show":
            if args[0] == "clear":
                self.shown = []
            else:
                self.shown = [(args[0], v) for v in args[1:9]]
            return None
        if name == "time":
            self.times = [int(a) for a in args]
            return None
        if name == "end":
            if game is None or game.result is not None:
                return pr.E_STATE, "no game in progress"
            text = args[0] if args else "Void"
            if len(text) >= 3 and text[0] in "BW" and text[1] == "+" and text[2] == "R":
                game.end(Result(1 if text[0] == "B" else 2, RESIGN))
            else:
                game.end(Result(None, RESIGN))
            return None
        return pr.E_UNKNOWN, name
