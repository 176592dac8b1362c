/**
 * The spellings a secret takes on its way out: a page, a snapshot or a URL rarely shows the value as
 * typed. Each form below is what one ordinary encoder makes of the whole value; redacting all of
 * them, before any cut, is what "never comes back in any encoding" means for exact matching. What a
 * hostile page re-encodes on purpose (reversed, split, XORed) is beyond exact matching: best effort.
 */

/** A base64 core shorter than this matches ordinary text too often to be worth redacting. */
const MIN_BASE64_CORE = 8;
/** A cut keeps at least this much of a secret before it counts as a revealing fragment. */
export const MIN_FRAGMENT_CHARS = 4;

/** Every distinct form of `value`, longest first (raw first among equals). */
export function secretForms(value: string): string[] {
  if (value === '') return [];
  const json = JSON.stringify(value).slice(1, -1);
  const forms = [
    value,
    json,
    JSON.stringify(json).slice(1, -1),
    ...jsQuotedForms(json),
    ...htmlForms(value),
    ...percentForms(value),
    ...base64Forms(value),
  ];
  const unique = [...new Set(forms)].filter((form) => form !== '');
  return unique.sort((a, b) => b.length - a.length);
}

/**
 * What a JavaScript string literal makes of the value (generated code, an exported spec): the JSON
 * body with the quote of the literal escaped (`\'` in single quotes, `\"` in double, `\``
 * and `\${` in a template) and the line and paragraph separators as `\u2028` / `\u2029`.
 */
function jsQuotedForms(json: string): string[] {
  const separators = (text: string): string =>
    text.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  const unquoted = json.replace(/\\"/g, '"');
  return [
    separators(json),
    separators(unquoted.replace(/'/g, "\\'")),
    separators(unquoted.replace(/`/g, '\\`').replace(/\$\{/g, '\\${')),
  ];
}

/** Whether `text` holds any of the values in any form of {@link secretForms}. */
export function containsSecretForm(text: string, values: readonly string[]): boolean {
  return values.some((value) => secretForms(value).some((form) => text.includes(form)));
}

function htmlForms(value: string): string[] {
  const base = value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return [
    base.replace(/"/g, '&quot;').replace(/'/g, '&#39;'),
    base.replace(/"/g, '&quot;').replace(/'/g, '&#x27;'),
    base.replace(/"/g, '&#34;').replace(/'/g, '&#39;'),
    // Text content escapes only &, < and > (and sometimes > not at all).
    base,
    value.replace(/&/g, '&amp;').replace(/</g, '&lt;'),
  ];
}

function percentForms(value: string): string[] {
  const component = encodeURIComponent(value);
  // application/x-www-form-urlencoded, as a GET form puts it in the URL and a POST form in the body.
  const form = new URLSearchParams({ v: value }).toString().slice(2);
  const lower = (text: string): string => text.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase());
  const out = [component, form, component.replace(/%20/g, '+'), encodeURI(value), escape(value)];
  return [...out, ...out.map(lower)];
}

/**
 * Base64 of the value alone, and the stretch that stays the same wherever the value sits inside a
 * longer base64 text (one per byte alignment), in both alphabets.
 */
function base64Forms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const out: string[] = [bytes.toString('base64').replace(/=+$/, '')];
  for (let shift = 0; shift < 3; shift++) {
    const padded = Buffer.concat([Buffer.alloc(shift), bytes]);
    const encoded = padded.toString('base64');
    const start = shift === 0 ? 0 : 4;
    const end = Math.floor(padded.length / 3) * 4;
    const core = encoded.slice(start, end);
    if (core.length >= MIN_BASE64_CORE) out.push(core);
  }
  return [...out, ...out.map((text) => text.replace(/\+/g, '-').replace(/\//g, '_'))];
}
