// The answerer's "general knowledge": what a language model knows about SaaS products in general, before reading
// anything about Larkspur. Some of it happens to be true of Larkspur, some of it is not (Larkspur's trial lasts 14
// days, its passwords need 12 characters, it sends no SMS codes). The answerer falls back on it when the retrieved
// context does not match the question, and the closed-book run has nothing else. That is how this pipeline, like a
// real one, answers some questions right from the wrong context (g_bad > 0) and some wrong with confidence.
import { terms } from './text.mjs';

/** An entry applies to a question (part) that contains every one of its `when` words, compared after stemming. */
const TABLE = [
  { when: ['429'], answer: 'HTTP 429 means Too Many Requests: wait for the seconds in the Retry-After header before retrying.' },
  { when: ['throttled'], answer: 'A 429 response means you hit the rate limit.' },
  { when: ['401'], answer: 'A 401 Unauthorized response means the credentials are missing or invalid.' },
  { when: ['403'], answer: 'A 403 Forbidden response means the credentials are valid but lack permission.' },
  { when: ['413'], answer: 'A 413 Payload Too Large response means the upload is bigger than the size limit.' },
  { when: ['upload', 'big'], answer: 'The server returns 413 Payload Too Large for files over the size limit.' },
  { when: ['totp'], answer: 'TOTP authenticator codes change every 30 seconds.' },
  { when: ['authenticator', 'codes'], answer: 'Authenticator app codes change every 30 seconds, so the phone clock must be correct.' },
  { when: ['sms'], answer: 'Most services can send two-factor codes by text message (SMS).' },
  { when: ['backup', 'codes'], answer: 'Backup codes are single-use codes for signing in when you lose your two-factor device.' },
  { when: ['password', 'characters'], answer: 'Passwords should be at least 8 characters long.' },
  { when: ['cipher'], answer: 'Stored data is usually encrypted at rest with AES-256.' },
  { when: ['encrypted', 'rest'], answer: 'Cloud services usually encrypt data at rest with AES-256.' },
  { when: ['traffic'], answer: 'Traffic is usually protected with TLS 1.2 or higher in transit.' },
  { when: ['webhook', 'signature'], answer: 'Webhook signatures are usually an HMAC-SHA256 of the request body made with a shared secret.' },
  { when: ['retry', 'backoff'], answer: 'Failed webhook deliveries are usually retried with exponential backoff.' },
  { when: ['pkce'], answer: 'PKCE, Proof Key for Code Exchange, protects the OAuth authorization code flow for public clients.' },
  { when: ['access', 'tokens', 'expire'], answer: 'OAuth access tokens usually expire after 1 hour.' },
  { when: ['authorization', 'header'], answer: 'Send the API key in the Authorization header as a Bearer token.' },
  { when: ['timestamps'], answer: 'APIs usually return timestamps in UTC in ISO 8601 format.' },
  { when: ['scim'], answer: 'SCIM, System for Cross-domain Identity Management, creates and removes user accounts from the identity provider.' },
  { when: ['verify', 'domain'], answer: 'Domain ownership is usually verified with a DNS TXT record.' },
  { when: ['trial'], answer: 'Free trials of SaaS products usually last 30 days.' },
  { when: ['refund', 'days'], answer: 'Most subscriptions can be refunded within 14 days of purchase.' },
  { when: ['annual', 'save'], answer: 'Annual billing usually saves about two months of fees, roughly 17 percent.' },
  { when: ['gdpr'], answer: 'Under the GDPR, a SaaS vendor usually acts as a data processor and signs a data processing agreement.' },
  { when: ['hipaa'], answer: 'Storing health data under HIPAA requires a signed business associate agreement.' },
  { when: ['soc', '2'], answer: 'A SOC 2 Type II report is an independent audit of security controls over a period of time.' },
  { when: ['internet', 'explorer'], answer: 'Internet Explorer is not supported by most modern web apps.' },
  { when: ['spam'], answer: 'Check your spam folder and allowlist the sender address.' },
];

const ENTRIES = TABLE.map((entry) => ({ when: entry.when.flatMap((word) => terms(word)), answer: entry.answer }));

/**
 * The general-knowledge answer to a question, or null when the table has nothing on it.
 * @param {string} question
 * @returns {string | null}
 */
export function generalKnowledge(question) {
  const asked = new Set(terms(question));
  const entry = ENTRIES.find((e) => e.when.length > 0 && e.when.every((term) => asked.has(term)));
  return entry === undefined ? null : entry.answer;
}
