import { useEffect, type ReactNode } from 'react';
import { Button as AriaButton, type ButtonProps as AriaButtonProps } from 'react-aria-components/Button';
import { Link as AriaLink, type LinkProps as AriaLinkProps } from 'react-aria-components/Link';
import { composeRenderProps } from 'react-aria-components/composeRenderProps';
import { cx } from './cx';
import { installLiveAnnouncerNames } from './live-announcer-names';
import { Spinner } from './spinner';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
export type ButtonSize = 'sm' | 'md' | 'lg';

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-primary text-gray-900 shadow-xs hover:bg-primary-dark data-[pressed]:bg-primary-dark',
  secondary:
    'border border-gray-300 bg-white text-gray-900 shadow-xs hover:bg-gray-50 data-[pressed]:bg-gray-100 ' +
    'dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100 dark:hover:bg-gray-700 dark:data-[pressed]:bg-gray-600',
  ghost:
    'text-gray-700 hover:bg-gray-100 data-[pressed]:bg-gray-200 ' +
    'dark:text-gray-200 dark:hover:bg-gray-700 dark:data-[pressed]:bg-gray-600',
  danger: 'bg-red-600 text-white shadow-xs hover:bg-red-700 data-[pressed]:bg-red-800',
};

/**
 * Disabled: grey and flat, never faded with opacity (a faded label fell to 2-3:1, unreadable), each pair at least
 * 5.8:1 in its theme. Important (!) so that hover colours cannot take a disabled button back to its variant's look.
 */
const solidDisabled =
  'data-[disabled]:bg-gray-200! data-[disabled]:text-gray-600! data-[disabled]:shadow-none ' +
  'dark:data-[disabled]:bg-gray-700! dark:data-[disabled]:text-gray-300!';
const disabledLook: Record<ButtonVariant, string> = {
  primary: solidDisabled,
  danger: solidDisabled,
  secondary:
    'data-[disabled]:border-gray-200! data-[disabled]:bg-gray-100! data-[disabled]:text-gray-600! data-[disabled]:shadow-none ' +
    'dark:data-[disabled]:border-gray-700! dark:data-[disabled]:bg-gray-800! dark:data-[disabled]:text-gray-400!',
  ghost: 'data-[disabled]:bg-transparent! data-[disabled]:text-gray-600! dark:data-[disabled]:text-gray-400!',
};

const sizes: Record<ButtonSize, string> = {
  sm: 'h-8 gap-1.5 px-3 text-sm',
  md: 'h-10 gap-2 px-4 text-sm',
  lg: 'h-12 gap-2 px-6 text-base',
};

/** The classes of a button; use it to style other elements (e.g. a router link) as a button. */
export function buttonStyles({ variant = 'secondary', size = 'md' }: { variant?: ButtonVariant; size?: ButtonSize } = {}) {
  return cx(
    'relative inline-flex shrink-0 cursor-pointer select-none items-center justify-center whitespace-nowrap rounded-lg font-medium',
    'transition-colors duration-150 motion-reduce:transition-none',
    'data-[disabled]:cursor-not-allowed data-[pending]:cursor-wait',
    variants[variant],
    disabledLook[variant],
    sizes[size],
  );
}

export interface ButtonProps extends AriaButtonProps {
  variant?: ButtonVariant;
  size?: ButtonSize;
}

/** A button. `isPending` shows a spinner over the label; the label stays for screen readers. */
export function Button({ variant = 'secondary', size = 'md', className, children, ...props }: ButtonProps) {
  // A pending button's busy/done announcements must keep a name once it is gone (see live-announcer-names.ts).
  useEffect(installLiveAnnouncerNames, []);
  return (
    <AriaButton {...props} className={composeRenderProps(className, (own) => cx(buttonStyles({ variant, size }), own))}>
      {composeRenderProps(children, (content, { isPending }) => (
        <>
          <span className={cx('inline-flex items-center gap-[inherit]', isPending && 'opacity-0')}>{content}</span>
          {isPending && (
            <span className="absolute inset-0 flex items-center justify-center">
              <Spinner className={size === 'lg' ? 'size-5' : 'size-4'} />
            </span>
          )}
        </>
      ))}
    </AriaButton>
  );
}

export interface ButtonLinkProps extends Omit<AriaLinkProps, 'children'> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  children?: ReactNode;
}

/** A link that looks like a button (navigation, not an action). */
export function ButtonLink({ variant = 'secondary', size = 'md', className, ...props }: ButtonLinkProps) {
  return (
    <AriaLink
      {...props}
      className={composeRenderProps(className, (own) => cx(buttonStyles({ variant, size }), 'no-underline', own))}
    />
  );
}
