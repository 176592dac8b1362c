import { accessSync, constants } from 'node:fs';
import { loadChromium } from './playwright-loader.js';

export interface ChromiumCandidate {
  source: 'explicit' | 'playwright' | 'system';
  path: string;
  found: boolean;
}

const SYSTEM_PATHS: Record<string, string[]> = {
  linux: [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/snap/bin/chromium',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/opt/google/chrome/chrome',
  ],
  darwin: [
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
  ],
  win32: [
    'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
    'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe',
  ],
};

/** The places a Chromium is looked for, in order: explicit path, Playwright's browsers, the system. */
export async function chromiumCandidates(explicitPath: string): Promise<ChromiumCandidate[]> {
  const out: ChromiumCandidate[] = [];
  if (explicitPath !== '')
    out.push({ source: 'explicit', path: explicitPath, found: isExecutable(explicitPath) });
  try {
    const managed = (await loadChromium()).executablePath();
    if (managed) out.push({ source: 'playwright', path: managed, found: isExecutable(managed) });
  } catch {
    // playwright-core throws when it has no build for this platform; fall through to the system.
  }
  for (const path of SYSTEM_PATHS[process.platform] ?? []) {
    out.push({ source: 'system', path, found: isExecutable(path) });
  }
  return out;
}

/**
 * The Chromium to launch. An explicit path that does not exist is an error, never silently
 * replaced by another browser.
 */
export async function findChromium(explicitPath: string): Promise<ChromiumCandidate | undefined> {
  const candidates = await chromiumCandidates(explicitPath);
  if (explicitPath !== '') return candidates[0]?.found ? candidates[0] : undefined;
  return candidates.find((candidate) => candidate.found);
}

/** The exact command a user can run to get a Chromium on this machine. */
export function installHint(): string {
  if (process.platform === 'linux') {
    return 'apt-get install -y chromium (Debian/Ubuntu, as root), or: npx playwright install chromium';
  }
  return 'npx playwright install chromium';
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
