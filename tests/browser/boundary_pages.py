"""Pages that try every way a page can reach a forbidden address (issue 6 follow-up review).

Each probe records its outcome in ``#log`` (JSON) and, when all have finished (or timed out),
the body gets ``data-done``. Targets are ``host:port`` strings. Written for these tests.
"""

from __future__ import annotations

import json

#: Milliseconds after which a probe that neither opened nor failed counts as "timeout" (2000
#: was too short on a loaded 2-core machine: a refused shared-worker WebSocket once took longer)
#: (Lightpanda never runs workers: their probes end here).
PROBE_TIMEOUT_MS = 4000

_PRELUDE = """
const results = {}; let pending = 0, started = false;
function note(k, v) { results[k] = v; document.getElementById('log').textContent = JSON.stringify(results); }
function finish() { if (started && pending === 0) document.body.dataset.done = '1'; }
function probe(k, fn) {
  pending++; let over = false;
  const fin = (v) => { if (!over) { over = true; note(k, String(v)); pending--; finish(); } };
  try { fn(fin); } catch (e) { fin('exc ' + e.name); }
  setTimeout(() => fin('timeout'), TIMEOUT);
}
function wsProbe(WS, url, fin) {
  const ws = new WS(url);
  ws.onmessage = (m) => fin('message ' + m.data); ws.onerror = () => fin('error');
}
function workerSrc(url) {
  return "const out = (v) => postMessage(String(v));" +
    "try { const ws = new WebSocket('" + url + "'); ws.onmessage = (m) => out('message ' + m.data);" +
    " ws.onerror = () => out('error'); } catch (e) { out('exc ' + e.name); }";
}
function sharedSrc(url) {
  return "onconnect = (e) => { const p = e.ports[0]; const out = (v) => p.postMessage(String(v));" +
    "try { const ws = new WebSocket('" + url + "'); ws.onmessage = (m) => out('message ' + m.data);" +
    " ws.onerror = () => out('error'); } catch (x) { out('exc ' + x.name); } };";
}
function workerFetchSrc(url) {
  return "fetch('" + url + "').then(() => postMessage('loaded'), () => postMessage('error'));";
}
const blobUrl = (src) => URL.createObjectURL(new Blob([src], {type: 'text/javascript'}));
"""


def _probes(targets: dict[str, str], udp: str | None) -> str:
    """JavaScript starting every probe against every ``name: host:port`` target."""
    lines = [f"const TARGETS = {json.dumps(targets)};", f"const UDP = {json.dumps(udp)};"]
    lines.append(
        """
const pristine = document.getElementById('blank').contentWindow;
for (const [name, t] of Object.entries(TARGETS)) {
  probe(name + ':window-ws', (fin) => wsProbe(WebSocket, 'ws://' + t + '/w', fin));
  probe(name + ':iframe-ws', (fin) => wsProbe(pristine.WebSocket, 'ws://' + t + '/i', fin));
  probe(name + ':worker-ws', (fin) => { const w = new Worker(blobUrl(workerSrc('ws://' + t + '/dw'))); w.onmessage = (m) => fin(m.data); });
  probe(name + ':shared-ws', (fin) => { const s = new SharedWorker(blobUrl(sharedSrc('ws://' + t + '/sw'))); s.port.onmessage = (m) => fin(m.data); s.port.start(); });
  probe(name + ':worker-fetch', (fin) => { const w = new Worker(blobUrl(workerFetchSrc('http://' + t + '/wf'))); w.onmessage = (m) => fin(m.data); });
  probe(name + ':fetch', (fin) => fetch('http://' + t + '/f').then(() => fin('loaded'), () => fin('error')));
  probe(name + ':xhr', (fin) => { const x = new XMLHttpRequest(); x.open('GET', 'http://' + t + '/x'); x.onload = () => fin('loaded'); x.onerror = () => fin('error'); x.send(); });
  probe(name + ':eventsource', (fin) => { const e = new EventSource('http://' + t + '/es'); e.onopen = () => fin('open'); e.onerror = () => { e.close(); fin('error'); }; });
  probe(name + ':beacon', (fin) => fin(navigator.sendBeacon('http://' + t + '/b', 'x') ? 'queued' : 'refused'));
  probe(name + ':img', (fin) => { const i = new Image(); i.onload = () => fin('img load'); i.onerror = () => fin('img error');  // Lightpanda loads no images: the traps are the evidence
   i.src = 'http://' + t + '/i.png'; });
  probe(name + ':script', (fin) => { const s = document.createElement('script'); s.onload = () => fin('loaded'); s.onerror = () => fin('error'); s.src = 'http://' + t + '/s.js'; document.head.appendChild(s); });
  probe(name + ':iframe', (fin) => { const f = document.createElement('iframe'); f.onload = () => fin('frame done');  // an error page loads too: the traps are the evidence
    f.src = 'http://' + t + '/frame'; document.body.appendChild(f); });
  probe(name + ':preconnect', (fin) => { const l = document.createElement('link'); l.rel = 'preconnect'; l.href = 'http://' + t; document.head.appendChild(l); fin('added'); });
}
if (UDP) {
  probe('udp:webrtc', async (fin) => {
    const pc = new pristine.RTCPeerConnection({iceServers: [{urls: 'stun:' + UDP}]});
    pc.createDataChannel('x');
    pc.onicecandidate = (e) => { if (!e.candidate) fin('gathered'); };
    await pc.setLocalDescription(await pc.createOffer());
  });
  probe('udp:webtransport', (fin) => { const w = new pristine.WebTransport('https://' + UDP + '/wt'); w.ready.then(() => fin('open'), () => fin('error')); });
  probe('udp:worker-webtransport', (fin) => {
    const w = new Worker(blobUrl("try { const t = new WebTransport('https://" + UDP + "/wt'); t.ready.then(() => postMessage('open'), () => postMessage('error')); } catch (e) { postMessage('exc ' + e.name); }"));
    w.onmessage = (m) => fin(m.data);
  });
}
started = true; finish();
"""
    )
    return "\n".join(lines)


def probes_page(targets: dict[str, str], udp: str | None = None) -> bytes:
    """A page probing every ``name: host:port`` target every way (and ``udp`` host:port)."""
    script = _PRELUDE.replace("TIMEOUT", str(PROBE_TIMEOUT_MS)) + _probes(targets, udp)
    return (
        "<!doctype html><html><head><title>Boundary</title></head><body>"
        "<p id='log'>{}</p><iframe id='blank' src='about:blank'></iframe>"
        f"<script>{script}</script></body></html>"
    ).encode()


def navigation_page(kind: str, target: str) -> bytes:
    """A page that navigates to ``http://<target>/<kind>`` in one way: ``link`` and
    ``form`` need a click on ``#go``; the others go by themselves."""
    url = f"http://{target}/{kind}"
    body = {
        "link": f"<a id='go' href='{url}'>go</a>",
        "form": f"<form action='{url}' method='post'><input name='a' value='b'>"
        "<button id='go'>send</button></form>",
        "location": f"<script>setTimeout(() => {{ location.href = '{url}'; }}, 50)</script>",
        "meta-refresh": "",
        "window-open": f"<script>window.open('{url}')</script>",
        "iframe": f"<iframe src='{url}'></iframe>",
    }[kind]
    head = f"<meta http-equiv='refresh' content='0;url={url}'>" if kind == "meta-refresh" else ""
    return (
        f"<!doctype html><html><head><title>Nav {kind}</title>{head}</head>"
        f"<body><p>navigation by {kind}</p>{body}</body></html>"
    ).encode()


def worker_shell(ws_urls: list[str]) -> bytes:
    """An app shell (empty root, one script) whose content comes from dedicated workers'
    WebSockets (the reviewer's ``shell2.html``): what a worker reads is rendered."""
    script = (
        "const root = document.getElementById('root'); root.innerHTML = '<h1>Loaded</h1><p>This app shows what its workers read.</p>';"
        + "".join(
            "{ const w = new Worker(URL.createObjectURL(new Blob([\"const ws = new WebSocket('"
            + url
            + "'); ws.onmessage = (m) => postMessage('GOT: ' + m.data); ws.onerror = () => "
            "postMessage('ERR');\"], {type: 'text/javascript'})));"
            " w.onmessage = (m) => { const p = document.createElement('p'); p.textContent = m.data;"
            " root.appendChild(p); }; }"
            for url in ws_urls
        )
    )
    return (
        "<!doctype html><html><head><title>App</title></head><body><div id='root'></div>"
        f"<script>{script}</script></body></html>"
    ).encode()
