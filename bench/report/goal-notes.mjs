// Why a token goal is out of reach, from the run's own figures (never an estimate): what a snapshot
// spends on names, roles and lines, and what that leaves for each ref.

import { fmtInt, fmtRatio } from './format.mjs';

/**
 * The smallest a ref can cost: ` @e12` is three o200k tokens (` @`, `e`, `12`); ` @e1234` up to
 * ` @e123456` are four. The `e` is the documented format (seed 000's `[button @e5]`, PRODUCT.md).
 */
const MIN_REF_TOKENS = 3;
const SHORT_REF_TOKENS = 4;

/**
 * For a missed interactive-only goal: `bm` is BrowserMesh's interactive row (with `refs` and
 * `tokensWithoutRefs`), `bmFull` its full row, `peerTokens` the peer's full snapshot, `limit` the
 * target ratio. Undefined when the row lacks the ref figures.
 */
export function interactiveSnapshotNote(bm, bmFull, peerTokens, limit) {
  if (!(bm?.refs > 0) || !Number.isFinite(bm.tokensWithoutRefs) || !(peerTokens > 0)) return undefined;
  const target = limit * peerTokens;
  const perRef = (target - bm.tokensWithoutRefs) / bm.refs;
  const share = Number.isFinite(bmFull?.tokens)
    ? `, ${fmtRatio(bm.tokens / bmFull.tokens)} of its own full snapshot`
    : '';
  const spent =
    `${fmtInt(bm.refs)} refs${share}; names, roles and lines alone are ${fmtInt(bm.tokensWithoutRefs)} tokens ` +
    `(${fmtRatio(bm.tokensWithoutRefs / peerTokens)}), against ${fmtInt(Math.floor(target))} for the target`;
  if (perRef <= 0)
    return `${spent}: out of reach even with no refs at all — nearly every element here is interactive and keeps its role and name`;
  if (perRef < MIN_REF_TOKENS)
    return `${spent}, ${perRef.toFixed(1)} tokens per ref: below the ${MIN_REF_TOKENS} the shortest ref (\` @e12\`) costs`;
  if (perRef < SHORT_REF_TOKENS)
    return (
      `${spent}, ${perRef.toFixed(1)} tokens per ref: only refs under 1,000 fit (\` @e999\` is ${MIN_REF_TOKENS} tokens, ` +
      `\` @e1000\` ${SHORT_REF_TOKENS}); ref numbers are unique per process (never reused by another page, session or ` +
      'document), so they pass 999 after the first thousand refs handed out'
    );
  return undefined;
}
