"""The Pico's filesystem as ``make deploy`` leaves it, built on the host: a littlefs v2 image.

Stock MicroPython on a Pico mounts littlefs v2 at flash offset 0xA0000 (1,408 KB: the 2 MB chip
less the firmware's 640 KB), 4 KB blocks, 256-byte program size (its ``_boot.py``). Building
that image here with ``littlefs-python`` instead of copying files over the emulated REPL saves
minutes of emulated flash writes per test, and gives the same layout ``make deploy`` makes:
the ``make mpy`` bundle at /lib/firmware and firmware/main.py at /main.py.

    .venv/bin/python tests/pico/fs_image.py OUT.img            # the deploy layout (run make mpy first)
    .venv/bin/python tests/pico/fs_image.py --list FLASH.bin   # the files in a saved flash (2 MB) or image
    .venv/bin/python tests/pico/fs_image.py --get /journal.bin FLASH.bin > journal.bin
"""

import argparse
import pathlib
import sys

from littlefs import LittleFS

ROOT = pathlib.Path(__file__).resolve().parents[2]
FS_OFFSET = 0xA0000  # where the filesystem starts in flash
FS_SIZE = 1408 * 1024
BLOCK = 4096
PROG = 256


def _fs(image=None):
    fs = LittleFS(block_size=BLOCK, block_count=FS_SIZE // BLOCK, prog_size=PROG, read_size=PROG,
                  mount=image is None)
    if image is not None:
        fs.context.buffer[:] = image
        fs.mount()
    return fs


def deploy_files(mpy=ROOT / "build" / "mpy"):
    """(device path, bytes) for what ``make deploy`` copies: build/mpy/firmware -> /lib/firmware,
    firmware/main.py -> /main.py."""
    bundle = mpy / "firmware"
    if not bundle.is_dir():
        raise SystemExit(f"no {bundle}: run `make mpy` first")
    files = [("/lib/" + str(path.relative_to(mpy)), path.read_bytes())
             for path in sorted(bundle.rglob("*")) if path.is_file()]
    return files + [("/main.py", (ROOT / "firmware" / "main.py").read_bytes())]


def build(files):
    """The image (FS_SIZE bytes) holding ``files``: (path, bytes) pairs, folders made as needed."""
    fs = _fs()
    for path, data in files:
        folder = path.rsplit("/", 1)[0]
        if folder:
            fs.makedirs(folder, exist_ok=True)
        with fs.open(path, "wb") as f:
            f.write(data)
    return bytes(fs.context.buffer)


def image_of(data):
    """The filesystem part of a whole flash dump (2 MB), or ``data`` if it is only the image."""
    return data[FS_OFFSET:FS_OFFSET + FS_SIZE] if len(data) > FS_SIZE else data


def files_in(data):
    """{path: bytes} of every file in a flash dump or image."""
    fs = _fs(bytearray(image_of(data)))
    out = {}
    for top, _dirs, names in fs.walk("/"):
        for name in names:
            path = top.rstrip("/") + "/" + name
            with fs.open(path, "rb") as f:
                out[path] = f.read()
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", help="the image to write, or with --list/--get the flash dump or image to read")
    ap.add_argument("--list", action="store_true", help="list the files in FILE")
    ap.add_argument("--get", metavar="PATH", help="write the file PATH of FILE to stdout")
    args = ap.parse_args(argv)
    if args.list or args.get:
        files = files_in(pathlib.Path(args.file).read_bytes())
        if args.get:
            sys.stdout.buffer.write(files[args.get])
        else:
            for path, data in sorted(files.items()):
                print(f"{len(data):8d}  {path}")
        return 0
    files = deploy_files()
    pathlib.Path(args.file).write_bytes(build(files))
    print(f"{args.file}: {len(files)} files, littlefs v2 ({FS_SIZE // 1024} KB at flash 0x{FS_OFFSET:X})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
