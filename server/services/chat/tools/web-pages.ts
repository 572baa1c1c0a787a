import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { safeFetch, type Resolver } from './safe-fetch';

/** What web browsing reads: pages' text, never scripts, images or downloads. */
export const PAGE_TYPES = ['text/html', 'application/xhtml+xml', 'text/plain'] as const;
export const PAGE_MAX_BYTES = 2 * 1024 * 1024;
export const PAGE_TIMEOUT_MS = 10_000;
export const PAGE_MAX_REDIRECTS = 3;
/** Characters of each page's text that go to the model (three pages: about 3,000 tokens in all). */
export const PAGE_TEXT_CHARS = 4_000;

export interface PageText {
  /** Where the text was finally read (after redirects). */
  url: string;
  /** The page's own title, or '' when it has none. */
  title: string;
  /** Readable text, whitespace tidied, cut to PAGE_TEXT_CHARS. */
  text: string;
}

export interface ReadPageOptions {
  allowHosts: readonly string[];
  signal: AbortSignal;
  resolve?: Resolver;
}

/** Fetches a page through the SSRF guard (10 s, 2 MB, 3 redirects, text types only) and extracts its readable text. */
export async function readPage(url: string, options: ReadPageOptions): Promise<PageText> {
  const page = await safeFetch(url, {
    accept: PAGE_TYPES,
    maxBytes: PAGE_MAX_BYTES,
    timeoutMs: PAGE_TIMEOUT_MS,
    maxRedirects: PAGE_MAX_REDIRECTS,
    allowHosts: options.allowHosts,
    resolve: options.resolve,
    signal: options.signal,
  });
  const source = decode(page.body, page.charset);
  const { title, text } = page.contentType === 'text/plain' ? { title: '', text: source } : readableText(source);
  return { url: page.url, title: oneLine(title), text: cut(tidy(text), PAGE_TEXT_CHARS) };
}

/** The article's text as Readability finds it (navigation, footers and ads left out), else the whole body's. */
export function readableText(html: string): { title: string; text: string } {
  const { document } = parseHTML(html);
  const title = document.title ?? '';
  // Readability changes the document it reads; the fallback reads a fresh one.
  const article = new Readability(document as unknown as Document, { charThreshold: 200 }).parse();
  if (article?.content) {
    const content = parseHTML(`<!doctype html><html><body>${article.content}</body></html>`).document;
    const text = textOf(content.body as unknown as Node);
    if (text.trim()) return { title: article.title || title, text };
  }
  const whole = parseHTML(html).document;
  return { title, text: whole.body ? textOf(whole.body as unknown as Node) : '' };
}

const BLOCK = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'DD', 'DIV', 'DL', 'DT', 'FIGCAPTION', 'FIGURE', 'FOOTER', 'FORM', 'H1', 'H2',
  'H3', 'H4', 'H5', 'H6', 'HEADER', 'HR', 'LI', 'MAIN', 'NAV', 'OL', 'P', 'PRE', 'SECTION', 'TABLE', 'TR', 'UL',
]);
const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IFRAME']);

/** Text with a line break around every block (textContent would run a heading into the next paragraph). */
function textOf(node: Node): string {
  if (node.nodeType === 3) return node.nodeValue ?? '';
  if (node.nodeType !== 1) return '';
  const tag = (node as Element).tagName.toUpperCase();
  if (SKIPPED.has(tag)) return '';
  if (tag === 'BR') return '\n';
  let text = '';
  for (let child = node.firstChild; child; child = child.nextSibling) text += textOf(child);
  if (tag === 'TD' || tag === 'TH') return `${text} `;
  return BLOCK.has(tag) ? `\n${text}\n` : text;
}

function decode(body: Buffer, charset: string | undefined): string {
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    // An unknown charset label: UTF-8 is the web's usual one.
    return new TextDecoder('utf-8').decode(body);
  }
}

/** Spaces collapsed, blank lines kept as paragraph breaks. */
export function tidy(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** At most `max` characters, cut at a word boundary when there is one near, with an ellipsis. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const slice = text.slice(0, max - 1);
  const space = slice.lastIndexOf(' ');
  return `${space > max * 0.8 ? slice.slice(0, space) : slice}…`;
}
