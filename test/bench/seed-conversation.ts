import path from 'node:path';
import { createDb } from '../../server/db/create-db';
import { insertConversation, releaseAnsweringLease } from '../../server/db/repositories/conversations';
import { insertMessage } from '../../server/db/repositories/messages';
import { findUserByEmail } from '../../server/db/repositories/users';
import { prng } from './prng';

// A long conversation written straight into a bench server's SQLite database with the server's own repositories
// (the server has already migrated it and seeded the demo accounts; WAL lets both processes use it).

/** The end of the conversation's last message: what the open-conversation bench waits to see on screen. */
export const LAST_MESSAGE_MARKER = 'End of the bench conversation: message 1000.';


const WORDS = (
  'the a of to and in is for that with as on by this be are from it at an or can which when each your we ' +
  'invoice budget quarter payroll approval policy leave request report supplier contract deadline review team ' +
  'server client cache token stream message render deploy release config database index query latency error ' +
  'customer meeting summary draft email proposal figure total forecast variance audit training onboarding ' +
  'manager department unit schedule template document spreadsheet column formula chart tax claim reimbursement'
).split(' ');

const LANGS = ['ts', 'python', 'sql', 'bash'] as const;

/** Deterministic chat text: user questions (plain text, sometimes pasted code) and markdown answers. */
export function makeConversationText(count: number, seed = 7): Array<{ sender: 'user' | 'Assistant'; content: string }> {
  const random = prng(seed);
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const pick = <T,>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const sentence = (min: number, max: number) => {
    const n = int(min, max);
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      let w = pick(WORDS);
      const r = random();
      if (r < 0.03) w = `**${w} ${pick(WORDS)}**`;
      else if (r < 0.05) w = `\`${w}_${pick(WORDS)}\``;
      else if (r < 0.06) w = `[${w}](https://intranet.example.com/${pick(WORDS)})`;
      else if (r < 0.07) w = `*${w}*`;
      out.push(w);
    }
    const s = out.join(' ');
    return `${s[0].toUpperCase()}${s.slice(1)}.`;
  };
  const paragraph = (words: number) => {
    const out: string[] = [];
    for (let n = 0; n < words; ) {
      const s = sentence(8, 22);
      out.push(s);
      n += s.split(' ').length;
    }
    return out.join(' ');
  };
  const code = () => {
    const lang = pick(LANGS);
    const lines: string[] = [];
    for (let i = 0, n = int(5, 14); i < n; i++) {
      const name = `${pick(WORDS)}_${pick(WORDS)}`;
      if (lang === 'python') lines.push(i % 4 === 0 ? `def ${name}(rows):` : `    ${name} = sum(r["${pick(WORDS)}"] for r in rows) * ${i}`);
      else if (lang === 'sql') lines.push(i === 0 ? `select ${name}, count(*) as n` : `  ${i % 2 ? 'and' : 'where'} ${name} > ${i * 10} -- ${pick(WORDS)}`);
      else if (lang === 'bash') lines.push(`curl -s https://intranet.example.com/${pick(WORDS)} | jq '.${pick(WORDS)}' # ${pick(WORDS)}`);
      else lines.push(i % 5 === 0 ? `export function ${name}(value: number): number {` : `  const ${name} = value * ${i}; // ${pick(WORDS)}`);
    }
    return `\`\`\`${lang}\n${lines.join('\n')}\n\`\`\``;
  };
  const table = () => {
    const rows = ['| Item | Amount | Notes |', '| --- | ---: | --- |'];
    for (let i = 0, n = int(3, 7); i < n; i++) rows.push(`| ${pick(WORDS)} ${pick(WORDS)} | ${int(10, 99_999).toLocaleString('en-GB')} | ${sentence(2, 6)} |`);
    return rows.join('\n');
  };
  const list = () => {
    const ordered = random() < 0.4;
    const items: string[] = [];
    for (let i = 0, n = int(3, 6); i < n; i++) items.push(`${ordered ? `${i + 1}.` : '-'} ${sentence(4, 14)}`);
    return items.join('\n');
  };

  const question = (): string => {
    const words = int(15, 120);
    const text = paragraph(words).replace(/\.$/, '?');
    return random() < 0.08 ? `${text}\n\n${code()}` : text;
  };
  const answer = (): string => {
    const budget = int(50, 400);
    const intro = paragraph(int(15, 40));
    let words = intro.split(' ').length;
    const body: string[] = [];
    // A few answers carry a code block or a table (each counts for about 60 words of the budget).
    if (random() < 0.12) {
      body.push(code());
      words += 60;
    }
    if (random() < 0.08) {
      body.push(table());
      words += 60;
    }
    while (words < budget) {
      const block = random() < 0.7 || budget - words < 40 ? paragraph(Math.min(budget - words, int(30, 90))) : list();
      body.push(block);
      words += block.split(/\s+/).length;
    }
    for (let i = body.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [body[i], body[j]] = [body[j], body[i]];
    }
    const heading = budget > 200 && random() < 0.5 ? [`## ${sentence(2, 5).replace(/\.$/, '')}`] : [];
    return [...heading, intro, ...body].join('\n\n');
  };

  return Array.from({ length: count }, (_, i) => {
    const sender = i % 2 === 0 ? ('user' as const) : ('Assistant' as const);
    return { sender, content: sender === 'user' ? question() : answer() };
  });
}

/** How a browser test finds message `n` (1-based) of a conversation seeded with `numbered`. */
export const numberedLabel = (n: number, count: number) => `Message ${n} of ${count}.`;

/**
 * One conversation of `count` messages (user first, alternating) for `email`, in the bench server's database
 * in `dataDir` (the e2e server's too). The last message ends with LAST_MESSAGE_MARKER; with `numbered`, each
 * message starts with its numberedLabel. Returns its id and how much text it holds.
 */
export async function seedConversation(dataDir: string, email: string, count = 1_000, options: { numbered?: boolean } = {}) {
  const db = createDb({ databaseUrl: undefined, sqlitePath: path.join(dataDir, 'tanya.db') });
  try {
    const user = await findUserByEmail(db, email);
    if (!user) throw new Error(`no user ${email} in the bench database`);
    const texts = makeConversationText(count);
    texts[count - 1].content += `\n\n${LAST_MESSAGE_MARKER}`;
    if (options.numbered) texts.forEach((t, i) => (t.content = `${numberedLabel(i + 1, count)}\n\n${t.content}`));
    const id = await db.transaction().execute(async (trx) => {
      // Created with a lease that is already over, then released: nothing is being answered.
      const lease = new Date(0).toISOString();
      const conversation = await insertConversation(trx, {
        user_id: user.id,
        client_id: user.client_id,
        title: `Bench: ${count.toLocaleString('en-GB')} messages`,
        answering_until: lease,
      });
      for (const t of texts) {
        await insertMessage(trx, { conversation_id: conversation.id, user_id: user.id, sender: t.sender, content: t.content, status: 'complete' });
      }
      await releaseAnsweringLease(trx, conversation.id, lease, true);
      return conversation.id;
    });
    const words = texts.reduce((n, t) => n + t.content.split(/\s+/).length, 0);
    const chars = texts.reduce((n, t) => n + t.content.length, 0);
    return { id, messages: count, words, chars };
  } finally {
    await db.destroy();
  }
}
