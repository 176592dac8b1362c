import type { Browser } from 'playwright-core';

/**
 * The main process id of a browser this process launched, as Chromium itself reports it
 * (`SystemInfo.getProcessInfo`), asked once per browser: the guard of each of its sessions admits only
 * that process's tree (local-peer.ts). Undefined where the browser cannot say (not Chromium over CDP)
 * or where /proc cannot place a connection.
 */
const known = new WeakMap<Browser, Promise<number | undefined>>();

export function browserPid(browser: Browser): Promise<number | undefined> {
  // Without /proc (macOS, Windows) no connection could be placed in the tree: the same-user rule stays.
  if (process.platform !== 'linux') return Promise.resolve(undefined);
  let pid = known.get(browser);
  if (pid === undefined) {
    pid = ask(browser);
    known.set(browser, pid);
  }
  return pid;
}

async function ask(browser: Browser): Promise<number | undefined> {
  try {
    const session = await browser.newBrowserCDPSession();
    try {
      const { processInfo } = (await session.send('SystemInfo.getProcessInfo')) as {
        processInfo: { type: string; id: number }[];
      };
      return processInfo.find((info) => info.type === 'browser')?.id;
    } finally {
      await session.detach().catch(() => undefined);
    }
  } catch {
    return undefined;
  }
}
