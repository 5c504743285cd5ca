"""The machine and the date, printed at the top of every benchmark table."""

from __future__ import annotations

import os
import platform
from datetime import UTC, datetime


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def machine_lines() -> list[str]:
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return [
        f"- date: {now}",
        f"- machine: {cpu_model()}, {os.cpu_count()} logical cores, {platform.system()} {platform.release()}",
        f"- python: {platform.python_implementation()} {platform.python_version()}",
    ]
