import { createHash, randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import type { Config } from '../config/load.js';
import { BrowserMeshError, ErrorCodes } from '../errors.js';
import { corrupted, errnoOf, ioError, notFound, quotaError } from './errors.js';
import { fromFileText, toFileText, type StorageState } from './format.js';
import { ensureKeptFolder, KEPT_FOLDER, keptQuotaError, keptUsage } from './kept-files.js';
import { Mutex } from './mutex.js';
import { checkStateId, STATE_ID_PATTERN } from './state-id.js';

export interface StateStoreOptions {
  dataDir: string;
  enabled: boolean;
  maxStates: number;
  maxStateBytes: number;
  maxTotalBytes: number;
  /** HTTP clients' identity: its states (and quotas) are kept apart from every other principal's. */
  principal?: string;
}

export interface SavedStateInfo {
  stateId: string;
  bytes: number;
  savedAt: string;
}

export interface SaveResult extends SavedStateInfo {
  cookies: number;
  origins: number;
  /** An older state with this id was replaced. */
  replaced: boolean;
}

export interface StateList {
  states: SavedStateInfo[];
  totalBytes: number;
  limits: { maxStates: number; maxStateBytes: number; maxTotalBytes: number };
}

const FILE_SUFFIX = '.json';

/**
 * One mutex per states directory for the whole process: stores built separately (one MCP server per
 * HTTP client, a library user next to them) still take turns on the same files.
 */
const DIRECTORY_MUTEXES = new Map<string, Mutex>();

function mutexFor(statesDir: string): Mutex {
  let mutex = DIRECTORY_MUTEXES.get(statesDir);
  if (!mutex) DIRECTORY_MUTEXES.set(statesDir, (mutex = new Mutex()));
  return mutex;
}

/**
 * Saved browser state under `<dataDir>/states/<id>.json`. Every mutation runs under one mutex: quota
 * checks (count, then bytes of this state, then total bytes) and the atomic temp-file + rename that
 * follows are one step, so a refused save leaves the old state untouched. Files are 0600 in 0700
 * directories; existing files are size-checked and read within the limit before any parsing. The
 * store never logs, and its errors never carry state content or paths.
 */
export class StateStore {
  private readonly mutex: Mutex;
  private readonly statesDir: string;

  constructor(private readonly options: StateStoreOptions) {
    // A principal's states live apart, under a digest of its name (never the name itself in a path).
    this.statesDir =
      options.principal === undefined
        ? resolve(options.dataDir, 'states')
        : resolve(options.dataDir, 'principals', principalDirName(options.principal), 'states');
    this.mutex = mutexFor(this.statesDir);
  }

  get enabled(): boolean {
    return this.options.enabled;
  }

  /** Throws PERSISTENCE_DISABLED when persistence is off; validates the id (INVALID_ARGUMENT). */
  check(stateId?: string): void {
    if (!this.options.enabled) {
      throw new BrowserMeshError(
        ErrorCodes.PERSISTENCE_DISABLED,
        'Saving browser state is disabled by configuration',
        {
          recoveryHint:
            'Start BrowserMesh without --no-persistence (BROWSERMESH_PERSISTENCE=true) to use saved states.',
        },
      );
    }
    if (stateId !== undefined) checkStateId(stateId);
  }

  async save(stateId: string, state: StorageState): Promise<SaveResult> {
    this.check(stateId);
    const savedAt = new Date();
    const text = toFileText(state, savedAt);
    const bytes = Buffer.byteLength(text);
    return this.mutex.run(async () => {
      await this.ensureDirs();
      const inventory = await this.inventory();
      const existing = inventory.get(stateId);
      const { maxStates, maxStateBytes, maxTotalBytes } = this.options;
      if (existing === undefined && inventory.size >= maxStates) {
        throw quotaError(`At most ${maxStates} states may be saved`, 'maxSavedStates', maxStates);
      }
      if (bytes > maxStateBytes) {
        throw quotaError(
          `The state is ${bytes} bytes, over the ${maxStateBytes}-byte limit`,
          'maxStateBytes',
          maxStateBytes,
        );
      }
      // Kept session files share the total with the states (kept-files.ts).
      const kept = (await keptUsage(this.keptDir)).bytes;
      const total = sum(inventory.values()) - (existing ?? 0) + bytes + kept;
      if (total > maxTotalBytes) {
        throw quotaError(
          `Saving would bring all states to ${total} bytes, over the ${maxTotalBytes}-byte limit`,
          'maxStateTotalBytes',
          maxTotalBytes,
        );
      }
      await this.writeAtomically(stateId, text);
      return {
        stateId,
        bytes,
        savedAt: savedAt.toISOString(),
        cookies: state.cookies.length,
        origins: state.origins.length,
        replaced: existing !== undefined,
      };
    });
  }

  /** The saved storage state: STATE_NOT_FOUND, LIMIT_EXCEEDED (file over the limit) or STATE_CORRUPTED. */
  async load(stateId: string): Promise<StorageState> {
    this.check(stateId);
    await this.assertRealDir(true);
    const max = this.options.maxStateBytes;
    let handle: fs.FileHandle;
    try {
      // O_NOFOLLOW: a symlink planted in the states directory is refused, never followed.
      handle = await fs.open(this.pathOf(stateId), constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') throw notFound(stateId);
      throw corrupted(stateId, error);
    }
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw corrupted(stateId);
      if (info.size > max)
        throw quotaError(
          `Saved state ${stateId} is ${info.size} bytes, over the ${max}-byte limit`,
          'maxStateBytes',
          max,
        );
      // Read at most max + 1 bytes, so a file that grew after the size check is still caught.
      const buffer = Buffer.alloc(Math.min(info.size, max) + 1);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      if (bytesRead > max)
        throw quotaError(`Saved state ${stateId} is over the ${max}-byte limit`, 'maxStateBytes', max);
      const state = fromFileText(decodeUtf8(buffer.subarray(0, bytesRead)) ?? '');
      if (!state) throw corrupted(stateId);
      return state;
    } finally {
      await handle.close().catch(() => undefined);
    }
  }

  async list(): Promise<StateList> {
    this.check();
    const inventory = await this.inventory(true);
    const states = [...inventory.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([stateId, entry]) => ({ stateId, bytes: entry.size, savedAt: entry.mtime.toISOString() }));
    const { maxStates, maxStateBytes, maxTotalBytes } = this.options;
    return {
      states,
      totalBytes: sum(states.map((s) => s.bytes)),
      limits: { maxStates, maxStateBytes, maxTotalBytes },
    };
  }

  /**
   * Keeps a session file beside the saved states (browser_files action=keep): under the same mutex,
   * checks the kept-file count (`maxSavedStates`) and the shared total (`maxStateTotalBytes`), then lets
   * `copyInto` copy the file into the kept folder. Returns the kept name and its place relative to
   * the data directory (never an absolute path).
   */
  async keepFile(
    bytes: number,
    copyInto: (dir: string) => Promise<string>,
  ): Promise<{ name: string; bytes: number; path: string }> {
    this.check();
    return this.mutex.run(async () => {
      await this.ensureDirs();
      await ensureKeptFolder(this.keptDir);
      const kept = await keptUsage(this.keptDir);
      const { maxStates, maxTotalBytes } = this.options;
      if (kept.count >= maxStates) {
        throw keptQuotaError(`At most ${maxStates} files may be kept`, 'maxSavedStates', maxStates);
      }
      const total = sum((await this.inventory()).values()) + kept.bytes + bytes;
      if (total > maxTotalBytes) {
        throw keptQuotaError(
          `Keeping would bring saved states and kept files to ${total} bytes, over the ${maxTotalBytes}-byte limit`,
          'maxStateTotalBytes',
          maxTotalBytes,
        );
      }
      const name = basename(await copyInto(this.keptDir));
      return { name, bytes, path: relative(this.options.dataDir, join(this.keptDir, name)) };
    });
  }

  private get keptDir(): string {
    return join(this.statesDir, KEPT_FOLDER);
  }

  /** Idempotent: removing an unknown id reports removed=false. */
  async remove(stateId: string): Promise<{ stateId: string; removed: boolean }> {
    this.check(stateId);
    return this.mutex.run(async () => {
      await this.assertRealDir(true);
      try {
        await fs.unlink(this.pathOf(stateId));
        return { stateId, removed: true };
      } catch (error) {
        if (errnoOf(error) === 'ENOENT') return { stateId, removed: false };
        throw ioError('Could not remove the saved state', error);
      }
    });
  }

  /**
   * A states directory that is a symlink (or not a directory) would send reads and writes somewhere
   * else: it is refused, never followed (lstat does not follow the last link). A missing one is fine
   * for reads.
   */
  private async assertRealDir(missingOk: boolean): Promise<void> {
    let info: Awaited<ReturnType<typeof fs.lstat>>;
    try {
      info = await fs.lstat(this.statesDir);
    } catch (error) {
      if (missingOk && errnoOf(error) === 'ENOENT') return;
      throw ioError('Could not read the saved states', error);
    }
    if (info.isDirectory()) return;
    throw new BrowserMeshError(
      ErrorCodes.PERSISTENCE_DISABLED,
      'The states directory is not a real directory',
      {
        details: { reason: 'states_dir_not_directory' },
        recoveryHint: 'The server operator must replace it with a plain directory.',
      },
    );
  }

  private pathOf(stateId: string): string {
    return join(this.statesDir, `${stateId}${FILE_SUFFIX}`);
  }

  private async ensureDirs(): Promise<void> {
    await this.assertRealDir(true);
    try {
      await fs.mkdir(this.options.dataDir, { recursive: true, mode: 0o700 });
      await fs.mkdir(this.statesDir, { recursive: true, mode: 0o700 });
    } catch (error) {
      throw ioError('Could not prepare the data directory', error);
    }
    await this.assertRealDir(false);
    try {
      // The states directory is BrowserMesh's own: keep it private even if it was created otherwise.
      await fs.chmod(this.statesDir, 0o700);
    } catch (error) {
      throw ioError('Could not prepare the data directory', error);
    }
  }

  /** Saved states by id: regular files named `<valid id>.json` only (temp files and strays ignored). */
  private inventory(withTimes: true): Promise<Map<string, { size: number; mtime: Date }>>;
  private inventory(): Promise<Map<string, number>>;
  private async inventory(withTimes = false): Promise<Map<string, number | { size: number; mtime: Date }>> {
    await this.assertRealDir(true);
    let names: string[];
    try {
      names = await fs.readdir(this.statesDir);
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return new Map();
      throw ioError('Could not read the saved states', error);
    }
    const out = new Map<string, number | { size: number; mtime: Date }>();
    for (const name of names) {
      if (!name.endsWith(FILE_SUFFIX)) continue;
      const id = name.slice(0, -FILE_SUFFIX.length);
      if (!STATE_ID_PATTERN.test(id)) continue;
      const info = await fs.lstat(join(this.statesDir, name)).catch(() => undefined);
      if (!info?.isFile()) continue;
      out.set(id, withTimes ? { size: info.size, mtime: info.mtime } : info.size);
    }
    return out;
  }

  private async writeAtomically(stateId: string, text: string): Promise<void> {
    const temp = join(this.statesDir, `.${stateId}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      const handle = await fs.open(temp, 'wx', 0o600);
      try {
        await handle.writeFile(text);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.rename(temp, this.pathOf(stateId));
    } catch (error) {
      await fs.unlink(temp).catch(() => undefined);
      throw ioError('Could not write the saved state', error);
    }
  }
}

function principalDirName(principal: string): string {
  return createHash('sha256').update(principal, 'utf8').digest('hex').slice(0, 32);
}

export function stateStoreFromConfig(config: Config, principal?: string): StateStore {
  return new StateStore({
    dataDir: config.dataDir,
    ...(principal === undefined ? {} : { principal }),
    enabled: config.persistence,
    maxStates: config.maxSavedStates,
    maxStateBytes: config.maxStateBytes,
    maxTotalBytes: config.maxStateTotalBytes,
  });
}

function sum(values: Iterable<number>): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}

function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
