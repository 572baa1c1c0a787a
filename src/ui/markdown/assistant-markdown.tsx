import { memo, useId, useMemo, useState, type ComponentProps, type ReactNode } from 'react';
import Markdown, { type Components, type ExtraProps } from 'react-markdown';
import remarkDirective from 'remark-directive';
import remarkGfm from 'remark-gfm';
import type { Element, ElementContent } from 'hast';
import type { PluggableList } from 'unified';
import { isOwnFileUrl } from '../../../shared/markers';
import { createBlockSplitter, joinFootnoteBlocks } from '../../lib/markdown-blocks';
import { cx } from '../cx';
import { CodeBlock } from './code-block';
import { footnoteOptions, rehypeFootnoteLabel } from './footnotes';
import { healOpenBlock } from './heal-open-block';
import { MarkdownDocument } from './markdown-document';
import { MarkdownImage } from './markdown-image';
import { MessageError } from './message-error';
import { OpenBlockContext } from './open-block';
import { MARKER_TAGS, markdownUrlTransform, PAGE_FILE_SCOPE, remarkMarkers } from './remark-markers';
import { ToolsDisclosure } from './tools-disclosure';
import './markdown.css';

// No rehype-raw: HTML in the text reaches react-markdown as `raw` nodes, which it shows as text.
const remarkPlugins = [remarkGfm, remarkDirective, remarkMarkers];

function textOf(nodes: ElementContent[]): string {
  let text = '';
  for (const node of nodes) {
    if (node.type === 'text') text += node.value;
    else if (node.type === 'element') text += textOf(node.children);
  }
  return text;
}

function Pre({ node, children, ...props }: ComponentProps<'pre'> & ExtraProps) {
  const code = node?.children[0];
  if (code?.type !== 'element' || code.tagName !== 'code') return <pre {...props}>{children}</pre>;
  const classes = code.properties.className;
  const languageClass = Array.isArray(classes) ? classes.find((c) => String(c).startsWith('language-')) : undefined;
  const language = languageClass ? String(languageClass).slice('language-'.length) : '';
  return <CodeBlock language={language} code={textOf(code.children).replace(/\n$/, '')} />;
}

function Anchor({ node: _node, href, children, ...props }: ComponentProps<'a'> & ExtraProps) {
  if (!href) return <span>{children}</span>; // an unsafe URL was removed
  // In-page anchors (footnotes) and mail links stay in this tab.
  const external = !href.startsWith('#') && !href.toLowerCase().startsWith('mailto:');
  return (
    <a {...props} href={href} {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
      {children}
    </a>
  );
}

function Table({ node: _node, ...props }: ComponentProps<'table'> & ExtraProps) {
  return (
    <div className="markdown-table">
      <table {...props} />
    </div>
  );
}

function Img({ node: _node, src, alt }: ComponentProps<'img'> & ExtraProps) {
  // remarkMarkers has made other images links; this only guards against a change there.
  if (!src || typeof src !== 'string' || !isOwnFileUrl(src, PAGE_FILE_SCOPE)) return alt ? <span>{alt}</span> : null;
  return <img src={src} alt={alt ?? ''} loading="lazy" decoding="async" />;
}

interface MarkerProps {
  node?: Element;
  children?: ReactNode;
  url?: string;
  alt?: string;
  name?: string;
  type?: string;
  label?: string;
}

const components = {
  pre: Pre,
  a: Anchor,
  table: Table,
  img: Img,
  [MARKER_TAGS.image]: ({ url = '', alt = '' }: MarkerProps) => <MarkdownImage url={url} alt={alt} />,
  [MARKER_TAGS.document]: ({ url = '', name = 'Document' }: MarkerProps) => <MarkdownDocument url={url} name={name} />,
  [MARKER_TAGS.error]: ({ type, children }: MarkerProps) => (
    <MessageError type={type === 'max-tokens' ? 'max-tokens' : 'llm'}>{children}</MessageError>
  ),
  [MARKER_TAGS.tools]: ({ label, children }: MarkerProps) => <ToolsDisclosure label={label}>{children}</ToolsDisclosure>,
} as Components;

interface BlockProps {
  text: string;
  /** The block still being streamed (its code is not highlighted yet). */
  open: boolean;
  /** Before every footnote id of the message: its own on the screen. */
  idPrefix: string;
}

/** One top-level block. Memoised on its text: finished blocks never re-render while the reply grows. */
const MarkdownBlock = memo(function MarkdownBlock({ text, open, idPrefix }: BlockProps) {
  const footnotes = useMemo(() => {
    const rehypePlugins: PluggableList = [[rehypeFootnoteLabel, idPrefix]];
    return { remarkRehypeOptions: footnoteOptions(idPrefix), rehypePlugins };
  }, [idPrefix]);
  return (
    <OpenBlockContext value={open}>
      {/* The line break the splitter cut off: micromark reads a last line at the very end of its input a little
          differently (a lazy HTML line), and each block must parse as it does inside the whole text. */}
      <Markdown
        remarkPlugins={remarkPlugins}
        remarkRehypeOptions={footnotes.remarkRehypeOptions}
        rehypePlugins={footnotes.rehypePlugins}
        components={components}
        urlTransform={markdownUrlTransform}
      >
        {`${open ? healOpenBlock(text) : text}\n`}
      </Markdown>
    </OpenBlockContext>
  );
});

export interface AssistantMarkdownProps {
  /** The message's markdown, markers included. */
  content: string;
  /** True while the reply is streaming: the last block is open (re-rendered on each update, not highlighted). */
  streaming?: boolean;
  className?: string;
}

/**
 * An assistant message: GitHub-flavoured markdown with the message markers (image, document, error, tools).
 * Raw HTML shows as text; links open in a new tab; only relative, http(s) and mailto URLs are kept; images and
 * image/document markers show only the server's own files (others become links, see remark-markers.ts).
 * Footnotes get ids of this message's own and look as in a copy (footnotes.ts).
 *
 * While it streams, the text is split into top-level blocks (src/lib/markdown-blocks.ts); each block is its own
 * memoised react-markdown render, so an update costs one parse of the last block, however long the reply is.
 * The caller should still commit streamed updates at most once per animation frame.
 */
export function AssistantMarkdown({ content, streaming = false, className }: AssistantMarkdownProps) {
  // Only a reply that streams here is split. One shown finished (from history) is parsed as one document: every
  // parse has a fixed cost (micromark combining its extensions, the compiler's set-up), which split replies pay
  // once per block, about a third of their markdown time when a conversation opens. A reply keeps its splitter
  // when it ends, so the blocks it showed are not built anew.
  const [split, setSplit] = useState<((text: string) => string[]) | null>(() => (streaming ? createBlockSplitter() : null));
  if (streaming && !split) setSplit(() => createBlockSplitter());
  const blocks = useMemo(() => (split ? joinFootnoteBlocks(split(content)) : [content]), [split, content]);
  // useId's characters (colons, guillemets) are awkward in a URL fragment; its letters and digits stay unique.
  const idPrefix = `${useId().replace(/[^\w-]/g, '')}-`;
  const last = blocks.length - 1;
  return (
    <div className={cx('markdown', className)}>
      {blocks.map((text, index) => (
        <MarkdownBlock key={index} text={text} open={streaming && index === last} idPrefix={idPrefix} />
      ))}
    </div>
  );
}
