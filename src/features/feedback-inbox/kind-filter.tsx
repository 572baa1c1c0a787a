import { ToggleButton } from 'react-aria-components/ToggleButton';
import { ToggleButtonGroup } from 'react-aria-components/ToggleButtonGroup';
import type { InboxFilter } from '../../../machines/feedback-inbox.machine';

const CHIPS: { id: InboxFilter; label: string }[] = [
  { id: 'all', label: 'All' },
  { id: 'feedback', label: 'Feedback' },
  { id: 'report', label: 'Issue reports' },
  { id: 'rating', label: 'Reply ratings' },
];

const chip =
  'cursor-pointer rounded-full border border-gray-300 px-3 py-1 text-sm text-gray-800 hover:bg-gray-100 dark:border-gray-600 dark:text-gray-100 ' +
  'dark:hover:bg-gray-700 data-[selected]:border-gray-900 data-[selected]:bg-gray-900 data-[selected]:text-white ' +
  'dark:data-[selected]:border-gray-100 dark:data-[selected]:bg-gray-100 dark:data-[selected]:text-gray-900';

/** All, Feedback, Issue reports, Reply ratings: one always chosen; wraps on a phone. */
export function KindFilterChips({ value, onChange }: { value: InboxFilter; onChange(kind: InboxFilter): void }) {
  return (
    <ToggleButtonGroup
      aria-label="Filter by kind"
      selectionMode="single"
      disallowEmptySelection
      selectedKeys={[value]}
      onSelectionChange={(keys) => {
        const [next] = [...keys];
        if (next) onChange(next as InboxFilter);
      }}
      className="flex flex-wrap gap-2"
    >
      {CHIPS.map((c) => (
        <ToggleButton key={c.id} id={c.id} className={chip}>
          {c.label}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
