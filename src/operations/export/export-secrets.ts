import type { LoggedStep, LoggedTarget } from '../journal/action-log.js';
import { secretForms } from '../../redaction/secret-forms.js';
import { derivedSecretsOf } from '../../redaction/derived.js';
import { typedSecretsOf } from '../../redaction/typed-secrets.js';
import { quote } from './export-code.js';

/**
 * What keeps a secret out of an exported spec. The spec is code: a value reaches it quoted
 * (`quote()` writes `'` as `\'`, a line separator as `\u2028`), inside a RegExp source, or as the
 * page encoded it (a name the page echoed a percent-encoded value into). Every one of those forms of
 * every value the session must not show is looked for, in each logged string and in the whole text.
 */
export interface SecretCheck {
  /** The environment variable name of the secret `text` holds, if it holds one. */
  nameOf(text: string): string | undefined;
  /** `text` with every secret form replaced by its `{{secret:NAME}}` reference. */
  scrub(text: string): string;
}

/** The variable a secret typed into a password field (not a configured one) is read from. */
export const TYPED_SECRET_VAR = 'PASSWORD';

/** The forms a value takes in generated code, beyond the ones every output is redacted for. */
export function codeForms(value: string): string[] {
  const quoted = quote(value).slice(1, -1);
  const regex = value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const lineSeparators = (text: string): string =>
    text.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return [
    quoted,
    quote(regex).slice(1, -1),
    lineSeparators(JSON.stringify(value).slice(1, -1)),
    value.replace(/'/g, "\\'"),
    value.replace(/"/g, '\\"'),
    lineSeparators(value),
  ];
}

/** The check for a session: its configured secrets, what pages kept of them, typed secret values. */
export function sessionSecretCheck(
  secrets: Readonly<Record<string, string>>,
  sessionId: string,
): SecretCheck {
  const named: Array<readonly [string, string]> = [
    ...Object.entries(secrets).map(([name, value]) => [value, name] as const),
    ...derivedSecretsOf(sessionId),
    ...typedSecretsOf(sessionId).map((value) => [value, TYPED_SECRET_VAR] as const),
  ];
  return secretCheck(named);
}

/** A check over `[value, name]` pairs (longest forms are replaced first). */
export function secretCheck(named: ReadonlyArray<readonly [value: string, name: string]>): SecretCheck {
  const forms: Array<[form: string, name: string]> = [];
  for (const [value, name] of named) {
    if (value === '') continue;
    for (const form of new Set([...secretForms(value), ...codeForms(value)]))
      if (form !== '') forms.push([form, name]);
  }
  forms.sort((a, b) => b[0].length - a[0].length);
  return {
    nameOf: (text) => forms.find(([form]) => text.includes(form))?.[1],
    scrub: (text) => forms.reduce((out, [form, name]) => out.split(form).join(`{{secret:${name}}}`), text),
  };
}

/** Every string a target puts into the spec. */
function targetStrings(target: LoggedTarget): string[] {
  const element = target.element;
  const own = element.by === 'role' ? [element.role, element.name ?? ''] : [element.value];
  return [...own, target.css, ...target.frames];
}

/**
 * A target whose strings hold no secret, or undefined when none can be written: its CSS selector
 * when that is clean, else its role alone (not unique, so marked), else nothing.
 */
export function safeTarget(target: LoggedTarget, check: SecretCheck): LoggedTarget | undefined {
  const holds = (text: string): boolean => check.nameOf(text) !== undefined;
  if (!targetStrings(target).some(holds)) return target;
  if (target.frames.some(holds)) return undefined;
  if (target.css !== '' && !holds(target.css))
    return { ...target, element: { by: 'css', value: target.css } };
  if (target.element.by === 'role' && !holds(target.element.role))
    return { ...target, element: { by: 'role', role: target.element.role }, css: '', unique: false };
  return undefined;
}

/**
 * The steps with every target made safe and every typed value that holds a secret turned into its
 * variable. A step whose target cannot be written without a secret is marked `unsafe` (the spec
 * writes a comment in its place).
 */
export function safeSteps(
  steps: readonly LoggedStep[],
  check: SecretCheck,
): Array<LoggedStep & { unsafe?: true }> {
  return steps.map((step) => {
    const targets = step.targets?.map((t) => safeTarget(t, check));
    if (targets?.some((t) => t === undefined)) return { ...step, targets: [], unsafe: true as const };
    const typedName =
      (step.kind === 'fill' || step.kind === 'type') && step.value !== undefined
        ? check.nameOf(step.value)
        : undefined;
    const { value: _typed, ...rest } = step;
    const kept = typedName !== undefined ? { ...rest, secret: typedName } : step;
    return targets ? { ...kept, targets: targets as LoggedTarget[] } : kept;
  });
}
