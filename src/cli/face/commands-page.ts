import { UsageError, type CommandSpec } from './command-spec.js';
import { choose, pathFrom, REF, takeTarget, tool } from './command-helpers.js';
import {
  ELEMENT_ACTION_KINDS,
  ELEMENT_ACTIONS,
  kebabName,
  snakeName,
} from '../../operations/journal/element-actions.js';

/** Navigation, reading and element commands: each is one tool call on the session's current page. */

const element = (name: string, tool_: string, summary: string): CommandSpec => ({
  name,
  usage: '<ref|locator>',
  summary,
  target: true,
  build: (input) => {
    const target = takeTarget(input);
    input.done();
    return tool(tool_, target);
  },
});

export const PAGE_COMMANDS: readonly CommandSpec[] = [
  {
    name: 'open',
    usage: '[url]',
    summary: 'Open the session (created on first use) and go to url',
    build: (input) => {
      const url = input.takeOptional();
      input.done();
      return { kind: 'open', ...(url === undefined ? {} : { url }) };
    },
  },
  {
    name: 'goto',
    aliases: ['navigate'],
    usage: '<url>',
    summary: 'Go to url on the current tab',
    build: (input) => {
      const url = input.take('url');
      input.done();
      return { kind: 'open', url };
    },
  },
  { name: 'back', usage: '', summary: 'Go back in history', build: () => tool('back') },
  { name: 'forward', usage: '', summary: 'Go forward in history', build: () => tool('forward') },
  { name: 'reload', usage: '', summary: 'Reload the page', build: () => tool('reload') },
  {
    name: 'snapshot',
    usage: '[ref]',
    summary: 'The page as `[role @eN] name` lines; refs are what the element commands take',
    details: ['A ref argument (or --scope) limits it to that element; --cursor reads on where it was cut.'],
    options: [
      { name: 'interactive', short: 'i', help: 'only interactive elements (much smaller)' },
      { name: 'depth', short: 'd', value: 'N', help: 'deepest level shown' },
      { name: 'scope', value: 'REF', help: "only this element's subtree" },
      { name: 'cursor', value: 'CURSOR', help: 'read on from a cut snapshot' },
      { name: 'diff', help: 'only lines changed since the previous snapshot (+ - ~)' },
      { name: 'urls', help: 'show link targets' },
      { name: 'max-chars', value: 'N', help: 'size budget (default as the tool)' },
    ],
    build: (input) => {
      const scope = input.text('scope') ?? (REF.test(input.peek() ?? '') ? input.take('ref') : undefined);
      input.done();
      const cursor = input.text('cursor');
      if (cursor !== undefined) return tool('snapshot', { cursor });
      const depth = input.int('depth');
      const maxChars = input.int('max-chars');
      return tool('snapshot', {
        ...(input.flag('interactive') ? { interactiveOnly: true } : {}),
        ...(depth === undefined ? {} : { maxDepth: depth }),
        ...(scope === undefined ? {} : { scope: { ref: scope.startsWith('@') ? scope : `@${scope}` } }),
        ...(input.flag('diff') ? { since: 'previous' } : {}),
        ...(input.flag('urls') ? { includeUrls: true } : {}),
        ...(maxChars === undefined ? {} : { maxChars }),
      });
    },
  },
  {
    name: 'text',
    usage: '[ref]',
    summary: "The page's visible text (bounded)",
    options: [{ name: 'max-chars', value: 'N', help: 'size budget' }],
    build: (input) => {
      const ref = REF.test(input.peek() ?? '') ? input.take('ref') : undefined;
      input.done();
      const maxChars = input.int('max-chars');
      return tool('visible_text', {
        ...(ref === undefined ? {} : { scope: { ref: ref.startsWith('@') ? ref : `@${ref}` } }),
        ...(maxChars === undefined ? {} : { maxChars }),
      });
    },
  },
  { name: 'url', usage: '', summary: "The current tab's URL", build: () => tool('get_url') },
  { name: 'title', usage: '', summary: "The current tab's title", build: () => tool('get_title') },
  element('click', 'click', 'Click an element'),
  element('dblclick', 'double_click', 'Double-click an element'),
  // hover, focus, check, uncheck, scroll-into-view, …: the element-action table's rows.
  ...ELEMENT_ACTION_KINDS.map((kind) =>
    element(kebabName(kind), snakeName(kind), ELEMENT_ACTIONS[kind].summary),
  ),
  {
    name: 'fill',
    usage: '<ref|locator> <value>',
    summary: 'Replace a field’s value',
    target: true,
    build: (input) => {
      const target = takeTarget(input);
      const value = input.take('value');
      input.done();
      return tool('fill', { ...target, value });
    },
  },
  {
    name: 'type',
    usage: '[ref|locator] <text>',
    summary: 'Type text key by key (into the focused element without a target)',
    target: true,
    build: (input) => {
      const target = optionalTarget(input);
      const text = input.take('text');
      input.done();
      return tool('type', { ...target, text });
    },
  },
  {
    name: 'press',
    usage: '[ref|locator] <key>',
    summary: 'Press a key or chord (Enter, Tab, Control+a) on the focused element or a target',
    target: true,
    build: (input) => {
      const target = optionalTarget(input);
      const key = input.take('key');
      input.done();
      return tool('press', { ...target, key });
    },
  },
  {
    name: 'select',
    usage: '<ref|locator> <value...>',
    summary: 'Choose option(s) of a select by value, or by label where no value matches',
    options: [{ name: 'by-label', help: 'match option labels only' }],
    target: true,
    build: (input) => {
      const target = takeTarget(input);
      const values = input.rest('value');
      const one = values.length === 1 ? values[0] : values;
      return tool('select_option', {
        ...target,
        ...(input.flag('by-label') ? { label: one } : { value: one }),
      });
    },
  },
  {
    name: 'drag',
    usage: '<source-ref> <target-ref>',
    summary: 'Drag one element onto another',
    build: (input) => {
      const [source, target] = [input.take('source ref'), input.take('target ref')].map(toRef);
      input.done();
      return tool('drag_and_drop', { source: { ref: source }, target: { ref: target } });
    },
  },
  {
    name: 'upload',
    usage: '<ref|locator> <file...>',
    summary: 'Give files to a file input or an upload button (paths under the upload roots)',
    target: true,
    build: (input) => {
      const target = takeTarget(input);
      const files = input.rest('file').map((path) => ({ path: pathFrom(input, path) }));
      return tool('upload', { ...target, files });
    },
  },
  {
    name: 'scroll',
    usage: '[ref|locator]',
    summary: 'Scroll the page or an element by --dy/--dx pixels',
    options: [
      { name: 'dy', value: 'PX', help: 'vertical pixels (default 600)' },
      { name: 'dx', value: 'PX', help: 'horizontal pixels' },
    ],
    target: true,
    build: (input) => {
      const target = optionalTarget(input);
      input.done();
      return tool('scroll', {
        ...target,
        deltaY: signed(input.text('dy') ?? '600'),
        deltaX: signed(input.text('dx') ?? '0'),
      });
    },
  },
  {
    name: 'wait',
    usage: '[ref|locator]',
    summary: 'Wait for text (any of several), a URL, a load state, or an element state',
    details: ['Exactly one condition: --text (repeatable, any of), --url, --load, or a target with --state.'],
    options: [
      { name: 'text', value: 'TEXT', repeat: true, help: 'text to appear (any of, when repeated)' },
      { name: 'gone', help: 'with --text: wait until none of it shows' },
      { name: 'url', value: 'PATTERN', help: 'URL or glob (* within a segment, ** anything)' },
      { name: 'load', value: 'STATE', help: 'domcontentloaded or load' },
      {
        name: 'state',
        value: 'STATE',
        help: 'visible (default), hidden, attached, detached, enabled, disabled',
      },
    ],
    target: true,
    build: (input) => {
      const texts = input.list('text');
      const url = input.text('url');
      const load = input.text('load');
      if (texts !== undefined) {
        input.done();
        return tool('wait', {
          text: texts.length === 1 ? texts[0] : texts,
          ...(input.flag('gone') ? { present: false } : {}),
        });
      }
      if (url !== undefined || load !== undefined) {
        input.done();
        return tool('wait', url !== undefined ? { url } : { loadState: load });
      }
      const target = takeTarget(input);
      input.done();
      const state = input.text('state');
      return tool('wait', { ...target, ...(state === undefined ? {} : { state }) });
    },
  },
  {
    name: 'tabs',
    aliases: ['tab'],
    usage: '[list | new [url] | select <n> | close [n]]',
    summary: "The session's tabs; select changes this session's current tab",
    build: (input) => {
      const action = choose(input, ['list', 'new', 'select', 'close'] as const, 'list');
      const tab =
        action === 'select'
          ? input.take('tab number')
          : action === 'close'
            ? input.takeOptional()
            : undefined;
      const url = action === 'new' ? input.takeOptional() : undefined;
      input.done();
      return {
        kind: 'tabs',
        action,
        ...(tab === undefined ? {} : { tab }),
        ...(url === undefined ? {} : { url }),
      };
    },
  },
];

/** A target when one is given (a ref positional or locator options), otherwise none. */
function optionalTarget(input: Parameters<CommandSpec['build']>[0]): object {
  try {
    return takeTarget(input);
  } catch (error) {
    if (error instanceof UsageError) return {};
    throw error;
  }
}

function toRef(text: string): string {
  if (!REF.test(text)) throw new UsageError(`drag: "${text.slice(0, 20)}" is not a ref like @e5`);
  return text.startsWith('@') ? text : `@${text}`;
}

function signed(text: string): number {
  if (!/^-?\d{1,6}$/.test(text)) throw new UsageError('scroll: --dy/--dx must be whole numbers of pixels');
  return Number(text);
}
