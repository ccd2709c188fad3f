/** What a redacted secret becomes. */
export const REDACTED = '***';

/**
 * Shorter values cannot be told apart from ordinary words (a local server's key is often `x`, `EMPTY` or
 * `ollama`), and blanking every such word would garble messages and replies alike, so they are redacted only
 * inside a credential that is longer: `Bearer x`, or the userinfo of a URL.
 */
const MIN_SECRET_LENGTH = 8;

/** `scheme://user:password@` — up to the last `@` of the authority, as URL parsers read it. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#]*@/gi;

/**
 * GitHub's token shapes, whoever's token it is: a personal (`ghp_`), OAuth (`gho_`), user-to-server (`ghu_`),
 * installation (`ghs_`, GITHUB_TOKEN's) or refresh (`ghr_`) token, a prefix and at least 36 base62 characters
 * (GitHub's published format; longer ones are taken whole), and a fine-grained `github_pat_` token. No word
 * boundary in front: in JSON-escaped text a token may follow `\n`, whose `n` is a word character.
 */
const GITHUB_TOKEN = /gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{36,}/g;

/** As a query string or URL carries it; a lone surrogate has no encoding (encodeURIComponent throws), so it stays as is. */
function percentEncoded(secret: string): string {
  try {
    return encodeURIComponent(secret);
  } catch {
    return secret;
  }
}

/**
 * The one redaction of rag-gate: a function that replaces every URL's userinfo, every GitHub-shaped token, and
 * every occurrence of each secret (as given, as written inside a JSON string and percent-encoded) of at least
 * MIN_SECRET_LENGTH characters, with `***`. Longer secrets go first, so `Bearer <key>` is blanked whole rather
 * than around its key.
 */
export function redactor(secrets: readonly string[]): (text: string) => string {
  const forms = new Set<string>();
  for (const secret of secrets) {
    forms.add(secret);
    forms.add(JSON.stringify(secret).slice(1, -1));
    forms.add(percentEncoded(secret));
  }
  const targets = [...forms].filter((form) => form.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  return (text) => {
    let redacted = text;
    for (const target of targets) redacted = redacted.replaceAll(target, REDACTED);
    redacted = redacted.replace(GITHUB_TOKEN, REDACTED);
    // Userinfo only follows a `://`: a report of megabytes mostly has none to look through.
    return redacted.includes('://') ? redacted.replace(URL_USERINFO, `$1${REDACTED}@`) : redacted;
  };
}

/** The variables that name a proxy, in both cases (src/net/fetch.ts reads them). */
export const PROXY_VARIABLES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'] as const;

/** Base64 of a string's UTF-8 bytes, without Buffer (the core uses no Node module). */
function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * The credentials of the proxy variables' URLs, in each form a message could hold them: the password as written
 * (percent-encoded) and decoded, `user:password`, and the Proxy-Authorization value they are sent as. A variable
 * that is not a URL holds none that could be told apart (URL_USERINFO still blanks a `scheme://…@` in any text).
 */
export function proxySecrets(env: Readonly<Record<string, string | undefined>>): string[] {
  const secrets: string[] = [];
  for (const name of PROXY_VARIABLES) {
    const value = env[name]?.trim() ?? '';
    if (value === '') continue;
    let url: URL;
    try {
      url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
    } catch {
      continue;
    }
    if (url.username === '' && url.password === '') continue;
    const decoded = (text: string) => {
      try {
        return decodeURIComponent(text);
      } catch {
        return text;
      }
    };
    const user = decoded(url.username);
    const password = decoded(url.password);
    const token = base64(`${user}:${password}`);
    secrets.push(url.password, password, `${url.username}:${url.password}`, `${user}:${password}`, token, `Basic ${token}`);
  }
  return [...new Set(secrets)].filter((secret) => secret !== '' && secret !== ':');
}
