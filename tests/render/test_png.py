"""The PNG writer for paletted pictures (``render.png``): what it writes decodes to the same pixels
and colours, as one valid zlib stream in chunks with good checksums, whether its rows were
compressed in one piece or in two halves at once."""

from __future__ import annotations

import io
import random
import struct
import zlib

import pytest
from PIL import Image

from render.png import SPLIT_ROWS, png_bytes


def _chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    out, at = [], 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        assert crc == zlib.crc32(kind + body), kind
        out.append((kind, body))
        at += 12 + length
    return out


@pytest.mark.parametrize(("width", "height"), [(1, 1), (7, 1), (33, SPLIT_ROWS - 1), (33, SPLIT_ROWS),
                                               (640, 2 * SPLIT_ROWS + 1), (1200, 1200)])
def test_a_paletted_picture_decodes_to_the_same_pixels_and_colours(width, height):
    rng = random.Random(width * 7 + height)
    # runs of a colour with noise, as a drawing is (flat fills, anti-aliased edges)
    pixels = bytearray()
    while len(pixels) < width * height:
        pixels += bytes([rng.randrange(64)]) * rng.choice((1, 1, 3, 40))
    img = Image.frombytes("P", (width, height), bytes(pixels[:width * height]))
    img.putpalette([rng.randrange(256) for _ in range(3 * 64)])
    data = png_bytes(img)
    chunks = _chunks(data)
    assert [k for k, _ in chunks] == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    assert struct.unpack(">IIBBBBB", chunks[0][1]) == (width, height, 8, 3, 0, 0, 0)
    rows = zlib.decompress(chunks[2][1])  # one zlib stream whose checksum holds
    assert rows == b"".join(b"\0" + img.tobytes()[y * width:(y + 1) * width] for y in range(height))
    back = Image.open(io.BytesIO(data))
    back.load()
    assert back.mode == "P" and back.tobytes() == img.tobytes()
    assert back.convert("RGB").tobytes() == img.convert("RGB").tobytes()


def test_the_board_picture_is_as_small_as_pillows_own_png():
    from engine.board import BOARD
    from engine.board.rules import valuation
    from render.board import render_board
    from tools import golden

    state = golden.snapshot("board", "china", 7, 120)
    img = render_board(BOARD.view(state, None), "zh-Hans", golden.NAMES, None, "12:34", valuation(state),
                       golden.EVENTS["zh-Hans"])
    pillow = io.BytesIO()
    img.save(pillow, "PNG", compress_level=3)
    ours = png_bytes(img)
    assert Image.open(io.BytesIO(ours)).convert("RGB").tobytes() == img.convert("RGB").tobytes()
    assert len(ours) <= 1.02 * len(pillow.getvalue())


@pytest.mark.parametrize("static", [[(0, 40)], [(200, 300)], [(0, 40), (200, 300)], [(10, 20), (30, 290)]])
def test_rows_a_picture_calls_static_are_deflated_once_and_decode_the_same(static):
    """Rows marked ``static_rows`` are deflated once for their key and their bytes used again:
    the PNG decodes to the same pixels the first time and from the kept bytes, whether the
    static rows start the picture, end it or lie between runs compressed at once."""
    rng = random.Random(len(static) * 31 + static[0][0])
    width, height = 333, 300
    pixels = bytearray()
    while len(pixels) < width * height:
        pixels += bytes([rng.randrange(64)]) * rng.choice((1, 3, 40))
    img = Image.frombytes("P", (width, height), bytes(pixels[:width * height]))
    img.putpalette([rng.randrange(256) for _ in range(3 * 64)])
    key = ("test", rng.random())
    img.info["static_rows"] = [(a, b, key) for a, b in static]
    img.info["deflate_level"] = 4
    first, again = png_bytes(img), png_bytes(img)
    assert first == again
    for data in (first, again):
        rows = zlib.decompress(_chunks(data)[2][1])
        assert rows == b"".join(b"\0" + img.tobytes()[y * width:(y + 1) * width] for y in range(height))
        back = Image.open(io.BytesIO(data))
        back.load()
        assert back.tobytes() == img.tobytes()
