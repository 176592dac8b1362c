import type { BrowserMesh } from '../engine/runtime.js';
import { createObservabilityHook } from './capture.js';

export { createObservabilityHook, observationsOf, PageObservations } from './capture.js';
export { readObservations, type ObserveQuery, type ObserveResult } from './read.js';
export { OBSERVE_SOURCES, type ObserveSource, type OutputEvent } from './types.js';

const installed = new WeakSet<BrowserMesh>();

/**
 * Starts capturing console, page error and network events for every page the runtime adopts from now
 * on (install it before creating sessions). Idempotent per runtime, so every face may call it.
 */
export function installObservability(mesh: BrowserMesh): void {
  if (installed.has(mesh)) return;
  installed.add(mesh);
  mesh.addPageHook(
    createObservabilityHook({
      maxEvents: mesh.config.observabilityEvents,
      maxStringChars: mesh.config.observabilityStringChars,
    }),
  );
}
