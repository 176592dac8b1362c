import { UsageError, type CommandInput, type CommandSpec } from './command-spec.js';
import { pathFrom, tool } from './command-helpers.js';

/** Routes (browser_route, on the whole session) and emulation of the current tab (browser_emulate). */

const route: CommandSpec = {
  name: 'route',
  usage: '<pattern>',
  summary: "Mock or block the session's requests matching a URL glob (**/api/*) or /regexp/",
  details: [
    'Without --abort the request is fulfilled (--status, --body, --file, --content-type, --header),',
    'or, with only --header or --delay, continued. The URL policy still applies first.',
  ],
  options: [
    { name: 'status', value: 'N', help: 'HTTP status of the fulfilled response (default 200)' },
    { name: 'body', value: 'TEXT', help: 'response body' },
    { name: 'file', value: 'PATH', help: 'response body from a file under the upload roots' },
    { name: 'content-type', value: 'TYPE', help: 'content-type of the response' },
    { name: 'header', value: 'NAME: VALUE', repeat: true, help: 'a header to add (repeatable)' },
    { name: 'abort', help: 'fail the request instead' },
    { name: 'delay', value: 'MS', help: 'answer after this many ms' },
    { name: 'method', value: 'METHOD', help: 'only requests with this method' },
  ],
  build: (input) => {
    const url = input.take('pattern');
    input.done();
    const [body, file, contentType, method] = ['body', 'file', 'content-type', 'method'].map((name) =>
      input.text(name),
    );
    const status = input.int('status');
    const delayMs = input.int('delay');
    const headers = headersOf(input);
    if (input.flag('abort') && [body, file, contentType, status].some((v) => v !== undefined))
      throw new UsageError(
        'route: --abort cannot go with a response (--status, --body, --file, --content-type)',
      );
    const fulfil = [body, file, contentType, status].some((v) => v !== undefined);
    const onlyContinue = !input.flag('abort') && !fulfil && (headers !== undefined || delayMs !== undefined);
    return tool(
      'route',
      {
        action: 'add',
        url,
        ...(method === undefined ? {} : { method: method.toUpperCase() }),
        ...(input.flag('abort') ? { abort: 'failed' } : {}),
        ...(fulfil || (!onlyContinue && !input.flag('abort')) ? { status: status ?? 200 } : {}),
        ...(body === undefined ? {} : { body }),
        ...(file === undefined ? {} : { path: pathFrom(input, file) }),
        ...(contentType === undefined ? {} : { contentType }),
        ...(headers === undefined ? {} : { headers }),
        ...(delayMs === undefined ? {} : { delayMs }),
      },
      'session',
    );
  },
};

/** `--header 'Name: value'` (repeatable) as a headers object. */
function headersOf(input: CommandInput): Record<string, string> | undefined {
  const lines = input.list('header');
  if (lines === undefined) return undefined;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon < 1) throw new UsageError('route: --header is "Name: value"');
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

const NETWORK_PRESETS: Readonly<Record<string, string>> = {
  'slow-3g': 'slow3g',
  slow3g: 'slow3g',
  'fast-3g': 'fast3g',
  fast3g: 'fast3g',
  none: 'none',
};

const emulate: CommandSpec = {
  name: 'emulate',
  usage: '',
  summary: 'Change the current tab: colour scheme, reduced motion, media, offline, network, CPU, geolocation',
  details: ['--reset alone: back to the session settings.'],
  options: [
    { name: 'color-scheme', value: 'SCHEME', help: 'light, dark or no-preference' },
    { name: 'reduced-motion', value: 'PREF', help: 'reduce or no-preference' },
    { name: 'forced-colors', value: 'MODE', help: 'active or none' },
    { name: 'media', value: 'TYPE', help: 'screen or print' },
    { name: 'offline', help: 'no network' },
    { name: 'online', help: 'network again' },
    { name: 'network', value: 'PRESET', help: 'slow-3g, fast-3g or none' },
    { name: 'cpu', value: 'N', help: 'CPU slowdown factor (1 = none, up to 20)' },
    { name: 'geo', value: 'LAT,LON', help: 'geolocation (the permission is granted)' },
    { name: 'timezone', value: 'ZONE', help: 'IANA time zone, e.g. Europe/Paris' },
    { name: 'locale', value: 'LOCALE', help: 'e.g. de-DE' },
    { name: 'reset', help: 'back to the session settings' },
  ],
  build: (input) => {
    input.done();
    const args: Record<string, unknown> = {};
    const pairs: Array<[string, string]> = [
      ['color-scheme', 'colorScheme'],
      ['reduced-motion', 'reducedMotion'],
      ['forced-colors', 'forcedColors'],
      ['media', 'media'],
      ['timezone', 'timezoneId'],
      ['locale', 'locale'],
    ];
    for (const [option, field] of pairs) {
      const value = input.text(option);
      if (value !== undefined) args[field] = value;
    }
    if (input.flag('offline') && input.flag('online'))
      throw new UsageError('emulate: --offline or --online, not both');
    if (input.flag('offline') || input.flag('online')) args.offline = input.flag('offline');
    const network = input.text('network');
    if (network !== undefined) {
      const preset = NETWORK_PRESETS[network];
      if (preset === undefined) throw new UsageError('emulate: --network is slow-3g, fast-3g or none');
      args.network = preset;
    }
    const cpu = input.int('cpu');
    if (cpu !== undefined) args.cpuThrottling = cpu;
    const geo = input.text('geo');
    if (geo !== undefined) args.geolocation = geoOf(geo);
    if (input.flag('reset')) args.reset = true;
    if (Object.keys(args).length === 0)
      throw new UsageError('emulate: give at least one option (see browsermesh emulate --help)');
    return tool('emulate', args);
  },
};

function geoOf(text: string): { latitude: number; longitude: number } {
  const match = /^(-?\d{1,3}(?:\.\d+)?),(-?\d{1,3}(?:\.\d+)?)$/.exec(text.replace(/\s+/g, ''));
  if (!match) throw new UsageError('emulate: --geo is LAT,LON, e.g. 52.52,13.40');
  return { latitude: Number(match[1]), longitude: Number(match[2]) };
}

export const NETWORK_COMMANDS: readonly CommandSpec[] = [
  route,
  {
    name: 'unroute',
    usage: '[pattern]',
    summary: 'Remove the routes with this pattern (all routes without one)',
    build: (input) => {
      const url = input.takeOptional();
      input.done();
      return { kind: 'unroute', ...(url === undefined ? {} : { url }) };
    },
  },
  {
    name: 'route-list',
    usage: '',
    summary: "The session's routes with their hit counts",
    build: (input) => {
      input.done();
      return tool('route', { action: 'list' }, 'session');
    },
  },
  emulate,
];
