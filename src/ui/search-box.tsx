import { Button as AriaButton } from 'react-aria-components/Button';
import { Input } from 'react-aria-components/Input';
import { SearchField } from 'react-aria-components/SearchField';
import { Search, X } from 'lucide-react';
import { cx } from './cx';

export interface SearchBoxProps {
  /** The accessible name ('Search conversations'). */
  label: string;
  placeholder: string;
  value: string;
  onChange(text: string): void;
  /** `sm` for the sidebar (36 px high), `md` elsewhere (40 px). */
  size?: 'sm' | 'md';
  className?: string;
}

/** A search field with its magnifier and a Clear search button that shows once something is typed. */
export function SearchBox({ label, placeholder, value, onChange, size = 'md', className }: SearchBoxProps) {
  return (
    <SearchField aria-label={label} value={value} onChange={onChange} className={cx('group relative', className)}>
      <Search aria-hidden className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-gray-500 dark:text-gray-400" />
      <Input
        placeholder={placeholder}
        className={cx(
          'w-full rounded-lg border border-gray-300 bg-white pl-8 pr-8 text-sm outline-none placeholder:text-gray-500 focus:border-primary dark:border-gray-600 dark:bg-gray-800 dark:placeholder:text-gray-400 [&::-webkit-search-cancel-button]:hidden',
          size === 'sm' ? 'h-9' : 'h-10',
        )}
      />
      <AriaButton aria-label="Clear search" className="absolute right-1.5 top-1/2 -translate-y-1/2 rounded p-1 group-data-[empty]:hidden">
        <X aria-hidden className="size-3.5" />
      </AriaButton>
    </SearchField>
  );
}
