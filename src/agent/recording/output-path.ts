import { randomBytes } from 'node:crypto';
import { mkdir, realpath } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { invalidArgument } from '../../errors.js';

/**
 * Where a recording goes: always directly inside `outputDir`. The agent may choose a plain file name
 * (`checkout`, `checkout.mp4`); its extension is set by the format produced (`.mp4`, or `.avi` from
 * the frames encoder). Separators, `..`, absolute paths and control characters are refused, so no path
 * can lead out. The writer creates the file with O_EXCL, so an existing file (or a planted symlink)
 * is never overwritten.
 */
export async function resolveOutputPath(
  outputDir: string,
  requested: string | undefined,
  format: 'mp4' | 'avi',
): Promise<string> {
  const name =
    requested ??
    `recording-${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
  if (name.length === 0 || name.length > 120 || /[\u0000-\u001f/\\:]/.test(name) || name.startsWith('.')) {
    throw invalidArgument('outputPath', 'must be a plain file name such as checkout.mp4 (no folders)');
  }
  const ext = extname(name).toLowerCase();
  if (ext !== '' && ext !== '.mp4' && ext !== '.avi') throw invalidArgument('outputPath', 'must end in .mp4');
  const stem = ext === '' ? name : name.slice(0, -ext.length);
  await mkdir(outputDir, { recursive: true });
  return join(await realpath(outputDir), `${stem}.${format}`);
}

/** The subtitle file next to a recording: same name, `.srt`. */
export function captionPathFor(videoPath: string): string {
  return videoPath.slice(0, videoPath.length - extname(videoPath).length) + '.srt';
}
