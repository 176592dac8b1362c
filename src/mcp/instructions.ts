/**
 * The connect-time instructions: session addressing and error reporting only. BrowserMesh never asks
 * an agent to act for the project (no stars, no `gh` calls).
 */
export const AGENT_INSTRUCTIONS = [
  'BrowserMesh runs isolated browser sessions. There is no current session or tab:',
  '- Create one session per user, account, role, auth state or independent parallel workflow (browser_session_create returns sessionId and the initial pageId).',
  '- Pass sessionId (and pageId for page tools) on every call; a pageId belongs to one session only.',
  '- Operations on one session run in order; different sessions run in parallel. timeoutMs is one deadline, queue wait included.',
  '- Read pages with browser_snapshot and act on its @eN refs; a STALE_ELEMENT_REFERENCE means take a new snapshot.',
  'Errors come back as isError results with a stable code, a safe message and an operationId. If you report a reproducible BrowserMesh bug,',
  'include the steps, versions and error code, and never cookies, tokens, credentials, saved state, page content or internal URLs.',
].join('\n');

/**
 * Added with --dashboard: a desktop client's user never sees the server's stderr, so the agent says
 * where to watch. The URL itself may not be known yet when `initialize` is answered (port 0).
 */
export const DASHBOARD_INSTRUCTIONS =
  'A person can watch these sessions live in a dashboard: browser_runtime_info gives its URL (dashboard.url, never the token); tell your user once where to watch.';
