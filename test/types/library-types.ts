/**
 * Compile-time checks of the library's operation types, compiled by tsc in
 * test/unit/library-types.test.ts: every `@ts-expect-error` line must be an error, or tsc fails.
 * Never run: the calls only need to type-check.
 */
import type {
  ClickInput,
  FillInput,
  MeshOperations,
  NavigateInput,
  PdfInput,
  UploadInput,
} from '../../src/index.js';

const page = { sessionId: 's_0123456789', pageId: 'p1' };

export function typed(ops: MeshOperations): void {
  const byRef: ClickInput = { ...page, ref: '@e3' };
  const byLocator: ClickInput = { ...page, locator: { role: 'button', name: 'Sign in' } };
  void ops.click(byRef);
  void ops.click(byLocator);
  // @ts-expect-error -- both ref and locator: exactly one is allowed
  void ops.click({ ...page, ref: '@e3', locator: { role: 'button' } });
  // @ts-expect-error -- neither ref nor locator
  void ops.click({ ...page });
  const fill: FillInput = { ...page, ref: '@e6', value: 'buyer' };
  void ops.fill(fill);
  // @ts-expect-error -- fill needs its element too
  void ops.fill({ ...page, value: 'buyer' });
  // press targets the focused element when none is given: no target is fine.
  void ops.press({ ...page, key: 'Enter' });
  const go: NavigateInput = { ...page, url: 'http://127.0.0.1:8080/' };
  void ops.navigate(go);
  // @ts-expect-error -- a misspelled field is not a NavigateInput
  void ops.navigate({ ...page, ur: 'http://127.0.0.1:8080/' });
  // The files and watch operations the MCP server has.
  const pdf: PdfInput = { ...page };
  void ops.pdf(pdf);
  void ops.files({ sessionId: page.sessionId });
  void ops.trace({ sessionId: page.sessionId, action: 'start' });
  void ops.recording({ sessionId: page.sessionId, action: 'start' });
  const upload: UploadInput = { ...page, ref: '@e4', files: [{ path: '/tmp/a.txt' }] };
  void ops.upload(upload);
}
