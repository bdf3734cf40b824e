#!/usr/bin/python3
"""debian-kernel.py - Debian's own kernel images for the guest, from the archive.

usage: scripts/debian-kernel.py [--headers] NAME...
       NAME: debian-6.1, debian-6.1-rt, debian-6.12, debian-6.12-rt

Prints, for each NAME, its folder build/debian/NAME, which holds:
  vmlinuz          the image package's kernel
  release          its release (uname -r)
  package          the image package and version
  modules/*.ko     what the guest needs for its output disk (virtio_pci,
                   virtio_blk and what they depend on, unless built in),
                   decompressed; modules/load lists them in load order
  headers/build    with --headers: the matching linux-headers-* tree, to
                   build out-of-tree modules against (never installed)

debian-6.1 is the image whose version equals the installed linux-source-6.1's
(the source the project patches); debian-6.12 the newest 6.12 image; -rt the
PREEMPT_RT flavour, -cloud the others.  Packages are picked by version, never
by ABI number, fetched with 'apt-get download' into build/debian/debs and
kept; nothing is installed on the host.  When a package is not in the package
lists, 'apt-get update' runs once (it says so) before giving up.
"""
import argparse
import lzma
import os
import re
import shutil
import subprocess
import sys
import tarfile
from functools import cmp_to_key
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent
BUILD = Path(os.environ.get("BUILD_DIR", TOP / "build")) / "debian"
DEBS = BUILD / "debs"
LISTS = Path("/var/lib/apt/lists")
# name: (kernel series, flavour); debian-6.1 follows linux-source-6.1
KERNELS = {
    "debian-6.1": ("6.1", "cloud-amd64"),
    "debian-6.1-rt": ("6.1", "rt-amd64"),
    "debian-6.12": ("6.12", "cloud-amd64"),
    "debian-6.12-rt": ("6.12", "rt-amd64"),
}
# the drivers of QEMU's -drive if=virtio disk, which carries the guest's output
DISK_DRIVERS = ("virtio_pci", "virtio_blk")


class Failure(Exception):
    """A clear one-line reason to stop."""


def last_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[-1] if lines else "(no message)"


def run(*cmd: str, cwd: Path | None = None) -> str:
    res = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if res.returncode:
        raise Failure(f"{' '.join(cmd)}: {last_line(res.stderr or res.stdout)}")
    return res.stdout


def say(msg: str) -> None:
    print(f"  {msg}", file=sys.stderr)


def version_cmp(a: str, b: str) -> int:
    if a == b:
        return 0
    return -1 if subprocess.run(["dpkg", "--compare-versions", a, "lt", b]).returncode == 0 else 1


def upstream(version: str) -> str:
    """6.12.118-1~deb12u1 -> 6.12.118"""
    return version.split(":")[-1].split("-")[0]


def in_series(version: str, series: str) -> bool:
    return upstream(version).split(".")[:2] == series.split(".")


def source_version() -> str:
    res = subprocess.run(["dpkg-query", "-W", "-f=${Status} ${Version}", "linux-source-6.1"],
                         capture_output=True, text=True)
    if res.returncode or not res.stdout.startswith("install ok installed "):
        raise Failure("linux-source-6.1 is not installed (make deps installs it): "
                      "debian-6.1 is the image of the same version")
    return res.stdout.split()[-1]


def images(flavour: str, series: str) -> list[tuple[str, str]]:
    """(package, version) of every linux-image-*-FLAVOUR-unsigned of SERIES
    in the package lists."""
    pattern = re.compile(rf"^linux-image-(.+)-{re.escape(flavour)}-unsigned$")
    names = [n for n in run("apt-cache", "pkgnames", "linux-image-").split() if pattern.match(n)]
    if not names:
        return []
    out = []
    for line in run("apt-cache", "madison", *names).splitlines():
        fields = [f.strip() for f in line.split("|")]
        if len(fields) >= 2 and in_series(fields[1], series):
            out.append((fields[0], fields[1]))
    return sorted(set(out))


def pick(name: str, found: list[tuple[str, str]]) -> tuple[str, str] | str:
    """The image NAME stands for, or why there is none."""
    series, flavour = KERNELS[name]
    seen = ", ".join(f"{p} {v}" for p, v in found) or "none"
    if series == "6.1":
        want = source_version()
        match = [pv for pv in found if pv[1] == want]
        if match:
            return match[0]
        return (f"{name} is the {flavour} image of version {want} (the installed linux-source-6.1), "
                f"which the package lists do not have (6.1 {flavour} images there: {seen}); "
                f"when the archive has moved on, upgrade linux-source-6.1 to the same version "
                f"(the series targets one release: build-kernel.sh says if it still applies)")
    if not found:
        return f"{name}: the package lists have no linux-image-6.12*-{flavour}-unsigned"
    return sorted(found, key=cmp_to_key(lambda a, b: version_cmp(a[1], b[1])))[-1]


def lists_key() -> str:
    """What the choice depends on: the package lists and linux-source-6.1."""
    stamp = [f"{p.name} {p.stat().st_mtime_ns} {p.stat().st_size}"
             for p in sorted(LISTS.glob("*_Packages*"))]
    try:
        stamp.append(source_version())
    except Failure:
        stamp.append("no linux-source-6.1")
    return "\n".join(stamp)


def apt_update(why: str) -> None:
    say(f"APT-GET UPDATE ({why})")
    if os.geteuid():
        raise Failure(f"{why}; run 'apt-get update' as root and try again")
    run("apt-get", "update", "-qq")


def cached(name: str) -> tuple[str, str] | None:
    """The image extracted before, if it still fits NAME without the lists
    (debian-6.1: the installed linux-source-6.1's version)."""
    stamp = BUILD / name / "package"
    if not stamp.is_file():
        return None
    pkg, version = stamp.read_text().split()
    if KERNELS[name][0] == "6.1" and version != source_version():
        return None
    return pkg, version


def choose(name: str, updated: list[bool]) -> tuple[str, str]:
    """The image package and version for NAME; cached against the lists."""
    series, flavour = KERNELS[name]
    cache = BUILD / name / "choice"
    key = lists_key()
    if cache.is_file():
        lines = cache.read_text().split("\n", 1)
        if len(lines) == 2 and lines[1] == key:
            pkg, version = lines[0].split()
            return pkg, version
    choice = pick(name, images(flavour, series))
    if isinstance(choice, str) and not updated[0]:
        apt_update(f"{name}: nothing fitting in the package lists")
        updated[0] = True
        key = lists_key()
        choice = pick(name, images(flavour, series))
    if isinstance(choice, str):
        kept = cached(name)
        if not kept:
            raise Failure(choice)
        say(f"{choice}; using the image already in {BUILD / name}: {kept[0]} {kept[1]}")
        choice = kept
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(f"{choice[0]} {choice[1]}\n{key}")
    return choice


def deb_path(pkg: str, version: str) -> Path | None:
    ver = version.split(":")[-1]
    hits = sorted(DEBS.glob(f"{pkg}_{ver}_*.deb"))
    return hits[0] if hits else None


def download(specs: list[tuple[str, str]], updated: list[bool]) -> list[Path]:
    """The .deb of each (package, version), from the cache or the archive."""
    DEBS.mkdir(parents=True, exist_ok=True)
    missing = [f"{p}={v}" for p, v in specs if not deb_path(p, v)]
    if missing:
        say("APT-GET DOWNLOAD " + " ".join(missing))
        cmd = ["apt-get", "download", "-q"]
        if os.geteuid() == 0:  # the _apt user cannot write into build/
            cmd += ["-o", "APT::Sandbox::User=root"]
        res = subprocess.run(cmd + missing, cwd=DEBS, capture_output=True, text=True)
        if res.returncode and not updated[0]:
            # lists older than the archive: it no longer has that file
            apt_update("apt-get download failed: " + last_line(res.stderr))
            updated[0] = True
            res = subprocess.run(cmd + missing, cwd=DEBS, capture_output=True, text=True)
        if res.returncode:
            raise Failure(f"apt-get download {' '.join(missing)}: "
                          f"{last_line(res.stderr)} (the archive may have "
                          f"moved on: see 'apt-cache policy {missing[0].split('=')[0]}')")
    paths = [deb_path(p, v) for p, v in specs]
    for (p, v), path in zip(specs, paths):
        if not path:
            raise Failure(f"apt-get download {p}={v} left no .deb in {DEBS}")
    return paths


def members(deb: Path, want) -> dict[str, bytes]:
    """The files of deb's data whose path want(path) accepts, by path."""
    proc = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", str(deb)], stdout=subprocess.PIPE)
    out = {}
    with tarfile.open(fileobj=proc.stdout, mode="r|") as tar:
        for m in tar:
            path = m.name.lstrip("./")
            if m.isfile() and want(path):
                out[path] = tar.extractfile(m).read()
    if proc.wait():
        raise Failure(f"dpkg-deb --fsys-tarfile {deb} failed")
    return out


def module_name(path: str) -> str | None:
    m = re.match(r".*/([^/]+)\.ko(\.xz|\.zst|\.gz)?$", path)
    return m.group(1).replace("-", "_") if m else None


def decompress(path: str, data: bytes) -> bytes:
    if path.endswith(".xz"):
        return lzma.decompress(data)
    if path.endswith(".zst"):
        return subprocess.run(["zstd", "-dc"], input=data, capture_output=True, check=True).stdout
    if path.endswith(".gz"):
        import gzip
        return gzip.decompress(data)
    return data


def depends(ko: bytes) -> list[str]:
    """The depends= entry of a module's .modinfo strings."""
    m = re.search(rb"\0depends=([^\0]*)\0", ko)
    return [d.decode().replace("-", "_") for d in m.group(1).split(b",") if d] if m else []


def extract_image(deb: Path, dest: Path) -> str:
    """vmlinuz and the disk drivers' modules into dest; returns the release.
    Each pass decompresses the whole package: the first also takes the
    drivers themselves, a second what they depend on (none on 6.12)."""
    def first(path: str) -> bool:
        return (re.fullmatch(r"boot/vmlinuz-.*|lib/modules/[^/]+/modules\.builtin", path)
                is not None or module_name(path) in DISK_DRIVERS)

    found = members(deb, first)
    kernels = [p for p in found if p.startswith("boot/vmlinuz-")]
    if len(kernels) != 1:
        raise Failure(f"{deb.name}: expected one boot/vmlinuz-*, found {kernels}")
    release = kernels[0][len("boot/vmlinuz-"):]
    builtin = {module_name(line) for line in
               found.get(f"lib/modules/{release}/modules.builtin", b"").decode().split()}
    (dest / "vmlinuz").write_bytes(found[kernels[0]])

    # the drivers, then what they depend on, until nothing new is needed
    need = {d for d in DISK_DRIVERS if d not in builtin}
    have: dict[str, list[str]] = {}
    mods = dest / "modules"
    mods.mkdir()
    got = {p: data for p, data in found.items()
           if p.startswith(f"lib/modules/{release}/") and module_name(p) in need}
    while True:
        for path, data in got.items():
            name = module_name(path)
            ko = decompress(path, data)
            (mods / f"{name}.ko").write_bytes(ko)
            have[name] = depends(ko)
            need |= {d for d in have[name] if d not in builtin}
        todo = need - have.keys()
        if not todo:
            break
        got = members(deb, lambda p: p.startswith(f"lib/modules/{release}/") and
                      module_name(p) in todo)
        lost = todo - {module_name(p) for p in got}
        if lost:
            raise Failure(f"{deb.name}: no module {', '.join(sorted(lost))} and not built in")
    order: list[str] = []

    def place(name: str) -> None:
        if name not in order:
            for dep in have[name]:
                if dep in have:
                    place(dep)
            order.append(name)

    for name in sorted(have):
        place(name)
    (mods / "load").write_text("".join(f"{n}.ko\n" for n in order))
    return release


def fetch_image(name: str, updated: list[bool]) -> Path:
    pkg, version = choose(name, updated)
    dest = BUILD / name
    stamp = f"{pkg} {version}\n"
    if (dest / "package").is_file() and (dest / "package").read_text() == stamp:
        return dest
    (deb,) = download([(pkg, version)], updated)
    say(f"EXTRACT {deb.name} -> {dest}")
    for old in ("vmlinuz", "modules", "release", "package", "headers"):
        p = dest / old
        shutil.rmtree(p) if p.is_dir() else p.unlink(missing_ok=True)
    dest.mkdir(parents=True, exist_ok=True)
    release = extract_image(deb, dest)
    (dest / "release").write_text(release + "\n")
    (dest / "package").write_text(stamp)
    return dest


def header_packages(image: str, version: str) -> list[tuple[str, str]]:
    """linux-headers-ABI-FLAVOUR and the header and kbuild packages it
    depends on, at the image's version where the archive has it."""
    headers = re.sub(r"^linux-image-(.*)-unsigned$", r"linux-headers-\1", image)
    specs = [(headers, version)]
    show = run("apt-cache", "show", f"{headers}={version}")
    deps = re.search(r"^Depends: (.*)$", show, re.M)
    for alt in (deps.group(1).split(",") if deps else []):
        dep = alt.split("|")[0].split("(")[0].strip()
        if not dep.startswith(("linux-headers-", "linux-kbuild-")):
            continue
        versions = [line.split("|")[1].strip() for line in run("apt-cache", "madison", dep).splitlines()]
        if not versions:
            raise Failure(f"{headers} {version} needs {dep}, which the package lists do not have")
        specs.append((dep, version if version in versions else
                      sorted(versions, key=cmp_to_key(version_cmp))[-1]))
    return specs


def fetch_headers(name: str, dest: Path, updated: list[bool]) -> None:
    pkg, version = (dest / "package").read_text().split()
    headers = dest / "headers"
    if (headers / "build").exists():
        return
    debs = download(header_packages(pkg, version), updated)
    say(f"EXTRACT headers of {name} -> {headers}")
    shutil.rmtree(headers, ignore_errors=True)
    tmp = dest / "headers.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    for deb in debs:
        run("dpkg-deb", "-x", str(deb), str(tmp))
    release = (dest / "release").read_text().strip()
    tree = tmp / "usr/src" / f"linux-headers-{release}"
    makefile = tree / "Makefile"
    if not makefile.is_file():
        raise Failure(f"the headers of {name} have no {makefile.relative_to(tmp)}")
    # Debian's per-flavour Makefile includes the common tree by its absolute
    # /usr/src path; point it at the extracted copy instead.
    text = makefile.read_text()
    fixed = re.sub(r"^include /usr/src/", f"include {tmp.parent / 'headers'}/usr/src/", text,
                   flags=re.M)
    if fixed == text:
        raise Failure(f"{makefile}: no 'include /usr/src/...' line to redirect")
    makefile.write_text(fixed)
    os.symlink(f"usr/src/linux-headers-{release}", tmp / "build")
    tmp.rename(headers)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--headers", action="store_true", help="also the linux-headers-* tree")
    p.add_argument("names", nargs="+", metavar="NAME", choices=sorted(KERNELS))
    opts = p.parse_args()
    updated = [False]  # apt-get update at most once per call
    try:
        for name in opts.names:
            dest = fetch_image(name, updated)
            if opts.headers:
                fetch_headers(name, dest, updated)
            print(dest)
    except (Failure, OSError, subprocess.CalledProcessError, lzma.LZMAError,
            tarfile.TarError) as e:
        print(f"debian-kernel: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
