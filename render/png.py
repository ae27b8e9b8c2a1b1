"""Pictures to PNG bytes, small and fast.

The board and the Deal table are drawn in RGB (anti-aliased text), then mapped onto a fixed
palette of 64 colours that their renderer builds once (``fixed_palette``): mapping onto a known
palette costs ~2 ms a picture where choosing a palette per picture costs 13–40 ms, and an 8-bit
PNG is under half the bytes of an RGB one. Measured on the 1200 px board (a golden board
composed once, then saved each way; 2 cores, CPU-time medians): RGB PNG level 1 24 ms
126 KB, level 6 34 ms 103 KB; palette PNG level 1 3.5 ms 61 KB, **level 3 3.8 ms 54 KB**, level 4
5.9 ms 47 KB, level 6 8.4 ms 42 KB; WebP q80 20–67 ms 64–82 KB; JPEG q85 3 ms but 163 KB and
smeared text. A Deal hand and the discard pile use the table's palette too (an RGB hand took 4–5 ms
to write). Charts and standings stay RGB at level 1.

Writing the PNG was then half of a board turn (~5 ms of ~11 on the 2026-12-03 machine: ~3 ms
drawing, ~1 ms mapping what the frame drew), all of it zlib at level 3 (already zlib-ng in Pillow's
wheel; level 2 was no faster). A large paletted picture is therefore written here, its rows
compressed in two halves at once (``_paletted_png``): the first half ends with a sync flush and the
second goes on as a fresh deflate stream, which together are one valid zlib stream, as small as
Pillow's. zlib lets go of the GIL while it compresses, so on two cores the board's PNG takes
3.3–3.6 ms instead of 5.4 ms (wall time, 30 board frames × 3), and the same CPU time.

Larger type on the board (issue 46) made a turn's picture ~15% more bytes and its PNG slower. Most
of it does not change from one turn to the next: the top and bottom rows of squares are the same
whenever the same squares have the same owners and no token stands on a corner. A picture may
say so in ``img.info["static_rows"]`` (``(start, stop, key)``: rows the same for every picture with
that key); those rows are deflated once (at ``STATIC_LEVEL``, harder, or at
``img.info["static_level"]``) and their bytes kept (``_STATIC``): a frame deflates only the other
rows, at ``img.info["deflate_level"]`` if the picture asks for a level of its own (the board: 4,
8% fewer bytes for the time the kept rows save). The Deal table keeps each player's panel so (most
moves change one or two), at the usual level: a new game's first tables cost the same as before.
"""

from __future__ import annotations

import contextlib
import io
import os
import struct
import zlib
from collections import OrderedDict
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor

from PIL import Image

PALETTE_LEVEL = 3
STATIC_LEVEL = 6  # rows that stay the same from one picture to the next, deflated once
SPLIT_ROWS = 256  # a paletted picture of fewer rows is compressed in one piece (a hand, a small table)
STATIC_KEPT = 64  # deflated runs of static rows kept (two a board ownership, one a Deal panel)
_STATIC: OrderedDict = OrderedDict()
_helper: tuple[int, ThreadPoolExecutor] | None = None  # (process id, the thread for second halves)


def _second_hand() -> ThreadPoolExecutor:
    """The thread that compresses second halves, one per process (a forked child would inherit an
    executor whose thread it does not have)."""
    global _helper
    if _helper is None or _helper[0] != os.getpid():
        _helper = (os.getpid(), ThreadPoolExecutor(max_workers=1, thread_name_prefix="png"))
    return _helper[1]


def png_bytes(img: Image.Image) -> bytes:
    if img.mode == "P" and "transparency" not in img.info:
        return _paletted_png(img)
    out = io.BytesIO()
    img.save(out, "PNG", compress_level=PALETTE_LEVEL if img.mode == "P" else 1)
    return out.getvalue()


def _paletted_png(img: Image.Image) -> bytes:
    """An 8-bit paletted PNG of ``img`` (no filtering, as Pillow writes palette images), its rows
    deflated in runs, each a raw deflate stream ending on a byte boundary so that together they
    are one: runs the picture calls static (``img.info["static_rows"]``) as deflated before, the
    rest shared between this thread and a second one (a tall picture without static rows: in two
    halves, ``SPLIT_ROWS``)."""
    width, height = img.size
    raw = img.tobytes()
    line = width + 1
    rows = b"".join([b"\0" + raw[y * width:(y + 1) * width] for y in range(height)])
    runs: list[tuple[int, int, tuple | None]] = []  # (start, stop, key of static rows or None)
    y = 0
    for start, stop, key in sorted(img.info.get("static_rows", ()), key=lambda run: run[:2]):
        if start < y or stop > height or start >= stop:
            continue
        if start > y:
            runs.extend(_halves(y, start))
        runs.append((start, stop, (key, width, start, stop, stop == height)))
        y = stop
    if y < height:
        runs.extend(_halves(y, height))
    level = img.info.get("deflate_level", PALETTE_LEVEL)
    static_level = img.info.get("static_level", STATIC_LEVEL)
    parts: dict[int, object] = {}
    todo = []  # (rows, run) still to deflate: shared between the two threads, the largest first
    for k, (start, stop, key) in enumerate(runs):
        found = _STATIC.get(key) if key is not None else None
        if found is not None:
            parts[k] = found
            with contextlib.suppress(KeyError):  # (another thread may just have let it go)
                _STATIC.move_to_end(key)
        else:
            todo.append((stop - start, k))
    mine, theirs, load = [], [], [0, 0]
    for size, k in sorted(todo, reverse=True):
        side = 0 if load[0] <= load[1] else 1
        (mine if side == 0 else theirs).append(k)
        load[side] += size
    if sum(load) < SPLIT_ROWS:  # too little for a second thread
        mine, theirs = mine + theirs, []

    def deflate(k: int) -> bytes:
        start, stop, key = runs[k]
        return _deflate(rows[start * line:stop * line], level if key is None else static_level, k == len(runs) - 1)

    for k in theirs:
        parts[k] = _second_hand().submit(deflate, k)
    for k in mine:
        parts[k] = deflate(k)
    for _, k in todo:
        part = parts[k]
        if not isinstance(part, bytes):
            part = parts[k] = part.result()
        key = runs[k][2]
        if key is not None:
            _STATIC[key] = part
            if len(_STATIC) > STATIC_KEPT:
                with contextlib.suppress(KeyError):
                    _STATIC.popitem(last=False)
    palette = bytes(img.getpalette() or [])[:768].ljust(768, b"\0")
    stream = b"\x78\x5e" + b"".join(parts[k] for k in range(len(runs))) + struct.pack(">I", zlib.adler32(rows))
    return b"".join([b"\x89PNG\r\n\x1a\n", _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),
                     _chunk(b"PLTE", palette), _chunk(b"IDAT", stream), _chunk(b"IEND", b"")])


def _halves(start: int, stop: int) -> list[tuple[int, int, None]]:
    """Rows ``start``..``stop`` as one run, or two when there are enough for two threads."""
    if stop - start < SPLIT_ROWS:
        return [(start, stop, None)]
    mid = (start + stop) // 2
    return [(start, mid, None), (mid, stop, None)]


def _deflate(rows: bytes, level: int, last: bool) -> bytes:
    """``rows`` as raw deflate data: closed with the final block when ``last``, else with a sync
    flush that another stream may follow."""
    packer = zlib.compressobj(level, zlib.DEFLATED, -15)
    return packer.compress(rows) + packer.flush(zlib.Z_FINISH if last else zlib.Z_SYNC_FLUSH)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def fixed_palette(keys: Iterable[tuple[int, int, int]], sample: Image.Image, total: int = 64) -> Image.Image:
    """A palette image of ``total`` colours: every colour of ``keys`` exactly (flat fills, player
    colours), the rest chosen from ``sample`` (a picture showing the anti-aliased edges to expect).
    64 colours look the same as 256 here and the PNG is ~12% smaller."""
    exact: list[tuple[int, int, int]] = []
    for k in keys:
        if k not in exact:
            exact.append(tuple(k))  # type: ignore[arg-type]
    exact = exact[: total - 16]
    rest = sample.convert("RGB").quantize(total - len(exact), method=Image.Quantize.MEDIANCUT)
    flat = [v for c in exact for v in c] + (rest.getpalette() or [])[: 3 * (total - len(exact))]
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat + [0] * (768 - len(flat)))
    return pal


def to_palette(img: Image.Image, palette: Image.Image) -> Image.Image:
    """``img`` on ``palette`` (nearest colour, no dithering: flat fills stay flat and compress)."""
    return img.quantize(palette=palette, dither=Image.Dither.NONE)
