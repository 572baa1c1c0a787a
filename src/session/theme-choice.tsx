import { Label } from 'react-aria-components/Label';
import { Radio, RadioGroup } from 'react-aria-components/RadioGroup';
import { Monitor, Moon, Sun } from 'lucide-react';
import { THEME_LABELS, themeChoices, type ThemeChoice } from '../../contract/theme';
import { sessionActor, useSession } from './session';

const ICONS = { system: Monitor, light: Sun, dark: Moon } satisfies Record<ThemeChoice, unknown>;

/**
 * The person's colour theme (issue 28): the system's, always light or always dark. Shown at once and kept with the
 * person by the session machine (`session.themeChosen`); a radio group, so arrow keys move between the three.
 */
export function ThemeChoiceControl() {
  const theme = useSession((c) => c.user?.theme ?? 'system');
  return (
    <RadioGroup
      value={theme}
      onChange={(value) => sessionActor.send({ type: 'session.themeChosen', theme: value as ThemeChoice })}
      orientation="horizontal"
      className="mt-3"
    >
      <Label className="mb-1 block text-xs font-medium text-gray-600 dark:text-gray-300">Theme</Label>
      <div className="grid grid-cols-3 gap-1 rounded-lg bg-gray-100 p-1 dark:bg-gray-900">
        {themeChoices.map((choice) => {
          const Icon = ICONS[choice];
          return (
            <Radio
              key={choice}
              value={choice}
              className="flex cursor-pointer items-center justify-center gap-1 rounded-md px-1 py-1.5 text-xs font-medium text-gray-700 outline-none hover:bg-white data-[focus-visible]:outline-2 data-[focus-visible]:outline-solid data-[focus-visible]:outline-offset-1 data-[focus-visible]:outline-blue-600 dark:data-[focus-visible]:outline-blue-400 data-[selected]:bg-white data-[selected]:text-gray-900 data-[selected]:shadow-sm dark:text-gray-300 dark:hover:bg-gray-700 dark:data-[selected]:bg-gray-700 dark:data-[selected]:text-white"
            >
              <Icon aria-hidden className="size-3.5 shrink-0" />
              {THEME_LABELS[choice]}
            </Radio>
          );
        })}
      </div>
    </RadioGroup>
  );
}
