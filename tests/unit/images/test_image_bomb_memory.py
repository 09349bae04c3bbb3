"""Pixel bombs cost neither time nor memory: measured in a fresh process.

Pillow allocates pixel memory in C, which ``tracemalloc`` does not see, so each input is
prepared in a child process that resets its peak-RSS counter (``/proc/self/clear_refs``,
Linux) and reports ``VmHWM`` − ``VmRSS`` before the call: the extra peak memory of that
call alone.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.support.image_factory import gif_with_size, jpeg_with_size, png_bomb, webp_with_size

ROOT = Path(__file__).resolve().parents[3]
CASE28 = ROOT / "tests" / "fixtures" / "cases" / "28-image-decompression-bomb"
MiB = 1024 * 1024

CHILD = r"""
import json, re, sys, time
from webresearch.errors import WebResearchError
from webresearch.images.prepare import prepare_image

def status(field):
    return int(re.search(field + r":\s+(\d+) kB", open("/proc/self/status").read()).group(1)) * 1024

out = []
for path, kwargs in json.loads(sys.argv[1]):
    data = open(path, "rb").read()
    with open("/proc/self/clear_refs", "w") as fh:
        fh.write("5")
    before = status("VmRSS")
    started = time.perf_counter()
    try:
        result = prepare_image(data, **kwargs)
        outcome = {"ok": True, "meta": result.meta}
    except WebResearchError as exc:
        outcome = {"ok": False, "code": exc.code, "text": exc.to_text(), "retryable": exc.retryable}
    outcome["seconds"] = time.perf_counter() - started
    outcome["extra_bytes"] = status("VmHWM") - before
    out.append(outcome)
print(json.dumps(out))
"""


def _measure(jobs: list[tuple[Path, dict[str, object]]]) -> list[dict[str, object]]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    # Warm up Pillow's import in the child before measuring (a real process has it loaded).
    warm: list[tuple[Path, dict[str, object]]] = [
        (CASE28.parent / "24-image-exif-orientation" / "small.jpg", {})
    ]
    proc = subprocess.run(
        [
            sys.executable,
            "-W",
            "error",
            "-c",
            CHILD,
            json.dumps([(str(p), k) for p, k in warm + jobs]),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return list(json.loads(proc.stdout))[1:]


def test_a_40000x40000_png_bomb_is_refused_in_under_5_s_and_256_mib(tmp_path: Path) -> None:
    [result] = _measure([(CASE28 / "bomb.png", {})])
    assert result["ok"] is False and result["code"] == "too_large"
    assert result["retryable"] is False
    assert "40000×40000" in str(result["text"])
    assert "Decompression" not in str(result["text"]) and "Traceback" not in str(result["text"])
    assert float(result["seconds"]) < 5  # type: ignore[arg-type]
    assert int(result["extra_bytes"]) < 256 * MiB  # type: ignore[call-overload]


def test_bombs_in_every_format_cost_no_memory(tmp_path: Path) -> None:
    bombs = {
        "png": png_bomb(40000, 40000),
        "jpeg": jpeg_with_size(65000, 65000),
        "gif": gif_with_size(65535, 65535),
        "gif-frame": gif_with_size(60000, 60000, frame_only=True),
        "webp-vp8x": webp_with_size(16384, 16384, "VP8X"),
        "webp-vp8l": webp_with_size(16384, 16384, "VP8L"),
    }
    jobs: list[tuple[Path, dict[str, object]]] = []
    for name, data in bombs.items():
        path = tmp_path / name
        path.write_bytes(data)
        jobs.append((path, {}))
    for name, result in zip(bombs, _measure(jobs), strict=True):
        assert result["code"] == "too_large", name
        assert float(result["seconds"]) < 5, name  # type: ignore[arg-type]
        assert int(result["extra_bytes"]) < 256 * MiB, name  # type: ignore[call-overload]


def test_case28_big_png_with_a_raised_limit_stays_under_30_s_and_1_gib() -> None:
    [result] = _measure([(CASE28 / "big.png", {"max_pixels": 150_000_000})])
    assert result["ok"] is True
    meta = result["meta"]
    assert (meta["width"], meta["height"]) == (1568, 1568)  # type: ignore[index]
    assert float(result["seconds"]) < 30  # type: ignore[arg-type]
    assert int(result["extra_bytes"]) < 1024 * MiB  # type: ignore[call-overload]
