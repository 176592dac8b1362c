import { fileURLToPath } from 'node:url';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { BrowserMeshError, ErrorCodes } from '../errors.js';

/** How long a client that declared roots may take to answer `roots/list`. */
export const ROOTS_LIST_TIMEOUT_MS = 5000;

/**
 * The client's declared roots as local folders (file: URIs only). Asked per upload, not cached: a
 * client may change its roots at any time. A client without the roots capability declares none. A
 * client that declared roots but does not answer (in time, or at all) gets NOT_SUPPORTED with
 * `details.reason: "roots_unanswered"`, not an internal error: the fault is the client's, and
 * uploading by content or from `--upload-roots` still works.
 */
export async function clientRoots(server: Server, timeoutMs = ROOTS_LIST_TIMEOUT_MS): Promise<string[]> {
  if (!server.getClientCapabilities()?.roots) return [];
  let roots: Array<{ uri: string }>;
  try {
    roots = (await server.listRoots(undefined, { timeout: timeoutMs })).roots;
  } catch (error) {
    throw new BrowserMeshError(
      ErrorCodes.NOT_SUPPORTED,
      'The MCP client declares roots but did not answer roots/list',
      {
        details: { field: 'files', reason: 'roots_unanswered', timeoutMs },
        recoveryHint:
          'Upload by content ({name, mimeType, base64}), use a folder from --upload-roots, or fix the client so it answers roots/list.',
        cause: error,
      },
    );
  }
  return roots.flatMap((root) => {
    try {
      return root.uri.startsWith('file:') ? [fileURLToPath(root.uri)] : [];
    } catch {
      return [];
    }
  });
}
