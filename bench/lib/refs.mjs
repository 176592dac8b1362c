// Finding an element's ref in each server's snapshot text, the way an agent reads it: by role and
// accessible name. Each format gets one parser; all return the ref as the server wants it back.

/**
 * @typedef {{ role: string, name: string, ref: string, line: string }} SnapshotNode
 */

// BrowserMesh:   [button @e5] Submit      [searchbox @e23 value="water"] Search
// and sibling groups on one line:   [link] @e2 Home @e3 Cart (0) @e4 Login
const BROWSERMESH_LINE = /^\s*\[([a-z-]+)([^\]]*)\]\s?(.*)$/;
const BROWSERMESH_GROUP_ITEM = /(@e\d+) (.*?)(?= @e\d+ |$)/g;
// @playwright/mcp:   - button "Search" [ref=e17] [cursor=pointer]
const PLAYWRIGHT_LINE = /^\s*- ([a-z-]+)(?: "((?:[^"\\]|\\.)*)")?(.*?)\[ref=([a-z0-9]+)\]/;
// chrome-devtools-mcp:   uid=1_17 searchbox "Search"
const DEVTOOLS_LINE = /uid=(\S+) ([a-zA-Z-]+)(?: "((?:[^"\\]|\\.)*)")?/;
// The shell CLIs' aria YAML, the ref inside any bracket group right after the name:
//   playwright-cli:  - textbox "Full name" [ref=f2e31]   (after a navigation refs carry an f<N> prefix)
//   agent-browser:   - textbox "Full name" [required, ref=e16]   - heading "Hi" [level=1, ref=e5]
const ARIA_CLI_LINE = /^\s*- ([a-z-]+)(?: "((?:[^"\\]|\\.)*)")?((?:\s*\[[^\]]*\])*)/;
const ARIA_CLI_REF = /[[,\s]ref=([a-z0-9]+)[\],]/;

/** @returns {SnapshotNode[]} */
export function parseBrowserMesh(text) {
  const nodes = [];
  for (const line of text.split('\n')) {
    const m = BROWSERMESH_LINE.exec(line);
    if (!m) continue;
    const [, role, inside, rest] = m;
    const ref = /@e\d+/.exec(inside)?.[0];
    if (ref) {
      // An element inside running text carries its name quoted in the brackets: [link @e8 "Water Bottle"] $15.00
      const quoted = /\s("(?:[^"\\]|\\.)*")$/.exec(inside)?.[1];
      nodes.push({ role, ref, name: quoted ? JSON.parse(quoted) : cleanBrowserMeshName(rest), line });
    } else if (/^@e\d+ /.test(rest)) {
      for (const item of rest.matchAll(BROWSERMESH_GROUP_ITEM))
        nodes.push({ role, ref: item[1], name: item[2].trim(), line });
    }
  }
  return nodes;
}

/** The accessible name at the start of the rest of a BrowserMesh line (values follow it after ` = ` or `: `). */
function cleanBrowserMeshName(rest) {
  let name = rest.trim();
  if (name.startsWith('"')) {
    const end = name.indexOf('"', 1);
    if (end > 0) return name.slice(1, end);
  }
  name = name.replace(/\s+(=|:)\s.*$/, '');
  return name;
}

/** @returns {SnapshotNode[]} */
export function parsePlaywright(text) {
  const nodes = [];
  for (const line of text.split('\n')) {
    const m = PLAYWRIGHT_LINE.exec(line);
    if (m) nodes.push({ role: m[1], name: (m[2] ?? '').replace(/\\"/g, '"'), ref: m[4], line });
  }
  return nodes;
}

/** @returns {SnapshotNode[]} */
export function parseDevtools(text) {
  const nodes = [];
  for (const line of text.split('\n')) {
    const m = DEVTOOLS_LINE.exec(line);
    if (m) nodes.push({ ref: m[1], role: m[2], name: (m[3] ?? '').replace(/\\"/g, '"'), line });
  }
  return nodes;
}

/** playwright-cli and agent-browser snapshots (see ARIA_CLI_LINE); lines without a ref are skipped. */
export function parseAriaCli(text) {
  const nodes = [];
  for (const line of text.split('\n')) {
    const m = ARIA_CLI_LINE.exec(line);
    const ref = m && ARIA_CLI_REF.exec(m[3])?.[1];
    if (ref) nodes.push({ role: m[1], name: (m[2] ?? '').replace(/\\"/g, '"'), ref, line });
  }
  return nodes;
}

/**
 * The ref of the one node with this role and name (exact name first, then a unique prefix match),
 * or a thrown error that quotes what the snapshot did contain for that role.
 */
export function findRef(nodes, role, name, server = 'snapshot') {
  const withRole = nodes.filter((n) => n.role === role);
  const exact = withRole.filter((n) => n.name === name);
  if (exact.length >= 1) return exact[0].ref;
  const prefix = withRole.filter((n) => n.name.startsWith(name));
  if (prefix.length >= 1) return prefix[0].ref;
  const seen = withRole
    .slice(0, 8)
    .map((n) => JSON.stringify(n.name))
    .join(', ');
  throw new Error(`${server}: no ${role} named ${JSON.stringify(name)} (has: ${seen || 'none'})`);
}
