import type { SnapNode } from './types.js';

/**
 * The built tree with every page string (names, values, link URLs) passed through `redact`, in
 * place, before anything renders, cuts or matches it: a find or a match count then sees a
 * secret-filled field's value as its `{{secret:NAME}}` reference, so no answer depends on the secret.
 */
export function redactTree(root: SnapNode, redact: (text: string) => string): void {
  const stack = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    node.name = redact(node.name);
    if (typeof node.value === 'string') node.value = redact(node.value);
    if (node.url !== undefined) node.url = redact(node.url);
    stack.push(...node.children);
  }
}
