import type { LoggedStep } from '../journal/action-log.js';
import { ELEMENT_ACTION_KINDS } from '../journal/element-actions.js';
import { quote, urlPatternCode } from './export-code.js';

/**
 * The web-first assertions a spec writes for what the agent waited for and read: a wait is a check
 * the agent asked the page to pass; a read (the URL, the page's text, a find, a scoped snapshot) is
 * a check the agent made by looking. Each becomes an assertion on what was looked at — the URL, the
 * page's heading and live regions, the element found, the element acted on next — never a dump of
 * the page.
 */

const STATE_MATCHERS: Record<string, string> = {
  visible: 'toBeVisible()',
  attached: 'toBeAttached()',
  enabled: 'toBeEnabled()',
  disabled: 'toBeDisabled()',
  hidden: 'toBeHidden()',
  detached: 'not.toBeAttached()',
};

/** Steps that only read: the checks `assertions: false` leaves out (waits stay: they synchronize). */
export const READ_KINDS: ReadonlySet<LoggedStep['kind']> = new Set([
  'readText',
  'readUrl',
  'readPage',
  'readElement',
]);

/** Where a check's lines go: the page variable, the step's element, and the next acted-on element. */
export interface CheckPlace {
  page: string;
  /** The step's own element locator, with its "not unique" note. */
  el: string | undefined;
  note: string;
  /** The element the agent acted on next on this page (after a whole-page read). */
  next: string | undefined;
}

export function checkLines(step: LoggedStep, { page, el, note, next }: CheckPlace): string[] {
  switch (step.kind) {
    case 'waitUrl':
      return step.urlPattern === undefined
        ? []
        : [`await expect(${page}).toHaveURL(${urlPatternCode(step.urlPattern)});`];
    case 'waitText':
      return [`await expect(${page}.getByText(${quote(step.value ?? '')}).first()).toBeVisible();`];
    case 'waitTextGone':
      return (step.values ?? []).map(
        (text) => `await expect(${page}.getByText(${quote(text)})).toHaveCount(0);`,
      );
    case 'waitElement': {
      const matcher = STATE_MATCHERS[step.state ?? 'visible'] ?? 'toBeVisible()';
      return el ? [`await expect(${el}).${matcher};${note}`] : [];
    }
    case 'readText':
      return el ? [`await expect(${el}).toHaveText(${quote(step.value ?? '')});${note}`] : [];
    case 'readUrl':
      return step.url === undefined ? [] : [`await expect(${page}).toHaveURL(${quote(step.url)});`];
    case 'readPage':
      return [
        ...(step.values ?? []).map(
          (text) => `await expect(${page}.locator('body')).toContainText(${quote(text)});`,
        ),
        ...(next ? [`await expect(${next}).toBeVisible();`] : []),
      ];
    case 'readElement':
      if (!el) return [];
      return [
        `await expect(${el}).toBeVisible();${note}`,
        ...(step.value !== undefined
          ? [`await expect(${el}).toContainText(${quote(step.value)});${note}`]
          : []),
      ];
    default:
      return [];
  }
}

/** Step kinds that act on their first target (the element a preceding read looked for). */
const ACTS_ON_TARGET: ReadonlySet<LoggedStep['kind']> = new Set<LoggedStep['kind']>([
  'click',
  ...ELEMENT_ACTION_KINDS,
  'fill',
  'type',
  'press',
  'select',
  'upload',
  'drag',
]);

/** The step after `index` on the same page, when it acts on an element (a read's "acted on next"). */
export function nextActedOn(steps: readonly LoggedStep[], index: number): LoggedStep | undefined {
  const step = steps[index];
  if (!step) return undefined;
  const next = steps.slice(index + 1).find((s) => s.pageId === step.pageId);
  return next && ACTS_ON_TARGET.has(next.kind) && next.targets?.[0] ? next : undefined;
}
