// BrowserMesh live dashboard: plain ES module, no framework, no build step.
// Data comes from server-sent events read with fetch (so the bearer token travels in a header, never
// in a URL). The token is taken from the URL fragment (#token=…), which browsers never send to a
// server, and the fragment is then removed from the address bar.
// Everything shown is set with textContent: page titles and URLs are untrusted text.

import { createTakeoverInput } from './takeover.js';

// A take-over link (an agent asked for a person) carries #handoff=…&session=…: a token for that one
// session's take-over, which opens it at once.
const fragment = new URLSearchParams(location.hash.slice(1));
const token = fragment.get('handoff') ?? fragment.get('token') ?? '';
let focusSession = fragment.get('session');
if (location.hash) history.replaceState(null, '', location.pathname + location.search);
const headers = token ? { Authorization: `Bearer ${token}` } : {};
const api = (path) => new URL(`api/${path}`, location.href.replace(/[^/]*$/, '')).href;

const view = { state: null, sessionId: null, pageId: null, frames: null, frameCount: 0, viewport: null };
const $ = (id) => document.getElementById(id);

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'class') node.className = value;
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children)
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

function setStatus(text, isError = false) {
  $('status').textContent = text;
  $('status').classList.toggle('error', isError);
}

/** Reads a server-sent event stream; resolves when it ends, rejects with .status on refusal. */
async function readEvents(path, onEvent, signal) {
  const res = await fetch(api(path), { headers, signal, cache: 'no-store' });
  if (!res.ok) throw Object.assign(new Error('refused'), { status: res.status });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data += line.slice(6);
      }
      if (data) onEvent(event, JSON.parse(data));
    }
  }
}

async function followState() {
  for (let attempt = 0; ; attempt++) {
    try {
      await readEvents('stream', (event, data) => {
        if (event !== 'state') return;
        attempt = 0;
        setStatus(`live · ${data.sessions.length} session(s)`);
        view.state = data;
        if (focusSession && data.sessions.some((x) => x.sessionId === focusSession)) {
          const id = focusSession;
          focusSession = null;
          select(id);
        }
        render();
      });
    } catch (error) {
      if (error.status === 401 || error.status === 403) {
        setStatus('Unauthorized: open this page as …/dashboard/#token=YOUR_TOKEN', true);
        document.body.dataset.refused = String(error.status);
        return;
      }
    }
    setStatus('reconnecting…', true);
    await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 250 * 2 ** attempt)));
  }
}

function render() {
  const sessions = view.state?.sessions ?? [];
  if (view.sessionId && !sessions.some((s) => s.sessionId === view.sessionId)) select(null);
  document.querySelector('main').classList.toggle('watching', Boolean(view.sessionId));
  $('sessions').replaceChildren(
    ...(sessions.length ? sessions.map(sessionCard) : [el('p', { class: 'hint' }, 'No sessions yet.')]),
  );
  renderDetail(sessions.find((s) => s.sessionId === view.sessionId));
}

function sessionCard(s) {
  const labels = Object.entries(s.labels).map(([k, v]) => el('span', { class: 'badge' }, `${k}=${v}`));
  return el(
    'article',
    {
      class: `session${s.sessionId === view.sessionId ? ' selected' : ''}`,
      dataset: { sessionId: s.sessionId },
      onclick: () => select(s.sessionId),
    },
    el('h2', {}, s.name ?? s.sessionId),
    el(
      'div',
      { class: 'meta' },
      el('span', { class: `badge ${s.state}` }, s.state),
      s.needsYou
        ? el('span', { class: 'badge needs-you', dataset: { needsYou: 'true' } }, 'needs you')
        : s.takenOver
          ? el('span', { class: 'badge takeover' }, 'taken over')
          : '',
      s.tracing ? el('span', { class: 'badge', dataset: { tracing: 'true' } }, 'tracing') : '',
      s.recording.length ? el('span', { class: 'badge', dataset: { recording: 'true' } }, 'recording') : '',
      `${s.provider ?? '?'} · ${s.pages.length} page(s) · queue ${s.queueDepth}`,
      s.owner ? ` · client ${s.owner}` : '',
    ),
    el('div', { class: 'meta' }, s.sessionId, ...labels),
    thumbnail(s),
  );
}

/** Stills of each session's first page, fetched at most every 3 s per session (the server caches too). */
const thumbs = new Map();

function thumbnail(s) {
  const page = s.pages.find((p) => p.isDefault) ?? s.pages[0];
  if (!page) return '';
  const key = `${s.sessionId}/${page.pageId}`;
  const known = thumbs.get(key) ?? { data: '', fetchedAt: 0 };
  thumbs.set(key, known);
  if (Date.now() - known.fetchedAt > 3000) {
    known.fetchedAt = Date.now();
    const query = `thumbnail?sessionId=${encodeURIComponent(s.sessionId)}&pageId=${encodeURIComponent(page.pageId)}`;
    fetch(api(query), { headers, cache: 'no-store' })
      .then((res) => (res.ok ? res.json() : undefined))
      .then((still) => {
        if (!still?.data) return;
        known.data = still.data;
        const img = document.querySelector(`[data-session-id="${s.sessionId}"] img.thumb`);
        if (img) img.src = `data:image/jpeg;base64,${still.data}`;
      })
      .catch(() => undefined);
  }
  return el('img', {
    class: 'thumb',
    alt: `${s.name ?? s.sessionId}: ${page.title || page.url}`,
    ...(known.data ? { src: `data:image/jpeg;base64,${known.data}` } : {}),
  });
}

function select(sessionId) {
  view.sessionId = sessionId;
  const session = view.state?.sessions.find((s) => s.sessionId === sessionId);
  const asked = session?.needsYou
    ? session.pages.find((p) => p.pageId === session.needsYou.pageId)
    : undefined;
  watchPage(
    session
      ? (asked ?? session.pages.find((p) => p.pageId === view.pageId) ?? session.pages[0])?.pageId
      : null,
  );
  render();
}

/** Watches one page's frames; only the selected page is screencast, and only while shown here. */
function watchPage(pageId) {
  if (view.pageId === pageId && view.frames) return;
  view.frames?.abort();
  view.frames = null;
  view.pageId = pageId;
  view.frameCount = 0;
  if (!pageId) return;
  const controller = new AbortController();
  view.frames = controller;
  const query = `frames?sessionId=${encodeURIComponent(view.sessionId)}&pageId=${encodeURIComponent(pageId)}`;
  readEvents(
    query,
    (event, frame) => {
      if (event !== 'frame') return;
      view.frameCount++;
      view.viewport = frame.viewport;
      const img = document.querySelector('.live img');
      if (img) {
        // The box follows the page's viewport, never the frame's own pixels: a frame Chromium sends at
        // another size (a still being taken of the page) must not move the image under a person's drag.
        img.style.aspectRatio = `${frame.viewport.width} / ${frame.viewport.height}`;
        img.src = `data:image/jpeg;base64,${frame.data}`;
        img.dataset.frameCount = String(view.frameCount);
      }
    },
    controller.signal,
  ).catch(() => undefined);
}

function renderDetail(s) {
  if (!s)
    return $('detail').replaceChildren(el('p', { class: 'hint' }, 'Select a session to watch its pages.'));
  if (view.pageId && !s.pages.some((p) => p.pageId === view.pageId)) watchPage(s.pages[0]?.pageId ?? null);
  const page = s.pages.find((p) => p.pageId === view.pageId);
  const typing = document.activeElement?.id === 'takeover-text';
  // The live image and its box stay in the document across updates: a state event that lands
  // between a person's mouse-down and mouse-up must not detach the image (the click would be lost).
  let live = document.querySelector('#detail > .live');
  if (!live) {
    live = el('div', { class: 'live' }, el('img', { alt: 'live view', dataset: { frameCount: '0' } }));
    $('detail').replaceChildren(el('div', { id: 'detail-head' }), live, el('div', { id: 'detail-tail' }));
  }
  const img = live.querySelector('img');
  if (img.dataset.pageId !== view.pageId) {
    img.dataset.pageId = view.pageId ?? '';
    img.dataset.frameCount = String(view.frameCount);
  }
  if (!live.dataset.wired) wireTakeover(live, img);
  live.className = `live${s.takenOver ? ' takeover' : ''}`;
  // Focusable only while taken over: then keys pressed on the live view go to the page.
  if (s.takenOver) live.tabIndex = 0;
  else live.removeAttribute('tabindex');
  $('detail-head').replaceChildren(
    el('h2', {}, s.name ?? s.sessionId),
    el(
      'div',
      { class: 'tabs' },
      ...s.pages.map((p) =>
        el(
          'button',
          {
            class: p.pageId === view.pageId ? 'active' : '',
            onclick: () => {
              watchPage(p.pageId);
              render();
            },
          },
          p.title || p.pageId,
        ),
      ),
    ),
    page
      ? el('div', { class: 'pageinfo', dataset: { pageUrl: page.url } }, `${page.title} — ${page.url}`)
      : '',
    s.needsYou
      ? el(
          'div',
          { class: 'needs-you', id: 'needs-you', role: 'alert' },
          el('strong', {}, 'The agent needs you: '),
          s.needsYou.reason,
          el('span', { class: 'waited' }, ` (waiting ${waited(s.needsYou.waitedMs)}). `),
          'Do it on the page below, then press “Hand back”.',
        )
      : '',
    takeoverControls(s),
  );
  $('detail-tail').replaceChildren(
    el('h3', {}, `Recent operations (queue depth ${s.queueDepth})`),
    operationsTable(s.operations),
    el('h3', {}, 'Observe events'),
    eventsTable(page?.events ?? []),
  );
  if (typing) $('takeover-text')?.focus();
}

function waited(ms) {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

function operationsTable(operations) {
  const rows = [...operations]
    .reverse()
    .map((op) =>
      el(
        'tr',
        { dataset: { tool: op.tool, operationId: op.operationId } },
        el('td', {}, op.startedAt.slice(11, 19)),
        el('td', {}, op.tool),
        el('td', { class: 'duration' }, `${op.durationMs} ms`),
        el('td', { class: op.errorCode ? 'error' : '' }, op.errorCode ?? 'ok'),
      ),
    );
  return el(
    'table',
    { id: 'operations' },
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        el('th', {}, 'time'),
        el('th', {}, 'tool'),
        el('th', {}, 'duration'),
        el('th', {}, 'result'),
      ),
    ),
    el('tbody', {}, ...rows),
  );
}

function eventsTable(events) {
  if (!events.length) return el('p', { class: 'hint' }, 'No console errors or failed requests.');
  return el(
    'table',
    { id: 'events' },
    el(
      'tbody',
      {},
      ...[...events].reverse().map((e) =>
        el(
          'tr',
          {},
          el('td', {}, e.time.slice(11, 19)),
          el('td', {}, e.source + (e.level ? `:${e.level}` : '') + (e.name ? `:${e.name}` : '')),
          el('td', {}, e.status ?? e.failure ?? ''),
          // A console error's message (redacted by the server), else where it happened.
          el('td', { class: e.text ? 'event-text' : '' }, e.text ?? e.url ?? ''),
        ),
      ),
    ),
  );
}

const KEY_LABELS = { ArrowUp: '↑', ArrowDown: '↓', PageUp: 'PgUp', PageDown: 'PgDn' };

function takeoverControls(s) {
  if (!(view.state?.takeoverEnabled || s.needsYou) || !view.pageId) return '';
  if (!s.takenOver) {
    return el(
      'div',
      { class: 'controls' },
      el(
        'button',
        {
          id: 'takeover',
          onclick: () => post('takeover/start', { sessionId: s.sessionId, pageId: view.pageId }),
        },
        'Take over',
      ),
    );
  }
  // A password field: what the person types stays masked on screen and is never shown back.
  // Reused across renders so a half-typed text (and its focus) survives a state update.
  const text =
    $('takeover-text') ??
    el('input', { type: 'password', id: 'takeover-text', autocomplete: 'off', placeholder: 'text to type' });
  // Through the same ordered queue as the mouse and keys on the live view.
  const send = (body) => sendInput(body);
  return el(
    'div',
    { class: 'controls' },
    text,
    el(
      'button',
      {
        onclick: () => {
          void send({ type: 'text', text: text.value });
          text.value = '';
        },
      },
      'Type',
    ),
    ...[
      'Enter',
      'Tab',
      'Backspace',
      'Escape',
      'ArrowUp',
      'ArrowDown',
      'PageUp',
      'PageDown',
      'Home',
      'End',
    ].map((key) =>
      el(
        'button',
        { dataset: { key }, onclick: () => void send({ type: 'key', key }) },
        KEY_LABELS[key] ?? key,
      ),
    ),
    el(
      'button',
      { id: 'handback', onclick: () => post('takeover/release', { sessionId: s.sessionId }) },
      'Hand back',
    ),
  );
}

async function post(path, body) {
  const res = await fetch(api(path), {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) setStatus(`refused (${res.status})`, true);
}

// Take-over input on the live image, sent in order to the held session (takeover.js).
const { wireTakeover, sendInput } = createTakeoverInput({
  view,
  post: (body) => post('takeover/input', body),
});

void followState();
