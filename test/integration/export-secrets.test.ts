import { describe, expect, test as fixtureTest } from './support/fixtures.js';
import type { Config } from '../../src/config/load.js';
import { secretForms } from '../../src/redaction/secret-forms.js';
import { codeForms } from '../../src/operations/export/export-secrets.js';

// A secret the page echoes into a button's name never reaches an exported spec: not in the tool
// result, not in the spec file, in no spelling (raw, quoted with \' or \", JSON, HTML, URL, base64).

const SECRET = `it's-"CANARY"-9x`;
const SPELLINGS = [...new Set([...secretForms(SECRET), ...codeForms(SECRET)])];

const test = fixtureTest.extend('harnessConfig', { scope: 'file' }, (): Partial<Config> => ({
  tools: ['core', 'files'],
  secrets: { TOKEN: SECRET },
}));

describe('export with a secret the page echoed', () => {
  test('the button falls back to a locator without it; result and file hold no spelling of it', async ({
    harness: h,
    site,
  }) => {
    const s = await h.session();
    await h.ok('browser_navigate', { ...s, url: site.url('/replay/echo') });
    await h.ok('browser_fill', { ...s, locator: { label: 'Token' }, value: '{{secret:TOKEN}}' });
    // The agent checks the button shows the token, then clicks it: its name is now the secret.
    await h.ok('browser_find', { ...s, role: 'button' });
    await h.ok('browser_click', { ...s, locator: { css: '#revoke' } });
    const result = await h.call('browser_export_test', { sessionId: s.sessionId });
    expect(result.isError).toBeFalsy();
    const text = (result.content as Array<{ type: string; text?: string }>)[0]?.text ?? '';
    const structured = result.structuredContent as { code: string; fileId: string; env: string[] };
    const file = await h.ok<{ text?: string }>('browser_files', {
      sessionId: s.sessionId,
      action: 'read',
      fileId: structured.fileId,
    });
    for (const out of [text, structured.code, JSON.stringify(result), file.text ?? ''])
      for (const form of SPELLINGS) expect(out).not.toContain(form);
    expect(structured.env).toEqual(['TOKEN']);
    expect(structured.code).toContain("getByRole('textbox', { name: 'Token' }).fill(secrets.TOKEN)");
    expect(structured.code).toContain("await page.locator('#revoke').click();");
    expect(structured.code).not.toContain('Revoke it');
    // The session keeps working after the export.
    await h.ok('browser_get_url', s);
  });
});
