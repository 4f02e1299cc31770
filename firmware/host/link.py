"""The board's end of the serial link: stream the game to a host, answer commands.

Every board-to-host line gets the next sequence number and is remembered as
a small index entry (kind and move number or game id: 2 bytes), not as text:
a line is written again from its entry and the game's history (the
follower's moves and clock figures), so ``resend N`` can replay the whole
game. A MOVE line of an earlier game or of a move taken back is resent as
SKIP. The link learns what changed in the game from the app's follower
(firmware/follower.py: a new game, moves with their clock figures, undos,
penalties, the result, the mode), like the journal does. A host that opens
the port late says ``hello``, learns the board's next sequence number and
boot id, and asks ``resend N`` (or ``state`` for a snapshot).

``poll(now_ms)`` never blocks: it reads what the transport has, answers at
most one command per call, and writes at most ``burst`` lines. A transport is
any object with ``read_into(buf) -> int`` (0 or None: nothing now) and ``write(data)
-> int`` (drivers/serial_link.py: USB CDC and UART; twins/link.py: the twin).

The link answers ``hello``, ``state``, ``resend``, ``mem`` and ``mqtt`` itself: they
read only, and anyone may send them. The commands that change something (new,
mode, show, end, time, diag...) need the venue's signature on a registered
board (firmware/host/signing.py ``authorise``, loaded for them); then they go
to a ``control`` object (the app): ``control.command(name, args, now_ms)``
parses their arguments (firmware/host/commands.py, loaded for the command and
let go after: a heartbeat ``hello`` every 1.5 s loads nothing) and returns
None (done: OK reply) or an ``(error_code, detail)`` pair; what it changed is
told by the follower before the reply. See docs/protocol.md.
"""

import gc

from .. import protocol as pr
from ..jobs import drop, start
from ..micro import const, mem_alloc, mem_free
from ..modes import NAMES as MODE_NAMES
from ..rules.const import call_briefly
from ..rules.coords import PASS, col_row
from ..rules.ending import PENALTY_KINDS
from ..rules.history import LOST_TURN, move_colour, move_point
from ..version import VERSION
from . import fields
from .seal import Seal, load_key, load_lock

# A line's index entry: two bytes, its kind (the first's high 4 bits), then a 12-bit argument.
_K_SKIP = const(0)  # a reply no longer available: resent as SKIP
_K_HELLO = const(1)
_K_GAME = const(2)  # arg: the game id's low 12 bits (the GAME fields are kept for the last 4 games)
_K_MOVE = const(3)  # arg: the move number
_K_UNDO = const(4)  # arg: the moves kept
_K_END = const(5)  # arg: as _K_GAME
_K_REPLY = const(6)
_K_STATE = const(7)
_K_MODE = const(8)
_K_PENALTY = const(9)  # arg: its place in the game's penalty log
_K_ALERT = const(10)  # arg bit 0: the journal cannot write; bits 1-7: the parts missing (``parts``)
_K_WAIT = const(11)  # arg: the seconds the players were asked to fix the board, / 30 (0: fixed)

_FOLDS = const(32)  # the seal's folds a pass at most (each a SHA-256 of a few bytes)
_BUFFER = const(96)  # the line buffer: a MOVE line fits whole (the seal hashes its fields there)


class Link:
    """See the module doc. ``follower``: the app's (firmware/follower.py), whose
    game the link streams and whose listener it is. ``board_id`` and
    ``sensor`` are tokens (no spaces); ``boot``: this power-up's number
    (firmware/app.py); ``capacity`` lines can be resent."""

    parts = 0  # the parts missing (firmware/faults.py sets them, then alerts): a Hardware's faults mask
    missing = ""  # ... as HELLO says them ("missing=display,buzzer")

    def __init__(self, transport, follower, jobs, board_id="board", sensor="presence", boot=1, capacity=1024,
                 control=None, burst=8, storage=None):
        self.transport = transport
        self.follower = follower
        self.jobs = jobs  # the app's (firmware/jobs.py): the seal's long catch-up a slice a pass
        self.job = None  # that catch-up under way
        self.board_id = board_id
        self.sensor = sensor
        self.boot = boot
        self.control = control
        self.burst = burst
        self.capacity = capacity
        self.index = bytearray(2 * capacity)  # each line's entry (above)
        self.game_seq = 0  # the current game's GAME line: MOVE lines before it are an earlier game's
        self.next = 0  # sequence number of the next new line
        self.cursor = 0  # next sequence number to write
        self._headers = {}  # game id -> GAME fields (bytes), last few games
        self._results = {}  # game id -> the END line's fields (re=, why=)
        self._reply = b""
        self._reply_seq = -1
        self._state_seq = -1
        self._hello_seq = 0  # the last HELLO: an earlier one is resent as SKIP (a host takes a HELLO
        # below the numbers it holds for a board that started its numbering again)
        self.writer = pr.Writer(_BUFFER, transport)  # (longer lines go out through it in pieces)
        self.seal = Seal(board_id, self._move_fields, self.writer)  # the game's running hash, its signature
        self.seal.storage = storage  # (the flash that keeps the venue's secret and the lock, read here)
        self.seal.key = load_key(storage)
        self.parser = pr.LineParser(pr.MAX_COMMAND)
        self._rbuf = bytearray(64)
        self.errors = 0  # commands answered with an error
        self.journal_failing = False
        self.locked = load_lock(storage)  # the venue locked the round (told in HELLO; a registered board's commands are signed anyway)
        self._asked = (-1, "")  # the last ALERT waiting= with words: its number, the words (``waiting``)
        self.dropped = 0  # command bytes dropped (input queue full)
        self.acks = -1  # -1: no host heard since power-up; else hellos heard with every line written, since
        # the last resend (a host missing a line asks a resend, not a hello): the app's word that it heard all
        self._add(_K_HELLO, 0)

    def resume_at(self, seq):
        """Go on numbering from ``seq`` (the board recovered its journal,
        firmware/journal/recovery.py): the host keeps this boot's lines and its
        resync fills the gap; lines from before the power cut are SKIP."""
        index = self.index
        for i in range(len(index)):
            index[i] = 0  # _K_SKIP
        self.next = self.cursor = self._hello_seq = seq
        self._add(_K_HELLO, 0)

    # -- what the follower tells ---------------------------------------------

    def started(self):
        """A new game: its GAME line (the moves already played follow). Its fields are made once
        (host/fields.py) and kept for the last few games."""
        gid = self.follower.gid
        header = self._headers[gid] = fields.game(self)
        self.job = drop(self.jobs, self.job)  # (a catch-up in the last game's moves)
        self.seal.start(gid, header)
        for old in list(self._headers):
            if old < gid - 3:
                del self._headers[old]
                self._results.pop(old, None)
        self.game_seq = self.next
        self._add(_K_GAME, gid)

    def placed(self):
        """The handicap stones are down: the game is told again, with them (``ab=``)."""
        self.started()

    def undone(self, keep):
        # The taken-back moves' lines are resent as SKIP: their move numbers now name other moves.
        # (The MOVE entries left are in the order of their moves: the walk back ends at one kept.)
        seq = self.next - 1
        index = self.index
        while seq > self.game_seq and seq >= self.next - self.capacity:
            i = 2 * (seq % self.capacity)
            if index[i] >> 4 == _K_MOVE:
                if (index[i] & 15) << 8 | index[i + 1] < keep:
                    break
                index[i] = 0  # _K_SKIP
            seq -= 1
        self.job = drop(self.jobs, self.job)  # (a catch-up toward moves taken back)
        self.seal.rewind(keep - 1)
        self._add(_K_UNDO, keep - 1)

    def moved(self, k):
        self._add(_K_MOVE, k)

    def ended(self):
        """The result: the END line's fields (host/fields.py), kept."""
        gid = self.follower.gid
        self._results[gid] = fields.result(self)
        self._add(_K_END, gid)

    def mode_changed(self):
        self._add(_K_MODE, 0)

    def resumed(self):
        pass  # (a host learns it from the next move: its replay resumes play, as the journal's does)

    def penalised(self, i):
        self._add(_K_PENALTY, i)

    def alert(self, journal_failing):
        """The journal cannot keep the game (flash full or failing), or can again; or ``parts``
        are missing (the line says both)."""
        self.journal_failing = journal_failing
        self._add(_K_ALERT, self.parts << 1 | (1 if journal_failing else 0))

    def waiting(self, seconds, what=""):
        """The players were asked ``seconds`` ago to fix the board (stones to put back or lift,
        ``what``: "put back D4,E4"); 0: they did. An ALERT line; only the last one with its words
        is resent (an earlier one as SKIP)."""
        self._asked = (self.next, pr.quote(what))
        self._add(_K_WAIT, seconds // 30)

    def sgf(self, out, n, pt):
        # Point ``pt`` as SGF letters, written into ``out`` at ``n``.
        col, row = col_row(self.follower.game.size, pt)
        out[n] = 97 + col
        out[n + 1] = 97 + row

    def _add(self, kind, arg):
        # (a move number or a penalty's place past 4095: not in a game of Go)
        i = 2 * (self.next % self.capacity)
        self.index[i] = kind << 4 | (arg >> 8 & 15)
        self.index[i + 1] = arg & 255
        self.next += 1
        if self.next - self.cursor > self.capacity:
            self.cursor = self.next - self.capacity

    # -- the loop ------------------------------------------------------------

    def poll(self, now_ms):
        """Read, answer, write; never blocks. Returns lines written."""
        n = self.transport.read_into(self._rbuf)
        if not n and self.cursor == self.next and not self.parser.pending():
            return 0  # nothing came, nothing to answer or write: the idle poll
        return self._step(n, now_ms)

    def _step(self, n, now_ms):
        # (apart from poll: a frame this large is taken from the heap at each call, see micro.py)
        parser = self.parser
        i = 1
        while n:  # (at most 8 reads a pass)
            # A full queue drops the rest (counted): never stop reading, or the
            # host's writes would block; it asks again.
            self.dropped += n - parser.feed(memoryview(self._rbuf)[:n])
            n = self.transport.read_into(self._rbuf) if i < 8 else 0
            i += 1
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
            if not self._write(self.cursor):
                break  # a MOVE line whose hash is caught up first (_write)
            self.cursor += 1
            written += 1
        return written

    def key(self, secret):
        """The venue's secret, registered (host/commands.py kept it on flash first): the results
        are signed with it, and a command needs its signature."""
        self.seal.key = secret

    def lock(self, on):
        """The venue locked the round (on: told in HELLO) or opened it (commands.py kept it first)."""
        self.locked = on

    def idle(self):
        """Nothing left to write and no command waiting."""
        return self.cursor == self.next and not self.parser.pending()

    def _command(self, line, now_ms):
        try:
            name, args = pr.parse_command(line)
            if name is None:
                self._error(args[0], args[1])
                return
            token = None
            if args and args[-1][:1] == "~":  # the venue's signature, last (protocol.parse_command)
                token = args[-1]
                args = args[:-1]
            if self.acks < 0:
                self.acks = 0
            if name == "hello":
                if self.cursor == self.next:
                    self.acks += 1
                self._hello_seq = self.next
                self._add(_K_HELLO, 0)
            elif name == "resend":
                self.acks = 0
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
                self._add(_K_STATE, 0)
            elif name == "mem":  # the heap as the board sees it (after a collection: what is really free)
                gc.collect()
                self._reply_line(b"MEM free=%d used=%d" % (mem_free(), mem_alloc()))
            elif name == "mqtt":  # its password on the venue's broker, for its logger (read only: no signature)
                if not self.seal.key:
                    self._error(pr.E_STATE, "mqtt: not registered with a venue")
                else:
                    from .signing import mqtt_password  # (loaded when used: code costs a Pico's heap)

                    self._reply_line(b"OK mqtt " + mqtt_password(self.seal.key))
            else:
                err = self._change(name, args, token, now_ms)
                if err is None:
                    self._ok(name)
                else:
                    self._error(err[0], err[1])
        except MemoryError:
            self._error(pr.E_MEMORY, "not enough memory")
        except Exception as e:  # noqa: BLE001 - a command must never stop the board
            self._error(pr.E_MALFORMED, "failed: " + pr.quote(str(e)[:40]))

    def _change(self, name, args, token, now_ms):
        # A command that changes something: the venue's signature on a registered board, then
        # the control parses its arguments and carries it out (firmware/host/commands.py).
        if self.seal.key or name == "lock" or name == "key":  # (a registered board's venue signs them)
            err = call_briefly("firmware.host.signing", "authorise", self, name, args, token)
            if err is not None:
                return err
        if self.control is None:
            return pr.E_STATE, name + ": this board takes no commands"
        return self.control.command(name, args, now_ms)

    def _ok(self, name):
        self._reply_line(b"OK " + name.encode())

    def _error(self, code, detail):
        self.errors += 1
        self._reply_line(("ERR " + code + " " + pr.quote(detail)).encode())

    def _reply_line(self, text):
        # A command's one reply (kind and fields): written once, resent as SKIP.
        self._reply = text
        self._reply_seq = self.next
        self._add(_K_REPLY, 0)

    # -- writing lines from their entries --------------------------------------

    def _write(self, seq):
        # The line of entry seq; False: not yet (its MOVE hash is more than a slice of folds away).
        i = 2 * (seq % self.capacity)
        index = self.index
        kind = index[i] >> 4
        arg = (index[i] & 15) << 8 | index[i + 1]
        w = self.writer
        if kind == _K_MOVE and seq > self.game_seq:
            seal = self.seal
            seal.rewind(arg - 1)
            if arg - 1 - seal.k > _FOLDS:  # more than a slice of folds away (a long undo, a resend): a
                if self.job is None:  # job catches the chain up, a slice a pass, and the line waits
                    self.job = start(self.work(arg - 1))
                    self.jobs.append(self.job)
                return False
            self._move_line(seq, arg)
        elif kind == _K_HELLO and seq == self._hello_seq:
            w.begin(seq, b"HELLO")
            w.raw("proto=%d fw=%s board=%s sensor=%s boot=%d" % (
                pr.PROTOCOL_VERSION, VERSION, self.board_id, self.sensor, self.boot))
            f = self.follower
            w.raw("game=%d" % f.gid)
            if self.journal_failing:
                w.raw(b"journal=failing")
            if self.missing:
                w.raw(self.missing)
            if self.seal.key:
                w.raw(b"sign=1")
            if self.locked:
                w.raw(b"lock=1")
            if f.game is not None:
                w.raw("size=%d moves=%d" % (f.game.size, f.game.hist.length - 1))
        elif kind == _K_GAME or kind == _K_END:
            gid = self.follower.gid
            gid -= (gid - arg) & 4095  # (one of the last four games, whose fields are kept)
            kept = (self._headers if kind == _K_GAME else self._results).get(gid)
            if kept is None:
                w.begin(seq, b"SKIP")
            else:
                w.begin(seq, b"GAME" if kind == _K_GAME else b"END")
                w.num(gid)
                w.raw(kept)
        elif kind == _K_UNDO:
            w.begin(seq, b"UNDO")
            w.num(arg)
        elif kind == _K_REPLY and seq == self._reply_seq:
            w.begin(seq, self._reply)
        elif kind == _K_STATE and seq == self._state_seq:  # (its code loaded for the line: a Pico's heap)
            call_briefly("firmware.host.snapshot", "write_state", w, seq, self.follower, self.next, later=True)
        elif kind == _K_ALERT or (kind == _K_WAIT and (not arg or seq == self._asked[0])):
            w.begin(seq, b"ALERT")  # (a waiting line says the health too: each ALERT names it whole)
            health = arg if kind == _K_ALERT else self.parts << 1 | (1 if self.journal_failing else 0)
            w.raw(b"journal=failing" if health & 1 else b"journal=ok")
            if health > 1:  # (the parts' names: the code that has them loaded for the line)
                w.raw(call_briefly("firmware.faults", "field", health >> 1, later=True))
            if kind == _K_WAIT:
                w.raw("waiting=%d" % (30 * arg))
                if arg:
                    w.raw("what=" + self._asked[1])
        elif kind == _K_MODE:
            w.begin(seq, b"MODE")
            w.raw(MODE_NAMES[self.follower.mode])
        elif kind == _K_PENALTY and seq > self.game_seq:
            k, colour, what, value, reason = self.follower.game.penalties[arg]
            w.begin(seq, b"PENALTY")
            w.num(k)
            w.raw(b"B" if colour == 1 else b"W")
            w.raw(PENALTY_KINDS[what])
            w.num(value)
            w.raw(pr.quote(reason))
        else:
            w.begin(seq, b"SKIP")
        w.finish()
        return True

    def work(self, k):
        # The job (_write's): _FOLDS folds a slice toward move k (seal.py reaches).
        yield
        while not self.seal.reaches(k, _FOLDS):
            yield
        self.job = None

    def _move_line(self, seq, k):
        w = self.writer
        seal = self.seal
        seal.after(k - 1)  # (first: the moves before are hashed from their fields in the same buffer)
        w.begin(seq, b"MOVE")
        start = w.n + 1  # (after the space)
        self._move_fields(w, k)
        w.hex(b"h=", seal.after(k, w.mv[start:w.n]), 8)  # the game's running hash after this move

    def _move_fields(self, w, k):
        # "<k> <B|W> <point> [<ms_left> <periods>]": the line's fields, and what the seal hashes.
        f = self.follower
        w.num(k)
        record = f.record[k]
        w.raw(b"B" if move_colour(record) == 1 else b"W")
        pt = move_point(record)
        if record & LOST_TURN:
            w.raw(b"lost")
        elif pt == PASS:
            w.raw(b"pass")
        else:
            col, row = col_row(f.game.size, pt)
            n = w.n  # (after the move number: never the first field)
            buf = w.buf
            buf[n] = 32
            buf[n + 1] = 97 + col
            buf[n + 2] = 97 + row
            w.n = n + 3
        if f.tleft[k] >= 0:
            w.num(f.tleft[k])
            w.num(f.periods[k])
