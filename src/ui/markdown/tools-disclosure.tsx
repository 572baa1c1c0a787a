import type { ReactNode } from 'react';
import { ChevronRight, Wrench } from 'lucide-react';
import { Button, Disclosure, DisclosurePanel } from 'react-aria-components/Disclosure';
import { DEFAULT_TOOLS_LABEL } from './remark-markers';

export interface ToolsDisclosureProps {
  label?: string;
  children?: ReactNode;
}

/** A tools marker: a collapsed block named by its label ("Searched the web"); the text shows when expanded. */
export function ToolsDisclosure({ label = DEFAULT_TOOLS_LABEL, children }: ToolsDisclosureProps) {
  return (
    <Disclosure className="group my-3 rounded-lg border border-gray-300 text-sm dark:border-gray-700">
      <Button
        slot="trigger"
        className="flex w-full cursor-pointer items-center gap-2 rounded-lg px-3 py-2 text-left font-medium text-gray-700 hover:bg-gray-900/5 dark:text-gray-200 dark:hover:bg-white/5"
      >
        <ChevronRight
          aria-hidden="true"
          className="size-4 shrink-0 transition-transform group-data-[expanded]:rotate-90 motion-reduce:transition-none"
        />
        <Wrench aria-hidden="true" className="size-4 shrink-0 text-gray-500 dark:text-gray-400" />
        <span className="min-w-0 flex-1">{label}</span>
      </Button>
      {/* Padding inside: a collapsed panel may stay in the layout (hidden="until-found", found by page search). */}
      <DisclosurePanel>
        <div className="px-3 pb-3 text-gray-700 dark:text-gray-300 [&>*]:my-2!">{children}</div>
      </DisclosurePanel>
    </Disclosure>
  );
}
