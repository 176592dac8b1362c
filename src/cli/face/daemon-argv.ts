import { clientSettings } from '../../config/client-settings.js';
import { settingFlagKind } from '../../config/setting-flags.js';
import { usageOutput } from './answer.js';
import { commandWordAt, SESSION_NAME, wordFirst } from './argv.js';
import { actionOf, commandHelp, parseCommand, UsageError } from './commands.js';
import type { ArgvAnswer, ArgvRequest, CliRequest } from './protocol.js';

/**
 * The daemon's half of the warm thin client (thin-client.cts): the command line read with the
 * command table exactly as the full client reads it (src/cli/face/client.ts, `runCommand`), up to
 * the request it would send. What only the full client does — setting flags (the whole loader
 * checks them), starting a daemon, installing the skill, a default it must refuse with the loader's
 * words — goes back to it as `fallback`, before anything ran.
 */
export type ArgvOutcome = { answer: ArgvAnswer } | { request: CliRequest; json: boolean };

const FALLBACK = { answer: { fallback: true } } as const;

/** The command's stdin is needed and the client has not sent it yet. */
class StdinWanted extends Error {}

export function readArgvRequest(request: ArgvRequest): ArgvOutcome {
  try {
    return outcome(request);
  } catch (error) {
    if (error instanceof StdinWanted) return { answer: { stdin: true } };
    if (error instanceof UsageError) return { answer: usageOutput(error.message) };
    return FALLBACK; // the full client fails the same way, where it always did
  }
}

function outcome(request: ArgvRequest): ArgvOutcome {
  const word = commandWordAt(request.argv, settingFlagKind);
  if (word === undefined) return FALLBACK;
  const readStdin = (): string | undefined => {
    if (request.stdin === undefined) throw new StdinWanted();
    return request.stdin ?? undefined;
  };
  const parsed = parseCommand(wordFirst(request.argv, word), request.cwd, readStdin);
  if (parsed.help) return { answer: { exit: 0, stdout: commandHelp(parsed.spec), stderr: '' } };
  if (parsed.configArgs.length > 0) return FALLBACK;
  const settings = clientSettings(request.env);
  if (settings === undefined) return FALLBACK;
  const session = parsed.session ?? settings.cliSession;
  if (!SESSION_NAME.test(session))
    return { answer: usageOutput('-s: a session name is 1-64 letters, digits, _ . -') };
  const action = actionOf(parsed);
  if (action.kind === 'skill-install' || action.kind === 'daemon-start' || action.kind === 'daemon-restart')
    return FALLBACK;
  return { request: { session, action, configArgs: [] }, json: parsed.json };
}
