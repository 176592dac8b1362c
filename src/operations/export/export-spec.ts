import type { LoggedStep } from '../journal/action-log.js';
import { ELEMENT_ACTIONS, isElementAction } from '../journal/element-actions.js';
import { checkLines, nextActedOn, READ_KINDS } from './export-checks.js';
import { filesCode, locatorCode, quote, valueCode, type LocatorStyle } from './export-code.js';
import { safeSteps, secretCheck, type SecretCheck } from './export-secrets.js';

/**
 * Turns action-log steps into a `@playwright/test` spec, as Playwright's codegen would write it:
 * role/label/text locators, `frameLocator` chains, web-first assertions for the waits and reads the
 * agent made (never a sleep), a dialog handler armed before the action that raised it, popups
 * awaited with `waitForEvent('popup')`, secrets read from the environment at the test's start (a
 * missing one fails it there, by name). No secret value is written: every logged string, then the
 * whole text, is checked against the session's secrets (export-secrets.ts). Pure: no browser.
 */

export interface SpecOptions {
  language: 'ts' | 'js';
  title: string;
  /** The saved state the session started from: the spec starts from its exported file. */
  stateId: string | null;
  locatorStyle?: LocatorStyle;
  /** false: no assertions from what the agent read (the waits' assertions stay). Default true. */
  assertions?: boolean;
  /** The session's secrets check; none when absent (a pure test of the generator). */
  secrets?: SecretCheck;
}

export interface GeneratedSpec {
  code: string;
  steps: number;
  /** Environment variables the spec reads (secret placeholders). */
  env: string[];
  /** Steps whose element had no unique locator when recorded (their lines carry a comment). */
  notUnique: number[];
  /** `expect` calls written, and the steps (waits and reads) they came from. */
  assertions: number;
  assertionSteps: number[];
  /** Steps left out because every locator of their element holds a secret. */
  withheld: number[];
}

/** The function a spec that types secrets starts with: a missing variable fails the test, by name. */
export const SECRET_FROM_ENV = 'secretFromEnv';

export function generateSpec(logged: readonly LoggedStep[], options: SpecOptions): GeneratedSpec {
  const style = options.locatorStyle ?? 'best';
  const check = options.secrets ?? secretCheck([]);
  const assertReads = options.assertions !== false;
  const steps = safeSteps(logged, check).filter((s) => assertReads || !READ_KINDS.has(s.kind));
  const assertionSteps: number[] = [];
  const withheld: number[] = [];
  let assertions = 0;
  const names = pageNames(steps);
  const triggers = popupTriggers(steps);
  const env = new Set<string>();
  const notUnique: number[] = [];
  const body: string[] = [];
  const declared = new Set<string>();
  let usesContext = false;
  for (const [index, step] of steps.entries()) {
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
    const next = nextActedOn(steps, index);
    const nextEl = next?.targets?.[0] ? locatorCode(page, next.targets[0], style) : undefined;
    const lines = step.unsafe ? [] : stepLines(step, page, style, nextEl);
    // A line that would still write a secret (a value the page showed) is left out, said so.
    if (step.unsafe || lines.some((line) => check.nameOf(line) !== undefined)) {
      withheld.push(step.step);
      body.push(`// Step ${step.step} (${step.kind}) is left out: it would write a secret value.`);
      continue;
    }
    const expects = lines.filter((line) => line.startsWith('await expect(')).length;
    if (expects > 0) assertionSteps.push(step.step);
    assertions += expects;
    body.push(...lines);
    for (const popup of popups) if (popup) body.push(`const ${popup} = await ${popup}Promise;`);
  }
  return {
    // The last guard: nothing the page showed of a secret survives in the text, in any form.
    code: check.scrub(render(options, body, usesContext, env)),
    steps: steps.length,
    env: [...env].sort(),
    notUnique,
    assertions,
    assertionSteps,
    withheld,
  };
}

function render(options: SpecOptions, body: string[], usesContext: boolean, env: Set<string>): string {
  const head =
    options.language === 'ts'
      ? "import { test, expect } from '@playwright/test';"
      : "const { test, expect } = require('@playwright/test');";
  const lines = [head, ''];
  const names = [...env].sort();
  if (names.length > 0) lines.push(...secretFromEnvLines(options.language), '');
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
  if (names.length > 0)
    lines.push(
      `  const secrets = { ${names.map((n) => `${n}: ${SECRET_FROM_ENV}(${quote(n)})`).join(', ')} };`,
    );
  if (body.length === 0)
    lines.push('  // No steps in this range (the action log is off when BROWSERMESH_ACTION_LOG_STEPS is 0).');
  for (const line of body) lines.push(`  ${line}`);
  lines.push('});', '');
  return lines.join('\n');
}

function secretFromEnvLines(language: 'ts' | 'js'): string[] {
  const typed = language === 'ts' ? ['name: string', ': string'] : ['name', ''];
  return [
    '/** A secret the spec types, from the environment: the test fails at its start without it. */',
    `function ${SECRET_FROM_ENV}(${typed[0]})${typed[1]} {`,
    '  const value = process.env[name];',
    '  if (!value) throw new Error(`The environment variable ${name} is not set: this spec types it in place of a secret.`);',
    '  return value;',
    '}',
  ];
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

function stepLines(step: LoggedStep, page: string, style: LocatorStyle, next: string | undefined): string[] {
  const target = step.targets?.[0];
  const el = target ? locatorCode(page, target, style) : undefined;
  const note = target && !target.unique ? ' // not unique when recorded' : '';
  const on = (call: string): string[] => (el ? [`await ${el}.${call};${note}`] : []);
  if (isElementAction(step.kind)) return on(`${ELEMENT_ACTIONS[step.kind].playwright}()`);
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
      return checkLines(step, { page, el, note, next });
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
