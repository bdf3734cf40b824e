#!/usr/bin/python3
"""initramfs - write rootless, reproducible initramfs images (cpio newc).

Every entry is owned by root with mtime 0 and inode numbers assigned in
order, so the same inputs always give the same bytes. Used for the base
image (from the manifest) and for the small per-run job archive that the
runner appends to it; the kernel unpacks concatenated archives in order.
"""

import argparse
import gzip
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent


class Cpio:
    """An in-memory newc archive with deterministic headers."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.ino = 721
        self.paths: set[str] = set()

    def _entry(self, path: str, mode: int, body: bytes = b"",
               rdev: tuple[int, int] = (0, 0)) -> None:
        name = path.lstrip("/").encode() + b"\0"
        if path in self.paths and not stat.S_ISDIR(mode):
            raise ValueError(f"{path} is in the image twice")
        self.paths.add(path)
        fields = (self.ino, mode, 0, 0, 1, 0, len(body), 0, 0,
                  rdev[0], rdev[1], len(name), 0)
        self.ino += 1
        self.data += b"070701" + b"".join(b"%08X" % f for f in fields)
        self.data += name
        self.data += b"\0" * (-len(self.data) % 4)
        self.data += body
        self.data += b"\0" * (-len(self.data) % 4)

    def mkdir(self, path: str, mode: int = 0o755) -> None:
        """Add PATH and any missing parents."""
        parts = Path(path).parts[1:]
        for i in range(1, len(parts) + 1):
            sub = "/" + "/".join(parts[:i])
            if sub not in self.paths:
                self._entry(sub, stat.S_IFDIR | mode)

    def parent(self, path: str) -> None:
        parent = str(Path(path).parent)
        if parent != "/":
            self.mkdir(parent)

    def file(self, path: str, body: bytes, mode: int = 0o644) -> None:
        self.parent(path)
        self._entry(path, stat.S_IFREG | mode, body)

    def copy(self, path: str, source: Path) -> None:
        self.file(path, source.read_bytes(), source.stat().st_mode & 0o7777)

    def symlink(self, path: str, target: str) -> None:
        self.parent(path)
        self._entry(path, stat.S_IFLNK | 0o777, target.encode())

    def node(self, path: str, kind: str, major: int, minor: int) -> None:
        self.parent(path)
        fmt = stat.S_IFCHR if kind == "c" else stat.S_IFBLK
        self._entry(path, fmt | 0o600, rdev=(major, minor))

    def finish(self) -> bytes:
        self._entry("TRAILER!!!", 0)
        self.data += b"\0" * (-len(self.data) % 512)
        return bytes(self.data)


def shared_libraries(exe: Path) -> list[Path]:
    """The libraries (and loader) that ldd says EXE needs."""
    out = subprocess.run(["ldd", str(exe)], capture_output=True, text=True)
    if out.returncode != 0:
        return []  # static: ldd says "not a dynamic executable"
    libs = []
    for line in out.stdout.splitlines():
        m = re.search(r"(/\S+) \(0x", line)
        if m:
            libs.append(Path(m.group(1)))
    return libs


def add_exe(image: Cpio, path: str, source: Path) -> None:
    image.copy(path, source)
    for lib in shared_libraries(source):
        if str(lib) not in image.paths:
            image.copy(str(lib), lib.resolve())


def add_busybox(image: Cpio, path: str, source: Path) -> None:
    image.copy(path, source)
    listing = subprocess.run([str(source), "--list-full"], check=True,
                             capture_output=True, text=True).stdout
    for applet in sorted(listing.split()):
        link = "/" + applet
        if link != path and link not in image.paths:
            image.symlink(link, path)


def build_from_manifest(manifest: Path) -> bytes:
    """Read MANIFEST (see guest-image/manifest) and return the archive."""
    image = Cpio()
    for number, raw in enumerate(manifest.read_text().splitlines(), 1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        kind, path, args = words[0], words[1], words[2:]
        where = f"{manifest}:{number}"
        if kind == "dir":
            image.mkdir(path)
        elif kind == "nod":
            image.node(path, args[0], int(args[1]), int(args[2]))
        elif kind in ("file", "exe", "busybox"):
            source = TOP / args[0]
            if not source.is_file():
                raise SystemExit(f"initramfs: {where}: {source} is missing (build it first)")
            if kind == "file":
                image.copy(path, source)
            elif kind == "exe":
                add_exe(image, path, source)
            else:
                add_busybox(image, path, source)
        else:
            raise SystemExit(f"initramfs: {where}: unknown kind '{kind}'")
    return image.finish()


def main() -> int:
    parser = argparse.ArgumentParser(description="Build the guest's base initramfs from a manifest.")
    parser.add_argument("manifest", type=Path)
    parser.add_argument("output", type=Path, help="gzip-compressed cpio archive to write")
    opts = parser.parse_args()
    data = build_from_manifest(opts.manifest)
    tmp = opts.output.with_suffix(".tmp")
    tmp.write_bytes(gzip.compress(data, mtime=0))
    os.replace(tmp, opts.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
