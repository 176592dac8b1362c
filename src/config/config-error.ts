/** A configuration value was refused. `source` names the variable, flag or config-file key; the CLI exits with 2. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly source: string,
    message: string,
  ) {
    super(`${source}: ${message}`);
  }
}
