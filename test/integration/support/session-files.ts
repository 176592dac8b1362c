/** One tool call on some MCP client: `browser_files` with these arguments, its raw result. */
export type FilesCall = (args: Record<string, unknown>) => Promise<unknown>;

/**
 * A session file's whole bytes, read with `browser_files { action: "read" }` a slice at a time (a
 * binary slice comes back as an embedded resource, base64).
 */
export async function readSessionFile(
  call: FilesCall,
  sessionId: string,
  fileId: string,
  bytes: number,
): Promise<Buffer> {
  const parts: Buffer[] = [];
  let offset = 0;
  while (offset < bytes) {
    const read = (await call({ sessionId, action: 'read', fileId, offset, maxBytes: 1_048_576 })) as {
      content?: unknown;
      isError?: unknown;
    };
    if (read.isError) throw new Error(`browser_files read failed: ${JSON.stringify(read.content)}`);
    const blob = (read.content as Array<{ type: string; resource?: { blob?: string } }>).find(
      (c) => c.type === 'resource',
    )?.resource?.blob;
    const part = Buffer.from(blob ?? '', 'base64');
    if (part.length === 0) throw new Error('empty read');
    parts.push(part);
    offset += part.length;
  }
  return Buffer.concat(parts);
}
