import { Check, ChevronDown } from 'lucide-react';
import { Button as AriaButton } from 'react-aria-components/Button';
import { ListBox, ListBoxItem } from 'react-aria-components/ListBox';
import { Popover } from 'react-aria-components/Popover';
import { Select as AriaSelect, SelectValue } from 'react-aria-components/Select';
import { Text } from 'react-aria-components/Text';
import { cx } from './cx';
import { FieldLabel } from './field-label';
import { fieldStyles } from './field-styles';
import type { SelectItem } from './select';

export interface MultiSelectProps {
  label: string;
  items: SelectItem[];
  selectedKeys: string[];
  onSelectionChange(keys: string[]): void;
  placeholder?: string;
  isDisabled?: boolean;
  description?: string;
  /** What the button reads when every item is chosen (default: how many). */
  allLabel?: string;
  className?: string;
}

/**
 * A select of several values (react-aria Select in multiple selection mode): the button shows the chosen labels
 * (or how many, when they do not fit), the list stays open while choosing, each row toggles.
 */
export function MultiSelect({
  label,
  items,
  selectedKeys,
  onSelectionChange,
  placeholder = 'Select...',
  isDisabled,
  description,
  allLabel,
  className,
}: MultiSelectProps) {
  return (
    <AriaSelect
      selectionMode="multiple"
      value={selectedKeys}
      onChange={(keys) => onSelectionChange((keys as Array<string | number>).map(String))}
      placeholder={placeholder}
      isDisabled={isDisabled}
      className={cx(fieldStyles.root, 'group', className)}
    >
      <FieldLabel>{label}</FieldLabel>
      <AriaButton
        className={cx(
          fieldStyles.control,
          'flex h-10 cursor-pointer items-center justify-between gap-2 text-left',
          'group-data-[open]:border-blue-600 dark:group-data-[open]:border-blue-400',
        )}
      >
        <SelectValue className="min-w-0 flex-1 truncate data-[placeholder]:text-gray-500 dark:data-[placeholder]:text-gray-400">
          {({ isPlaceholder, selectedText }) =>
            isPlaceholder
              ? placeholder
              : allLabel && items.length > 0 && selectedKeys.length === items.length
                ? allLabel
                : selectedKeys.length > 2
                  ? `${selectedKeys.length} selected`
                  : selectedText
          }
        </SelectValue>
        <ChevronDown
          aria-hidden="true"
          className="size-4 shrink-0 text-gray-500 transition-transform group-data-[open]:rotate-180 dark:text-gray-400"
        />
      </AriaButton>
      {description && (
        <Text slot="description" className={fieldStyles.description}>
          {description}
        </Text>
      )}
      <Popover offset={4} className={cx(fieldStyles.popover, 'w-(--trigger-width) min-w-48')}>
        <ListBox items={items} className="max-h-72 overflow-auto p-1 outline-hidden">
          {(item) => (
            <ListBoxItem
              id={item.id}
              textValue={item.label}
              className={cx(
                'flex cursor-pointer items-center gap-2 rounded-md px-2.5 py-2 text-sm outline-hidden!',
                'data-[focused]:bg-gray-100 data-[selected]:font-medium dark:data-[focused]:bg-gray-700',
              )}
            >
              {({ isSelected }) => (
                <>
                  <span
                    aria-hidden="true"
                    className={cx(
                      'flex size-4 shrink-0 items-center justify-center rounded border',
                      isSelected ? 'border-primary-dark bg-primary text-gray-900' : 'border-gray-500 dark:border-gray-400',
                    )}
                  >
                    {isSelected && <Check className="size-3" strokeWidth={3} />}
                  </span>
                  <span className="truncate">{item.label}</span>
                </>
              )}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </AriaSelect>
  );
}
