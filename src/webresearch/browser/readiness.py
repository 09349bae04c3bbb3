"""When is a loaded page ready to read? The page-side probe and the pure verdict.

After the load event (``open``, ``back``, ``forward``, web_fetch's render), a page is read once
the evidence says nothing more is coming, not after a fixed silence:

1. **no scripts** in the document (nor in its same-origin frames) and no request in flight:
   nothing can change it any more — ready at once;
2. **nothing pending**: no request in flight nor started or finished within
   :data:`GRACE_S`, no ``fetch``/``XMLHttpRequest`` call unanswered, no short timeout
   (≤ :data:`~.page_scripts.SHORT_TIMER_MS`) waiting to run nor short interval running, and
   no content change within :data:`GRACE_S` — the page's scripts are done for now;
3. or, as a page that never runs out of work would never satisfy 2 (a poll every 100 ms, an
   endless ``setTimeout`` chain): the network AND the content quiet for :data:`QUIET_S`
   (Playwright's ``networkidle`` silence) — the content for
   :data:`~.page_scripts.SHORT_TIMER_MS` while short timers are pending, as such a timer
   fires within that time or is set again — and after :data:`RELAX_S` either one alone.

Whatever the rule, a page that is still an empty **app shell** (scripts, almost no text:
:func:`is_empty_shell`) keeps waiting for its content, so a page drawn by a timer or after a
fetch is read after it rendered — unless one of its scripts failed and nothing is pending
(:func:`is_broken_shell`): then nothing will draw it. Everything is bounded by the readiness budget
(``browser_ready_timeout_s``); requests pending longer than :data:`LONG_REQUEST_S` (long polls,
streams) stop counting.

The evidence comes from :data:`ACTIVITY_PROBE_JS` (one evaluation per look) and from the
requests the session sees (:class:`~.page_events.PageEvents`). The thresholds of the app-shell
rule follow web_fetch's (:mod:`webresearch.extract.appshell`, SPEC §1.1 "almost no text, a
script-driven page").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..extract.appshell import NEAR_EMPTY_TEXT_CHARS
from .page_scripts import ACTIVITY_KEY, SHORT_TIMER_MS

__all__ = [
    "ACTIVITY_PROBE_JS",
    "GRACE_S",
    "LONG_REQUEST_S",
    "QUIET_S",
    "RELAX_S",
    "SHELL_PROBE_MAX_CHARS",
    "Activity",
    "is_broken_shell",
    "is_empty_shell",
    "is_settled",
    "parse_activity",
]

#: Seconds of calm after the last request and the last content change that rule 2 asks for
#: (a response's body is handed to the page's script, which renders it, within that time).
GRACE_S = 0.1
#: Seconds without network activity AND without content changes that mean "rendered" (rule 3).
QUIET_S = 0.5
#: Seconds of settling after which either silence alone is enough (rule 3).
RELAX_S = 3.0
#: Seconds after which a pending request stops counting as activity (long polls, streams).
LONG_REQUEST_S = 5.0
#: Characters of page text the probe returns (more is never needed for the shell verdict).
SHELL_PROBE_MAX_CHARS = 400

#: ``[readyState, title, scripts, fetches, timers, intervals, quiet ms, shell text, URL,
#: script failures]`` of
#: the page: ``scripts`` counts the script elements of the document and of its same-origin frames;
#: the counts and ``quiet ms`` come from each window's activity record
#: (:data:`~.page_scripts.PAGE_GUARD_JS`) — the counts are ``null`` when a window has no
#: full record (a backend that skipped the init script; the probe then
#: installs the content observer itself). The shell text is the body's text outside
#: script/style/noscript/template (at most :data:`SHELL_PROBE_MAX_CHARS` characters), or
#: ``null`` when the body holds something to see or use besides text (a link, an image, a
#: canvas, a frame, a form control): such a page is not an empty shell. A text-node walk,
#: not ``innerText``: backends without layout (Lightpanda) may not implement ``innerText``.
ACTIVITY_PROBE_JS = (
    """() => {
  const k = Symbol.for('"""
    + ACTIVITY_KEY
    + """');
  let scripts = 0, fetches = 0, timers = 0, intervals = 0, errors = 0, quiet = Infinity;
  const visit = (win, depth) => {
    let doc;
    try { doc = win.document; if (!doc) return; } catch (e) { return; }
    scripts += doc.scripts ? doc.scripts.length : 0;
    let A = win[k];
    if (!A) {
      A = {t: win.performance.now(), fetches: null, timers: null, intervals: null, errors: null};
      try {
        Object.defineProperty(win, k, {value: A});
        new win.MutationObserver(() => { A.t = win.performance.now(); })
          .observe(doc, {subtree: true, childList: true, characterData: true});
      } catch (e) {}
    }
    fetches = A.fetches === null || fetches === null ? null : fetches + A.fetches;
    timers = A.timers === null || timers === null ? null : timers + A.timers;
    intervals = A.intervals === null || intervals === null ? null : intervals + A.intervals;
    errors = A.errors == null || errors === null ? null : errors + A.errors;
    quiet = Math.min(quiet, win.performance.now() - A.t);
    if (depth < 3) {
      for (let i = 0; i < Math.min(win.frames.length, 20); i++) visit(win.frames[i], depth + 1);
    }
  };
  visit(window, 0);
  let text = '';
  const body = document.body;
  const CONTENT = 'a[href],img,svg,canvas,video,iframe,embed,object,input,button,select,textarea';
  if (body && body.querySelector(CONTENT)) {
    text = null;
  } else if (body) {
    const walker = document.createTreeWalker(body, 4);
    let node;
    while ((node = walker.nextNode()) && text.length < """
    + str(SHELL_PROBE_MAX_CHARS)
    + """) {
      const parent = node.parentElement;
      if (parent && /^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE)$/i.test(parent.tagName)) continue;
      text += node.data;
    }
  }
  return [document.readyState, String(document.title || ''), scripts, fetches, timers,
          intervals, quiet === Infinity ? 0 : quiet, text, String(location.href), errors];
}"""
)

#: What an app shell shows while it loads, and everything but letters and digits.
_NOISE = re.compile(r"loading|please\s*wait|[\W_]", re.I)


@dataclass(frozen=True, slots=True)
class Activity:
    """What the page said about itself (one :data:`ACTIVITY_PROBE_JS` evaluation).

    Attributes:
        loaded: ``document.readyState`` is ``complete`` (the load event fired; also true for
            a page restored from the back/forward cache, which fires no new load event).
        title: the document title.
        scripts: script elements in the document and its same-origin frames.
        fetches: unanswered fetch/XHR calls (``None``: unknown).
        timers: pending short timeouts (``None``: unknown).
        intervals: running short intervals (``None``: unknown).
        quiet_s: seconds since the content last changed.
        shell: the page is an empty app shell (:func:`is_empty_shell`).
        url: the document's URL (empty when the probe did not say).
        errors: the page's script failures so far (``None``: unknown).
    """

    loaded: bool
    title: str
    scripts: int
    fetches: int | None
    timers: int | None
    intervals: int | None
    quiet_s: float
    shell: bool
    url: str = ""
    errors: int | None = None


def parse_activity(raw: Sequence[object]) -> Activity:
    """The probe's answer as an :class:`Activity`.

    Raises:
        ValueError, TypeError, IndexError: the answer has another shape (a page that
            replaced the builtins the probe uses).
    """
    state, title, scripts, fetches, timers, intervals, quiet_ms, text = raw[:8]
    count = int(str(scripts))
    return Activity(
        loaded=state == "complete",
        title=str(title),
        scripts=count,
        fetches=None if fetches is None else int(str(fetches)),
        timers=None if timers is None else int(str(timers)),
        intervals=None if intervals is None else int(str(intervals)),
        quiet_s=max(0.0, float(str(quiet_ms)) / 1000),
        shell=is_empty_shell(count, None if text is None else str(text)),
        url=str(raw[8]) if len(raw) > 8 else "",
        errors=None if len(raw) < 10 or raw[9] is None else int(str(raw[9])),
    )


def is_settled(
    activity: Activity, *, requests_pending: bool, network_quiet_s: float, settling_s: float
) -> bool:
    """The verdict of the module docstring's rules 1–3 (the app shell excepted).

    Args:
        activity: what the page said about itself.
        requests_pending: a request of the page is in flight (long ones excluded).
        network_quiet_s: seconds since a request of the page last started or finished
            (0 while one is pending).
        settling_s: seconds since the page loaded.
    """
    if activity.shell:
        return is_broken_shell(
            activity,
            requests_pending=requests_pending,
            network_quiet_s=network_quiet_s,
            settling_s=settling_s,
        )
    if activity.scripts == 0 and not requests_pending:
        return True
    if (
        not requests_pending
        and network_quiet_s >= GRACE_S
        and activity.fetches == 0
        and activity.timers == 0
        and activity.intervals == 0
        and activity.quiet_s >= GRACE_S
    ):
        return True
    network = not requests_pending and network_quiet_s >= QUIET_S
    # A short timer fires within SHORT_TIMER_MS or is set again: content calm for that long
    # with timers still pending means they are not drawing anything.
    calm_s = SHORT_TIMER_MS / 1000 if activity.timers else QUIET_S
    dom = activity.quiet_s >= calm_s
    return (network and dom) or (settling_s >= RELAX_S and (network or dom))


def is_broken_shell(
    activity: Activity, *, requests_pending: bool, network_quiet_s: float, settling_s: float
) -> bool:
    """True when an empty app shell will not draw itself any more: one of its scripts
    failed (an uncaught error, a script that did not load, an unhandled rejection), the
    page loaded :data:`RELAX_S` ago or more, and nothing is pending — no request in flight
    or within :data:`QUIET_S`, no fetch/XHR unanswered, no short timer or interval, no
    content change within :data:`QUIET_S`.

    Such a page is read after a few seconds instead of after the whole readiness budget
    (15 s by default). The :data:`RELAX_S` wait leaves time to a longer timer that draws
    the page despite a failed script (a third-party script that did not load); a shell
    without a failure keeps waiting.
    """
    return bool(
        activity.errors
        and settling_s >= RELAX_S
        and not requests_pending
        and network_quiet_s >= QUIET_S
        and activity.fetches == 0
        and activity.timers == 0
        and activity.intervals == 0
        and activity.quiet_s >= QUIET_S
    )


def is_empty_shell(scripts: int, text: str | None) -> bool:
    """True when a page with ``scripts`` script elements and body ``text`` is an app shell
    that has not rendered yet: at least one script, and at most
    :data:`~webresearch.extract.appshell.NEAR_EMPTY_TEXT_CHARS` letters and digits once
    "Loading…"/"Please wait" are removed.

    Args:
        scripts: number of ``<script>`` elements in the document.
        text: the body's text, or ``None`` when the body shows images, frames or form
            controls (see :data:`ACTIVITY_PROBE_JS`).
    """
    if scripts <= 0 or text is None:
        return False
    return len(_NOISE.sub("", text)) <= NEAR_EMPTY_TEXT_CHARS
