import { describe, expect, it } from 'vitest';
import type { LoggedStep, LoggedTarget } from '../journal/action-log.js';
import { codeForms, secretCheck } from './export-secrets.js';
import { generateSpec } from './export-spec.js';

const SECRET = 'it\'s-CANARY\u2028"9x';
const check = secretCheck([[SECRET, 'TOKEN']]);

const target = (name: string, css = 'button.revoke'): LoggedTarget => ({
  frames: [],
  element: { by: 'role', role: 'button', name },
  css,
  unique: true,
  secretField: false,
});

const generate = (steps: LoggedStep[]) =>
  generateSpec(steps, { language: 'ts', title: 't', stateId: null, secrets: check });

/** Every way the secret could be spelled in generated code. */
const spellings = [SECRET, ...codeForms(SECRET)];

describe('export never writes a secret', () => {
  it('a button named with the secret falls back to its CSS selector, then to its role alone', () => {
    const named = generate([
      { step: 1, pageId: 'p', kind: 'click', targets: [target(`Revoke ${SECRET}`)] },
      { step: 2, pageId: 'p', kind: 'click', targets: [target(`Revoke ${SECRET}`, `#${SECRET}`)] },
    ]);
    expect(named.code).toContain("await page.locator('button.revoke').click();");
    expect(named.code).toContain("await page.getByRole('button').click(); // not unique when recorded");
    for (const form of spellings) expect(named.code).not.toContain(form);
  });

  it('a label, text or test id holding it, a typed value and a read text are left out or read from env', () => {
    const spec = generate([
      {
        step: 1,
        pageId: 'p',
        kind: 'fill',
        targets: [
          { ...target(''), element: { by: 'label', value: SECRET }, css: `[aria-label="${SECRET}"]` },
        ],
        value: 'x',
      },
      { step: 2, pageId: 'p', kind: 'fill', targets: [target('Note')], value: `a ${SECRET}` },
      { step: 3, pageId: 'p', kind: 'waitText', value: `Hello ${SECRET}` },
      { step: 4, pageId: 'p', kind: 'readPage', values: [`Token ${SECRET}`] },
    ]);
    expect(spec.withheld).toEqual([1, 3, 4]);
    expect(spec.code).toContain('fill(secrets.TOKEN)');
    expect(spec.code).toContain("const secrets = { TOKEN: secretFromEnv('TOKEN') };");
    for (const form of spellings) expect(spec.code).not.toContain(form);
  });

  it('the whole text is scrubbed as a last guard (a session title holding the secret)', () => {
    const spec = generateSpec([], { language: 'js', title: SECRET, stateId: null, secrets: check });
    for (const form of spellings) expect(spec.code).not.toContain(form);
    expect(spec.code).toContain('{{secret:TOKEN}}');
  });
});
