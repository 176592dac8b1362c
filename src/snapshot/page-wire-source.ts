/** The capture script's packer (page-capture-source.ts includes it): a JavaScript source text. */
export const WIRE_SOURCE = String.raw`
/**
 * The node list as it crosses CDP (page-wire.ts unpacks it): the spans copied from the last
 * capture's list as {s: [from, length]}; a text node as its string, or 0 when it is the only child of
 * a node with the same name; a link to the document's origin as its path in u. The kept list is not
 * changed.
 */
function packed(out, spans, origin) {
  const echo = new Set();
  for (const r of out) {
    const only = r.c && r.c.length === 1 ? out[r.c[0]] : undefined;
    if (only && r.n !== undefined && only.r === 'StaticText' && only.n === r.n) echo.add(r.c[0]);
  }
  const wire = (r, j) => {
    if (r.r === 'StaticText' && r.i === undefined && r.c === undefined) return echo.has(j) ? 0 : r.n;
    const url = r.p && r.p.url;
    if (!origin || typeof url !== 'string' || !url.startsWith(origin + '/')) return r;
    const { url: _, ...rest } = r.p;
    const short = { ...r, u: url.slice(origin.length) };
    if (Object.keys(rest).length > 0) short.p = rest; else delete short.p;
    return short;
  };
  const sent = [];
  let at = 0;
  for (const [start, from, length] of spans) {
    for (; at < start; at++) sent.push(wire(out[at], at));
    sent.push({ s: [from, length] });
    at = start + length;
  }
  for (; at < out.length; at++) sent.push(wire(out[at], at));
  return sent;
}
`;
