import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../secrets.js';
import { containsSecretForm, secretForms } from './secret-forms.js';

// A secret comes back in whatever encoding the path it took applied.
const SECRET = 'p@ss "w\\rd" <&> 1+1=2 é';
const secrets = { PW: SECRET };
const REF = '{{secret:PW}}';

describe('secret forms', () => {
  it('covers raw, JSON, HTML, percent/form and base64 spellings', () => {
    const encodings = [
      SECRET,
      JSON.stringify(SECRET).slice(1, -1),
      JSON.stringify(JSON.stringify(SECRET).slice(1, -1)).slice(1, -1),
      SECRET.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'),
      encodeURIComponent(SECRET),
      new URLSearchParams({ q: SECRET }).toString().slice(2),
      encodeURIComponent(SECRET).toLowerCase(),
      Buffer.from(SECRET).toString('base64'),
      Buffer.from(SECRET).toString('base64url'),
    ];
    for (const encoded of encodings) {
      const text = `before ${encoded} after`;
      const out = redactSecrets(secrets, text);
      expect(out, encoded).toBe(`before ${REF} after`);
    }
  });

  it('finds base64 of the secret inside a longer base64 text at any byte alignment', () => {
    for (const prefix of ['', 'a', 'ab', 'abc', 'user:']) {
      const blob = Buffer.from(`${prefix}${SECRET}-and-more-text`).toString('base64');
      const out = redactSecrets(secrets, blob);
      expect(out, prefix).toContain(REF);
      const left = Buffer.from(out.replace(REF, ''), 'base64').toString('latin1');
      expect(left).not.toContain('ss "w');
    }
  });

  it('a GET form URL and a POST form body carry the reference, not the value', () => {
    const url = `http://127.0.0.1:9/login?user=ada&pw=${new URLSearchParams({ x: SECRET }).toString().slice(2)}`;
    expect(redactSecrets(secrets, url)).toBe(`http://127.0.0.1:9/login?user=ada&pw=${REF}`);
    const body = JSON.stringify({ password: SECRET });
    expect(redactSecrets(secrets, body)).toBe(`{"password":"${REF}"}`);
  });

  it('a cut text that ends in the head of a secret, or starts with its tail, hides the fragment', () => {
    expect(redactSecrets({ PW: 'hunter2-Sup3rSecret' }, 'value: hunter2-Su')).toBe(`value: ${REF}`);
    expect(redactSecrets({ PW: 'hunter2-Sup3rSecret' }, 'p3rSecret and on')).toBe(`${REF} and on`);
    // Three characters say nothing; ordinary text stays.
    expect(redactSecrets({ PW: 'hunter2-Sup3rSecret' }, 'a hun')).toBe('a hun');
  });

  it('lists each form once, longest first', () => {
    const forms = secretForms('plain');
    expect(new Set(forms).size).toBe(forms.length);
    expect(forms[0]!.length).toBeGreaterThanOrEqual(forms.at(-1)!.length);
    expect(secretForms('')).toEqual([]);
  });

  it('covers the forms a JavaScript string literal gives it', () => {
    const value = 'it\'s "q" `t` ${x} \u2028 end';
    const single = `'${JSON.stringify(value)
      .slice(1, -1)
      .replace(/\\"/g, '"')
      .replace(/'/g, "\\'")
      .replace(/\u2028/g, '\\u2028')}'`;
    const double = JSON.stringify(value).replace(/\u2028/g, '\\u2028');
    const template = `\`${JSON.stringify(value)
      .slice(1, -1)
      .replace(/\\"/g, '"')
      .replace(/`/g, '\\`')
      .replace(/\$\{/g, '\\${')
      .replace(/\u2028/g, '\\u2028')}\``;
    for (const literal of [single, double, template]) {
      expect(runInNewContext(literal), literal).toBe(value);
      expect(redactSecrets({ V: value }, `name: ${literal}`), literal).toBe(
        `name: ${literal[0]}{{secret:V}}${literal[0]}`,
      );
      expect(containsSecretForm(`x ${literal} y`, [value])).toBe(true);
    }
  });

  it('says whether a text holds any form of any value', () => {
    expect(containsSecretForm(`token=${encodeURIComponent(SECRET)}`, ['other', SECRET])).toBe(true);
    expect(containsSecretForm('nothing here', [SECRET])).toBe(false);
    expect(containsSecretForm('anything', [''])).toBe(false);
  });
});
