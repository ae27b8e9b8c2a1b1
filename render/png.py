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
"""

from __future__ import annotations

import io
import os
import struct
import zlib
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor

from PIL import Image

PALETTE_LEVEL = 3
SPLIT_ROWS = 256  # a paletted picture of fewer rows is compressed in one piece (a hand, a small table)
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
    deflated in two halves at once when it is tall (``SPLIT_ROWS``)."""
    width, height = img.size
    raw = img.tobytes()
    half = height // 2 if height >= SPLIT_ROWS else height
    second = _second_hand().submit(_deflate_rows, raw, width, half, height, True) if half < height else None
    first_rows, first = _deflate_rows(raw, width, 0, half, second is None)
    second_rows, rest = second.result() if second is not None else (b"", b"")
    adler = zlib.adler32(second_rows, zlib.adler32(first_rows))
    palette = bytes(img.getpalette() or [])[:768].ljust(768, b"\0")
    stream = b"\x78\x5e" + first + rest + struct.pack(">I", adler)  # zlib: deflate, 32 KB window
    return b"".join([b"\x89PNG\r\n\x1a\n", _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),
                     _chunk(b"PLTE", palette), _chunk(b"IDAT", stream), _chunk(b"IEND", b"")])


def _deflate_rows(raw: bytes, width: int, start: int, stop: int, last: bool) -> tuple[bytes, bytes]:
    """Rows ``start``..``stop`` as PNG scanlines (filter byte 0) and their raw deflate data: closed
    with the final block when ``last``, else with a sync flush that another stream may follow."""
    rows = b"".join([b"\0" + raw[y * width:(y + 1) * width] for y in range(start, stop)])
    packer = zlib.compressobj(PALETTE_LEVEL, zlib.DEFLATED, -15)
    return rows, packer.compress(rows) + packer.flush(zlib.Z_FINISH if last else zlib.Z_SYNC_FLUSH)


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
