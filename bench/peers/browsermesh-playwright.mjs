// BrowserMesh with the playwright provider: the same adapter and flows as the local one, its
// sessions on a `playwright run-server` on 127.0.0.1 (bench/lib/playwright-server.mjs), every
// connection of the remote browser dialed back through BrowserMesh's guard. Its checkout rows sit
// next to the local ones, so the cost of the remote connection and the tunnel is read off the table.

import { browserMesh } from './browsermesh.mjs';

export const PLAYWRIGHT_PROVIDER_LABEL = 'BrowserMesh (playwright provider)';

/** The contender for a run-server at `endpoint` (ws://127.0.0.1:PORT/). */
export function browserMeshOnPlaywrightServer(endpoint) {
  if (new URL(endpoint).hostname !== '127.0.0.1') throw new Error('the bench uses loopback servers only');
  return {
    ...browserMesh,
    id: 'browsermesh-playwright',
    label: PLAYWRIGHT_PROVIDER_LABEL,
    serverSpec(options) {
      const spec = browserMesh.serverSpec.call(this, options);
      return {
        ...spec,
        env: {
          ...spec.env,
          BROWSERMESH_BROWSER_PROVIDER: 'playwright',
          BROWSERMESH_PLAYWRIGHT_ENDPOINT: endpoint,
        },
      };
    },
  };
}
