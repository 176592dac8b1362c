// Command-line options of `npm run bench` (scripts/bench.mjs).

import { join } from 'node:path';

export const ALL_SCENARIOS = [
  'discovery',
  'coldStart',
  'navigate',
  'snapshot',
  'find',
  'checkout',
  'click',
  'waits',
  'cli',
  // Last: 20 sessions' Chromium leaves the machine loaded for a while (load ~10 a minute after),
  // which would fall on the latency of whatever ran next.
  'scale',
];
const QUICK_SCENARIOS = ['discovery', 'navigate', 'snapshot', 'checkout', 'click', 'waits'];
export const ALL_PEERS = ['playwright-mcp', 'chrome-devtools-mcp'];

export const USAGE = `Usage: npm run bench -- [options]   (or: node scripts/bench.mjs [options])

  --quick               Smoke mode: 1 iteration, a small subset, well under a minute; writes
                        bench-results/quick.json and no Markdown unless --markdown is given
  --peers LIST          all (default), none, or a comma list of: ${ALL_PEERS.join(', ')}
  --scenarios LIST      comma list of: ${ALL_SCENARIOS.join(', ')}
  --iterations N        runs per measurement (default 5; --quick: 1)
  --scale LIST          concurrent sessions for the scale scenario (default 1,5,10,20)
  --json PATH           where to write the JSON (default bench-results/latest.json)
  --markdown PATH       where to write the Markdown (default docs/benchmarks.md)
  --no-markdown         write no Markdown
  --no-reference        skip the playwright-core / raw CDP reference rows
  --no-build            do not run \`npm run build\` first (dist/ must be current)
  --from-json PATH      run nothing: re-check the goals of a saved JSON and rewrite its Markdown
  --help`;

function list(value, flag) {
  const items = String(value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) throw new Error(`${flag} needs a value`);
  return items;
}

function positiveInt(value, flag) {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new Error(`${flag} must be an integer from 1 to 1000`);
  return n;
}

export function parseOptions(argv, repoRoot) {
  const o = {
    quick: false,
    peers: [...ALL_PEERS],
    scenarios: undefined,
    iterations: undefined,
    scale: [1, 5, 10, 20],
    json: undefined,
    markdown: undefined,
    reference: true,
    build: true,
    fromJson: undefined,
    help: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case '--quick':
        o.quick = true;
        break;
      case '--peers': {
        const peers = list(value(), flag);
        o.peers = peers[0] === 'all' ? [...ALL_PEERS] : peers[0] === 'none' ? [] : peers;
        for (const p of o.peers) if (!ALL_PEERS.includes(p)) throw new Error(`--peers: unknown peer ${p}`);
        break;
      }
      case '--scenarios':
        o.scenarios = list(value(), flag);
        for (const s of o.scenarios)
          if (!ALL_SCENARIOS.includes(s)) throw new Error(`--scenarios: unknown scenario ${s}`);
        break;
      case '--iterations':
        o.iterations = positiveInt(value(), flag);
        break;
      case '--scale':
        o.scale = list(value(), flag).map((n) => positiveInt(n, flag));
        break;
      case '--json':
        o.json = value();
        break;
      case '--markdown':
        o.markdown = value();
        break;
      case '--no-markdown':
        o.markdown = false;
        break;
      case '--no-reference':
        o.reference = false;
        break;
      case '--no-build':
        o.build = false;
        break;
      case '--from-json':
        o.fromJson = value();
        o.build = false;
        break;
      case '--help':
      case '-h':
        o.help = true;
        break;
      default:
        throw new Error(`unknown option ${argv[i]} (see --help)`);
    }
  }
  o.scenarios ??= o.quick ? QUICK_SCENARIOS : ALL_SCENARIOS;
  o.iterations ??= o.quick ? 1 : 5;
  o.json ??= join(repoRoot, 'bench-results', o.quick ? 'quick.json' : 'latest.json');
  if (o.markdown === undefined) o.markdown = o.quick ? false : join(repoRoot, 'docs', 'benchmarks.md');
  return o;
}
