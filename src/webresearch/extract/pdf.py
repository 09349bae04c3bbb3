"""PDF → text, page by page (SPEC §1.1 "PDF"). Pure functions over bytes, using pypdf.

Encrypted PDFs with an empty user password (publishers encrypt only to set "no copy / no
print" flags; any viewer opens them without a prompt) are decrypted and read: RC4 and AES
(AES-128 and AES-256, through ``cryptography``, a core dependency via ``pypdf[crypto]``).

A PDF that cannot be read, needs a password, cannot be decrypted here, or has no text layer
(a scan) is refused with :class:`~webresearch.errors.UnsupportedContent` naming the cause
(an encrypted file says which algorithm), never printed as PDF source.
"""

from __future__ import annotations

import io
import logging
import re
import warnings

from webresearch.errors import UnsupportedContent

__all__ = ["MAX_PDF_PAGES", "PAGE_SEPARATOR", "encryption_name", "pdf_to_text"]

#: Pages read at most (a longer document is cut and says so on its last line).
MAX_PDF_PAGES = 500
#: The line put before the text of page ``n`` (1-based).
PAGE_SEPARATOR = "--- page {n} ---"

_HINT = (
    "download the file into the workspace with a shell command (e.g. curl -L -o "
    "/workspace/document.pdf '<url>') and use a PDF or OCR tool on it"
)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffd\ufffe\uffff]")
_SPACES = re.compile(r"[ \t]+\n")
_BLANKS = re.compile(r"\n{3,}")
_NO_TITLE = re.compile(r"^(?:untitled|microsoft word - .*|document\d*|\s*)$", re.I)

logging.getLogger("pypdf").setLevel(logging.ERROR)


def _clean(text: str) -> str:
    text = _CONTROL.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))
    return _BLANKS.sub("\n\n", _SPACES.sub("\n", text)).strip()


def _readable_share(text: str) -> float:
    """Share of characters that are letters, digits, punctuation or spaces (not private use)."""
    if not text:
        return 0.0
    private = sum(1 for ch in text if "\ue000" <= ch <= "\uf8ff")
    return 1 - private / len(text)


def pdf_to_text(body: bytes) -> tuple[str, str]:
    """Extract the text of a PDF, page by page.

    Args:
        body: the PDF bytes (at most the download cap, 2 MiB by default).

    Returns:
        ``(title, text)``: the title from the document metadata, else the first line of text
        (at most 200 characters); the text of each page after a ``--- page N ---`` line,
        pages with no text skipped. At most :data:`MAX_PDF_PAGES` pages are read.

    Raises:
        UnsupportedContent: the PDF cannot be parsed, needs a password, or holds no text
            (scanned images); the hint suggests downloading it and using an OCR tool.
    """
    import pypdf
    from pypdf.errors import DependencyError, PyPdfError

    algorithm = ""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            reader = pypdf.PdfReader(io.BytesIO(body), strict=False)
            if reader.is_encrypted:
                algorithm = encryption_name(reader)
                if not reader.decrypt(""):
                    raise UnsupportedContent(
                        f"this PDF (application/pdf) is encrypted ({algorithm}) with a "
                        "password; its text cannot be read",
                        hint=_HINT,
                        mime="application/pdf",
                        encryption=algorithm,
                    )
            pages = list(reader.pages)
            parts: list[str] = []
            for number, page in enumerate(pages[:MAX_PDF_PAGES], start=1):
                text = _page_text(page)
                if text:
                    parts.append(PAGE_SEPARATOR.format(n=number) + "\n" + text)
            title = _metadata_title(reader)
        except UnsupportedContent:
            raise
        except DependencyError as exc:
            # A broken install (the core dependency cryptography is missing): say so, never
            # "no text layer" or an internal error.
            # pypdf decrypts while it opens the file: name the algorithm from the bytes then.
            algorithm = algorithm or _aes_name(body)
            raise UnsupportedContent(
                f"this PDF is encrypted ({algorithm}) and cannot be decrypted here: "
                "the cryptography package is missing (pip install 'pypdf[crypto]')",
                hint=_HINT,
                mime="application/pdf",
                encryption=algorithm,
            ) from exc
        except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, IndexError, OSError, RecursionError, ZeroDivisionError) as exc:  # fmt: skip
            raise UnsupportedContent(
                "this looks like a PDF document (application/pdf) but it could not be read "
                f"({type(exc).__name__})",
                hint=_HINT,
                mime="application/pdf",
            ) from exc
    text = "\n\n".join(parts)
    if not text or _readable_share(text) < 0.5:
        raise UnsupportedContent(
            "this PDF document (application/pdf) has no text layer to extract "
            "(it is probably scanned images)",
            hint=_HINT,
            mime="application/pdf",
        )
    if len(pages) > MAX_PDF_PAGES:
        text += f"\n\n[only the first {MAX_PDF_PAGES} of {len(pages)} pages were read]"
    if not title:
        first = next((line.strip() for line in text.splitlines()[1:] if line.strip()), "")
        title = first[:200]
    return title, text


def _page_text(page: object) -> str:
    from pypdf.errors import DependencyError

    extract = getattr(page, "extract_text", None)
    if extract is None:
        return ""
    try:
        return _clean(str(extract() or ""))
    except DependencyError:
        raise  # every page needs it: the caller names the cause
    except Exception:  # one broken page (bad font, bad stream) must not lose the others
        return ""


def _aes_name(body: bytes) -> str:
    """The AES strength named by a PDF's crypt filter method (``/AESV3``: AES-256,
    ``/AESV2``: AES-128), for a file pypdf could not even open."""
    if b"/AESV3" in body:
        return "AES-256"
    return "AES-128" if b"/AESV2" in body else "AES"


def encryption_name(reader: object) -> str:
    """The encryption of an encrypted PDF, by its ``/Encrypt`` dictionary (ISO 32000-2
    §7.6.2, §7.6.3): ``RC4-40``, ``RC4-128``, ``AES-128``, ``AES-256``, else ``V<n>``.

    Args:
        reader: a ``pypdf.PdfReader`` of an encrypted document.
    """
    try:
        encrypt = reader.trailer["/Encrypt"].get_object()  # type: ignore[attr-defined]
        version = int(encrypt.get("/V", 0))
        if version >= 5:
            return "AES-256"
        if version == 4:
            filters = encrypt.get("/CF", {})
            methods = {str(f.get_object().get("/CFM", "")) for f in filters.values()}
            return "AES-128" if "/AESV2" in methods else "RC4-128"
        if version in (1, 2, 3):
            return "RC4-40" if int(encrypt.get("/Length", 40)) <= 40 else "RC4-128"
        return f"V{version}"
    except Exception:  # a malformed dictionary: pypdf says more when it tries
        return "unknown algorithm"


def _metadata_title(reader: object) -> str:
    try:
        metadata = getattr(reader, "metadata", None)
        title = getattr(metadata, "title", None) if metadata is not None else None
    except Exception:  # malformed info dictionary
        return ""
    if not isinstance(title, str):
        return ""
    title = " ".join(_CONTROL.sub("", title).split())
    return "" if _NO_TITLE.match(title) else title[:200]
