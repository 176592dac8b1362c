import type { BestLocator } from '../journal/action-log.js';
import { SECRET_AUTOCOMPLETE } from '../../snapshot/roles.js';

/**
 * What an element tells about itself for the action log's locator choice (best-locator.ts), read in
 * one page call: its label, placeholder, test id, short visible text, CSS candidates, and whether it
 * is a secret field.
 */

/** Facts the page gives about an element in one call (see collectFacts). */
export interface Facts {
  label: string;
  placeholder: string;
  testId: string;
  text: string;
  css: string[];
  secretField: boolean;
}

/** Texts longer than this are not used as locators. */
export const MAX_TEXT = 80;

export type FactsOpts = { maxText: number; secretAutocomplete: string };

export const FACTS_OPTS: FactsOpts = { maxText: MAX_TEXT, secretAutocomplete: SECRET_AUTOCOMPLETE.source };

/** collectFacts as a CDP function declaration on the element (`this`). */
export const FACTS_FUNCTION = `function (opts) { return (${collectFacts.toString()})(this, opts); }`;

/** The facts' CSS candidates, in the order they are preferred. */
export function cssCandidates(facts: Facts): BestLocator[] {
  return facts.css.map((value): BestLocator => ({ by: 'css', value }));
}

/**
 * Runs in the page (Playwright serializes it): the element's label, placeholder, test id, short
 * visible text and CSS candidates (id, attributes, classes, then a structural path that crosses
 * shadow roots with a descendant step, as Playwright's CSS engine pierces them).
 */
export function collectFacts(el: Element, opts: FactsOpts): Facts {
  const norm = (s: string | null | undefined): string =>
    String(s ?? '')
      .replace(/\s+/g, ' ')
      .trim();
  const q = (s: string): string => JSON.stringify(s);
  const ident = /^[A-Za-z_][\w-]*$/;
  const tag = el.localName;
  const input = el as HTMLInputElement;
  const labels = 'labels' in input && input.labels && input.labels.length > 0 ? input.labels : null;
  const label = labels ? norm((labels[0] as HTMLElement).innerText) : norm(el.getAttribute('aria-label'));
  const text = norm((el as HTMLElement).innerText ?? el.textContent);
  const auto = String(el.getAttribute('autocomplete') ?? '');
  const secretField =
    tag === 'input' &&
    (String(input.type).toLowerCase() === 'password' || new RegExp(opts.secretAutocomplete, 'i').test(auto));
  const css: string[] = [];
  if (el.id && ident.test(el.id)) css.push(`#${el.id}`);
  for (const attr of ['data-testid', 'name', 'title', 'src', 'aria-label']) {
    const v = el.getAttribute(attr);
    if (v && v.length <= 200) css.push(`${tag}[${attr}=${q(v)}]`);
  }
  const classes = [...el.classList].filter((c) => ident.test(c)).slice(0, 3);
  if (classes.length > 0) css.push(tag + classes.map((c) => `.${c}`).join(''));
  const steps: string[] = [];
  for (let node: Element | null = el; node;) {
    const parent: Element | null = node.parentElement;
    const root = node.getRootNode();
    if (node.id && ident.test(node.id)) {
      steps.unshift(`#${node.id}`);
      if (root instanceof Document) break;
    } else {
      const same = parent ? [...parent.children].filter((c) => c.localName === node?.localName) : [node];
      const nth = same.length > 1 ? `:nth-of-type(${same.indexOf(node) + 1})` : '';
      steps.unshift(node.localName + nth);
    }
    if (parent) {
      steps.unshift('>');
      node = parent;
    } else if (root instanceof ShadowRoot) {
      node = root.host;
    } else break;
  }
  if (steps[0] === '>') steps.shift();
  css.push(steps.join(' '));
  return {
    label: label.length <= opts.maxText ? label : '',
    placeholder: norm(el.getAttribute('placeholder')),
    testId: el.getAttribute('data-testid') ?? '',
    text: text.length <= opts.maxText ? text : '',
    css,
    secretField,
  };
}
