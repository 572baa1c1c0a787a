import type { ReactNode } from 'react';
import { Check, Minus } from 'lucide-react';
import { Checkbox as AriaCheckbox } from 'react-aria-components/Checkbox';
import { cx } from './cx';
import { groupFocusRing } from './focus-ring';

export interface CheckboxProps {
  /** The visible label. */
  children: ReactNode;
  isSelected?: boolean;
  defaultSelected?: boolean;
  onChange?(isSelected: boolean): void;
  isIndeterminate?: boolean;
  isDisabled?: boolean;
  isInvalid?: boolean;
  name?: string;
  value?: string;
  className?: string;
}

export function Checkbox({ children, className, ...props }: CheckboxProps) {
  return (
    <AriaCheckbox
      {...props}
      className={cx(
        'group inline-flex cursor-pointer items-center gap-2.5 text-sm text-gray-900 dark:text-gray-100',
        // Disabled: the label greyed but readable (6:1), only the box faded (a faded label fell under 4.5:1).
        'data-[disabled]:cursor-not-allowed data-[disabled]:text-gray-600 dark:data-[disabled]:text-gray-400',
        className,
      )}
    >
      {({ isSelected, isIndeterminate }) => (
        <>
          <span
            className={cx(
              'flex size-5 shrink-0 items-center justify-center rounded-md border-2 text-gray-900 transition-colors group-data-[disabled]:opacity-50',
              isSelected || isIndeterminate
                ? 'border-primary-dark bg-primary dark:border-primary'
                : 'border-gray-500 bg-white group-data-[invalid]:border-red-600 dark:border-gray-400 dark:bg-gray-900 dark:group-data-[invalid]:border-red-400',
              groupFocusRing,
            )}
          >
            {isIndeterminate ? (
              <Minus aria-hidden="true" className="size-3.5" strokeWidth={3} />
            ) : (
              isSelected && <Check aria-hidden="true" className="size-3.5" strokeWidth={3} />
            )}
          </span>
          {children}
        </>
      )}
    </AriaCheckbox>
  );
}
