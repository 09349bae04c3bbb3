"""Image pipeline: ours vs the naive Pillow path, in one run.

The naive path is what most tools do: ``Image.open`` → ``thumbnail((1568, 1568))`` →
``save()`` in the source's format. For each generated input the script measures, each in a
fresh child process so memory figures are not polluted by earlier inputs:

* time: best of ``--repeat`` runs (ms);
* peak extra memory: ``VmHWM`` − ``VmRSS`` around one call after resetting the peak counter
  (``/proc/self/clear_refs``; Pillow allocates pixels in C, so RSS is the honest measure),
  plus the ``tracemalloc`` peak of Python allocations;

then checks SPEC §1.3's invariants on both outputs and prints which ones the naive path
breaks, and the time ratio ours / naive.

    python bench/images.py              # all inputs, 5 runs each
    python bench/images.py --repeat 3 --only photo,cmyk
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from webresearch.images.prepare import prepare_image

MAX_SIDE = 1568
CAP = 1536 * 1024
MiB = 1024 * 1024


# --- inputs -----------------------------------------------------------------------------------------
def _save(im: Image.Image, fmt: str, **params: Any) -> bytes:
    buf = io.BytesIO()
    im.save(buf, fmt, **params)
    return buf.getvalue()


def _photo(width: int, height: int) -> Image.Image:
    base = Image.linear_gradient("L").resize((width, height))
    radial = Image.radial_gradient("L").resize((width, height))
    grain = Image.effect_noise((width, height), 24)
    return Image.merge("RGB", (base, radial, Image.blend(base, grain, 0.3)))


def _exif(orientation: int) -> bytes:
    exif = Image.Exif()
    exif[0x0112] = orientation
    return exif.tobytes()


def _screenshot() -> Image.Image:
    im = Image.new("RGB", (1568, 980), (246, 247, 249))
    draw = ImageDraw.Draw(im)
    draw.rectangle((0, 0, 1568, 56), fill=(32, 33, 36))
    draw.rectangle((0, 56, 260, 980), fill=(236, 238, 241))
    rng = random.Random(3)
    for y in range(90, 960, 22):
        x = 290
        while x < 1500:
            word = rng.randint(3, 11)
            draw.text((x, y), "w" * word, fill=(40, 40, 40))
            x += word * 7 + 10
    return im


def _noisy(width: int, height: int) -> Image.Image:
    return Image.frombytes("RGB", (width, height), random.Random(1).randbytes(width * height * 3))


def _gif() -> bytes:
    frames = [_photo(800, 600).quantize(64) for _ in range(1)] + [
        Image.new("P", (800, 600), i) for i in range(1, 24)
    ]
    return _save(frames[0], "GIF", save_all=True, append_images=frames[1:], duration=80, loop=0)


def inputs() -> dict[str, tuple[str, Callable[[], bytes], dict[str, Any]]]:
    """name → (description, generator, extra prepare_image arguments)."""
    return {
        "photo": (
            "4000×3000 JPEG photo",
            lambda: _save(_photo(4000, 3000), "JPEG", quality=90),
            {},
        ),
        "screenshot": ("1568×980 PNG screenshot", lambda: _save(_screenshot(), "PNG"), {}),
        "noisy": (
            "1900×1800 noisy PNG (~10 MB; source cap raised to 16 MiB)",
            lambda: _save(_noisy(1900, 1800), "PNG"),
            {"max_source_bytes": 16 * MiB},
        ),
        "gif": ("800×600 animated GIF, 24 frames", _gif, {}),
        "cmyk": (
            "3000×2000 CMYK JPEG",
            lambda: _save(_photo(3000, 2000).convert("CMYK"), "JPEG", quality=90),
            {},
        ),
        "rotated": (
            "4000×3000 JPEG, EXIF orientation 6",
            lambda: _save(_photo(4000, 3000), "JPEG", quality=90, exif=_exif(6)),
            {},
        ),
    }


# --- the two paths ------------------------------------------------------------------------------------
def naive(data: bytes, **_: Any) -> bytes:
    """What most tools do: thumbnail and save in the source's format."""
    im = Image.open(io.BytesIO(data))
    fmt = im.format or "PNG"
    im.thumbnail((MAX_SIDE, MAX_SIDE))
    buf = io.BytesIO()
    im.save(buf, fmt)
    return buf.getvalue()


def ours(data: bytes, **kwargs: Any) -> bytes:
    return prepare_image(data, **kwargs).data


# --- invariants -----------------------------------------------------------------------------------------
def broken_invariants(out: bytes, expect_portrait: bool | None) -> list[str]:
    """SPEC §1.3 invariants ``out`` breaks (as a vision API would see the bytes)."""
    broken = []
    im = Image.open(io.BytesIO(out))
    if len(out) > CAP:
        broken.append(f"size cap ({len(out) / MiB:.1f} MiB > 1.5)")
    if max(im.size) > MAX_SIDE:
        broken.append("long side")
    if im.format not in ("PNG", "JPEG", "WEBP"):
        broken.append(f"format ({im.format})")
    if getattr(im, "is_animated", False):
        broken.append("animated")
    if im.mode not in ("1", "L", "LA", "P", "RGB", "RGBA"):
        broken.append(f"colour ({im.mode})")
    orientation = im.getexif().get(0x0112)
    if orientation not in (None, 1):
        broken.append(f"EXIF tag {orientation} left")
    if expect_portrait is not None and (im.size[1] > im.size[0]) != expect_portrait:
        broken.append("orientation (sideways)")
    return broken


# --- measurement in a child process ---------------------------------------------------------------
def _status(field: str) -> int:
    text = Path("/proc/self/status").read_text()
    match = re.search(field + r":\s+(\d+) kB", text)
    return int(match.group(1)) * 1024 if match else 0


def child(path: str, impl: str, repeat: int, kwargs: dict[str, Any]) -> dict[str, Any]:
    """Measure one (input, implementation) pair in this (fresh) process."""
    data = Path(path).read_bytes()
    fn = ours if impl == "ours" else naive
    fn(data, **kwargs)  # warm-up: imports, plugin registration
    clear = Path("/proc/self/clear_refs")
    if clear.exists():
        clear.write_text("5")
    before = _status("VmRSS")
    tracemalloc.start()
    out = fn(data, **kwargs)
    _, py_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss_peak = _status("VmHWM") - before
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn(data, **kwargs)
        times.append(time.perf_counter() - started)
    out_path = path + f".{impl}.out"
    Path(out_path).write_bytes(out)
    return {
        "ms": min(times) * 1000,
        "rss_mib": rss_peak / MiB,
        "py_mib": py_peak / MiB,
        "out": out_path,
    }


def measure(path: Path, impl: str, repeat: int, kwargs: dict[str, Any]) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, __file__, "--child", str(path), impl, str(repeat), json.dumps(kwargs)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ},
    )
    return dict(json.loads(proc.stdout))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per pair (best is kept)")
    parser.add_argument("--only", default="", help="comma-separated input names")
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        path, impl, repeat, kwargs = args.child
        print(json.dumps(child(path, impl, int(repeat), json.loads(kwargs))))
        return
    chosen = [n for n in args.only.split(",") if n] or list(inputs())
    expect_portrait = {"rotated": True, "photo": False, "cmyk": False}
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in chosen:
            what, make, kwargs = inputs()[name]
            path = Path(tmp) / name
            path.write_bytes(make())
            ours_m = measure(path, "ours", args.repeat, kwargs)
            naive_m = measure(path, "naive", args.repeat, {})
            portrait = expect_portrait.get(name)
            rows.append(
                {
                    "name": name,
                    "what": what,
                    "source_mib": path.stat().st_size / MiB,
                    "ours": ours_m,
                    "naive": naive_m,
                    "ours_broken": broken_invariants(Path(ours_m["out"]).read_bytes(), portrait),
                    "naive_broken": broken_invariants(Path(naive_m["out"]).read_bytes(), portrait),
                }
            )
    header = (
        f"{'input':<11}{'source':>9}{'ours ms':>9}{'naive ms':>10}{'ratio':>7}"
        f"{'ours RSS':>10}{'naive RSS':>11}{'ours py':>9}  naive breaks / ours breaks"
    )
    print(header)
    for row in rows:
        o, n = row["ours"], row["naive"]
        print(
            f"{row['name']:<11}{row['source_mib']:>7.1f}Mi{o['ms']:>9.0f}{n['ms']:>10.0f}"
            f"{o['ms'] / n['ms']:>7.2f}{o['rss_mib']:>8.0f}Mi{n['rss_mib']:>9.0f}Mi{o['py_mib']:>7.1f}Mi"
            f"  {', '.join(row['naive_broken']) or '-'} / {', '.join(row['ours_broken']) or 'none'}"
        )
    print()
    for row in rows:
        print(f"{row['name']}: {row['what']}")


if __name__ == "__main__":
    main()
