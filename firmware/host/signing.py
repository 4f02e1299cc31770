"""The board's signatures: HMAC-SHA256 with its secret (a result, a venue's command, its MQTT password), who may
command a registered board, and keeping small files on flash (the secret, the lock, the counter).
Loaded when first used (firmware/host/seal.py, link.py, commands.py): code costs a Pico's heap,
and most boards sign nothing."""

import hashlib
from binascii import hexlify, unhexlify

from ..drivers.buttons import B_MENU
from ..protocol import E_STATE

E_DENIED = "denied"  # the ERR code of a command a registered board takes only signed (docs/protocol.md)
_BLOCK = 64  # SHA-256's block size
COUNT_FILE = ".count"  # the last signed command's counter, beside the secret (seal.py KEY_FILE)
_DAMAGED = 1 << 62  # the counter of a damaged counter file: no signed command until the desk's key


def hmac_sha256(key, message):
    """RFC 2104 HMAC with SHA-256 (MicroPython has no ``hmac`` module)."""
    if len(key) > _BLOCK:
        key = hashlib.sha256(key).digest()
    key = key + bytes(_BLOCK - len(key))
    inner = hashlib.sha256(bytes(b ^ 0x36 for b in key))
    inner.update(message)
    outer = hashlib.sha256(bytes(b ^ 0x5C for b in key))
    outer.update(inner.digest())
    return outer.digest()


def signed(key, counter, text):
    """A venue's signature of a host command (its text, no CRC): the tag of ``~<counter>:<tag>``."""
    return hexlify(hmac_sha256(key, ("%d %s" % (counter, text)).encode())[:8]).decode()


def mqtt_password(key):
    """The board's password on its venue's MQTT broker (bytes, 32 hex digits): its logger speaks
    for it with it (host_tools/venue/broker.py derives the same from the venue's key)."""
    return hexlify(hmac_sha256(key, b"mqtt"))[:32]


def authorise(link, name, args, token):
    """None when the link may carry out command ``name`` (one that changes something), else an
    ``(error_code, detail)`` pair. A registered board (``seal.key``) takes it only signed with its
    secret (``token``: ``~<counter>:<tag>``, or None) under a counter above the last one taken;
    that counter is kept on flash before the command runs, so a copy is refused, after a power
    cut too. ``lock`` needs a signature. ``key`` also passes unsigned on a board not registered,
    or with MENU held on the board (someone at it: the desk's registration, docs/records.md);
    its counter then becomes the token's when it is signed with the new secret."""
    seal = link.seal
    if seal.counter < 0:  # (read at the first signed command after a power-up)
        data = seal.storage.read(COUNT_FILE) if seal.storage is not None else None
        seal.counter = 0 if data is None else int(data) if data.isdigit() else _DAMAGED  # (never lowered
        # by a damaged file, to take a copy)
    counter, _, tag = token[1:].partition(":") if token else ("", "", "")
    n = int(counter) if counter.isdigit() and len(counter) < 20 else -1
    text = " ".join([name] + args)
    key = seal.key
    if key and n > seal.counter and tag == signed(key, n, text):
        return _count(seal, n)
    if name == "key" and (not key or _present(link)):
        try:
            new = unhexlify(args[0])
        except (IndexError, ValueError):  # (not a secret: the command's parse says what is wrong)
            return None
        if n >= 0 and tag == signed(new, n, text):  # the desk's clock: the new secret's counters start there
            return _count(seal, n if new != key or seal.counter >= _DAMAGED else max(n, seal.counter))
        return None
    if not key:
        why = "only with the venue's signature: register the board first"
    elif n < 0:
        why = "registered to a venue: its signed commands only" + (", or MENU held on the board" if name == "key" else "")
    elif n <= seal.counter and tag == signed(key, n, text):
        why = "a copy: its counter %d is not above the last taken" % n
    else:
        why = "bad signature"
    return E_DENIED, name + ": " + why


def _count(seal, n):
    # The counter taken, on flash before the command runs (a power cut leaves the old or the new).
    try:
        if seal.storage is not None:
            keep(seal.storage, COUNT_FILE, b"%d" % n)
    except OSError as error:
        return E_STATE, "not kept: flash error %s" % error
    seal.counter = n
    return None


def _present(link):
    # MENU held on the board as the command comes (its release then takes nothing back).
    app = link.control
    hw = getattr(app, "hw", None)
    if hw is None or hw.buttons is None or not hw.buttons.is_down(B_MENU):
        return False
    if app.controls is not None:
        app.controls.menu_used()
    return True


def keep(storage, name, data):
    """Keep a small file (written beside, then renamed: a power cut leaves the old or the new)."""
    storage.remove(name + ".new")
    storage.write(name + ".new", data)
    storage.replace(name + ".new", name)
