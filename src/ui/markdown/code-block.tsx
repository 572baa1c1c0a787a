import { use, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { Check, Copy } from 'lucide-react';
import { Button as AriaButton } from 'react-aria-components/Button';
import { cx } from '../cx';
import { toast } from '../toast';
import { OpenBlockContext } from './open-block';

/** Longer code is shown plain: highlighting it would block the page for too long. */
const MAX_HIGHLIGHT_CHARS = 100_000;
const CACHE_SIZE = 200;

type Highlighter = typeof import('./highlighter');
let loading: Promise<Highlighter> | null = null;
/** Highlighted code by language and text; null = language unknown to the highlighter. */
const cache = new Map<string, ReactNode[] | null>();

const cacheKey = (language: string, code: string) => `${language}\u0000${code}`;

async function highlightCode(language: string, code: string): Promise<void> {
  loading ??= import('./highlighter');
  const { highlight } = await loading;
  const key = cacheKey(language, code);
  if (cache.has(key)) return;
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  let result: ReactNode[] | null = null;
  try {
    result = highlight(language, code);
  } catch {
    result = null;
  }
  cache.set(key, result);
}

function CopyCodeButton({ code }: { code: string }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      toast.success('Copied');
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), 2000);
    } catch {
      toast.error('Failed to copy code');
    }
  };
  const Icon = copied ? Check : Copy;
  return (
    <AriaButton
      onPress={() => void copy()}
      aria-label="Copy code"
      className="-my-0.5 inline-flex h-7 cursor-pointer items-center gap-1.5 rounded-md px-2 text-xs font-medium text-gray-300 hover:bg-white/10 hover:text-white data-[pressed]:bg-white/15"
    >
      <Icon aria-hidden="true" className="size-3.5" />
      {copied ? 'Copied' : 'Copy'}
    </AriaButton>
  );
}

/**
 * Whether the element scrolls sideways (its code is wider than the column), measured once its code is final
 * (`content`: not while it streams, when a measure per frame would force a layout per frame) and again whenever the
 * column changes width. Only then does the code need a keyboard stop of its own: arrow keys scroll what has focus.
 */
function useScrollsSideways<T extends HTMLElement>(content: string | null) {
  const ref = useRef<T>(null);
  const [scrolls, setScrolls] = useState(false);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || content === null) return;
    const measure = () => setScrolls(el.scrollWidth > el.clientWidth);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [content]);
  return [ref, scrolls] as const;
}

export interface CodeBlockProps {
  /** The fence's language ('' when none). */
  language: string;
  code: string;
}

/**
 * A fenced code block: a header with the language and a Copy button, then the code. Plain at first;
 * highlighted once the lazily loaded highlighter is ready, and never while its block is still streaming.
 */
export function CodeBlock({ language, code }: CodeBlockProps) {
  const open = use(OpenBlockContext);
  const lang = language.toLowerCase();
  const canHighlight = !open && lang !== '' && code.length <= MAX_HIGHLIGHT_CHARS;
  const highlighted = canHighlight ? cache.get(cacheKey(lang, code)) : null;
  const [, setReady] = useState(0);
  const [pre, scrolls] = useScrollsSideways<HTMLPreElement>(open ? null : code);

  useEffect(() => {
    if (!canHighlight || highlighted !== undefined) return;
    let live = true;
    highlightCode(lang, code).then(
      () => live && setReady((n) => n + 1),
      () => {}, // the chunk failed to load: stay plain
    );
    return () => {
      live = false;
    };
  }, [canHighlight, highlighted, lang, code]);

  return (
    <div className="my-3 overflow-hidden rounded-xl border border-gray-800 bg-gray-900 text-gray-100 dark:border-gray-700 dark:bg-gray-950">
      <div className="flex items-center justify-between gap-2 border-b border-white/10 bg-gray-800 py-1 pr-1.5 pl-3 text-xs text-gray-300 dark:bg-gray-900">
        <span className="font-mono">{language || 'text'}</span>
        <CopyCodeButton code={code} />
      </div>
      {/* Code wider than the column scrolls: a keyboard user reaches it with Tab and scrolls it with the arrows. */}
      <pre
        ref={pre}
        {...(scrolls ? { tabIndex: 0, role: 'region', 'aria-label': `${language || 'text'} code, scrolls sideways` } : {})}
        className="overflow-x-auto p-4 text-[13px] leading-6 outline-none focus-visible:ring-2 focus-visible:ring-primary focus-visible:ring-inset"
      >
        <code className={cx('font-mono', lang && `language-${lang}`)}>{highlighted ?? code}</code>
      </pre>
    </div>
  );
}
