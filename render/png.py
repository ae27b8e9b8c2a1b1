"""Pictures to PNG bytes, fast: the chats recompress photos anyway, so compression level 1."""

from __future__ import annotations

import io

from PIL import Image


def png_bytes(img: Image.Image) -> bytes:
    out = io.BytesIO()
    img.save(out, "PNG", compress_level=1)
    return out.getvalue()
