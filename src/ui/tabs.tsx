import type { ReactNode } from 'react';
import { Tab, TabList, TabPanel, Tabs as AriaTabs } from 'react-aria-components/Tabs';
import { cx } from './cx';

export interface TabItem {
  id: string;
  label: string;
  /** Rendered only while the tab is selected (react-aria unmounts hidden panels). */
  content: ReactNode;
}

export interface TabsProps {
  /** The tab list's accessible name. */
  label: string;
  tabs: TabItem[];
  selectedKey?: string;
  onSelectionChange?(key: string): void;
  className?: string;
}

/** Underlined tabs (react-aria Tabs: arrow keys move between tabs, the panel follows). */
export function Tabs({ label, tabs, selectedKey, onSelectionChange, className }: TabsProps) {
  return (
    <AriaTabs
      selectedKey={selectedKey}
      onSelectionChange={onSelectionChange ? (key) => onSelectionChange(String(key)) : undefined}
      className={cx('flex flex-col gap-6', className)}
    >
      <TabList aria-label={label} className="flex gap-1 border-b border-gray-200 dark:border-gray-700">
        {tabs.map((t) => (
          <Tab
            key={t.id}
            id={t.id}
            className={cx(
              '-mb-px cursor-pointer border-b-2 border-transparent px-4 py-2.5 text-sm font-medium text-gray-600 outline-hidden',
              'hover:text-gray-900 data-[selected]:border-gray-900 data-[selected]:text-gray-900',
              'dark:text-gray-300 dark:hover:text-white dark:data-[selected]:border-gray-100 dark:data-[selected]:text-white',
              'data-[focus-visible]:rounded-t-md data-[focus-visible]:outline-2 data-[focus-visible]:outline-blue-600 dark:data-[focus-visible]:outline-blue-400',
            )}
          >
            {t.label}
          </Tab>
        ))}
      </TabList>
      {tabs.map((t) => (
        <TabPanel key={t.id} id={t.id} className="rounded-md outline-hidden data-[focus-visible]:outline-2 data-[focus-visible]:outline-offset-4 data-[focus-visible]:outline-blue-600 dark:data-[focus-visible]:outline-blue-400">
          {t.content}
        </TabPanel>
      ))}
    </AriaTabs>
  );
}
