import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REDACTED, redactor } from '../../src/core/redact.js';

const BASE62 = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'];
const base62 = (min: number, max: number) => fc.array(fc.constantFrom(...BASE62), { minLength: min, maxLength: max }).map((chars) => chars.join(''));

/** Tokens in GitHub's published shapes: a classic prefix and 36 base62 characters (or more), or a fine-grained one. */
const classicToken = fc.tuple(fc.constantFrom('ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'), base62(36, 60)).map(([prefix, body]) => prefix + body);
const fineGrainedToken = fc.tuple(base62(22, 22), base62(59, 59)).map(([id, secret]) => `github_pat_${id}_${secret}`);
const githubToken = fc.oneof(classicToken, fineGrainedToken);

/** Text around a token: anything, including word characters right against it. */
const surrounding = fc.string({ maxLength: 40 });

/** No secrets given: only the shapes are at work. */
const redact = redactor([]);

describe('GitHub token shapes', () => {
  it('a token of each shape is blanked wherever it stands in any text', () => {
    fc.assert(
      fc.property(surrounding, githubToken, surrounding, (before, token, after) => {
        expect(redact(before + token + after)).not.toContain(token);
      }),
      { numRuns: 2000 },
    );
  });

  it('a token is blanked inside JSON-escaped text, after an escape such as \\n whose letter touches it', () => {
    fc.assert(
      fc.property(surrounding, githubToken, (before, token) => {
        const json = JSON.stringify({ message: `${before}\n${token}"` });
        expect(redact(json)).not.toContain(token);
        expect(JSON.parse(redact(json))).toEqual({ message: `${redact(before)}\n${REDACTED}"` });
      }),
      { numRuns: 1000 },
    );
  });

  it("a token as a URL's userinfo, and as its query, is blanked", () => {
    fc.assert(
      fc.property(githubToken, (token) => {
        const text = `clone https://x-access-token:${token}@github.com/octo/shop.git or GET https://api.github.com/x?access_token=${token}`;
        expect(redact(text)).toBe(`clone https://${REDACTED}@github.com/octo/shop.git or GET https://api.github.com/x?access_token=${REDACTED}`);
      }),
    );
  });

  it('leaves words that only begin like a token: a prefix with a short or non-base62 body', () => {
    const text = 'ghp_ is the prefix of a personal token; ghs_faketoken, gho_abc and github_pat_ are not tokens; see pghp_x and ghx_' + 'a'.repeat(36);
    expect(redact(text)).toBe(text);
  });

  it('a given secret is blanked as given, inside a JSON string and percent-encoded, whatever its characters', () => {
    // Between an S and an E found nowhere else in it, so that no two occurrences overlap and each is whole.
    const secret = fc.string({ minLength: 6, maxLength: 28, unit: 'binary' }).map((body) => `S${body.replace(/[SE*]/g, 'x')}E`);
    fc.assert(
      fc.property(secret, (secret) => {
        const text = `a ${secret} b ${JSON.stringify(secret)} c ?q=${encodeURIComponent(secret)}`;
        expect(redactor([secret])(text)).toBe(`a ${REDACTED} b "${REDACTED}" c ?q=${REDACTED}`);
      }),
      { numRuns: 1000 },
    );
  });

  it('a secret with a lone surrogate, which has no percent-encoding, is still blanked as given', () => {
    const secret = 'key-\ud800-12345';
    expect(redactor([secret])(`x ${secret} y`)).toBe(`x ${REDACTED} y`);
  });
});
