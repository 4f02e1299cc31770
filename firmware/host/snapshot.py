"""The link's STATE line: the whole game in one line, for a host that lost too much to resend."""

from ..modes import NAMES as MODE_NAMES
from ..protocol import MAX_LINE
from ..rules.coords import PASS, col_row
from ..rules.history import LOST_TURN, move_colour, move_point

_BOARD = b".XO"  # empty, black, white


def write_state(w, seq, follower, next_seq):
    """STATE <game> <moves> mode=<m> next=<seq> to=<B|W> board=<rows>
    moves=<sgf points, '..' pass> [clock=<b_ms>,<b_per>,<w_ms>,<w_per>] into the Writer ``w``."""
    w.begin(seq, b"STATE")
    f = follower
    game = f.game
    w.num(f.gid)
    if game is None:
        w.num(0)
        w.raw("mode=" + MODE_NAMES[f.mode])
        return
    hist = game.hist
    w.num(hist.length - 1)
    w.raw("mode=" + MODE_NAMES[f.mode])
    w.raw("next=%d" % next_seq)
    w.raw("to=" + ("B" if game.to_move == 1 else "W"))
    # The board and the moves go straight into the line's buffer, a row or a move at a time
    # (the Writer sends the buffer on when it is full): a 400-move game as a list of
    # strings would need ~20 KB of a Pico's heap at once.
    size = game.size
    if w.sent + w.n + size * (size + 1) + 4 * hist.length + 64 > MAX_LINE:
        return  # (past a line's limit: the STATE line goes without them)
    w.raw("board=")
    buf = w.buf
    cells = game.pos.cells
    stride = size + 2
    for r in range(size):
        w.room(size + 1)
        n = w.n
        if r:
            buf[n] = 47  # /
            n += 1
        start = (r + 1) * stride + 1
        for i in range(start, start + size):
            buf[n] = _BOARD[cells[i]]
            n += 1
        w.n = n
    w.raw("moves=")
    moves = hist.moves
    k = 1
    while k < hist.length:
        w.room(4)
        n = w.n
        last = k + (len(buf) - 11 - n) // 4  # the moves the buffer has room for now
        if last > hist.length:
            last = hist.length
        while k < last:
            if k > 1:
                buf[n] = 44  # ,
                n += 1
            record = moves[k]
            pt = move_point(record)
            buf[n] = 66 if move_colour(record) == 1 else 87  # B W
            if pt == PASS or record & LOST_TURN:
                buf[n + 1] = buf[n + 2] = 46  # ..
            else:
                col, row = col_row(size, pt)
                buf[n + 1] = 97 + col
                buf[n + 2] = 97 + row
            n += 3
            k += 1
        w.n = n
    clock = f.clock
    if clock is not None:
        b = clock.snap.black
        wt = clock.snap.white
        w.raw("clock=%d,%d,%d,%d" % (b.main_ms + b.period_ms, b.periods, wt.main_ms + wt.period_ms, wt.periods))
