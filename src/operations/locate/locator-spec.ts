import type { Frame, Locator } from 'playwright-core';
import { invalidArgument } from '../../errors.js';
import type { InPageQuery } from './page-locate-source.js';

/** One iframe on the way to an element: css, or role (+ name), or testId. */
export interface FrameStepSpec {
  css?: string | undefined;
  role?: string | undefined;
  name?: string | undefined;
  testId?: string | undefined;
}

/** Main frame, or a chain of 1-5 iframes from the page down (required with kind iframe, refused with main). */
export interface FrameSpec {
  kind: 'main' | 'iframe';
  chain?: FrameStepSpec[] | undefined;
}

/** A semantic locator as callers send it: exactly one strategy key, optional `exact` and `frame`. */
export interface LocatorSpec {
  role?: string | undefined;
  name?: string | undefined;
  text?: string | undefined;
  label?: string | undefined;
  placeholder?: string | undefined;
  testId?: string | undefined;
  css?: string | undefined;
  exact?: boolean | undefined;
  frame?: FrameSpec | undefined;
}

/**
 * A locator another face has already built from its own validated description (code mode's
 * Playwright-style chains with nth/filter/descendants). Main frame only. It is resolved exactly like
 * a semantic locator: strict, ELEMENT_NOT_FOUND after the short appear window, LOCATOR_AMBIGUOUS.
 */
export interface BuiltLocator {
  /** Safe, bounded text naming what is searched (the caller's own selector, never page content). */
  description: string;
  build(frame: Frame): Locator;
  /** The same locator for the in-page resolver, when it is a kind the page answers (in-page-locate.ts). */
  inPage?: InPageQuery | undefined;
}

/** Exactly one of `ref` (from a snapshot), `locator`, or (library faces only) `built`. */
export interface TargetSpec {
  ref?: string | undefined;
  locator?: LocatorSpec | undefined;
  built?: BuiltLocator | undefined;
}

/** Whether the spec names an element at all (actions like press and scroll may have none). */
export function hasTarget(spec: TargetSpec | undefined): spec is TargetSpec {
  return (
    spec !== undefined && (spec.ref !== undefined || spec.locator !== undefined || spec.built !== undefined)
  );
}

const STRATEGIES = ['role', 'text', 'label', 'placeholder', 'testId', 'css'] as const;
type Strategy = (typeof STRATEGIES)[number];
export const MAX_FRAME_DEPTH = 5;

type AriaRole = Parameters<Frame['getByRole']>[0];
export const ROLES: ReadonlySet<string> = new Set<AriaRole>([
  'alert',
  'alertdialog',
  'application',
  'article',
  'banner',
  'blockquote',
  'button',
  'caption',
  'cell',
  'checkbox',
  'code',
  'columnheader',
  'combobox',
  'complementary',
  'contentinfo',
  'definition',
  'deletion',
  'dialog',
  'directory',
  'document',
  'emphasis',
  'feed',
  'figure',
  'form',
  'generic',
  'grid',
  'gridcell',
  'group',
  'heading',
  'img',
  'insertion',
  'link',
  'list',
  'listbox',
  'listitem',
  'log',
  'main',
  'marquee',
  'math',
  'meter',
  'menu',
  'menubar',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'navigation',
  'none',
  'note',
  'option',
  'paragraph',
  'presentation',
  'progressbar',
  'radio',
  'radiogroup',
  'region',
  'row',
  'rowgroup',
  'rowheader',
  'scrollbar',
  'search',
  'searchbox',
  'separator',
  'slider',
  'spinbutton',
  'status',
  'strong',
  'subscript',
  'superscript',
  'switch',
  'tab',
  'table',
  'tablist',
  'tabpanel',
  'term',
  'textbox',
  'time',
  'timer',
  'toolbar',
  'tooltip',
  'tree',
  'treegrid',
  'treeitem',
]);

/** A validated locator: its one strategy, value and options, and the frame chain to search in. */
export interface CheckedLocator {
  strategy: Strategy;
  value: string;
  name: string | undefined;
  exact: boolean;
  chain: FrameStepSpec[];
  /** Safe, bounded text naming what is searched (the caller's own locator, never page content). */
  description: string;
}

/** Refuses anything but exactly one strategy key; names the offending field. */
export function checkLocator(spec: LocatorSpec, field: string): CheckedLocator {
  const present = STRATEGIES.filter((key) => spec[key] !== undefined);
  if (present.length !== 1) {
    throw invalidArgument(
      field,
      `give exactly one of ${STRATEGIES.join(', ')} (got ${present.length === 0 ? 'none' : present.join(', ')})`,
    );
  }
  const strategy = present[0] as Strategy;
  const value = spec[strategy] ?? '';
  if (spec.name !== undefined && strategy !== 'role')
    throw invalidArgument(`${field}.name`, 'name goes with role only');
  if (strategy === 'role' && !ROLES.has(value))
    throw invalidArgument(`${field}.role`, 'is not a supported ARIA role');
  if (strategy === 'css') checkCss(value, `${field}.css`);
  const chain = checkFrame(spec.frame, `${field}.frame`);
  chain.forEach((step, i) => checkFrameStep(step, `${field}.frame.chain.${i}`));
  const named = strategy === 'role' && spec.name !== undefined ? ` name="${clip(spec.name)}"` : '';
  return {
    strategy,
    value,
    name: spec.name,
    exact: spec.exact ?? true,
    chain,
    description: `${strategy}=${strategy === 'role' ? value : `"${clip(value)}"`}${named}`,
  };
}

function checkFrame(frame: FrameSpec | undefined, field: string): FrameStepSpec[] {
  if (frame === undefined) return [];
  const chain = frame.chain ?? [];
  if (frame.kind === 'main' && frame.chain !== undefined)
    throw invalidArgument(`${field}.chain`, 'goes with kind iframe only');
  if (frame.kind === 'iframe' && (chain.length < 1 || chain.length > MAX_FRAME_DEPTH)) {
    throw invalidArgument(`${field}.chain`, `give 1-${MAX_FRAME_DEPTH} iframe steps with kind iframe`);
  }
  return chain;
}

function checkFrameStep(step: FrameStepSpec, field: string): void {
  const keys = (['css', 'role', 'testId'] as const).filter((key) => step[key] !== undefined);
  if (keys.length !== 1) throw invalidArgument(field, 'give exactly one of css, role (+ name) or testId');
  if (step.name !== undefined && step.role === undefined)
    throw invalidArgument(`${field}.name`, 'name goes with role only');
  if (step.css !== undefined) checkCss(step.css, `${field}.css`);
  const role = step.role;
  if (role !== undefined && role !== 'iframe' && role !== 'frame' && !ROLES.has(role)) {
    throw invalidArgument(`${field}.role`, "use iframe (with the frame's title as name) or an ARIA role");
  }
}

/**
 * Playwright would read `a >> b` as a chain into other selector engines (including its internal and
 * AI ref engines): a css locator is CSS only.
 */
function checkCss(css: string, field: string): void {
  if (css.includes('>>')) throw invalidArgument(field, 'must be a plain CSS selector (no >> chaining)');
}

export function describeFrameStep(step: FrameStepSpec): string {
  if (step.css !== undefined) return `css="${clip(step.css)}"`;
  if (step.testId !== undefined) return `testId="${clip(step.testId)}"`;
  return `role=${step.role ?? ''}${step.name !== undefined ? ` name="${clip(step.name)}"` : ''}`;
}

/** Where locators are built: a Frame, or a FrameLocator (for waits that must survive frame reloads). */
export interface LocatorScope {
  locator(selector: string): Locator;
  getByRole(role: AriaRole, options?: { name?: string; exact?: boolean }): Locator;
  getByText(text: string, options?: { exact?: boolean }): Locator;
  getByLabel(text: string, options?: { exact?: boolean }): Locator;
  getByPlaceholder(text: string, options?: { exact?: boolean }): Locator;
  getByTestId(testId: string): Locator;
  getByTitle(text: string, options?: { exact?: boolean }): Locator;
}

/** The Playwright locator for the element itself, scoped to one frame (never chained across frames). */
export function toPlaywrightLocator(frame: LocatorScope, checked: CheckedLocator): Locator {
  const { value, exact } = checked;
  switch (checked.strategy) {
    case 'role':
      return frame.getByRole(
        value as AriaRole,
        checked.name === undefined ? {} : { name: checked.name, exact },
      );
    case 'text':
      return frame.getByText(value, { exact });
    case 'label': {
      const byLabel = frame.getByLabel(value, { exact });
      if (!exact) return byLabel;
      // A select or textarea inside its label: Chromium names it by the label's own words ("Plan"),
      // while getByLabel's exact text also holds the control's ("Plan FreePro").
      const named = (role: AriaRole): Locator => frame.getByRole(role, { name: value, exact: true });
      return byLabel.or(
        frame
          .locator('label select, label textarea')
          .and(named('combobox').or(named('listbox')).or(named('textbox'))),
      );
    }
    case 'placeholder':
      return frame.getByPlaceholder(value, { exact });
    case 'testId':
      return frame.getByTestId(value);
    case 'css':
      return frame.locator(`css=${value}`);
  }
}

/**
 * The locator for one frame step: only iframe/frame elements count. An iframe has no ARIA role of its
 * own, so role `iframe` (or `frame`) with a name matches the element's title or aria-label.
 */
export function toFrameStepLocator(frame: LocatorScope, step: FrameStepSpec): Locator {
  const frames = frame.locator('css=iframe, frame');
  if (step.css !== undefined) return frame.locator(`css=${step.css}`).and(frames);
  if (step.testId !== undefined) return frame.getByTestId(step.testId).and(frames);
  const role = step.role ?? '';
  if (role === 'iframe' || role === 'frame') {
    if (step.name === undefined) return frames;
    return frames.and(
      frame.getByTitle(step.name, { exact: true }).or(frame.getByLabel(step.name, { exact: true })),
    );
  }
  return frame
    .getByRole(role as AriaRole, step.name === undefined ? {} : { name: step.name, exact: true })
    .and(frames);
}

/** A Playwright locator chained through the frame steps: re-resolved on every use, for waits. */
export function toChainedLocator(root: Frame, checked: CheckedLocator): Locator {
  let scope: LocatorScope = root;
  for (const step of checked.chain) scope = toFrameStepLocator(scope, step).contentFrame();
  return toPlaywrightLocator(scope, checked);
}

function clip(text: string, max = 60): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}
