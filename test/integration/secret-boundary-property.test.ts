/**
 * Property: whatever a code-mode script reads and however it transforms it, no secret comes out. Each
 * run fills one of a few random secrets into random fields of a fixture page (echoed into its text,
 * its title and, after a GET submit, its URL), then runs a random sequence of reads and transforms
 * (reverse, split, join, decodeURIComponent, JSON.stringify/parse, slice) in `browser_run`: no output
 * holds the secret or its reverse, and neither does an error message a read throws. Seeded, so a failure replays exactly; bounded in runs.
 */
import fc from 'fast-check';
import type { Config } from '../../src/config/load.js';
import type { FixtureServer } from '../fixtures/server.mjs';
import type { McpHarness } from '../helpers/harness.js';
import { describe, expect, test as fixtureTest } from './support/fixtures.js';
import { exposesSecret, FIELDS_PAGE } from './support/secret-boundary.js';

const SEED = 3907;
const RUNS = 5;
/** Characters a secret is drawn from: ones every encoder (HTML, URL, JSON) treats differently. */
const ALPHABET = [...'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789', ...'-_.!@#$%&+=:<>"\''];
const SECRETS = fc.sample(fc.string({ unit: fc.constantFrom(...ALPHABET), minLength: 8, maxLength: 16 }), {
  seed: SEED,
  numRuns: 4,
});

let site: FixtureServer;
let h: McpHarness;
let s: { sessionId: string; pageId: string };

const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  tools: ['core', 'code'],
  secrets: Object.fromEntries(SECRETS.map((value, i) => [`S${i}`, value])),
}));

test.beforeAll(async ({ site: fileSite, harness }) => {
  site = fileSite;
  h = harness;
  site.route('/sbp-form', (_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(FIELDS_PAGE);
  });
  site.route('/sbp-done', (req, res) => {
    const query = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
    const shown = [...query.values()].join(' | ').replace(/&/g, '&amp;').replace(/</g, '&lt;');
    res.setHeader('content-type', 'text/html');
    res.end(`<!doctype html><title>Done ${shown}</title><p id="q">${shown}</p>`);
  });
  s = await h.session();
});

const READS = [
  'await page.snapshot()',
  "await page.locator('body').textContent()",
  "await page.locator('#parent').innerText()",
  "await page.locator('p, span, div, label').allTextContents()",
  "await page.locator('p, span, div').allInnerTexts()",
  'await page.title()',
  'page.url()',
  // Elements of the form page only: after a submit, their error message is what the script reads.
  "await page.locator('input, textarea').first().inputValue({ timeout: 300 })",
  "await page.getByLabel('Three').inputValue({ timeout: 300 })",
  "await page.locator('#f1').getAttribute('value', { timeout: 300 })",
  "await page.getByText('Echo').textContent({ timeout: 300 })",
];
const TRANSFORMS = ['reverse', 'split', 'join', 'decode', 'json', 'unjson', 'slice'];

const step = fc.record({
  read: fc.constantFrom(...READS),
  transforms: fc.array(fc.constantFrom(...TRANSFORMS), { maxLength: 3 }),
});
const scenario = fc.record({
  secret: fc.nat({ max: SECRETS.length - 1 }),
  fields: fc.subarray(['#f1', '#f2', '#f3', '#f4'], { minLength: 1 }),
  typed: fc.boolean(),
  submit: fc.boolean(),
  steps: fc.array(step, { minLength: 1, maxLength: 5 }),
});

/** The script: helpers for the transforms, then each read through its transforms into `out`. */
function program(steps: Array<{ read: string; transforms: string[] }>): string {
  const lines = steps.map(
    ({ read, transforms }) =>
      `{ let v = await (async () => ${read})().catch((e) => e.message); ${transforms.map((t) => `v = T.${t}(v);`).join(' ')} out.push(v); }`,
  );
  return `
    const S = (v) => (typeof v === 'string' ? v : JSON.stringify(v) ?? '');
    const T = {
      reverse: (v) => [...S(v)].reverse().join(''),
      split: (v) => S(v).split(''),
      join: (v) => (Array.isArray(v) ? v.join('') : v),
      decode: (v) => { try { return decodeURIComponent(S(v)); } catch { return S(v); } },
      json: (v) => JSON.stringify(v),
      unjson: (v) => { try { return JSON.parse(S(v)); } catch { return v; } },
      slice: (v) => S(v).slice(3),
    };
    const out = [];
    ${lines.join('\n    ')}
    return out;
  `;
}

describe('the sandbox boundary, as a property', () => {
  test('random secrets in random fields, random reads and transforms: no secret, no reverse', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ secret, fields, typed, submit, steps }) => {
        await h.ok('browser_navigate', { ...s, url: site.url('/sbp-form') });
        for (const css of fields) {
          const value = `{{secret:S${secret}}}`;
          if (typed) await h.ok('browser_type', { ...s, locator: { css }, text: value });
          else await h.ok('browser_fill', { ...s, locator: { css }, value });
        }
        if (submit) {
          await h.ok('browser_click', { ...s, locator: { css: '#send' } });
          await h.ok('browser_wait', { ...s, url: '**/sbp-done**' });
        }
        const out = await h.ok<{ value: unknown }>('browser_run', {
          ...s,
          timeoutMs: 60_000,
          code: program(steps),
        });
        const value = SECRETS[secret] ?? '';
        expect(exposesSecret(out.value, value, value.length)).toBe(false);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    // About 15 s on an idle machine; room for a loaded one.
  }, 150_000);
});
