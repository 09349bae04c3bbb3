"""The browser's content result carries web_fetch's hidden-text counts in its metadata:
``hidden_chars_invisible`` too, when not 0 (review, session 16: only
``hidden_chars_kept`` was there), on a page of our own."""

from __future__ import annotations

from typing import cast

from webresearch.browser.page import PlaywrightSession
from webresearch.runtime.cpu_pool import CPUPool
from webresearch.tools.browser_reading import read_rendered

SECRET = (
    "The harbour office keeps the spare keys to the pilot boat in the blue cabinet by the "
    "door, and the code to the cabinet is written on the back of the tide table."
)
PROSE = "".join(
    f"<p>Paragraph {i}: the ferry to the island leaves the north quay every hour in summer, "
    "and every two hours from October to April.</p>"
    for i in range(5)
)


class _Tab:
    def __init__(self, html: str) -> None:
        self._html = html

    async def html(self) -> tuple[str, str, str, list[object], str]:
        return "http://127.0.0.1/harbour", "Harbour", self._html, [], "text/html"


async def _facts(hidden: str) -> dict[str, object]:
    html = (
        "<html><head><title>Harbour</title></head><body><main><h1>Harbour</h1>"
        f"{PROSE}{hidden}</main></body></html>"
    )
    tab = cast(PlaywrightSession, _Tab(html))
    _, _, facts = await read_rendered(tab, 100_000, CPUPool(0))
    return dict(facts)


async def test_invisible_text_is_counted_in_the_metadata() -> None:
    facts = await _facts(f"<p style='color:transparent'>{SECRET}</p>")
    kept, invisible = facts["hidden_chars_kept"], facts.get("hidden_chars_invisible")
    assert isinstance(kept, int) and kept > 100
    assert invisible == kept


async def test_no_invisible_count_when_there_is_none() -> None:
    facts = await _facts(f"<details><summary>Keys</summary><p>{SECRET}</p></details>")
    assert isinstance(facts["hidden_chars_kept"], int) and facts["hidden_chars_kept"] > 100
    assert "hidden_chars_invisible" not in facts
