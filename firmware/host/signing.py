"""The board's signatures: HMAC-SHA256 with its secret (a result, a venue's command, its MQTT
password), and keeping small files on flash (the secret, the lock). Loaded when first used (firmware/host/seal.py,
link.py, commands.py): code costs a Pico's heap, and most boards sign nothing."""

import hashlib
from binascii import hexlify

_BLOCK = 64  # SHA-256's block size


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


def accepts(seal, token, name, args):
    """Whether ``token`` (``~<counter>:<tag>``, or None) signs command ``name`` with the board's
    secret (``seal.key``), with a counter above the last one taken (``seal.counter``: a copied
    command is refused)."""
    if not token or not seal.key:
        return False
    counter, _, tag = token[1:].partition(":")
    try:
        n = int(counter)
    except ValueError:
        return False
    if n <= seal.counter or tag != signed(seal.key, n, " ".join([name] + args)):
        return False
    seal.counter = n
    return True


def keep(storage, name, data):
    """Keep a small file (written beside, then renamed: a power cut leaves the old or the new)."""
    storage.remove(name + ".new")
    storage.write(name + ".new", data)
    storage.replace(name + ".new", name)
