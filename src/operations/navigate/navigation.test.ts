import { describe, expect, it } from 'vitest';
import { isBrowserMeshError } from '../../errors.js';
import { checkNavigableUrl, MAX_DATA_URL_CHARS } from './navigation.js';

function refusal(url: string): { code: string; field: unknown; message: string } {
  try {
    checkNavigableUrl(url);
  } catch (error) {
    if (!isBrowserMeshError(error)) throw error;
    return { code: error.code, field: error.details?.field, message: error.message };
  }
  throw new Error('accepted');
}

describe('checkNavigableUrl', () => {
  it('accepts http(s), about:blank and bounded data: URLs', () => {
    expect(checkNavigableUrl('http://127.0.0.1:8080/a b')).toBe('http://127.0.0.1:8080/a%20b');
    expect(checkNavigableUrl('about:blank')).toBe('about:blank');
    const data = 'data:text/html,<p>hi</p>';
    expect(checkNavigableUrl(data)).toBe(data);
    const largest = `data:text/plain,${'x'.repeat(MAX_DATA_URL_CHARS - 'data:text/plain,'.length)}`;
    expect(checkNavigableUrl(largest)).toBe(largest);
  });

  it('refuses other schemes, other about: pages, relative and oversized data: URLs, without echoing them', () => {
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert("secret-token")',
      'chrome://settings',
      'about:config',
      'about:srcdoc',
      'view-source:http://127.0.0.1/',
      '/relative',
      `data:text/plain,secret-token${'x'.repeat(MAX_DATA_URL_CHARS)}`,
    ]) {
      const refused = refusal(url);
      expect(refused).toMatchObject({ code: 'INVALID_ARGUMENT', field: 'url' });
      expect(refused.message).not.toContain('secret-token');
      expect(refused.message).not.toContain('passwd');
    }
  });
});
