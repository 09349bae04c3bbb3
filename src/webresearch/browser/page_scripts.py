"""Scripts the browser session installs in pages (pure text, no I/O).

:data:`PAGE_GUARD_JS` runs before any page script in every frame. Besides the network guards
it records the evidence readiness decides on (:mod:`.readiness`): when the document's content
last changed, the ``fetch``/``XMLHttpRequest`` calls not yet answered, and the short timers
not yet run, and the page's script failures. :data:`READ_HTML_JS` reads a document's rendered HTML.
"""

from __future__ import annotations

from .snapshot import STATE_KEY

__all__ = ["ACTIVITY_KEY", "FOLLOW_TIMER_MS", "PAGE_GUARD_JS", "READ_HTML_JS", "SHORT_TIMER_MS"]

#: ``Symbol.for`` name of a window's activity record: ``{t, fetches, timers, soon, intervals,
#: errors}`` — when the content last changed (``performance.now()`` ms), unanswered
#: fetch/XHR calls, pending short timeouts (``soon``: those of at most
#: :data:`FOLLOW_TIMER_MS`), running short intervals, and script failures
#: (uncaught errors, scripts that failed to load, unhandled rejections). The counts are
#: ``null`` when only the readiness probe installed it.
ACTIVITY_KEY = "webresearch.activity"
#: Timeouts and intervals of at most this many milliseconds count as work about to happen;
#: longer ones (a reminder after 30 s, a poll every 5 s) do not hold a page's readiness.
SHORT_TIMER_MS = 1000
#: Timeouts of at most this many milliseconds may start a navigation an action waits for
#: (:mod:`.page_settle`): a click's deliberate pause before it moves the page ("Saving…",
#: an animation; 300–400 ms) is shorter. A toast hidden after 900 ms or more is not a
#: navigation, and one that fires at the end of the follow window (1 s) would leave its
#: navigation no time in it: waiting for it cost every such click a second (review r-18a).
FOLLOW_TIMER_MS = 500

#: ``[title, HTML, content type]`` of the document the script runs in: its doctype and
#: ``documentElement.outerHTML`` (the rendered DOM, as the library's ``content()`` gives it,
#: read in the page's own world: no helper script is injected per document), and
#: ``document.contentType`` (a JSON or text file the browser wraps in ``<pre>`` says what it
#: really is: ``tools/browser_reading`` gives it no name, as web_fetch gives it none).
READ_HTML_JS = """() => {
  const d = document.doctype;
  const doctype = d ? '<!DOCTYPE ' + d.name + (d.publicId ? ' PUBLIC "' + d.publicId + '"' : '')
    + (d.systemId ? (d.publicId ? '' : ' SYSTEM') + ' "' + d.systemId + '"' : '') + '>' : '';
  const root = document.documentElement;
  return [String(document.title || ''), doctype + (root ? root.outerHTML : ''),
    String(document.contentType || '')];
}"""

#: Runs before any page script in every frame: WebSockets may only go to the page's own host
#: (the CDP Fetch domain does not pause WebSocket handshakes), WebRTC and WebTransport are
#: off (they reach addresses without an HTTP request to intercept); the activity record.
PAGE_GUARD_JS = (
    """(() => {
  // A page restored from the back/forward cache is a navigation too: its refs go stale.
  window.addEventListener('pageshow', (e) => { if (e.persisted) { try { delete window['"""
    + STATE_KEY
    + """']; } catch (err) {} } });
  const deny = (what) => { throw new DOMException(what + ' is blocked by the browser policy', 'SecurityError'); };
  const W = window.WebSocket;
  if (W) {
    const guarded = new Proxy(W, {construct(target, args) {
      let u; try { u = new URL(String(args[0]), location.href); } catch (e) { throw new DOMException('invalid WebSocket URL', 'SyntaxError'); }
      if (u.hostname !== location.hostname) deny('a WebSocket to another host');
      return Reflect.construct(target, args);
    }});
    try { Object.defineProperty(window, 'WebSocket', {value: guarded, configurable: false, writable: false}); } catch (e) {}
  }
  for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection', 'WebTransport']) {
    if (window[name]) { try { Object.defineProperty(window, name, {value: function () { deny(name); }, configurable: false, writable: false}); } catch (e) {} }
  }
  // Readiness evidence: content changes, unanswered requests, short timers, script errors.
  try {
    const k = Symbol.for('"""
    + ACTIVITY_KEY
    + """');
    if (window[k]) return;
    const A = {t: performance.now(), fetches: 0, timers: 0, soon: 0, intervals: 0, errors: 0};
    Object.defineProperty(window, k, {value: A});
    // Uncaught script errors, scripts that failed to load (capture phase), and rejected
    // promises nobody handled: a shell that broke this way will not draw itself.
    const failed = () => { A.errors += 1; };
    window.addEventListener('error', failed, true);
    window.addEventListener('unhandledrejection', failed);
    new MutationObserver(() => { A.t = performance.now(); })
      .observe(document, {subtree: true, childList: true, characterData: true});
    const pending = new Map();  // id -> whether it is a "soon" timer
    const settle = (id) => {
      if (!pending.has(id)) return;
      if (pending.get(id)) A.soon -= 1;
      pending.delete(id);
      A.timers -= 1;
    };
    const setT = window.setTimeout, clearT = window.clearTimeout;
    window.setTimeout = function (fn, delay, ...rest) {
      const ms = Number(delay) || 0;
      if (typeof fn !== 'function' || ms > """
    + str(SHORT_TIMER_MS)
    + """) return setT.apply(window, arguments);
      let id;
      id = setT.call(window, function () {
        try { return fn.apply(this, rest); } finally { settle(id); }
      }, delay);
      const soon = ms <= """
    + str(FOLLOW_TIMER_MS)
    + """;
      pending.set(id, soon);
      A.timers += 1;
      if (soon) A.soon += 1;
      return id;
    };
    window.clearTimeout = function (id) {
      settle(id);
      return clearT.apply(window, arguments);
    };
    const repeating = new Set();
    const setI = window.setInterval, clearI = window.clearInterval;
    window.setInterval = function (fn, delay) {
      const id = setI.apply(window, arguments);
      if (typeof fn === 'function' && (Number(delay) || 0) <= """
    + str(SHORT_TIMER_MS)
    + """) { repeating.add(id); A.intervals += 1; }
      return id;
    };
    window.clearInterval = function (id) {
      if (repeating.delete(id)) A.intervals -= 1;
      return clearI.apply(window, arguments);
    };
    const F = window.fetch;
    if (F) {
      window.fetch = function () {
        A.fetches += 1;
        let p;
        try { p = F.apply(this, arguments); } catch (e) { A.fetches -= 1; throw e; }
        const done = () => { A.fetches -= 1; };
        p.then(done, done);
        return p;
      };
    }
    const X = window.XMLHttpRequest;
    if (X && X.prototype && X.prototype.send) {
      const send = X.prototype.send;
      X.prototype.send = function () {
        let open = true;
        const done = () => { if (open) { open = false; A.fetches -= 1; } };
        A.fetches += 1;
        this.addEventListener('loadend', done);
        try { return send.apply(this, arguments); } catch (e) { done(); throw e; }
      };
    }
  } catch (e) {}
})();"""
)
