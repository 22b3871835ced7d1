// The sign-in page: every active human user as one button of a single form, built with the escaping `html`
// template (a page of 10,000 users renders in a few tens of milliseconds; see bench sign-in-page). Works
// without JavaScript; a small script, allowed by a per-response CSP nonce, adds a filter box.
import type { AuthorizeRequestRecord, UserRecord } from '../../store/store.js';
import { html, page, type SafeHtml } from '../../http/html.js';
import { OAUTH_BASE } from './metadata.js';

export const CALLBACK_PATH = `${OAUTH_BASE}/authorize/callback`;

interface SignInView {
  request: AuthorizeRequestRecord;
  clientName: string;
  users: UserRecord[];
  nonce: string;
}

/** The response's Content-Security-Policy: nothing but our own nonce'd style and script, never framed. */
export const signInCsp = (nonce: string): string =>
  `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; base-uri 'none'; frame-ancestors 'none'`;

const STARTS_WITH_LETTER = /^[\p{L}\p{N}]/u;
const firstLetter = (word: string) => String.fromCodePoint(word.codePointAt(0)!);

/** One or two letters for the avatar: the first letters of the first and last words of the name. */
function initials(user: UserRecord): string {
  const words = user.displayName.split(/\s+/).filter((w) => STARTS_WITH_LETTER.test(w));
  if (words.length > 1) return (firstLetter(words[0]!) + firstLetter(words[words.length - 1]!)).toUpperCase();
  const word = words[0] ?? user.username;
  return word ? firstLetter(word).toUpperCase() : '?';
}

/** One line of markup per account: each trailing backslash continues the template's line. */
function userButton(user: UserRecord): SafeHtml {
  const detail = user.email ? html`${user.username} · ${user.email}` : user.username;
  return html`<li>
    <button type="submit" name="username" value="${user.username}">
      <span class="avatar" aria-hidden="true">${initials(user)}</span
      ><span class="who"><span class="name">${user.displayName}</span><span class="detail">${detail}</span></span>
    </button>
  </li>`;
}

function destination(redirectUri: string): string {
  try {
    return new URL(redirectUri).host;
  } catch {
    return redirectUri;
  }
}

export function renderSignInPage(view: SignInView): string {
  const { request, users, nonce } = view;
  const scopes = request.scopes.length
    ? html`<ul class="scopes" aria-label="Requested scopes">
        ${request.scopes.map((s) => html`<li>${s}</li>`)}
      </ul>`
    : html`<p class="muted small">No scopes requested.</p>`;
  const list = users.length
    ? html`<ul class="users" id="users">
        ${users.map(userButton)}
      </ul>`
    : html`<p class="empty">There are no active users to sign in as. Add users under <code>platform.users</code> in the seed file.</p>`;
  const count = `${users.length} ${users.length === 1 ? 'account' : 'accounts'}`;
  const body = html`<header>
      <div class="brand"><span class="mark" aria-hidden="true"></span>Platform Emulator</div>
      <h1>Choose an account</h1>
      <p class="lead">to continue to <strong>${view.clientName}</strong></p>
    </header>
    <section class="request">
      <div class="muted small">Requested access</div>
      ${scopes}
    </section>
    <div class="filter" id="filter-box" hidden>
      <input id="filter" type="search" placeholder="Filter ${count} by name, username or email" aria-label="Filter accounts" autocomplete="off" />
      <p class="muted small" id="no-match" hidden>No account matches.</p>
    </div>
    <form method="post" action="${CALLBACK_PATH}">
      <input type="hidden" name="request_id" value="${request.id}" />
      <input type="hidden" name="csrf_token" value="${request.csrfToken}" />
      ${list}
    </form>
    <footer class="muted small">Local emulator: no password is needed. You will return to <strong>${destination(request.redirectUri)}</strong>.</footer>`;
  return page('Sign in · Platform Emulator', body, { style: STYLE, script: SCRIPT, nonce, noReferrer: true });
}

const STYLE = `
:root{color-scheme:light dark;--fg:#17202e;--muted:#5d6879;--bg:#eef1f6;--card:#fff;--line:#e2e7ef;--hover:#f4f7fc;--accent:#2456d6;--chip:#eaf0fd}
@media (prefers-color-scheme:dark){:root{--fg:#e8ecf3;--muted:#9aa5b8;--bg:#0f131a;--card:#181e27;--line:#2a3240;--hover:#1f2631;--accent:#82a6ff;--chip:#1f2a40}}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
.card{max-width:520px;margin:40px auto;background:var(--card);border:1px solid var(--line);border-radius:14px;padding:28px 28px 20px;box-shadow:0 6px 24px rgba(20,30,50,.08)}
.brand{display:flex;align-items:center;gap:8px;font-weight:600;font-size:13px;color:var(--muted);letter-spacing:.02em;margin-bottom:18px}
.mark{width:18px;height:18px;border-radius:5px;background:linear-gradient(135deg,var(--accent),#6c3fd1)}
h1{font-size:22px;margin:0}
.lead{color:var(--muted);margin:2px 0 18px}
.muted{color:var(--muted)}
.small{font-size:12.5px}
.request{margin-bottom:16px}
.scopes{list-style:none;margin:6px 0 0;padding:0;display:flex;flex-wrap:wrap;gap:6px}
.scopes li{background:var(--chip);color:var(--accent);border-radius:999px;padding:2px 10px;font:12px/1.6 ui-monospace,SFMono-Regular,Menlo,monospace}
.filter input{width:100%;padding:9px 12px;border:1px solid var(--line);border-radius:9px;background:var(--card);color:var(--fg);font:inherit;margin-bottom:10px}
.filter input:focus{outline:2px solid var(--accent);outline-offset:-1px}
form{margin:0}
.users{list-style:none;margin:0 -8px;padding:0;max-height:60vh;overflow:auto}
.users li[hidden]{display:none}
.users button{display:flex;align-items:center;gap:12px;width:100%;padding:10px 8px;border:0;border-top:1px solid var(--line);background:none;color:inherit;font:inherit;text-align:left;cursor:pointer}
.users li:first-child button{border-top:0}
.users button:hover{background:var(--hover)}
.users button:focus-visible{background:var(--hover);outline:3px solid var(--accent);outline-offset:-3px;border-radius:8px}
.avatar{flex:none;width:36px;height:36px;border-radius:50%;display:grid;place-items:center;background:var(--chip);color:var(--accent);font-weight:600;font-size:13px}
.who{display:flex;flex-direction:column;min-width:0}
.name{font-weight:600}
.detail{color:var(--muted);font-size:13px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.empty{padding:12px 0;color:var(--muted)}
footer{margin-top:14px;padding-top:12px;border-top:1px solid var(--line)}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:13px}
`;

// The filter: matches the text of each account, computed once, against what is typed.
const SCRIPT = `
(function(){var box=document.getElementById('filter-box'),input=document.getElementById('filter'),list=document.getElementById('users'),none=document.getElementById('no-match');
if(!list)return;box.hidden=false;var items=Array.prototype.map.call(list.children,function(li){return[li,li.textContent.toLowerCase()];});
input.addEventListener('input',function(){var q=input.value.trim().toLowerCase(),shown=0;for(var i=0;i<items.length;i++){var hit=items[i][1].indexOf(q)>=0;items[i][0].hidden=!hit;if(hit)shown++;}none.hidden=shown>0;});
input.focus();})();
`;
