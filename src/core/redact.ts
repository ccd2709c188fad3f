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
 * The one redaction of rag-gate: a function that replaces every URL's userinfo, and every occurrence of each
 * secret (as given and as written inside a JSON string) of at least MIN_SECRET_LENGTH characters, with `***`.
 * Longer secrets go first, so `Bearer <key>` is blanked whole rather than around its key.
 */
export function redactor(secrets: readonly string[]): (text: string) => string {
  const forms = new Set<string>();
  for (const secret of secrets) {
    forms.add(secret);
    forms.add(JSON.stringify(secret).slice(1, -1));
  }
  const targets = [...forms].filter((form) => form.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  return (text) => {
    let redacted = text;
    for (const target of targets) redacted = redacted.replaceAll(target, REDACTED);
    return redacted.replace(URL_USERINFO, `$1${REDACTED}@`);
  };
}
