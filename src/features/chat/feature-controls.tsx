import { useId } from 'react';
import { Button as AriaButton } from 'react-aria-components/Button';
import { Menu, MenuItem, MenuTrigger } from 'react-aria-components/Menu';
import { Popover } from 'react-aria-components/Popover';
import { ToggleButton } from 'react-aria-components/ToggleButton';
import { Brain, Check, Globe, ImagePlus, SlidersHorizontal } from 'lucide-react';
import type { ReasoningEffort } from '../../../contract/chat';
import type { ChatTools } from '../../../contract/chat-tools';
import type { ChatOptions, OptionFeature } from '../../../machines/chat-screen.machine';
import { cx } from '../../ui/cx';
import { Tooltip } from '../../ui/tooltip';

export interface FeatureControlsProps {
  options: ChatOptions;
  /** What the person's package includes and the server has set up (the screen machine's `can`). */
  allowed: { browsing: boolean; imageGeneration: boolean; reasoning: boolean };
  /** What the server has set up (GET /chat/tools); null until known. */
  tools: ChatTools | null;
  onToggleOption(feature: OptionFeature): void;
  onToggleReasoning(): void;
}

export const EXCLUSIVE_NOTE = 'Image generation and web browsing exclude each other: choosing one turns the other off.';
const REASONING_LABELS: Record<ReasoningEffort, string> = { low: 'Low', medium: 'Medium' };

const chip = cx(
  'flex h-9 shrink-0 cursor-pointer items-center justify-center gap-1 rounded-lg px-2 text-xs font-medium text-gray-700 transition-colors hover:bg-gray-100',
  'data-[disabled]:cursor-not-allowed data-[disabled]:opacity-60 dark:text-gray-200 dark:hover:bg-gray-700',
  'data-[selected]:bg-primary/30 data-[selected]:text-gray-900 dark:data-[selected]:text-gray-50',
);
const popover = 'min-w-56 max-w-72 rounded-xl border border-gray-200 bg-white p-1 shadow-lg dark:border-gray-700 dark:bg-gray-800';
const item = cx(
  'flex cursor-pointer items-center gap-2 rounded-lg px-3 py-2 text-sm outline-none data-[focused]:bg-gray-100 dark:data-[focused]:bg-gray-700',
  'data-[disabled]:cursor-not-allowed data-[disabled]:text-gray-600 dark:data-[disabled]:text-gray-300',
);

/** A menu row: its icon, its name (and a line under it), and a check when it is the one chosen. */
function Row({ id, icon: Icon, label, detail, isDisabled }: { id: string; icon: typeof Globe; label: string; detail?: string; isDisabled?: boolean }) {
  return (
    <MenuItem id={id} textValue={detail ? `${label}. ${detail}` : label} isDisabled={isDisabled} className={item}>
      {({ isSelected }) => (
        <>
          <Icon aria-hidden className="size-4 shrink-0" />
          <span className="min-w-0 flex-1">
            <span className={cx('block', isSelected && 'font-semibold')}>{label}</span>
            {detail && <span className="block text-xs text-gray-600 dark:text-gray-300">{detail}</span>}
          </span>
          <Check aria-hidden className={cx('size-4 shrink-0', !isSelected && 'invisible')} />
        </>
      )}
    </MenuItem>
  );
}

/** Reasoning effort as a named choice ('Reasoning: Low'), its menu checking the current one (spec: low or medium). */
function ReasoningMenu({ effort, onToggle }: { effort: ReasoningEffort; onToggle(): void }) {
  const label = `Reasoning: ${REASONING_LABELS[effort]}`;
  return (
    <MenuTrigger>
      <Tooltip content="Reasoning effort">
        <AriaButton aria-label={label} className={chip}>
          <Brain aria-hidden className="size-4" />
          <span>{label}</span>
        </AriaButton>
      </Tooltip>
      <Popover placement="top start" className={popover}>
        <Menu
          aria-label="Reasoning effort"
          selectionMode="single"
          disallowEmptySelection
          selectedKeys={[effort]}
          // The machine toggles between the two: choosing the other one is one toggle, the same one nothing.
          onAction={(key) => key !== effort && onToggle()}
          className="outline-none"
        >
          <Row id="low" icon={Brain} label="Low" detail="Quicker answers" />
          <Row id="medium" icon={Brain} label="Medium" detail="Thinks longer before answering" />
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}

/** Why web browsing cannot be chosen, when the server has no search set up. */
const browsingReason = (tools: ChatTools | null) => (tools && !tools.web_browsing.available ? tools.web_browsing.reason : null);

/**
 * The input box's feature controls (spec "Features"): the premium package (the one with image generation) gets the
 * features menu, others one browsing toggle; then the reasoning effort. Browsing the server cannot do is shown
 * disabled with the reason; image generation without an image model is labelled as making demo images.
 */
export function FeatureControls({ options, allowed, tools, onToggleOption, onToggleReasoning }: FeatureControlsProps) {
  const reasoning = allowed.reasoning && <ReasoningMenu effort={options.reasoningEffort} onToggle={onToggleReasoning} />;
  const noBrowsing = browsingReason(tools);
  const reasonId = useId();
  if (!allowed.imageGeneration) {
    const showToggle = allowed.browsing || noBrowsing !== null;
    return (
      <>
        {showToggle && (
          <Tooltip content={noBrowsing ?? 'Web browsing'}>
            <ToggleButton
              aria-label="Web browsing"
              aria-describedby={noBrowsing ? reasonId : undefined}
              isSelected={options.browsing}
              isDisabled={noBrowsing !== null}
              onChange={() => onToggleOption('browsing')}
              className={cx(chip, !options.browsing && 'w-9 px-0')}
            >
              <Globe aria-hidden className="size-4" />
              {/* What is on shows before sending, in words. */}
              {options.browsing && <span>Web Browsing</span>}
            </ToggleButton>
          </Tooltip>
        )}
        {noBrowsing && (
          <span id={reasonId} hidden>
            {noBrowsing}
          </span>
        )}
        {reasoning}
      </>
    );
  }
  const active = options.browsing ? 'Web Browsing' : options.imageGeneration ? 'Image Generation' : null;
  const demoImages = tools?.image_generation.demo ?? false;
  return (
    <>
      <MenuTrigger>
        {/* The name holds what the button shows (WCAG 2.5.3: a voice user says what they see). */}
        <AriaButton aria-label={active ? `Features: ${active}` : 'Features'} className={cx(chip, active ? 'bg-primary/30' : 'w-9 px-0')}>
          <SlidersHorizontal aria-hidden className="size-4" />
          {active && <span>{active}</span>}
        </AriaButton>
        <Popover placement="top start" className={popover}>
          <p id="features-note" className="px-3 pt-2 pb-1 text-xs text-gray-600 dark:text-gray-300">
            {EXCLUSIVE_NOTE}
          </p>
          <Menu
            aria-label="Features"
            aria-describedby="features-note"
            selectionMode="multiple"
            selectedKeys={[options.browsing && 'browsing', options.imageGeneration && 'imageGeneration'].filter((k): k is string => !!k)}
            disabledKeys={noBrowsing !== null ? ['browsing'] : []}
            // Choosing one toggles it and closes the menu (spec), so each action handles exactly one key.
            onAction={(key) => onToggleOption(key as OptionFeature)}
            shouldCloseOnSelect
            className="outline-none"
          >
            <Row id="browsing" icon={Globe} label="Web Browsing" detail={noBrowsing ?? undefined} isDisabled={noBrowsing !== null} />
            <Row id="imageGeneration" icon={ImagePlus} label="Image Generation" detail={demoImages ? 'Demo images: no image model is set up' : undefined} />
          </Menu>
        </Popover>
      </MenuTrigger>
      {reasoning}
    </>
  );
}
