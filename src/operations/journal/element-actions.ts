/**
 * The element-action table: actions that take one element and nothing else (hover, focus, check,
 * blur, …). One row here, plus its operation (src/operations/act/) and its entry in
 * `ELEMENT_OPERATIONS` (src/tools/element-actions.ts), makes the action on every face:
 *
 * - MCP's `browser_<snake_name>` tool (title and description below) and the library's `<name>()`;
 * - code mode's `locator.<name>()` and `page.<name>(selector)`, and `browser_run`'s `<name>` step;
 * - the CLI verb (`browsermesh <kebab-name> <ref|locator>`);
 * - the action log's step kind, and the exported Playwright test's line (`await locator.<playwright>`).
 *
 * A leaf with no imports: the sandbox worker reads it to parse `page.*` calls, and it must not load
 * the engine.
 */
export interface ElementActionRow {
  /** The MCP tool's title. */
  readonly title: string;
  /** The MCP tool's description: what it does and when to use it. */
  readonly description: string;
  /** The CLI verb's one-line summary. */
  readonly summary: string;
  /**
   * Playwright's Locator method, as the exported test calls it. When it differs from the row's
   * name (`scrollIntoViewIfNeeded`), code mode's method of that name is written by hand in the
   * prelude; otherwise `page.<name>(selector)` and `locator.<name>()` are generated.
   */
  readonly playwright: string;
}

export const ELEMENT_ACTIONS = {
  hover: {
    title: 'Hover',
    description: 'Move the mouse over an element (menus, tooltips).',
    summary: 'Hover over an element',
    playwright: 'hover',
  },
  focus: {
    title: 'Focus',
    description: 'Give an element keyboard focus; selectText selects that text in it.',
    summary: 'Focus an element',
    playwright: 'focus',
  },
  check: {
    title: 'Check',
    description: 'Ensure a checkbox, radio or switch is checked (clicks only if needed).',
    summary: 'Check a checkbox or radio',
    playwright: 'check',
  },
  uncheck: {
    title: 'Uncheck',
    description: 'Ensure a checkbox or switch is unchecked (clicks only if needed).',
    summary: 'Uncheck a checkbox',
    playwright: 'uncheck',
  },
  scrollIntoView: {
    title: 'Scroll into view',
    description: 'Scroll until an element is visible (through its iframes too).',
    summary: 'Scroll an element into view',
    playwright: 'scrollIntoViewIfNeeded',
  },
  blur: {
    title: 'Blur',
    description:
      'Take keyboard focus away from an element, as leaving a field does (runs its blur validation).',
    summary: 'Take focus away from an element (blur validation)',
    playwright: 'blur',
  },
} as const satisfies Record<string, ElementActionRow>;

export type ElementActionKind = keyof typeof ELEMENT_ACTIONS;

/** The rows' names, in the table's order (the order tools, steps and verbs are listed in). */
export const ELEMENT_ACTION_KINDS = Object.keys(ELEMENT_ACTIONS) as ElementActionKind[];

export function isElementAction(kind: string): kind is ElementActionKind {
  return Object.hasOwn(ELEMENT_ACTIONS, kind);
}

/** `scrollIntoView` → `scroll_into_view` (the MCP tool's and the CLI tool call's name). */
export function snakeName(kind: ElementActionKind): string {
  return kind.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** `scrollIntoView` → `scroll-into-view` (the CLI verb). */
export function kebabName(kind: ElementActionKind): string {
  return snakeName(kind).replace(/_/g, '-');
}
