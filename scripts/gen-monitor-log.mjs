// Writes examples/monitor/logs.jsonl, a synthetic production log for `rag-gate monitor`, and
// examples/monitor/planted.json, what was planted in it. Re-running it reproduces both byte for byte.
//
//   node scripts/gen-monitor-log.mjs [DIR]     (default examples/monitor)
//
// 14 days from 2026-03-01 (UTC), about 330 user turns a day in sessions of one to a few topics. A deploy at
// 2026-03-08T00:00:00Z raises the rephrase rate from 8% to 19% (the reference article's example); the refusal
// rate stays at 5%. Each turn is followed by a rephrase of it (another wording of the same question, 8–45 s
// later) with the day's rephrase probability. Otherwise the session may move on to another topic, sometimes
// within the minute (a quick follow-up that is not a rephrase) and sometimes later, or come back to the same
// question after more than a minute (not a rephrase either). A third of the turns carry `refused`; the rest
// leave it to the text refusal detector.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mulberry32 } from './seeded-random.mjs';

const SEED = 20260302;
const START = Date.parse('2026-03-01T00:00:00Z');
const DAYS = 14;
const DEPLOY = Date.parse('2026-03-08T00:00:00Z');
const SESSIONS_PER_DAY = 120;
const REPHRASE_BEFORE = 0.08;
const REPHRASE_AFTER = 0.19;
const REFUSAL = 0.05;
const DAY = 86_400_000;

// Each topic's wordings share their topic words, so the lexical measure finds them alike (≥ 0.6), and no two
// topics do.
const TOPICS = [
  ['How do I reset my password?', 'password reset - how do I reset it', 'I need to reset my password'],
  ['Where can I download my invoices?', 'download invoices where', 'how to download past invoices'],
  ['What is the API rate limit?', 'API rate limit?', 'what rate limit applies to the API'],
  ['How do I cancel my subscription?', 'cancel subscription', 'where do I cancel the subscription'],
  ['How do I enable two-factor authentication?', 'enable two factor authentication', 'two-factor authentication: how to enable it'],
  ['How do I connect Slack?', 'connect Slack: setup', 'connect Slack to my workspace'],
  ['Why was my card declined?', 'card declined why', 'my card got declined'],
  ['How do I export data to CSV?', 'export CSV data', 'CSV export of my data'],
  ['Is there a free trial?', 'free trial available?', 'do you have a free trial'],
  ['How do I delete my account?', 'delete account', 'I want to delete my account'],
  ['How do I generate an API key?', 'generate API key', 'API key generation'],
  ['Does the Pro plan include SSO?', 'SSO in the Pro plan?', 'is SSO part of the Pro plan'],
  ['How do I rotate my webhook secret?', 'rotate webhook secret', 'webhook secret rotation'],
  ['Where is the audit log?', 'audit log location', 'find the audit log'],
  ['How do I restore a deleted project?', 'restore deleted project', 'deleted project restore'],
  ['What payment methods are accepted?', 'accepted payment methods', 'payment methods accepted?'],
  ['How long are backups kept?', 'backups kept how long', 'how long do backups stay kept'],
  ['How do I import contacts?', 'import contacts', 'contacts import'],
  ['Can I set a custom domain?', 'custom domain setup', 'set custom domain'],
  ['What are the support hours?', 'support hours?', 'hours of support'],
];
const ANSWERS = [
  'Open Settings, then follow the steps on that page; the change applies at once.',
  'You will find it under Settings in the web app, and the help centre has a guide with screenshots.',
  'Yes: it is available on every paid plan, and an administrator can switch it on for the workspace.',
  'Go to the Billing page; the option is at the bottom, and a confirmation e-mail follows.',
];
const REFUSALS = [
  "I'm sorry, but I couldn't find that in the documentation.",
  "I don't know the answer to that based on the help centre articles.",
  'The documentation does not contain information about this.',
];

const rand = mulberry32(SEED);
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
const pick = (items) => items[int(0, items.length - 1)];
const chance = (p) => rand() < p;

const turns = [];
const planted = {
  deploy: new Date(DEPLOY).toISOString(),
  rates: { rephraseBefore: REPHRASE_BEFORE, rephraseAfter: REPHRASE_AFTER, refusal: REFUSAL },
  days: [],
};
for (let day = 0; day < DAYS; day++) planted.days.push({ date: new Date(START + day * DAY).toISOString().slice(0, 10), turns: 0, rephrased: 0, refused: 0 });

for (let day = 0; day < DAYS; day++) {
  for (let s = 0; s < SESSIONS_PER_DAY; s++) {
    const session = `s-${String(day).padStart(2, '0')}-${String(s).padStart(3, '0')}`;
    let at = START + day * DAY + int(0, DAY - 3_600_000);
    let topic = int(0, TOPICS.length - 1);
    let wording = int(0, 2);
    for (;;) {
      const rephrase = chance(at < DEPLOY ? REPHRASE_BEFORE : REPHRASE_AFTER);
      const refused = chance(REFUSAL);
      const answer = refused ? pick(REFUSALS) : pick(ANSWERS);
      const turn = { session_id: session, timestamp: new Date(at).toISOString(), user_query: TOPICS[topic][wording], answer };
      if (chance(1 / 3)) turn.refused = refused;
      turns.push(turn);
      const counts = planted.days[Math.floor((at - START) / DAY)];
      counts.turns++;
      if (rephrase) counts.rephrased++;
      if (refused) counts.refused++;
      if (rephrase) {
        wording = (wording + int(1, 2)) % 3;
        at += int(8, 45) * 1000;
        continue;
      }
      if (!chance(0.55)) break;
      if (chance(0.15)) {
        // The same question again, but after more than a minute: not a rephrase by the definition.
        wording = (wording + int(1, 2)) % 3;
        at += int(90, 600) * 1000;
        continue;
      }
      topic = (topic + int(1, TOPICS.length - 1)) % TOPICS.length;
      wording = int(0, 2);
      at += (chance(0.4) ? int(10, 55) : int(90, 900)) * 1000;
    }
  }
}

// A log is written as turns arrive, across sessions.
turns.sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp) || (a.session_id < b.session_id ? -1 : 1));
const sum = (days, field) => days.reduce((total, d) => total + d[field], 0);
const before = planted.days.filter((d) => Date.parse(d.date) < DEPLOY);
const after = planted.days.filter((d) => Date.parse(d.date) >= DEPLOY);
planted.beforeDeploy = { turns: sum(before, 'turns'), rephrased: sum(before, 'rephrased'), refused: sum(before, 'refused') };
planted.afterDeploy = { turns: sum(after, 'turns'), rephrased: sum(after, 'rephrased'), refused: sum(after, 'refused') };

const dir = process.argv[2] ?? 'examples/monitor';
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'logs.jsonl'), turns.map((turn) => JSON.stringify(turn)).join('\n') + '\n');
writeFileSync(join(dir, 'planted.json'), JSON.stringify(planted, null, 2) + '\n');
console.log(`wrote ${turns.length} turns; before the deploy ${JSON.stringify(planted.beforeDeploy)}, after ${JSON.stringify(planted.afterDeploy)}`);
