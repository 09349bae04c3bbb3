"""Is a settled page still an empty app shell? The page-side probe and the pure verdict.

A page whose scripts draw its content after a timer (no request, no DOM change until then)
looks "settled" before it rendered. ``open`` therefore asks, once the page is quiet, whether
the document is still (nearly) empty of text while scripts are present — an app shell — and
then keeps waiting for the DOM to change (within the readiness budget) instead of returning
an empty page. Pages with text, or without any script (nothing could fill them later),
settle as before.

The thresholds follow web_fetch's app-shell rule (:mod:`webresearch.extract.appshell`, SPEC
§1.1 "almost no text, a script-driven page").
"""

from __future__ import annotations

import re

from ..extract.appshell import NEAR_EMPTY_TEXT_CHARS

__all__ = ["SHELL_PROBE_JS", "SHELL_PROBE_MAX_CHARS", "is_empty_shell"]

#: Characters of page text the probe returns (more is never needed for the verdict).
SHELL_PROBE_MAX_CHARS = 400

#: ``[number of scripts, text of the body's text nodes outside script/style/noscript/
#: template]`` (at most :data:`SHELL_PROBE_MAX_CHARS` characters); the text is ``null`` when
#: the body holds something to see or use besides text (a link, an image, a canvas, a
#: frame, a form control): such a page is not an empty shell. A text-node walk, not
#: ``innerText``: backends without layout (Lightpanda) may not implement ``innerText``.
SHELL_PROBE_JS = (
    """() => {
  const CONTENT = 'a[href],img,svg,canvas,video,iframe,embed,object,input,button,select,textarea';
  const scripts = document.scripts ? document.scripts.length : 0;
  const body = document.body;
  if (!body) return [scripts, ''];
  // Something to look at or use besides text: not an empty shell.
  if (body.querySelector(CONTENT)) return [scripts, null];
  let text = '';
  const walker = document.createTreeWalker(body, 4);
  let node;
  while ((node = walker.nextNode()) && text.length < """
    + str(SHELL_PROBE_MAX_CHARS)
    + """) {
    const parent = node.parentElement;
    if (parent && /^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE)$/i.test(parent.tagName)) continue;
    text += node.data;
  }
  return [scripts, text];
}"""
)

#: What an app shell shows while it loads, and everything but letters and digits.
_NOISE = re.compile(r"loading|please\s*wait|[\W_]", re.I)


def is_empty_shell(scripts: int, text: str | None) -> bool:
    """True when a page with ``scripts`` script elements and body ``text`` is an app shell
    that has not rendered yet: at least one script, and at most
    :data:`~webresearch.extract.appshell.NEAR_EMPTY_TEXT_CHARS` letters and digits once
    "Loading…"/"Please wait" are removed.

    Args:
        scripts: number of ``<script>`` elements in the document.
        text: the body's text, or ``None`` when the body shows images, frames or form
            controls (see :data:`SHELL_PROBE_JS`).
    """
    if scripts <= 0 or text is None:
        return False
    return len(_NOISE.sub("", text)) <= NEAR_EMPTY_TEXT_CHARS
