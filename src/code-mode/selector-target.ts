import type { Frame, Locator } from 'playwright-core';
import { BrowserMeshError, ErrorCodes, invalidArgument } from '../errors.js';
import { ROLES, type TargetSpec } from '../operations/locate/locator-spec.js';
import { inPageQueryOfSelector } from '../operations/locate/in-page-locate.js';
import type { ElementSelector, SelectorBase, SelectorStep, TextPattern } from './facade-calls.js';

/**
 * A script's locator chain as an operations target: a bare `page.ref('@e5')` is a snapshot ref
 * (node identity, stale refs fail loudly); anything else becomes a Playwright locator chain on the
 * main frame, resolved by `resolveTarget` exactly like the typed tools' locators (strict, quick
 * ELEMENT_NOT_FOUND). Only the caller's own selector text appears in descriptions.
 */

type Scope = Pick<
  Frame,
  | 'locator'
  | 'getByRole'
  | 'getByText'
  | 'getByLabel'
  | 'getByPlaceholder'
  | 'getByAltText'
  | 'getByTitle'
  | 'getByTestId'
>;
type AriaRole = Parameters<Frame['getByRole']>[0];

/** Playwright selector engines a css-kind selector may name; internal/AI engines stay out of reach. */
const ENGINES = new Set(['css', 'text', 'xpath', 'id', 'data-testid', 'data-test-id', 'data-test']);

export function toTargetSpec(selector: ElementSelector, field = 'target'): TargetSpec {
  if (selector.base.kind === 'ref') {
    if (selector.steps.length > 0)
      throw new BrowserMeshError(
        ErrorCodes.NOT_SUPPORTED,
        'A snapshot ref cannot be refined (nth, filter, locator); act on the ref itself or use a locator',
        { details: { field } },
      );
    return { ref: selector.base.ref };
  }
  checkBase(selector.base, field);
  for (const step of selector.steps) if (step.kind === 'within') checkBase(step.base, field);
  return {
    built: {
      description: describeSelector(selector),
      build: (frame) => toLocator(frame, selector),
      inPage: inPageQueryOfSelector(selector),
    },
  };
}

/** The Playwright locator for a (non-ref) chain. */
export function toLocator(frame: Frame, selector: ElementSelector): Locator {
  let locator = fromBase(frame, selector.base);
  for (const step of selector.steps) locator = applyStep(locator, step);
  return locator;
}

function applyStep(locator: Locator, step: SelectorStep): Locator {
  switch (step.kind) {
    case 'nth':
      return step.index === -1 ? locator.last() : locator.nth(step.index);
    case 'filter':
      return locator.filter({
        ...(step.hasText !== undefined ? { hasText: step.hasText } : {}),
        ...(step.hasNotText !== undefined ? { hasNotText: step.hasNotText } : {}),
        ...(step.visible !== undefined ? { visible: step.visible } : {}),
      });
    case 'within':
      return fromBase(locator, step.base);
  }
}

function fromBase(scope: Scope, base: SelectorBase): Locator {
  switch (base.kind) {
    case 'css':
      return scope.locator(base.selector);
    case 'role': {
      const { kind: _kind, role, ...options } = base;
      return scope.getByRole(role as AriaRole, options);
    }
    case 'text':
      return scope.getByText(textOf(base.text), exactOf(base));
    case 'label':
      return scope.getByLabel(textOf(base.text), exactOf(base));
    case 'placeholder':
      return scope.getByPlaceholder(textOf(base.text), exactOf(base));
    case 'altText':
      return scope.getByAltText(textOf(base.text), exactOf(base));
    case 'title':
      return scope.getByTitle(textOf(base.text), exactOf(base));
    case 'testId':
      return scope.getByTestId(base.testId);
    case 'ref':
      throw new BrowserMeshError(ErrorCodes.NOT_SUPPORTED, 'A ref cannot be used inside a locator chain');
  }
}

/** A script RegExp is compiled again here; Playwright runs it in the page, never in Node. */
const textOf = (text: string | TextPattern): string | RegExp =>
  typeof text === 'string' ? text : new RegExp(text.source, text.flags);

const exactOf = (base: { exact?: boolean }): { exact?: boolean } =>
  base.exact === undefined ? {} : { exact: base.exact };

function checkBase(base: SelectorBase, field: string): void {
  if (base.kind === 'role' && !ROLES.has(base.role))
    throw invalidArgument(field, `'${clip(base.role)}' is not an ARIA role`);
  if (base.kind === 'ref') throw invalidArgument(field, 'a ref cannot be used inside a locator chain');
  if (base.kind !== 'css') return;
  // `a >> b` would chain into any engine, Playwright's internal ones included: use .locator() instead.
  if (base.selector.includes('>>'))
    throw invalidArgument(
      field,
      "selector chaining with '>>' is not supported; chain .locator() calls instead",
    );
  const engine = /^\s*([a-zA-Z_][\w:-]*)\s*=/.exec(base.selector)?.[1];
  if (engine !== undefined && !ENGINES.has(engine.toLowerCase()))
    throw invalidArgument(
      field,
      `selector engine '${clip(engine)}' is not supported (use css, text, xpath or id)`,
    );
}

/** `getByRole('button', { name: "Add" }).nth(2)`-style text, bounded. */
export function describeSelector(selector: ElementSelector): string {
  const parts = [describeBase(selector.base)];
  for (const step of selector.steps) {
    if (step.kind === 'nth') parts.push(step.index === -1 ? 'last()' : `nth(${step.index})`);
    else if (step.kind === 'within') parts.push(describeBase(step.base));
    else parts.push(`filter(${step.hasText !== undefined ? `hasText "${clip(step.hasText, 30)}"` : '…'})`);
  }
  return clip(parts.join('.'), 160);
}

function describeBase(base: SelectorBase): string {
  switch (base.kind) {
    case 'css':
      return `locator("${clip(base.selector)}")`;
    case 'role':
      return `getByRole(${base.role}${base.name !== undefined ? ` name="${clip(base.name)}"` : ''})`;
    case 'testId':
      return `getByTestId("${clip(base.testId)}")`;
    case 'ref':
      return `ref ${base.ref}`;
    default:
      return `getBy${base.kind[0]?.toUpperCase() ?? ''}${base.kind.slice(1)}(${
        typeof base.text === 'string'
          ? `"${clip(base.text)}"`
          : `/${clip(base.text.source)}/${base.text.flags}`
      })`;
  }
}

function clip(text: string, max = 60): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}
