import { access, constants, mkdir } from 'node:fs/promises';
import type { Config } from '../config/load.js';
import { chromiumCandidates, findChromium, installHint } from '../engine/providers/find-chromium.js';
import { loadChromium } from '../engine/providers/playwright-loader.js';
import { localLaunchOptions, useChromiumSandbox } from '../engine/providers/local.js';
import { VERSIONS } from '../engine/versions.js';
import { urlPolicyFromConfig } from '../url-policy/index.js';
import { urlEnforcement } from '../url-policy/enforcement.js';
import { cdpOnThisMachine } from '../engine/providers/cdp.js';

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

/** Checks everything a session needs without speaking the protocol. Returns the exit status. */
export async function runDoctor(config: Config, write: (line: string) => void): Promise<number> {
  const checks: Check[] = [];
  const major = Number(process.versions.node.split('.')[0]);
  checks.push({ name: 'node', ok: major >= 20, detail: `v${process.versions.node} (>= 20 required)` });
  checks.push({
    name: 'playwright-core',
    ok: VERSIONS.playwright !== 'unknown',
    detail: VERSIONS.playwright,
  });
  checks.push(await checkBrowser(config));
  checks.push(checkUrlPolicy(config));
  if (config.persistence) checks.push(await checkDataDir(config.dataDir));
  write(`browsermesh ${VERSIONS.browsermesh} doctor\n`);
  for (const check of checks) write(`${check.ok ? 'ok  ' : 'FAIL'} ${check.name}: ${check.detail}\n`);
  const failed = checks.filter((check) => !check.ok).length;
  write(failed === 0 ? 'All checks passed.\n' : `${failed} check(s) failed.\n`);
  return failed === 0 ? 0 : 1;
}

async function checkBrowser(config: Config): Promise<Check> {
  if (config.provider !== 'local') {
    return {
      name: 'browser',
      ok: true,
      detail: `${config.provider} provider: the browser is reached remotely at session creation`,
    };
  }
  const found = await findChromium(config.executablePath);
  if (!found) return notFound(config.executablePath);
  const sandbox = useChromiumSandbox(config.chromiumSandbox);
  const how = `${config.headless ? 'headless' : 'headed'}, Chromium sandbox ${sandbox ? 'on' : 'off'}`;
  try {
    const browser = await (
      await loadChromium()
    ).launch(localLaunchOptions({ headless: config.headless, sandbox }, found.path, config.timeoutMs));
    const version = browser.version();
    const page = await browser.newPage();
    await page.setContent('<title>ok</title>');
    await browser.close();
    return {
      name: 'chromium',
      ok: true,
      detail: `${version} (${found.source}: ${found.path}) launched as sessions will (${how})`,
    };
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : 'unknown error';
    const hint = sandbox ? SANDBOX_HINT : '';
    return {
      name: 'chromium',
      ok: false,
      detail: `found at ${found.path} but failed to launch (${how}): ${reason}${hint}`,
    };
  }
}

/** Informational (never a failure): whether the browser is guarded, for the configured provider. */
function checkUrlPolicy(config: Config): Check {
  const info = urlEnforcement({
    provider: config.provider,
    policyActive: urlPolicyFromConfig(config).active,
    operatorProxy: config.proxyServer !== '',
    nodeGuard: config.guardHost !== '',
    endpointOnThisMachine: cdpOnThisMachine(config.cdpEndpoint, config.cdpGuard),
  });
  return { name: 'url policy', ok: true, detail: `${info.enforcement}, ${info.detail}` };
}

const SANDBOX_HINT =
  ". Chromium's sandbox could not start here: run as a non-root user where user namespaces are allowed (in a container: the seccomp profile shipped beside the Dockerfile), or set --chromium-sandbox off and isolate the process yourself";

/** No usable Chromium: a wrong explicit path is named as such, with any other Chromium found. */
async function notFound(explicitPath: string): Promise<Check> {
  const candidates = await chromiumCandidates(explicitPath);
  if (explicitPath !== '') {
    const other = candidates.find((candidate) => candidate.source !== 'explicit' && candidate.found);
    const instead = other
      ? `another Chromium was found at ${other.path} (${other.source}): point the setting there or unset it to use that one`
      : `and no other Chromium was found. Install one: ${installHint()}`;
    return {
      name: 'chromium',
      ok: false,
      detail: `the given executable path ${explicitPath} (--executable-path / BROWSERMESH_EXECUTABLE_PATH) does not exist or is not executable; ${instead}`,
    };
  }
  const looked = candidates.map((candidate) => candidate.path).join(', ');
  return {
    name: 'chromium',
    ok: false,
    detail: `not found (looked in: ${looked}). Install one: ${installHint()}`,
  };
}

async function checkDataDir(dir: string): Promise<Check> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await access(dir, constants.W_OK);
    return { name: 'data dir', ok: true, detail: 'writable' };
  } catch {
    return { name: 'data dir', ok: false, detail: 'not writable (set --data-dir or BROWSERMESH_DATA_DIR)' };
  }
}
