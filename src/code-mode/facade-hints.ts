/**
 * What to tell a script that reaches for a Playwright member code mode does not offer. Models write
 * Playwright from memory, so the most common misses get a specific "use this instead"; anything
 * else gets the list of supported members (built in the prelude).
 */

const NO_PAGE_JS = 'page JavaScript is off; use page.textContent/innerText or page.snapshot()';
const NO_EVENTS = 'events are not available; use page.waitForURL/waitForSelector';
const MANAGED = 'the page and its browser context are managed by BrowserMesh';
const NO_FRAMES = 'frames are not supported in browser_run';
const NO_PIXELS = 'use page.screenshot() for an image, page.snapshot() for a text view of the page';

export const PAGE_HINTS: Readonly<Record<string, string>> = {
  pause: 'to hand the page to a person, await human.request(reason)',
  evaluate: NO_PAGE_JS,
  evaluateHandle: NO_PAGE_JS,
  $eval: NO_PAGE_JS,
  $$eval: NO_PAGE_JS,
  waitForFunction: NO_PAGE_JS,
  addScriptTag: NO_PAGE_JS,
  addStyleTag: NO_PAGE_JS,
  addInitScript: NO_PAGE_JS,
  exposeFunction: NO_PAGE_JS,
  exposeBinding: NO_PAGE_JS,
  $: 'use page.locator(selector)',
  $$: 'use page.locator(selector).all()',
  content: 'use page.snapshot() or page.innerText("body")',
  innerHTML: 'use page.innerText(selector) or page.textContent(selector)',
  on: NO_EVENTS,
  once: NO_EVENTS,
  off: NO_EVENTS,
  waitForEvent: NO_EVENTS,
  waitForRequest: NO_EVENTS,
  waitForResponse: NO_EVENTS,
  waitForNavigation: 'use page.waitForURL(url) or page.waitForLoadState()',
  browser: MANAGED,
  close: MANAGED,
  bringToFront: MANAGED,
  setViewportSize: MANAGED,
  setExtraHTTPHeaders: MANAGED,
  setDefaultTimeout: 'pass { timeout } to a single call; the whole script has one deadline',
  setDefaultNavigationTimeout: 'pass { timeout } to page.goto; the whole script has one deadline',
  frameLocator: NO_FRAMES,
  frame: NO_FRAMES,
  frames: NO_FRAMES,
  mainFrame: NO_FRAMES,
  tap: 'use click()',
  dispatchEvent: 'use click(), fill() or press()',
  video: NO_PIXELS,
  touchscreen: 'use click()',
  request: NO_EVENTS,
};

export const LOCATOR_HINTS: Readonly<Record<string, string>> = {
  evaluate: NO_PAGE_JS,
  evaluateAll: NO_PAGE_JS,
  evaluateHandle: NO_PAGE_JS,
  elementHandle: 'use the locator itself; element handles are not available',
  elementHandles: 'use locator.all()',
  innerHTML: 'use innerText() or textContent()',
  boundingBox: NO_PIXELS,
  tap: 'use click()',
  dispatchEvent: 'use click(), fill() or press()',
  blur: 'press Tab with page.keyboard.press("Tab")',
  highlight: 'not available in browser_run',
  frameLocator: NO_FRAMES,
  contentFrame: NO_FRAMES,
  and: 'chain locator(...) or use filter({ hasText })',
  or: 'run two locators and check count()',
  page: 'use the global page',
  ariaSnapshot: 'use locator.snapshot() (this element only) or page.snapshot()',
};

export const KEYBOARD_HINTS: Readonly<Record<string, string>> = {
  down: 'use page.keyboard.press("Shift+A") style chords',
  up: 'use page.keyboard.press("Shift+A") style chords',
  insertText: 'use page.keyboard.type(text)',
};

/** page.mouse covers move, click, dblclick, down, up and wheel (viewport CSS pixels). */
export const MOUSE_HINTS: Readonly<Record<string, string>> = {};

/** The global `context` (also `page.context()`): the session's routes and cookies. */
export const CONTEXT_HINTS: Readonly<Record<string, string>> = {
  newPage: MANAGED,
  pages: MANAGED,
  close: MANAGED,
  browser: MANAGED,
  storageState: 'use browser_state_save (a whole saved state) or context.cookies()',
  addInitScript: NO_PAGE_JS,
  exposeFunction: NO_PAGE_JS,
  exposeBinding: NO_PAGE_JS,
  setExtraHTTPHeaders: 'use context.route(url, route => route.continue({ headers }))',
  setOffline: 'use browser_emulate { offline }',
  setGeolocation: 'use browser_emulate { geolocation }',
  grantPermissions: 'use browser_emulate { geolocation } (it grants the permission)',
  on: NO_EVENTS,
  once: NO_EVENTS,
  off: NO_EVENTS,
  waitForEvent: NO_EVENTS,
  request: NO_EVENTS,
  routeFromHAR: 'use one context.route(url, handler) per response',
  routeWebSocket: 'WebSocket routes are not available in browser_run',
};

const ONCE = 'a route handler runs once, at registration: call route.fulfill, route.abort or route.continue';

/** The `route` a handler receives (a recorder; see page.route in docs/code-mode.md). */
export const ROUTE_HINTS: Readonly<Record<string, string>> = {
  fetch: ONCE,
};
