"""The fields of a game's GAME and END lines, made once each (firmware/host/link.py keeps them)."""

from ..protocol import quote

_OWN = ("rules", "size", "komi", "handicap", "time")  # the fields from the game itself


def game(link):
    """``rules= size= komi= handicap= boot= [ab=] [aw=] [time=]``, then the host's own (pb, pw, ev...),
    as bytes (docs/protocol.md: GAME)."""
    f = link.follower
    game = f.game
    out = ["rules=" + game.rules.name, "size=%d" % game.size, "komi=" + quote(str(game.komi)),
           "handicap=%d" % game.handicap, "boot=%d" % f.game_boot]
    black, white = game.setup_stones
    for key, stones in (("ab=", black), ("aw=", white)):
        if stones:
            points = bytearray(2 * len(stones))
            for i in range(len(stones)):
                link.sgf(points, 2 * i, stones[i])
            out.append(key + points.decode())
    settings = f.settings
    if settings.time_spec != "none":
        out.append("time=" + quote(settings.time_spec))
    players = settings.players or {}
    for key in sorted(players):
        if key not in _OWN:  # the host's other fields (pb, pw, ev...), not its own again
            out.append(key + "=" + quote(str(players[key])))
    return " ".join(out).encode()


def result(link):
    """``re= [why=] [dead=] hash= [sig=]`` as a bytearray (docs/protocol.md: END). After a count,
    the stones counted dead (the host writes the territory from them), written in place as SGF
    points: the heap is at its fullest when a game is counted."""
    f = link.follower
    result = f.result
    re = quote(result.sgf())
    head = ("re=" + re + (" why=" + quote(result.detail) if result.detail else "")).encode()
    tail = (" " + link.seal.end(f.known - 1, re)).encode()
    game = f.game  # (the dead stones of a count: its map exists)
    dead = game.dead_marks() if result.reason == "score" and game.count_map() is not None else b""
    count = 0
    for p in range(len(dead)):
        if dead[p]:
            count += 1
    out = bytearray(len(head) + (6 + 2 * count if count else 0) + len(tail))
    n = len(head)
    out[:n] = head
    if count:
        out[n:n + 6] = b" dead="
        n += 6
        for p in range(len(dead)):
            if dead[p]:
                link.sgf(out, n, p)
                n += 2
    out[n:] = tail
    return out
