"""Pages the browser tests serve on 127.0.0.1: an SPA with a login form, dialogs, iframes,
redirects to forbidden targets, a long page. Written for these tests."""

from __future__ import annotations

import json
import time
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, urlsplit

from tests.support.http_server import Handler, Route

HTML = [("Content-Type", "text/html; charset=utf-8")]

SPA = b"""<!doctype html><html><head><title>Acme</title></head><body>
<div id="app"><p>Loading...</p></div>
<script>
const app = document.getElementById('app');
function render() {
  const path = location.pathname;
  if (!document.cookie.includes('session=')) {
    app.innerHTML = '<h1>Sign in</h1><form id="login"><label for="user">User name</label>' +
      '<input id="user" name="user"><label for="pw">Password</label>' +
      '<input id="pw" type="password"><button type="submit">Log in</button></form><p id="err"></p>';
    document.getElementById('login').addEventListener('submit', async (e) => {
      e.preventDefault();
      const user = document.getElementById('user').value;
      const r = await fetch('/api/login?user=' + encodeURIComponent(user) + '&pw=' + encodeURIComponent(document.getElementById('pw').value));
      if (r.ok) { history.pushState({}, '', '/app/home'); render(); } else { document.getElementById('err').textContent = 'wrong password'; }
    });
    return;
  }
  if (path === '/app/reports') {
    app.innerHTML = '<h1>Reports</h1><ul id="reports"></ul><a href="/app/home" id="home">Home</a>';
    fetch('/api/reports').then(r => r.json()).then(items => {
      document.getElementById('reports').innerHTML = items.map(i => '<li>' + i + '</li>').join('');
      document.title = 'Acme reports';
    });
  } else {
    const name = decodeURIComponent((document.cookie.match(/session=([^;]+)/) || [])[1] || '');
    app.innerHTML = '<h1>Welcome, ' + name + '</h1><nav><a href="/app/reports" id="reports-link">Reports</a></nav>';
    document.getElementById('reports-link').addEventListener('click', (e) => { e.preventDefault(); history.pushState({}, '', '/app/reports'); render(); });
    document.title = 'Acme home';
  }
}
window.addEventListener('popstate', render);
render();
</script></body></html>"""


def _login(h: BaseHTTPRequestHandler) -> None:
    q = parse_qs(urlsplit(h.path).query)
    ok = q.get("pw") == ["secret"]
    body = json.dumps({"ok": ok}).encode()
    h.send_response(200 if ok else 403)
    h.send_header("Content-Type", "application/json")
    if ok:
        h.send_header("Set-Cookie", f"session={q.get('user', [''])[0]}; Path=/")
    h.send_header("Content-Length", str(len(body)))
    h.end_headers()
    h.wfile.write(body)


DIALOGS = b"""<!doctype html><html><head><title>Dialogs</title></head><body>
<button id="confirm" onclick="document.getElementById('out').textContent = confirm('Delete everything?') ? 'confirmed' : 'cancelled'">Delete</button>
<button id="alert" onclick="alert('hello'); document.getElementById('out').textContent = 'after alert'">Alert</button>
<button id="prompt" onclick="document.getElementById('out').textContent = 'prompt:' + prompt('Name?')">Prompt</button>
<p id="out">nothing yet</p>
</body></html>"""

ALERT_ON_LOAD = b"""<!doctype html><html><head><title>Alerting</title></head><body>
<p>A page that greets its visitors with an alert.</p>
<p id="x">before</p><script>alert('welcome'); document.getElementById('x').textContent = 'after';</script>
</body></html>"""

FRAMES = b"""<!doctype html><html><head><title>Frames</title></head><body>
<h1>Outer page</h1><iframe id="inner" src="/frame-inner" title="Inner frame"></iframe>
</body></html>"""

FRAME_INNER = b"""<!doctype html><html><head><title>Inner</title></head><body>
<p>Text inside the frame: lighthouse keeper</p><button onclick="document.body.dataset.clicked='yes'">Frame button</button>
</body></html>"""

LONG = (
    b"<!doctype html><html><head><title>Long</title></head><body style='margin:0'>"
    + b"".join(
        b"<div style='height:400px;background:%s'>section %d</div>"
        % (b"#dde" if i % 2 else b"#ede", i)
        for i in range(30)
    )
    + b"</body></html>"
)


SHELL = b"""<!doctype html><html><head><title>Reports app</title></head><body>
<div id="root"></div>
<script>fetch('/api/reports').then(r => r.json()).then(items => {
  document.getElementById('root').innerHTML = '<h1>All reports</h1><ul>' + items.map(i => '<li>' + i + '</li>').join('') + '</ul>';
});</script></body></html>"""

#: A search form submitted by pressing Enter in its field (no script: the browser submits it).
SEARCH = b"""<!doctype html><html><head><title>Search</title></head><body>
<form action="/results"><input id="q" name="q"><button id="sub">Search</button></form>
</body></html>"""


def spa_routes() -> dict[str, Route | Handler]:
    """The SPA's routes: every /app/* path serves the shell; the API answers JSON."""
    reports = Route(
        headers=[("Content-Type", "application/json")],
        body=json.dumps(["Quarterly report Q3", "Annual summary"]).encode(),
    )
    shell = Route(headers=HTML, body=SPA)
    return {
        "/app/": shell,
        "/app/home": shell,
        "/app/reports": shell,
        "/api/login": _login,
        "/api/reports": reports,
        "/dialogs": Route(headers=HTML, body=DIALOGS),
        "/alert-on-load": Route(headers=HTML, body=ALERT_ON_LOAD),
        "/frames": Route(headers=HTML, body=FRAMES),
        "/frame-inner": Route(headers=HTML, body=FRAME_INNER),
        "/long": Route(headers=HTML, body=LONG),
        "/shell": Route(headers=HTML, body=SHELL),
        "/plain": Route(
            headers=HTML, body=b"<title>Plain</title><p>plain page</p><a href='/plain2'>next</a>"
        ),
        "/plain2": Route(headers=HTML, body=b"<title>Plain 2</title><p>second plain page</p>"),
        "/search": Route(headers=HTML, body=SEARCH),
        "/results": Route(headers=HTML, body=b"<title>Results</title><p>the results page</p>"),
    }


def forbidden_routes(private_base: str, domain_base: str) -> dict[str, Route | Handler]:
    """Pages on the allowed server that try to reach the forbidden ones every way a page can."""
    redirect_private = Route(status=302, headers=[("Location", f"{private_base}/secret")])
    redirect_domain = Route(status=302, headers=[("Location", f"{domain_base}/secret")])
    chain = Route(status=302, headers=[("Location", "/to-private")])
    sub = f"""<!doctype html><html><head><title>Subresources</title>
<link rel="stylesheet" href="{private_base}/style.css">
<script src="{private_base}/script.js"></script>
<script src="{domain_base}/script.js"></script></head><body>
<p id="status">loaded</p><p>A page of text whose resources come from forbidden places.</p>
<img src="{private_base}/img.png"><img src="{domain_base}/img.png"><img src="/to-private?img">
<iframe src="{private_base}/frame"></iframe><iframe src="/to-domain?frame"></iframe>
<script>
fetch('{private_base}/api').catch(() => {{}});
fetch('/to-private?fetch').catch(() => {{}});
fetch('{domain_base}/api').catch(() => {{}});
const x = new XMLHttpRequest(); x.open('GET', '{private_base}/xhr'); x.onerror = () => {{}}; x.send();
try {{ new WebSocket('{private_base.replace("http", "ws")}/ws'); }} catch (e) {{ document.getElementById('status').dataset.ws = 'blocked'; }}
</script></body></html>""".encode()
    jump = f"""<!doctype html><title>Jump</title><a id="go" href="{private_base}/secret">go</a>
<a id="go2" href="/to-domain">go2</a>
<button id="late" onclick="setTimeout(() => {{ location = '{private_base}/secret?late'; }}, 400)">later</button>
<form action="{private_base}/secret"><input id="q" name="q"></form>
<form action="/to-domain"><input id="q2" name="q"></form>""".encode()
    return {
        "/to-private": redirect_private,
        "/to-domain": redirect_domain,
        "/chain": chain,
        "/subresources": Route(headers=HTML, body=sub),
        "/jump": Route(headers=HTML, body=jump),
    }


def catch_all(h: BaseHTTPRequestHandler) -> None:
    """The forbidden servers answer anything (their request log is what tests assert on)."""
    body = b"<title>SECRET</title><p>internal secret</p>"
    h.send_response(200)
    h.send_header("Content-Type", "text/html")
    h.send_header("Content-Length", str(len(body)))
    h.end_headers()
    h.wfile.write(body)


def slow_page(seconds: float, text: bytes) -> Handler:
    """A page that answers after ``seconds`` (a slow server), its body ``<p>text</p>``."""

    def answer(h: BaseHTTPRequestHandler) -> None:
        time.sleep(seconds)
        body = b"<title>Slow</title><p>" + text + b"</p>"
        h.send_response(200)
        h.send_header("Content-Type", "text/html")
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)

    return answer
