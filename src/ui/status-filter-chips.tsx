import { ToggleButton } from 'react-aria-components/ToggleButton';
import { ToggleButtonGroup } from 'react-aria-components/ToggleButtonGroup';

/** All, or people or clients of one status. */
export type StatusFilter = 'all' | 'active' | 'inactive';

const CHIPS: { id: StatusFilter; label: string }[] = [
  { id: 'all', label: 'All' },
  { id: 'active', label: 'Active' },
  { id: 'inactive', label: 'Inactive' },
];

const chip =
  'cursor-pointer rounded-full border border-gray-300 px-3 py-1 text-sm text-gray-800 hover:bg-gray-100 dark:border-gray-600 dark:text-gray-100 ' +
  'dark:hover:bg-gray-700 data-[selected]:border-gray-900 data-[selected]:bg-gray-900 data-[selected]:text-white ' +
  'dark:data-[selected]:border-gray-100 dark:data-[selected]:bg-gray-100 dark:data-[selected]:text-gray-900';

/** The status chips All, Active, Inactive: one always chosen. */
export function StatusFilterChips({ value, onChange }: { value: StatusFilter; onChange(status: StatusFilter): void }) {
  return (
    <ToggleButtonGroup
      aria-label="Filter by status"
      selectionMode="single"
      disallowEmptySelection
      selectedKeys={[value]}
      onSelectionChange={(keys) => {
        const [next] = [...keys];
        if (next) onChange(next as StatusFilter);
      }}
      className="flex gap-2"
    >
      {CHIPS.map((c) => (
        <ToggleButton key={c.id} id={c.id} className={chip}>
          {c.label}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
