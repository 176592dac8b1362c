import type { LoggedStep } from '../act/action-log.js';
import {
  filesCode,
  locatorCode,
  quote,
  urlPatternCode,
  valueCode,
  type LocatorStyle,
} from './export-code.js';

/**
 * Turns action-log steps into a `@playwright/test` spec, as Playwright's codegen would write it:
 * role/label/text locators, `frameLocator` chains, web-first assertions for the waits and reads the
 * agent made (never a sleep), a dialog handler armed before the action that raised it, popups
 * awaited with `waitForEvent('popup')`, secrets as `process.env` placeholders. Pure: no browser.
 */

export interface SpecOptions {
  language: 'ts' | 'js';
  title: string;
  /** The saved state the session started from: the spec starts from its exported file. */
  stateId: string | null;
  locatorStyle?: LocatorStyle;
}

export interface GeneratedSpec {
  code: string;
  steps: number;
  /** Environment variables the spec reads (secret placeholders). */
  env: string[];
  /** Steps whose element had no unique locator when recorded (their lines carry a comment). */
  notUnique: number[];
}

export function generateSpec(steps: readonly LoggedStep[], options: SpecOptions): GeneratedSpec {
  const style = options.locatorStyle ?? 'best';
  const names = pageNames(steps);
  const triggers = popupTriggers(steps);
  const env = new Set<string>();
  const notUnique: number[] = [];
  const body: string[] = [];
  const declared = new Set<string>();
  let usesContext = false;
  for (const step of steps) {
    const page = names.get(step.pageId) ?? 'page';
    if (!declared.has(page)) {
      declared.add(page);
      if (page !== 'page' && step.openedBy === undefined && !triggers.has(step.pageId)) {
        body.push(`const ${page} = await context.newPage();`);
        usesContext = true;
      }
    }
    if (step.secret !== undefined) env.add(step.secret);
    if (step.targets?.some((t) => !t.unique)) notUnique.push(step.step);
    const popups = [...triggers.entries()].filter(([, at]) => at === step.step).map(([id]) => names.get(id));
    for (const popup of popups)
      if (popup) body.push(`const ${popup}Promise = ${page}.waitForEvent('popup');`);
    if (step.dialog) {
      const answer = step.dialog.accept
        ? `dialog.accept(${step.dialog.promptText !== undefined ? quote(step.dialog.promptText) : ''})`
        : 'dialog.dismiss()';
      body.push(`${page}.once('dialog', (dialog) => void ${answer});`);
    }
    body.push(...stepLines(step, page, style));
    for (const popup of popups) if (popup) body.push(`const ${popup} = await ${popup}Promise;`);
  }
  return {
    code: render(options, body, usesContext, env),
    steps: steps.length,
    env: [...env].sort(),
    notUnique,
  };
}

function render(options: SpecOptions, body: string[], usesContext: boolean, env: Set<string>): string {
  const head =
    options.language === 'ts'
      ? "import { test, expect } from '@playwright/test';"
      : "const { test, expect } = require('@playwright/test');";
  const lines = [head, ''];
  if (env.size > 0)
    lines.push(`// Secrets are read from the environment: ${[...env].sort().join(', ')}.`, '');
  if (options.stateId !== null) {
    lines.push(
      `// The session started from the saved state ${quote(options.stateId)}: export it as a Playwright`,
      `// storageState file (browsermesh --export-state ${options.stateId} > state.json) before running.`,
      "test.use({ storageState: 'state.json' });",
      '',
    );
  }
  const fixtures = usesContext ? '{ page, context }' : '{ page }';
  lines.push(`test(${quote(options.title)}, async (${fixtures}) => {`);
  if (body.length === 0)
    lines.push('  // No steps in this range (the action log is off when BROWSERMESH_ACTION_LOG_STEPS is 0).');
  for (const line of body) lines.push(`  ${line}`);
  lines.push('});', '');
  return lines.join('\n');
}

/** `page` for the first page of the range, then `page1`, `page2`… in order of first use. */
function pageNames(steps: readonly LoggedStep[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const step of steps) {
    if (!names.has(step.pageId)) names.set(step.pageId, names.size === 0 ? 'page' : `page${names.size}`);
  }
  return names;
}

/**
 * For each popup page in the range: the step that opened it — the action that reported it, else the
 * last step on its opener before the popup's first step.
 */
function popupTriggers(steps: readonly LoggedStep[]): Map<string, number> {
  const triggers = new Map<string, number>();
  steps.forEach((step, index) => {
    for (const id of step.opened ?? []) triggers.set(id, step.step);
    if (step.openedBy === undefined || triggers.has(step.pageId)) return;
    const opener = steps.slice(0, index).findLast((s) => s.pageId === step.openedBy);
    if (opener) triggers.set(step.pageId, opener.step);
  });
  return triggers;
}

function stepLines(step: LoggedStep, page: string, style: LocatorStyle): string[] {
  const target = step.targets?.[0];
  const el = target ? locatorCode(page, target, style) : undefined;
  const note = target && !target.unique ? ' // not unique when recorded' : '';
  const on = (call: string): string[] => (el ? [`await ${el}.${call};${note}`] : []);
  switch (step.kind) {
    case 'goto':
      return [`await ${page}.goto(${quote(step.url ?? '')});`];
    case 'back':
      return [`await ${page}.goBack();`];
    case 'forward':
      return [`await ${page}.goForward();`];
    case 'reload':
      return [`await ${page}.reload();`];
    case 'newPage':
      return [];
    case 'click':
      return on(clickCall(step));
    case 'hover':
    case 'focus':
    case 'check':
    case 'uncheck':
      return on(`${step.kind}()`);
    case 'scrollIntoView':
      return on('scrollIntoViewIfNeeded()');
    case 'fill':
      return on(`fill(${valueCode(step)})`);
    case 'type':
      return el
        ? on(`pressSequentially(${valueCode(step)})`)
        : [`await ${page}.keyboard.type(${valueCode(step)});`];
    case 'press':
      return el
        ? on(`press(${quote(step.key ?? '')})`)
        : [`await ${page}.keyboard.press(${quote(step.key ?? '')});`];
    case 'select': {
      const values = step.values ?? [];
      return on(
        `selectOption(${values.length === 1 ? quote(values[0] ?? '') : `[${values.map(quote).join(', ')}]`})`,
      );
    }
    case 'upload':
      return uploadLines(step, page, el, note);
    case 'drag': {
      const to = step.targets?.[1];
      return el && to ? [`await ${el}.dragTo(${locatorCode(page, to, style)});${note}`] : [];
    }
    default:
      return assertionLines(step, page, el, note);
  }
}

function clickCall(step: LoggedStep): string {
  const options: string[] = [];
  if (step.button && step.button !== 'left') options.push(`button: ${quote(step.button)}`);
  if (step.modifiers?.length) options.push(`modifiers: [${step.modifiers.map(quote).join(', ')}]`);
  const args = options.length > 0 ? `{ ${options.join(', ')} }` : '';
  if (step.clickCount === 2) return `dblclick(${args})`;
  if (step.clickCount !== undefined && step.clickCount > 2) options.push(`clickCount: ${step.clickCount}`);
  return `click(${options.length > 0 ? `{ ${options.join(', ')} }` : ''})`;
}

function uploadLines(step: LoggedStep, page: string, el: string | undefined, note: string): string[] {
  if (!el) return [];
  const named = (step.files ?? []).some((f) => f.base64 === undefined)
    ? ['// Large files are read from files/ next to the spec.']
    : [];
  if (step.state === 'input') return [...named, `await ${el}.setInputFiles(${filesCode(step)});${note}`];
  return [
    ...named,
    `const fileChooserPromise = ${page}.waitForEvent('filechooser');`,
    `await ${el}.click();${note}`,
    `await (await fileChooserPromise).setFiles(${filesCode(step)});`,
  ];
}

const STATE_MATCHERS: Record<string, string> = {
  visible: 'toBeVisible()',
  attached: 'toBeAttached()',
  enabled: 'toBeEnabled()',
  disabled: 'toBeDisabled()',
  hidden: 'toBeHidden()',
  detached: 'not.toBeAttached()',
};

function assertionLines(step: LoggedStep, page: string, el: string | undefined, note: string): string[] {
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
    default:
      return [];
  }
}
