import type { Locator } from 'playwright-core';
import type { TargetSpec } from '../locate/locator-spec.js';

/** What a wait waits for (its own module so the wait log can name it without importing the waits). */
export type ElementState = 'visible' | 'hidden' | 'attached' | 'detached' | 'enabled' | 'disabled';

export type WaitCondition =
  /** A glob or exact URL, or (code mode's `waitForURL(/re/)`) a RegExp's source and flags. */
  | { kind: 'url'; pattern: string | { source: string; flags: string } }
  | { kind: 'loadState'; state: 'domcontentloaded' | 'load' }
  | {
      kind: 'element';
      target: TargetSpec;
      state: ElementState;
      /**
       * Which of a built locator's matches count; the others are as if absent. Code mode's text chains
       * give the matches seen with the session's secrets redacted (docs/security.md, "No match oracles").
       */
      counted?: ((locator: Locator) => Promise<boolean[]>) | undefined;
    }
  /** Any of `texts` shown (present) or none of them (absent), in any frame or open shadow root. */
  | { kind: 'text'; texts: string[]; present: boolean };
