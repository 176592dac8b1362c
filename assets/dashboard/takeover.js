// Take-over input on the dashboard's live image: mouse, wheel and keys become the held page's own
// input, in its viewport's CSS pixels. Split from app.js, which wires it once per live image.

/** Keys a focused live view passes to the page (the server accepts these and letters with modifiers). */
const PASSED_KEYS = new Set([
  'Enter',
  'Backspace',
  'Escape',
  'Delete',
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'PageUp',
  'PageDown',
  'Home',
  'End',
]);

/**
 * `view` is app.js's live state (selected session, its frames' viewport); `post(body)` sends one input.
 * Inputs are sent one at a time in order; moves and wheel turns waiting to be sent merge into one.
 */
export function createTakeoverInput({ view, post }) {
  const pending = [];
  let sending = false;

  function sendInput(input) {
    const last = pending.at(-1);
    if (last && input.type === 'move' && last.type === 'move') Object.assign(last, input);
    else if (last && input.type === 'wheel' && last.type === 'wheel') {
      Object.assign(last, { x: input.x, y: input.y });
      last.deltaX = Math.max(-10_000, Math.min(10_000, last.deltaX + input.deltaX));
      last.deltaY = Math.max(-10_000, Math.min(10_000, last.deltaY + input.deltaY));
    } else pending.push({ ...input, sessionId: view.sessionId });
    if (!sending) void drainInputs();
  }

  async function drainInputs() {
    sending = true;
    while (pending.length) await post(pending.shift()).catch(() => undefined);
    sending = false;
  }

  /**
   * Mouse, wheel and keys on the live image become the page's own input, in its viewport's CSS pixels.
   * Wired once: the image and its box outlive every re-render, so a press and its release always meet.
   * Inputs are sent one at a time in order; moves and wheel turns waiting to be sent merge into one.
   */
  function wireTakeover(live, img) {
    live.dataset.wired = 'true';
    img.draggable = false;
    let pressed = false;
    const held = () => view.state?.sessions.find((x) => x.sessionId === view.sessionId && x.takenOver);
    const at = (event) => {
      const rect = img.getBoundingClientRect();
      const clamp = (n, max) => Math.min(Math.max(n, 0), max);
      return {
        x: clamp(((event.clientX - rect.left) / rect.width) * view.viewport.width, view.viewport.width),
        y: clamp(((event.clientY - rect.top) / rect.height) * view.viewport.height, view.viewport.height),
      };
    };
    img.addEventListener('pointerdown', (event) => {
      if (event.button !== 0 || !held() || !view.viewport) return;
      event.preventDefault();
      pressed = true;
      img.setPointerCapture(event.pointerId);
      live.focus({ preventScroll: true });
      sendInput({ type: 'down', ...at(event) });
    });
    img.addEventListener('pointermove', (event) => {
      if (pressed && view.viewport) sendInput({ type: 'move', ...at(event) });
    });
    const lift = (event) => {
      if (!pressed) return;
      pressed = false;
      if (view.viewport) sendInput({ type: 'up', ...at(event) });
    };
    img.addEventListener('pointerup', lift);
    img.addEventListener('pointercancel', lift);
    img.addEventListener(
      'wheel',
      (event) => {
        if (!held() || !view.viewport) return;
        event.preventDefault();
        // Lines and pages (deltaMode 1 and 2) become pixels, as the page would get them.
        const scale = event.deltaMode === 1 ? 40 : event.deltaMode === 2 ? view.viewport.height : 1;
        sendInput({
          type: 'wheel',
          ...at(event),
          deltaX: event.deltaX * scale,
          deltaY: event.deltaY * scale,
        });
      },
      { passive: false },
    );
    live.addEventListener('keydown', (event) => {
      if (!held() || event.target !== live || !PASSED_KEYS.has(event.key)) return;
      event.preventDefault();
      sendInput({ type: 'key', key: event.shiftKey ? `Shift+${event.key}` : event.key });
    });
  }

  return { wireTakeover, sendInput };
}
