#!/usr/bin/env node
// AgentBrowser without any framework: two conversation threads log in to the project's demo shop as
// two different users at the same time, act on refs from their snapshots, and stay isolated. This is
// what an agent framework does through the same tools. Needs a build (`npm run build`) and a Chromium
// (`browsermesh --doctor` says where it looks).
//
//   node examples/agent-browser.mjs
import { AgentBrowser } from 'browsermesh';
import { startFixtureServer } from '../test/fixtures/server.mjs';

const site = await startFixtureServer();
const browser = new AgentBrowser({ headless: true, viewport: { width: 1280, height: 720 }, scope: 'thread' });
const tools = browser.getTools();
const say = (line) => process.stdout.write(`${line}\n`);

/** One tool call in one thread; an error result is data, printed and thrown here to stop the demo. */
async function call(threadId, name, input) {
  const result = await tools[name].execute(input, { threadId });
  const shown = JSON.stringify(result).slice(0, 100);
  say(`${threadId.padEnd(7)} ${name.padEnd(18)} ${shown}`);
  if (result.error) throw new Error(`${name}: ${result.error.code} ${result.error.message}`);
  return result;
}

/** The ref of `[role @eN] name` in a snapshot (also in grouped lines like `[link] @e2 Home · @e3 Cart`). */
function refOf(snapshot, role, name) {
  for (const match of snapshot.matchAll(/\[([\w-]+)( @e\d+)?([^\]]*)\]([^[\n]*)/g)) {
    const [, foundRole, ref, inner, after] = match;
    if (foundRole !== role) continue;
    const label = /(?:^|\s)"([^"]*)"\s*$/.exec(inner)?.[1] ?? after.trim();
    if (ref && label === name) return ref.trim();
    const grouped = after.split(/(@e\d+)/);
    for (let i = 1; i < grouped.length; i += 2)
      if (grouped[i + 1].replace(/\s*·\s*$/, '').trim() === name) return grouped[i];
  }
  throw new Error(`no [${role}] ${name} on the page`);
}

async function logIn(threadId, user) {
  await call(threadId, 'browser_goto', { url: site.url('/shop/login') });
  const { snapshot } = await call(threadId, 'browser_snapshot', { interactiveOnly: true });
  await call(threadId, 'browser_type', { ref: refOf(snapshot, 'textbox', 'Username'), text: user });
  await call(threadId, 'browser_type', { ref: refOf(snapshot, 'textbox', 'Password'), text: `${user}-pass` });
  await call(threadId, 'browser_click', { ref: refOf(snapshot, 'button', 'Sign in') });
}

try {
  say(`AgentBrowser demo — shop at ${site.origin}; ${Object.keys(tools).length} tools\n`);
  await Promise.all([logIn('buyer', 'buyer'), logIn('admin', 'admin')]);
  for (const threadId of ['buyer', 'admin', 'guest']) {
    await call(threadId, 'browser_goto', { url: site.url('/shop/whoami') });
    const { value } = await call(threadId, 'browser_evaluate', {
      script: 'document.body.innerText',
      returnValue: true,
    });
    say(`        -> thread ${threadId} is signed in as ${JSON.parse(value).user ?? 'nobody'}`);
  }
  const shot = await call('buyer', 'browser_screenshot', {});
  say(`\nscreenshot: ${shot.width}x${shot.height} PNG, ${shot.bytes} bytes`);
} finally {
  await browser.close();
  await site.close();
}
