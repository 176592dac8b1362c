#!/usr/bin/env node
// Regenerates the README's tool and configuration tables from the built definitions.
// `npm run docs:tools` after changing a tool or a setting; a unit test fails while they are stale.
import { readFileSync, writeFileSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const { ALL_TOOLS } = await import(new URL('dist/tools/index.js', root));
const { renderToolTable, replaceToolTable } = await import(new URL('dist/tools/reference.js', root));
const { renderConfigTable, CONFIG_BEGIN, CONFIG_END } = await import(
  new URL('dist/config/reference.js', root)
);

const readmeUrl = new URL('README.md', root);
let readme = readFileSync(readmeUrl, 'utf8');
readme = replaceToolTable(readme, renderToolTable(ALL_TOOLS));
const start = readme.indexOf(CONFIG_BEGIN);
const end = readme.indexOf(CONFIG_END);
readme = readme.slice(0, start) + renderConfigTable() + readme.slice(end + CONFIG_END.length);
writeFileSync(readmeUrl, readme);
console.log(`README tables regenerated (${ALL_TOOLS.length} tools)`);
