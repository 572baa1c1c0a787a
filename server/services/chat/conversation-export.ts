import type { Kysely } from 'kysely';
import { EXPORT_FALLBACK_NAME, TIME_ZONE_INVALID } from '../../../contract/chat-export';
import type { Database } from '../../db/database';
import { listConversationDocuments } from '../../db/repositories/documents';
import { listMessages, type MessageRecord } from '../../db/repositories/messages';
import type { UserRecord } from '../../db/repositories/users';
import { requireOwnConversation } from '../conversations/access';
import { InvalidError } from '../errors';

// A conversation as one Markdown file (issue 28): the title, the documents attached to it, then every message
// (not only the pages the screen has loaded) with who wrote it and when. Markers are written as words: a file
// URL of ours needs the reader's token, so a link in a file read elsewhere would lead nowhere.

export interface ConversationExport {
  fileName: string;
  markdown: string;
}

/** The caller's own conversation, whole; another person's answers 404 like one that does not exist. */
export async function exportConversation(
  db: Kysely<Database>,
  user: UserRecord,
  conversationId: string,
  timeZone: string | undefined,
  now: Date = new Date(),
): Promise<ConversationExport> {
  const zone = checkedTimeZone(timeZone);
  const conversation = await requireOwnConversation(db, user.id, conversationId);
  const [messages, documents] = await Promise.all([listMessages(db, conversation.id), listConversationDocuments(db, conversation.id)]);
  const markdown = conversationMarkdown({
    title: conversation.title,
    personName: user.name,
    messages,
    attachments: documents.filter((d) => d.origin === 'upload').map((d) => d.filename),
    timeZone: zone,
    exportedAt: now,
  });
  return { fileName: exportFileName(conversation.title), markdown };
}

export interface MarkdownInput {
  title: string;
  personName: string;
  messages: ReadonlyArray<Pick<MessageRecord, 'sender' | 'content' | 'created_at' | 'status' | 'stopped_at'>>;
  attachments: readonly string[];
  timeZone: string;
  exportedAt: Date;
}

export function conversationMarkdown(input: MarkdownInput): string {
  const when = (value: string | Date) => formatInZone(value, input.timeZone);
  const parts = [`# ${oneLine(input.title)}`, `Exported from Tanya on ${when(input.exportedAt)} (${input.timeZone}).`];
  if (input.attachments.length > 0) {
    parts.push(`**Attached documents:**\n\n${input.attachments.map((name) => `- ${escapeInline(name)}`).join('\n')}`);
  }
  for (const message of input.messages) {
    const author = message.sender === 'user' ? input.personName : 'Tanya';
    const notes = [message.stopped_at ? 'stopped' : null, message.status === 'streaming' ? 'still being written' : null].filter(Boolean);
    const heading = `### ${escapeInline(oneLine(author))} · ${when(message.created_at)}${notes.length ? ` (${notes.join(', ')})` : ''}`;
    parts.push('---', heading, readableContent(message.content) || '_(empty)_');
  }
  return `${parts.join('\n\n')}\n`;
}

const MARKER_LINE = /^[ \t]*::(image|document)\{([^}\n]*)\}[ \t]*$/gm;
const BLOCK = /^[ \t]*:::(error|tools)(?:\{([^}\n]*)\})?[ \t]*\n([\s\S]*?)\n[ \t]*:::[ \t]*$/gm;

/** The content with markers in words: an attachment by its name, an image by its description, errors quoted. */
function readableContent(content: string): string {
  return content
    .replace(MARKER_LINE, (_, kind: string, attrs: string) => {
      const a = attributes(attrs);
      if (kind === 'document') return `📎 Attachment: ${escapeInline(a.name || 'document')}`;
      return `🖼️ Image${a.alt ? `: ${escapeInline(a.alt)}` : ''}`;
    })
    .replace(BLOCK, (_, kind: string, attrs: string | undefined, text: string) => {
      const label = kind === 'error' ? 'Error' : attributes(attrs ?? '').label || 'Tools';
      return text
        .split('\n')
        .map((line, i) => `> ${i === 0 ? `**${escapeInline(label)}:** ` : ''}${line}`)
        .join('\n');
    })
    .trim();
}

/** `url="..." name="..."`, with the one escape the marker builders write (shared/markers.ts). */
function attributes(text: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const [, key, value] of text.matchAll(/(\w+)="([^"]*)"/g)) found[key!] = value!.replace(/&quot;/g, '"');
  return found;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
/** A name or label read as text, not as Markdown (a file called `*draft*.pdf` stays as it is). */
const escapeInline = (text: string) => text.replace(/[\\`*_[\]<>#|]/g, (c) => `\\${c}`);

/** dd/mm/yyyy hh:mm AM/PM (the app's format, src/lib/format-date.ts) in the reader's zone. */
function formatInZone(value: string | Date, timeZone: string): string {
  const d = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(d.getTime())) return '';
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  );
  const hours = Number(parts.hour);
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  return `${parts.day}/${parts.month}/${parts.year} ${String(hour12).padStart(2, '0')}:${parts.minute} ${hours < 12 ? 'AM' : 'PM'}`;
}

function checkedTimeZone(timeZone: string | undefined): string {
  if (!timeZone) return 'UTC';
  try {
    return new Intl.DateTimeFormat('en-GB', { timeZone }).resolvedOptions().timeZone;
  } catch {
    throw new InvalidError(TIME_ZONE_INVALID, { time_zone: TIME_ZONE_INVALID });
  }
}

const FILE_NAME_MAX = 100;

/**
 * `<title>.md` that every system can save: no path separators, characters Windows refuses, control or invisible
 * characters, and no leading dots (a hidden file) or trailing dots and spaces; cut to 100 characters.
 */
export function exportFileName(title: string): string {
  const cleaned = title
    .normalize('NFC')
    // Control and format characters (line breaks, zero-width, bidirectional overrides that turn a name around).
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .replace(/[/\\:*?"<>|]/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  const cut = Array.from(cleaned).slice(0, FILE_NAME_MAX - 3).join('').replace(/[\s.]+$/, '');
  if (!cut) return EXPORT_FALLBACK_NAME;
  // Names Windows keeps for devices, whatever the extension: 'CON.md' cannot be saved there.
  return /^(con|prn|aux|nul|com\d|lpt\d)$/i.test(cut) ? `${cut} conversation.md` : `${cut}.md`;
}
