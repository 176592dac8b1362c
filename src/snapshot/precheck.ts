/**
 * The pre-capture budget (seed 003): before any accessibility tree is computed, count the DOM and text
 * nodes and the source characters (text and attribute values) of the scope, shadow roots and
 * reachable same-origin iframes included, and stop counting as soon as a limit is passed. Runs in the
 * page; `this` is the scope element when there is one, else the document is counted.
 */

export interface PrecheckCount {
  nodes: number;
  chars: number;
}

export const PRECHECK = `function (maxNodes, maxChars) {
  let nodes = 0, chars = 0;
  const stack = [this && this.nodeType ? this : document];
  while (stack.length > 0) {
    const n = stack.pop();
    nodes++;
    if (n.nodeType === 3 || n.nodeType === 4 || n.nodeType === 8) chars += n.length;
    else if (n.nodeType === 1) {
      // Most elements have no attributes; asking first spares making their Attr objects.
      if (n.hasAttributes()) { const list = n.attributes; for (let i = 0; i < list.length; i++) chars += list[i].value.length; }
      if (n.shadowRoot) stack.push(n.shadowRoot);
      if (n.localName === 'iframe' || n.localName === 'frame') {
        try { if (n.contentDocument) stack.push(n.contentDocument); } catch (e) {}
      }
    }
    if (nodes >= maxNodes || chars >= maxChars) break;
    for (let c = n.lastChild; c; c = c.previousSibling) stack.push(c);
  }
  return { nodes, chars };
}`;
