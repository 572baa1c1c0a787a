import type { ReactNode } from 'react';
import { Switch as AriaSwitch } from 'react-aria-components/Switch';
import { cx } from './cx';
import { groupFocusRing } from './focus-ring';

export interface SwitchProps {
  /** The visible label. */
  children: ReactNode;
  isSelected?: boolean;
  defaultSelected?: boolean;
  onChange?(isSelected: boolean): void;
  isDisabled?: boolean;
  /** Shown as it is and not toggled, but still focusable: a switch waiting for its change keeps the keyboard's focus. */
  isReadOnly?: boolean;
  name?: string;
  className?: string;
}

export function Switch({ children, className, ...props }: SwitchProps) {
  return (
    <AriaSwitch
      {...props}
      className={cx(
        'group inline-flex cursor-pointer items-center gap-3 text-sm text-gray-900 dark:text-gray-100',
        // Disabled: the label greyed but readable (6:1), only the box faded (a faded label fell under 4.5:1).
        'data-[disabled]:cursor-not-allowed data-[disabled]:text-gray-600 dark:data-[disabled]:text-gray-400',
        className,
      )}
    >
      <span
        className={cx(
          'flex h-6 w-11 shrink-0 items-center rounded-full bg-gray-400 p-0.5 transition-colors duration-150 motion-reduce:transition-none group-data-[disabled]:opacity-50',
          'group-data-[selected]:bg-primary-dark dark:bg-gray-600 dark:group-data-[selected]:bg-primary',
          groupFocusRing,
        )}
      >
        <span className="size-5 rounded-full bg-white shadow-sm transition-transform duration-150 group-data-[selected]:translate-x-5 motion-reduce:transition-none" />
      </span>
      {children}
    </AriaSwitch>
  );
}
