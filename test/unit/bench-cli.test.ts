import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The benchmark's shell-CLI scenario reads refs out of each CLI's own snapshot. The fixtures are the
 * real output of playwright-cli 0.1.22, agent-browser 0.41.2 and browsermesh on the fixture shop's
 * checkout page (captured by hand against 127.0.0.1). Before the fix both peers failed with "no textbox
 * Full name": playwright-cli's refs carry an f<N> prefix after a navigation, agent-browser puts the ref
 * after other attributes (`[required, ref=e16]`).
 */

type Node = { role: string; name: string; ref: string };
type Row = Record<string, unknown>;
type Refs = {
  parseAriaCli: (text: string) => Node[];
  parseBrowserMesh: (text: string) => Node[];
  parsePlaywright: (text: string) => Node[];
  findRef: (nodes: Node[], role: string, name: string, server?: string) => string;
};

const refs = (await import(new URL('../../bench/lib/refs.mjs', import.meta.url).href)) as Refs;
const { cliSection } = (await import(
  new URL('../../bench/report/section-cli.mjs', import.meta.url).href
)) as { cliSection: (rows: Row[]) => string };

const fixture = (name: string) =>
  readFileSync(new URL(`fixtures/bench-cli/${name}.txt`, import.meta.url), 'utf8');

const CHECKOUT: [string, string][] = [
  ['textbox', 'Full name'],
  ['textbox', 'Email'],
  ['textbox', 'Address'],
  ['textbox', 'City'],
  ['textbox', 'Postal code'],
  ['combobox', 'Country'],
  ['radio', 'Express'],
  ['checkbox', 'I accept the terms'],
  ['button', 'Place order'],
];

const refsOf = (nodes: Node[]) => CHECKOUT.map(([role, name]) => refs.findRef(nodes, role, name));

describe('bench CLI snapshot parsers', () => {
  it("playwright-cli: every checkout control's ref, prefixed refs included", () => {
    const found = refsOf(refs.parseAriaCli(fixture('playwright-cli-checkout')));
    expect(found).toEqual(['f1e20', 'f1e23', 'f1e26', 'f1e29', 'f1e32', 'f1e35', 'f1e43', 'f1e46', 'f1e47']);
  });

  it('agent-browser: refs after other attributes, values after the brackets', () => {
    const nodes = refs.parseAriaCli(fixture('agent-browser-checkout'));
    expect(refsOf(nodes)).toEqual(['e66', 'e67', 'e68', 'e69', 'e70', 'e71', 'e91', 'e72', 'e73']);
    expect(refs.findRef(nodes, 'heading', 'Checkout')).toBe('e64');
    const buttons = refs.parseAriaCli(fixture('agent-browser-buttons'));
    expect(refs.findRef(buttons, 'button', 'Increment')).toBe('e93');
    expect(refs.findRef(buttons, 'button', 'Disabled button')).toBe('e95');
  });

  it('browsermesh: the interactive snapshot of the same page', () => {
    const found = refsOf(refs.parseBrowserMesh(fixture('browsermesh-checkout')));
    expect(found).toEqual(['@e16', '@e17', '@e18', '@e19', '@e20', '@e21', '@e23', '@e24', '@e25']);
  });

  it('the MCP parser still reads playwright-cli (same YAML), and a missing control says what was there', () => {
    const nodes = refs.parsePlaywright(fixture('playwright-cli-checkout'));
    expect(refs.findRef(nodes, 'textbox', 'Full name')).toBe('f1e20');
    expect(() =>
      refs.findRef(refs.parseAriaCli(fixture('agent-browser-checkout')), 'textbox', 'Phone', 'ab'),
    ).toThrow(/ab: no textbox named "Phone" \(has: "Full name", "Email"/);
  });

  it('parseAriaCli skips lines without a ref and names with escaped quotes survive', () => {
    const nodes = refs.parseAriaCli(
      ['- option "Austria"', '- text: [ref=e9] is not a ref', '- button "Say \\"hi\\"" [ref=e3]'].join('\n'),
    );
    expect(nodes.map((n) => [n.role, n.name, n.ref])).toEqual([['button', 'Say "hi"', 'e3']]);
  });
});

describe('bench CLI report section', () => {
  const bm = {
    contender: 'browsermesh CLI',
    version: '0.1.0',
    commands: 16,
    files: 0,
    chars: 4000,
    tokens: 1000,
    writtenTokens: 200,
    ms: 3200,
    msPerCommand: 200,
    launchMs: 900,
    clickMedianMs: 150,
    skillTokens: 1400,
    isolated: true,
  };

  it('shows each contender, the ratios against browsermesh and the goals for the shell face', () => {
    const text = cliSection([
      bm,
      { ...bm, contender: 'agent-browser', version: '0.41.2', tokens: 2000, ms: 1600, clickMedianMs: 100 },
      {
        contender: 'playwright-cli',
        version: '0.1.22',
        na: 'n/a (playwright-cli cannot run here: not installed)',
      },
    ]);
    expect(text).toContain('| agent-browser | 0.41.2 | 16 | 0 | 4,000 | 2,000 | 200 | 1.60 s |');
    // Read tokens, written tokens, wall time, click median: browsermesh ÷ agent-browser.
    expect(text).toMatch(/\| 0\.50× \| 1\.00× \| 2\.00× \| 1\.50× \|/);
    expect(text).toContain(
      '| playwright-cli | 0.1.22 | n/a (playwright-cli cannot run here: not installed) |',
    );
    expect(text).toMatch(/tokens the agent reads vs agent-browser, target ≤ 0\.8×: .*0\.50×.* — \*\*met\*\*/);
    expect(text).toMatch(
      /vs playwright-cli, target ≤ 0\.4×: — \(n\/a \(playwright-cli cannot run.* — \*\*not measured\*\*/,
    );
    expect(text).toMatch(
      /per-command median vs agent-browser, target ≤ 1×: 150 ms vs 100 ms.* — \*\*MISSED\*\*/,
    );
    expect(text).toMatch(/SKILL\.md an agent loads, target ≤ 1,500 tokens: 1,400 tokens — \*\*met\*\*/);
  });
});

describe('bench CLI files the agent must open', () => {
  it('reads the snapshot file playwright-cli links after a navigation, and none for an inline snapshot', async () => {
    const { linkedFiles } = (await import(
      new URL('../../bench/lib/shell-clis.mjs', import.meta.url).href
    )) as { linkedFiles: (cwd: string, out: string) => string[] };
    const cwd = mkdtempSync(join(tmpdir(), 'bench-cli-test-'));
    try {
      mkdirSync(join(cwd, '.playwright-cli'));
      writeFileSync(
        join(cwd, '.playwright-cli', 'page-2026-12-03T18-07-34-014Z.yml'),
        '- textbox "Email" [ref=f1e23]\n',
      );
      expect(linkedFiles(cwd, fixture('playwright-cli-goto'))).toEqual(['- textbox "Email" [ref=f1e23]\n']);
      expect(linkedFiles(cwd, fixture('playwright-cli-checkout'))).toEqual([]);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});

describe('bench ratio format', () => {
  it('keeps two significant digits below 0.01 so a tiny ratio does not read as zero', async () => {
    const { fmtRatio } = (await import(new URL('../../bench/report/format.mjs', import.meta.url).href)) as {
      fmtRatio: (value: number | undefined) => string;
    };
    expect([0.0045, 0.75, 12.34, undefined].map(fmtRatio)).toEqual(['0.0045×', '0.75×', '12.3×', '—']);
  });
});
