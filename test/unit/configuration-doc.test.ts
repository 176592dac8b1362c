import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DEVICES_BEGIN,
  DEVICES_END,
  renderDeviceList,
  renderSettingsDocTable,
  SETTINGS_DOC_BEGIN,
  SETTINGS_DOC_END,
} from '../../src/config/reference.js';
import { helpText } from '../../src/cli/help.js';
import { SETTINGS } from '../../src/config/settings.js';

const doc = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');

function block(begin: string, end: string): string {
  return doc.slice(doc.indexOf(begin), doc.indexOf(end) + end.length);
}

describe('docs/configuration.md (run `npm run docs:tools` when this fails)', () => {
  it('lists exactly the settings the loader accepts, with their config-file keys', () => {
    expect(block(SETTINGS_DOC_BEGIN, SETTINGS_DOC_END)).toBe(renderSettingsDocTable());
  });

  it("lists the installed playwright-core's device presets", () => {
    expect(block(DEVICES_BEGIN, DEVICES_END)).toBe(renderDeviceList());
    expect(renderDeviceList()).toContain('`Pixel 7`');
  });

  it('--help-all shows every flag the settings declare (but the hidden compatibility ones)', () => {
    const help = helpText({ all: true });
    for (const spec of SETTINGS)
      if ('flag' in spec && !('hidden' in spec)) expect(help).toContain(`--${spec.flag}`);
    expect(help).toContain('--config <value>');
    expect(help).toContain('--device <value>');
  });
});
