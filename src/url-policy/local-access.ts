import type { CDPSession } from 'playwright-core';
import { classifyAddress, normalizeHost, parseIp } from './address.js';
import { hostOf, type VerdictCache } from './verdict-cache.js';

/** Chromium's permission names for Local Network Access, newest first (older builds know fewer). */
const LOOPBACK_PERMISSIONS = ['local-network', 'loopback-network', 'local-network-access'];
const PRIVATE_PERMISSIONS = ['local-network', 'local-network-access'];

/**
 * A worker script the interceptor rewrote reaches Chromium as a response without an address, so
 * under Local Network Access its worker counts as public and may no longer open sockets to loopback
 * or private addresses its origin could reach. For a worker whose origin is itself loopback (or
 * private), that origin is granted local network access in its browser context: what Chromium would
 * have allowed the worker anyway. A public origin gets nothing. Granted once per context and origin.
 */
export class LocalAccess {
  private readonly granted = new Set<string>();

  constructor(
    private readonly cdp: CDPSession,
    private readonly verdicts: VerdictCache,
  ) {}

  async restore(url: string, frameId: string | undefined): Promise<void> {
    const target = hostOf(url);
    if (!target || !frameId) return;
    const verdict = await this.verdicts.check(target).catch(() => undefined);
    const address = verdict?.allowed ? verdict.address : undefined;
    const ip = parseIp(address ?? normalizeHost(target.host));
    const kind = ip ? classifyAddress(ip) : target.host === 'localhost' ? 'loopback' : undefined;
    if (kind !== 'loopback' && kind !== 'private') return;
    const info = await this.cdp.send('Target.getTargetInfo', { targetId: frameId }).catch(() => undefined);
    const browserContextId = info?.targetInfo.browserContextId;
    const origin = new URL(url).origin;
    const key = `${browserContextId ?? ''} ${origin}`;
    if (!browserContextId || this.granted.has(key)) return;
    this.granted.add(key);
    for (const name of kind === 'loopback' ? LOOPBACK_PERMISSIONS : PRIVATE_PERMISSIONS) {
      await this.cdp
        .send('Browser.setPermission', { permission: { name }, setting: 'granted', origin, browserContextId })
        .catch(() => undefined);
    }
  }
}
