import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './load.js';

function refused(argv: string[], env: Record<string, string> = {}): ConfigError {
  try {
    loadConfig(argv, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('configuration messages', () => {
  it("checks the time zone against the runtime's own list and names the source", () => {
    const flag = refused(['--timezone', 'Mars/Base']);
    expect(flag.source).toBe('--timezone');
    expect(flag.message).toMatch(/unknown time zone/);
    const env = refused([], { BROWSERMESH_TIMEZONE: 'Europe/Pariss' });
    expect(env.source).toBe('BROWSERMESH_TIMEZONE');
    expect(env.message).toContain('did you mean Europe/Paris?');
    for (const zone of ['Europe/Paris', 'UTC', 'America/Argentina/Buenos_Aires', 'US/Pacific', 'Etc/GMT+5'])
      expect(loadConfig(['--timezone', zone], {}).config.timezone).toBe(zone);
  });

  it('suggests the flag a typo meant', () => {
    expect(refused(['--devcie', 'Pixel 7']).message).toBe(
      '--devcie: unknown option; did you mean --device? (see --help)',
    );
    expect(refused(['--no-hedless']).message).toContain('did you mean --no-headless?');
    expect(refused(['--dcotor']).message).toContain('did you mean --doctor?');
    expect(refused(['--zzzzzzzz']).message).toBe('--zzzzzzzz: unknown option (see --help)');
  });

  it('never echoes a long or odd unknown flag', () => {
    const error = refused(['--token=hunter2secret-value-that-is-long']);
    expect(error.message).not.toContain('hunter2secret');
  });
});
