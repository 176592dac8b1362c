/**
 * The secret-boundary tests' page and check. The page keeps what the agent enters: a GET form whose
 * field echoes into a span and into the title (padded so a 200-character cut falls inside the
 * value), and a contenteditable editor inside a parent whose reads include it.
 */
export const SECRET_PAGE = `<!doctype html>
<html><head><title>Secret boundary</title></head><body>
<form id="form" method="get" action="/sb-done">
  <label>User <input id="user" name="user" autocomplete="off"></label>
  <button id="send" type="submit">Send</button>
</form>
<p>Echo: <span id="echo"></span></p>
<div id="parent"><p>Notes</p><div id="ed" contenteditable="true" role="textbox" aria-label="Notes"></div></div>
<p id="plain">Plain words here</p>
<script>
  const user = document.getElementById('user');
  user.addEventListener('input', () => {
    document.getElementById('echo').textContent = 'Signed in as ' + user.value;
    document.title = 'T'.repeat(190) + ' ' + user.value;
  });
</script>
</body></html>`;

/** Fragments of a secret this long count as exposing it (the redaction keeps none of 4 or more). */
const FRAGMENT = 6;

/**
 * Whether `value` (any JSON) shows the secret or a 6-character piece of it: in any string, in any
 * array of strings joined, each also reversed.
 */
export function exposesSecret(value: unknown, secret: string): boolean {
  const texts: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') texts.push(v);
    else if (Array.isArray(v)) {
      if (v.every((item) => typeof item === 'string')) texts.push(v.join(''));
      v.forEach(walk);
    } else if (v !== null && typeof v === 'object')
      Object.entries(v).forEach(([k, inner]) => (texts.push(k), walk(inner)));
  };
  walk(value);
  const pieces = Array.from({ length: secret.length - FRAGMENT + 1 }, (_, i) =>
    secret.slice(i, i + FRAGMENT),
  );
  return texts.some((text) => {
    const both = [text, [...text].reverse().join('')];
    return both.some((t) => pieces.some((piece) => t.includes(piece)));
  });
}
