"""Scripts the browser session installs in pages (pure text, no I/O).

:data:`PAGE_GUARD_JS` runs before any page script in every frame. Besides the network guards
it records the evidence readiness decides on (:mod:`.readiness`): when the document's content
last changed, the ``fetch``/``XMLHttpRequest`` calls not yet answered, and the short timers
not yet run, and the page's script failures. :data:`READ_HTML_JS` reads a document's rendered HTML.
"""

from __future__ import annotations

from .snapshot import STATE_KEY

__all__ = ["ACTIVITY_KEY", "PAGE_GUARD_JS", "READ_HTML_JS", "SHORT_TIMER_MS"]

#: ``Symbol.for`` name of a window's activity record: ``{t, fetches, timers, intervals,
#: errors}`` — when the content last changed (``performance.now()`` ms), unanswered
#: fetch/XHR calls, pending short timeouts, running short intervals, and script failures
#: (uncaught errors, scripts that failed to load, unhandled rejections). The counts are
#: ``null`` when only the readiness probe installed it.
ACTIVITY_KEY = "webresearch.activity"
#: Timeouts and intervals of at most this many milliseconds count as work about to happen;
#: longer ones (a reminder after 30 s, a poll every 5 s) do not hold a page's readiness.
SHORT_TIMER_MS = 1000

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
    const A = {t: performance.now(), fetches: 0, timers: 0, intervals: 0, errors: 0};
    Object.defineProperty(window, k, {value: A});
    // Uncaught script errors, scripts that failed to load (capture phase), and rejected
    // promises nobody handled: a shell that broke this way will not draw itself.
    const failed = () => { A.errors += 1; };
    window.addEventListener('error', failed, true);
    window.addEventListener('unhandledrejection', failed);
    new MutationObserver(() => { A.t = performance.now(); })
      .observe(document, {subtree: true, childList: true, characterData: true});
    const pending = new Set();
    const setT = window.setTimeout, clearT = window.clearTimeout;
    window.setTimeout = function (fn, delay, ...rest) {
      if (typeof fn !== 'function' || (Number(delay) || 0) > """
    + str(SHORT_TIMER_MS)
    + """) return setT.apply(window, arguments);
      let id;
      id = setT.call(window, function () {
        try { return fn.apply(this, rest); } finally { if (pending.delete(id)) A.timers -= 1; }
      }, delay);
      pending.add(id);
      A.timers += 1;
      return id;
    };
    window.clearTimeout = function (id) {
      if (pending.delete(id)) A.timers -= 1;
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
