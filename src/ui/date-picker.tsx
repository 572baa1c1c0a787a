import type { CalendarDate } from '@internationalized/date';
import { CalendarDays, ChevronLeft, ChevronRight } from 'lucide-react';
import { Button as AriaButton } from 'react-aria-components/Button';
import {
  Calendar,
  CalendarCell,
  CalendarGrid,
  CalendarGridBody,
  CalendarGridHeader,
  CalendarHeaderCell,
} from 'react-aria-components/Calendar';
import { DateInput, DateSegment } from 'react-aria-components/DateField';
import { DatePicker as AriaDatePicker } from 'react-aria-components/DatePicker';
import { Dialog } from 'react-aria-components/Dialog';
import { FieldError } from 'react-aria-components/FieldError';
import { Group } from 'react-aria-components/Group';
import { Heading } from 'react-aria-components/Heading';
import { I18nProvider } from 'react-aria-components/I18nProvider';
import { Popover } from 'react-aria-components/Popover';
import { Text } from 'react-aria-components/Text';
import { cx } from './cx';
import { FieldLabel } from './field-label';
import { fieldStyles } from './field-styles';

export interface DatePickerProps {
  label: string;
  value: CalendarDate | null;
  onChange(value: CalendarDate | null): void;
  isDisabled?: boolean;
  isRequired?: boolean;
  minValue?: CalendarDate;
  maxValue?: CalendarDate;
  description?: string;
  /** When set, the field is invalid and shows this message. */
  errorMessage?: string;
  name?: string;
  className?: string;
}

const navButton =
  'flex size-8 cursor-pointer items-center justify-center rounded-md text-gray-700 hover:bg-gray-100 dark:text-gray-200 dark:hover:bg-gray-700';

/** A date field typed as dd/mm/yyyy (en-GB order) with a calendar popover. */
export function DatePicker({ label, description, errorMessage, className, ...props }: DatePickerProps) {
  return (
    <I18nProvider locale="en-GB">
      <AriaDatePicker
        {...props}
        isInvalid={!!errorMessage}
        validationBehavior="aria"
        className={cx(fieldStyles.root, 'group', className)}
      >
        <FieldLabel isRequired={props.isRequired}>{label}</FieldLabel>
        <Group
          className={cx(
            fieldStyles.control,
            'flex h-10 items-center gap-1 pr-1 outline-offset-2 outline-blue-600 dark:outline-blue-400',
            'data-[focus-within]:border-blue-600 data-[focus-visible]:outline-2 data-[focus-visible]:outline-solid dark:data-[focus-within]:border-blue-400',
            'group-data-[invalid]:border-red-600 dark:group-data-[invalid]:border-red-400',
          )}
        >
          <DateInput className="flex min-w-0 flex-1 items-center tabular-nums">
            {(segment) => (
              <DateSegment
                segment={segment}
                className={cx(
                  'rounded-sm px-0.5 outline-hidden! caret-transparent',
                  'data-[type=literal]:px-0 data-[placeholder]:text-gray-500 dark:data-[placeholder]:text-gray-400',
                  'data-[focused]:bg-primary data-[focused]:text-gray-900',
                )}
              />
            )}
          </DateInput>
          <AriaButton
            className={cx(
              navButton,
              'outline-hidden! data-[focus-visible]:bg-gray-200 data-[focus-visible]:ring-2 data-[focus-visible]:ring-blue-600 dark:data-[focus-visible]:bg-gray-700 dark:data-[focus-visible]:ring-blue-400',
            )}
          >
            <CalendarDays aria-hidden="true" className="size-4" />
          </AriaButton>
        </Group>
        {description && !errorMessage && (
          <Text slot="description" className={fieldStyles.description}>
            {description}
          </Text>
        )}
        <FieldError className={fieldStyles.error}>{errorMessage}</FieldError>
        <Popover offset={6} placement="bottom start" className={fieldStyles.popover}>
          <Dialog className="p-3 outline-hidden!">
            <Calendar>
              <header className="mb-2 flex items-center justify-between gap-2">
                <AriaButton slot="previous" className={navButton}>
                  <ChevronLeft aria-hidden="true" className="size-4" />
                </AriaButton>
                <Heading className="text-sm font-semibold" />
                <AriaButton slot="next" className={navButton}>
                  <ChevronRight aria-hidden="true" className="size-4" />
                </AriaButton>
              </header>
              <CalendarGrid className="border-separate border-spacing-0.5">
                <CalendarGridHeader>
                  {(day) => (
                    <CalendarHeaderCell className="pb-1 text-xs font-medium text-gray-600 dark:text-gray-300">{day}</CalendarHeaderCell>
                  )}
                </CalendarGridHeader>
                <CalendarGridBody>
                  {(date) => (
                    <CalendarCell
                      date={date}
                      className={cx(
                        'flex size-9 cursor-pointer items-center justify-center rounded-full text-sm',
                        'hover:bg-gray-100 data-[pressed]:bg-gray-200 dark:hover:bg-gray-700 dark:data-[pressed]:bg-gray-600',
                        'data-[outside-month]:invisible data-[today]:font-bold data-[today]:underline data-[today]:underline-offset-4',
                        'data-[selected]:bg-primary data-[selected]:text-gray-900 data-[selected]:hover:bg-primary-dark',
                        // Out of range: greyed, still readable (a date at 40 % opacity fell to about 2:1).
                        'data-[disabled]:cursor-not-allowed data-[disabled]:text-gray-500 dark:data-[disabled]:text-gray-400 data-[unavailable]:line-through',
                      )}
                    />
                  )}
                </CalendarGridBody>
              </CalendarGrid>
            </Calendar>
          </Dialog>
        </Popover>
      </AriaDatePicker>
    </I18nProvider>
  );
}
