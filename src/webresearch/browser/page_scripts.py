"""Scripts the browser session installs in pages (pure text, no I/O).

:data:`PAGE_GUARD_JS` runs before any page script in every frame; :data:`DOM_QUIET_JS`
measures how long the document's content has been unchanged (readiness, :mod:`.page`).
"""

from __future__ import annotations

from .snapshot import STATE_KEY

__all__ = ["DOM_QUIET_JS", "PAGE_GUARD_JS"]

#: Milliseconds since the document's content last changed (a MutationObserver on child
#: lists and text, installed by :data:`PAGE_GUARD_JS` before page scripts run, else on first
#: use; attribute changes such as animations do not count).
DOM_QUIET_JS = """() => {
  const k = Symbol.for('webresearch.lastMutation');
  if (!window[k]) {
    const state = {t: performance.now()};
    new MutationObserver(() => { state.t = performance.now(); })
      .observe(document, {subtree: true, childList: true, characterData: true});
    Object.defineProperty(window, k, {value: state});
  }
  return performance.now() - window[k].t;
}"""


#: Runs before any page script in every frame: WebSockets may only go to the page's own host
#: (the CDP Fetch domain does not pause WebSocket handshakes), WebRTC and WebTransport are
#: off (they reach addresses without an HTTP request to intercept).
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
  // Readiness: when the document's content last changed (see DOM_QUIET_JS).
  try {
    const k = Symbol.for('webresearch.lastMutation');
    if (!window[k]) {
      const state = {t: performance.now()};
      new MutationObserver(() => { state.t = performance.now(); })
        .observe(document, {subtree: true, childList: true, characterData: true});
      Object.defineProperty(window, k, {value: state});
    }
  } catch (e) {}
  for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection', 'WebTransport']) {
    if (window[name]) { try { Object.defineProperty(window, name, {value: function () { deny(name); }, configurable: false, writable: false}); } catch (e) {} }
  }
})();"""
)
