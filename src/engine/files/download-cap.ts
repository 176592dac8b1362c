import { promises as fs } from 'node:fs';
import type { Download } from 'playwright-core';

/** How often a landing download's size is looked at; at loopback speed ~10 MB land between looks. */
const POLL_MS = 50;

/**
 * Stops a download while it lands once it outgrows `roomBytes()`: Playwright reports a download only
 * when it has finished, so without this a quota of a few MiB let hundreds of MB land in the browser's
 * download folder first. Chromium writes `<path>.crdownload` and renames it at the end; both are
 * watched. Calls `onOver` once, cancels the download and deletes what landed. Returns a stop function.
 * A browser on another machine (cdp, selenium) writes nothing here: then the size is unknown and
 * the quota is applied when the file is saved, as before.
 */
export function capDownload(download: Download, roomBytes: () => number, onOver: () => void): () => void {
  const path = artifactPath(download);
  if (path === undefined) return () => undefined;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const look = async (): Promise<void> => {
    const bytes = Math.max(await sizeOf(`${path}.crdownload`), await sizeOf(path));
    if (stopped) return;
    if (bytes > roomBytes()) {
      stopped = true;
      onOver();
      await download.cancel().catch(() => undefined);
      await Promise.all([fs.rm(`${path}.crdownload`, { force: true }), fs.rm(path, { force: true })]);
      return;
    }
    timer = setTimeout(() => void look(), POLL_MS);
  };
  void look();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

async function sizeOf(path: string): Promise<number> {
  const stat = await fs.lstat(path).catch(() => undefined);
  return stat?.isFile() ? stat.size : 0;
}

/**
 * Where Playwright's driver has Chromium write this download (`<downloadsPath>/<guid>`). Not public
 * API: the client's artifact carries it as `absolutePath`; when that shape changes this returns
 * undefined and only the save-time quota check remains.
 */
function artifactPath(download: Download): string | undefined {
  const artifact: unknown = Reflect.get(download, '_artifact');
  if (typeof artifact !== 'object' || artifact === null) return undefined;
  const init: unknown = Reflect.get(artifact, '_initializer');
  if (typeof init !== 'object' || init === null) return undefined;
  const path: unknown = Reflect.get(init, 'absolutePath');
  return typeof path === 'string' && path !== '' ? path : undefined;
}
