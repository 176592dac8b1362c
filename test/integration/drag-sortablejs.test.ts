import { describe, expect, test, type SnapshotSetup } from './support/fixtures.js';
import { dragAndDrop } from '../../src/operations/act/drag.js';
import type { DropPosition } from '../../src/operations/act/drop-point.js';

/**
 * Drag and drop on a real sortable-list library (SortableJS, HTML5 drag events, 150 ms animations):
 * the library ignores dragover while it animates and for a moment after each move, so the drag must
 * be paced across frames and settle before it drops. Every drag below must land exactly where
 * `position` says, 20 times in a row, within one list (several places up and down) and between lists.
 */

let env: SnapshotSetup;
test.beforeAll(async ({ snapshotEnv }) => {
  env = snapshotEnv;
  await env.mesh.runOnPage(env.page.sessionId, env.page.pageId, 'goto', async (ctx) => {
    await ctx.page.page.goto(env.site.url('/reallibs/sortable'), { waitUntil: 'load' });
    await ctx.page.page.waitForFunction(() => document.documentElement.dataset['ready'] === 'base');
  });
});

const TODO = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot'];
const DONE = ['Golf', 'Hotel', 'India'];

interface Board {
  todo: string[];
  done: string[];
}

function page<T>(fn: string): Promise<T> {
  return env.mesh.runOnPage(
    env.page.sessionId,
    env.page.pageId,
    'evaluate',
    (ctx) => ctx.page.page.evaluate(fn) as Promise<T>,
  );
}

async function reset(): Promise<void> {
  await page(`resetBoard(${JSON.stringify(TODO)}, ${JSON.stringify(DONE)})`);
}

function board(): Promise<Board> {
  return page<Board>(
    `({ todo: [...document.querySelectorAll('#todo > li')].map((li) => li.textContent),
        done: [...document.querySelectorAll('#done > li')].map((li) => li.textContent) })`,
  );
}

async function drag(source: string, target: string, position: DropPosition): Promise<void> {
  await env.mesh.runOnPage(env.page.sessionId, env.page.pageId, 'drag', (ctx) =>
    dragAndDrop(ctx, { locator: { css: source } }, { locator: { css: target } }, { position }),
  );
}

/** Where the item lands: taken out of its list and put before or after the target item. */
function expected(from: Board, item: string, target: string, position: 'before' | 'after'): Board {
  const out = { todo: from.todo.filter((t) => t !== item), done: from.done.filter((t) => t !== item) };
  for (const list of [out.todo, out.done]) {
    const at = list.indexOf(target);
    if (at >= 0) list.splice(position === 'before' ? at : at + 1, 0, item);
  }
  return out;
}

const li = (list: string, index: number): string => `#${list} > li:nth-child(${index + 1})`;

describe('SortableJS', () => {
  test('reorders within a list by several places, 20 times without a miss', async () => {
    // Pairs two to five places apart, down and up, on both sides of the target.
    const moves: Array<[number, number]> = [
      [0, 3],
      [5, 1],
      [1, 4],
      [4, 0],
      [2, 5],
    ];
    for (let i = 0; i < 20; i++) {
      const [from, to] = moves[i % moves.length] as [number, number];
      const position = i % 2 === 0 ? 'after' : 'before';
      await reset();
      const want = expected({ todo: TODO, done: DONE }, TODO[from] ?? '', TODO[to] ?? '', position);
      await drag(li('todo', from), li('todo', to), position);
      expect(await board(), `drag ${i + 1}: ${TODO[from]} ${position} ${TODO[to]}`).toEqual(want);
    }
  });

  test('moves between two lists, 20 times without a miss', async () => {
    for (let i = 0; i < 20; i++) {
      const from = i % TODO.length;
      const to = i % DONE.length;
      const position = i % 2 === 0 ? 'before' : 'after';
      await reset();
      const want = expected({ todo: TODO, done: DONE }, TODO[from] ?? '', DONE[to] ?? '', position);
      await drag(li('todo', from), li('done', to), position);
      expect(await board(), `drag ${i + 1}: ${TODO[from]} ${position} ${DONE[to]}`).toEqual(want);
    }
  });
});
