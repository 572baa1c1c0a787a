import { useState } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { Button as AriaButton } from 'react-aria-components/Button';
import { ChevronDown, Clock } from 'lucide-react';
import { TIP_PAGE_SIZE, tipLevels, type Tip, type TipLevel } from '../../../contract/tips';
import { pagerMachine, pagerView, samePagerView } from '../../../machines/pager.machine';
import { fetchTips } from '../../api/tips';
import { Button } from '../../ui/button';
import { cx } from '../../ui/cx';
import { AssistantMarkdown } from '../../ui/markdown/assistant-markdown';
import { Modal } from '../../ui/modal';
import { Select } from '../../ui/select';
import { SearchBox } from '../../ui/search-box';
import { Spinner } from '../../ui/spinner';
import { TagFilter } from '../../ui/tag-filter';
import { useNoticeToasts } from '../../ui/use-notice-toasts';
import { defineTipsActors } from './tips-actors';

/** Spec section 8 and 9: the failure text, and a 500 ms search debounce. */
export const TIPS_FAILED = 'Failed to fetch tips';
export const TIPS_SEARCH_DEBOUNCE_MS = 500;

const ALL_LEVELS = 'all';
const levelLabel = (level: TipLevel) => level[0]!.toUpperCase() + level.slice(1);
const levelItems = [{ id: ALL_LEVELS, label: 'All levels' }, ...tipLevels.map((id) => ({ id, label: levelLabel(id) }))];

/** The tips list is the one pager machine: search, the level and tag filters, View More appending the next page. */
const tipsPager = pagerMachine.provide({ actors: defineTipsActors({ api: { fetchTips } }) });

export interface TipsModalProps {
  isOpen: boolean;
  onClose(): void;
}

/** The Tips modal (spec: list, search, level filter, tags, duration, markdown). Its list loads each time it opens. */
export default function TipsModal({ isOpen, onClose }: TipsModalProps) {
  return (
    <Modal isOpen={isOpen} onOpenChange={(open) => !open && onClose()} title="Tips" size="2xl">
      {isOpen && <TipsBody onClose={onClose} />}
    </Modal>
  );
}

function TipsBody({ onClose }: { onClose(): void }) {
  const pager = useActorRef(tipsPager, {
    input: {
      pageSize: TIP_PAGE_SIZE,
      mode: 'append',
      search: { minLength: 1, debounceMs: TIPS_SEARCH_DEBOUNCE_MS },
      // The next page's failure says the pager's general 'Failed to load more results'.
      messages: { load: TIPS_FAILED },
    },
  });
  const view = useSelector(pager, (s) => pagerView<Tip>(s), samePagerView);
  useNoticeToasts(pager);
  const filters = useSelector(pager, (s) => s.context.filters);
  const level = (filters.level as string | undefined) ?? ALL_LEVELS;
  const tag = (filters.tag as string | undefined) ?? null;
  const filterBy = (next: { level?: string; tag?: string | null }) => {
    const merged = { level: next.level ?? level, tag: next.tag === undefined ? tag : next.tag };
    pager.send({
      type: 'pager.filter',
      filters: { ...(merged.level !== ALL_LEVELS ? { level: merged.level } : {}), ...(merged.tag ? { tag: merged.tag } : {}) },
    });
  };

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-end gap-2">
        <SearchBox
          label="Search tips"
          placeholder="Search tips..."
          value={view.searchText}
          onChange={(text) => pager.send({ type: 'pager.search', text })}
          className="min-w-48 flex-1"
        />
        {/* Escape on the closed Level select closes the modal at the first press. Right after a level is chosen the
            select's list is still leaving (its exit transition), and react-aria's overlay stack lets only the topmost
            overlay close, so the modal swallowed that Escape. With the list open, Escape still closes only the list. */}
        <div
          className="contents"
          onKeyDownCapture={(e) => {
            if (e.key !== 'Escape' || (e.target as Element).closest('[role=listbox]')) return;
            e.stopPropagation();
            onClose();
          }}
        >
          <Select label="Level" items={levelItems} selectedKey={level} onSelectionChange={(key) => filterBy({ level: key ?? ALL_LEVELS })} className="w-44" />
        </div>
      </div>
      {tag && <TagFilter tag={tag} onClear={() => filterBy({ tag: null })} />}
      {view.loading && (
        <div className="flex justify-center py-6">
          <Spinner label="Loading tips" />
        </div>
      )}
      {!view.loading && view.items.length === 0 && !view.error && <p className="py-6 text-center text-sm text-gray-700 dark:text-gray-300">No tips found</p>}
      <ul className="space-y-2" aria-label="Tips">
        {view.items.map((t) => (
          <TipItem key={t.id} tip={t} onTag={(name) => filterBy({ tag: name })} />
        ))}
      </ul>
      {view.hasMore && (
        <div className="flex justify-center">
          <Button variant="secondary" isPending={view.loadingMore} onPress={() => pager.send({ type: 'pager.loadMore' })}>
            View More
          </Button>
        </div>
      )}
    </div>
  );
}

function TipItem({ tip, onTag }: { tip: Tip; onTag(tag: string): void }) {
  const [open, setOpen] = useState(false);
  const contentId = `tip-${tip.id}`;
  return (
    <li className="rounded-xl border border-gray-200 dark:border-gray-700">
      <AriaButton
        aria-expanded={open}
        aria-controls={contentId}
        onPress={() => setOpen(!open)}
        className="flex w-full items-start gap-2 rounded-xl p-3 text-left hover:bg-gray-50 dark:hover:bg-gray-800"
      >
        <span className="min-w-0 flex-1">
          <span className="block font-medium">{tip.title}</span>
          <span className="mt-1 flex flex-wrap items-center gap-2 text-xs text-gray-700 dark:text-gray-300">
            <span className="flex items-center gap-1">
              <Clock aria-hidden className="size-3.5" /> {tip.duration}
            </span>
            <span>{levelLabel(tip.level)}</span>
            {tip.persona !== 'everyone' && <span>For {tip.persona}s</span>}
          </span>
        </span>
        <ChevronDown aria-hidden className={cx('mt-1 size-4 shrink-0 transition-transform', open && 'rotate-180')} />
      </AriaButton>
      <div className="flex flex-wrap gap-1 px-3 pb-2">
        {tip.tags.map((name) => (
          <AriaButton
            key={name}
            aria-label={`Tips tagged ${name}`}
            onPress={() => onTag(name)}
            className="rounded-full bg-gray-100 px-2 py-0.5 text-xs text-gray-800 hover:bg-gray-200 dark:bg-gray-700 dark:text-gray-100 dark:hover:bg-gray-600"
          >
            {name}
          </AriaButton>
        ))}
      </div>
      {open && (
        <div id={contentId} className="border-t border-gray-200 px-3 py-2 dark:border-gray-700">
          <AssistantMarkdown content={tip.content} />
        </div>
      )}
    </li>
  );
}
