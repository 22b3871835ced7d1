// A tiny HTML template: every interpolated value is escaped unless it was produced by `html` itself.

const SAFE = Symbol('safe-html');
export interface SafeHtml {
  [SAFE]: true;
  value: string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const NEEDS_ESCAPE = /[&<>"']/;
/** Escapes the five HTML-special characters; most values have none, so that case returns at once. */
const escapeHtml = (text: string): string => (NEEDS_ESCAPE.test(text) ? text.replace(/[&<>"']/g, (c) => ESCAPES[c]!) : text);

const isSafe = (v: unknown): v is SafeHtml => typeof v === 'object' && v !== null && SAFE in v;

function toHtml(value: unknown): string {
  if (typeof value === 'string') return escapeHtml(value); // the common case first: pages interpolate thousands
  if (value === undefined || value === null || value === false) return '';
  if (Array.isArray(value)) {
    let out = '';
    for (const item of value) out += toHtml(item);
    return out;
  }
  if (isSafe(value)) return value.value;
  return escapeHtml(String(value));
}

/** Marks a trusted constant (never user input) as HTML. */
export const raw = (value: string): SafeHtml => ({ [SAFE]: true, value });

/** Tagged template: `html\`<p>${untrusted}</p>\`` escapes `untrusted`; nested `html` fragments pass through. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += toHtml(values[i]) + strings[i + 1]!;
  return { [SAFE]: true, value: out };
}

interface PageOptions {
  /** The page's own style sheet, in place of the plain one. */
  style?: string;
  /** A script run at the end of the body. */
  script?: string;
  /** The per-response CSP nonce that allows the style and the script. */
  nonce?: string;
  /** Sends no Referer when a link or form leaves the page. */
  noReferrer?: boolean;
}

const NO_REFERRER = raw('<meta name="referrer" content="no-referrer">\n');

/** A whole page in the emulator's look: `body` goes inside the card. */
export function page(title: string, body: SafeHtml, options: PageOptions = {}): string {
  const { style = STYLE, script, nonce, noReferrer } = options;
  const nonceAttribute = nonce === undefined ? '' : html` nonce="${nonce}"`;
  const scriptTag = script === undefined ? '' : html`<script${nonceAttribute}>${raw(script)}</script>\n`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${noReferrer && NO_REFERRER}<title>${title}</title>
<style${nonceAttribute}>${raw(style)}</style>
</head>
<body>
<main class="card">
${body}
</main>
${scriptTag}</body>
</html>`.value;
}

const STYLE = `
:root { color-scheme: light dark; --fg:#1d2430; --muted:#5b6577; --bg:#f3f5f8; --card:#fff; --line:#dde2ea; --accent:#2456d6; --danger:#b42318; }
@media (prefers-color-scheme: dark) { :root { --fg:#e7ebf2; --muted:#9aa5b8; --bg:#11151c; --card:#1a2029; --line:#2b3340; --accent:#7aa2ff; --danger:#ff8a80; } }
* { box-sizing: border-box; }
body { margin:0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color:var(--fg); background:var(--bg); }
.card { max-width: 560px; margin: 48px auto; background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 28px 32px; }
h1 { font-size: 20px; margin: 0 0 4px; }
p.lead { color: var(--muted); margin: 0 0 20px; }
.error h1 { color: var(--danger); }
code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 13px; }
`;

/** The HTML error page of the authorize endpoint and its callback. */
export function errorPage(title: string, detail: string): string {
  return page(
    title,
    html`<div class="error">
      <h1>${title}</h1>
      <p class="lead">${detail}</p>
    </div>`,
  );
}
