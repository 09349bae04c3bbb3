"""The snapshot's page-side scripts (pure text): the collector and the ref resolver.

:data:`COLLECT_JS` walks the rendered DOM in document order (open shadow roots through their
slots, same-origin iframes in place) and returns one node per line of the snapshot
(:mod:`.snapshot` lays them out). Every visible text node lands in a line:

* a block (paragraph, list item, table row, heading, any element displayed as a block)
  becomes one line holding its text with the controls inside it written inline
  (``text: Paragraph with a link "link" [ref=d1e1] inside it.``);
* a block holding only controls (a menu, a form's buttons) gives one line per control, with
  its state and, for a link, its URL;
* sections (navigation, main, form, table, dialog, iframe …) are lines of their own and
  indent what they hold; a nested list is indented under its item; table cells are joined
  with `` | `` on their row's line, a ``|`` inside a cell written ``\\|`` (as web_fetch's
  markdown tables write it);
* the text of a ``<label>`` is the name of the control it labels (not repeated as text).

Interactive elements get a ref ``d<doc>e<n>``; ``doc`` stamps the document: the
per-document state lives in the page's window, so a navigation (a new document) starts with
no state and a new stamp. :data:`RESOLVE_JS` turns a ref back into its element only when the
stamp matches the current document and the element is still attached. A JS walk rather than
the CDP ``Accessibility`` domain works the same on every backend (Lightpanda's accessibility
tree is partial); visibility comes from ``checkVisibility`` where the backend has it, else
from the computed style.
"""

from __future__ import annotations

__all__ = ["COLLECT_JS", "MAX_LINE_CHARS", "MAX_NAME_CHARS", "RESOLVE_JS", "STATE_KEY"]

#: Window property holding the per-document ref state (non-enumerable).
STATE_KEY = "__webresearch_refs__"
#: Characters of one text line (a longer paragraph is cut with "…"; ``content`` has it all).
MAX_LINE_CHARS = 1000
#: Characters of a control's name.
MAX_NAME_CHARS = 100

COLLECT_JS = (
    """(args) => {
  const KEY = '"""
    + STATE_KEY
    + """';
  const MAX_LINE = """
    + str(MAX_LINE_CHARS)
    + """, MAX_NAME = """
    + str(MAX_NAME_CHARS)
    + """;
  let st = window[KEY];
  if (!st || st.token !== args.token) {
    st = {token: args.token, doc: args.doc, n: 0, byEl: new WeakMap(), byRef: new Map()};
    Object.defineProperty(window, KEY, {value: st, configurable: true, enumerable: false, writable: true});
  }
  const out = [];
  const INTERACTIVE = new Set(['button','link','textbox','searchbox','checkbox','radio','combobox',
    'listbox','option','menuitem','menuitemcheckbox','menuitemradio','tab','switch','slider',
    'spinbutton','treeitem']);
  // Roles whose accessible name is their content (the content is not walked again).
  const NAMED_BY_CONTENT = new Set(['button','link','checkbox','radio','option','menuitem',
    'menuitemcheckbox','menuitemradio','tab','switch','treeitem']);
  const SECTIONS = {FORM: 'form', NAV: 'navigation', MAIN: 'main', DIALOG: 'dialog',
    HEADER: 'banner', FOOTER: 'contentinfo', ASIDE: 'complementary', TABLE: 'table'};
  const SECTION_ROLES = new Set(Object.values(SECTIONS).concat(['region', 'search', 'tabpanel', 'menu', 'menubar', 'tablist', 'tree', 'grid']));
  const SKIP = new Set(['SCRIPT','STYLE','NOSCRIPT','TEMPLATE','HEAD','TITLE','META','LINK']);
  const BLOCK = new Set(['ADDRESS','ARTICLE','ASIDE','BLOCKQUOTE','BODY','CAPTION','CENTER','DD',
    'DETAILS','DIALOG','DIV','DL','DT','FIELDSET','FIGCAPTION','FIGURE','FOOTER','FORM','H1','H2',
    'H3','H4','H5','H6','HEADER','HGROUP','HR','LEGEND','LI','MAIN','MENU','NAV','OL','P','PRE',
    'SECTION','SUMMARY','TABLE','TBODY','TD','TFOOT','TH','THEAD','TR','UL']);
  const CONTROL_INSIDE = 'a[href],button,input,select,textarea,[role],[onclick],[tabindex],[contenteditable]';
  const squash = (s) => (s || '').replace(/\\s+/g, ' ');
  const clean = (s, n) => { s = squash(s).trim(); return s.length > n ? s.slice(0, n - 1) + '…' : s; };
  const styleOf = (el) => { try { return getComputedStyle(el); } catch (e) { return null; } };
  const hidden = (el, cs) => {
    if (el.hidden || el.getAttribute('aria-hidden') === 'true') return true;
    if (cs && cs.display === 'contents') return false;  // no box of its own, its children show
    if (el.checkVisibility) {
      try { if (!el.checkVisibility({visibilityProperty: true})) return true; } catch (e) {}
    }
    return !!cs && (cs.display === 'none' || cs.visibility === 'hidden');
  };
  // Form controls flow with the text around them (backends without a full style engine
  // report some of them as blocks).
  const INLINE_CONTROLS = new Set(['BUTTON','INPUT','SELECT','TEXTAREA']);
  const isBlock = (el, cs) => {
    if (INLINE_CONTROLS.has(el.tagName)) return false;
    const d = cs ? cs.display : '';
    if (d) return !d.startsWith('inline') && d !== 'contents';
    return BLOCK.has(el.tagName);
  };
  const textOf = (el) => clean(el.innerText !== undefined && el.innerText !== null ? el.innerText : el.textContent, MAX_NAME);
  const roleOf = (el) => {
    const explicit = (el.getAttribute('role') || '').split(' ')[0];
    if (explicit && explicit !== 'presentation' && explicit !== 'none') return explicit;
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
    if (tag === 'IFRAME' || tag === 'FRAME') return 'iframe';
    if (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) return 'textbox';
    if (SECTIONS[tag]) return SECTIONS[tag];
    if (el.hasAttribute('onclick') || (el.hasAttribute('tabindex') && el.tabIndex >= 0)) return 'clickable';
    return '';
  };
  // A label's own words: without the text of the controls inside it (a select's options).
  const ownText = (label) => {
    const copy = label.cloneNode(true);
    for (const c of copy.querySelectorAll('select,textarea,option,button,script,style')) c.remove();
    return copy.textContent;
  };
  const labelText = (el) => {
    const doc = el.ownerDocument;
    if (el.id) {
      const l = doc.querySelector('label[for="' + (window.CSS && CSS.escape ? CSS.escape(el.id) : el.id) + '"]');
      if (l) return ownText(l);
    }
    const wrap = el.closest('label');
    return wrap ? ownText(wrap) : '';
  };
  const nameOf = (el, role) => {
    const doc = el.ownerDocument;
    const by = el.getAttribute('aria-labelledby');
    if (by) { const t = by.split(/\\s+/).map(id => { const r = doc.getElementById(id); return r ? r.textContent : ''; }).join(' '); if (clean(t, MAX_NAME)) return clean(t, MAX_NAME); }
    const al = el.getAttribute('aria-label'); if (al) return clean(al, MAX_NAME);
    const tag = el.tagName;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') {
      const l = clean(labelText(el), MAX_NAME); if (l) return l;
      const t = (el.getAttribute('type') || '').toLowerCase();
      if (['button','submit','reset'].includes(t)) return clean(el.value || t, MAX_NAME);
      if (t === 'image') return clean(el.getAttribute('alt') || 'submit', MAX_NAME);
      return clean(el.getAttribute('placeholder') || el.getAttribute('title') || el.getAttribute('name') || '', MAX_NAME);
    }
    if (tag === 'IMG') return clean(el.getAttribute('alt'), MAX_NAME);
    if (tag === 'IFRAME' || tag === 'FRAME') return clean(el.getAttribute('title') || el.getAttribute('src') || '', MAX_NAME);
    if (SECTION_ROLES.has(role)) return clean(el.getAttribute('title') || '', MAX_NAME);
    if (NAMED_BY_CONTENT.has(role) || role === 'heading') {
      const t = textOf(el);
      if (t) return t;
      const img = el.querySelector && el.querySelector('img[alt]');
      if (img) return clean(img.getAttribute('alt'), MAX_NAME);
    }
    const l = clean(labelText(el), MAX_NAME); if (l) return l;
    return clean(el.getAttribute('title') || el.getAttribute('placeholder') || '', MAX_NAME);
  };
  const refFor = (el) => {
    let r = st.byEl.get(el);
    if (!r) { st.n += 1; r = 'd' + st.doc + 'e' + st.n; st.byEl.set(el, r); st.byRef.set(r, el); }
    return r;
  };
  const control = (el, role) => {
    const tag = el.tagName;
    const node = {role: role, name: nameOf(el, role), ref: refFor(el)};
    if (el.disabled) node.disabled = true;
    if (role === 'checkbox' || role === 'radio' || role === 'switch') {
      node.checked = el.checked !== undefined ? !!el.checked : el.getAttribute('aria-checked') === 'true';
    }
    if (tag === 'INPUT' || tag === 'TEXTAREA') {
      const t = (el.getAttribute('type') || '').toLowerCase();
      if (!['checkbox','radio','button','submit','reset','image'].includes(t)) node.value = t === 'password' ? (el.value ? '••••' : '') : clean(el.value, MAX_NAME);
    }
    if (tag === 'SELECT') { const o = el.options && el.options[el.selectedIndex]; node.value = o ? clean(o.textContent, MAX_NAME) : ''; }
    if (role === 'link') { const h = el.getAttribute('href') || ''; if (h && !h.startsWith('javascript:')) node.url = h.slice(0, 200); }
    return node;
  };
  // --- lines -------------------------------------------------------------------------------
  // A line collects text (strings) and parts (controls, images) until its block ends.
  let line = null;
  const push = (node) => { if (out.length < args.max) out.push(node); };
  const open = (ctx) => {
    if (!line) {
      let role = ctx.role, level;
      if (ctx.label && !ctx.label.used) { role = ctx.label.role; level = ctx.label.level; ctx.label.used = true; }
      line = {role: role, level: level, depth: ctx.depth, parts: []};
    }
    return line;
  };
  const addText = (s, ctx) => {
    if (!s || (!line && !/\\S/.test(s))) return;
    if (ctx.row) s = s.replace(/\\|/g, '\\\\|');  // a | in a cell is no cell border (fetch's \\|)
    open(ctx).parts.push(s);
  };
  const flush = () => {
    const current = line;
    line = null;
    if (!current) return;
    const parts = [];
    for (const p of current.parts) {
      const last = parts.length - 1;
      if (typeof p === 'string' && last >= 0 && typeof parts[last] === 'string') parts[last] += p;
      else parts.push(p);
    }
    let chars = 0;
    for (let i = 0; i < parts.length; i++) {
      if (typeof parts[i] !== 'string') continue;
      let s = squash(parts[i]);
      if (i === 0) s = s.replace(/^ /, '');
      if (i === parts.length - 1) s = s.replace(/ $/, '');
      if (chars + s.length > MAX_LINE) { parts[i] = s.slice(0, Math.max(0, MAX_LINE - chars - 1)) + '…'; parts.length = i + 1; break; }
      chars += s.length;
      parts[i] = s;
    }
    const kept = parts.filter(p => p !== '' && p !== ' ');
    const hasText = kept.some(p => typeof p === 'string' && /\\S/.test(p));
    if (!hasText && current.role !== 'heading') {
      for (const p of kept) {
        if (typeof p === 'string') continue;
        if (p.img !== undefined) push({kind: 'c', role: 'img', name: p.img, depth: current.depth});
        else push(Object.assign({kind: 'i', depth: current.depth}, p));
      }
      return;
    }
    if (current.role === 'heading' && kept.length === 1 && typeof kept[0] === 'string') {
      push({kind: 'c', role: 'heading', name: kept[0], level: current.level, depth: current.depth});
      return;
    }
    if (kept.length) push({kind: 't', role: current.role, level: current.level, depth: current.depth, parts: kept});
  };
  // --- the walk ----------------------------------------------------------------------------
  const LAYOUT_IN_CELL = 'p,div,ul,ol,dl,h1,h2,h3,h4,h5,h6,table,form,blockquote,pre,section,article';
  const walkNodes = (nodes, ctx) => {
    for (const node of nodes) {
      if (out.length >= args.max) return;
      if (node.nodeType === 3) addText(node.data, ctx);
      else if (node.nodeType === 1) element(node, ctx);
    }
  };
  const walkChildren = (el, ctx) => walkNodes((el.shadowRoot || el).childNodes, ctx);
  // A block of its own: the current line ends before it and after it.
  const inBlock = (el, ctx) => { flush(); walkChildren(el, ctx); flush(); };
  const nested = (ctx, depth, extra) => Object.assign({}, ctx, {role: 'text', depth: depth, label: null, row: false, item: false}, extra || {});
  const element = (el, ctx) => {
    const tag = el.tagName;
    if (SKIP.has(tag)) return;
    if (tag === 'SLOT') {
      const assigned = el.assignedNodes ? el.assignedNodes({flatten: true}) : [];
      walkNodes(assigned.length ? assigned : el.childNodes, ctx);
      return;
    }
    const cs = styleOf(el);
    if (hidden(el, cs)) return;
    const role = roleOf(el);
    const blockish = isBlock(el, cs);
    const breaks = blockish && !ctx.row;
    if (tag === 'BR') { if (ctx.row) addText(' ', ctx); else flush(); return; }
    if (role === 'iframe') {
      flush();
      let inner = null; try { inner = el.contentDocument; } catch (e) {}
      push({kind: 's', role: 'iframe', name: nameOf(el, role), depth: ctx.depth, note: inner ? '' : 'cross-origin, not included'});
      if (inner && inner.body) inBlock(inner.body, nested(ctx, ctx.depth + 1));
      return;
    }
    if (role === 'heading') {
      const level = Number(tag.slice(1)) || Number(el.getAttribute('aria-level')) || 2;
      inBlock(el, Object.assign({}, ctx, {label: {role: 'heading', level: level, used: false}, row: false}));
      return;
    }
    if (INTERACTIVE.has(role) || role === 'clickable') {
      if (breaks) flush();
      open(ctx).parts.push(control(el, role));
      const leaf = ['INPUT','SELECT','TEXTAREA','BUTTON'].includes(tag) || NAMED_BY_CONTENT.has(role);
      if (!leaf) { if (breaks) flush(); walkChildren(el, ctx); }
      if (breaks) flush();
      return;
    }
    if (role === 'img') { open(ctx).parts.push({img: nameOf(el, role)}); return; }
    if (tag === 'LABEL') {
      const target = el.control || (el.htmlFor ? el.ownerDocument.getElementById(el.htmlFor) : el.querySelector('input,select,textarea'));
      if (target && target !== el && !hidden(target, styleOf(target))) {
        // Its text is the name of the control it labels: only the controls inside are walked.
        for (const c of el.querySelectorAll('input,select,textarea,button,a[href]')) element(c, ctx);
        return;
      }
    }
    if (tag === 'DETAILS' && !el.open) {
      if (breaks) flush();
      for (const c of el.children) if (c.tagName === 'SUMMARY') element(c, ctx);
      if (breaks) flush();
      return;
    }
    if (tag === 'TABLE' || role === 'table' || role === 'grid') {
      flush();
      push({kind: 's', role: 'table', name: nameOf(el, 'table'), depth: ctx.depth});
      inBlock(el, nested(ctx, ctx.depth + 1));
      return;
    }
    if (tag === 'TR' || role === 'row') {
      // A row of data cells is one line; a layout row (cells holding blocks) is not.
      const layout = !!(el.querySelector && el.querySelector(LAYOUT_IN_CELL));
      inBlock(el, layout ? nested(ctx, ctx.depth) : nested(ctx, ctx.depth, {role: 'row', row: true}));
      return;
    }
    if (ctx.row && (tag === 'TD' || tag === 'TH' || role === 'cell' || role === 'columnheader' || role === 'rowheader')) {
      if (line && line.parts.length) line.parts.push(' | ');
      walkChildren(el, ctx);
      return;
    }
    if (role && SECTION_ROLES.has(role)) {
      flush();
      push({kind: 's', role: role, name: nameOf(el, role), depth: ctx.depth});
      inBlock(el, nested(ctx, ctx.depth + 1));
      return;
    }
    if (ctx.row) {
      if (blockish) addText(' ', ctx);
      walkChildren(el, ctx);
      if (blockish) addText(' ', ctx);
      return;
    }
    if (tag === 'UL' || tag === 'OL' || tag === 'MENU' || role === 'list') {
      inBlock(el, nested(ctx, ctx.item ? ctx.depth + 1 : ctx.depth));
      return;
    }
    if (tag === 'LI' || role === 'listitem') {
      inBlock(el, nested(ctx, ctx.depth, {label: {role: 'listitem', used: false}, item: true}));
      return;
    }
    if (blockish) { inBlock(el, ctx); return; }
    walkChildren(el, ctx);
  };
  if (document.body) inBlock(document.body, {role: 'text', depth: 0, label: null, row: false, item: false});
  return {doc: st.doc, url: location.href, title: document.title, nodes: out};
}"""
)

RESOLVE_JS = (
    """(args) => {
  let top = window; try { top = window.top; void top.document; } catch (e) { return 'elsewhere'; }
  const st = top['"""
    + STATE_KEY
    + """'];
  if (!st) return 'none';
  if (st.token !== args.token || st.doc !== args.doc) return 'stale';
  const el = st.byRef.get(args.ref);
  if (!el) return 'unknown';
  if (!el.isConnected) return 'detached';
  if (el.ownerDocument !== document) return 'elsewhere';
  return el;
}"""
)
