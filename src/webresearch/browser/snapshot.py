"""Compact accessibility snapshots with document-stamped element refs (SPEC §1.4).

The collector (:data:`COLLECT_JS`) runs in the page and walks the DOM (open shadow roots and
same-origin iframes included), computing for each visible element of interest its role
(explicit ``role`` or the implicit ARIA role of the tag), accessible name (``aria-labelledby``,
``aria-label``, ``<label>``, ``alt``, ``placeholder``, ``title``, text), and state. A JS walk
rather than the CDP ``Accessibility`` domain works the same on every backend (Lightpanda's
accessibility tree is partial).

Refs: every interactive element gets a ref ``d<doc>e<n>``. ``doc`` stamps the document: the
per-document state lives in the page's window, so a navigation (a new document) starts with
no state and a new stamp. :data:`RESOLVE_JS` turns a ref back into its element only when the
stamp matches the current document and the element is still attached; otherwise the tool
raises :class:`~webresearch.errors.StaleRef` ("stale ref — take a new snapshot") — a ref is
never re-bound to another element. Within one document refs are never reused.

:func:`render_snapshot` is pure: it lays the nodes out within a byte budget, interactive
elements first, and marks a truncation.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..invisible import strip_invisible

__all__ = [
    "COLLECT_JS",
    "REF_PATTERN",
    "RESOLVE_JS",
    "STATE_KEY",
    "parse_ref",
    "render_snapshot",
]

#: Window property holding the per-document ref state (non-enumerable).
STATE_KEY = "__webresearch_refs__"
#: Element refs as issued by the collector: ``d<doc>e<n>``.
REF_PATTERN = re.compile(r"^d(\d+)e(\d+)$")
#: Most nodes collected per snapshot (the renderer's budget cuts further).
MAX_NODES = 3000

COLLECT_JS = (
    """(args) => {
  const KEY = '"""
    + STATE_KEY
    + """';
  let st = window[KEY];
  if (!st || st.token !== args.token) {
    st = {token: args.token, doc: args.doc, n: 0, byEl: new WeakMap(), byRef: new Map()};
    Object.defineProperty(window, KEY, {value: st, configurable: true, enumerable: false, writable: true});
  }
  const out = [];
  const INTERACTIVE = new Set(['button','link','textbox','searchbox','checkbox','radio','combobox',
    'listbox','option','menuitem','menuitemcheckbox','menuitemradio','tab','switch','slider',
    'spinbutton','treeitem']);
  const SECTIONS = {form:'form', nav:'navigation', main:'main', dialog:'dialog', table:'table',
    header:'banner', footer:'contentinfo', aside:'complementary'};
  const TEXTY = new Set(['P','LI','TD','TH','DT','DD','BLOCKQUOTE','PRE','FIGCAPTION','CAPTION','LEGEND']);
  const clean = (s, n) => { s = (s || '').replace(/\\s+/g, ' ').trim(); return s.length > n ? s.slice(0, n - 1) + '…' : s; };
  const hidden = (el) => {
    if (el.hidden || el.getAttribute('aria-hidden') === 'true') return true;
    try { const cs = getComputedStyle(el); if (cs && (cs.display === 'none' || cs.visibility === 'hidden')) return true; } catch (e) {}
    return false;
  };
  const textOf = (el) => clean(el.innerText !== undefined && el.innerText !== null ? el.innerText : el.textContent, 100);
  const roleOf = (el) => {
    const explicit = (el.getAttribute('role') || '').split(' ')[0];
    if (explicit) return explicit;
    const tag = el.tagName;
    if (tag === 'A') return el.hasAttribute('href') ? 'link' : '';
    if (tag === 'BUTTON' || tag === 'SUMMARY') return 'button';
    if (tag === 'SELECT') return el.multiple ? 'listbox' : 'combobox';
    if (tag === 'TEXTAREA') return 'textbox';
    if (tag === 'INPUT') {
      const t = (el.getAttribute('type') || 'text').toLowerCase();
      if (t === 'hidden') return '';
      if (['button','submit','reset','image'].includes(t)) return 'button';
      if (t === 'checkbox') return 'checkbox';
      if (t === 'radio') return 'radio';
      if (t === 'range') return 'slider';
      if (t === 'number') return 'spinbutton';
      if (t === 'search') return 'searchbox';
      return 'textbox';
    }
    if (/^H[1-6]$/.test(tag)) return 'heading';
    if (tag === 'IMG') return el.getAttribute('alt') ? 'img' : '';
    if (tag === 'IFRAME') return 'iframe';
    if (el.isContentEditable) return 'textbox';
    if (SECTIONS[tag.toLowerCase()]) return SECTIONS[tag.toLowerCase()];
    if (tag === 'UL' || tag === 'OL') return 'list';
    if (el.hasAttribute('onclick') || (el.hasAttribute('tabindex') && el.tabIndex >= 0)) return 'generic-clickable';
    return '';
  };
  const nameOf = (el, role) => {
    const doc = el.ownerDocument;
    const by = el.getAttribute('aria-labelledby');
    if (by) { const t = by.split(/\\s+/).map(id => { const r = doc.getElementById(id); return r ? r.textContent : ''; }).join(' '); if (clean(t, 100)) return clean(t, 100); }
    const al = el.getAttribute('aria-label'); if (al) return clean(al, 100);
    const tag = el.tagName;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') {
      if (el.id) { const l = doc.querySelector('label[for="' + (window.CSS && CSS.escape ? CSS.escape(el.id) : el.id) + '"]'); if (l) return clean(l.textContent, 100); }
      const wrap = el.closest('label'); if (wrap) return clean(wrap.textContent, 100);
      const t = (el.getAttribute('type') || '').toLowerCase();
      if (['button','submit','reset'].includes(t)) return clean(el.value || t, 100);
      return clean(el.getAttribute('placeholder') || el.getAttribute('title') || el.getAttribute('name') || '', 100);
    }
    if (tag === 'IMG') return clean(el.getAttribute('alt'), 100);
    if (tag === 'IFRAME') return clean(el.getAttribute('title') || el.getAttribute('src') || '', 100);
    if (['list','form','table','navigation','main','banner','contentinfo','complementary','dialog'].includes(role)) return clean(el.getAttribute('title') || '', 100);
    return clean(textOf(el) || el.getAttribute('title') || '', 100);
  };
  const refFor = (el) => {
    let r = st.byEl.get(el);
    if (!r) { st.n += 1; r = 'd' + st.doc + 'e' + st.n; st.byEl.set(el, r); st.byRef.set(r, el); }
    return r;
  };
  const walk = (root, depth) => {
    for (let el = root.firstElementChild; el; el = el.nextElementSibling) {
      if (out.length >= args.max) return;
      const tag = el.tagName;
      if (tag === 'SCRIPT' || tag === 'STYLE' || tag === 'NOSCRIPT' || tag === 'TEMPLATE' || tag === 'HEAD') continue;
      if (hidden(el)) continue;
      const role = roleOf(el);
      let childDepth = depth;
      if (role && INTERACTIVE.has(role) || role === 'generic-clickable') {
        const node = {kind: 'i', role: role === 'generic-clickable' ? 'clickable' : role, name: nameOf(el, role), ref: refFor(el), depth: depth};
        if (el.disabled) node.disabled = true;
        if (role === 'checkbox' || role === 'radio' || role === 'switch') node.checked = !!el.checked;
        if (tag === 'INPUT' || tag === 'TEXTAREA') { const t = (el.getAttribute('type') || '').toLowerCase(); if (!['checkbox','radio','button','submit','reset'].includes(t)) node.value = t === 'password' ? (el.value ? '••••' : '') : clean(el.value, 100); }
        if (tag === 'SELECT') { const o = el.options && el.options[el.selectedIndex]; node.value = o ? clean(o.textContent, 100) : ''; }
        if (role === 'link') { const h = el.getAttribute('href') || ''; if (h && !h.startsWith('javascript:')) node.url = h.slice(0, 200); }
        out.push(node);
        if (role === 'link' || role === 'button' || tag === 'SELECT' || tag === 'TEXTAREA') continue;
      } else if (role === 'heading') {
        out.push({kind: 'c', role: 'heading', name: nameOf(el, role), level: Number(tag.slice(1)) || Number(el.getAttribute('aria-level')) || 2, depth: depth});
        continue;
      } else if (role === 'img') {
        out.push({kind: 'c', role: 'img', name: nameOf(el, role), depth: depth});
      } else if (role === 'iframe') {
        let inner = null; try { inner = el.contentDocument; } catch (e) {}
        out.push({kind: 's', role: 'iframe', name: nameOf(el, role), depth: depth, note: inner ? '' : 'cross-origin, not included'});
        if (inner && inner.body) walk(inner.body, depth + 1);
        continue;
      } else if (role && role !== 'list' && Object.values(SECTIONS).includes(role)) {
        out.push({kind: 's', role: role, name: nameOf(el, role), depth: depth});
        childDepth = depth + 1;
      } else if (TEXTY.has(tag)) {
        const hasBlock = el.querySelector('p,li,div,table,ul,ol,h1,h2,h3,h4,h5,h6,button,input,select,textarea,a[href]');
        if (!hasBlock) { const t = textOf(el); if (t) out.push({kind: 'c', role: 'text', name: t, depth: depth}); continue; }
      }
      if (el.shadowRoot) walk(el.shadowRoot, childDepth);
      walk(el, childDepth);
    }
  };
  if (document.body) walk(document.body, 0);
  return {doc: st.doc, url: location.href, title: document.title, nodes: out};
}"""
)

RESOLVE_JS = (
    """(args) => {
  let top = window; try { top = window.top; void top.document; } catch (e) { return 'elsewhere'; }
  const st = top['"""
    + STATE_KEY
    + """'];
  if (!st || st.token !== args.token || st.doc !== args.doc) return 'stale';
  const el = st.byRef.get(args.ref);
  if (!el) return 'unknown';
  if (!el.isConnected) return 'detached';
  if (el.ownerDocument !== document) return 'elsewhere';
  return el;
}"""
)


def parse_ref(ref: str) -> tuple[int, int] | None:
    """``"d3e12"`` → ``(3, 12)``; ``None`` when ``ref`` is not a snapshot ref."""
    m = REF_PATTERN.match(ref.strip())
    return (int(m.group(1)), int(m.group(2))) if m else None


def _line(node: Mapping[str, Any]) -> str:
    indent = "  " * min(int(node.get("depth", 0) or 0), 4)
    role = str(node.get("role", ""))
    name = str(node.get("name", "") or "")
    if role == "text":
        return f"{indent}- text: {name}"
    parts = [f"{indent}- {role}"]
    if name:
        parts.append('"' + name.replace('"', "'") + '"')
    if node.get("ref"):
        parts.append(f"[ref={node['ref']}]")
    if node.get("level"):
        parts.append(f"[level={node['level']}]")
    if node.get("checked") is not None:
        parts.append("[checked]" if node["checked"] else "[unchecked]")
    if node.get("disabled"):
        parts.append("[disabled]")
    if node.get("value"):
        parts.append('value="' + str(node["value"]).replace('"', "'") + '"')
    if node.get("url"):
        parts.append(f"-> {node['url']}")
    if node.get("note"):
        parts.append(f"({node['note']})")
    return " ".join(parts)


def render_snapshot(
    nodes: Sequence[Mapping[str, Any]], max_bytes: int
) -> tuple[str, dict[str, Any]]:
    """Lay out snapshot nodes in document order within ``max_bytes`` (UTF-8).

    When everything does not fit, interactive elements (those with refs) are kept first, then
    headings, sections and text as room allows, still in document order; a final line says
    how many were left out.

    Args:
        nodes: collected nodes in document order.
        max_bytes: budget for the lines (bytes of UTF-8).

    Returns:
        (text, stats: ``elements``, ``interactive``, ``omitted``, ``truncated``,
        ``hidden_chars_removed`` — invisible characters removed from the page's texts).
    """
    cleaned = [strip_invisible(_line(n)) for n in nodes]
    lines = [line for line, _removed in cleaned]
    sizes = [len(line.encode("utf-8")) + 1 for line in lines]
    interactive = [i for i, n in enumerate(nodes) if n.get("ref")]
    stats: dict[str, Any] = {
        "elements": len(nodes),
        "interactive": len(interactive),
        "hidden_chars_removed": sum(removed for _line, removed in cleaned),
    }
    if sum(sizes) <= max_bytes:
        stats.update(omitted=0, truncated=False)
        return "\n".join(lines), stats
    reserve = 200  # room for the truncation line (its longest form is ~170 bytes)
    budget = max(0, max_bytes - reserve)
    keep: set[int] = set()
    used = 0
    for i in interactive:
        if used + sizes[i] > budget:
            break
        keep.add(i)
        used += sizes[i]
    priority = sorted(
        (i for i, n in enumerate(nodes) if i not in keep),
        key=lambda i: (0 if nodes[i].get("role") == "heading" else 1, i),
    )
    for i in priority:
        if used + sizes[i] <= budget:
            keep.add(i)
            used += sizes[i]
    kept = [lines[i] for i in sorted(keep)]
    omitted = len(nodes) - len(keep)
    omitted_interactive = len(interactive) - sum(1 for i in interactive if i in keep)
    note = f"[snapshot truncated: {omitted} of {len(nodes)} elements left out"
    if omitted_interactive:
        note += f", {omitted_interactive} of them interactive; scroll or use selectors"
    note += "; use content for the page text]"
    stats.update(omitted=omitted, truncated=True)
    return "\n".join([*kept, note]), stats
