import { randomBytes } from 'node:crypto';
import { mkdir, realpath } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { invalidArgument } from '../../errors.js';

/**
 * Where a recording goes: always directly inside `outputDir`. The agent may choose a plain file name
 * (`checkout.avi`); separators, `..`, absolute paths and control characters are refused, so no path
 * can lead out. The writer creates the file with O_EXCL, so an existing file (or a planted symlink)
 * is never overwritten.
 */
export async function resolveOutputPath(outputDir: string, requested: string | undefined): Promise<string> {
  const name =
    requested ??
    `recording-${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}.avi`;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
  if (name.length === 0 || name.length > 120 || /[\u0000-\u001f/\\:]/.test(name) || name.startsWith('.')) {
    throw invalidArgument('outputPath', 'must be a plain file name such as checkout.avi (no folders)');
  }
  const withExt = extname(name) === '' ? `${name}.avi` : name;
  if (extname(withExt).toLowerCase() !== '.avi') throw invalidArgument('outputPath', 'must end in .avi');
  await mkdir(outputDir, { recursive: true });
  return join(await realpath(outputDir), withExt);
}

/** The subtitle file next to a recording: same name, `.srt`. */
export function captionPathFor(videoPath: string): string {
  return videoPath.slice(0, videoPath.length - extname(videoPath).length) + '.srt';
}
