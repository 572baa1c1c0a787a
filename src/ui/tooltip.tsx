import type { ReactElement, ReactNode } from 'react';
import { OverlayArrow, Tooltip as AriaTooltip, TooltipTrigger } from 'react-aria-components/Tooltip';

export interface TooltipProps {
  content: ReactNode;
  /** The trigger: one focusable react-aria element (our Button, or a react-aria Button). */
  children: ReactElement;
  placement?: 'top' | 'bottom' | 'left' | 'right' | 'start' | 'end';
  /** Hover delay before opening, in ms (keyboard focus opens at once). */
  delay?: number;
  isDisabled?: boolean;
}

export function Tooltip({ content, children, placement = 'top', delay = 500, isDisabled }: TooltipProps) {
  return (
    <TooltipTrigger delay={delay} closeDelay={0} isDisabled={isDisabled}>
      {children}
      <AriaTooltip
        placement={placement}
        offset={8}
        className="group max-w-64 rounded-md bg-gray-900 px-2.5 py-1.5 text-xs font-medium text-white shadow-md transition-opacity duration-100 data-[entering]:opacity-0 data-[exiting]:opacity-0 motion-reduce:transition-none dark:bg-gray-100 dark:text-gray-900"
      >
        <OverlayArrow>
          <svg
            width={8}
            height={8}
            viewBox="0 0 8 8"
            aria-hidden="true"
            className="block fill-gray-900 group-data-[placement=bottom]:rotate-180 group-data-[placement=left]:-rotate-90 group-data-[placement=right]:rotate-90 dark:fill-gray-100"
          >
            <path d="M0 0 L4 4 L8 0" />
          </svg>
        </OverlayArrow>
        {content}
      </AriaTooltip>
    </TooltipTrigger>
  );
}
