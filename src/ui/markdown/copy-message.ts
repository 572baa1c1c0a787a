import type { Nodes as HastNodes, Properties } from 'hast';
import type { FootnoteDefinition, Nodes as MdastNodes, Root as MdastRoot, RootContent } from 'mdast';
import { toHast } from 'mdast-util-to-hast';
import { find, html as htmlSchema } from 'property-information';
import remarkDirective from 'remark-directive';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { SKIP, visit } from 'unist-util-visit';
import type { OwnFileScope } from '../../../shared/markers';
import { footnoteOptions, FOOTNOTES_LABEL, prefixFootnoteLabel } from './footnotes';
import {
  DEFAULT_TOOLS_LABEL,
  ERROR_MARKER_TITLES,
  MARKER_TAGS,
  PAGE_FILE_SCOPE,
  remarkMarkers,
  safeUrl,
} from './remark-markers';

// Copy a message "with formatting for Word" (spec section 8): markdown -> HTML with the same remark pipeline
// the renderer uses (react-markdown already ships unified, remark-parse, remark-gfm, remark-directive and
// mdast-util-to-hast in the chat chunk, so this adds only the small serialisers below), written to the
// clipboard as text/html + text/plain; plain text alone when rich copy is not possible.

export type CopyResult = 'rich' | 'plain';

export interface ConvertOptions {
  /**
   * Relative marker and link URLs are made absolute against it (a pasted document needs full URLs); its origin
   * is the one whose files may show as images (as on screen).
   */
  baseUrl?: string;
}

/** Footnote ids of a copy: one message per copy, so one prefix will do. */
const COPY_ID_PREFIX = 'user-content-';

function fileScope(baseUrl: string | undefined): OwnFileScope {
  if (!baseUrl) return PAGE_FILE_SCOPE;
  try {
    return { ...PAGE_FILE_SCOPE, origin: new URL(baseUrl).origin };
  } catch {
    return PAGE_FILE_SCOPE;
  }
}

const makeProcessor = (scope: OwnFileScope) =>
  unified().use(remarkParse).use(remarkGfm).use(remarkDirective).use(remarkMarkers, scope).freeze();

/** One processor per file scope (in the app: the page's origin only); building one costs more than a parse. */
const processors = new Map<string, ReturnType<typeof makeProcessor>>();

function parse(markdown: string, options: ConvertOptions): MdastRoot {
  const scope = fileScope(options.baseUrl);
  const key = `${scope.origin ?? ''} ${scope.basePath ?? ''}`;
  let processor = processors.get(key);
  if (!processor) {
    processor = makeProcessor(scope);
    processors.set(key, processor);
  }
  return processor.runSync(processor.parse(markdown), markdown) as MdastRoot;
}

function resolveUrl(url: string | null | undefined, baseUrl: string | undefined): string | null {
  const safe = safeUrl(url);
  if (!safe || !baseUrl || safe.startsWith('#')) return safe;
  try {
    return new URL(safe, baseUrl).href;
  } catch {
    return safe;
  }
}

function markerOf(node: MdastNodes): { tag: string; props: Record<string, unknown> } | null {
  const data = (node as { data?: { hName?: string; hProperties?: Record<string, unknown> } }).data;
  if (!data?.hName?.startsWith('tanya-')) return null;
  return { tag: data.hName, props: data.hProperties ?? {} };
}

// ---------------------------------------------------------------------------------------------- plain text

interface TextOptions extends ConvertOptions {
  /** Footnote identifier -> its number: the order of first reference, as on screen (mdast-util-to-hast). */
  footnotes: Map<string, number>;
}

/**
 * The referenced footnotes in to-hast's order: references in the text first, then those inside the notes (as
 * each note is written out), the first definition of an identifier winning. Unreferenced notes are left out.
 */
function orderFootnotes(root: MdastRoot): FootnoteDefinition[] {
  const definitions = new Map<string, FootnoteDefinition>();
  visit(root, 'footnoteDefinition', (node) => {
    if (!definitions.has(node.identifier)) definitions.set(node.identifier, node);
  });
  const order: string[] = [];
  const collect = (tree: MdastNodes) =>
    visit(tree, (node) => {
      if (node.type === 'footnoteDefinition' && node !== tree) return SKIP;
      if (node.type === 'footnoteReference' && !order.includes(node.identifier)) order.push(node.identifier);
    });
  collect(root);
  const notes: FootnoteDefinition[] = [];
  for (let i = 0; i < order.length; i++) {
    const definition = definitions.get(order[i]);
    if (!definition) continue;
    notes.push(definition);
    collect(definition);
  }
  return notes;
}

function inlineText(nodes: RootContent[], options: TextOptions): string {
  return nodes.map((node) => nodeText(node, options)).join('');
}

function blocksText(nodes: RootContent[], options: TextOptions, separator = '\n\n'): string {
  return nodes
    .map((node) => nodeText(node, options))
    .filter((text) => text !== '')
    .join(separator);
}

const indentRest = (text: string, width: number) => text.replace(/\n/g, `\n${' '.repeat(width)}`);

function nodeText(node: RootContent, options: TextOptions): string {
  const marker = markerOf(node);
  if (marker) {
    const children = 'children' in node ? blocksText(node.children as RootContent[], options) : '';
    const p = marker.props as { url?: string; alt?: string; name?: string; type?: string; label?: string };
    const url = resolveUrl(p.url, options.baseUrl);
    switch (marker.tag) {
      case MARKER_TAGS.image:
        return `[Image${p.alt ? `: ${p.alt}` : ''}]${url ? ` ${url}` : ''}`;
      case MARKER_TAGS.document:
        return `[Document: ${p.name ?? 'Document'}]${url ? ` ${url}` : ''}`;
      case MARKER_TAGS.error: {
        const title = ERROR_MARKER_TITLES[p.type === 'max-tokens' ? 'max-tokens' : 'llm'];
        return children ? `${title}\n${children}` : title;
      }
      case MARKER_TAGS.tools:
        return children ? `${p.label ?? DEFAULT_TOOLS_LABEL}\n${children}` : (p.label ?? DEFAULT_TOOLS_LABEL);
    }
  }
  switch (node.type) {
    case 'text':
    case 'inlineCode':
    case 'code':
    case 'html':
      return node.value;
    case 'break':
      return '\n';
    case 'thematicBreak':
      return '---';
    case 'image':
      return node.alt ?? '';
    case 'definition':
      return '';
    case 'link': {
      const label = inlineText(node.children, options);
      const url = resolveUrl(node.url, options.baseUrl);
      if (!url || url === label || url === `mailto:${label}`) return label;
      return label ? `${label} (${url})` : url;
    }
    case 'blockquote':
      return blocksText(node.children, options).replace(/^/gm, '> ');
    case 'list': {
      const start = node.start ?? 1;
      return node.children
        .map((item, i) => {
          const bullet = node.ordered ? `${start + i}. ` : '- ';
          const check = item.checked === true ? '[x] ' : item.checked === false ? '[ ] ' : '';
          const body = blocksText(item.children, options, item.spread ? '\n\n' : '\n');
          return bullet + check + indentRest(body, bullet.length);
        })
        .join(node.spread ? '\n\n' : '\n');
    }
    case 'table':
      return node.children.map((row) => row.children.map((cell) => inlineText(cell.children, options)).join('\t')).join('\n');
    case 'footnoteReference': {
      const number = options.footnotes.get(node.identifier);
      return number === undefined ? `[^${node.label ?? node.identifier}]` : `[${number}]`;
    }
    case 'footnoteDefinition':
      return ''; // in the notes at the end, as on screen
    case 'paragraph':
    case 'heading':
      return inlineText(node.children, options);
  }
  if ('children' in node) {
    const children = node.children as RootContent[];
    return children.some((c) => c.type === 'paragraph' || c.type === 'list') ? blocksText(children, options) : inlineText(children, options);
  }
  return 'value' in node ? String(node.value) : '';
}

/**
 * Readable plain text of a message: markdown syntax dropped, markers written out ("[Image: alt] url"),
 * footnotes numbered "[1]" and written out at the end under "Footnotes", as on screen.
 */
export function markdownToPlainText(markdown: string, options: ConvertOptions = {}): string {
  const root = parse(markdown, options);
  const notes = orderFootnotes(root);
  const textOptions: TextOptions = { ...options, footnotes: new Map(notes.map((note, i) => [note.identifier, i + 1])) };
  const body = blocksText(root.children, textOptions).trim();
  if (notes.length === 0) return body;
  const list = notes.map((note, i) => {
    const bullet = `${i + 1}. `;
    return bullet + indentRest(blocksText(note.children, textOptions, '\n'), bullet.length);
  });
  return `${body}\n\n${FOOTNOTES_LABEL}\n${list.join('\n')}`;
}

// ---------------------------------------------------------------------------------------------------- HTML

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

/** Inline styles Word understands (it ignores style sheets). */
const WORD_STYLES: Record<string, string> = {
  table: 'border-collapse:collapse',
  th: 'border:1px solid #9ca3af;padding:4px 8px;background:#f3f4f6',
  td: 'border:1px solid #9ca3af;padding:4px 8px',
  pre: "font-family:Consolas,'Courier New',monospace;font-size:10pt;background:#f3f4f6;padding:8px;white-space:pre-wrap",
  code: "font-family:Consolas,'Courier New',monospace",
  blockquote: 'border-left:3px solid #d1d5db;margin-left:0;padding-left:12px;color:#374151',
};

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (text: string) => escapeText(text).replace(/"/g, '&quot;');

function attributes(tagName: string, properties: Properties, options: ConvertOptions): string {
  let out = '';
  for (const [key, value] of Object.entries(properties)) {
    if (value === null || value === undefined || value === false) continue;
    const info = find(htmlSchema, key);
    let text: string;
    if (key === 'href' || key === 'src') {
      const url = resolveUrl(String(value), options.baseUrl);
      if (!url) continue;
      text = url;
    } else if (value === true) {
      out += ` ${info.attribute}`;
      continue;
    } else {
      text = Array.isArray(value) ? value.join(info.commaSeparated ? ', ' : ' ') : String(value);
    }
    out += ` ${info.attribute}="${escapeAttr(text)}"`;
  }
  if (tagName === 'a' && !String(properties.href ?? '').startsWith('#')) out += ' target="_blank" rel="noopener noreferrer"';
  let style = WORD_STYLES[tagName];
  if (tagName === 'th' || tagName === 'td') style += `;text-align:${typeof properties.align === 'string' ? properties.align : 'left'}`;
  if (style) out += ` style="${style}"`;
  return out;
}

function toHtml(node: HastNodes, options: ConvertOptions): string {
  switch (node.type) {
    case 'root':
      return node.children.map((child) => toHtml(child, options)).join('');
    case 'text':
      return escapeText(node.value);
    case 'raw':
      return escapeText(node.value); // HTML in the message stays text, as on screen
    case 'element':
      break;
    default:
      return '';
  }
  const children = () => node.children.map((child) => toHtml(child, options)).join('');
  const p = node.properties as { url?: string; alt?: string; name?: string; type?: string; label?: string };
  switch (node.tagName) {
    case MARKER_TAGS.image: {
      const url = resolveUrl(p.url, options.baseUrl);
      return url ? `<p><img src="${escapeAttr(url)}" alt="${escapeAttr(p.alt ?? '')}"></p>` : '';
    }
    case MARKER_TAGS.document: {
      const url = resolveUrl(p.url, options.baseUrl);
      const name = escapeText(p.name ?? 'Document');
      return url ? `<p><a href="${escapeAttr(url)}">${name}</a></p>` : `<p>${name}</p>`;
    }
    case MARKER_TAGS.error: {
      const title = ERROR_MARKER_TITLES[p.type === 'max-tokens' ? 'max-tokens' : 'llm'];
      return `<div style="border-left:3px solid #dc2626;padding-left:12px"><p><strong>${escapeText(title)}</strong></p>${children()}</div>`;
    }
    case MARKER_TAGS.tools:
      return `<div><p><strong>${escapeText(p.label ?? DEFAULT_TOOLS_LABEL)}</strong></p>${children()}</div>`;
  }
  const open = `<${node.tagName}${attributes(node.tagName, node.properties, options)}>`;
  return VOID.has(node.tagName) ? open : `${open}${children()}</${node.tagName}>`;
}

/** HTML of a message for pasting into Word: no raw HTML from the text, only safe URLs, inline styles. */
export function markdownToHtml(markdown: string, options: ConvertOptions = {}): string {
  const hast = toHast(parse(markdown, options), { ...footnoteOptions(COPY_ID_PREFIX), allowDangerousHtml: true });
  if (hast.type === 'root') prefixFootnoteLabel(hast, COPY_ID_PREFIX);
  return toHtml(hast, options);
}

// --------------------------------------------------------------------------------------------------- copy

export interface CopyOptions {
  /** Defaults to `navigator.clipboard`. */
  clipboard?: Pick<Clipboard, 'write' | 'writeText'>;
  /** Defaults to the page's address. */
  baseUrl?: string;
}

/**
 * Copies an assistant message: HTML (for Word) plus plain text when the browser allows it ('rich'), else the
 * plain text alone ('plain'). Throws when nothing could be copied (the caller shows 'Failed to copy message').
 */
export async function copyMessage(markdown: string, options: CopyOptions = {}): Promise<CopyResult> {
  const clipboard = options.clipboard ?? (typeof navigator !== 'undefined' ? navigator.clipboard : undefined);
  if (!clipboard) throw new Error('The clipboard is not available');
  const baseUrl = options.baseUrl ?? (typeof location !== 'undefined' ? location.href : undefined);
  const plain = markdownToPlainText(markdown, { baseUrl });
  if (typeof ClipboardItem !== 'undefined' && typeof clipboard.write === 'function') {
    try {
      const html = markdownToHtml(markdown, { baseUrl });
      await clipboard.write([
        new ClipboardItem({
          'text/html': new Blob([html], { type: 'text/html' }),
          'text/plain': new Blob([plain], { type: 'text/plain' }),
        }),
      ]);
      return 'rich';
    } catch {
      // Rich copy refused (older browser, permission): plain text below.
    }
  }
  await clipboard.writeText(plain);
  return 'plain';
}
