/**
 * Page-side code for reading text as a person sees it: the rendered text of one document, walked
 * through open shadow roots (web components render all their text there, and `innerText` of the body
 * never enters them). Plain strings, like page-functions.ts, so no build step can rewrite them; each
 * frame (out-of-process ones included) runs them itself and the caller joins the frames.
 */

/**
 * Defines `renderedText(max, roots)`: the document's text, block boundaries as line breaks, cut at
 * `max` characters; every open shadow root met is pushed onto `roots` (so a watcher can observe it).
 * Subtrees without a shadow host use the browser's own `innerText` (fast, exact); only the path down
 * to shadow hosts is walked by hand, following the flat tree (slots show their assigned nodes).
 */
const RENDERED_TEXT = `
  const renderedText = (max, roots) => {
    const deep = new Set();
    const reordered = new Map();
    // Lines of one height at one x, absolutely positioned out of DOM order (virtualized editors): read top to bottom.
    const visualOrder = (el) => {
      const kids = el.children;
      if (kids.length < 2 || getComputedStyle(kids[0]).position !== 'absolute') return;
      const rects = [...kids].map((k) => k.getBoundingClientRect());
      const r0 = rects[0];
      if (rects.some((r) => r.height <= 0 || Math.abs(r.left - r0.left) > 1 || Math.abs(r.height - r0.height) > 1)) return;
      if (rects.every((r, i) => i === 0 || rects[i - 1].top <= r.top)) return;
      reordered.set(el, [...kids].map((k, i) => ({ k, top: rects[i].top })).sort((a, b) => a.top - b.top).map((o) => o.k));
      for (let n = el; n && !deep.has(n); n = n.parentNode || n.host) deep.add(n);
    };
    const mark = (root) => {
      for (const el of root.querySelectorAll('*')) {
        if (el.childElementCount >= 2 && el.firstElementChild.localName === 'div') visualOrder(el);
        // innerText inside a shadow tree skips what its slots show: the path to each slot is walked by hand.
        if (el.localName === 'slot' && root !== document) for (let n = el; n && !deep.has(n); n = n.parentNode || n.host) deep.add(n);
        if (!el.shadowRoot) continue;
        roots.push(el.shadowRoot);
        for (let n = el; n && !deep.has(n); n = n.parentNode || n.host) deep.add(n);
        mark(el.shadowRoot);
      }
    };
    mark(document);
    const parts = [];
    let size = 0;
    const push = (s) => { if (size < max && s) { parts.push(s); size += s.length; } };
    const styleOf = (el) => getComputedStyle(el);
    const visit = (node) => {
      if (size >= max) return;
      if (node.nodeType === 3) {
        const parent = node.parentElement;
        if (parent && styleOf(parent).visibility !== 'hidden') push(node.data.replace(/\\s+/g, ' '));
        return;
      }
      if (node.nodeType !== 1 && node.nodeType !== 11) return;
      if (node.nodeType === 11) { for (const c of node.childNodes) visit(c); return; }
      const el = node;
      if (el.localName === 'br') return push('\\n');
      const display = styleOf(el).display;
      if (display === 'none' || ['script', 'style', 'template', 'iframe', 'frame', 'object'].includes(el.localName)) return;
      const block = !display.startsWith('inline') && display !== 'contents';
      if (block) push('\\n');
      if (!deep.has(el)) {
        if (display === 'contents') for (const c of el.childNodes) visit(c);
        else push(el.innerText);
      } else if (el.shadowRoot) visit(el.shadowRoot);
      else if (el.localName === 'slot') {
        const assigned = el.assignedNodes({ flatten: true });
        for (const c of assigned.length > 0 ? assigned : el.childNodes) visit(c);
      } else for (const c of reordered.get(el) || el.childNodes) visit(c);
      if (block) push('\\n');
    };
    if (document.body) visit(document.body);
    const text = parts.join('').replace(/[ \\t]*\\n[ \\t\\n]*\\n[ \\t]*/g, '\\n\\n').replace(/[ \\t]*\\n[ \\t]*/g, '\\n').trim();
    return text.length > max ? text.slice(0, max) : text;
  };
  const shown = () => window.innerWidth > 0 && window.innerHeight > 0;
`;

/** Body of `(arg: {max}) => {text, shown}` for one frame; `shown` is false in a zero-size (hidden) frame. */
export const FRAME_TEXT_BODY = `${RENDERED_TEXT}
  return { text: shown() ? renderedText(arg.max, []) : '', shown: shown() };`;

/**
 * Body of `(arg) => Promise<string>`: which of `arg.texts` (already whitespace-normalized) this frame
 * shows now, as a comma-joined list of indexes. Resolves at once when that differs from `arg.last`
 * (or `last` is absent); otherwise on the first change after a DOM mutation — in the document or any
 * open shadow root, roots attached later included — or a periodic re-check (style-only changes), and
 * at the latest after `arg.lifetimeMs`, so the caller re-arms it and nothing lingers in the page.
 */
export const FRAME_TEXT_WATCH_BODY = `${RENDERED_TEXT}
  const observed = new Set();
  let observer;
  const status = () => {
    const roots = [];
    const text = shown() ? renderedText(arg.max, roots).replace(/\\s+/g, ' ') : '';
    if (observer) for (const root of roots) if (!observed.has(root)) { observed.add(root); observer.observe(root, options); }
    return arg.texts.map((t, i) => (text.includes(t) ? i : -1)).filter((i) => i >= 0).join(',');
  };
  const options = { subtree: true, childList: true, characterData: true, attributes: true };
  const first = status();
  if (arg.last === undefined || first !== arg.last) return Promise.resolve(first);
  return new Promise((resolve) => {
    let scheduled = false;
    const finish = (value) => { observer.disconnect(); clearTimeout(timer); clearInterval(tick); resolve(value); };
    const recheck = () => { scheduled = false; const now = status(); if (now !== arg.last) finish(now); };
    observer = new MutationObserver(() => { if (!scheduled) { scheduled = true; requestAnimationFrame(recheck); } });
    observer.observe(document, options);
    status();
    const tick = setInterval(recheck, 250);
    const timer = setTimeout(() => finish(status()), arg.lifetimeMs);
  });`;
