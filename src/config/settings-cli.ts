import { int, TOOL_PROFILES, type SettingSpec } from './setting-spec.js';

/** The shell face (`browsermesh open …`): its daemon, its default session and the tools it reaches. */
export const CLI_SETTINGS = [
  {
    key: 'cliSession',
    env: 'BROWSERMESH_SESSION',
    type: { kind: 'string', pattern: /^[\w.-]{1,64}$/, hint: '1-64 letters, digits, _ . -' },
    default: 'default',
    description: 'Shell commands: the named session used when a command has no -s NAME.',
  },
  {
    key: 'daemonIdleMs',
    env: 'BROWSERMESH_DAEMON_IDLE_MS',
    flag: 'daemon-idle-ms',
    type: int(1_000, 86_400_000),
    default: '1800000',
    description:
      'Shell commands: the background daemon closes its sessions and exits after this long without a command (ms).',
  },
  {
    key: 'daemonGraceMs',
    env: 'BROWSERMESH_DAEMON_GRACE_MS',
    flag: 'daemon-grace-ms',
    type: int(0, 3_600_000),
    default: '5000',
    description:
      'Shell commands: when the last session closes the daemon ends its browser, and exits this long after (ms) unless a command comes; as long as --daemon-idle-ms turns this off.',
  },
  {
    key: 'cliTools',
    env: 'BROWSERMESH_CLI_TOOLS',
    flag: 'cli-tools',
    type: { kind: 'list', values: TOOL_PROFILES },
    default: 'core,observability,persistence,code,files,pointer,watch,state,network',
    description: 'Shell commands: the tool profiles the daemon serves (add evaluate for `browsermesh eval`).',
  },
] as const satisfies readonly SettingSpec[];
