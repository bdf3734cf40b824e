"""guest_state - what a guest's vCPUs were doing when the runner stopped it.

A guest that hangs (before its job starts, or during it) is killed at
--timeout, and the console tells only what the kernel had printed: a boot
that stopped after "clocksource: Switched to clocksource tsc" says nothing
of where.  Before the kill, the runner asks QEMU's monitor (a unix socket,
qemu -monitor unix:...) for every vCPU's registers, keeps them whole beside
the console, and names each vCPU's instruction with the kernel's System.map
when it finds one.  The kernel's text is placed at random (KASLR): where it
lies is the first mapping of the kernel image's range in the page tables
of a vCPU in the kernel (info mem; a user task's tables map only the entry
code there), and System.map's _text is where it would lie unmoved.  The
kernel moves in steps of 2 MiB: another shift names nothing.  The whole
asking has a few seconds, whatever the monitor does.
"""

import bisect
import re
import socket
import time
from pathlib import Path

PROMPT = b"(qemu) "
# the monitor echoes each command with the terminal's line editing
ESCAPES = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
CPU_HEAD = re.compile(r"^CPU#(\d+)\s*$", re.M)
RIP = re.compile(r"\bRIP=([0-9a-f]{16})\b.*\bCPL=(\d).*\bHLT=(\d)")
# x86_64: the kernel image is mapped between these (modules above)
IMAGE_START, IMAGE_END = 0xffffffff80000000, 0xffffffffc0000000
KASLR_ALIGN = 2 << 20
# what the asking may take in all (the runner's stop waits for it)
ASK_SECONDS = 8
# a unix socket's path is at most this long (sun_path, with its NUL)
SOCKET_PATH_MAX = 107
MAP_LINE = re.compile(r"^([0-9a-f]+) [tTwW] (\S+)$")


def monitor_args(sock: Path) -> list[str]:
    """QEMU's options for a monitor on sock that nobody needs to attach to;
    none where the path is too long for a socket."""
    if len(str(sock)) > SOCKET_PATH_MAX:
        return ["-monitor", "none"]
    return ["-monitor", f"unix:{sock},server=on,wait=off"]


def _until_prompt(conn: socket.socket, deadline: float) -> bytes:
    got = b""
    while not got.endswith(PROMPT):
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the monitor did not answer")
        conn.settimeout(left)
        chunk = conn.recv(65536)
        if not chunk:
            raise ConnectionError("the monitor closed")
        got += chunk
    return got


def ask(sock: Path, commands: list[str], deadline: float) -> dict[str, str]:
    """Each command's answer from the monitor on sock, without its echo,
    by deadline (time.monotonic())."""
    answers = {}
    with socket.socket(socket.AF_UNIX) as conn:
        conn.settimeout(max(deadline - time.monotonic(), 0.01))
        conn.connect(str(sock))
        _until_prompt(conn, deadline)           # the banner
        for command in commands:
            conn.sendall(command.encode() + b"\n")
            text = _until_prompt(conn, deadline)[:-len(PROMPT)].decode(errors="replace")
            # the echo ends with the first line end; the answer follows
            answers[command] = ESCAPES.sub("", text).partition("\n")[2]
    return answers


def registers(text: str) -> list[tuple[int, int, bool, int]]:
    """(vCPU, RIP, halted, CPL) of each vCPU in 'info registers -a'."""
    heads = list(CPU_HEAD.finditer(text))
    found = []
    for i, head in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        rip = RIP.search(text, head.end(), end)
        if rip:
            found.append((int(head.group(1)), int(rip.group(1), 16), rip.group(3) == "1",
                          int(rip.group(2))))
    return found


def in_image(line: str) -> bool:
    """Does a line of 'info mem' map part of the kernel image's range?"""
    start = line.split("-", 1)[0]
    return bool(re.fullmatch(r"[0-9a-f]{16}", start)) and IMAGE_START <= int(start, 16) < IMAGE_END


def text_base(info_mem: str) -> int | None:
    """Where the kernel's text begins, from 'info mem': the first mapping of
    the kernel image's range."""
    for line in info_mem.splitlines():
        if in_image(line):
            return int(line.split("-", 1)[0], 16)
    return None


class SystemMap:
    """A kernel's System.map: its text symbols, in order of address (of
    name at one address); tests/bench/scale names its kernel profile with
    it too."""

    def __init__(self, path: Path):
        syms = sorted((int(m.group(1), 16), m.group(2))
                      for m in map(MAP_LINE.match, path.read_text(errors="replace").splitlines())
                      if m)
        self.addrs = [a for a, _ in syms]
        self.names = [n for _, n in syms]
        where = dict(zip(self.names, self.addrs))
        self.text, self.etext = where.get("_text"), where.get("_etext")

    def name(self, addr: int) -> str | None:
        """symbol+0xoff of an unmoved text address, None outside the text."""
        if self.text is None or self.etext is None or not self.text <= addr < self.etext:
            return None
        i = bisect.bisect_right(self.addrs, addr) - 1
        return f"{self.names[i]}+{addr - self.addrs[i]:#x}" if i >= 0 else None


def system_map(kernel: Path) -> Path | None:
    """The System.map of a kernel built here (its build folder, above
    arch/x86/boot/bzImage), or the one beside a kernel image: System.map,
    or System.map-VERSION beside vmlinuz-VERSION.  None otherwise: another
    kernel's would name wrong places."""
    candidates = [kernel.parent / "System.map"]
    if kernel.name.startswith("vmlinuz-"):
        candidates.append(kernel.parent / ("System.map-" + kernel.name[len("vmlinuz-"):]))
    if kernel.parts[-4:-1] == ("arch", "x86", "boot"):
        candidates.append(kernel.parents[3] / "System.map")
    return next((path for path in candidates if path.is_file()), None)


def cpu_list(cpus: list[int]) -> str:
    """0-3,7 for [0, 1, 2, 3, 7]."""
    runs, start = [], None
    for i, cpu in enumerate(cpus):
        if start is None:
            start = cpu
        if i + 1 == len(cpus) or cpus[i + 1] != cpu + 1:
            runs.append(f"{start}" if start == cpu else f"{start}-{cpu}")
            start = None
    return ",".join(runs)


def summary(found: list[tuple[int, int, bool, int]], names: dict[int, str]) -> str:
    """One line: the vCPUs grouped by state and place."""
    groups: dict[tuple[str, str], list[int]] = {}
    for cpu, rip, halted, _ in found:
        place = names.get(rip) or f"{rip:#x}"
        groups.setdefault(("halted" if halted else "running", place), []).append(cpu)
    return "; ".join(f"CPU {cpu_list(sorted(cpus))} {state} at {place}"
                     for (state, place), cpus in sorted(groups.items(),
                                                        key=lambda g: min(g[1])))


def kernel_cpu(found: list[tuple[int, int, bool, int]]) -> int | None:
    """A vCPU running the kernel (CPL 0, its instruction in the image's
    range): its page tables map the kernel's text."""
    return next((cpu for cpu, rip, _, cpl in found
                 if cpl == 0 and IMAGE_START <= rip < IMAGE_END), None)


def names_of(found, info_mem: str, kernel: Path) -> tuple[dict[int, str], str]:
    """Each instruction's symbol+0xoff where System.map names it, and what
    the shift was (or why there are no names)."""
    mapped = system_map(kernel)
    base = text_base(info_mem)
    if not mapped:
        return {}, "no System.map for this kernel"
    if base is None:
        return {}, "no mapping of the kernel's text found"
    try:
        smap = SystemMap(mapped)
    except OSError as e:
        return {}, f"cannot read {mapped}: {e.strerror}"
    if smap.text is None:
        return {}, f"{mapped} has no _text"
    shift = base - smap.text
    if shift % KASLR_ALIGN:
        return {}, f"the text at {base:#x} is not {mapped}'s _text moved in steps of 2 MiB"
    names = {rip: name for _, rip, _, _ in found if (name := smap.name(rip - shift))}
    return names, f"{mapped}, the text at {base:#x} (shifted {shift:#x})"


def capture(sock: Path, kernel: Path, dest: Path) -> str:
    """Ask the monitor on sock for the vCPUs' registers (twice, a second
    apart: a vCPU whose place changed is not stuck there) within
    ASK_SECONDS in all, write them to dest, and say in a line where each
    vCPU was."""
    deadline = time.monotonic() + ASK_SECONDS
    if len(str(sock)) > SOCKET_PATH_MAX:
        return "no monitor (the temporary folder's path is too long for a socket)"
    try:
        first = ask(sock, ["info registers -a"], deadline)["info registers -a"]
    except (OSError, TimeoutError, ConnectionError) as e:
        return f"the emulator's monitor did not answer ({e})"
    found = registers(first)
    info_mem = second = ""
    try:
        cpu = kernel_cpu(found)
        if cpu is not None:
            info_mem = ask(sock, [f"cpu {cpu}", "info mem"], deadline)["info mem"]
        time.sleep(min(1.0, max(deadline - time.monotonic() - 2, 0)))
        second = ask(sock, ["info registers -a"], deadline)["info registers -a"]
    except (OSError, TimeoutError, ConnectionError):
        pass                    # what the first asking gave stands
    names, how = names_of(found, info_mem, kernel) if info_mem else \
        ({}, "no vCPU in the kernel, or no answer: no names")
    try:
        dest.write_text(f"# names: {how}\n# info registers -a\n{first}"
                        "\n# info registers -a, a second later\n" + (second or "(no answer)\n") +
                        "\n# info mem, the kernel image's range (the rest is megabytes)\n" +
                        "".join(line + "\n" for line in info_mem.splitlines() if in_image(line)))
    except OSError as e:
        how += f"; cannot write {dest}: {e.strerror}"
    later = {cpu: rip for cpu, rip, _, _ in registers(second)}
    moved = sorted(cpu for cpu, rip, _, _ in found if cpu in later and later[cpu] != rip)
    line = summary(found, names) or "no vCPU's registers in the monitor's answer"
    if moved:
        line += f" (a second later CPU {cpu_list(moved)} had moved on)"
    return line
