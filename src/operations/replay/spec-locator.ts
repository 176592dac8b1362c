import { quote } from '../export/export-code.js';

/**
 * The element locator of a replayed statement, as the export writes it (`getByRole('button',
 * { name: 'Pay' })`, `getByLabel('Email')`, `getByTestId('x')`, `getByText('Hi')`, `locator('#id')`),
 * read back out of the statement, and written again for a healed element.
 */
export type SpecLocator =
  | { by: 'role'; role: string; name?: string; exact: boolean }
  | { by: 'label' | 'placeholder' | 'text' | 'testId' | 'css'; value: string; exact: boolean };

export interface FoundLocator {
  locator: SpecLocator;
  /** The exact text of the call in the statement (what a heal replaces). */
  code: string;
}

const STRING = String.raw`'(?:[^'\\]|\\.)*'`;
const CALL = new RegExp(
  String.raw`\.(getByRole|getByLabel|getByPlaceholder|getByText|getByTestId|locator)\((${STRING})` +
    String.raw`(?:, \{ (?:name: (${STRING}))?(?:, )?(exact: true)? \})?\)`,
);
const KINDS = {
  getByLabel: 'label',
  getByPlaceholder: 'placeholder',
  getByText: 'text',
  getByTestId: 'testId',
  locator: 'css',
} as const;

/** The first element locator of `statement`, or undefined when it has none the export writes. */
export function findLocator(statement: string): FoundLocator | undefined {
  const match = CALL.exec(statement);
  if (!match) return undefined;
  const [code, method, first, name, exact] = match;
  const value = unquote(first ?? "''");
  if (value === undefined) return undefined;
  const isExact = exact !== undefined;
  if (method === 'getByRole') {
    const named = name === undefined ? undefined : unquote(name);
    return {
      code: code.slice(1),
      locator: { by: 'role', role: value, ...(named !== undefined ? { name: named } : {}), exact: isExact },
    };
  }
  const by = KINDS[method as keyof typeof KINDS];
  return { code: code.slice(1), locator: { by, value, exact: isExact } };
}

/** A single-quoted JS string's value (undefined when it is not one). */
export function unquote(literal: string): string | undefined {
  if (!literal.startsWith("'") || !literal.endsWith("'")) return undefined;
  const body = literal.slice(1, -1).replace(/\\'/g, "'").replace(/"/g, '\\"');
  try {
    return JSON.parse(`"${body}"`) as string;
  } catch {
    return undefined;
  }
}

/** The locator call as the export writes it (without the leading dot). */
export function locatorCall(locator: SpecLocator): string {
  const exact = locator.exact ? ', { exact: true }' : '';
  switch (locator.by) {
    case 'role': {
      if (locator.name === undefined) return `getByRole(${quote(locator.role)})`;
      return `getByRole(${quote(locator.role)}, { name: ${quote(locator.name)}${locator.exact ? ', exact: true' : ''} })`;
    }
    case 'label':
      return `getByLabel(${quote(locator.value)}${exact})`;
    case 'placeholder':
      return `getByPlaceholder(${quote(locator.value)}${exact})`;
    case 'text':
      return `getByText(${quote(locator.value)}${exact})`;
    case 'testId':
      return `getByTestId(${quote(locator.value)})`;
    case 'css':
      return `locator(${quote(locator.value)})`;
  }
}
