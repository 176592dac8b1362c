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

/**
 * Whether `value` (any JSON) shows the secret or a `fragment`-character piece of it (default 6; the
 * redaction keeps no piece of 4 or more at a cut): in any string or key, in any array of strings
 * joined, each also reversed.
 */
export function exposesSecret(value: unknown, secret: string, fragment = 6): boolean {
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
  const pieces = Array.from({ length: secret.length - fragment + 1 }, (_, i) =>
    secret.slice(i, i + fragment),
  );
  return texts.some((text) => {
    const both = [text, [...text].reverse().join('')];
    return both.some((t) => pieces.some((piece) => t.includes(piece)));
  });
}

/**
 * The property test's page: four fields a secret may go into (a GET form's two inputs and textarea,
 * an editor), each echoed into the page's text and the title, and the page the form lands on, which
 * prints the decoded query.
 */
export const FIELDS_PAGE = `<!doctype html>
<html><head><title>Fields</title></head><body>
<form id="form" method="get" action="/sbp-done">
  <label>One <input id="f1" name="f1" autocomplete="off"></label>
  <label>Two <input id="f2" name="f2" type="search" autocomplete="off"></label>
  <label>Three <textarea id="f3" name="f3"></textarea></label>
  <button id="send" type="submit">Send</button>
</form>
<div id="parent"><p>Editor</p><div id="f4" contenteditable="true" role="textbox" aria-label="Editor"></div></div>
<p>Echo: <span id="echo"></span></p>
<script>
  const echo = () => {
    const values = ['f1', 'f2', 'f3'].map((id) => document.getElementById(id).value);
    values.push(document.getElementById('f4').textContent);
    document.getElementById('echo').textContent = values.join(' / ');
    document.title = 'T'.repeat(190) + ' ' + values.filter(Boolean).join(' ');
  };
  document.addEventListener('input', echo);
</script>
</body></html>`;
