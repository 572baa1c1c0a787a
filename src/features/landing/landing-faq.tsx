import { ChevronDown } from 'lucide-react';
import { Button } from 'react-aria-components/Button';
import { Disclosure, DisclosurePanel } from 'react-aria-components/Disclosure';
import { DisclosureGroup } from 'react-aria-components/DisclosureGroup';
import { Heading } from 'react-aria-components/Heading';
import { FAQ } from './landing-content';

/** The FAQ accordion: one answer open at a time, each question a real button with its expanded state. */
export function LandingFaq() {
  return (
    <DisclosureGroup className="divide-y divide-gray-200 rounded-2xl border border-gray-200 bg-white dark:divide-gray-700 dark:border-gray-700 dark:bg-gray-900">
      {FAQ.map((item) => (
        <Disclosure key={item.question} id={item.question} className="group">
          <Heading level={3} className="m-0">
            <Button
              slot="trigger"
              className="flex w-full cursor-pointer items-center justify-between gap-4 px-5 py-4 text-left text-base font-semibold text-gray-900 outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:text-gray-100"
            >
              {item.question}
              <ChevronDown aria-hidden className="size-5 shrink-0 transition-transform group-data-[expanded]:rotate-180" />
            </Button>
          </Heading>
          <DisclosurePanel>
            <p className="px-5 pb-5 text-gray-700 dark:text-gray-300">{item.answer}</p>
          </DisclosurePanel>
        </Disclosure>
      ))}
    </DisclosureGroup>
  );
}
