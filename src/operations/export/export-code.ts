import type { BestLocator, LoggedStep, LoggedTarget } from '../journal/action-log.js';

/** How a spec names elements: each one's best locator (default), or its CSS selector. */
export type LocatorStyle = 'best' | 'css';

/** A JavaScript string literal in single quotes (what Playwright's codegen writes). */
export function quote(text: string): string {
  const body = JSON.stringify(text)
    .slice(1, -1)
    .replace(/\\"/g, '"')
    .replace(/'/g, "\\'")
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `'${body}'`;
}

function elementCode(best: BestLocator): string {
  const exact = 'exact' in best && best.exact === true ? ', { exact: true }' : '';
  switch (best.by) {
    case 'role': {
      if (best.name === undefined) return `getByRole(${quote(best.role)})`;
      const name = `name: ${quote(best.name)}${best.exact === true ? ', exact: true' : ''}`;
      return `getByRole(${quote(best.role)}, { ${name} })`;
    }
    case 'label':
      return `getByLabel(${quote(best.value)}${exact})`;
    case 'placeholder':
      return `getByPlaceholder(${quote(best.value)}${exact})`;
    case 'text':
      return `getByText(${quote(best.value)}${exact})`;
    case 'testId':
      return `getByTestId(${quote(best.value)})`;
    case 'css':
      return `locator(${quote(best.value)})`;
  }
}

/** `page.frameLocator(…)…getByRole(…)`: exactly the element's frame chain, then the element. */
export function locatorCode(page: string, target: LoggedTarget, style: LocatorStyle): string {
  const frames = target.frames.map((css) => `.frameLocator(${quote(css)})`).join('');
  const element =
    style === 'css' && target.css !== ''
      ? elementCode({ by: 'css', value: target.css })
      : elementCode(target.element);
  return `${page}${frames}.${element}`;
}

/** A typed value: the text, or `secrets.NAME` for a secret (read from the environment, never its value). */
export function valueCode(step: LoggedStep): string {
  if (step.secret !== undefined) return `secrets.${step.secret}`;
  return quote(step.value ?? '');
}

/** A wait's URL pattern as `toHaveURL` takes it: exact text, or a RegExp for globs and RegExps. */
export function urlPatternCode(pattern: NonNullable<LoggedStep['urlPattern']>): string {
  if (typeof pattern !== 'string') return `new RegExp(${quote(pattern.source)}, ${quote(pattern.flags)})`;
  if (!/[*?]/.test(pattern)) return quote(pattern);
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] ?? '';
    if (c === '*' && pattern[i + 1] === '*') {
      source += '.*';
      i++;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '.';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return `new RegExp(${quote(`^${source}$`)})`;
}

/** The files of an upload: inline bytes when they were small, else a path next to the spec. */
export function filesCode(step: LoggedStep): string {
  const files = (step.files ?? []).map((f) =>
    f.base64 !== undefined
      ? `{ name: ${quote(f.name)}, mimeType: ${quote(f.mimeType)}, buffer: Buffer.from(${quote(f.base64)}, 'base64') }`
      : quote(`files/${f.name}`),
  );
  return files.length === 1 ? (files[0] ?? '[]') : `[${files.join(', ')}]`;
}
