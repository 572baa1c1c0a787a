import { Check, ChevronDown } from 'lucide-react';
import { Button as AriaButton } from 'react-aria-components/Button';
import { FieldError } from 'react-aria-components/FieldError';
import { ListBox, ListBoxItem } from 'react-aria-components/ListBox';
import { Popover } from 'react-aria-components/Popover';
import { Select as AriaSelect, SelectValue } from 'react-aria-components/Select';
import { Text } from 'react-aria-components/Text';
import { cx } from './cx';
import { FieldLabel } from './field-label';
import { fieldStyles } from './field-styles';

export interface SelectItem {
  id: string;
  label: string;
}

export interface SelectProps {
  label: string;
  items: SelectItem[];
  selectedKey: string | null;
  onSelectionChange(key: string | null): void;
  placeholder?: string;
  isDisabled?: boolean;
  isRequired?: boolean;
  /** When set, the field is invalid and shows this message. */
  errorMessage?: string;
  description?: string;
  name?: string;
  className?: string;
}

export function Select({
  label,
  items,
  selectedKey,
  onSelectionChange,
  placeholder = 'Select an option',
  isDisabled,
  isRequired,
  errorMessage,
  description,
  name,
  className,
}: SelectProps) {
  return (
    <AriaSelect
      value={selectedKey}
      onChange={(key) => onSelectionChange(key == null ? null : String(key))}
      placeholder={placeholder}
      isDisabled={isDisabled}
      isRequired={isRequired}
      isInvalid={!!errorMessage}
      validationBehavior="aria"
      name={name}
      className={cx(fieldStyles.root, 'group', className)}
    >
      <FieldLabel isRequired={isRequired}>{label}</FieldLabel>
      <AriaButton
        className={cx(
          fieldStyles.control,
          'flex h-10 cursor-pointer items-center justify-between gap-2 text-left',
          'group-data-[invalid]:border-red-600 dark:group-data-[invalid]:border-red-400',
          'group-data-[open]:border-blue-600 dark:group-data-[open]:border-blue-400',
        )}
      >
        <SelectValue className="min-w-0 flex-1 truncate data-[placeholder]:text-gray-500 dark:data-[placeholder]:text-gray-400" />
        <ChevronDown
          aria-hidden="true"
          className="size-4 shrink-0 text-gray-500 transition-transform group-data-[open]:rotate-180 dark:text-gray-400"
        />
      </AriaButton>
      {description && !errorMessage && (
        <Text slot="description" className={fieldStyles.description}>
          {description}
        </Text>
      )}
      <FieldError className={fieldStyles.error}>{errorMessage}</FieldError>
      <Popover offset={4} className={cx(fieldStyles.popover, 'w-(--trigger-width) min-w-40')}>
        <ListBox items={items} className="max-h-72 overflow-auto p-1 outline-hidden">
          {(item) => (
            <ListBoxItem
              id={item.id}
              textValue={item.label}
              className={cx(
                'flex cursor-pointer items-center justify-between gap-2 rounded-md px-2.5 py-2 text-sm outline-hidden!',
                'data-[focused]:bg-gray-100 data-[selected]:font-medium dark:data-[focused]:bg-gray-700',
                'data-[disabled]:cursor-not-allowed data-[disabled]:text-gray-500 dark:data-[disabled]:text-gray-400',
              )}
            >
              {({ isSelected }) => (
                <>
                  <span className="truncate">{item.label}</span>
                  {isSelected && <Check aria-hidden="true" className="size-4 shrink-0" />}
                </>
              )}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </AriaSelect>
  );
}
