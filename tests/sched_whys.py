"""The labels of what explains SCHED, as tickstat writes them (ts_sched_whys
in tools/tickstat/src/diagnosis.c): the checks hold outputs against the
source, not against a copy of the list."""
import re
from pathlib import Path

DIAGNOSIS_C = Path(__file__).resolve().parent.parent / "tools" / "tickstat" / "src" / "diagnosis.c"


def sched_whys() -> tuple[str, ...]:
    table = re.search(r"ts_sched_whys\[TS_NR_SCHED_WHY\] = \{(.*?)\};", DIAGNOSIS_C.read_text(),
                      re.S)
    if not table:
        raise SystemExit(f"FAIL: no ts_sched_whys table in {DIAGNOSIS_C}")
    return tuple(re.findall(r'= "([^"]+)"', table.group(1)))
