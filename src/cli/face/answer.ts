import type { CliResponse, ShellOutput } from './protocol.js';

/**
 * What a shell command prints and its exit status, from the daemon's answer. One function for both
 * clients (the warm thin client gets it rendered by the daemon, the full client renders it itself),
 * so the two paths cannot print differently.
 */
export function renderResponse(response: CliResponse, json: boolean): ShellOutput {
  let stderr = response.note ? `note: ${response.note}\n` : '';
  if (!response.ok) {
    stderr += `${response.code}: ${response.message}\n`;
    if (response.hint) stderr += `hint: ${response.hint}\n`;
    const stdout = json
      ? `${JSON.stringify(response.structured ?? { code: response.code, message: response.message })}\n`
      : '';
    // A bad argument the tool refused is the caller's usage error, like one the parser refused.
    return { exit: response.code === 'INVALID_ARGUMENT' ? 2 : 1, stdout, stderr };
  }
  const out = json ? JSON.stringify(response.structured ?? {}) : response.text;
  return {
    // A result that reports a check that did not pass (a replay) prints as usual, with status 1.
    exit: failedCheck(response.structured) ? 1 : 0,
    stdout: out === '' ? '' : out.endsWith('\n') ? out : `${out}\n`,
    stderr,
    ...(response.file ? { file: response.file } : {}),
  };
}

function failedCheck(structured: unknown): boolean {
  return (
    typeof structured === 'object' &&
    structured !== null &&
    'passed' in structured &&
    structured.passed === false
  );
}

/** A usage error: exit status 2, the message on stderr. */
export function usageOutput(message: string): ShellOutput {
  return { exit: 2, stdout: '', stderr: `USAGE: ${message}\n` };
}
