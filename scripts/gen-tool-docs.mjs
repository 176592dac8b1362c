#!/usr/bin/env node
// Regenerates the README's tool and configuration tables and docs/configuration.md's settings table
// and device list from the built definitions. `npm run docs:tools` after changing a tool or a
// setting; unit tests fail while they are stale.
import { readFileSync, writeFileSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const { ALL_TOOLS } = await import(new URL('dist/tools/index.js', root));
const { renderToolTable, replaceToolTable } = await import(new URL('dist/tools/reference.js', root));
const ref = await import(new URL('dist/config/reference.js', root));

const readmeUrl = new URL('README.md', root);
let readme = readFileSync(readmeUrl, 'utf8');
readme = replaceToolTable(readme, renderToolTable(ALL_TOOLS));
readme = ref.replaceBlock(readme, ref.CONFIG_BEGIN, ref.CONFIG_END, ref.renderConfigTable());
writeFileSync(readmeUrl, readme);

const docUrl = new URL('docs/configuration.md', root);
let doc = readFileSync(docUrl, 'utf8');
doc = ref.replaceBlock(doc, ref.SETTINGS_DOC_BEGIN, ref.SETTINGS_DOC_END, ref.renderSettingsDocTable());
doc = ref.replaceBlock(doc, ref.DEVICES_BEGIN, ref.DEVICES_END, ref.renderDeviceList());
writeFileSync(docUrl, doc);
console.log(`README tables and docs/configuration.md regenerated (${ALL_TOOLS.length} tools)`);
