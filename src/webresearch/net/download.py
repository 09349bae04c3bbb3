"""Content-Encoding decoding with bounded output, and the capped body reader.

The download cap counts *decompressed* bytes (SPEC §1.1), and every decoder here produces
output in pieces of at most :data:`PIECE_BYTES`, so a decompression bomb (a few KiB that
expand to gigabytes) never holds more than one piece plus the cap in memory: reading stops
as soon as the cap is reached.

Supported codings: ``gzip``/``x-gzip`` (multi-member), ``deflate`` (zlib-wrapped, or raw
deflate as some servers send), ``br``, ``zstd``; ``identity`` and unknown codings pass
through. A body that claims a coding it does not have (its first bytes do not decode) is
read as is, as browsers do, rather than failing.
"""

from __future__ import annotations

import zlib
from collections.abc import AsyncIterable, Iterator
from dataclasses import dataclass
from typing import Protocol

from ..errors import TooLarge
from ..wording import count

__all__ = [
    "PIECE_BYTES",
    "CappedBody",
    "Decoder",
    "cap_text",
    "decoders_for",
    "read_capped",
    "too_large",
]

#: Largest piece (bytes) a decoder returns at once.
PIECE_BYTES = 64 * 1024


class Decoder(Protocol):
    """Incremental decoder that yields decoded output in bounded pieces."""

    def feed(self, data: bytes) -> Iterator[bytes]:
        """Decode ``data`` (may be empty), yielding pieces of ≤ PIECE_BYTES."""
        ...

    def flush(self) -> Iterator[bytes]:
        """Yield whatever remains at the end of the stream."""
        ...


class _Identity:
    def feed(self, data: bytes) -> Iterator[bytes]:
        for i in range(0, len(data), PIECE_BYTES):
            yield data[i : i + PIECE_BYTES]

    def flush(self) -> Iterator[bytes]:
        return iter(())


class _Zlib:
    """gzip (wbits 16+15, multi-member) or deflate (zlib wrapper, falling back to raw)."""

    def __init__(self, kind: str) -> None:
        self._kind = kind
        self._wbits = 16 + zlib.MAX_WBITS if kind == "gzip" else zlib.MAX_WBITS
        self._obj = zlib.decompressobj(self._wbits)
        self._started = False

    def feed(self, data: bytes) -> Iterator[bytes]:
        if not self._started and data and self._kind == "deflate" and (data[0] & 0x0F) != 8:
            # No zlib header: servers often send raw deflate under "deflate".
            self._wbits = -zlib.MAX_WBITS
            self._obj = zlib.decompressobj(self._wbits)
        if data:
            self._started = True
        while data:
            out = self._obj.decompress(data, PIECE_BYTES)
            if out:
                yield out
            data = self._obj.unconsumed_tail
            if self._obj.eof:
                rest = self._obj.unused_data
                if self._kind == "gzip" and rest.strip(b"\x00"):
                    self._obj = zlib.decompressobj(self._wbits)  # next gzip member
                    data = rest
                else:
                    return

    def flush(self) -> Iterator[bytes]:
        out = self._obj.flush()
        for i in range(0, len(out), PIECE_BYTES):
            yield out[i : i + PIECE_BYTES]


class _Brotli:
    def __init__(self) -> None:
        import brotli

        self._obj = brotli.Decompressor()

    def feed(self, data: bytes) -> Iterator[bytes]:
        if not data:
            return
        out = self._obj.process(data, output_buffer_limit=PIECE_BYTES)
        if out:
            yield out
        while not self._obj.can_accept_more_data():
            out = self._obj.process(b"", output_buffer_limit=PIECE_BYTES)
            if not out:
                break
            yield out

    def flush(self) -> Iterator[bytes]:
        return iter(())


class _Zstd:
    def __init__(self) -> None:
        try:
            from compression.zstd import ZstdDecompressor  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            from backports.zstd import ZstdDecompressor
        self._cls = ZstdDecompressor
        self._obj = ZstdDecompressor()

    def feed(self, data: bytes) -> Iterator[bytes]:
        while True:
            out = self._obj.decompress(data, PIECE_BYTES)
            data = b""
            if out:
                yield out
            if self._obj.eof:
                rest = self._obj.unused_data
                if not rest:
                    return
                self._obj = self._cls()  # next frame
                data = rest
                continue
            if self._obj.needs_input:
                return

    def flush(self) -> Iterator[bytes]:
        return iter(())


def _decoder(coding: str) -> Decoder | None:
    coding = coding.strip().lower()
    if coding in ("gzip", "x-gzip"):
        return _Zlib("gzip")
    if coding == "deflate":
        return _Zlib("deflate")
    if coding == "br":
        try:
            return _Brotli()
        except ImportError:
            return None
    if coding == "zstd":
        try:
            return _Zstd()
        except ImportError:
            return None
    return None


def decoders_for(content_encoding: str | None) -> list[Decoder]:
    """Decoders to apply in order for a ``Content-Encoding`` header value.

    Codings are listed in the order they were applied, so they are undone in reverse.
    ``identity`` and unknown codings are skipped.
    """
    if not content_encoding:
        return []
    codings = [c for c in content_encoding.split(",") if c.strip()]
    out = []
    for coding in reversed(codings):
        dec = _decoder(coding)
        if dec is not None:
            out.append(dec)
    return out


def _run_chain(chain: list[Decoder], data: bytes, final: bool) -> Iterator[bytes]:
    def stage(i: int, pieces: Iterator[bytes]) -> Iterator[bytes]:
        if i == len(chain):
            yield from pieces
            return
        dec = chain[i]

        def fed() -> Iterator[bytes]:
            for piece in pieces:
                yield from dec.feed(piece)
            if final:
                yield from dec.flush()

        yield from stage(i + 1, fed())

    yield from stage(0, iter((data,)) if data else iter(()))


@dataclass(slots=True)
class CappedBody:
    """A downloaded body.

    Attributes:
        data: the decoded bytes (at most the cap).
        raw_bytes: bytes received on the wire (before decoding).
        capped: True when the cap stopped the download (more data was coming).
        decoded: False when the declared Content-Encoding could not be decoded and the body
            was kept as received.
    """

    data: bytes
    raw_bytes: int
    capped: bool
    decoded: bool = True


async def read_capped(
    chunks: AsyncIterable[bytes], content_encoding: str | None, cap: int
) -> CappedBody:
    """Read a body, undoing its Content-Encoding, stopping once ``cap`` decoded bytes are exceeded.

    Args:
        chunks: raw body chunks as received.
        content_encoding: the response's ``Content-Encoding`` value, if any.
        cap: largest number of decoded bytes kept; reading stops as soon as more arrive.

    Returns:
        the body; ``capped`` is True when the body was longer than ``cap`` (``data`` then holds
        the first ``cap`` bytes).
    """
    chain = decoders_for(content_encoding)
    out = bytearray()
    raw = 0
    decoded = True
    produced = False  # has the decoder chain produced any output yet?
    raw_prefix = bytearray()  # raw bytes kept until the chain first produces output

    def add(piece: bytes) -> bool:
        """Append; True when the cap is exceeded (``out`` then holds exactly ``cap`` bytes)."""
        if len(out) + len(piece) > cap:
            out.extend(piece[: cap - len(out)])
            return True
        out.extend(piece)
        return False

    async for chunk in chunks:
        raw += len(chunk)
        if not chunk:
            continue
        if not chain:
            for i in range(0, len(chunk), PIECE_BYTES):
                if add(chunk[i : i + PIECE_BYTES]):
                    return CappedBody(bytes(out), raw, True, decoded)
            continue
        try:
            for piece in _run_chain(chain, chunk, final=False):
                if piece:
                    produced = True
                if add(piece):
                    return CappedBody(bytes(out), raw, True, decoded)
        except MemoryError:
            raise
        except Exception:
            if produced:
                break  # corrupt or truncated later in the stream: keep what was decoded
            # The body claims an encoding it does not have: read it as is.
            chain = []
            decoded = False
            if add(bytes(raw_prefix) + chunk):
                return CappedBody(bytes(out), raw, True, decoded)
            raw_prefix.clear()
            continue
        if not produced and len(raw_prefix) <= cap:
            raw_prefix.extend(chunk)
        elif produced and raw_prefix:
            raw_prefix.clear()
    if chain:
        try:
            for piece in _run_chain(chain, b"", final=True):
                if add(piece):
                    return CappedBody(bytes(out), raw, True, decoded)
        except MemoryError:
            raise
        except Exception:
            pass
    return CappedBody(bytes(out), raw, False, decoded)


def cap_text(cap: int) -> str:
    """A cap as people write it: ``2 MiB``, ``512 KiB``, ``1500 bytes``."""
    for unit, size in (("MiB", 1024 * 1024), ("KiB", 1024)):
        if cap >= size and cap % size == 0:
            return f"{cap // size} {unit}"
    return count(cap, "byte")


def too_large(shown: str, cap: int) -> TooLarge:
    """The error for a body over the download cap that cannot be read in part (a PDF, an
    image, an archive …).

    Args:
        shown: the (redacted) URL to name.
        cap: the cap in decoded bytes.
    """
    return TooLarge(
        f"{shown} is larger than the {cap_text(cap)} download cap (counted after decompression)",
        hint=(
            "the file is too large to read here; try a more specific URL or download it "
            "with a shell tool (an operator can raise download_cap_bytes)"
        ),
        cap_bytes=cap,
    )
