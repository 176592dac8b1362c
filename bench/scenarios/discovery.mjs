// discovery: what a client puts in the model's context before the first call — the tools/list
// payload (bytes, o200k tokens, tool count) and the connect-time instructions. BrowserMesh is
// measured per tool profile (--tools), the peers with their defaults.

import { pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import { withServer } from '../lib/mcp.mjs';
import { countTokens } from '../lib/tokens.mjs';
import { CLI_PATH } from '../peers/browsermesh.mjs';
import { attempt } from './attempt.mjs';

/** Profiles as the built server declares them (dist/config/settings.js). */
async function browserMeshProfiles(quick) {
  const settings = join(dirname(CLI_PATH), '../config/settings.js');
  const { TOOL_PROFILES } = await import(pathToFileURL(settings).href);
  const single = quick ? ['core'] : [...TOOL_PROFILES];
  return [undefined, ...single, ...(quick ? [] : [TOOL_PROFILES.join(',')])];
}

function describeListing(listed, instructions) {
  return {
    tools: listed.tools.length,
    bytes: listed.bytes,
    tokens: listed.tokens,
    bytesPerTool: listed.tools.length ? listed.bytes / listed.tools.length : undefined,
    instructionsChars: instructions.length,
    instructionsTokens: countTokens(instructions),
    names: listed.names,
  };
}

/** The default listing comes from the contender's long-lived server; other profiles start their own. */
async function measure(ctx, contender, profile) {
  if (profile === undefined) {
    const { conn } = await ctx.session(contender);
    return describeListing(await conn.listTools(), conn.instructions);
  }
  const spec = contender.serverSpec({ tmpDir: ctx.scratch(`${contender.id}-list`), profile });
  return withServer(spec, async (conn) => describeListing(await conn.listTools(), conn.instructions));
}

export const discovery = {
  name: 'discovery',
  title: 'Discovery: tools/list size',
  async run(ctx) {
    const rows = [];
    for (const contender of ctx.contenders) {
      const profiles =
        contender.id === 'browsermesh' ? await browserMeshProfiles(ctx.options.quick) : [undefined];
      for (const profile of profiles) {
        const base = { contender: contender.label, profile: profile ?? 'default' };
        rows.push(await attempt(base, () => measure(ctx, contender, profile)));
      }
    }
    return { rows };
  },
};
